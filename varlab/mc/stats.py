"""Streaming moments, standard errors and agreement tests for the Monte Carlo engine.

The engine summarises each block of repetitions by its *central* moments (count, mean and the
sums of centred powers M2, M3, M4) and merges blocks pairwise with the update formulas of
Chan, Golub & LeVeque (1979) and Pebay (2008). Central moments, unlike raw power sums, do not
cancel catastrophically when the spread is tiny next to the mean (e.g. NRFF at rho -> 1, whose
variance is ~1e-8 while its mean is ~1). Merging is always done left to right in block order,
so the floating-point result is a pure function of the per-block summaries.

Standard errors (n repetitions, sample mean xbar, sample variance s^2 = M2/(n-1),
fourth central sample moment m4 = M4/n):

* SE of the mean: ``s / sqrt(n)``;
* SE of the unbiased sample variance: ``sqrt((m4 - (n-3)/(n-1) s^4) / n)`` -- the exact formula
  Var(s^2) = (mu4 - (n-3)/(n-1) sigma^4)/n with mu4 and sigma^2 replaced by their sample
  values (clipped at 0 from below);
* SE of the mean squared error ``mean((e - t)^2)``: the SE of the mean of q = (e - t)^2, i.e.
  ``sd(q) / sqrt(n)``.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from scipy import stats as scipy_stats

from . import fused

__all__ = ["Z_MAX", "t_threshold", "Moments", "merge_all", "variance_standard_error", "z_score",
           "within", "difference_z_score"]

#: Agreement threshold in standard errors, defined once (DESIGN.md: "|estimate - theory| <= 4.5 SE").
Z_MAX = 4.5


def t_threshold(degrees_of_freedom) -> np.ndarray:
    """The |t| threshold with the two-sided tail probability of ``Z_MAX`` under N(0, 1), for an
    SE estimated from ``degrees_of_freedom`` + 1 independent units (inf df -> Z_MAX).

    Examples
    --------
    >>> from varlab.mc import t_threshold
    >>> t_threshold([9, 10 ** 6]).round(2)        # few units: a wider threshold than 4.5
    array([9.25, 4.5 ])
    """
    tail = 2.0 * scipy_stats.norm.sf(Z_MAX)
    return np.asarray(scipy_stats.t.isf(tail / 2.0, degrees_of_freedom), dtype=float)


@dataclass
class Moments:
    """Count, mean and centred power sums M2..M4 of samples, vectorized over trailing shape.

    ``m3``/``m4`` are None for an order-2 summary. ``n`` is a Python int (every entry of the
    arrays summarises the same number of samples).

    Examples
    --------
    >>> import numpy as np
    >>> from varlab.mc import Moments
    >>> x = np.random.default_rng(0).standard_normal(1000)
    >>> m = Moments.from_samples(x[:400]).merge(Moments.from_samples(x[400:]))
    >>> bool(np.isclose(m.variance, x.var(ddof=1))), float(m.se_mean.round(4))
    (True, 0.0309)
    """

    n: int
    mean: np.ndarray
    m2: np.ndarray
    m3: np.ndarray | None = None
    m4: np.ndarray | None = None

    @property
    def order(self) -> int:
        return 4 if self.m4 is not None else 2

    @classmethod
    def from_samples(cls, x: np.ndarray, *, axis: int = -1, order: int = 4) -> "Moments":
        """Two-pass moments of ``x`` along ``axis`` (order 2 or 4)."""
        if order not in (2, 4):
            raise ValueError(f"order must be 2 or 4, got {order!r}")
        x = np.moveaxis(np.asarray(x, dtype=np.float64), axis, -1)
        n = x.shape[-1]
        if n < 1:
            raise ValueError("Moments need at least one sample")
        mean = x.sum(axis=-1) / n
        centred = x - mean[..., None]
        squared = centred * centred
        m2 = squared.sum(axis=-1)
        if order == 2:
            return cls(n, mean, m2)
        m3 = (squared * centred).sum(axis=-1)
        np.multiply(squared, squared, out=squared)
        m4 = squared.sum(axis=-1)
        return cls(n, mean, m2, m3, m4)

    def merge(self, other: "Moments") -> "Moments":
        """Moments of the union of the two sample sets (Chan et al.; Pebay). Not in place."""
        if self.order != other.order:
            raise ValueError("cannot merge moments of different orders")
        na, nb = float(self.n), float(other.n)
        n = na + nb
        delta = other.mean - self.mean
        delta_n = delta / n
        mean = self.mean + delta_n * nb
        term = delta * delta_n * na * nb          # delta^2 na nb / n
        m2 = self.m2 + other.m2 + term
        if self.order == 2:
            return Moments(self.n + other.n, mean, m2)
        delta_n2 = delta_n * delta_n
        m3 = (self.m3 + other.m3 + term * delta_n * (na - nb)
              + 3.0 * delta_n * (na * other.m2 - nb * self.m2))
        m4 = (self.m4 + other.m4 + term * delta_n2 * (na * na - na * nb + nb * nb)
              + 6.0 * delta_n2 * (na * na * other.m2 + nb * nb * self.m2)
              + 4.0 * delta_n * (na * other.m3 - nb * self.m3))
        return Moments(self.n + other.n, mean, m2, m3, m4)

    # derived statistics -------------------------------------------------------------------
    @property
    def variance(self) -> np.ndarray:
        """Unbiased sample variance M2 / (n - 1)."""
        if self.n < 2:
            raise ValueError("the sample variance needs n >= 2")
        return self.m2 / (self.n - 1)

    @property
    def se_mean(self) -> np.ndarray:
        """Standard error of the mean, s / sqrt(n)."""
        return np.sqrt(self.variance / self.n)

    @property
    def se_variance(self) -> np.ndarray:
        """Standard error of the unbiased sample variance (see the module docstring)."""
        if self.order != 4:
            raise ValueError("the SE of the variance needs 4th-order moments")
        return variance_standard_error(self.n, self.variance, self.m4 / self.n)


@fused.kernel
def _merge_loop(counts, mean, m2, m3, m4, fourth):
    # Moments.merge's operations, in its order, folded left to right into row 0
    na = counts[0]
    for b in range(1, counts.size):
        nb = counts[b]
        n = na + nb
        for j in range(mean.shape[1]):
            delta = mean[b, j] - mean[0, j]
            delta_n = delta / n
            term = delta * delta_n * na * nb
            if fourth:
                delta_n2 = delta_n * delta_n
                m4[0, j] = (m4[0, j] + m4[b, j] + term * delta_n2 * (na * na - na * nb + nb * nb)
                            + 6.0 * delta_n2 * (na * na * m2[b, j] + nb * nb * m2[0, j])
                            + 4.0 * delta_n * (na * m3[b, j] - nb * m3[0, j]))
                m3[0, j] = (m3[0, j] + m3[b, j] + term * delta_n * (na - nb)
                            + 3.0 * delta_n * (na * m2[b, j] - nb * m2[0, j]))
            mean[0, j] = mean[0, j] + delta_n * nb
            m2[0, j] = m2[0, j] + m2[b, j] + term
        na = n


def stack_moments(summaries: list) -> tuple:
    """(counts, fields, shape) of Moments of one order whose arrays share one shape of at most one
    dimension: ``fields`` maps "mean", "m2" [, "m3", "m4"] to a (len, size) float64 array, row i
    summary i's. :func:`unstack_moments` inverts it; None where the shapes do not allow it."""
    orders = {summary.order for summary in summaries}
    if len(orders) > 1:
        raise ValueError("cannot merge moments of different orders")
    shape = np.shape(summaries[0].mean)
    if len(shape) > 1:
        return None
    names = ("mean", "m2", "m3", "m4") if orders == {4} else ("mean", "m2")
    fields = {name: np.stack([np.atleast_1d(getattr(summary, name)) for summary in summaries], dtype=np.float64)
              for name in names}
    return np.array([summary.n for summary in summaries], dtype=np.int64), fields, shape


