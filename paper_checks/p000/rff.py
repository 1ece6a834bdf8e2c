"""Claims of paper 000 §2 (RFF and NRFF; Theorems 2 and 3), and varlab's own results beyond it.

Simulations use the sampling model of Theorem 2: x, y standard bivariate normal with
correlation rho, w ~ U(0, 2 pi). The NRFF claims on the six Fig. 2 panels read one shared
simulation over Fig. 2's k grid (:data:`FIGURE2_NRFF`, owner ``000.thm3.eq20``, label "fig2"),
which Fig. 2 itself reuses.
"""
from __future__ import annotations


import numpy as np

from varlab.claims import Agreement, Identity, Joint, Simulation, per_sample
from varlab.mc.models.rff import NRFFModel
from varlab.testing.verdict import format_number
from varlab.theory import nrff, rff

#: (rho, gamma) points for per-sample moment checks: similarity high to negative, gamma small to large.
MOMENT_POINTS = [(rho, gamma) for gamma in (0.5, 1.0, 5.0) for rho in (-0.5, 0.0, 0.5, 0.9, 0.99)]
#: the same points as a declaration's grid (every combination)
MOMENT_GRID = dict(grid=dict(rho=(-0.5, 0.0, 0.5, 0.9, 0.99), gamma=(0.5, 1.0, 5.0)), product=True)
#: The six panels of Fig. 2: high/medium/low similarity x small/large gamma.
FIGURE2_PANELS = ((0.99, 1.0), (0.75, 1.0), (0.0, 1.0), (0.99, 10.0), (0.9, 10.0), (0.5, 10.0))
#: k grid of Fig. 2 and the finite-k claims: 1..1000, ~30 log-spaced values.
FIGURE2_K = np.unique(np.round(np.logspace(0, 3, 31)).astype(int))


def pair_grid(pairs) -> dict:
    """A broadcast (not product) grid of a list of (rho, gamma) pairs, in the pairs' order."""
    return dict(rho=tuple(float(p[0]) for p in pairs), gamma=tuple(float(p[1]) for p in pairs))


#: the moment points as a broadcast grid, in MOMENT_POINTS' order (the old claims' simulations)
MOMENT_PAIRS = pair_grid(MOMENT_POINTS)

#: The simulation of NRFF on the Fig. 2 panels and k grid, shared by claims and Fig. 2.
FIGURE2_NRFF = Simulation("000.thm3.eq20", "fig2", "nrff", tuple(int(k) for k in FIGURE2_K),
                          pair_grid(FIGURE2_PANELS))

#: Tolerance of the mean claims, in kernel units (the kernels lie in [-1, 1]; a relative tolerance
#: is not usable where e^{-gamma(1-rho)} is 5.5e-4).
MEAN_TOLERANCE = 0.05
#: Tolerance of the variance claims, relative to the formula.
VARIANCE_TOLERANCE = 0.05
_MEAN_NOTE = (f"Tolerance {MEAN_TOLERANCE:g} in kernel units (absolute: the kernel is as small as "
              "5.5e-4 on this grid, where a relative tolerance could never be resolved).")

def points(pairs):
    """(rho, gamma) arrays of a list of (rho, gamma) pairs."""
    return (np.array([p[0] for p in pairs], dtype=float), np.array([p[1] for p in pairs], dtype=float))


def parameters(pairs, k_values):
    """One dict per (point, k), in the engine's (point, k) order."""
    return [dict(rho=r, gamma=g, k=int(kk)) for (r, g) in pairs for kk in k_values]


def figure2_nrff(run_or_budget):
    """The NRFF simulation on Fig. 2's panels and k grid (cached; claims and Fig. 2 share it)."""
    return FIGURE2_NRFF.result(getattr(run_or_budget, "budget", run_or_budget))


Agreement(
    id="000.thm2.eq16", source="000, Thm 2, Eq. (16)",
    quote="E[sqrt2 cos(sqrt(gamma) x + w) sqrt2 cos(sqrt(gamma) y + w)] = e^{-gamma(1-rho)}",
    statement="The mean of the k-sample RFF estimator equals e^{-gamma(1-rho)} (k = 1, 10) at 15 "
              "(rho, gamma) points.",
    note=_MEAN_NOTE, model="rff", theory=rff.mean, statistic="mean", k=(1, 10), grid=MOMENT_PAIRS,
    tolerance=MEAN_TOLERANCE, relative=False)

Agreement(
    id="000.thm2.eq17", source="000, Thm 2, Eq. (17)",
    quote="E[cos(sqrt(gamma) x) cos(sqrt(gamma) y)] = 1/2 e^{-gamma(1-rho)} + 1/2 e^{-gamma(1+rho)}",
    statement="The mean of the k-sample no-phase estimator equals e^{-gamma(1-rho)}/2 + "
              "e^{-gamma(1+rho)}/2 (k = 1, 10) at 15 (rho, gamma) points.",
    note=_MEAN_NOTE, model="rff_no_phase", theory=rff.no_phase_mean, statistic="mean", k=(1, 10),
    grid=MOMENT_PAIRS, tolerance=MEAN_TOLERANCE, relative=False)

