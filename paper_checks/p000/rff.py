"""Claims of paper 000 §2 (RFF and NRFF; Theorems 2 and 3), and varlab's own results beyond it.

Simulations use the sampling model of Theorem 2: x, y standard bivariate normal with
correlation rho, w ~ U(0, 2 pi). The NRFF claims on the six Fig. 2 panels read one simulation
over Fig. 2's k grid (label "fig2" of claim ``000.thm3.eq20``), which Fig. 2 itself reuses.
"""
from __future__ import annotations

import numpy as np

from varlab.claims import Z_MAX, claim
from varlab.theory import nrff, rff

#: (rho, gamma) points for per-sample moment checks: similarity high to negative, gamma small to large.
MOMENT_POINTS = [(rho, gamma) for gamma in (0.5, 1.0, 5.0) for rho in (-0.5, 0.0, 0.5, 0.9, 0.99)]
#: the same points as a declaration's grid (every combination)
MOMENT_GRID = dict(grid=dict(rho=(-0.5, 0.0, 0.5, 0.9, 0.99), gamma=(0.5, 1.0, 5.0)), product=True)
#: The six panels of Fig. 2: high/medium/low similarity x small/large gamma.
FIGURE2_PANELS = ((0.99, 1.0), (0.75, 1.0), (0.0, 1.0), (0.99, 10.0), (0.9, 10.0), (0.5, 10.0))
#: k grid of Fig. 2 and the finite-k claims: 1..1000, ~30 log-spaced values.
FIGURE2_K = np.unique(np.round(np.logspace(0, 3, 31)).astype(int))
#: The simulation of NRFF on the Fig. 2 panels and k grid, shared by claims and Fig. 2.
FIGURE2_NRFF = dict(claim_id="000.thm3.eq20", label="fig2")


def points(pairs):
    """(rho, gamma) arrays of a list of (rho, gamma) pairs."""
    return (np.array([p[0] for p in pairs], dtype=float), np.array([p[1] for p in pairs], dtype=float))


def parameters(pairs, k_values):
    """One dict per (point, k), in the engine's (point, k) order."""
    return [dict(rho=r, gamma=g, k=int(kk)) for (r, g) in pairs for kk in k_values]


def moment_agreement(run, *, model, formula, moment, k, quantity, pairs=MOMENT_POINTS):
    """Verdict of one per-sample moment formula against the engine at ``pairs``: ``moment`` is
    "mean" (theory: ``formula``) or "variance" (theory: ``formula`` / k, exact for k samples)."""
    rho, gamma = points(pairs)
    result = run.simulate(model, label=moment, k=k, rho=rho, gamma=gamma)
    per_sample = formula(rho=rho, gamma=gamma)[:, None]
    kk = np.asarray(k, dtype=float)[None, :]
    if moment == "variance":
        theory, estimate, se = per_sample / kk, result.variance, result.se_variance
    else:
        theory, estimate, se = np.broadcast_to(per_sample, result.mean.shape), result.mean, result.se_mean
    return run.agreement(theory=theory, estimate=estimate, standard_error=se,
                         parameters=parameters(pairs, k), quantity=quantity)


def figure2_nrff(run_or_budget):
    """The NRFF simulation on Fig. 2's panels and k grid (cached; claims and Fig. 2 share it)."""
    from varlab.claims import simulate_for

    budget = getattr(run_or_budget, "budget", run_or_budget)
    rho, gamma = points(FIGURE2_PANELS)
    return simulate_for(FIGURE2_NRFF["claim_id"], budget, "nrff", label=FIGURE2_NRFF["label"],
                        k=FIGURE2_K, rho=rho, gamma=gamma)


def _columns(k_values):
    """Column indices of ``k_values`` in FIGURE2_K."""
    return np.array([int(np.flatnonzero(FIGURE2_K == kk)[0]) for kk in k_values])


@claim("000.thm2.eq16", source="000, Thm 2, Eq. (16)",
       statement="E[sqrt2 cos(sqrt(gamma) x + w) sqrt2 cos(sqrt(gamma) y + w)] = exp(-gamma (1 - rho)).")
