"""Claims of paper 003 (moment matching, control variates, QMC and antithetic features).

All simulations use the models of ``varlab.mc.models.moment_matching`` over (dimension d,
scaled_distance s = |c| / sigma); m is the engine's k. Expensive models (moment matching in high
d, Sobol) run at a part of the budget (``Budget.part``: the ``share`` of a Simulation or of
``run.simulate``), stated in each reason's rows.

Tolerances: a variance formula agrees within 5% of its value (the alternatives the checks guard
against, e.g. rho2^2 for rho2^2 / 2 in Eq. (12), differ by far more); a mean within 0.01; "MM below
MC" cares about an excess of more than 5% of MC's MSE (``EXCESS``).
"""
from __future__ import annotations

import numpy as np

from varlab.claims import (Agreement, Identity, Joint, Measured, Measurement, Ordering, Paired, Simulation,
                           per_sample, points)
from varlab.testing.verdict import format_number, format_point
from varlab.theory import moment_matching as theory

S_GRID = (0.5, 1.0, 2.0)
#: relative tolerance of a simulated variance (or variance ratio) against its formula
VARIANCE_TOLERANCE = 0.05
#: absolute tolerance of a simulated mean of a kernel estimator against its formula (the
#: kernel's scale is k(0) = 1; relative to k, a small kernel would ask for a precision no budget gives)
MEAN_TOLERANCE = 0.01
#: "MM below MC": the excess of MM's MSE over MC's, in units of MC's MSE, that the statements
#: care about (also the relative excess of features for "fewer features")
EXCESS = 0.05
#: the error bound of varlab's exact MM law (0F1 closed forms at raised mpmath precision)
EXACT_ERROR = 1e-9


# --- Theorem 1: the optimal coefficients ----------------------------------------------------------

BETA_OFFSETS = (-1.0, -0.5, 0.0, 0.5, 1.0)
#: the departure of the simulated minimiser from beta* that matters, in coefficient units
BETA_TOLERANCE = 0.05


def beta_scan(run, which: str, s_values=S_GRID):
    """(beta*, estimated minimiser, its SE) of V_CV(beta) for each s: per-sample variance
    simulated at beta* + offsets (independent seeds), weighted least-squares quadratic
    a + b x + c x^2 in x = beta - beta*, minimiser -b / (2c), SE by the delta method."""
    s = np.asarray(s_values)
    star = theory.beta_optimal(scaled_distance=s)
    V, SE = [], []
    for offset in BETA_OFFSETS:
        row_v, row_se = [], []
        for j, sj in enumerate(s):
            beta = float(star[j] + offset)
            options = {which: beta, ("beta2" if which == "beta1" else "beta1"): "optimal"}
            r = run.simulate("mm_cv2", label=f"{which}{offset:+.1f}-s{sj}", k=[1], dimension=1,
                             scaled_distance=sj, **options)
            row_v.append(r.variance[0, 0])
            row_se.append(r.se_variance[0, 0])
        V.append(row_v)
        SE.append(row_se)
    V, SE = np.array(V), np.array(SE)
    x = np.array(BETA_OFFSETS)
    design = np.stack([np.ones_like(x), x, x * x], axis=1)
    minimiser, minimiser_se = [], []
    for j in range(s.size):
        w = 1.0 / SE[:, j] ** 2
        cov = np.linalg.inv(design.T @ (design * w[:, None]))
        a, b, c = cov @ (design.T @ (w * V[:, j]))
        gradient = np.array([0.0, -1.0 / (2 * c), b / (2 * c * c)])
        minimiser.append(star[j] - b / (2 * c))
        minimiser_se.append(float(np.sqrt(gradient @ cov @ gradient)))
    return star, np.array(minimiser), np.array(minimiser_se)


def _minimisers(run):
    """The minimisers of the simulated V_CV(beta) for each coefficient and s, against beta*."""
    stars, estimates, ses, rows = [], [], [], []
    for which in ("beta1", "beta2"):
        star, estimate, se = beta_scan(run, which)
        stars += list(star)
        estimates += list(estimate)
        ses += list(se)
        rows += [dict(coefficient=which, s=s) for s in S_GRID]
    return Measurement(estimate=estimates, standard_error=ses, theory=stars, rows=rows)


Agreement(
    id="003.thm1", source="003, Thm 1",
    quote="the optimal coefficients for the two controls that minimize V_CV are "
          "beta1* = e^{-c'Sigma c/2} and beta2* = e^{-c'Sigma c/2}",
    statement="The coefficients minimising V_CV of Eq. (10) are beta1* = beta2* = exp(-c' Sigma c / 2): the "
              "minimiser of the simulated V_CV(beta) (one coefficient scanned, the other optimal) is beta* "
              f"within {BETA_TOLERANCE}, at s in {S_GRID}.",
    note=f"The tolerance {BETA_TOLERANCE} is in coefficient units (beta* is 0.88, 0.61 and 0.14 here); the "
         "minimiser comes from a quadratic fit over beta* + (-1, -0.5, 0, 0.5, 1).",
    model=Measured(_minimisers, "minimiser of the simulated V_CV(beta) (quadratic fit, other coefficient "
                                "optimal, m = 1)"),
    tolerance=BETA_TOLERANCE, relative=False)


# --- Corollary 1 and the cosine analogues ----------------------------------------------------------

COR1_S = (0.25, 0.5, 1.0, 2.0, 3.0)
COR1_K = (1, 10, 100)
COR1_GRID = dict(dimension=1, scaled_distance=COR1_S)