Agreement(
    id="000.thm2.eq18", source="000, Thm 2, Eq. (18)",
    quote="Var[sqrt2 cos(sqrt(gamma) x + w) sqrt2 cos(sqrt(gamma) y + w)] = 1/2 + 1/2 "
          "(1 - e^{-2 gamma(1-rho)})^2",
    statement="The variance of one RFF sample is V = 1/2 + (1 - e^{-2 gamma (1 - rho)})^2 / 2: the "
              "k-sample estimator's variance is V/k (k = 1, 10, 100), within 5%, at 15 (rho, gamma).",
    note="The paper states the one-sample variance; V/k for k i.i.d. samples follows exactly.",
    model="rff", theory=per_sample(rff.variance), statistic="variance", k=(1, 10, 100), grid=MOMENT_PAIRS,
    tolerance=VARIANCE_TOLERANCE)

Agreement(
    id="varlab.000.no_phase_variance", source=rff.no_phase_variance.source, derived_by_varlab=True,
    statement="Var[cos(sqrt(gamma) x) cos(sqrt(gamma) y)] = [(1 - e^{-2gamma(1-rho)})^2 + "
              "(1 - e^{-2gamma(1+rho)})^2] / 8 (not in the papers): the k-sample variance is that / k "
              "(k = 1, 10), within 5%.",
    model="rff_no_phase", theory=per_sample(rff.no_phase_variance), statistic="variance", k=(1, 10),
    grid=MOMENT_PAIRS, tolerance=VARIANCE_TOLERANCE)


#: rho = 1 points of the constant-1/2 claim
HALF_GAMMAS = (0.1, 1.0, 10.0, 100.0)


#: the simulation of one RFF sample at rho = 1 (seeded as the old run.simulate: owner, label "")
HALF_SIMULATION = Simulation("000.thm2.half", "", "rff", (1,),
                             pair_grid([(1.0, gamma) for gamma in HALF_GAMMAS]))

Agreement(
    id="000.thm2.half", source="000, Thm 2, Eq. (18): the constant 1/2 term",
    quote="One can see that the variance of RFF can be large.",
    statement="The RFF variance V has a constant 1/2 term: the simulated variance of one sample at "
              "rho = 1 (identical vectors, where the second term of Eq. (18) vanishes) equals 1/2 "
              "within 5%.",
    note="The paper only remarks that V can be large; varlab tests the floor 1/2 that makes it so, "
         "where V reaches it (V >= 1/2 elsewhere follows from Eq. (18)'s form: V - 1/2 is a square).",
    model=HALF_SIMULATION, theory=rff.variance, statistic="variance", tolerance=VARIANCE_TOLERANCE)


def _vn_below_v():
    """V_n < V on a (rho, gamma) grid (Eq. 20 vs Eq. 21) wherever double precision separates
    them, and V_n = 0 at rho = 1."""
    grid_rho = np.concatenate([np.linspace(-1, 1, 4001), 1 - np.logspace(-15, -1, 57)])[:, None]
    grid_gamma = np.logspace(-3, 3, 121)[None, :]
    v = rff.variance(rho=grid_rho, gamma=grid_gamma)
    vn = nrff.asymptotic_variance(rho=grid_rho, gamma=grid_gamma)
    strict = vn < v
    equal_only_at_underflow = np.all(strict | (np.exp(-2 * grid_gamma * (1 - grid_rho)) < 1e-15))
    at_one = nrff.asymptotic_variance(rho=np.ones(5), gamma=np.logspace(-3, 3, 5))
    holds = bool(equal_only_at_underflow and np.all(at_one == 0.0))
    return holds, (f"V_n < V at {int(strict.sum()):,} of {strict.size:,} grid points; the others have "
                   f"exp(-2 gamma (1 - rho)) < 1e-15, where V_n = V = 1 to double precision; max V_n/V = "
                   f"{format_number(float(np.max(vn / v)))}; max V_n(rho = 1) over 5 gamma = "
                   f"{format_number(float(np.max(np.abs(at_one))))}"), []


def _zero(k, **point):
    """0: NRFF's error at rho = 1, where both vectors' features are the same unit vector."""
    return 0.0


#: simulated NRFF at rho = 1 (seeded as the former run.simulate: owner, label "")
NRFF_AT_ONE = Simulation("000.thm3.vn_below_v", "", "nrff", (1, 10, 100), dict(rho=[1.0, 1.0], gamma=[1.0, 10.0]))