def rff_mean(run):
    return moment_agreement(run, model="rff", formula=rff.mean, moment="mean", k=[1, 10],
                            quantity="mean of the k-sample RFF estimator")


@claim("000.thm2.eq17", source="000, Thm 2, Eq. (17)",
       statement="E[cos(sqrt(gamma) x) cos(sqrt(gamma) y)] = e^{-gamma(1-rho)}/2 + e^{-gamma(1+rho)}/2.")
def no_phase_mean(run):
    return moment_agreement(run, model="rff_no_phase", formula=rff.no_phase_mean, moment="mean",
                            k=[1, 10], quantity="mean of the k-sample no-phase estimator")


@claim("000.thm2.eq18", source="000, Thm 2, Eq. (18); variance V/k exactly for k samples",
       statement="Var of one RFF sample = 1/2 + (1 - e^{-2 gamma (1 - rho)})^2 / 2, so k samples "
                 "give V/k.")
def rff_variance(run):
    return moment_agreement(run, model="rff", formula=rff.variance, moment="variance",
                            k=[1, 10, 100], quantity="variance of the k-sample RFF estimator")


@claim("000.thm2.half", source="000, Thm 2, Eq. (18): the constant 1/2 term",
       statement="The RFF variance has a constant 1/2 term: it is >= 1/2 everywhere and equals 1/2 "
                 "even at rho = 1 (identical vectors).")
def constant_half(run):
    """The per-sample RFF variance is 1/2 at rho = 1 (simulated) and >= 1/2 on a (rho, gamma)
    grid (analytic)."""
    pairs = [(1.0, gamma) for gamma in (0.1, 1.0, 10.0, 100.0)]
    rho, gamma = points(pairs)
    result = run.simulate("rff", k=[1], rho=rho, gamma=gamma)
    floor = float(np.min(rff.variance(rho=np.linspace(-1, 1, 2001)[:, None],
                                      gamma=np.logspace(-3, 3, 61)[None, :])))
    return run.agreement(theory=rff.variance(rho=rho, gamma=gamma), estimate=result.variance[:, 0],
                         standard_error=result.se_variance[:, 0], parameters=parameters(pairs, [1]),
                         quantity="variance of one RFF sample at rho = 1 (theory 1/2)",
                         also_holds=floor >= 0.5,
                         extra_summary=f"min over the (rho, gamma) grid of V = {floor:.17g} "
                                       "(>= 1/2 analytically)")


@claim("varlab.000.no_phase_variance", source=rff.no_phase_variance.source, derived_by_varlab=True,
       statement="Var[cos(sqrt(gamma) x) cos(sqrt(gamma) y)] = [(1 - e^{-2gamma(1-rho)})^2 + "
                 "(1 - e^{-2gamma(1+rho)})^2] / 8 (not in the papers).")
def no_phase_variance(run):
    return moment_agreement(run, model="rff_no_phase", formula=rff.no_phase_variance,
                            moment="variance", k=[1, 10],
                            quantity="variance of the k-sample no-phase estimator")


@claim("000.thm3.vn_below_v", source="000, Thm 3, remark after Eq. (21)",
       statement="V_n < V everywhere, and V_n = 0 at rho = 1.")
