"""The habits users bring to a command line and to a simulation result: a close name suggested for
a misspelt command, listing, option or model parameter; help from a bare ``varlab``; a paper typed
as "2"; ``verify`` from any directory; distinct column names; JSON Lines; no progress bar in a
redirected log; ``product=`` and ``to_frame`` on ``mc.simulate``."""
import json
import os

import numpy as np
import pytest

from varlab import cli, mc


@pytest.mark.parametrize("argv, suggestion", [
    (["chek"], "(did you mean 'check'?)"),
    (["list", "model"], "(did you mean 'models'?)"),
    (["check", "--budgt", "test"], "(did you mean '--budget'?)"),
    (["simulate", "rff", "--k", "1", "--repetitons", "3", "--rho", "0.5", "--gamma", "1"],
     "(did you mean 'repetitions'?)"),
    (["simulate", "rff", "--k", "1", "--rho", "0.5", "--gama", "1"], "(did you mean 'gamma'?)"),
])
def test_a_misspelt_name_gets_the_closest_one(argv, suggestion, capsys):
    try:
        status = cli.main(argv)
    except SystemExit as exit_:
        status = exit_.code
    assert status == 2 and suggestion in capsys.readouterr().err


def test_bare_varlab_prints_the_commands_and_where_to_start(capsys):
    assert cli.main([]) == 0
    out = capsys.readouterr().out
    assert "varlab check" in out and "Start with `varlab list`" in out


def test_a_paper_typed_as_a_number_is_its_key():
    args = cli._parser().parse_args(["check", "--paper", "2", "02", "beyond"])
    assert args.paper == ["002", "002", "beyond"]


def test_verify_finds_the_projects_folder_from_any_directory(tmp_path, capsys):
    here = os.getcwd()
    try:
        os.chdir(tmp_path)
        assert cli.main(["verify", "tests/reports"]) == 0
    finally:
        os.chdir(here)
    assert "all files match the manifest" in capsys.readouterr().out


def test_simulate_names_each_standard_error_and_writes_json_lines(capsys):
    argv = ["simulate", "rff", "--k", "1", "4", "--repetitions", "50", "--rho", "0.5", "--gamma", "1"]
    assert cli.main(argv) == 0
    header = capsys.readouterr().out.splitlines()[1].split()
    assert {"se(mean)", "se(variance)", "se(MSE)"} <= set(header) and "se" not in header
    assert cli.main(argv + ["--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert [json.loads(line)["k"] for line in lines] == [1, 4]


def test_the_progress_bar_is_left_to_tqdm_to_show_only_on_a_terminal(monkeypatch):
    from varlab.mc import engine

    seen = []

    class Recording(engine.tqdm):
        def __init__(self, *args, **kwargs):
            seen.append(kwargs["disable"])
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(engine, "tqdm", Recording)
    for progress, disable in ((None, None), (True, False), (False, True)):
        mc.simulate("rff", k=[1], n_repetitions=20, rho=0.5, gamma=1.0, random_state=0,
                    progress=progress)
        assert seen[-1] is disable        # None: tqdm disables itself off a terminal


def test_simulate_takes_product_and_points_to_it_when_grids_do_not_broadcast():
    result = mc.simulate("rff", k=[1], n_repetitions=20, random_state=0, rho=[0.0, 0.5, 0.9],
                         gamma=[1.0, 2.0], product=True)
    assert result.grid["rho"].tolist() == [0.0, 0.0, 0.5, 0.5, 0.9, 0.9]
    assert result.grid["gamma"].tolist() == [1.0, 2.0] * 3
    with pytest.raises(ValueError, match=r"pass product=True \(or varlab.mc.product_grid"):
        mc.simulate("rff", k=[1], n_repetitions=20, random_state=0, rho=[0.0, 0.5, 0.9],
                    gamma=[1.0, 2.0])


def test_to_frame_is_the_records_as_a_data_frame():
    pandas = pytest.importorskip("pandas")
    result = mc.simulate("rff", k=[1, 10], n_repetitions=100, random_state=0, rho=[0.0, 0.5],
                         gamma=1.0)
    frame = result.to_frame()
    assert isinstance(frame, pandas.DataFrame) and frame.shape == (4, len(result.records()[0]))
    assert np.array_equal(frame["mse"].to_numpy(), result.mse.reshape(-1))


def test_every_measure_is_listed_with_its_description():
    rows = cli.listing("measures")
    assert rows and all(description for _, description in rows)


def test_listing_claims_and_figures_imports_no_matplotlib():
    import subprocess
    import sys

    code = ("import sys; from varlab import cli; cli.listing('claims'); cli.listing('figures'); "
            "print('matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_a_misspelt_data_set_gets_the_closest_name():
    from varlab import datasets

    with pytest.raises(ValueError, match=r"unknown data set 'optdigit' \(did you mean 'optdigits'\?\)"):
        datasets.load("optdigit")