Agreement(
    id="003.cor1.vmc", source="003, Cor. 1 (V_MC)",
    quote="V_MC = m^{-1}(1 - e^{-c'Sigma c})",
    statement="The variance E|E_MC - E E_MC|^2 of the complex MC estimator equals "
              f"(1 - exp(-s^2)) / m within {VARIANCE_TOLERANCE:.0%}, at s in {COR1_S}, m in {COR1_K}.",
    model=Simulation("003.cor1.vmc", "", "mm_mc", COR1_K, COR1_GRID),
    theory=per_sample(theory.mc_variance, count="m"), statistic="variance", tolerance=VARIANCE_TOLERANCE)

COR1_CV = Simulation("003.cor1.eq12", "", "mm_cv2", COR1_K, COR1_GRID)


Agreement(
    id="003.cor1.eq12", source="003, Cor. 1, Eq. (12)",
    quote="V_CV* = V_MC (1 - rho1^2 - 1/2 rho2^2)",
    statement="The variance of the control-variate estimator with the optimal coefficients equals "
              f"V_MC (1 - rho1^2 - rho2^2 / 2) within {VARIANCE_TOLERANCE:.0%} of itself, at s in {COR1_S}, m in "
              f"{COR1_K}.",
    note="Relative to V_CV* itself (issue 34: in units of V_MC, a tolerance of 0.05 let the points where the "
         "reduction factor is 6.4e-4 (s = 0.25) and 9.8e-3 (s = 0.5) pass whatever the variance).",
    model=COR1_CV, theory=per_sample(theory.cv_optimal_variance, count="m"), statistic="variance",
    tolerance=VARIANCE_TOLERANCE)


def _cor1_rho():
    """Exact (sympy): |corr(f, g1)|^2 = rho1^2 and |corr(f, g2)|^2 = rho2^2 / 2."""
    import sympy

    from varlab.theory import moment_matching_derivation as derivation

    corr1, corr2 = derivation.squared_correlations()
    rho1, rho2 = derivation.paper_rho_squared()
    first = sympy.simplify(corr1 - rho1) == 0
    second = sympy.simplify(corr2 - rho2 / 2) == 0
    y = derivation.y
    rows = [dict(s=s, rho1_sq=float(rho1.subs(y, s * s)), corr1_sq=float(corr1.subs(y, s * s)),
                 rho2_sq=float(rho2.subs(y, s * s)), corr2_sq=float(corr2.subs(y, s * s)))
            for s in S_GRID]
    reason = (f"sympy: corr(f, g1)^2 - rho1^2 = 0: {first}; corr(f, g2)^2 - rho2^2 / 2 = 0: "
              f"{second}. So 1 - rho1^2 - rho2^2 / 2 is 1 minus the two squared correlations, and "
              f"Eq. (12) is right (simulated: claim 003.cor1.eq12); the paper's rho2^2 is its "
              f"formula, twice the squared correlation with the second control (Var g2 = y^2 / 2)")
    return first and second, reason, rows


Identity(
    id="003.cor1.rho", source="003, Cor. 1 (rho1^2, rho2^2 and Eq. (12))",
    quote="V_CV* = V_MC (1 - rho1^2 - 1/2 rho2^2), where rho1^2 = e^{-c'Sigma c} / "
          "(1 - e^{-c'Sigma c}) c'Sigma c and rho2^2 = e^{-c'Sigma c} / (1 - e^{-c'Sigma c}) "
          "(c'Sigma c)^2",
    statement="With the paper's rho1^2 and rho2^2 (defined by their formulas), rho1^2 is the "
              "squared correlation of e^{-i c'w} with the first control of Eq. (10) and rho2^2 / 2 "
              "that with the second, so Eq. (12) is 1 minus the two squared correlations.",
    note="A naming remark, not an error: the symbol rho2^2 reads like a squared correlation but is "
         "twice one; the paper defines it by its formula and Eq. (12) uses it correctly.",
    compute=_cor1_rho)


COSINE_MC = Simulation("varlab.003.cosine", "", "mm_mc", COR1_K, dict(COR1_GRID, features="cosine"))
COSINE_CV = Simulation("varlab.003.cosine", "", "mm_cv2", COR1_K, dict(COR1_GRID, features="cosine"))


Agreement(
    id="varlab.003.cosine", source=theory.cv_cosine_optimal_variance.source, derived_by_varlab=True,
    statement="With real cosine features (the real part), V_MC = (1 - e^{-y})^2 / (2m) and the "
              "optimal control-variate variance is ((1 - e^{-y})^2 - y^2 e^{-y}) / (2m), "
              f"y = s^2 (beta1* = 0, beta2* = e^{{-y/2}}): the first within "
              f"{VARIANCE_TOLERANCE:.0%}, the second divided by V_MC within {VARIANCE_TOLERANCE}.",
    note=f"One tolerance, {VARIANCE_TOLERANCE} in units of V_MC (cosine): for MC itself that is "
         f"{VARIANCE_TOLERANCE:.0%} of its formula.",
    model=(COSINE_MC, COSINE_CV),
    theory=per_sample({"mm_mc": theory.mc_cosine_variance, "mm_cv2": theory.cv_cosine_optimal_variance},
                      count="m", name="cosine V_MC and V_CV*"),
    statistic="variance", tolerance=VARIANCE_TOLERANCE, relative=False,
    scale=per_sample(theory.mc_cosine_variance, count="m"))


ANTITHETIC = Simulation("varlab.003.antithetic", "", "mm_antithetic", (2, 10, 100), COR1_GRID)


Agreement(
    id="varlab.003.antithetic", source=theory.antithetic_variance.source, derived_by_varlab=True,
    statement="Antithetic pairs (w, -w) give variance (1 - e^{-y})^2 / m, y = s^2 (simulated, within "
              f"{VARIANCE_TOLERANCE:.0%}), at s in {COR1_S}, m in {ANTITHETIC.k}.",
    model=ANTITHETIC, theory=per_sample(theory.antithetic_variance, count="m"), statistic="variance",
    tolerance=VARIANCE_TOLERANCE)


