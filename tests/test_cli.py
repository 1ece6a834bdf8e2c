"""The varlab command: list, figures, check and simulate write what they promise; bad input
gets one line and status 2, never a traceback."""
import json
from pathlib import Path

import pytest

from varlab import claims, cli, mc


def test_list_shows_every_registry(capsys):
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    for section in cli.LISTINGS:
        assert f"{section} (" in out
    for name in ("000", "001", "000.thm2.eq16", "000_fig1", "nrff", "gcws_rbf_hashed", "iid",
                 "rff.mean", "rho", "letter"):
        assert name in out
    assert "parameters rho, gamma" in out and "data_dimension=100" in out


def test_figures_writes_png_pdf_and_readme(tmp_path):
    assert cli.main(["figures", "--only", "000_fig1", "000_fig3", "--budget", "test",
                     "--out", str(tmp_path)]) == 0
    for name in ("000_fig1", "000_fig3"):
        assert (tmp_path / f"{name}.png").stat().st_size > 1000
        assert (tmp_path / f"{name}.pdf").stat().st_size > 1000
    readme = (tmp_path / "README.md").read_text()
    assert "analytic" in readme


def test_check_writes_reports(tmp_path):
    assert cli.main(["check", "--paper", "001", "--budget", "test", "--out", str(tmp_path)]) == 0
    payload = json.loads((tmp_path / "001" / "report.json").read_text())
    assert payload["budget"]["name"] == "test"
    assert {claim["id"] for claim in payload["claims"]} == {claim.id for claim in claims.claims("001")}


#: the table's columns after the grid's and their printed significant digits
TABLE_COLUMNS = [("k", None), ("mean", 6), ("se_mean", 6), ("bias", 6), ("variance", 6),
                 ("se_variance", 6), ("theory_variance", 6), ("mse", 6), ("se_mse", 3), ("theory_mse", 6)]


