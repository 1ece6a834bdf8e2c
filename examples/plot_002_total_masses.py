"""
002 Fig. 1: AsK-RFF's estimated total masses
============================================

The project's ``002_fig1`` for the shift-Gaussian kernel (sigma = 2, r = 2): AsK-RFF
(``varlab.features.AsKRFF``) estimates the total masses of its spectral measure's parts from
a sub-Gram of 10 points (002, Eq. 12); the estimates (mean ± sd over 5 fits) approach the
exact masses (dashed, ``varlab.spectral``) as the number of features M grows.
"""
import matplotlib.pyplot as plt
import numpy as np

from varlab import spectral
from varlab.features import AsKRFF

X = np.random.default_rng(0).standard_normal((2000, 1))
exact = spectral.get_measure("shift_gaussian", lengthscale=2.0, shift=np.array([2.0])).total_masses()
M = 2 ** np.arange(1, 10)
fits = [[AsKRFF(m, kernel="shift_gaussian", gamma=1 / 8, shift=2.0, masses="estimated", n_subset=10,
                random_state=trial).fit(X).masses_ for trial in range(5)] for m in M]
fig, ax = plt.subplots(figsize=(6, 4.5))
for colour, part in zip(("C0", "C1", "C2"), ("real_positive", "real_negative", "imaginary_positive")):
    values = np.array([[fit[part] for fit in row] for row in fits])
    ax.errorbar(np.log2(M), values.mean(1), yerr=values.std(1, ddof=1), fmt="o", capsize=3, color=colour,
                label=f"{part} (Eq. 12)")
    ax.axhline(exact[part], ls="--", color=colour, lw=1)
ax.set(xlabel="log2 M", ylabel="total mass", title="shift-Gaussian: estimated (points) vs exact (dashed)")
ax.legend()