def vn_below_v(run):
    """V_n < V on a grid (Eq. 20 vs Eq. 21), V_n = 0 at rho = 1, and simulated NRFF is exact
    (MSE = variance = 0) at rho = 1."""
    grid_rho = np.concatenate([np.linspace(-1, 1, 4001), 1 - np.logspace(-15, -1, 57)])[:, None]
    grid_gamma = np.logspace(-3, 3, 121)[None, :]
    v = rff.variance(rho=grid_rho, gamma=grid_gamma)
    vn = nrff.asymptotic_variance(rho=grid_rho, gamma=grid_gamma)
    strict = vn < v
    equal_only_at_underflow = np.all(strict | (np.exp(-2 * grid_gamma * (1 - grid_rho)) < 1e-15))
    at_one = nrff.asymptotic_variance(rho=np.ones(5), gamma=np.logspace(-3, 3, 5))
    result = run.simulate("nrff", k=[1, 10, 100], rho=[1.0, 1.0], gamma=[1.0, 10.0])
    simulated_zero = bool(np.all(result.mse == 0) and np.all(result.variance == 0))
    holds = bool(equal_only_at_underflow and np.all(at_one == 0.0) and simulated_zero)
    summary = (f"V_n < V at {int(strict.sum())} of {strict.size} grid points; the others have "
               f"exp(-2 gamma (1 - rho)) < 1e-15, where V_n = V = 1 to double precision; "
               f"max V_n/V = {float(np.max(vn / v)):.6g}; V_n(rho=1) = {at_one.tolist()}; simulated "
               f"NRFF at rho = 1: MSE = {result.mse.max():.3g}, variance = {result.variance.max():.3g}")
    return run.verdict(holds, summary, theory=0.0, estimate=result.mse.max(), standard_error=0.0)


#: k of Fig. 2's grid at which the large-k form V_n/k + c2/k^2 of Eq. (20) is tested
LARGE_K = tuple(int(k) for k in FIGURE2_K[FIGURE2_K >= 500])


@claim("000.thm3.eq20", source="000, Thm 3, Eq. (19)-(20)",
       statement="sqrt(k)(NRFF - e^{-gamma(1-rho)}) -> N(0, V_n): at large k the MSE is V_n/k "
                 "(+ O(1/k^2)).")
def nrff_asymptotic(run):
    """Simulated MSE of NRFF at k >= 500 against V_n/k + c2/k^2, in SE (the O(1/k^3) remainder is
    below 1e-3 of the SE there at the full budget; see ``varlab.nrff.mse_second_order``)."""
    result = figure2_nrff(run)
    columns = _columns(LARGE_K)
    rho, gamma = points(FIGURE2_PANELS)
    kk = np.asarray(LARGE_K)[None, :]
    mse = result.mse[:, columns]
    ratio = mse * kk / nrff.asymptotic_variance(rho=rho, gamma=gamma)[:, None]
    return run.agreement(theory=nrff.mse_expansion(rho=rho[:, None], gamma=gamma[:, None], k=kk),
                         estimate=mse, standard_error=result.se_mse[:, columns],
                         parameters=parameters(FIGURE2_PANELS, LARGE_K),
                         quantity="MSE of NRFF vs V_n/k + c2/k^2 at large k",
                         extra_summary=f"k MSE / V_n ranges over [{ratio.min():.4f}, {ratio.max():.4f}]")


def first_k_within(ratio_error: np.ndarray, k_values, tolerance=0.05):
    """Smallest k of the grid from which |relative error| <= tolerance for every larger k."""
    bad = np.flatnonzero(np.abs(ratio_error) > tolerance)
    if bad.size == 0:
        return int(k_values[0])
    if bad[-1] == len(k_values) - 1:
        return None
    return int(k_values[bad[-1] + 1])


#: k grid of the k > 10 claim (Fig. 2's grid up to 200) and its repetition multiplier: the
#: claim needs power at small k, where the simulation is cheap.
THRESHOLD_K = FIGURE2_K[FIGURE2_K <= 200]
THRESHOLD_REPETITION_FACTOR = 10


@claim("000.thm3.k_above_10", source="000, §2 text after Fig. 1 and Fig. 2 caption",
       statement="The asymptotic variance formula (20) becomes accurate for merely k > 10 (varlab: k "
                 "MSE within 5% of V_n for every k > 10, on the six Fig. 2 panels; theory/estimate "
                 "columns: k MSE / V_n at k = 13 in the worst panel).")