def _antithetic_against_mc():
    """Exact (floating point): the antithetic variance is below V_MC (complex features) and
    twice the MC variance of real cosine features, over s in [0.01, 6]."""
    s = np.linspace(0.01, 6.0, 600)[:, None]
    m = np.array(ANTITHETIC.k)[None, :]
    anti = theory.antithetic_variance(scaled_distance=s, m=m)
    twice = float(np.max(np.abs(anti / theory.mc_cosine_variance(scaled_distance=s, m=m) - 2)))
    below = bool(np.all(anti < theory.mc_variance(scaled_distance=s, m=m)))
    return (twice <= 1e-12 and below,
            f"over s in [0.01, 6]: anti / MC-cosine variance - 2 at most {twice:.2g}; anti below "
            f"V_MC (complex) everywhere: {below}", ())


Identity(
    id="varlab.003.antithetic.vs_mc", source=theory.antithetic_variance.source, derived_by_varlab=True,
    statement="The antithetic variance (1 - e^{-y})^2 / m is below V_MC = (1 - e^{-y}) / m of complex "
              "features, but twice V_MC = (1 - e^{-y})^2 / (2m) of real cosine features (exact, s in "
              "[0.01, 6]).",
    compute=_antithetic_against_mc, tolerance=1e-12, error=1e-15, units="relative")


PHASE_MM = (5, (6, 16, 64))


#: MC, CV*, antithetic pairs (m = 1, 10, 100; pairs at 2, 10, 100) at d = 1 and MM at d = 5 with
#: random-phase features, seeded as before (owner varlab.003.phase, label "")
PHASE_SIMULATIONS = tuple(
    Simulation("varlab.003.phase", "", model, k, dict(COR1_GRID, features="phase"))
    for model, k in (("mm_mc", COR1_K), ("mm_cv2", COR1_K), ("mm_antithetic", (2, 10, 100)))) + (
    Simulation("varlab.003.phase", "", "mm_moment_matching", PHASE_MM[1],
               dict(dimension=PHASE_MM[0], scaled_distance=tuple(map(float, S_GRID)),
                    features="phase")),)

Agreement(
    id="varlab.003.phase", source=theory.mc_phase_variance.source, derived_by_varlab=True,
    statement="With random-phase cosine features sqrt2 cos(w'x + b), b ~ U[0, 2 pi) per feature, "
              "one feature has variance 1 + k(2c)/2 - k(c)^2 = (1 + (1 - e^{-y})^2) / 2, and MC, "
              "CV* (beta1* = 0, beta2* = e^{-y/2}), antithetic pairs and moment matching (exact "
              "law) each have their cos/sin-pair variance plus 1/(2m), each within "
              f"{VARIANCE_TOLERANCE:.0%}.",
    note="Per feature (m = 1): 1 - e^{-y} + e^{-2y}/2 (sympy, moment_matching_derivation."
         "phase_feature_variance), 1/2 more than the (1 + k(2c))/2 - k(c)^2 of one cos/sin pair.",
    model=PHASE_SIMULATIONS,
    theory=per_sample({"mm_mc": theory.mc_phase_variance,
                       "mm_cv2": theory.cv_phase_optimal_variance,
                       "mm_antithetic": theory.antithetic_phase_variance,
                       "mm_moment_matching": lambda scaled_distance, m: theory.mm_moments(
                           scaled_distance, m, "m-1", "phase")["variance"]},
                      count="m", name="random-phase variances (MM: exact law, m - 1)"),
    statistic="variance", tolerance=VARIANCE_TOLERANCE)


# --- Moment matching: varlab's exact finite-m law ----------------------------------------------------

#: m = 2 is left out: t_2 = -t_1 with |t_1| fixed, so E_MM is a constant (variance 0, no SE)
LAW_CASES = ((1, [3, 4, 16]), (5, [6, 16, 64]), (50, [51, 128]))
LAW_OPTIONS = tuple((root, divisor) for root in ("cholesky", "symmetric") for divisor in ("m-1", "m"))


#: E_MM for each square root, divisor and (d, m grid) of LAW_CASES, seeded as the simulations of
#: the former claim varlab.003.mm_law (label root-divisor; a 4th of the budget at d = 50, else half)
LAW_SIMULATIONS = tuple(
    Simulation("varlab.003.mm_law", f"{root}-{divisor}", "mm_moment_matching", tuple(k),
               dict(dimension=d, scaled_distance=tuple(map(float, S_GRID)), root=root,
                    divisor=divisor), share=4 if d >= 50 else 2)
    for root, divisor in LAW_OPTIONS for d, k in LAW_CASES)


def mm_law(statistic):
    """varlab's exact law of E_MM (``statistic``: "mean" or "variance") as a theory(k, **point)
    that names the simulation's divisor."""
    def values(k, scaled_distance, divisor, **_):
        return theory.mm_moments(scaled_distance, k, divisor)[statistic]
    values.__qualname__ = f"mm_moments {statistic}"
    return values


Agreement(
    id="varlab.003.mm_law.mean", source=theory.mm_mean_divisor_m_minus_1.source, derived_by_varlab=True,
    statement="For m >= d + 1 the mean of E_MM is varlab's 0F1 closed form, for both square roots "
              "and both divisors, independent of d (d, m in "
              f"{', '.join(f'{d}: {k}' for d, k in LAW_CASES)}; s in {S_GRID}), within "
              f"{MEAN_TOLERANCE} (absolute; k(0) = 1).",
    model=LAW_SIMULATIONS, theory=mm_law("mean"), statistic="mean", tolerance=MEAN_TOLERANCE,
    relative=False)

