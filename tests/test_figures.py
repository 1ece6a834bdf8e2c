"""Every registered figure builds at a tiny budget, and its theory lines are the formulas of
varlab.theory: the plotted data are read back from the matplotlib axes and compared with the
formula at the plotted abscissae, so a wrong theory line in a recipe fails here. Simulated
curves of Fig. 2 must be the cached simulations of the claims they illustrate."""
import re

import numpy as np
import pytest

from varlab import plotting
from varlab.claims import Budget
from varlab.theory import gcws, nrff, rff

BUDGET = Budget("figure-test", 200)
#: papers 002-004 build their figures from real-data experiments (minutes at any budget); their
#: own test modules check the numbers behind them and `make reproduce` builds them
FIGURES = [f for f in plotting.figures() if f.paper in ("000", "001")]


def _gamma(label):
    return float(re.search(r"gamma = ([0-9.e+-]+)", label).group(1))


def _panel(title):
    match = re.search(r"rho = ([0-9.e+-]+), gamma = ([0-9.e+-]+)", title)
    return float(match.group(1)), float(match.group(2))


def _relative_variance_of_E(E):          # GCWS: (1 - E)/E, written out independently
    return (1.0 - E) / E


def _theory(figure_id, ax, label):
    """The formula a theory line must follow (x -> y), or None for lines that are not theory."""
    if figure_id == "000_fig1" and label.startswith("gamma"):
        return lambda x: nrff.variance_ratio(rho=x, gamma=_gamma(label))
    if figure_id == "000_fig2":
        r, g = _panel(ax.get_title())
        return {"V/k (Thm 2)": lambda k: rff.variance(rho=r, gamma=g) / k,
                "V_n/k (Thm 3)": lambda k: nrff.asymptotic_variance(rho=r, gamma=g) / k,
                "V_n/k + c2/k^2 (varlab)": lambda k: nrff.mse_expansion(rho=r, gamma=g, k=np.round(k).astype(int)),
                }.get(label)
    if figure_id == "000_fig3":
        return {"RFF": lambda E: rff.relative_variance_of_mean(E=E),
                "NRFF": lambda E: nrff.relative_variance_of_mean(E=E),
                "GCWS (1-E)/E": _relative_variance_of_E}.get(label)
    if figure_id == "000_fig4" and (label.startswith("gamma") or label.startswith("asymptotic")):
        return lambda x: gcws.variance_ratio(rho=x, gamma=_gamma(label))
    if figure_id == "001_fig1":
        if label.startswith("gamma"):
            return lambda x: rff.relative_variance(rho=x, gamma=_gamma(label))
        if label.startswith("RFF"):           # plotted against E = exp(-gamma (1 - rho)): E only
            return lambda E: rff.relative_variance_of_mean(E=E)
        if label.startswith("GCWS"):
            return _relative_variance_of_E
    return None


#: theory lines each figure must show (so that dropping one is caught too)
EXPECTED_THEORY_LINES = {"000_fig1": 6, "000_fig2": 18, "000_fig3": 3, "000_fig4": 8, "001_fig1": 7,
                         "000_fig10": 0, "000_fig16": 0, "000_accuracy_vs_k": 0,
                         "000_accuracy_vs_k_scaled": 0}   # real-data figures: no theory line


def test_every_registered_figure_has_a_theory_check():
    assert {f.id for f in FIGURES} == set(EXPECTED_THEORY_LINES)
    for item in FIGURES:
        assert item.paper == item.id.split("_")[0] and item.source
    assert plotting.get_figure("000_fig2").simulates and not plotting.get_figure("000_fig1").simulates
    with pytest.raises(ValueError, match="figure"):
        plotting.get_figure("999_fig1")


@pytest.mark.parametrize("item", FIGURES, ids=[f.id for f in FIGURES])
def test_figure_theory_lines_follow_the_formulas(item):
    fig = item.build(BUDGET)
    try:
        checked = 0
        for ax in fig.axes:
            for line in ax.get_lines():
                formula = _theory(item.id, ax, line.get_label())
                if formula is None:
                    continue
                x, y = (np.asarray(v, dtype=float) for v in line.get_data())
                np.testing.assert_allclose(y, formula(x), rtol=1e-10, err_msg=f"{item.id}: {line.get_label()}")
                checked += 1
        assert checked == EXPECTED_THEORY_LINES[item.id]
    finally:
        plotting.plt.close(fig)


def test_figure2_shows_the_claims_simulation():
    from paper_checks.p000 import rff as p000_rff

    fig = plotting.get_figure("000_fig2").build(BUDGET)
    try:
        nrff_result = p000_rff.figure2_nrff(BUDGET)      # cached: the claims' simulation
        for index, ax in enumerate(fig.axes[:len(p000_rff.FIGURE2_PANELS)]):
            line = next(l for l in ax.get_lines() if l.get_label() == "NRFF MSE (simulated)")
            np.testing.assert_array_equal(line.get_ydata(), nrff_result.mse[index])
    finally:
        plotting.plt.close(fig)


def test_figure4_finite_k_points_are_simulated_over_exact_variances():
    from paper_checks.p000 import figures as p000_figures

    fig = plotting.get_figure("000_fig4").build(BUDGET)
    try:
        right = fig.axes[1]
        labels = right.get_legend_handles_labels()[1]
        containers = [c for c in right.containers if c.get_label().startswith("finite k")]
        assert len(containers) == 4 and all(c.get_label() in labels for c in containers)
        for container in containers:
            k = int(re.search(r"k = (\d+)", container.get_label()).group(1))
            gamma = _gamma(container.get_label())
            simulated = p000_figures.figure4_nrff(BUDGET, gamma)
            column = list(p000_figures.FIGURE4_FINITE_K).index(k)
            exact = gcws.exact_variance(rho=p000_figures.FIGURE4_GRID, gamma=gamma, k=k)
            np.testing.assert_allclose(container.lines[0].get_ydata(),
                                       simulated.variance[:, column] / exact, rtol=1e-12)
    finally:
        plotting.plt.close(fig)