def nrff_k_threshold(run):
    """Per Fig. 2 panel: the first k from which |MSE/(V_n/k) - 1| <= 5% for every larger k of the
    grid (point estimates), the same for V_n/k + c2/k^2; contradicted where, at some k > 10, the
    relative gap exceeds 5% by more than Z_MAX standard errors."""
    rho, gamma = points(FIGURE2_PANELS)
    result = run.simulate("nrff", label="k_grid", repetition_factor=THRESHOLD_REPETITION_FACTOR,
                          k=THRESHOLD_K, rho=rho, gamma=gamma)
    kk = THRESHOLD_K[None, :]
    asymptotic = nrff.asymptotic_variance(rho=rho, gamma=gamma)[:, None] / kk
    second = nrff.mse_expansion(rho=rho[:, None], gamma=gamma[:, None], k=kk)
    details, failures = [], []
    for index, (r, g) in enumerate(FIGURE2_PANELS):
        gap = (result.mse[index] - asymptotic[index]) / asymptotic[index]
        gap2 = (result.mse[index] - second[index]) / asymptotic[index]
        se = result.se_mse[index] / asymptotic[index]
        beyond = (THRESHOLD_K > 10) & (np.abs(gap) - Z_MAX * se > 0.05)
        if beyond.any():
            failures.append((r, g, int(THRESHOLD_K[beyond][-1])))
        row = dict(rho=r, gamma=g, k_within_5pct_Vn=first_k_within(gap, THRESHOLD_K),
                   k_within_5pct_second_order=first_k_within(gap2, THRESHOLD_K),
                   largest_k_significantly_beyond_5pct=int(THRESHOLD_K[beyond][-1]) if beyond.any() else None)
        for kv in (5, 10, 13, 20, 32):
            column = int(np.flatnonzero(THRESHOLD_K == kv)[0])
            row[f"gap_Vn_k{kv}"] = float(gap[column])
            row[f"gap_2nd_k{kv}"] = float(gap2[column])
            row[f"se_k{kv}"] = float(se[column])
        details.append(row)
    summary = ("first k from which k MSE(NRFF) stays within 5% of V_n (point estimates), per panel: "
               + ", ".join(f"(rho={d['rho']}, gamma={d['gamma']}): {d['k_within_5pct_Vn']}" for d in details)
               + "; with varlab's V_n/k + c2/k^2: "
               + ", ".join(str(d["k_within_5pct_second_order"]) for d in details)
               + f". Panels where the gap exceeds 5% beyond {Z_MAX} SE at some k > 10 (rho, gamma, "
               "largest such k): " + (", ".join(str(f) for f in failures) or "none")
               + ". Relative gap at k = 13, V_n/k -> V_n/k + c2/k^2: "
               + ", ".join(f"{d['gap_Vn_k13']:+.3f} -> {d['gap_2nd_k13']:+.3f}" for d in details)
               + f" ({result.n_repetitions:,} repetitions)")
    worst = max(details, key=lambda d: abs(d["gap_Vn_k13"]))
    return run.verdict(not failures, summary, theory=1.0, estimate=1.0 + worst["gap_Vn_k13"],
                       standard_error=worst["se_k13"], details=details)


#: k of Fig. 2's grid at which b1/k is tested
BIAS_K = (50, 100, 200)


@claim("varlab.000.nrff.bias", source=nrff.bias_coefficient.source, derived_by_varlab=True,
       statement="E[NRFF] = e^{-gamma(1-rho)} + b1/k + O(1/k^2) (second-order delta method; not in "
                 "the paper).")
def nrff_bias(run):
    """Simulated bias of NRFF against b1/k (``nrff.bias_coefficient``), in SE."""
    result = figure2_nrff(run)
    columns = _columns(BIAS_K)
    rho, gamma = points(FIGURE2_PANELS)
    theory = nrff.bias_coefficient(rho=rho, gamma=gamma)[:, None] / np.asarray(BIAS_K, float)[None, :]
    return run.agreement(theory=theory, estimate=result.bias[:, columns],
                         standard_error=result.se_mean[:, columns],
                         parameters=parameters(FIGURE2_PANELS, BIAS_K), quantity="bias of NRFF vs b1/k")


#: k at which V_n/k + c2/k^2 is tested, and the smaller k whose simulated remainder bounds the
#: O(1/k^3) remainder there (Fig. 2's grid)
SECOND_ORDER_K = (50, 100)
REMAINDER_K = 10
#: slack on the k^-3 scaling of the remainder (room for its own O(1/k^4) part)
REMAINDER_SLACK = 2.0


