"""Claims of paper 003 (moment matching, control variates, QMC and antithetic features).

All simulations use the models of ``varlab.mc.models.moment_matching`` over (dimension d,
scaled_distance s = |c| / sigma); m is the engine's k. Expensive models (moment matching in high
d, Sobol) run at a fraction of the budget (``fraction``), stated in each summary.
"""
from __future__ import annotations

import numpy as np

from varlab.claims import Budget, Z_MAX, claim, simulate_for, t_threshold
from varlab.theory import moment_matching as theory

S_GRID = (0.5, 1.0, 2.0)


def fraction(run, divisor: int) -> Budget:
    """The run's budget with n_repetitions // divisor (at least 50)."""
    b = run.budget
    return Budget(f"{b.name}/{divisor}", max(50, b.n_repetitions // divisor), b.random_state, b.n_jobs)


def sim(run, model, *, share=1, label="", **arguments):
    """``simulate_for`` of this claim at ``fraction(run, share)``."""
    budget = run.budget if share == 1 else fraction(run, share)
    return simulate_for(run.claim.id, budget, model, label=label, **arguments)


def _points(result, k):
    return [dict(d=int(d), s=float(s), m=int(m)) for d, s in zip(result.grid["dimension"],
                                                                  result.grid["scaled_distance"])
            for m in k]


# --- Theorem 1: the optimal coefficients ----------------------------------------------------------

BETA_OFFSETS = (-1.0, -0.5, 0.0, 0.5, 1.0)


def beta_scan(run, which: str, s_values=S_GRID):
    """(estimated minimiser, its SE) of V_CV(beta) for each s: per-sample variance simulated at
    beta* + offsets (independent seeds), weighted least-squares quadratic a + b x + c x^2 in
    x = beta - beta*, minimiser -b / (2c), SE by the delta method."""
    s = np.asarray(s_values)
    star = theory.beta_optimal(scaled_distance=s)
    V, SE = [], []
    for offset in BETA_OFFSETS:
        row_v, row_se = [], []
        for j, sj in enumerate(s):
            beta = float(star[j] + offset)
            options = {which: beta, ("beta2" if which == "beta1" else "beta1"): "optimal"}
            r = sim(run, "mm_cv2", label=f"{which}{offset:+.1f}-s{sj}", k=[1], dimension=1,
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


@claim("003.thm1", source="003, Thm 1",
       statement="The coefficients minimising V_CV of Eq. (10) are beta1* = beta2* = "
                 "exp(-c' Sigma c / 2).")
def theorem1(run):
    stars, estimates, ses, params = [], [], [], []
    for which in ("beta1", "beta2"):
        star, estimate, se = beta_scan(run, which)
        stars += list(star)
        estimates += list(estimate)
        ses += list(se)
        params += [dict(coefficient=which, s=s) for s in S_GRID]
    return run.agreement(theory=stars, estimate=estimates, standard_error=ses, parameters=params,
                         quantity="minimiser of the simulated V_CV(beta) (quadratic fit over "
                                  f"beta* + {BETA_OFFSETS}, other coefficient optimal, m = 1)")


# --- Corollary 1 and the cosine analogues ----------------------------------------------------------

COR1_S = (0.25, 0.5, 1.0, 2.0, 3.0)
COR1_K = [1, 10, 100]


def _variance_points(run, model, formula, k=COR1_K, **options):
    """(theory, estimate, SE, points) of the variance of ``model`` over COR1_S x k (d = 1)."""
    s = np.asarray(COR1_S)
    r = sim(run, model, k=k, dimension=1, scaled_distance=s, **options)
    theory_values = formula(scaled_distance=s[:, None], m=np.asarray(k)[None, :])
    return np.ravel(theory_values), np.ravel(r.variance), np.ravel(r.se_variance), _points(r, k)


def _variance_agreement(run, model, formula, quantity, **options):
    th, est, se, points = _variance_points(run, model, formula, **options)
    return run.agreement(theory=th, estimate=est, standard_error=se, parameters=points, quantity=quantity)


@claim("003.cor1.vmc", source="003, Cor. 1 (V_MC)",
       statement="V_MC = Var(E_MC) = (1 - exp(-c' Sigma c)) / m for complex features.")
def cor1_vmc(run):
    return _variance_agreement(run, "mm_mc", theory.mc_variance, "E|E_MC - E E_MC|^2")


@claim("003.cor1.eq12", source="003, Cor. 1, Eq. (12)",
       statement="V_CV* = V_MC (1 - rho1^2 - rho2^2 / 2) for the control-variate estimator with "
                 "the optimal coefficients.")
def cor1_eq12(run):
    return _variance_agreement(run, "mm_cv2", theory.cv_optimal_variance, "variance of E_CV*")


@claim("003.cor1.rho", source="003, Cor. 1 (the names rho1^2, rho2^2)",
       statement="rho1^2 and rho2^2 of Cor. 1 are the squared correlations of exp(-i c'w) with "
                 "the first and the second control of Eq. (10).")
def cor1_rho(run):
    """Exact (sympy): |corr(f, g1)|^2 = rho1^2 but |corr(f, g2)|^2 = rho2^2 / 2."""
    import sympy

    from varlab.theory import moment_matching_derivation as derivation

    corr1, corr2 = derivation.squared_correlations()
    rho1, rho2 = derivation.paper_rho_squared()
    first = sympy.simplify(corr1 - rho1) == 0
    second = sympy.simplify(corr2 - rho2) == 0
    half = sympy.simplify(corr2 - rho2 / 2) == 0
    y = derivation.y
    details = [dict(s=s, rho1_sq=float(rho1.subs(y, s * s)), corr1_sq=float(corr1.subs(y, s * s)),
                    rho2_sq=float(rho2.subs(y, s * s)), corr2_sq=float(corr2.subs(y, s * s)))
               for s in S_GRID]
    summary = (f"sympy: corr1^2 - rho1^2 = 0: {first}; corr2^2 - rho2^2 = 0: {second}; "
               f"corr2^2 = rho2^2 / 2: {half}. The paper's rho2^2 is twice the squared correlation "
               f"with the second control (Var g2 = y^2/2); Eq. (12), which uses rho2^2 / 2, is "
               f"right (claim 003.cor1.eq12).")
    return run.verdict(first and second, summary, theory=float(rho2.subs(y, 1)),
                       estimate=float(corr2.subs(y, 1)), details=details)


@claim("varlab.003.cosine", source=theory.cv_cosine_optimal_variance.source, derived_by_varlab=True,
       statement="With real cosine features (the real part), V_MC = (1 - e^{-y})^2 / (2m) and the "
                 "optimal control-variate variance is ((1 - e^{-y})^2 - y^2 e^{-y}) / (2m), "
                 "y = s^2 (beta1* = 0, beta2* = e^{-y/2}).")
def cosine_analogues(run):
    mc = _variance_agreement(run, "mm_mc", theory.mc_cosine_variance, "Var of Re E_MC",
                             features="cosine")
    cv = _variance_agreement(run, "mm_cv2", theory.cv_cosine_optimal_variance, "Var of Re E_CV*",
                             features="cosine")
    holds = mc.verdict == cv.verdict == "confirmed"
    worst = max((mc, cv), key=lambda v: abs(v.estimate - v.theory) / v.standard_error)
    return run.verdict(holds, f"MC: {mc.summary}. CV*: {cv.summary}", theory=worst.theory,
                       estimate=worst.estimate, standard_error=worst.standard_error,
                       details=mc.details + cv.details)


@claim("varlab.003.antithetic", source=theory.antithetic_variance.source, derived_by_varlab=True,
       statement="Antithetic pairs give variance (1 - e^{-y})^2 / m: below V_MC for complex "
                 "features, but twice V_MC for real cosine features.")
def antithetic(run):
    s = np.asarray(COR1_S)
    k = [2, 10, 100]
    r = sim(run, "mm_antithetic", k=k, dimension=1, scaled_distance=s)
    th = theory.antithetic_variance(scaled_distance=s[:, None], m=np.asarray(k)[None, :])
    ratio = th / theory.mc_cosine_variance(scaled_distance=s[:, None], m=np.asarray(k)[None, :])
    return run.agreement(theory=th, estimate=r.variance, standard_error=r.se_variance,
                         parameters=_points(r, k), quantity="variance of the antithetic estimator",
                         also_holds=bool(np.allclose(ratio, 2.0)),
                         extra_summary="anti / MC-cosine variance = 2 exactly")


PHASE_MM = (5, [6, 16, 64])


@claim("varlab.003.phase", source=theory.mc_phase_variance.source, derived_by_varlab=True,
       statement="With random-phase cosine features sqrt2 cos(w'x + b), b ~ U[0, 2 pi) per feature, "
                 "one feature has variance 1 + k(2c)/2 - k(c)^2 = (1 + (1 - e^{-y})^2) / 2, and MC, "
                 "CV* (beta1* = 0, beta2* = e^{-y/2}), antithetic pairs and moment matching (exact "
                 "law) each have their cos/sin-pair variance plus 1/(2m).")
def phase_variances(run):
    parts = [(*_variance_points(run, "mm_mc", theory.mc_phase_variance, features="phase"), "MC"),
             (*_variance_points(run, "mm_cv2", theory.cv_phase_optimal_variance, features="phase"), "CV*"),
             (*_variance_points(run, "mm_antithetic", theory.antithetic_phase_variance, k=[2, 10, 100],
                                features="phase"), "antithetic")]
    d, k = PHASE_MM
    r = mm_simulation(run, d, k, S_GRID, features="phase")
    exact = theory.mm_moments(np.asarray(S_GRID)[:, None], np.asarray(k)[None, :], "m-1", "phase")
    parts.append((np.ravel(exact["variance"]), np.ravel(r.variance), np.ravel(r.se_variance),
                  _points(r, k), "MM (Cholesky, m-1)"))
    points = [dict(p, estimator=name) for *_, pts, name in parts for p in pts]
    return run.agreement(
        theory=np.concatenate([p[0] for p in parts]), estimate=np.concatenate([p[1] for p in parts]),
        standard_error=np.concatenate([p[2] for p in parts]), parameters=points,
        quantity="variance with random-phase features",
        extra_summary="per feature (m = 1): 1 - e^{-y} + e^{-2y}/2 (sympy, "
                      "moment_matching_derivation.phase_feature_variance), 1/2 more than the "
                      "(1 + k(2c))/2 - k(c)^2 of one cos/sin pair")


# --- Moment matching: varlab's exact finite-m law ----------------------------------------------------

#: m = 2 is left out: t_2 = -t_1 with |t_1| fixed, so E_MM is a constant (variance 0, no SE)
LAW_CASES = ((1, [3, 4, 16]), (5, [6, 16, 64]), (50, [51, 128]))
LAW_OPTIONS = tuple((root, divisor) for root in ("cholesky", "symmetric") for divisor in ("m-1", "m"))


def mm_simulation(run, d, k, s, *, divisor_budget=1, label="", **options):
    return sim(run, "mm_moment_matching", share=divisor_budget, label=label, k=k, dimension=d,
               scaled_distance=np.asarray(s, dtype=float), **options)


@claim("varlab.003.mm_law", source=theory.mm_mean_divisor_m_minus_1.source, derived_by_varlab=True,
       statement="For m >= d + 1 the mean and variance of E_MM are varlab's 0F1 closed forms, for "
                 "both square roots and both divisors, independent of d.")
def mm_law(run):
    theory_values, estimates, ses, params = [], [], [], []
    for root, divisor in LAW_OPTIONS:
        for d, k in LAW_CASES:
            r = mm_simulation(run, d, k, S_GRID, divisor_budget=4 if d >= 50 else 2,
                              label=f"{root}-{divisor}", root=root, divisor=divisor)
            exact = theory.mm_moments(np.asarray(S_GRID)[:, None], np.asarray(k)[None, :], divisor)
            for name, est, se in (("mean", r.mean, r.se_mean), ("variance", r.variance, r.se_variance)):
                theory_values.append(np.ravel(exact[name]))
                estimates.append(np.ravel(est))
                ses.append(np.ravel(se))
                params += [dict(p, root=root, divisor=divisor, quantity=name) for p in _points(r, k)]
    return run.agreement(theory=np.concatenate(theory_values), estimate=np.concatenate(estimates),
                         standard_error=np.concatenate(ses), parameters=params,
                         quantity="mean and variance of E_MM (complex features)")


UNBIASED_K = [3, 4, 8, 16, 64]        # m = 2: E_MM is a constant, its bias exact (no SE)
UNBIASED_S = (1.0, 2.0)


def unbiased_simulation(run, divisor):
    """E_MM at d = 1 over UNBIASED_S x UNBIASED_K (claim 003.mm_unbiased; figure 003_mm_variance)."""
    return mm_simulation(run, 1, UNBIASED_K, UNBIASED_S, label=divisor, divisor=divisor)


@claim("003.mm_unbiased", source="003, Eq. (8) and Thm 2, Eq. (13)",
       statement="E_MM = E_MC plus centred terms (+ o_p(m^{-1/2})): E_MM is an unbiased estimator "
                 "of k at finite m.")
def mm_unbiased(run):
    k, s = UNBIASED_K, np.asarray(UNBIASED_S)
    rows, zs, z_theory = [], [], []
    for divisor in ("m-1", "m"):
        r = unbiased_simulation(run, divisor)
        exact = theory.mm_moments(s[:, None], np.asarray(k)[None, :], divisor)
        z = r.bias / r.se_mean
        zs.append(np.ravel(z))
        z_theory.append(np.ravel((r.bias - exact["bias"]) / r.se_mean))
        for (p, b, se, eb) in zip(_points(r, k), np.ravel(r.bias), np.ravel(r.se_mean),
                                  np.ravel(exact["bias"])):
            rows.append(dict(p, divisor=divisor, bias=b, se=se, exact_bias=eb,
                             m_times_bias_over_k=p["m"] * eb / np.exp(-p["s"] ** 2 / 2)))
    zs, z_theory = np.concatenate(zs), np.concatenate(z_theory)
    worst = int(np.argmax(np.abs(zs)))
    summary = (f"d = 1 (the law is the same for every d <= m - 1); max |bias|/SE = "
               f"{abs(zs[worst]):.1f} at {rows[worst]}; the simulated bias agrees with varlab's "
               f"exact bias (max |z| = {np.max(np.abs(z_theory)):.2f}). Bias order 1/m: "
               f"m bias / k -> -s^4/4 (divisor m) and s^2/2 - s^4/4 (divisor m-1).")
    return run.verdict(bool(np.all(np.abs(zs) <= Z_MAX)), summary, theory=0.0,
                       estimate=rows[worst]["bias"], standard_error=rows[worst]["se"], details=rows)


# --- Corollary 2 / Eq. (15) ---------------------------------------------------------------------------

COR2_CASES = ((5, [8, 32, 128, 512], S_GRID, 1), (50, [64, 256, 1024], S_GRID, 8),
              (500, [512, 1024], (1.0,), 200))


def within_five_percent(s: float, divisor="m-1") -> int:
    """The smallest m (power-of-two search then bisection) from which |V_MM / V_CV* - 1| <= 5%
    for every larger m on the scanned grid (exact, any d <= m - 1)."""
    m = np.unique(np.round(np.logspace(np.log10(2), 6, 400)).astype(int))
    ratio = theory.mm_moments(s, m, divisor)["variance"] / theory.cv_optimal_variance(scaled_distance=s, m=m)
    bad = np.flatnonzero(np.abs(ratio - 1) > 0.05)
    return int(m[bad[-1] + 1]) if bad.size else int(m[0])


@claim("003.cor2.eq15", source="003, Cor. 2, Eq. (15)",
       statement="V_MM = V_CV* + o(1/m), i.e. V_MM / V_CV* -> 1, in any dimension d.")
def cor2(run):
    rows, th, est, se = [], [], [], []
    for d, k, s_values, budget_divisor in COR2_CASES:
        r = mm_simulation(run, d, k, s_values, divisor_budget=budget_divisor, label=f"d{d}")
        s = np.asarray(s_values)[:, None]
        kk = np.asarray(k)[None, :]
        cv = theory.cv_optimal_variance(scaled_distance=s, m=kk)
        exact = theory.mm_moments(s, kk, "m-1")["variance"]
        th.append(np.ravel(exact / cv))
        est.append(np.ravel(r.variance / cv))
        se.append(np.ravel(r.se_variance / cv))
        rows += [dict(p, repetitions=r.n_repetitions) for p in _points(r, k)]
    large = np.array([theory.mm_moments(s, 10 ** 6, "m-1")["variance"]
                      / theory.cv_optimal_variance(scaled_distance=s, m=10 ** 6) for s in S_GRID])
    thresholds = {s: within_five_percent(s) for s in S_GRID}
    verdict = run.agreement(
        theory=np.concatenate(th), estimate=np.concatenate(est), standard_error=np.concatenate(se),
        parameters=rows, quantity="V_MM / V_CV* (simulated vs varlab's exact law; Cholesky, m-1)",
        also_holds=bool(np.all(np.abs(large - 1) < 1e-3)),
        extra_summary=(f"exact ratio at m = 10^6: {np.round(large, 6).tolist()} for s = {S_GRID}; "
                       f"within 5% of 1 from m = {thresholds} (and m >= d + 1), the same for every d"))
    return verdict


# --- MM against MC: variance and MSE ------------------------------------------------------------------

BEAT_D = (1, 5, 50, 500)
BEAT_S = np.linspace(0.05, 6.0, 120)


#: the MC variance for each kind of features
MC_VARIANCE = {"complex": theory.mc_variance, "cosine": theory.mc_cosine_variance,
               "phase": theory.mc_phase_variance}
BEATS_SIMULATED = dict(d=5, k=[6, 12], s=(0.5, 1.0, 2.0, 3.0, 4.0))


def _mse_grid(features, d):
    """(m values, MSE_MM, MSE_MC) over BEAT_S x m in {d+1, 2(d+1), small m for d = 1}."""
    m = np.array([2, 3, 4, 8] if d == 1 else [d + 1, 2 * (d + 1)])
    mm = theory.mm_moments(BEAT_S[:, None], m[None, :], "m-1", features)["mse"]
    mc = MC_VARIANCE[features](scaled_distance=BEAT_S[:, None], m=m[None, :])
    return m, mm, mc


def beats_simulation(run, features):
    """The simulated MM at m = d + 1 and 2(d + 1), d = 5 (``BEATS_SIMULATED``), of the claims MM
    vs MC with ``features`` (also shown by figure 003_mm_variance)."""
    b = BEATS_SIMULATED
    return sim(run, "mm_moment_matching", label=features, k=b["k"], dimension=b["d"],
               scaled_distance=np.array(b["s"]), features=features)


def _beats(run, features):
    worst_ratio, worst_at, rows = 0.0, None, []
    for d in BEAT_D:
        m, mm, mc = _mse_grid(features, d)
        ratio = mm / mc
        j = np.unravel_index(int(np.argmax(ratio)), ratio.shape)
        rows.append(dict(d=d, m=int(m[j[1]]), s=float(BEAT_S[j[0]]), max_mse_ratio_mm_over_mc=float(ratio[j])))
        if ratio[j] > worst_ratio:
            worst_ratio, worst_at = float(ratio[j]), rows[-1]
    # simulated check at m = d + 1 and 2(d + 1) (d = 5) over the s where MM loses at small d
    r = beats_simulation(run, features)
    k = BEATS_SIMULATED["k"]
    mc_sim = MC_VARIANCE[features](scaled_distance=r.grid["scaled_distance"][:, None],
                                   m=np.asarray(k)[None, :])
    z = (r.mse - mc_sim) / r.se_mse
    rows += [dict(p, simulated_mse_mm=a, se=b, mse_mc=c) for p, a, b, c in
             zip(_points(r, k), np.ravel(r.mse), np.ravel(r.se_mse), np.ravel(mc_sim))]
    return worst_ratio, worst_at, z, rows


@claim("003.mm_beats_mc", source="003, Sec. 3 after Cor. 2 and Sec. 5",
       statement="E_MM has lower variance (and MSE) than E_MC in any dimension, also at small m and "
                 "m close to d (complex features).")
def mm_beats_mc(run):
    worst, at, z, rows = _beats(run, "complex")
    summary = (f"exact MSE_MM / V_MC over s in [0.05, 6] and m in {{d+1, 2(d+1)}} (d in {BEAT_D}; "
               f"m = 2..8 for d = 1): max {worst:.4g} at {at}; simulated at d = 5 (m = 6, 12): "
               f"max z of MSE_MM - V_MC = {np.max(z):.1f}")
    return run.verdict(worst < 1 and bool(np.all(z < Z_MAX)), summary, theory=worst, details=rows)


@claim("varlab.003.mm_beats_mc_cosine", source="varlab (003's claim with real cosine features)",
       derived_by_varlab=True,
       statement="With real cosine features too, E_MM has lower MSE than MC at small m and m close "
                 "to d.")
def mm_beats_mc_cosine(run):
    return _real_beats_verdict(run, "cosine", "cosine")


def _real_beats_verdict(run, features, name):
    worst, at, z, rows = _beats(run, features)
    summary = (f"exact MSE_MM / Var_MC({name}): max {worst:.4g} at {at}; simulated at d = 5: "
               f"max z of MSE_MM - Var_MC = {np.max(z):.1f} (positive z: MM worse)")
    return run.verdict(worst < 1, summary, theory=worst, details=rows)


@claim("varlab.003.mm_beats_mc_phase", source="varlab (003's claim with random-phase cosine features)",
       derived_by_varlab=True,
       statement="With random-phase cosine features (varlab.features.RFF's default map) too, E_MM has "
                 "lower MSE than MC at small m and m close to d.")
def mm_beats_mc_phase(run):
    return _real_beats_verdict(run, "phase", "random phase")


def _needed(mse, grid, target, d):
    """The smallest m' >= d + 1 of ``grid`` with mse(m') <= target (None if there is none)."""
    feasible = grid[(grid >= d + 1) & (mse <= target)]
    return int(feasible[0]) if feasible.size else None


#: every m' < 64, 160 log-spaced values up to 4096 and every d + 1, 4(d + 1)
FEWER_GRID = np.unique(np.concatenate([np.arange(2, 64), np.round(np.logspace(np.log10(64), np.log10(4096), 160)),
                                       [d + 1 for d in BEAT_D], [4 * (d + 1) for d in BEAT_D]])).astype(int)


@claim("003.fewer_features", source="003, Sec. 1 and Sec. 5",
       statement="To attain the same accuracy (MSE) MM needs fewer features than MC, in any "
                 "dimension.")
def fewer_features(run):
    """For m in {d + 1, 4(d + 1), 4096}: the smallest m' >= d + 1 on a grid (every m' < 64, then
    160 log-spaced values, and every d + 1, 4(d + 1)) with MSE_MM(m') <= V_MC(m) (exact law, divisor m - 1)."""
    rows, ok = [], True
    grid = FEWER_GRID
    mses = {s: theory.mm_moments(s, grid, "m-1")["mse"] for s in S_GRID}
    for d in BEAT_D:
        for s in S_GRID:
            for m in (d + 1, 4 * (d + 1), 4096):
                if m > 4096:
                    continue
                needed = _needed(mses[s], grid, theory.mc_variance(scaled_distance=s, m=m), d)
                rows.append(dict(d=d, s=s, m_mc=m, m_mm_needed=needed))
                ok &= needed is not None and needed <= m
    bad = [row for row in rows if row["m_mm_needed"] is None or row["m_mm_needed"] > row["m_mc"]]
    summary = ("at s in {S_GRID} (k >= 0.14), d in {BEAT_D}, m in {{d+1, 4(d+1), 4096}}: MM needs m' <= m "
               "features to match MC's MSE with m features at every point (at larger s and small m MM "
               "can be worse than MC: claim 003.mm_beats_mc)".format(S_GRID=S_GRID, BEAT_D=BEAT_D) if ok else
               f"MM needs more features than MC at {len(bad)} points, e.g. {bad[:2]}")
    summary += ("; MM needs m >= d + 1 in any case (the sample covariance is singular otherwise), so "
                "at m <= d only MC (or the diagonal fallback) is available")
    return run.verdict(ok, summary, details=rows)


FEWER_PHASE_SIMULATED = dict(d=5, m=(16, 64, 256))


@claim("varlab.003.fewer_features_phase", source="varlab (003's claim with random-phase cosine features)",
       derived_by_varlab=True,
       statement="With random-phase cosine features MM needs no more features than MC for the same "
                 "MSE, but more than m / (1 + (1 - e^{-y})^2) > m / 2 of MC's m: the phases' variance "
                 "1/(2m) is untouched by moment matching (so MSE_MM(m/2) > Var_MC(m)).")
def fewer_features_phase(run):
    """Exact law on FEWER_GRID as in 003.fewer_features; the bound because MSE_MM(m') > 1/(2m')
    and Var_MC(m) = (1 + (1 - e^{-y})^2) / (2m); simulated: MSE_MM(m/2) against Var_MC(m)."""
    rows, fewer, bounded, complex_saving = [], True, True, 0.0
    mses = {s: theory.mm_moments(s, FEWER_GRID, "m-1", "phase")["mse"] for s in S_GRID}
    complex_mses = {s: theory.mm_moments(s, FEWER_GRID, "m-1")["mse"] for s in S_GRID}
    for d in BEAT_D:
        for s in S_GRID:
            bound = 1 + np.expm1(-s * s) ** 2                  # m_MC / m_MM < bound
            for m in (d + 1, 4 * (d + 1), 4096):
                if m > 4096:
                    continue
                needed = _needed(mses[s], FEWER_GRID, theory.mc_phase_variance(scaled_distance=s, m=m), d)
                fewer &= needed is not None and needed <= m
                bounded &= needed is not None and m / needed < bound
                rows.append(dict(d=d, s=s, m_mc=m, m_mm_needed=needed,
                                 saving=None if needed is None else m / needed, bound=bound))
                complex_needed = _needed(complex_mses[s], FEWER_GRID, theory.mc_variance(scaled_distance=s, m=m), d)
                if complex_needed is not None:
                    complex_saving = max(complex_saving, m / complex_needed)
    b = FEWER_PHASE_SIMULATED
    half = [m // 2 for m in b["m"]]
    r = mm_simulation(run, b["d"], half, S_GRID, label="half", features="phase")
    mc = theory.mc_phase_variance(scaled_distance=np.asarray(S_GRID)[:, None], m=np.asarray(b["m"])[None, :])
    z = (r.mse - mc) / r.se_mse
    rows += [dict(p, m_mc=2 * p["m"], simulated_mse_mm=a, se=e, var_mc=c, z=zz) for p, a, e, c, zz in
             zip(_points(r, half), np.ravel(r.mse), np.ravel(r.se_mse), np.ravel(mc), np.ravel(z))]
    best = max(row["saving"] for row in rows if row.get("saving") is not None)
    summary = (f"exact law, s in {S_GRID}, d in {BEAT_D}, m in {{d+1, 4(d+1), 4096}}: MM needs <= m "
               f"features: {fewer}; the saving m / m' stays below 1 + (1 - e^{{-s^2}})^2 (at most "
               f"{best:.3g} here, against up to {complex_saving:.3g} with complex features on the same "
               f"grid): {bounded}; "
               f"simulated at d = {b['d']}: MSE_MM(m/2) - Var_MC(m) has min z = {np.min(z):.1f} for "
               f"m in {b['m']} (MM with half the features is worse)")
    return run.verdict(fewer and bounded and bool(np.all(z > Z_MAX)), summary, details=rows)


FALLBACK_D, FALLBACK_K, FALLBACK_S = 50, [4, 16, 32, 50], (0.5, 1.0, 2.0)


@claim("varlab.003.fallback", source="varlab (the singular='diagonal' fallback for m <= d)",
       derived_by_varlab=True,
       statement="For m <= d, varlab's diagonal fallback (match the mean and each coordinate's "
                 "variance) has lower MSE than MC, at every point of d = 50, m in {4, 16, 32, 50}, "
                 "s in {0.5, 1, 2}.")
def fallback(run):
    """MSE_fallback - V_MC significantly below 0 (z < -Z_MAX) at every point. The smallest gap is
    at s = 2, m = 50 (MSE ratio 0.93; z = -9.0 with 25,000 repetitions), so the simulation uses
    the whole budget: z there grows like -9 sqrt(n / 25,000), about -8 at quick (20,000) and -18
    at full (100,000); a quarter of the quick budget (z about -4) could not resolve it."""
    k, s = FALLBACK_K, np.asarray(FALLBACK_S)
    r = mm_simulation(run, FALLBACK_D, k, s, label="diagonal", singular="diagonal")
    mc = theory.mc_variance(scaled_distance=s[:, None], m=np.asarray(k)[None, :])
    z = (r.mse - mc) / r.se_mse
    rows = [dict(p, mse_fallback=a, se=b, mse_mc=c, z=zz, bias=e, se_bias=f) for p, a, b, c, zz, e, f in
            zip(_points(r, k), np.ravel(r.mse), np.ravel(r.se_mse), np.ravel(mc), np.ravel(z),
                np.ravel(r.bias), np.ravel(r.se_mean))]
    worst = int(np.argmax(np.ravel(z)))
    summary = (f"d = {FALLBACK_D}, m in {k}, s in {FALLBACK_S}, {r.n_repetitions} repetitions: "
               f"MSE_fallback significantly (z < -{Z_MAX}) below V_MC at {int(np.sum(z < -Z_MAX))} "
               f"of {z.size} points (the verdict: all); max z of MSE_fallback - V_MC = "
               f"{np.ravel(z)[worst]:.1f} at "
               f"{dict(d=rows[worst]['d'], s=rows[worst]['s'], m=rows[worst]['m'])} (MSE ratio "
               f"{np.ravel(r.mse / mc)[worst]:.3f}); max |bias|/SE = "
               f"{np.max(np.abs(r.bias / r.se_mean)):.1f} (the fallback is biased)")
    return run.verdict(bool(np.all(z < -Z_MAX)), summary, theory=float(np.ravel(mc)[worst]),
                       estimate=float(np.ravel(r.mse)[worst]), standard_error=float(np.ravel(r.se_mse)[worst]),
                       details=rows)


# --- QMC in high dimensions ---------------------------------------------------------------------------

QMC_D = (2, 8, 32, 128, 512)
QMC_M = 256


@claim("003.qmc_high_dim", source="003, Sec. 1 (after Niederreiter 1992, Glasserman 2003)",
       statement="QMC's advantage over MC disappears in high dimensions: the MSE ratio "
                 "scrambled Sobol / MC rises to 1 as d grows.")
def qmc_high_dim(run):
    rows, ratios, ses = [], [], []
    for d in QMC_D:
        r = sim(run, "mm_scrambled_sobol", share=50, label=f"d{d}", k=[QMC_M], dimension=d,
                scaled_distance=1.0, direction="random")
        mc = theory.mc_variance(scaled_distance=1.0, m=QMC_M)
        ratios.append(float(r.mse[0, 0] / mc))
        ses.append(float(r.se_mse[0, 0] / mc))
        rows.append(dict(d=d, m=QMC_M, s=1.0, mse_ssobol=float(r.mse[0, 0]), mse_mc=float(mc),
                         ratio=ratios[-1], se_ratio=ses[-1], repetitions=r.n_repetitions))
    low_better = ratios[0] + Z_MAX * ses[0] < 1
    high_gone = ratios[-1] + Z_MAX * ses[-1] >= 1
    summary = (f"SSobol / MC MSE at m = {QMC_M}, s = 1, c in a random direction: "
               + ", ".join(f"d={d}: {q:.3g} +- {e:.2g}" for d, q, e in zip(QMC_D, ratios, ses))
               + f"; advantage at d = {QMC_D[0]}: {low_better}; gone at d = {QMC_D[-1]} (ratio not "
                 f"significantly below 1): {high_gone}")
    return run.verdict(low_better and high_gone, summary, theory=1.0, estimate=ratios[-1],
                       standard_error=ses[-1], details=rows)


# --- Table 1: principal component regression ------------------------------------------------------------

@claim("003.table1", source="003, Sec. 4 and Table 1",
       statement="In principal component regression on 4096 random features (all principal "
                 "components and the first 512), MM shows comparable performance without any "
                 "deterioration: its relative test error is not significantly above MC's, Sobol's "
                 "or SSobol's.")
def table1(run):
    """Experiments ``table1`` (the figure 003_table1 shows the same numbers): per data set, PC
    count and rival, the one-sided t of MM's mean error minus the rival's over independent
    trials (Welch SE, df = trials - 1)."""
    from . import experiments as E

    n, m, components, trials = E.sizes(run.budget)["table"]
    threshold = float(t_threshold(trials - 1))
    rows = {name: E.load(name, n, random_state=run.budget.random_state % 2 ** 32)[0].shape[0]
            for name in E.sizes(run.budget)["table_sets"]}
    details, holds, worst = [], True, None
    for name, errors in E.table1(run.budget).items():
        for j, pcs in enumerate(components):
            for sampler in E.FEATURE_SAMPLERS:
                e = 100 * errors[sampler][:, j]
                paper = E.PAPER_TABLE1_LR500[sampler][j] if name == "lr500" and m == 4096 else None
                details.append(dict(data=name, PCs=pcs, sampler=sampler, m=m, n_train=rows[name], trials=trials,
                                    error_percent=e.mean(), se=e.std(ddof=1) / np.sqrt(trials),
                                    paper_percent=paper))
            mm = 100 * errors["MM"][:, j]
            for rival in ("MC", "Sobol", "SSobol"):
                other = 100 * errors[rival][:, j]
                se = np.sqrt((mm.var(ddof=1) + other.var(ddof=1)) / trials)
                t = (mm.mean() - other.mean()) / se
                holds &= bool(t <= threshold)
                if worst is None or t > worst[0]:
                    worst = (t, f"{name}, {pcs} PCs, MM - {rival} = {mm.mean() - other.mean():+.2f} points")
    summary = (f"m = {m} features ([cos, sin]: {2 * m} columns), n_train = "
               f"{', '.join(f'{rows[name]} ({name})' for name in rows)} (the paper: 8000), "
               f"{trials} trials; largest t of MM's "
               f"excess error = {worst[0]:.2f} ({worst[1]}) against the one-sided t threshold "
               f"{threshold:.3g} (df = {trials - 1}: weak with few trials). "
               + ("The paper's LR500 row (another draw of the recipe, 8000 training rows) is beside "
                  "ours in the details; its " if "lr500" in rows else "LR500 is not in this budget's "
                  "Table 1 (simulations/p003/report.md says why); the paper's ")
               + "YP90, QM274 and MNIST300 are not available offline (texture, 40-d, instead)")
    return run.verdict(holds, summary, theory=threshold, estimate=worst[0], details=details)