Agreement(
    id="varlab.003.mm_law.variance", source=theory.mm_mean_divisor_m_minus_1.source,
    derived_by_varlab=True,
    statement="For m >= d + 1 the variance of E_MM is varlab's 0F1 closed form, for both square "
              "roots and both divisors, independent of d (d, m in "
              f"{', '.join(f'{d}: {k}' for d, k in LAW_CASES)}; s in {S_GRID}), within "
              f"{VARIANCE_TOLERANCE:.0%}.",
    model=LAW_SIMULATIONS, theory=mm_law("variance"), statistic="variance",
    tolerance=VARIANCE_TOLERANCE)


UNBIASED_K = (3, 4, 8, 16, 64)        # m = 2: E_MM is a constant, its bias exact (no SE)
UNBIASED_S = (1.0, 2.0)
#: E_MM at d = 1 for each divisor (claim varlab.003.mm_bias; figure 003_mm_variance); seeded as
#: the simulations of the former claim 003.mm_unbiased
BIAS_SIMULATIONS = {divisor: Simulation("003.mm_unbiased", divisor, "mm_moment_matching", UNBIASED_K,
                                        dict(dimension=1, scaled_distance=UNBIASED_S, divisor=divisor))
                    for divisor in ("m-1", "m")}


#: lim m bias / k of E_MM in y = s^2 for each divisor (sympy: moment_matching_derivation.
#: mm_bias_coefficient, which tests/theory/test_moment_matching.py checks against these forms)
BIAS_LIMIT = {"m-1": lambda y: y / 2 - y * y / 4, "m": lambda y: -y * y / 4}


def _bias_limits():
    """The exact law's m bias / k at m = 10^6 against its limit -s^4/4 (divisor m) and
    s^2/2 - s^4/4 (divisor m - 1), within 1e-3 (relative)."""
    big = 10 ** 6
    limits, worst = [], 0.0
    for divisor in ("m-1", "m"):
        for sj in UNBIASED_S:
            limit = BIAS_LIMIT[divisor](sj * sj)
            value = float(big * theory.mm_moments(sj, big, divisor)["bias"] / theory.kernel(scaled_distance=sj))
            worst = max(worst, abs(value / limit - 1))
            limits.append(dict(divisor=divisor, s=sj, m_bias_over_k_at_1e6=value, limit=limit))
    return (worst <= 1e-3, f"the exact law's m bias / k at m = 10^6 is its limit within {worst:.2g} (relative) "
                           f"at {len(limits)} points", limits)


def _bias_in_se(run) -> str:
    """The largest simulated bias of E_MM in its standard errors: E_MM is biased."""
    worst, where = 0.0, ""
    for divisor, simulation in BIAS_SIMULATIONS.items():
        r = simulation.result(run.budget)
        z = np.ravel(r.bias / r.se_mean)
        i = int(np.argmax(np.abs(z)))
        if abs(z[i]) > worst:
            worst, where = abs(z[i]), format_point(dict(points(r)[i], divisor=divisor))
    return f"simulated bias / SE up to {worst:.1f} (at {where}): E_MM is biased"


Joint(
    id="varlab.003.mm_bias",
    source="varlab (E_MM's exact finite-m law; 003, Thm 2, Eq. (13) leaves its bias in the o_p(m^{-1/2}) "
           "remainder)", derived_by_varlab=True,
    statement="E_MM is biased at finite m: its mean is varlab's exact law (simulated at d = 1, "
              f"s in {UNBIASED_S}, m in {UNBIASED_K}, both divisors, within {MEAN_TOLERANCE} absolute, k(0) = 1), "
              "whose bias is of order 1/m: m bias / k -> -s^4/4 (divisor m) and s^2/2 - s^4/4 (divisor m - 1).",
    note="003 does not claim that E_MM is unbiased at finite m: Thm 2 and Cor. 2 are asymptotic and their "
         "o_p(m^{-1/2}) remainder allows an O(1/m) bias; this is varlab's finding, not a contradiction of the "
         "paper.",
    parts=(Agreement.part(model=tuple(BIAS_SIMULATIONS.values()), theory=mm_law("mean"), statistic="mean",
                          tolerance=MEAN_TOLERANCE, relative=False),
           Identity.part(compute=_bias_limits, tolerance=1e-3, error=EXACT_ERROR, units="relative")),
    remark=_bias_in_se)


# --- Corollary 2 / Eq. (15) ---------------------------------------------------------------------------

COR2_CASES = ((5, [8, 32, 128, 512], S_GRID, 1), (50, [64, 256, 1024], S_GRID, 8),
              (500, [512, 1024], (1.0,), 200))
#: E_MM for each d of COR2_CASES (claim 003.cor2.eq15; figure 003_mm_variance)
COR2_SIMULATIONS = {d: Simulation("003.cor2.eq15", f"d{d}", "mm_moment_matching", tuple(k),
                                  dict(dimension=d, scaled_distance=tuple(map(float, s))), share=share)
                    for d, k, s, share in COR2_CASES}


def within_five_percent(s: float, divisor="m-1") -> int:
    """The smallest m (power-of-two search then bisection) from which |V_MM / V_CV* - 1| <= 5%
    for every larger m on the scanned grid (exact, any d <= m - 1)."""
    m = np.unique(np.round(np.logspace(np.log10(2), 6, 400)).astype(int))
    ratio = theory.mm_moments(s, m, divisor)["variance"] / theory.cv_optimal_variance(scaled_distance=s, m=m)
    bad = np.flatnonzero(np.abs(ratio - 1) > 0.05)
    return int(m[bad[-1] + 1]) if bad.size else int(m[0])


