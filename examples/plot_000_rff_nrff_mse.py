"""
000 Fig. 2: MSE of RFF and NRFF against k
=========================================

One panel of the project's ``000_fig2``: the MSE of random Fourier features (RFF) and of
normalized RFF (NRFF) simulated by the engine (points, ±1 SE), over the theory lines V/k
(000, Thm 2) and V_n/k (Thm 3). NRFF's line is asymptotic, so its points sit above it at small k.
"""
import matplotlib.pyplot as plt
import numpy as np

from varlab import mc
from varlab.theory import nrff, rff

k, rho, gamma = 2 ** np.arange(9), 0.9, 1.0
fig, ax = plt.subplots(figsize=(6, 4.5))
ax.loglog(k, rff.variance(rho=rho, gamma=gamma) / k, color="C3", lw=3, alpha=0.4, label="V/k (Thm 2)")
ax.loglog(k, nrff.asymptotic_variance(rho=rho, gamma=gamma) / k, color="C0", lw=3, alpha=0.4, label="V_n/k (Thm 3)")
for model, colour in (("rff", "C3"), ("nrff", "C0")):
    result = mc.simulate(model, k=k, rho=rho, gamma=gamma, n_repetitions=2_000, random_state=0)
    ax.errorbar(k, result.mse[0], yerr=result.se_mse[0], fmt="o", mfc="none", color=colour,
                label=f"{model.upper()} simulated (± SE)")
ax.set(xlabel="k", ylabel="MSE", title=f"rho = {rho}, gamma = {gamma}: 2,000 repetitions per k")
ax.legend()
