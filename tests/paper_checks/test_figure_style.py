"""The figure defects of issue 36 stay fixed: plain-text captions, told-apart lines, honest error
bars and a labelled paper row."""
import re

import numpy as np
from matplotlib.colors import to_rgb

from varlab import plotting
from varlab.claims import budget

#: a Sphinx role as written in a docstring (``:func:`name```), which figures/README.md and the docs'
#: paper pages would show raw
ROLE = re.compile(r":[a-z]+(:[a-z]+)?:`")


def test_captions_are_plain_text():
    for recipe in plotting.figures():
        assert not ROLE.search(recipe.caption), f"{recipe.id}: {recipe.caption}"
    assert plotting.get_figure("000_accuracy_vs_k_scaled").caption.startswith("000_accuracy_vs_k on features scaled")


def test_neighbouring_gamma_lines_differ_in_colour_and_style():
    from paper_checks.p000.figures import FIGURE1_GAMMAS, gamma_styles

    styles = gamma_styles(FIGURE1_GAMMAS)
    for first, second in zip(styles, styles[1:]):
        assert first["ls"] != second["ls"]
        assert np.linalg.norm(np.subtract(to_rgb(first["color"]), to_rgb(second["color"]))) > 0.15


def test_equal_kernel_svm_lines_interleave():
    """Where the GMM and RBF kernel SVMs are equally accurate (magic), their dashes alternate."""
    from paper_checks.p000.hashing_figures import _kernel_lines

    fig, ax = plotting.subplots()
    try:
        best = {("magic", "gmm"): {"accuracy": 0.863}, ("magic", "rbf"): {"accuracy": 0.863}}
        _kernel_lines(ax, best, "magic", "RBF kernel SVM")
        gmm, rbf = ax.get_lines()
        assert gmm.get_ydata()[0] == rbf.get_ydata()[0] == 86.3
        (gmm_offset, gmm_dashes), (rbf_offset, rbf_dashes) = gmm._unscaled_dash_pattern, rbf._unscaled_dash_pattern
        assert gmm_dashes == rbf_dashes and rbf_offset - gmm_offset == gmm_dashes[0]
    finally:
        plotting.plt.close(fig)


def test_gram_error_bars_need_enough_repetitions():
    from paper_checks.p003.figures import MIN_BAR_REPETITIONS, _bars_note, _with_bars

    fig, ax = plotting.subplots()
    try:
        mean, se = [0.1, 0.05], [0.01, 0.005]
        assert not _with_bars(ax, [32, 64], mean, se, "MM", 2)
        assert _with_bars(ax, [32, 64], mean, se, "MM", MIN_BAR_REPETITIONS)
        assert not _with_bars(ax, [32, 64], mean, [np.nan, np.nan], "MM", 100)
        assert "2 repetitions are too few" in _bars_note(False, 2)
    finally:
        plotting.plt.close(fig)


def test_table1_gives_each_sampler_its_paper_number(monkeypatch):
    from paper_checks.p003 import experiments as E
    from paper_checks.p003 import figures

    sizes = dict(E.sizes(budget("quick")))
    monkeypatch.setattr(E, "sizes", lambda budget: sizes)
    monkeypatch.setattr(E, "table1", lambda budget: {"lr500": {s: np.full((3, 2), 0.3) for s in E.FEATURE_SAMPLERS}})
    fig = figures.table1(None)
    try:
        rows = [line.split(" | ") for line in fig.markdown.splitlines() if line.startswith("| LR500, the paper")]
        assert [row[1] for row in rows] == ["4096", "512"]
        header = next(line for line in fig.markdown.splitlines() if line.startswith("| data"))
        columns = [cell.split(" (")[0] for cell in header.strip("| ").split(" | ")]
        for j, row in enumerate(rows):
            for sampler in E.FEATURE_SAMPLERS:
                assert float(row[columns.index(sampler)].strip(" |")) == E.PAPER_TABLE1_LR500[sampler][j]
    finally:
        plotting.plt.close(fig)