def second_order_verdict(run, result=None, pairs=FIGURE2_PANELS, expansion=nrff.mse_expansion):
    """MSE of NRFF against ``expansion`` (V_n/k + c2/k^2) at SECOND_ORDER_K, allowing the O(1/k^3)
    remainder: at k the tolerance is Z_MAX SE + B(k) with B(k) = REMAINDER_SLACK (k0/k)^3
    (|r(k0)| + Z_MAX SE(k0)), r(k0) = MSE(k0) - expansion(k0) simulated at k0 = REMAINDER_K. If
    c2 were wrong by d, the gap at k would be d/k^2 against a bound of about 2 d k0/k^3.

    ``result``: an NRFF simulation at ``pairs`` whose k grid holds REMAINDER_K and SECOND_ORDER_K
    (default: the shared Fig. 2 simulation)."""
    result = figure2_nrff(run) if result is None else result
    rho, gamma = points(pairs)
    k_grid = np.asarray(result.k)
    k0 = int(np.flatnonzero(k_grid == REMAINDER_K)[0])
    columns = np.array([int(np.flatnonzero(k_grid == kk)[0]) for kk in SECOND_ORDER_K])
    remainder_k0 = result.mse[:, k0] - expansion(rho=rho, gamma=gamma, k=REMAINDER_K)
    kk = np.asarray(SECOND_ORDER_K)
    bound = (REMAINDER_SLACK * (REMAINDER_K / kk)[None, :] ** 3
             * (np.abs(remainder_k0) + Z_MAX * result.se_mse[:, k0])[:, None])
    theory = expansion(rho=rho[:, None], gamma=gamma[:, None], k=kk[None, :])
    mse, se = result.mse[:, columns], result.se_mse[:, columns]
    gap = np.abs(mse - theory)
    holds = bool(np.all(gap <= Z_MAX * se + bound))
    excess = (gap - bound) / se                       # the worst point: largest gap beyond the bound
    worst = np.unravel_index(int(np.argmax(excess)), excess.shape)
    where = parameters(pairs, SECOND_ORDER_K)
    details = [dict(point, quantity="MSE of NRFF vs V_n/k + c2/k^2", theory=t, estimate=e,
                    standard_error=s, remainder_bound=b, z_beyond_bound=x,
                    k3_remainder_at_k0=float(remainder_k0[i // len(SECOND_ORDER_K)] * REMAINDER_K ** 3))
                for i, (point, t, e, s, b, x) in enumerate(zip(
                    where, theory.ravel(), mse.ravel(), se.ravel(), bound.ravel(), excess.ravel()))]
    summary = (f"MSE of NRFF vs V_n/k + c2/k^2 at k in {SECOND_ORDER_K} at {len(pairs)} (rho, gamma): "
               f"tolerance {Z_MAX} SE + a bound on the O(1/k^3) remainder ({REMAINDER_SLACK:g} (k0/k)^3 "
               f"(|r(k0)| + {Z_MAX} SE), r(k0) simulated at k0 = {REMAINDER_K}); max (|gap| - bound)/SE "
               f"= {excess[worst]:.2f} at {where[int(np.ravel_multi_index(worst, excess.shape))]}; "
               "k0^3 r(k0) per point: " + ", ".join(f"{v:.3g}" for v in remainder_k0 * REMAINDER_K ** 3))
    return run.verdict(holds, summary, theory=theory[worst], estimate=mse[worst],
                       standard_error=se[worst], details=details)


@claim("varlab.000.nrff.mse_second_order", source=nrff.mse_second_order_coefficient.source,
       derived_by_varlab=True,
       statement="MSE(NRFF) = V_n/k + c2/k^2 + O(1/k^3) (fourth-order delta method; not in the "
                 "paper). varlab tests it at k = 50 and 100 with the O(1/k^3) remainder bounded "
                 "from the simulation at k = 10.")
def nrff_second_order(run):
    return second_order_verdict(run)
