"""Claims of paper 001. Its Theorem 2 (Eq. 12-14) is 000's Theorem 2 and is checked there;
here: the folded RBF of Eq. (11) and the reading of Figure 1 (Var/E^2 of RFF against E, against
GCWS's (1 - E)/E).
"""
from __future__ import annotations

import numpy as np

from varlab.claims import claim
from varlab.theory import gcws, rff

from paper_checks.p000.rff import moment_agreement

FIGURE1_GAMMAS = (0.5, 1.0, 5.0)


@claim("001.eq11", source="001, Eq. (11) and (13)",
       statement="fRBF(u, v; gamma) = E[cos(sqrt(gamma) x) cos(sqrt(gamma) y)] = "
                 "e^{-gamma(1-rho)}/2 + e^{-gamma(1+rho)}/2.")
def folded_rbf(run):
    return moment_agreement(run, model="rff_no_phase", formula=rff.no_phase_mean, moment="mean",
                            k=[1], quantity="mean of one no-phase sample (fRBF)")


@claim("001.fig1", source="001, Fig. 1 and its caption",
       statement="Plotted against E, Var/E^2 of RFF can be compared with GCWS's (1 - E)/E (Fig. 1 "
                 "right); varlab makes this exact: RFF's curve depends on E only, and lies above "
                 "GCWS's.")
def relative_variance_against_E(run):
    """Var/E^2 of RFF is a function of E alone; it exceeds GCWS's (1 - E)/E for every E."""
    rho = np.linspace(-1, 1, 2001)
    spread, gap = 0.0, np.inf
    for gamma in FIGURE1_GAMMAS:
        E = rff.mean(rho=rho, gamma=gamma)
        direct = rff.relative_variance(rho=rho, gamma=gamma)
        via_E = rff.relative_variance_of_mean(E=E)
        spread = max(spread, float(np.max(np.abs(direct / via_E - 1))))
        with np.errstate(divide="ignore"):
            gap = min(gap, float(np.min(via_E - gcws.relative_variance_of_mean(E=E))))
    summary = (f"max relative difference between Var/E^2(rho, gamma) and its E-only form over "
               f"gamma in {FIGURE1_GAMMAS}: {spread:.3g}; min over E of RFF's Var/E^2 minus GCWS's "
               f"(1-E)/E: {gap:.6g} (> 0 means GCWS is lower everywhere)")
    return run.verdict(spread < 1e-12 and gap > 0, summary)
