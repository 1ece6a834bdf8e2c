"""
004 "Theorem 5": orthogonal random features' variance ratio
===========================================================

The Gaussian panel of the project's ``beyond_orf_ratio``: the variance of orthogonal random
features (ORF, one block of k = d orthogonal frequencies) over that of i.i.d. frequencies,
against the distance ``|z|``, from varlab's derivation of 004's "Theorem 5"
(``varlab.theory.orthogonal``, lines) and simulated by the engine (points, ±1 SE).
Orthogonality helps more as d grows; all ratios tend to 1 as ``|z|`` grows.
"""
import matplotlib.pyplot as plt
import numpy as np

from varlab import mc
from varlab.theory import orthogonal

line, points = np.linspace(0.05, 4.0, 80), np.array([0.25, 0.5, 1.0, 1.5, 2.0, 3.0])
fig, ax = plt.subplots(figsize=(6, 4.5))
for colour, d in zip(("C0", "C1", "C2"), (4, 16, 64)):
    ratio = orthogonal.orf_variance(dimension=d, distance=line, k=d) / (orthogonal.iid_variance(distance=line) / d)
    ax.plot(line, ratio, color=colour, label=f"d = k = {d}")
    result = mc.simulate("orf", k=[d], dimension=d, distance=points, n_repetitions=2_000, random_state=0)
    iid = orthogonal.iid_variance(distance=points) / d
    ax.errorbar(points, result.variance[:, 0] / iid, yerr=result.se_variance[:, 0] / iid, fmt="o", color=colour)
ax.axhline(1.0, color="grey", ls=":")
ax.set(xlabel="|z|", ylabel="Var(ORF) / Var(iid)", title="Gaussian kernel: theory (lines), simulated (points)")
ax.legend()
