"""
Check your own theorem with varlab.testing
==========================================

``varlab.testing.check_agreement`` checks a formula of yours against the engine and answers
confirmed, contradicted or inconclusive (:doc:`../testing`). Here, two candidate variances of
the random-phase RFF estimator of 000: the right one (000, Thm 2: 1/2 + (1 - E^2)^2 / 2, per
sample) and a plausible slip, (1 - E^2)^2 / 2, which is the variance of *paired* cos/sin
features. Each point is the simulated variance over the formula's, ±1 SE; the band is the
tolerance (10%).
"""
import matplotlib.pyplot as plt
import numpy as np

from varlab.testing import check_agreement
from varlab.theory import rff

candidates = {"Thm 2": lambda k, rho, gamma: rff.variance(rho=rho, gamma=gamma) / k,
              "paired cos/sin": lambda k, rho, gamma: (1 - rff.mean(rho=rho, gamma=gamma) ** 2) ** 2 / (2 * k)}
fig, ax = plt.subplots(figsize=(6, 4.5))
for offset, (name, formula) in zip((-0.1, 0.1), candidates.items()):
    verdict = check_agreement("rff", formula, statistic="variance", k=[1, 4, 16], rho=[0.0, 0.5, 0.9], gamma=1.0,
                              n_repetitions=5_000, random_state=0, tolerance=0.1)
    print(f"{name}: {verdict.outcome} | {verdict.reason}")
    rows = verdict.rows
    ax.errorbar(np.arange(len(rows)) + offset, [r["estimate"] / r["theory"] for r in rows],
                yerr=[r["SE"] / r["theory"] for r in rows], fmt="o", label=f"{name}: {verdict.outcome}")
ax.axhspan(0.9, 1.1, color="grey", alpha=0.2, label="tolerance")
ax.set_xticks(range(len(rows)), [f"rho={r['rho']:g}\nk={r['k']}" for r in rows], fontsize=7)
ax.set(ylabel="simulated / formula", yscale="log", title="RFF variance: two candidate formulas")
ax.legend()