def _ratio_at_large_m():
    """The exact V_MM / V_CV* at m = 10^6 within 1e-3 of 1, and the m from which it stays within
    5% of 1."""
    large = np.array([theory.mm_moments(s, 10 ** 6, "m-1")["variance"]
                      / theory.cv_optimal_variance(scaled_distance=s, m=10 ** 6) for s in S_GRID])
    thresholds = ", ".join(f"{within_five_percent(s)} at s = {s:g}" for s in S_GRID)
    return (bool(np.all(np.abs(large - 1) <= 1e-3)),
            "exact V_MM / V_CV* at m = 10^6: " + ", ".join(f"{q:.6f} (s = {s:g})" for q, s in zip(large, S_GRID))
            + f"; within 5% of 1 from m = {thresholds} (and m >= d + 1), the same for every d",
            [dict(s=s, m=10 ** 6, ratio=q) for s, q in zip(S_GRID, large)])


Joint(
    id="003.cor2.eq15", source="003, Cor. 2, Eq. (15)",
    quote="V_MM = V_CV* + o(m^{-1})",
    statement="V_MM / V_CV* -> 1 in any dimension d: the simulated variance agrees with varlab's exact law "
              f"within {VARIANCE_TOLERANCE:.0%} (d = 5, 50, 500), and the exact ratio at m = 10^6 is within "
              "1e-3 of 1.",
    parts=(Agreement.part(model=tuple(COR2_SIMULATIONS.values()), theory=mm_law("variance"),
                          statistic="variance", tolerance=VARIANCE_TOLERANCE, relative=True),
           Identity.part(compute=_ratio_at_large_m, tolerance=1e-3, error=EXACT_ERROR, units="relative")))


# --- MM against MC: variance and MSE ------------------------------------------------------------------

BEAT_D = (1, 5, 50, 500)
#: the high dimensions of the abstract's guarantee (the paper's data sets have d = 90 to 500) and
#: the low ones of varlab's counterexample
HIGH_D, LOW_D = (50, 500), (1, 5)
BEAT_S = np.linspace(0.05, 6.0, 120)


#: the MC variance for each kind of features
MC_VARIANCE = {"complex": theory.mc_variance, "cosine": theory.mc_cosine_variance,
               "phase": theory.mc_phase_variance}
BEATS_SIMULATED = dict(d=5, k=(6, 12), s=(0.5, 1.0, 2.0, 3.0, 4.0))
#: claim ids of "MM beats MC" for each kind of features
BEATS_CLAIMS = {"complex": "003.mm_beats_mc", "cosine": "varlab.003.mm_beats_mc_cosine",
                "phase": "varlab.003.mm_beats_mc_phase"}
#: the simulated MM at m = d + 1 and 2(d + 1), d = 5, of the claims MM vs MC for the real kinds of
#: features, and of figure 003_mm_variance for all three (the complex one seeded by 003.mm_beats_mc,
#: whose paper statement is the exact law in high dimension)
BEATS_SIMULATIONS = {
    features: Simulation(claim_id, features, "mm_moment_matching", BEATS_SIMULATED["k"],
                         dict(dimension=BEATS_SIMULATED["d"], scaled_distance=BEATS_SIMULATED["s"],
                              features=features))
    for features, claim_id in BEATS_CLAIMS.items()}


def _mse_grid(features, d):
    """(m values, MSE_MM, MSE_MC) over BEAT_S x m in {d+1, 2(d+1), small m for d = 1}."""
    m = np.array([2, 3, 4, 8] if d == 1 else [d + 1, 2 * (d + 1)])
    mm = theory.mm_moments(BEAT_S[:, None], m[None, :], "m-1", features)["mse"]
    mc = MC_VARIANCE[features](scaled_distance=BEAT_S[:, None], m=m[None, :])
    return m, mm, mc


def _mse_ratios(features, dimensions):
    """Rows of the exact MSE_MM / MSE_MC, its largest over BEAT_S for each d of ``dimensions`` and
    m of ``_mse_grid``, and the row of the largest."""
    rows = []
    for d in dimensions:
        m, mm, mc = _mse_grid(features, d)
        ratio = mm / mc
        for j, mj in enumerate(m):
            i = int(np.argmax(ratio[:, j]))
            rows.append(dict(d=d, m=int(mj), s=float(BEAT_S[i]), max_mse_ratio_mm_over_mc=float(ratio[i, j])))
    return rows, max(rows, key=lambda row: row["max_mse_ratio_mm_over_mc"])


def _beats_exact(features, dimensions=BEAT_D):
    """(holds, reason, rows): the exact MSE_MM / MSE_MC at most 1 + EXCESS at every s in BEAT_S,
    d in ``dimensions`` and m of ``_mse_grid``."""
    rows, worst = _mse_ratios(features, dimensions)
    trend = ", ".join(f"{format_number(row['max_mse_ratio_mm_over_mc'])} at m = {row['m']}"
                      for row in rows if row["m"] in (2, 6, 12, 51, 501))
    return (worst["max_mse_ratio_mm_over_mc"] - 1 <= EXCESS,
            f"exact MSE_MM / MSE_MC, the largest over s in [0.05, 6]: {trend}; the excess "
            f"vanishes as m grows (m in {{d+1, 2(d+1)}}, d in {dimensions}"
            + ("; m = 2..8 at d = 1)" if 1 in dimensions else ")"), rows)


def _loses_at_low_dimension():
    """(holds, reason, rows): at d = 1 and 5 the exact MSE_MM / MSE_MC exceeds 1 + EXCESS somewhere."""
    rows, worst = _mse_ratios("complex", LOW_D)
    above = [row for row in rows if row["max_mse_ratio_mm_over_mc"] - 1 > EXCESS]
    return (bool(above),
            f"exact MSE_MM / MSE_MC above 1 + {EXCESS:g} at {len(above)} of {len(rows)} (d, m) cases, up to "
            f"{format_number(worst['max_mse_ratio_mm_over_mc'])} (d = {worst['d']}, m = {worst['m']}, s = "
            f"{format_number(worst['s'])})", rows)