def unstack_moments(counts, fields, shape) -> list:
    """The Moments that :func:`stack_moments` stacked (their arrays view the stacks)."""
    def field(array, i):
        return array[i, 0] if shape == () else array[i]
    return [Moments(int(n), *(field(array, i) for array in fields.values())) for i, n in enumerate(counts)]


def merge_all(summaries: list) -> Moments:
    """``summaries[0].merge(summaries[1]).merge(...)``, left to right, bit for bit: by a compiled
    loop (``varlab.mc.fused``) where fused kernels run, else by :meth:`Moments.merge`. The
    engine merges thousands of block summaries after every simulation; one by one, in numpy,
    that costs about 10 us each (a serial part that limits n_jobs = 2).

    Examples
    --------
    >>> import functools
    >>> import numpy as np
    >>> from varlab.mc import Moments, merge_all
    >>> x = np.random.default_rng(0).standard_normal((10, 50))
    >>> parts = [Moments.from_samples(row) for row in x]
    >>> merged, one_by_one = merge_all(parts), functools.reduce(Moments.merge, parts)
    >>> merged.n, bool(merged.m4 == one_by_one.m4)
    (500, True)
    """
    if not summaries:
        raise ValueError("merge_all needs at least one summary")
    stacked = stack_moments(summaries)
    if stacked is not None and len(summaries) > 2:
        counts, fields, shape = stacked
        fourth = "m4" in fields
        arrays = list(fields.values()) + ([] if fourth else [fields["m2"][:1]] * 2)  # m3, m4 unused
        weights = counts.astype(np.float64)
        run = _merge_loop.compiled(weights, *arrays, fourth)
        if run is not None:
            run(weights, *arrays, fourth)                   # the merge lands in row 0
            return unstack_moments([counts.sum()], fields, shape)[0]
    return functools.reduce(Moments.merge, summaries)



