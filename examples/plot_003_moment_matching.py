"""
003: moment matching against the optimal control variate
========================================================

The left panel of the project's ``003_mm_variance``: the variance of the moment-matching
estimator (003, Alg. 1) divided by that of the optimal control variate (Cor. 1, Eq. 12),
against the number of features m. The lines are varlab's exact law of V_MM (any d <= m - 1);
the points are the engine's simulation at d = 5 (±1 SE).
"""
import matplotlib.pyplot as plt
import numpy as np

from varlab import mc
from varlab.theory import moment_matching as theory

m_line, m = np.unique(np.geomspace(6, 1000, 60).astype(int)), np.array([6, 12, 24, 48, 96, 192])
fig, ax = plt.subplots(figsize=(6, 4.5))
for colour, s in zip(("C0", "C1", "C2"), (0.5, 1.0, 2.0)):
    exact = theory.mm_moments(s, m_line)["variance"] / theory.cv_optimal_variance(scaled_distance=s, m=m_line)
    ax.semilogx(m_line, exact, color=colour, label=f"exact, s = {s:g}")
    result = mc.simulate("mm_moment_matching", k=m, dimension=5, scaled_distance=s, n_repetitions=2_000,
                         random_state=0)
    cv = theory.cv_optimal_variance(scaled_distance=s, m=m)
    ax.errorbar(m, result.variance[0] / cv, yerr=result.se_variance[0] / cv, fmt="o", color=colour)
ax.axhline(1.0, color="k", lw=0.8)
ax.set(xlabel="m (features)", ylabel="V_MM / V_CV*", title="moment matching vs optimal CV (points: d = 5)")
ax.legend()