@pytest.mark.parametrize("model", ["rff", "nrff"])
def test_simulate_prints_a_table_with_theory(capsys, model):
    """Every cell of the table is its record's value (mc.simulate with the command's seed 0) to the
    printed digits, so a value in the wrong column fails."""
    assert cli.main(["simulate", model, "--rho", "0.5", "0.9", "--gamma", "1", "--k", "1", "10",
                     "--repetitions", "200"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"model {model}: 200 repetitions")
    header = out[1].split()
    assert header[:3] == ["rho", "gamma", "k"] and "theory" in header and "MSE" in header
    assert len(out) == 2 + 4
    records = mc.simulate(model, rho=[0.5, 0.9], gamma=1.0, k=[1, 10], n_repetitions=200,
                          random_state=0, progress=False).records()
    for line, record in zip(out[2:], records):
        cells = line.split()
        assert len(cells) == 2 + len(TABLE_COLUMNS)
        assert (float(cells[0]), float(cells[1])) == (record["rho"], record["gamma"])
        for cell, (name, digits) in zip(cells[2:], TABLE_COLUMNS):
            if digits is None:
                assert int(cell) == record[name]
            else:
                assert float(cell) == pytest.approx(record[name], rel=10.0 ** (1 - digits)), (name, line)


def test_simulate_json_and_model_options(capsys):
    assert cli.main(["simulate", "gcws_rbf_hashed", "--rho", "0.5", "--gamma", "1", "--k", "1",
                     "--repetitions", "20", "--option", "data_dimension=20", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]   # JSON Lines
    assert len(records) == 1 and {"mean", "se_mean", "mse", "rho", "gamma"} <= set(records[0])


def test_simulate_at_the_edge_of_float64(capsys):
    """gamma near the float64 maximum: a finite result (the kernel is 0; h(Xbar) is 1 where all k
    samples collide), not a traceback."""
    assert cli.main(["simulate", "gcws_rbf", "--rho", ".5", "--gamma", "1e308", "--k", "1",
                     "--repetitions", "20", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert records[0]["target"] == 0.0 and 0.0 <= records[0]["mse"] <= 1.0


def test_simulate_device(capsys):
    """--device cpu gives the default's numbers; cuda refuses a host-only model in one line."""
    argv = ["simulate", "nrff", "--rho", "0.5", "--gamma", "1", "--k", "1", "--repetitions", "20", "--json"]
    assert cli.main(argv) == 0
    default = capsys.readouterr().out
    assert cli.main(argv + ["--device", "cpu"]) == 0 and capsys.readouterr().out == default
    assert cli.main(["simulate", "gcws_rbf_hashed", "--rho", "0.5", "--gamma", "1", "--k", "1",
                     "--device", "cuda"]) == 2
    assert capsys.readouterr().err == ("varlab: error: model 'gcws_rbf_hashed' cannot run on device "
                                       "'cuda': it hashes with varlab.features.GCWS on the host\n")


def test_simulate_help_lists_models_and_parameters(capsys):
    with pytest.raises(SystemExit):
        cli.main(["simulate", "--help"])
    out = capsys.readouterr().out
    assert "nrff: --rho --gamma" in out and "data_dimension" in out


@pytest.mark.parametrize("argv,fragment", [
    (["check", "--paper", "999"], "unknown paper"),
    (["figures", "--only", "nope"], "unknown figure"),
    (["figures", "--only", "000_fig1", "--out", "/dev/null/x"], "cannot create"),
    (["simulate", "gcws_rbf", "--rho", ".5", "--gamma", "-1", "--k", "1"], "gamma"),
    (["simulate", "nrff", "--rho", "2", "--gamma", "1", "--k", "1"], "rho"),
    (["simulate", "nrff", "--rho", "0.5", "--k", "1"], "--gamma"),
    (["simulate", "nrff", "--rho", "0.5", "--gamma", "x", "--k", "1"], "not a number"),
    (["simulate", "nrff", "--rho", "0.5", "--gamma", "1", "--k", "1", "--sigma", "1"], "unknown option"),
    (["simulate", "no_model", "--k", "1"], "unknown model 'no_model'"),
    (["simulate", "nrf", "--k", "1"], "(did you mean 'nrff'?)"),
    (["check", "--paper", "001", "--budget", "test", "--compare", "no_such_directory"], "no reports"),
    (["check", "--paper", "001", "--budget", "quick", "--compare",
      str(Path(__file__).resolve().parent / "reports")], "are at budget 'test'; compare a regeneration"),
    (["simulate", "nrff", "--rho", "1.5", "--gamma", "1", "--k", "1"], "rho must be in [-1.0, 1.0], got 1.5"),
    (["simulate", "nrff", "--rho", "0.5", "--gamma", "1", "--k", "1", "--option", "x=1"], "takes no options"),
    (["simulate", "gcws_rbf_hashed", "--rho", "0.5", "--gamma", "1", "--k", "1", "--option", "data_dim=1"],
     "(did you mean 'data_dimension'?)"),
])
def test_errors_are_one_line(capsys, argv, fragment):
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("varlab: error:") and fragment in err[0], captured.err


def test_outputs_go_to_the_project_not_the_current_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli._repository_root() == Path(cli.__file__).resolve().parents[1]


def test_figures_only_updates_its_own_manifest_entries(tmp_path):
    out = tmp_path / "figures"
    assert cli.main(["figures", "--only", "000_fig1", "000_fig3", "--out", str(out)]) == 0
    first = json.loads((out / "manifest.json").read_text())
    assert cli.main(["figures", "--only", "000_fig1", "--out", str(out)]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["run"] == first["run"] and manifest["files"]["000_fig3.png"] == first["files"]["000_fig3.png"]
    assert manifest["partial_runs"][-1]["files"] == ["000_fig1.pdf", "000_fig1.png", "README.md", "index.json"]
    assert cli.main(["verify", str(out)]) == 0
    readme = (out / "README.md").read_text()
    assert "| `000_fig1` ([png](000_fig1.png), [pdf](000_fig1.pdf)) |" in readme and "no simulation" in readme


def test_check_paper_updates_only_its_own_manifest_entries(tmp_path, monkeypatch):
    """A partial ``check --paper P`` re-hashes P's reports and records its run under
    ``partial_runs``; the full run's record and the other papers' entries are kept. Written to
    --out (or the project's paper_checks/reports), never to the current directory."""
    from varlab import manifest

    monkeypatch.chdir(tmp_path)
    out = tmp_path / "reports"
    (out / "000").mkdir(parents=True)
    (out / "000" / "report.md").write_text("another paper's report\n")
    (out / "001").mkdir()
    (out / "001" / "stale.md").write_text("gone after the run\n")
    manifest.write(out, run={"command": "varlab check"})
    first = manifest.read(out)
    (out / "001" / "stale.md").unlink()
    assert cli.main(["check", "--paper", "001", "--budget", "test", "--out", "reports"]) == 0
    written = manifest.read(out)
    assert written["run"] == first["run"] and written["files"]["000/report.md"] == first["files"]["000/report.md"]
    assert written["partial_runs"][-1]["files"] == ["001/points.md", "001/report.json", "001/report.md",
                                                    "001/stale.md"]    # the entries it updated
    assert written["partial_runs"][-1]["run"]["command"] == "varlab check --paper 001"
    assert "001/stale.md" not in written["files"] and cli.main(["verify", str(out)]) == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == ["reports"]


def test_default_outputs_are_the_projects(tmp_path, monkeypatch):
    """check's reports and the full budget's checkpoints default to the project's folders, not
    the current directory's."""
    import argparse

    monkeypatch.chdir(tmp_path)
    root = Path(cli.__file__).resolve().parents[1]
    calls = []
    monkeypatch.setattr("varlab.claims.check", lambda papers, budget, out, log, until_decided=None:
                        calls.append(out) or {})
    monkeypatch.setattr("varlab.manifest.write", lambda directory, run, files=None: None)
    cli.run_checks(["001"], "test")
    assert calls == [root / "paper_checks" / "reports"]
    args = argparse.Namespace(budget="full", checkpoint=None, n_jobs=None, scheduler=None)
    with cli._engine_settings(args) as settings:
        assert settings["checkpoint_root"] == root / ".varlab-checkpoints" / "simulations"


def test_check_resumes_from_its_checkpoint_and_writes_a_verifiable_manifest(tmp_path, capsys):
    argv = ["check", "--paper", "001", "--budget", "test", "--checkpoint", str(tmp_path / "ck")]
    assert cli.main(argv + ["--out", str(tmp_path / "first")]) == 0
    store = tmp_path / "ck" / "store" / "verdicts.jsonl"
    lines = store.read_text().splitlines(keepends=True)
    assert len(lines) == len(claims.claims("001"))   # one stored verdict per claim
    store.write_text(lines[0] + lines[1][:20])    # as if killed while writing the second
    assert cli.main(argv + ["--out", str(tmp_path / "second")]) == 0
    first = (tmp_path / "first" / "001" / "report.json").read_text()
    assert (tmp_path / "second" / "001" / "report.json").read_text() == first
    assert cli.main(["verify", str(tmp_path / "second")]) == 0
    (tmp_path / "second" / "001" / "report.md").write_text("edited\n")
    assert cli.main(["verify", str(tmp_path / "second")]) == 1
    assert "changed: 001/report.md" in capsys.readouterr().out
    assert cli.main(["verify", str(tmp_path / "nowhere")]) == 2


def test_check_compare_says_what_moved_and_fails_only_then(tmp_path, capsys):
    """--compare regenerates into a temporary directory and compares with the stored reports at
    the tolerances of varlab.claims.compare (tests/claims/test_report_comparison.py): the committed
    test-budget reports match; a stored copy with a flipped outcome and a formula off by 1e-3
    gives exit status 1 and names the claim and the number."""
    assert cli.main(["check", "--paper", "001", "--budget", "test", "--compare"]) == 0
    assert "every outcome, word and number within tolerance" in capsys.readouterr().out
    stored = tmp_path / "stored"
    (stored / "001").mkdir(parents=True)
    committed = Path(cli.__file__).resolve().parents[1] / "tests" / "reports" / "001" / "report.json"
    payload = json.loads(committed.read_text())
    payload["claims"][1]["outcome"] = "contradicted"
    payload["claims"][0]["rows"][0]["theory"] *= 1 + 1e-3
    (stored / "001" / "report.json").write_text(json.dumps(payload))
    assert cli.main(["check", "--paper", "001", "--budget", "test", "--compare", str(stored)]) == 1
    out = capsys.readouterr().out
    assert f"{payload['claims'][1]['id']}: moved" in out and "outcome: 'confirmed' vs 'contradicted'" in out
    assert f"{payload['claims'][0]['id']}: moved" in out and "rows[0].theory" in out
    assert "2 moved beyond tolerance" in out


def test_bench_with_a_name_that_matches_no_benchmark_is_an_error(capsys):
    assert cli.main(["bench", "zzz"]) == 2
    assert "no benchmark file name contains 'zzz'" in capsys.readouterr().err