#: the exact law's verdict's tolerance, error bound and units (MSE_MM / MSE_MC - 1 <= EXCESS)
BEATS_EXACT = dict(tolerance=EXCESS, error=EXACT_ERROR, units="MSE ratio - 1")


Identity(
    id="003.mm_beats_mc", source="003, the abstract and Sec. 3 after Cor. 2",
    quote="Our rigorous theoretical proofs justify that the proposed algorithm is guaranteed achieving lower "
          "variance than the standard Monte Carlo method in high dimensional settings.",
    statement="In high dimensions, d = 50 and 500 (the paper's data sets have d = 90 to 500), E_MM has lower MSE "
              f"than E_MC (not above it by more than {EXCESS:.0%} of MC's MSE) at every s in [0.05, 6] and m in "
              "{d+1, 2(d+1)} (complex features): varlab's exact finite-m law (checked by simulation in "
              "varlab.003.mm_law.*).",
    note="Sec. 3 concludes 'E_MM provably has lower variance than E_MC' from Cor. 1-2, which are asymptotic "
         "(o(1/m)); the abstract limits the guarantee to high dimensions, which is what is tested here. MSE, not "
         "variance: E_MM is biased at finite m (varlab.003.mm_bias). At low dimension it does not hold: "
         "varlab.003.mm_loses_low_dimension.",
    compute=lambda: _beats_exact("complex", HIGH_D), **BEATS_EXACT)

Identity(
    id="varlab.003.mm_loses_low_dimension", source="varlab: the exact finite-m law of E_MM (003, Sec. 3)",
    derived_by_varlab=True,
    statement=f"At low dimension (d = 1 and 5) and small m (m in {{d+1, 2(d+1)}}; m = 2..8 at d = 1) E_MM's MSE is "
              f"above E_MC's by more than {EXCESS:.0%} of it at some s in [0.05, 6] (complex features): the "
              "guarantee of 003.mm_beats_mc does not extend to every dimension at finite m.",
    note="The excess vanishes as m grows (largest MSE ratio 2.0 at m = 2, 1.2 at m = 6, 1.04 at m = 12).",
    compute=_loses_at_low_dimension, **BEATS_EXACT)


for _features, _words in (("cosine", "real cosine features"),
                          ("phase", "random-phase cosine features (varlab.features.RFF's default "
                                    "map)")):
    Identity(
        id=BEATS_CLAIMS[_features], source=f"varlab (003's claim with {_words.split(' (')[0]})",
        derived_by_varlab=True,
        statement=f"With {_words} too, E_MM has lower MSE than MC (not above it by more than "
                  f"{EXCESS:.0%}) at small m and m close to d: exact law over s in [0.05, 6], m in "
                  "{d+1, 2(d+1)} (and m = 2..8 at d = 1), d in {1, 5, 50, 500} (simulated at d = 5: "
                  f"claim {BEATS_CLAIMS[_features]}.simulated).",
        compute=lambda features=_features: _beats_exact(features), **BEATS_EXACT)
    Ordering(
        id=f"{BEATS_CLAIMS[_features]}.simulated",
        source=f"varlab (003's claim with {_words.split(' (')[0]})", derived_by_varlab=True,
        statement=f"With {_words}, the simulated MSE of E_MM at d = {BEATS_SIMULATED['d']}, m in "
                  f"{BEATS_SIMULATED['k']}, s in {BEATS_SIMULATED['s']} is below MC's exact "
                  f"variance (not above it by more than {EXCESS:.0%} of it); the exact law: claim "
                  f"{BEATS_CLAIMS[_features]}.",
        note="Seeded as the simulated half of the former single claim (owner "
             f"{BEATS_CLAIMS[_features]}); MM needs m >= d + 1, so m = d + 1 and 2(d + 1).",
        lower=BEATS_SIMULATIONS[_features], upper=per_sample(MC_VARIANCE[_features], count="m"),
        statistic="mse", effect_size=EXCESS, scale=per_sample(MC_VARIANCE[_features], count="m"))
del _features, _words


def _needed(mse, grid, target, d):
    """The smallest m' >= d + 1 of ``grid`` with mse(m') <= target (None if there is none)."""
    feasible = grid[(grid >= d + 1) & (mse <= target)]
    return int(feasible[0]) if feasible.size else None


def _tested_m(d):
    return [m for m in (d + 1, 4 * (d + 1), 4096) if m <= 4096]


#: every m' < 64, 160 log-spaced values up to 4096 and every d + 1, 4(d + 1), and the largest
#: m' allowed by the tolerance, floor((1 + EXCESS) m), of each tested m
FEWER_GRID = np.unique(np.concatenate([
    np.arange(2, 64), np.round(np.logspace(np.log10(64), np.log10(4096), 160)),
    [m for d in BEAT_D for m in _tested_m(d)],
    [int(np.floor((1 + EXCESS) * m)) for d in BEAT_D for m in _tested_m(d)]])).astype(int)
FEWER_S = (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0)


