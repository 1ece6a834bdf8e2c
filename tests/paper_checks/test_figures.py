"""Every registered figure builds at a tiny budget, and its theory lines are the formulas of
varlab.theory: the plotted data are read back from the matplotlib axes and compared with the
formula at the plotted abscissae, so a wrong theory line in a recipe fails here. Simulated
curves of Fig. 2 must be the cached simulations of the claims they illustrate. Papers 002-004
build theirs at the test budget, where the claims (tests/claims/test_claims.py) have run the same
simulations and experiments (but FIGURE_BUDGETS, whose claims are slow)."""
import math
import re

import numpy as np
import pytest

from varlab import claims, plotting
from varlab.claims import Budget
from varlab.theory import asymmetric, gcws, nrff, rff
from varlab.theory import moment_matching as mm
from varlab.theory import polynomial, signed

BUDGET = Budget("figure-test", 200)
#: the figure built from claim 002.table1's experiment (slow there too) and the ORF quadrature figure: `make test-slow`
SLOW = {"002_table1", "beyond_orf_ratio",   # beyond: 35 CPU s of quadrature (1800 points), built and checked twice
        "002_fig3", "004_fig3"}                # their LinearSVC trials: 70 s and 30 s at the test budget
FIGURES = plotting.figures()


def _gamma(label):
    return float(re.search(r"gamma = ([0-9.e+-]+)", label).group(1))


def _panel(title):
    match = re.search(r"rho = ([0-9.e+-]+), gamma = ([0-9.e+-]+)", title)
    return float(match.group(1)), float(match.group(2))


def _relative_variance_of_E(E):          # GCWS: (1 - E)/E, written out independently
    return (1.0 - E) / E


def _theory(figure_id, ax, line):
    """The formula a theory line must follow (x -> y), or None for lines that are not theory."""
    label = line.get_label()
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
    if figure_id == "002_fig1" and label.startswith("true "):
        return _fig1_mass(ax.get_title(), label[len("true "):])
    if figure_id == "003_mm_variance":
        return _mm_variance_line(label)
    if figure_id == "004_fig_variance":
        return _variance_ratio_line(ax.get_title(), label)
    if figure_id == "004_fig2":
        return _fig2_theory_line(ax, line)
    if figure_id == "beyond_orf_ratio":
        return _orf_ratio_line(ax.get_title(), label)
    return None


def _orf_ratio_line(title, label):
    """beyond's Var(ORF)/Var(iid) lines: stationary.orf_variance with k = d over the i.i.d. V/k,
    1 + (d - 1) C / V, C at the figure's quadrature nodes (test_beyond_figures.py: against
    orf_variance itself)."""
    from paper_checks.beyond.figures import NODES
    from varlab.theory import stationary

    match = re.fullmatch(r"d = (\d+)", label)
    if match is None:
        return None
    d = int(match.group(1))
    from varlab.theory import stationary_kernels

    kernel = {k.label: name for name, k in stationary_kernels(radial=True).items()}[title]
    return lambda r: 1.0 + (d - 1) * (stationary.radial_pair_covariance(kernel, d, r, nodes=NODES)
                                      / stationary.paired_variance(kernel, r))


def _fig1_mass(kernel, part):
    """002 Fig. 1's exact mass: sigma = 2, r = 2 (shift) or beta = pi/2 (1-D)."""
    vector = [2.0] if kernel == "shift_gaussian" else [0.5 * math.pi]
    name = {"real pos": "real_positive", "real neg": "real_negative", "imaginary": "imaginary_positive"}[part]
    mass = asymmetric.kernel_masses(kernel, asymmetric.spread_of(kernel, 2.0, vector))[name]
    return lambda x: np.full_like(x, mass)