def variance_standard_error(n: int, variance, fourth_central_moment) -> np.ndarray:
    """SE of the unbiased sample variance: sqrt((m4 - (n-3)/(n-1) s^4) / n), clipped at 0.

    Examples
    --------
    >>> from varlab.mc import variance_standard_error
    >>> float(variance_standard_error(10_000, 1.0, 3.0))     # normal data: sqrt(2 / n) nearly
    0.0141428427835
    """
    if n < 2:
        raise ValueError("the SE of the sample variance needs n >= 2")
    variance = np.asarray(variance, dtype=np.float64)
    value = np.asarray(fourth_central_moment, dtype=np.float64) - (n - 3.0) / (n - 1.0) * variance ** 2
    return np.sqrt(np.maximum(value, 0.0) / n)


def z_score(estimate, theory, se) -> np.ndarray:
    """(estimate - theory) / se; 0 where both the difference and se are 0, inf where only se is.

    Examples
    --------
    >>> from varlab.mc import z_score
    >>> z_score(1.02, 1.0, 0.01)
    array(2.)
    """
    estimate, theory, se = (np.asarray(a, dtype=np.float64) for a in (estimate, theory, se))
    difference = estimate - theory
    with np.errstate(divide="ignore", invalid="ignore"):
        z = difference / se
    return np.where((difference == 0) & (se == 0), 0.0, z)


def within(estimate, theory, se, n_se: float = Z_MAX) -> np.ndarray:
    """Whether |estimate - theory| <= n_se * se (element-wise).

    Examples
    --------
    >>> from varlab.mc import within
    >>> within([1.02, 1.06], 1.0, 0.01)          # 2 and 6 standard errors off
    array([ True, False])
    """
    return np.abs(z_score(estimate, theory, se)) <= n_se


def difference_z_score(a, se_a, b, se_b) -> np.ndarray:
    """z-score of a - b for two independent estimates: (a - b) / sqrt(se_a^2 + se_b^2).

    Examples
    --------
    >>> from varlab.mc import difference_z_score
    >>> round(float(difference_z_score(1.0, 0.03, 1.1, 0.04)), 6)     # (1.0 - 1.1) / 0.05
    -2.0
    """
    se = np.sqrt(np.asarray(se_a, dtype=np.float64) ** 2 + np.asarray(se_b, dtype=np.float64) ** 2)
    return z_score(a, b, se)
