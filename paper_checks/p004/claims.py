"""Claims of paper 004 (Luo, Fang, Yang, Huang: GRFF/GORF slides).

Gaussian kernel exp(-|z|^2/2) (bandwidth 1) for the orthogonal-feature claims; the slides'
delta-Gaussian kernel (a = (1, -1), sigma = (1, 10)) for GRFF/GORF. Grid: d in {4, 16, 64},
|z| in {0.5, 1, 2, 5}, s in {d/2, d, 2d, 8d} (the slides' Table II sizes).

The simulations are shared (:class:`varlab.claims.Simulation`, one per model and d, since the s
grid depends on d): RADIAL (ORF, RFF), SIGNED (GRFF, GORF mutual and separate) and POLYNOMIAL,
seeded by the claim that first owned them. Variances are compared in units of the i.i.d.
estimator's exact variance (Var(RFF), Var(GRFF)), which is far from 0 at every point while the
gaps and the kernel are not (the Gaussian kernel is e^-12.5 at |z| = 5).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from varlab.claims import Agreement, Difference, Identity, Joint, Ordering, Simulation, claim, per_sample
from varlab.features.samplers.orthogonal import hadamard_size
from varlab.spectral.polynomial import polynomial_kernel
from varlab.spectral.signed import DeltaGaussian
from varlab.testing import builders
from varlab.testing.verdict import format_number, format_point
from varlab.theory import orthogonal

DIMENSIONS = (4, 16, 64)
DISTANCES = np.array([0.5, 1.0, 2.0, 5.0])


def sizes(d):
    """The slides' s grid for dimension d: d/2, d, 2d, 8d."""
    return [d // 2, d, 2 * d, 8 * d]


#: the claims whose seeds the shared simulations keep (several claims and the figure read them)
RADIAL_OWNER = "004.thm5.derived"
SIGNED_OWNER = "004.gorf.variance"
POLY_OWNER = "004.polynomial.variance"

#: the slides' polynomial kernel (004, Setup; 'Variance Reduction' (a); Table II)
POLY_A, POLY_DEGREE = 3.0, 1
#: distances on the unit sphere (|z| <= 2)
POLY_DISTANCES = np.array([0.5, 1.0, 1.5, 2.0])
#: model -> the orthogonality argument of theory.polynomial.estimator_variance
POLY_MODELS = {"grff_polynomial": "iid", "gorf_polynomial": "mutual", "gorf_separate_polynomial": "separate"}
#: model -> the orthogonality argument of theory.signed.estimator_variance
SIGNED_MODELS = {"grff": "iid", "gorf": "mutual", "gorf_separate": "separate"}


def _shared(owner, models, **grid):
    """{(model, d): Simulation} over the claims' grid, labelled by the model (the seeds of the
    former per-claim simulations)."""
    return {(model, d): Simulation(owner, model, model, tuple(sizes(d)), dict(dimension=d, **grid))
            for model in models for d in DIMENSIONS}


RADIAL = _shared(RADIAL_OWNER, ("orf", "rff_radial"), distance=tuple(DISTANCES))
SIGNED = _shared(SIGNED_OWNER, tuple(SIGNED_MODELS), distance=tuple(DISTANCES))
POLYNOMIAL = _shared(POLY_OWNER, tuple(POLY_MODELS), distance=tuple(POLY_DISTANCES), a=POLY_A,
                     degree=POLY_DEGREE)

#: "A could reduce the variance of B": the departure that matters, as a fraction of B's exact
#: variance (the slides' reductions are 20% to 60%: an excess below 5% is not a change they show)
EFFECT = 0.05
#: bound on the floating-point error of varlab's exact variances (relative; they agree with an
#: independent re-computation to about 1e-13)
FORMULA_ERROR = 1e-9


def _points(distances=DISTANCES):
    return [{"dimension": d, "distance": float(r), "s": int(s)} for d in DIMENSIONS for r in distances
            for s in sizes(d)]


def _grid_arrays():
    points = _points()
    return (points, *(np.array([p[name] for p in points]) for name in ("dimension", "distance", "s")))


# --- ORF against RFF, Gaussian kernel (004 'Theorem 5', cited from Yu et al. 2016) ----------------

#: Var(K_ORF(z)) - Var(K_RFF(z)) simulated, one Difference per d
GAP = tuple(Difference(RADIAL["orf", d], RADIAL["rff_radial", d]) for d in DIMENSIONS)


#: Var(K_RFF(z)) exact (Gaussian kernel, paired cos/sin, s = k frequencies; the same at every
#: dimension): the unit of the Theorem 5 claims
rff_variance = per_sample(orthogonal.iid_variance, name="rff_variance")


Agreement(id="004.thm5.printed", source="004, 'Theorem 5' (slides, as printed; cited from [1])",
          quote="G_k(z) = Var(K_ORF(z)) - Var(K_RFF(z)) = (s-1)/s E_R1[J_{d/2-1}(R1||z||) Gamma(d/2) / "
                "(R1||z||/2)^{d/2-1}]^2 - (s-1)/s E_R1,R2[J_{d/2-1}(sqrt(R1^2+R2^2)||z||) ...]^2",
          statement="For the Gaussian kernel, the simulated Var(K_ORF(z)) - Var(K_RFF(z)) equals the printed G_k "
                    "within 5% of Var(K_RFF(z)) (d = 4, 16, 64; |z| in 0.5..5; s = d/2, d, 2d, 8d).",
          note="Tolerance in units of Var(RFF) (the gap and the kernel vanish at |z| = 5).",
          model=GAP, theory=orthogonal.variance_gap_printed, statistic="variance", tolerance=EFFECT,
          relative=False, scale=rff_variance)

Agreement(id="varlab.004.thm5.derived",
          source="varlab's derivation of 004 'Theorem 5' (blocks of d, partial last block)",
          statement="Var(K_ORF(z)) - Var(K_RFF(z)) = P(s, d)/s^2 [1F1(d; d/2; -|z|^2/2) - exp(-|z|^2)] for the "
                    "Gaussian kernel, P(s, d) = q d(d-1) + r(r-1), s = q d + r (= (s-1)/s [...] for s <= d), "
                    "within 5% of Var(K_RFF(z)).",
          derived_by_varlab=True, model=GAP, theory=orthogonal.variance_gap, statistic="variance",
          tolerance=EFFECT, relative=False, scale=rff_variance)


def _orf_variance(k, dimension, distance):
    return orthogonal.orf_variance(dimension=dimension, distance=distance, k=k)


Agreement(id="varlab.004.orf.variance", source="varlab, ORF variance V_1/s + P(s,d)/s^2 C (004 'Theorem 5')",
          statement="The ORF estimator's variance is orthogonal.orf_variance(d, |z|, s) (Gaussian kernel), "
                    "within 5% of it.",
          derived_by_varlab=True, model=tuple(RADIAL["orf", d] for d in DIMENSIONS), theory=_orf_variance,
          statistic="variance", tolerance=EFFECT, relative=True)


def _exact_reduction(names, exact_lower, exact_upper, points):
    """The exact half of "A could reduce the variance of B" (``names``): a compute() for an
    Identity part that holds when varlab's exact Var(A) (``exact_lower()``, an array over
    ``points``) is nowhere above Var(B) (``exact_upper()``) by more than EFFECT of Var(B), and
    below it by more than that somewhere."""
    a, b = names

    def compute():
        upper = exact_upper()
        excess = (exact_lower() - upper) / upper
        high, low = int(np.argmax(excess)), int(np.argmin(excess))
        above = np.flatnonzero(excess > 0)
        return (bool(excess[high] <= EFFECT and -excess[low] > EFFECT),
                f"exact: Var({a}) below Var({b}) at {excess.size - above.size} of {excess.size} points, by up to "
                f"{format_number(-excess[low])} of Var({b}) ({format_point(points[low])}); above at {above.size} "
                f"points, by at most {format_number(excess[high])} of Var({b}) ({format_point(points[high])})", [])
    return compute


def could_reduce(*, names, exact_lower, exact_upper, points, lower, upper, scale):
    """The parts of "orthogonal sampling could reduce the variance" of A against B (``names``):
    varlab's exact variances put A nowhere above B by more than EFFECT of Var(B) and below it by
    more than that somewhere (an Identity part), and the simulation sees no point above by
    significantly more than EFFECT (a not-strict Ordering part of the simulations ``lower`` and
    ``upper``, in units of ``scale``, B's exact variance). All in units of B's exact variance."""
    units = f"fraction of Var({names[1]})"
    return (Identity.part(compute=_exact_reduction(names, exact_lower, exact_upper, points), tolerance=EFFECT,
                          error=FORMULA_ERROR, units=units),
            Ordering.part(lower=lower, upper=upper, statistic="variance", effect_size=EFFECT, strict=False,
                          scale=scale, units=units, names=names))


def _orf_exact():
    _, d, r, s = _grid_arrays()
    return orthogonal.orf_variance(dimension=d, distance=r, k=s)


def _rff_exact():
    _, d, r, s = _grid_arrays()
    return _orf_exact() - orthogonal.variance_gap(dimension=d, distance=r, k=s)


Joint(
    id="004.orf.below_rff", source="004, 'Unbiased Approximation' (Methods)",
    quote="Variance determines the whole approximation error. Orthogonal sampling could reduce the variance.",
    statement="For the Gaussian kernel, Var(ORF) is nowhere above Var(RFF) by more than 5% of Var(RFF) and below "
              "it by more than that somewhere (d = 4, 16, 64; |z| in 0.5..5; s = d/2..8d): varlab's exact gap "
              "(004.thm5.derived) and the simulation (no point above by significantly more than 5%).",
    note="'Could reduce', not 'reduces everywhere': the exact gap is positive at |z| = 5 (kernel e^-12.5 = 3.7e-6), "
         "by at most 3e-4 of Var(RFF).",
    parts=could_reduce(names=("ORF", "RFF"), exact_lower=_orf_exact, exact_upper=_rff_exact, points=_points(),
                       lower=tuple(RADIAL["orf", d] for d in DIMENSIONS),
                       upper=tuple(RADIAL["rff_radial", d] for d in DIMENSIONS), scale=rff_variance))


#: the seeds of the former claim 004.orf.rows_not_columns (now .rows_unbiased and .columns_biased)
ROWS_OWNER = "004.orf.rows_not_columns"
ROWS_GRID = dict(dimension=16, distance=(1.0, 2.0))
#: ORF with the frequencies as the rows of S Q (004 'QR decomposition' step 3), and as its columns
ROWS = Simulation(ROWS_OWNER, "rows", "orf", (16, 32), ROWS_GRID)
COLUMNS = Simulation(ROWS_OWNER, "columns", "orf_columns", (16, 32), ROWS_GRID)


def gaussian_kernel(k, dimension, distance):
    """The Gaussian kernel exp(-|z|^2/2) (bandwidth 1)."""
    return np.exp(-0.5 * distance * distance)


Agreement(id="varlab.004.orf.rows_unbiased", source="004 'QR decomposition' step 3 (rows of S Q); DESIGN.md",
          statement="Frequencies taken as the rows of S Q give an unbiased estimator of the Gaussian kernel, bias "
                    "within 0.005 of the kernel (d = 16, |z| = 1, 2, s = 16, 32).",
          note="Tolerance 0.005 in kernel units (the columns' bias, varlab.004.orf.columns_biased, is about -0.008 "
               "to -0.035).",
          derived_by_varlab=True, model=ROWS, theory=gaussian_kernel, statistic="mean", tolerance=0.005,
          relative=False)

Ordering(id="varlab.004.orf.columns_biased", source="004 'QR decomposition' step 3 (rows of S Q); DESIGN.md",
         statement="Frequencies taken as the columns of S Q (S applied to a Haar column) give an estimator biased "
                   "downwards: its mean is below the Gaussian kernel at every point (d = 16, |z| = 1, 2, s = 16, 32).",
         note="Effect size 0.005 in kernel units: the columns' bias is about -0.008 to -0.035.",
         derived_by_varlab=True, lower=COLUMNS, upper=gaussian_kernel, statistic="mean", effect_size=0.005,
         strict=True)


# --- SORF: varlab's own engineering check ----------------------------------------------------------

#: |z| of the SORF check: at |z| = 5 the bias is resolved at every budget (d = 4: about 0.025
#: against SEs of 1e-3 at the test budget); at |z| <= 2 it is a few 1e-3 or less
SORF_DISTANCES = (1.0, 2.0, 5.0)
#: the seeds of the check's former id
SORF_OWNER = "004.sorf.unbiased"


#: one SORF simulation per d, each at its own s = p
SORF = tuple(Simulation(SORF_OWNER, f"sorf{d}", "sorf", (hadamard_size(d),), dict(dimension=d, distance=SORF_DISTANCES))
             for d in DIMENSIONS)


def sorf_zero_projection(d, n_blocks, seed):
    """(P(<u, z/|z|> = 0), its SE) over SORF directions u (z along (1, ..., 1)): the directions
    of H D1 H D2 H D3 take finitely many values, some orthogonal to z, and for those cos<w, z> = 1
    whatever |z| and the norm, so E K_SORF(z) tends to this probability as |z| grows (varlab)."""
    from varlab.features.samplers.orthogonal import sorf_directions

    u = sorf_directions(np.random.default_rng(seed), n_blocks, d)
    zero = np.abs(u.sum(axis=-1)) <= 1e-9 * np.sqrt(d)
    per_block = zero.mean(axis=1)
    return float(per_block.mean()), float(per_block.std(ddof=1) / np.sqrt(n_blocks))


Agreement(id="varlab.004.sorf.unbiased", source="varlab: SORF (Yu et al. 2016), which varlab offers at large d as a "
                                                "drop-in for ORF (not in 004)",
          statement="SORF (varlab's: directions from H D1 H D2 H D3 with p = max(32, 2^ceil(log2 d)), rows cut to d "
                    "coordinates and renormalised, chi norms) estimates the Gaussian kernel without bias, within 0.01 "
                    "(kernel units): E K_SORF(z) = exp(-|z|^2/2) (d = 4, 16, 64; |z| = 1, 2, 5 along (1, ..., 1); "
                    "s = p).",
          note="Where it fails: SORF's directions are discrete and some are orthogonal to z (P about 0.12 at d = 4, "
               "sorf_zero_projection); for those cos<w, z> = 1 at every |z|, so E K_SORF(z) tends to that "
               "probability as |z| grows while the kernel tends to 0 (ORF's uniform directions: unbiased).",
          derived_by_varlab=True, model=SORF, theory=gaussian_kernel, statistic="mean", tolerance=0.01,
          relative=False)


# --- GRFF / GORF, delta-Gaussian ----------------------------------------------------------------

#: the slides' delta-Gaussian measure (the options of the SIGNED simulations)
SLIDES_MEASURE = dict(weights=(1.0, -1.0), bandwidths=(1.0, 10.0))


def _signed_exact(model):
    """signed_variance of ``model`` on the claims' grid, flattened like ``_points``."""
    return np.concatenate([signed_variance(np.array(sizes(d), float), d, r, model=model, **SLIDES_MEASURE)
                           for d in DIMENSIONS for r in DISTANCES])


#: the unbiasedness tolerance of GRFF/GORF, in kernel units: 1% of the total mass ||p+|| + ||p-||
#: (2 for both kernels' scale: the range of one feature product)
BIAS_TOLERANCE = 0.02


def _delta_gaussian(k, dimension, distance, weights, bandwidths):
    return DeltaGaussian(weights, bandwidths).kernel_of_distance(distance)


Agreement(id="004.grff.unbiased", source="004, 'Unbiased Approximation' (Methods)",
          quote="E(K_GRFF(z)) = k(z)",
          statement="GRFF and GORF (mutually orthogonal W, V) are unbiased for the delta-Gaussian kernel, within 0.02 "
                    "(a = (1, -1), sigma = (1, 10); d = 4, 16, 64; |z| in 0.5..5; s = d/2..8d).",
          note="GORF's unbiasedness is not printed as a formula; the slides' 'unbiased random features' (title) say it. "
               "Tolerance 0.02 in kernel units: 1% of the total mass ||p+|| + ||p-|| = 2.",
          model=tuple(SIGNED[m, d] for m in ("grff", "gorf") for d in DIMENSIONS), theory=_delta_gaussian,
          statistic="mean", tolerance=BIAS_TOLERANCE, relative=False)


def signed_variance(k, dimension, distance, weights, bandwidths, model):
    """theory.signed.estimator_variance of ``model`` (GRFF, GORF mutual or separate; s = k) for
    the delta-Gaussian measure of the simulation's options."""
    from varlab.theory import signed as theory

    return theory.estimator_variance(DeltaGaussian(weights, bandwidths), int(dimension), float(distance),
                                     np.asarray(k, float), SIGNED_MODELS[model])


def grff_variance(k, dimension, distance, weights, bandwidths):
    """Var(K_GRFF(z)) exact (theory.signed, delta-Gaussian): the unit of the GORF orderings."""
    return signed_variance(k, dimension, distance, weights, bandwidths, "grff")


Agreement(id="varlab.004.gorf.variance", source="varlab: Var = (P^2 V+ + N^2 V-)/s + [P^2 pairs C+ + N^2 pairs C- - "
                                                "2PN c H0]/s^2 (004 'Variance Reduction', G+, G-, H)",
          statement="The variances of GRFF, GORF (mutual) and GORF (separate) are theory.signed.estimator_variance, "
                    "within 5% of it.",
          derived_by_varlab=True, model=tuple(SIGNED[m, d] for m in SIGNED_MODELS for d in DIMENSIONS),
          theory=signed_variance, statistic="variance", tolerance=EFFECT, relative=True)


Joint(
    id="004.gorf.below_grff", source="004, 'Unbiased Approximation' (Methods), 'Variance Reduction' (b)",
    quote="Variance determines the whole approximation error. Orthogonal sampling could reduce the variance.",
    statement="For the delta-Gaussian kernel (a = (1, -1), sigma = (1, 10)), Var(GORF) (W, V mutually orthogonal) "
              "is nowhere above Var(GRFF) by more than 5% of Var(GRFF) and below it by more than that somewhere "
              "(d = 4, 16, 64; |z| in 0.5..5; s = d/2..8d): varlab's exact variances (004.gorf.variance) and the "
              "simulation (no point above by significantly more than 5%).",
    note="'Could reduce', not 'reduces everywhere': the exact Var(GORF) is above Var(GRFF) at d = 4, |z| = 5, "
         "by at most 0.23% of it.",
    parts=could_reduce(names=("GORF", "GRFF"), exact_lower=lambda: _signed_exact("gorf"),
                       exact_upper=lambda: _signed_exact("grff"), points=_points(),
                       lower=tuple(SIGNED["gorf", d] for d in DIMENSIONS),
                       upper=tuple(SIGNED["grff", d] for d in DIMENSIONS), scale=grff_variance))


Ordering(id="varlab.004.gorf.mutual_vs_separate", source="varlab (beyond 004): mutual vs separate orthogonality",
         statement="GORF with W and V mutually orthogonal has a variance nowhere above that of W and V each "
                   "orthogonalised on its own by more than 5% of Var(GRFF) (delta-Gaussian; d = 4, 16, 64; "
                   "|z| in 0.5..5; s = d/2..8d).",
         note="The slides orthogonalise W and V together; varlab asks whether that is better than separately. "
              "Exact (theory.signed): mutual is above separate at all 48 points, by up to 0.50 of Var(GRFF) "
              "(d = 64, |z| = 0.5, s = 512): the cross term H(z) = 2||p+|| ||p-|| [E a1 E b1 - E(a1 b1)] that "
              "mutual orthogonality adds is positive at every point, and it halves each part's block to d/2 rows.",
         derived_by_varlab=True, lower=tuple(SIGNED["gorf", d] for d in DIMENSIONS),
         upper=tuple(SIGNED["gorf_separate", d] for d in DIMENSIONS), statistic="variance", effect_size=EFFECT,
         strict=False, scale=grff_variance)


# --- the polynomial kernel on the unit sphere (1 - |z|^2/a^2)^m, a = 3, m = 1 ---------------------

def polynomial_variance_theory(model):
    """varlab's exact variance of ``model`` on the claims' grid, flattened like ``_points``."""
    return np.concatenate([polynomial_variance(np.array(sizes(d), float), d, r, POLY_A, POLY_DEGREE, model)
                           for d in DIMENSIONS for r in POLY_DISTANCES])


def _polynomial_kernel(k, dimension, distance, a, degree):
    return polynomial_kernel(distance, a, degree)


Agreement(id="004.polynomial.unbiased", source="004, 'Unbiased Approximation' (E K_GRFF(z) = k(z)), for the "
                                               "polynomial kernel on the unit sphere with varlab's shell measure",
          quote="E(K_GRFF(z)) = k(z)",
          statement="GRFF, GORF (W, V mutually orthogonal) and GORF (each part orthogonal) estimate the polynomial "
                    "kernel on the sphere (1 - |z|^2/9) (a = 3, m = 1) without bias, within 2% of the kernel, d = 4, 16, "
                    "64, |z| = 0.5..2, s = d/2..8d, with varlab's finite signed measure (spectral 'polynomial_sphere': its "
                    "kernel is within 1.1e-6 of the polynomial on [0, 2], far below the resolution).",
          note="The measure is varlab's (the printed transforms have infinite mass: 004.polynomial.finite_measure).",
          model=tuple(POLYNOMIAL[m, d] for m in POLY_MODELS for d in DIMENSIONS), theory=_polynomial_kernel,
          statistic="mean", tolerance=0.02, relative=True)


@lru_cache(maxsize=None)
def _sphere(a, degree, dimension):
    from varlab.spectral.polynomial import PolynomialSphere

    return PolynomialSphere(a, degree, dimension)


def polynomial_variance(k, dimension, distance, a, degree, model):
    """theory.polynomial.estimator_variance of ``model`` (GRFF, GORF mutual or separate; s = k) for
    varlab's shell measure of the polynomial kernel on the sphere."""
    from varlab.theory import polynomial as theory

    d = int(dimension)
    return theory.estimator_variance(_sphere(float(a), int(degree), d), d, float(distance), np.asarray(k, float),
                                     POLY_MODELS[model])[0]


Agreement(id="varlab.004.polynomial.variance",
          source="varlab: theory.polynomial.estimator_variance (004 'Variance Reduction' G+, G-, H with exact sums "
                 "over the shells)", derived_by_varlab=True,
          statement="The variances of GRFF, GORF (mutual) and GORF (separate) for the polynomial kernel on the sphere "
                    "(a = 3, m = 1; varlab's shell measure) are theory.polynomial.estimator_variance within 5% of it "
                    "(d = 4, 16, 64; |z| = 0.5..2; s = d/2..8d).",
          model=tuple(POLYNOMIAL[m, d] for m in POLY_MODELS for d in DIMENSIONS), theory=polynomial_variance,
          statistic="variance", tolerance=EFFECT, relative=True)


def grff_polynomial_variance(k, dimension, distance, a, degree):
    """Var(K_GRFF(z)) exact for the polynomial kernel on the sphere (varlab's shell measure): the
    unit of the polynomial GORF ordering."""
    return polynomial_variance(k, dimension, distance, a, degree, "grff_polynomial")


def _separate_is_lower(run) -> str:
    """varlab's GORF with each part orthogonal against GRFF, exact (reported beside the claim)."""
    iid = polynomial_variance_theory("grff_polynomial")
    separate = (polynomial_variance_theory("gorf_separate_polynomial") - iid) / iid
    return (f"varlab's GORF with each part orthogonal is lower at {int(np.sum(separate < 0))} of {separate.size} "
            f"points (by {format_number(np.min(-separate))} to {format_number(np.max(-separate))} of Var(GRFF))")


Joint(
    id="varlab.004.polynomial.gorf_below_grff",
    source="varlab, with its own finite shell measure, after 004 'Variance Reduction' figure (a)",
    statement="For the polynomial kernel on the sphere (a = 3, m = 1) with varlab's shell measure, Var(GORF) (W, V "
              "mutually orthogonal, as on the slides) is nowhere above Var(GRFF) by more than 5% of Var(GRFF) and "
              "below it by more than that somewhere (d = 4, 16, 64; |z| = 0.5..2; s = d/2..8d): varlab's exact "
              "variances (004.polynomial.variance) and the simulation (no point above by significantly more "
              "than 5%).",
    note="The slides' figure (a) shows the reduction for their measure, which is not finite as printed "
         "(004.polynomial.finite_measure); this is varlab's measure, so varlab's statement.",
    derived_by_varlab=True,
    parts=could_reduce(names=("GORF", "GRFF"), exact_lower=lambda: polynomial_variance_theory("gorf_polynomial"),
                       exact_upper=lambda: polynomial_variance_theory("grff_polynomial"),
                       points=_points(POLY_DISTANCES), lower=tuple(POLYNOMIAL["gorf_polynomial", d] for d in DIMENSIONS),
                       upper=tuple(POLYNOMIAL["grff_polynomial", d] for d in DIMENSIONS),
                       scale=grff_polynomial_variance),
    remark=_separate_is_lower)


def _finite_measure():
    from varlab.spectral.polynomial import PolynomialSphere
    from varlab.theory import polynomial as theory

    growth, details = [], []
    for d in (16, 256):
        for truncation in ("sphere", "a"):
            totals = {U: sum(theory.truncated_masses(d, POLY_DEGREE, U, a=POLY_A, truncation=truncation).values())
                      for U in (1000.0, 3000.0)}
            leading = {U: theory.variation_growth(d, POLY_DEGREE, U, a=POLY_A, truncation=truncation) for U in totals}
            exponent = np.log(totals[3000.0] / totals[1000.0]) / np.log(3.0)
            derived = 0.5 * (d - 1) - (0 if truncation == "sphere" else POLY_DEGREE)
            details.append({"dimension": d, "truncation": truncation, "T(1000)": totals[1000.0],
                            "T(3000)": totals[3000.0], "asymptotic T(3000)": leading[3000.0],
                            "measured exponent": exponent, "derived exponent": derived,
                            "finite": theory.finite_total_variation(d, POLY_DEGREE, a=POLY_A, truncation=truncation)})
            growth.append(f"d = {d}, r <= {'2' if truncation == 'sphere' else 'a'}: T(3000) = "
                          f"{format_number(totals[3000.0])} (asymptotic {format_number(leading[3000.0])}), exponent "
                          f"over U = 1000..3000 {exponent:.2f} (derived {derived:g})")
    ours = {d: PolynomialSphere(POLY_A, POLY_DEGREE, d).total_masses() for d in (16, 64, 256)}
    return growth, details, ours


@claim("004.polynomial.finite_measure", source="004, 'Methods' (GRFF's psi_i need the finite masses ||p+||, "
                                               "||p-||) with the transforms of 004 refs [3] (Pennington et al. 2015, "
                                               "Sec. 3) and [5] (Liu et al. 2021)",
       quote="= ||p+|| E_{w ~ p+~}(exp(i w^T z)) - ||p-|| E_{w ~ p-~}(exp(i w^T z)) where p+~ = p+(w)/||p+|| and "
             "p-~ = p-(w)/||p-||",
       statement="The slides' polynomial kernel on the sphere (a = 3, m = 1) has, in the slides' dimensions (letter "
                 "d = 16, usps d = 256), a signed spectral measure with finite Jordan masses ||p+||, ||p-|| when its "
                 "Fourier transform is taken as printed in the cited literature (the radial function truncated at "
                 "|z| = 2, Pennington et al. 2015; or at |z| = a, the Bochner-Riesz transform), so that GRFF can "
                 "sample p+/||p+|| and p-/||p-||.",
       note="Exact: the truncated masses' growth is computed in closed form; a frequency cutoff's bias is simulated.")
def polynomial_finite_measure(run):
    from varlab.spectral.polynomial import PrintedPolynomialTransform, polynomial_kernel

    growth, details, ours = _finite_measure()
    # what a frequency cutoff samples instead: biased, and its masses explode with the cutoff (d = 16)
    printed = PrintedPolynomialTransform(POLY_A, POLY_DEGREE, 16, truncation="sphere")
    r = np.array([0.0, 1.0, 2.0])
    z = r[:, None] * np.eye(16)[0]
    cutoffs = []
    for W in (5.0, 10.0, 20.0):
        cut = printed.truncated(W, cells_per_unit=20)
        bias = cut.kernel(z) - polynomial_kernel(r, POLY_A, POLY_DEGREE)
        masses = cut.total_masses()
        cutoffs.append(f"|w| <= {W:g}: masses {format_number(masses['positive'])}/{format_number(masses['negative'])}, "
                       "bias at |z| = 0, 1, 2: " + ", ".join(format_number(b) for b in bias))
    cut = printed.truncated(5.0, cells_per_unit=20)
    n = run.budget.n_repetitions * 10
    rng = np.random.default_rng(run.seed("cutoff-sampler"))
    masses = cut.total_masses()
    W_ = cut.rvs_part("positive", n, 16, random_state=rng)
    values = masses["positive"] * np.cos(W_ @ z[1])
    z_bias = (values.mean() - float(polynomial_kernel(1.0, POLY_A, POLY_DEGREE))) / (values.std(ddof=1) / np.sqrt(n))
    z_own = (values.mean() - float(cut.kernel(z[1]))) / (values.std(ddof=1) / np.sqrt(n))
    # finite iff, in every case, the total variation converges: varlab's criterion
    # (theory.polynomial.finite_total_variation) and the measured growth of the truncated masses agree
    finite = [row["finite"] for row in details]
    growing = [row["measured exponent"] > 0.25 for row in details]
    if any(f == g for f, g in zip(finite, growing)):
        raise RuntimeError("004.polynomial.finite_measure: the closed-form criterion and the measured growth of the "
                           f"truncated masses disagree: {details}")
    verb = "stay finite" if all(finite) else "grow without bound"
    reason = (f"the Jordan masses truncated at u = a|w| (or 2|w|) <= U {verb}, as varlab derives, "
              "T(U) ~ A U^{(d-1)/2-m} (r <= a) and A_0 U^{(d-1)/2} (r <= 2): " + "; ".join(growth)
              + ". A frequency cutoff gives a finite but biased measure (d = 16, r <= 2): " + "; ".join(cutoffs)
              + f"; its sampler at |w| <= 5, {n:,} draws: z = {z_bias:.0f} against the kernel, {z_own:.2f} against "
              "its own kernel. varlab's finite measure with the same kernel on the sphere (least-variation shells): "
              "masses " + ", ".join(f"d = {d}: {m['positive']:.2f}/{m['negative']:.2f}" for d, m in ours.items()))
    return builders.exact(run, all(finite), reason, rows=details)