def _mm_variance_line(label):
    """003's V_MM / V_CV* (left), m x bias / k (middle) and MSE_MM / MSE_MC (right) lines."""
    match = re.fullmatch(r"exact, s = ([0-9.]+)", label)
    if match:
        s = float(match.group(1))
        return lambda m: (mm.mm_moments(s, np.round(m).astype(int), "m-1")["variance"]
                          / mm.cv_optimal_variance(scaled_distance=s, m=np.round(m).astype(int)))
    match = re.fullmatch(r"s = ([0-9.]+), divisor (m-1|m)", label)
    if match:
        s, divisor = float(match.group(1)), match.group(2)
        return lambda m: m * mm.mm_moments(s, np.round(m).astype(int), divisor)["bias"] / mm.kernel(scaled_distance=s)
    match = re.fullmatch(r"(complex|cosine|phase), m = (\d+)", label)
    if match:
        features, m = match.group(1), int(match.group(2))
        mc = {"complex": mm.mc_variance, "cosine": mm.mc_cosine_variance, "phase": mm.mc_phase_variance}[features]
        return lambda s: mm.mm_moments(s, m, "m-1", features)["mse"] / mc(scaled_distance=s, m=m)
    return None


def _variance_ratio_line(title, label):
    """004's Var / Var(GRFF) lines: the exact variances of theory.polynomial (a = 3, m = 1,
    varlab's shell measure) in row (a) and of theory.signed (the delta-Gaussian) in row (b)."""
    match = re.fullmatch(r"(grff|gorf|gorf_separate), s = (\d+)", label)
    if match is None:
        return None
    kind = {"grff": "iid", "gorf": "mutual", "gorf_separate": "separate"}[match.group(1)]
    s, d = int(match.group(2)), int(re.search(r"d = (\d+)", title).group(1))
    row = "polynomial" if title.startswith("(a) polynomial") else "delta"
    return lambda r: _exact_variance(row, d, s, kind, r) / _exact_variance(row, d, s, "iid", r)


_EXACT_VARIANCES: dict = {}


def _exact_variance(row, d, s, kind, r):
    """The exact variance of row (a) (theory.polynomial, a = 3, m = 1) or (b) (theory.signed, the
    delta-Gaussian) at d, s and the distances r, each computed once in the session (the lines of
    a panel divide by the same GRFF variance)."""
    from varlab.spectral.polynomial import PolynomialSphere
    from varlab.spectral.signed import DeltaGaussian

    r = np.asarray(r, dtype=float)
    key = (row, d, s, kind, r.tobytes())
    if key not in _EXACT_VARIANCES:
        if row == "polynomial":
            value = polynomial.estimator_variance(PolynomialSphere(3.0, 1, d), d, r, float(s), kind)[:, 0]
        else:
            value = np.array([float(signed.estimator_variance(DeltaGaussian(), d, x, s, kind)) for x in r])
        _EXACT_VARIANCES[key] = value
    return _EXACT_VARIANCES[key]


def _fig2_theory_line(ax, line):
    """004 Fig. 2's theory lines (solid, unmarked, one colour per method): the square root of the
    expected squared error from varlab's exact variances on the panel's rows at each s
    (``approximation.theory_errors``, cached: about a second per point; claim 004.fig2.theory
    confirms it against the trials)."""
    from paper_checks.p004 import approximation as A

    if line.get_linestyle() != "-" or line.get_marker() not in (None, "None", ""):
        return None
    method = {"C0": "GRFF", "C1": "GORF", "C2": "GORF-separate", "C3": "RM"}[line.get_color()]
    name, kernel = next((n, k) for n in A.DATASETS for k in A.KERNELS
                        if ax.get_title().startswith(f"{n} ") and ax.get_title().endswith(A.LABELS[k]))
    budget = claims.budget("test")
    d = A.E.table2_rows(name, A.settings(budget.name)["n"], budget.random_state).shape[1]
    s_values = A.E.sizes(d, A.FACTORS)
    expected = dict(zip(s_values, A.theory_errors(budget.name, budget.random_state, kernel, name)[method]))
    return lambda s: np.sqrt([expected[int(v)] for v in s])