Joint(
    id="000.thm3.vn_below_v", source="000, Thm 3, remark after Eq. (21)",
    quote="Obviously, V_n < V (in particular, V_n = 0 at rho = 1)",
    statement="V_n < V on a (rho, gamma) grid wherever double precision separates them, V_n = 0 at rho = 1, and "
              "simulated NRFF is exact (MSE = variance = 0, within 1e-15) at rho = 1.",
    parts=(Identity.part(compute=_vn_below_v),
           Agreement.part(model=NRFF_AT_ONE, theory=_zero, statistic="mse", tolerance=1e-15, relative=False),
           Agreement.part(model=NRFF_AT_ONE, theory=_zero, statistic="variance", tolerance=1e-15,
                          relative=False)))


#: k of Fig. 2's grid at which the large-k form V_n/k + c2/k^2 of Eq. (20) is tested
LARGE_K = tuple(int(k) for k in FIGURE2_K[FIGURE2_K >= 500])
#: relative tolerance of the MSE claims against V_n/k (the "accurate" of the paper, varlab's 5%)
MSE_TOLERANCE = 0.05


Agreement(
    id="000.thm3.eq20", source="000, Thm 3, Eq. (19)-(20)",
    quote="sqrt(k) (sum X_j Y_j / (sqrt(sum X_j^2) sqrt(sum Y_j^2)) - e^{-gamma(1-rho)}) => N(0, V_n)",
    statement="At large k (k >= 500 of Fig. 2's grid, its six panels) the MSE of NRFF is V_n/k "
              "(+ varlab's c2/k^2), within 5%.",
    note="The limit law implies the MSE V_n/k only with uniform integrability; varlab tests the MSE "
         "against V_n/k + c2/k^2 (varlab.000.nrff.mse_second_order), the c2 term < 1% there.",
    model=FIGURE2_NRFF, theory=nrff.mse_expansion, statistic="mse", k=LARGE_K,
    tolerance=MSE_TOLERANCE)


#: k grid of the k > 10 claim (Fig. 2's grid up to 200) and its repetition multiplier: the
#: claim needs power at small k, where the simulation is cheap.
THRESHOLD_K = FIGURE2_K[FIGURE2_K <= 200]
THRESHOLD_REPETITION_FACTOR = 10
#: the NRFF simulation of the k > 10 claim (owner and label of the old run.simulate)
THRESHOLD_NRFF = Simulation("000.thm3.k_above_10", "k_grid", "nrff",
                            tuple(int(k) for k in THRESHOLD_K), pair_grid(FIGURE2_PANELS),
                            repetition_factor=THRESHOLD_REPETITION_FACTOR)

Agreement(
    id="000.thm3.k_above_10", source="000, §2 text after Fig. 1 and Fig. 2 caption",
    quote="the asymptotic variance formula (20) becomes accurate for merely k > 10",
    statement="k MSE(NRFF) is within 5% of V_n at every k > 10 of Fig. 2's grid (to 200), on its "
              "six panels.",
    note="'Accurate' read as within 5% (varlab's tolerance); "
         f"{THRESHOLD_REPETITION_FACTOR} times the budget's repetitions.",
    model=THRESHOLD_NRFF, theory=per_sample(nrff.asymptotic_variance), statistic="mse",
    k=tuple(int(k) for k in THRESHOLD_K if k > 10), tolerance=MSE_TOLERANCE)


#: k of Fig. 2's grid at which b1/k is tested
BIAS_K = (50, 100, 200)
#: tolerance of the bias claim, in kernel units: 20% of the largest |b1|/k at k = 50 on the panels
#: (|b1| <= 0.062); relative to b1/k is unusable where b1 is 8e-4
BIAS_TOLERANCE = 2.5e-4


def mean_to_first_order(k, rho, gamma):
    """e^{-gamma(1-rho)} + b1/k: the NRFF mean to first order in 1/k."""
    return rff.mean(rho=rho, gamma=gamma) + nrff.bias_expansion(rho=rho, gamma=gamma, k=k)


Agreement(
    id="varlab.000.nrff.bias", source=nrff.bias_coefficient.source, derived_by_varlab=True,
    statement="E[NRFF] = e^{-gamma(1-rho)} + b1/k + O(1/k^2) (second-order delta method; not in "
              "the paper): the simulated bias equals b1/k within 2.5e-4 at k = 50, 100, 200.",
    note="Tolerance 2.5e-4 in kernel units, 20% of the largest b1/k at k = 50 (b1 ranges over "
         "-0.062..-0.0008 on the panels).",
    model=FIGURE2_NRFF, theory=mean_to_first_order, statistic="mean", k=BIAS_K,
    tolerance=BIAS_TOLERANCE, relative=False)


