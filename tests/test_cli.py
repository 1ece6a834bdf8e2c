"""The varlab command: figures and check write what they promise."""
import json

from varlab import cli


def test_figures_writes_png_pdf_and_readme(tmp_path):
    cli.main(["figures", "--only", "000_fig1", "000_fig3", "--budget", "test", "--out", str(tmp_path)])
    for name in ("000_fig1", "000_fig3"):
        assert (tmp_path / f"{name}.png").stat().st_size > 1000
        assert (tmp_path / f"{name}.pdf").stat().st_size > 1000
    readme = (tmp_path / "README.md").read_text()
    assert "000 Figure 1" in readme and "analytic" in readme


def test_check_writes_reports(tmp_path):
    cli.main(["check", "--paper", "001", "--budget", "test", "--out", str(tmp_path)])
    payload = json.loads((tmp_path / "001" / "report.json").read_text())
    assert payload["budget"]["name"] == "test"
    assert {claim["id"] for claim in payload["claims"]} == {"001.eq11", "001.fig1"}


def test_simulate_prints_records(capsys):
    cli.main(["simulate", "rff", "--rho", "0.5", "--gamma", "1", "--k", "1", "10", "--repetitions", "200"])
    records = json.loads(capsys.readouterr().out)
    assert len(records) == 2 and {"mean", "se_mean", "mse"} <= set(records[0])


def test_unknown_figure_is_an_error(tmp_path):
    import pytest

    with pytest.raises(SystemExit, match="unknown figure"):
        cli.main(["figures", "--only", "nope", "--out", str(tmp_path)])
