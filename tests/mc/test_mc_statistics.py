"""Statistical tests of the Monte Carlo engine against closed forms (fixed seeds, tolerances in
the engine's own standard errors: |estimate - theory| <= 4.5 SE)."""
import numpy as np
import pytest

from varlab.mc import Model, simulate

N_SE = 4.5
RHO = np.array([-0.6, 0.0, 0.5, 0.9, 1.0])
GAMMA = np.array([0.5, 1.0, 2.0, 1.0, 3.0])
K = [1, 7, 100]


def rbf(rho, gamma):
    return np.exp(-gamma * (1.0 - rho))


def rff_variance(rho, gamma):
    """000, Eq. (18)/(21): variance of one RFF sample."""
    return 0.5 + 0.5 * (1.0 - np.exp(-2.0 * gamma * (1.0 - rho))) ** 2


def no_phase_variance(rho, gamma):
    """Variance of one no-phase sample (varlab's own derivation)."""
    return ((1.0 - np.exp(-2.0 * gamma * (1.0 - rho))) ** 2
            + (1.0 - np.exp(-2.0 * gamma * (1.0 + rho))) ** 2) / 8.0


def assert_within(estimate, theory, se, what):
    z = (estimate - theory) / se
    assert np.all(np.isfinite(z)), f"{what}: non-finite z-scores {z}"
    assert np.all(np.abs(z) <= N_SE), f"{what}: z-scores {np.round(z, 2)} exceed {N_SE}"


@pytest.fixture(scope="module")
def rff_result():
    return simulate("rff", k=K, rho=RHO, gamma=GAMMA, n_repetitions=20_000, random_state=20240611)


@pytest.fixture(scope="module")
def no_phase_result():
    return simulate("rff_no_phase", k=K, rho=RHO, gamma=GAMMA, n_repetitions=20_000,
                    random_state=77)


def test_rff_mean_is_rbf(rff_result):
    r = rff_result
    np.testing.assert_allclose(r.target, np.repeat(rbf(RHO, GAMMA)[:, None], len(K), axis=1))
    assert_within(r.mean, r.target, r.se_mean, "rff mean")
    assert_within(r.bias, 0.0, r.se_mean, "rff bias")


def test_rff_variance_times_k_is_V(rff_result):
    r = rff_result
    k = r.k[None, :]
    V = rff_variance(RHO, GAMMA)[:, None]
    assert_within(r.variance * k, np.broadcast_to(V, r.variance.shape), r.se_variance * k,
                  "rff k * variance")
    # unbiased estimator: MSE = variance as well
    assert_within(r.mse * k, np.broadcast_to(V, r.mse.shape), r.se_mse * k, "rff k * mse")


def test_no_phase_mean_is_folded_rbf(no_phase_result):
    r = no_phase_result
    folded = 0.5 * np.exp(-GAMMA * (1 - RHO)) + 0.5 * np.exp(-GAMMA * (1 + RHO))
    np.testing.assert_allclose(r.target[:, 0], folded)
    assert_within(r.mean, r.target, r.se_mean, "no-phase mean")


def test_no_phase_variance(no_phase_result):
    r = no_phase_result
    k = r.k[None, :]
    V = no_phase_variance(RHO, GAMMA)[:, None]
    # rho = 1, gamma = 3: the variance is tiny but nonzero; still within SE
    assert_within(r.variance * k, np.broadcast_to(V, r.variance.shape), r.se_variance * k,
                  "no-phase k * variance")


def test_nrff_large_k_variance_close_to_asymptotic():
    """Theorem 3: k Var(NRFF) -> V_n; at k = 1000 the O(1/k) correction is below the noise."""
    rho, gamma = np.array([0.5, 0.9]), np.array([1.0, 2.0])
    r = simulate("nrff", k=[1000], rho=rho, gamma=gamma, n_repetitions=4000, random_state=5)
    e = np.exp(-2 * gamma * (1 - rho))
    Vn = rff_variance(rho, gamma) - 0.25 * e * (3 - e * e)
    assert_within(r.variance[:, 0] * 1000, Vn, r.se_variance[:, 0] * 1000, "nrff k * variance")
    assert_within(r.mean, r.target, r.se_mean, "nrff mean at k=1000")