def _fewer_features():
    """For m in {d + 1, 4(d + 1), 4096}: the smallest m' >= d + 1 on FEWER_GRID with
    MSE_MM(m') <= V_MC(m) (exact law, divisor m - 1); holds if m' <= m everywhere (a count of
    features: "fewer" admits no tolerance)."""
    rows = []
    mses = {s: theory.mm_moments(s, FEWER_GRID, "m-1")["mse"] for s in FEWER_S}
    for d in BEAT_D:
        for s in FEWER_S:
            for m in _tested_m(d):
                needed = _needed(mses[s], FEWER_GRID, theory.mc_variance(scaled_distance=s, m=m), d)
                rows.append(dict(d=d, s=s, m_mc=m, m_mm_needed=needed,
                                 mse_ratio_at_m=float(theory.mm_moments(s, m, "m-1")["mse"]
                                                      / theory.mc_variance(scaled_distance=s, m=m))))
    bad = [row for row in rows if row["m_mm_needed"] is None or row["m_mm_needed"] > row["m_mc"]]
    reason = (f"exact law at s in {FEWER_S}, d in {BEAT_D}, m in {{d+1, 4(d+1), 4096}}: MM needs at "
              f"most m features at {len(rows) - len(bad)} of {len(rows)} points, more at {len(bad)}")
    if bad:
        worst = max(bad, key=lambda row: row["mse_ratio_at_m"])
        reason += (f" (s >= {min(row['s'] for row in bad):g}, m <= {max(row['m_mc'] for row in bad)}; "
                   "worst: " + format_point({key: worst[key] for key in
                                             ("d", "s", "m_mc", "m_mm_needed", "mse_ratio_at_m")}) + ")")
    reason += ("; MM needs m >= d + 1 in any case (the sample covariance is singular otherwise), so "
               "at m <= d only MC (or the diagonal fallback) is available")
    return not bad, reason, rows


Identity(
    id="003.fewer_features", source="003, Sec. 1 and Sec. 5",
    quote="the new method demands fewer features than the standard Monte Carlo method in any "
          "dimensions to achieve the same approximation accuracy",
    statement="To match MC's MSE with m features, MM needs no more than m features (m' <= m: a count of "
              "features admits no tolerance, one more feature is more), in any dimension: exact law (divisor "
              f"m - 1) at d in {BEAT_D}, s in {FEWER_S}, m in {{d + 1, 4(d + 1), 4096}} (m' >= d + 1, as MM "
              "requires).",
    note="The paper proves an asymptotic statement (Cor. 1-2); varlab tests its words at finite m. m' = m "
         "counts as 'fewer', since at m = d + 1 MM cannot use fewer. (Until issue 34 the statement allowed "
         f"{1 + EXCESS:g} m, which no count below m = 20 can use.)",
    compute=_fewer_features, tolerance=0.0, error=0.0, units="features")


FEWER_PHASE_SIMULATED = dict(d=5, m=(16, 64, 256))


def _fewer_phase_features():
    """Exact law on FEWER_GRID as in 003.fewer_features, with random-phase features: MM needs at
    most m features, but more than m / (1 + (1 - e^{-s^2})^2), because MSE_MM(m') > 1/(2m') and
    Var_MC(m) = (1 + (1 - e^{-s^2})^2) / (2m)."""
    rows, fewer, bounded, complex_saving = [], True, True, 0.0
    mses = {s: theory.mm_moments(s, FEWER_GRID, "m-1", "phase")["mse"] for s in S_GRID}
    complex_mses = {s: theory.mm_moments(s, FEWER_GRID, "m-1")["mse"] for s in S_GRID}
    for d in BEAT_D:
        for s in S_GRID:
            bound = 1 + np.expm1(-s * s) ** 2                  # m_MC / m_MM < bound
            for m in _tested_m(d):
                needed = _needed(mses[s], FEWER_GRID, theory.mc_phase_variance(scaled_distance=s, m=m), d)
                fewer &= needed is not None and needed <= m
                bounded &= needed is not None and m / needed < bound
                rows.append(dict(d=d, s=s, m_mc=m, m_mm_needed=needed,
                                 saving=None if needed is None else m / needed, bound=bound))
                complex_needed = _needed(complex_mses[s], FEWER_GRID, theory.mc_variance(scaled_distance=s, m=m), d)
                if complex_needed is not None:
                    complex_saving = max(complex_saving, m / complex_needed)
    best = max(row["saving"] for row in rows if row["saving"] is not None)
    return (fewer and bounded,
            f"exact law, s in {S_GRID}, d in {BEAT_D}, m in {{d+1, 4(d+1), 4096}}: MM needs <= m features: "
            f"{fewer}; the saving m / m' stays below 1 + (1 - e^{{-s^2}})^2 (at most {best:.3g} here, against up "
            f"to {complex_saving:.3g} with complex features on the same grid): {bounded}", rows)


def _mc_phase_variance_of_twice(k, scaled_distance, **_):
    """Var_MC with 2k random-phase features: MC's variance at twice the MM's features."""
    return theory.mc_phase_variance(scaled_distance=scaled_distance, m=2 * np.asarray(k))


_mc_phase_variance_of_twice.__qualname__ = "Var_MC(m = 2 k)"

