"""Claims of paper 001 that no other claim reads: fRBF's monotonicity (Eq. 11) and Fig. 1's left
panel. Its §4 sentences on letter at k = 16 and on b = 4 against b = 8, which 000 §5 repeats, are
claims of 000 (``paper_checks.p000.figure_claims``: they read 000's hashing records, and a paper's
package loads no other's).
"""
from __future__ import annotations

import numpy as np
import sympy

from varlab.claims import Identity
from varlab.testing.verdict import format_number
from varlab.theory import rff

from .claims import FIGURE1_GAMMAS

# --- Eq. (11): fRBF is monotonic for rho >= 0 ---------------------------------------------------

_rho, _gamma = sympy.symbols("rho gamma", real=True)
#: rho grid of the numeric checks (varlab's rff.no_phase_mean, Fig. 1's gammas and a large one)
FRBF_RHO = np.linspace(-1.0, 1.0, 4001)
FRBF_GAMMAS = FIGURE1_GAMMAS + (50.0,)


def _frbf_monotonic():
    """d fRBF / d rho = gamma e^{-gamma} sinh(gamma rho) (sympy), >= 0 for rho >= 0; varlab's
    formula increasing on [0, 1] and, fRBF being even in rho, decreasing on [-1, 0]."""
    frbf = (sympy.exp(-_gamma * (1 - _rho)) + sympy.exp(-_gamma * (1 + _rho))) / 2
    derivative = sympy.simplify(sympy.diff(frbf, _rho) - _gamma * sympy.exp(-_gamma) * sympy.sinh(_gamma * _rho)
                                .rewrite(sympy.exp)) == 0
    even = sympy.simplify(frbf - frbf.subs(_rho, -_rho)) == 0
    positive, negative = FRBF_RHO > 0, FRBF_RHO < 0
    rises, falls = True, True
    rows = []
    for gamma in FRBF_GAMMAS:
        values = rff.no_phase_mean(rho=FRBF_RHO, gamma=gamma)
        steps = np.diff(values)
        rises &= bool(np.all(steps[positive[1:]] > 0))
        falls &= bool(np.all(steps[negative[:-1]] < 0))
        rows.append(dict(gamma=gamma, fRBF_at_rho_0=float(values[2000]), fRBF_at_rho_1=float(values[-1])))
    reason = (f"d fRBF/d rho - gamma e^(-gamma) sinh(gamma rho) simplifies to 0: {derivative} (sympy), so the "
              f"derivative is >= 0 for rho >= 0, gamma > 0; fRBF(rho) = fRBF(-rho): {even}; rff.no_phase_mean "
              f"strictly increasing on (0, 1]: {rises}, strictly decreasing on [-1, 0): {falls} "
              f"({FRBF_RHO.size} rho, gamma in {', '.join(map(str, FRBF_GAMMAS))})")
    return derivative and even and rises and falls, reason, rows


Identity(
    id="001.eq11.monotonic", source="001, Eq. (11) and §5",
    quote="fRBF(u,v;gamma) = 1/2 e^{-gamma(1-rho)} + 1/2 e^{-gamma(1+rho)} which is monotonic in rho >= 0",
    statement="d fRBF/d rho = gamma e^{-gamma} sinh(gamma rho) (sympy), which is >= 0 for rho >= 0 and gamma > 0: "
              "fRBF increases with rho on [0, 1]; varlab's formula (rff.no_phase_mean) is strictly increasing "
              "there on a grid, and, fRBF being even in rho, strictly decreasing on [-1, 0).",
    note="Stronger than the words: strictly increasing, and not monotonic over [-1, 1] (even in rho), which is "
         "why the paper restricts it to rho >= 0 (nonnegative data).",
    compute=_frbf_monotonic)

# --- Fig. 1, left panel: Var/E^2 of RFF against rho -------------------------------------------

FIGURE1_RHO = np.linspace(-1.0, 1.0, 4001)


def _figure1_left():
    """Var/E^2 of RFF (Eq. 14 over Eq. 12 squared) decreasing in rho to 1/2 at rho = 1 at each of
    the panel's gammas, and increasing with gamma at every rho < 1."""
    curves = np.array([rff.relative_variance(rho=FIGURE1_RHO, gamma=gamma) for gamma in FIGURE1_GAMMAS])
    falls = bool(np.all(np.diff(curves, axis=1) < 0))
    ordered = bool(np.all(np.diff(curves[:, :-1], axis=0) > 0))
    at_one = curves[:, -1]
    rows = [dict(gamma=gamma, at_rho_minus_1=float(c[0]), at_rho_0=float(c[2000]), at_rho_1=float(c[-1]))
            for gamma, c in zip(FIGURE1_GAMMAS, curves)]
    error = float(np.max(np.abs(at_one - 0.5)))
    reason = (f"Var/E^2 strictly decreasing in rho at each gamma in {', '.join(map(str, FIGURE1_GAMMAS))}: {falls} "
              f"({FIGURE1_RHO.size} rho in [-1, 1]); larger for larger gamma at every rho < 1: {ordered}; at rho = 1 "
              f"it is 1/2 to {format_number(error)}; at rho = -1 from {format_number(rows[0]['at_rho_minus_1'])} "
              f"to {format_number(rows[-1]['at_rho_minus_1'])}")
    return falls and ordered and error <= 1e-12, reason, rows


Identity(
    id="001.fig1.left", source="001, Fig. 1 (left panel) and §3",
    quote="It is desirable to have small Var/E^2. The left panel of Figure 1 plots Var/E^2 against rho, for three "
          "gamma values.",
    statement="What the left panel shows: RFF's Var/E^2 (Eq. 14 over Eq. 12 squared) falls strictly with rho to its "
              "minimum 1/2 at rho = 1, at each gamma of the panel (0.5, 1, 5), and is larger for larger gamma at "
              "every rho < 1 (floating point, 4001 rho).",
    note="The paper states no property of the left panel; varlab checks the shape the panel draws (the "
         "relative variance is smallest for similar vectors and never below 1/2).",
    compute=_figure1_left, error=1e-12, tolerance=1e-12, units="relative")