def test_nrff_at_rho_one_is_exact():
    r = simulate("nrff", k=[1, 10], rho=1.0, gamma=2.0, n_repetitions=100, random_state=0)
    np.testing.assert_allclose(r.mean, 1.0, rtol=0, atol=1e-15)
    np.testing.assert_allclose(r.variance, 0.0, atol=1e-28)


# --- standard errors -------------------------------------------------------------------------

class ExponentialMean(Model):
    """Mean of k standard exponentials: variance 1/k, 4th central moment (9k + 3k(k-1))/k^4."""

    name = "exponential_mean"
    parameters = ("rho",)          # a dummy axis: one replicate per point
    unbiased = True

    def target(self, rho):
        return np.ones_like(np.asarray(rho, dtype=float))

    def sample(self, rng, n, k, out, workspace, *, rho):
        rng.standard_exponential(out=out[0])

    def combine(self, sums, k, *, rho):
        return sums[0] / k


def test_standard_errors_match_spread_of_replicates():
    """m independent replicate simulations (one per parameter point): the spread of their means
    and of their variance estimates matches the reported SEs."""
    m, n = 600, 1000
    r = simulate(ExponentialMean(), k=[1, 4], rho=np.zeros(m), n_repetitions=n,
                 random_state=314, chunk_size=1)
    for j, k in enumerate(r.k):
        # SE of the mean: exact sigma / sqrt(n) on average, and the spread of the means
        sigma2 = 1.0 / k
        assert_within(np.mean(r.se_mean[:, j] ** 2), sigma2 / n,
                      np.std(r.se_mean[:, j] ** 2, ddof=1) / np.sqrt(m), "mean of se_mean^2")
        means = r.mean[:, j]
        spread = np.var(means, ddof=1)
        centred4 = np.mean((means - means.mean()) ** 4)
        se_spread = np.sqrt(max(centred4 - (m - 3) / (m - 1) * spread ** 2, 0) / m)
        assert_within(spread, sigma2 / n, se_spread, f"spread of means (k={k})")
        # SE of the variance: compare with the spread of the m variance estimates
        variances = r.variance[:, j]
        spread_v = np.var(variances, ddof=1)
        centred4_v = np.mean((variances - variances.mean()) ** 4)
        se_spread_v = np.sqrt(max(centred4_v - (m - 3) / (m - 1) * spread_v ** 2, 0) / m)
        reported = r.se_variance[:, j] ** 2
        se_reported = np.std(reported, ddof=1) / np.sqrt(m)
        assert_within(spread_v, np.mean(reported), np.hypot(se_spread_v, se_reported),
                      f"spread of variances vs se_variance (k={k})")
        # and with the exact value (mu4 - (n-3)/(n-1) sigma^4) / n
        mu4 = (9.0 * k + 3.0 * k * (k - 1)) / k ** 4
        exact = (mu4 - (n - 3) / (n - 1) * sigma2 ** 2) / n
        assert_within(spread_v, exact, se_spread_v, f"spread of variances vs exact (k={k})")
        # SE of the MSE: the spread of the m MSE estimates matches the reported se_mse^2 (a
        # doubled or halved se_mse is 100+ SEs away)
        mses = r.mse[:, j]
        spread_m = np.var(mses, ddof=1)
        centred4_m = np.mean((mses - mses.mean()) ** 4)
        se_spread_m = np.sqrt(max(centred4_m - (m - 3) / (m - 1) * spread_m ** 2, 0) / m)
        reported_m = r.se_mse[:, j] ** 2
        assert_within(spread_m, np.mean(reported_m),
                      np.hypot(se_spread_m, np.std(reported_m, ddof=1) / np.sqrt(m)),
                      f"spread of MSEs vs se_mse (k={k})")
        assert not np.isclose(spread_m, 4 * np.mean(reported_m), rtol=0.5)


def test_mse_decomposition():
    r = simulate("nrff", k=[1, 3, 30], rho=0.8, gamma=1.0, n_repetitions=3000, random_state=9)
    n = r.n_repetitions
    np.testing.assert_allclose(r.mse, r.variance * (n - 1) / n + r.bias ** 2, rtol=1e-10)
    np.testing.assert_allclose(r.mean - r.target, r.bias, rtol=1e-9, atol=1e-15)