#: theory lines each figure must show (so that dropping one is caught too)
EXPECTED_THEORY_LINES = {"000_fig1": 6, "000_fig2": 18, "000_fig3": 3, "000_fig4": 8, "001_fig1": 7,
                         "000_fig10": 0, "000_fig16": 0, "000_accuracy_vs_k": 0,
                         "000_accuracy_vs_k_scaled": 0,   # real-data figures: no theory line
                         "002_fig1": 9, "002_fig2": 0, "002_table1": 0, "002_fig3": 0,
                         "003_fig1": 0, "003_fig2": 0, "003_fig3": 0, "003_table1": 0, "003_mm_variance": 15,
                         "004_fig_variance": 24,   # GRFF's and mutual GORF's ratios: one line for both s
                         "004_table2": 0, "004_table34": 0, "004_fig2": 14, "004_fig3": 0,
                         "beyond_orf_ratio": 18}     # six radial kernels x three d
#: papers 002-004 build at the test budget, whose simulations and experiments the claims have run
BUDGETS = {"002": claims.budget("test"), "003": claims.budget("test"), "004": claims.budget("test"),
           "beyond": claims.budget("test")}
#: figures whose simulations no claim of make test runs (their owners are slow), built at the tiny
#: budget: the lines checked here are formulas, whatever the budget. 003_mm_variance's left panel is
#: claim 003.cor2.eq15's simulation up to d = 500: 6.1 s at the test budget, 2.3 s here (its d = 500
#: part is at the 50-repetition minimum at both)
FIGURE_BUDGETS = {"003_mm_variance": BUDGET}


def test_every_registered_figure_has_a_theory_check():
    assert {f.id for f in FIGURES} == set(EXPECTED_THEORY_LINES)
    for item in FIGURES:
        assert item.paper == item.id.split("_")[0] and item.source
    assert plotting.get_figure("000_fig2").simulates and not plotting.get_figure("000_fig1").simulates
    with pytest.raises(ValueError, match="figure"):
        plotting.get_figure("999_fig1")


@pytest.mark.parametrize("item", [pytest.param(f, id=f.id, marks=[pytest.mark.slow] if f.id in SLOW else [])
                                  for f in FIGURES])
def test_figure_theory_lines_follow_the_formulas(item):
    fig = item.build(FIGURE_BUDGETS.get(item.id, BUDGETS.get(item.paper, BUDGET)))
    try:
        checked = 0
        for ax in fig.axes:
            for line in ax.get_lines():
                formula = _theory(item.id, ax, line)
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
            points = next(c for c in ax.containers if c.get_label() == "NRFF MSE (simulated ± SE)")
            np.testing.assert_array_equal(points[0].get_ydata(), nrff_result.mse[index])
            bars = points[2][0].get_segments()            # (k, 2, 2): mean -+ SE at each k
            np.testing.assert_allclose([b[1, 1] - b[0, 1] for b in bars], 2 * nrff_result.se_mse[index])
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


def test_the_one_figure_writer_writes_the_same_files_twice_and_skips_what_exists(tmp_path):
    """``plotting.write_figures``: PNG and a PDF without its creation date (the same bytes at a
    rerun), a table's markdown, each figure's entry in index.json; ``redo=False`` skips a figure
    whose PNG exists."""
    from varlab.claims import budget
    from varlab.plotting import Figure, read_index, table_figure, write_figures

    built = []

    def table(budget):
        built.append(budget.name)
        return table_figure([["a", "1"]], ["name", "value"], "a table")

    recipe = Figure("doc_table", "doc", "a table", table)
    quiet = dict(log=lambda line: None)
    first = write_figures([recipe], budget("test"), tmp_path, **quiet)
    assert [path.name for path in first] == ["doc_table.png", "doc_table.pdf", "doc_table.md"]
    pdf = (tmp_path / "doc_table.pdf").read_bytes()
    assert write_figures([recipe], budget("test"), tmp_path, **quiet) == first
    assert (tmp_path / "doc_table.pdf").read_bytes() == pdf
    assert write_figures([recipe], budget("test"), tmp_path, redo=False, **quiet) == [] and len(built) == 2
    assert read_index(tmp_path)["doc_table"]["budget"] == "test"
    assert [path.name for path in write_figures([recipe], budget("test"), tmp_path / "png", formats=("png",),
                                                **quiet)] == ["doc_table.png"]