#: MM with random-phase features at m/2 of MC's m (seeded as the former run.simulate, label "half")
FEWER_PHASE_HALF = Simulation("varlab.003.fewer_features_phase", "half", "mm_moment_matching",
                              tuple(m // 2 for m in FEWER_PHASE_SIMULATED["m"]),
                              dict(dimension=FEWER_PHASE_SIMULATED["d"], scaled_distance=np.asarray(S_GRID, dtype=float),
                                   features="phase"))

Joint(
    id="varlab.003.fewer_features_phase", source="varlab (003's claim with random-phase cosine features)",
    derived_by_varlab=True,
    statement="With random-phase cosine features MM needs no more features than MC for the same MSE (exact "
              f"law, s in {S_GRID}), but more than m / (1 + (1 - e^{{-y}})^2) > m / 2 of MC's m: the phases' "
              "variance 1/(2m) is untouched by moment matching (so MSE_MM(m/2) > Var_MC(m): simulated, by more "
              f"than {EXCESS:.0%} of Var_MC(m)).",
    parts=(Identity.part(compute=_fewer_phase_features),
           Ordering.part(lower=_mc_phase_variance_of_twice, upper=FEWER_PHASE_HALF, statistic="mse",
                         effect_size=EXCESS, scale=_mc_phase_variance_of_twice,
                         names=("MC with m", "MM with m/2"))))


FALLBACK_D, FALLBACK_K, FALLBACK_S = 50, (4, 16, 32, 50), (0.5, 1.0, 2.0)
#: varlab's singular="diagonal" fallback of MM at d = 50, m <= d (seeded as before)
FALLBACK = Simulation("varlab.003.fallback", "diagonal", "mm_moment_matching", FALLBACK_K,
                      dict(dimension=FALLBACK_D, scaled_distance=FALLBACK_S, singular="diagonal"))

Ordering(
    id="varlab.003.fallback", source="varlab (the singular='diagonal' fallback for m <= d)",
    derived_by_varlab=True,
    statement="For m <= d, varlab's diagonal fallback (match the mean and each coordinate's "
              "variance) has lower MSE than MC, at every point of d = 50, m in {4, 16, 32, 50}, "
              f"s in {{0.5, 1, 2}} (effect size {EXCESS:.0%} of MC's MSE).",
    note="The fallback is biased (bias / SE up to about 26 at the test budget); its MSE is "
         "compared, with MC's exact V_MC. The smallest gap is at s = 2, m = 32-50 (MSE ratio "
         "0.93), resolved from the quick budget on (resolution about 0.04 at 20,000 repetitions, "
         "0.09 at the test budget's 4,000).",
    lower=FALLBACK, upper=per_sample(theory.mc_variance, count="m"), statistic="mse", effect_size=EXCESS,
    scale=per_sample(theory.mc_variance, count="m"))


# --- QMC in high dimensions ---------------------------------------------------------------------------

QMC_D = (2, 8, 32, 128, 512)
QMC_M = 256
#: a fall of the SSobol / MC MSE ratio from one d to the next that would contradict "gradually
#: disappear", in units of MC's MSE
QMC_EFFECT = 0.1


#: scrambled Sobol at m = QMC_M, s = 1 (c in a random direction) for each d, at a 50th of the budget
QMC_SOBOL = {d: Simulation("003.qmc_high_dim", f"d{d}", "mm_scrambled_sobol", (QMC_M,),
                           dict(dimension=d, scaled_distance=1.0, direction="random"), share=50)
             for d in QMC_D}
#: plain MC at the same point and d = QMC_D[0] (its MSE does not depend on d)
QMC_MC = Simulation("003.qmc_high_dim", "mc", "mm_mc", (QMC_M,),
                    dict(dimension=QMC_D[0], scaled_distance=1.0))

Ordering(
    id="003.qmc_high_dim", source="003, Sec. 1 (after Niederreiter 1992, Glasserman 2003)",
    quote="its advantages over pseudo-random numbers in enjoying a faster convergence rate "
          "gradually disappear in high dimensions",
    statement=f"Scrambled Sobol's MSE advantage over MC shrinks as d grows: at m = {QMC_M}, s = 1 "
              f"(c in a random direction), SSobol's MSE is below MC's at d = {QMC_D[0]} and rises "
              f"from each d to the next over d in {QMC_D}.",
    note=f"Effect size {QMC_EFFECT} of MC's MSE (V_MC = (1 - e^{{-1}}) / {QMC_M}; a fall by more "
         "than that would contradict the words); the first row compares SSobol with simulated MC at "
         f"d = {QMC_D[0]}, the others each d with the next. Background the paper cites, not its own "
         "result; varlab does not test that SSobol reaches MC ('gradually'). Sobol runs at a 50th "
         "of the budget.",
    lower=(QMC_SOBOL[QMC_D[0]],) + tuple(QMC_SOBOL[d] for d in QMC_D[:-1]),
    upper=(QMC_MC,) + tuple(QMC_SOBOL[d] for d in QMC_D[1:]),
    statistic="mse", effect_size=QMC_EFFECT * float(theory.mc_variance(scaled_distance=1.0, m=QMC_M)))


# --- Table 1: principal component regression ------------------------------------------------------------

#: a deterioration of MM's relative test error, in percentage points, that "without any
#: deterioration" excludes: twice the largest excess the paper's own Table 1 calls comparable
#: (MNIST300, 512 PCs: MM 81.23 against MC 81.00)
TABLE1_EFFECT = 0.5


def table1_trials(run) -> dict:
    """{cell: (MM's errors, the rival's errors)} in percent, one per trial (experiments
    ``table1``; the figure 003_table1 shows the same numbers): per data set, PC count and rival."""
    from . import experiments as E

    m, components = E.sizes(run.budget)["table"][1:3]
    cells = {}
    for name, errors in E.table1(run.budget).items():
        for j, pcs in enumerate(components):
            label = f"all {pcs}" if pcs >= 2 * m else f"{pcs}"
            for rival in ("MC", "Sobol", "SSobol"):
                cells[f"{name}, {label} PCs, MM vs {rival}"] = (100 * errors["MM"][:, j],
                                                                100 * errors[rival][:, j])
    return cells


Paired(
    id="003.table1", source="003, Sec. 4 and Table 1",
    quote="MM shows comparable performance without any deterioration",
    statement="In principal component regression on random features (all principal components and "
              "the first 512), MM's relative test error is not above MC's, Sobol's or SSobol's by "
              f"more than {TABLE1_EFFECT} percentage points, in every cell, over independent trials.",
    note="Weak with few trials: the t quantile of n - 1 degrees of freedom (3 trials at the quick "
         "budget: 384) makes the resolution far coarser than the effect size, so the outcome is "
         "inconclusive unless many more trials run. Sizes per budget: experiments.SIZES (quick: "
         "m = 4096, 1000 training rows, LR500 and texture); the paper's YP90, QM274 and MNIST300 "
         "are not available offline.",
    trials=table1_trials, effect_size=TABLE1_EFFECT, quantity="relative test error (%)",
    strict=False, names=("MM", "rival"))