class NRFFSecondOrderModel(NRFFModel):
    """varlab's control-variate estimator of MSE(NRFF) - V_n/k (derived; the same samples as "nrff"):
    per repetition e^2 - L^2, e = A/sqrt(B C) - t the NRFF error (A, B, C the means of X Y, X^2, Y^2;
    t = e^{-gamma(1-rho)}) and L = (A - t) - t (B - 1)/2 - t (C - 1)/2 its first-order (delta-method)
    part. L is the mean of k i.i.d. terms X Y - t X^2/2 - t Y^2/2 of mean 0 and variance V_n (000,
    Eq. 20), so E L^2 = V_n/k exactly and the mean of e^2 - L^2 is MSE - V_n/k, with a standard error
    2.8 to 8 times smaller than the MSE's (measured on the Fig. 2 panels at k = 50, 100) (e^2 - L^2 = (e - L)(e + L) is O(k^{-3/2}), e^2 O(1/k)).
    Unregistered (no name): the second-order claim's own simulation."""

    name = ""
    description = "NRFF: e^2 - L^2 (MSE - V_n/k by a first-order control variate)"

    def target(self, rho, gamma):
        return np.zeros(np.broadcast(rho, gamma).shape)

    def theory(self, k, *, rho, gamma):
        return {}

    def combine(self, sums, k, *, rho, gamma):
        a, b, c = 2.0 * sums[1] / k, 2.0 * sums[0] / k, 2.0 * sums[2] / k
        t = rff.mean(rho=rho, gamma=gamma)
        error = a / np.sqrt(b * c) - t
        first_order = (a - t) - 0.5 * t * (b - 1.0) - 0.5 * t * (c - 1.0)
        return error * error - first_order * first_order


def second_order_term(k, rho, gamma):
    """c2/k^2: varlab's second-order term of MSE(NRFF) (varlab.theory.nrff.mse_second_order_coefficient)."""
    return nrff.mse_second_order_coefficient(rho=rho, gamma=gamma) / np.asarray(k, dtype=float) ** 2


#: k at which MSE - V_n/k is compared with c2/k^2 (the O(1/k^3) remainder is part of the difference)
SECOND_ORDER_K = (50, 100)
#: the Fig. 2 panels where c2 is at least SECOND_ORDER_SIZE V_n (the others, (0.5, 10) with c2 = 4e-5 V_n,
#: would need ~1e13 repetitions to resolve c2/k^2 to 25%)
SECOND_ORDER_SIZE = 0.1
SECOND_ORDER_PANELS = tuple((rho, gamma) for rho, gamma in FIGURE2_PANELS
                            if nrff.mse_second_order_coefficient(rho=rho, gamma=gamma)
                            >= SECOND_ORDER_SIZE * nrff.asymptotic_variance(rho=rho, gamma=gamma))
#: the departure the second-order claim cares about: 25% of c2/k^2 (relative tolerance)
C2_TOLERANCE = 0.25
#: repetitions of the control-variate simulation per budget repetition
SECOND_ORDER_REPETITION_FACTOR = 10
SECOND_ORDER_NRFF = Simulation("varlab.000.nrff.mse_second_order", "control_variate", NRFFSecondOrderModel(),
                               SECOND_ORDER_K, pair_grid(SECOND_ORDER_PANELS),
                               repetition_factor=SECOND_ORDER_REPETITION_FACTOR)

Agreement(
    id="varlab.000.nrff.mse_second_order", source=nrff.mse_second_order_coefficient.source, derived_by_varlab=True,
    statement="MSE(NRFF) = V_n/k + c2/k^2 + O(1/k^3) (fourth-order delta method; not in the paper): MSE - V_n/k, "
              "estimated with varlab's first-order control variate, equals c2/k^2 within "
              f"{C2_TOLERANCE:.0%} (relative) at k = {', '.join(map(str, SECOND_ORDER_K))} on the "
              f"{len(SECOND_ORDER_PANELS)} Fig. 2 panels where c2 >= {SECOND_ORDER_SIZE:g} V_n.",
    note="The O(1/k^3) remainder is part of the tested difference (extrapolated as k^-3 from the full-budget MSE "
         "at k = 10: 2.3% to 8.9% of c2/k^2 at k = 50); "
         f"{SECOND_ORDER_REPETITION_FACTOR}x the budget's repetitions. The panels with c2 = 0.145 V_n (rho = 0, "
         "gamma = 1 and rho = 0.9, gamma = 10) resolve c2/k^2 to 25% at about 5e6 repetitions of this simulation (5x the full budget's 1e6; the "
         "others at 2e5, the quick budget's); panel (0.5, 10), c2 = 4e-5 V_n, is left out.",
    model=SECOND_ORDER_NRFF, theory=second_order_term, statistic="mean", tolerance=C2_TOLERANCE)
