"""Paper 003's claims on its figures, Table 1 and sentences (paper_checks/p003/figure_claims.py,
issue 35): the quotes are the paper's words, the Gram error ratios carry the delta-method standard
error of two independent means (unknown at one repetition), and model mm_pathwise_gap computes
E_MM - E_CV* of Eq. (14) on one draw."""
import math
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from paper_checks.p003 import figure_claims as F
from varlab import claims, mc
from varlab.claims import Budget
from varlab.features.samplers.moment_matching import moment_match
from varlab.mc import Workspace

PAPER = next(Path("/work/shared/papers").glob("003_*.txt"), None)
NEW = ("003.fig12.mm_lowest", "003.fig12.mm_cv2_consistent", "003.fig12.cv_beat_mc", "003.fig12.cv2_beats_cv1",
       "003.fig12.mc_underperforms", "003.fig3.robust_bandwidth", "003.abstract.gram_superiority",
       "003.table1.lowest", "003.cv_unbiased", "003.cor2.eq14")


def _words(text: str) -> str:
    """Lower-case words only: markdown bold, Table 1's block (printed inside a sentence) and
    punctuation dropped."""
    text = re.sub(r"Table 1: Out-of-sample.*?repeating the simulation 100 times\.", " ", text, flags=re.S)
    return " ".join(re.findall(r"[a-z0-9σ]+", text.replace("**", "").lower()))


def test_new_claims_are_registered_and_quote_the_paper_verbatim():
    by_id = {claim.id: claim for claim in claims.claims("003")}
    assert set(NEW) <= set(by_id)
    paper = _words(PAPER.read_text(encoding="utf-8")) if PAPER else None
    for claim_id in NEW:
        claim = by_id[claim_id]
        assert claim.quote and claim.statement and not claim.derived_by_varlab
        if paper is not None and claim_id not in ("003.cv_unbiased", "003.cor2.eq14"):   # prose, not formulas
            assert _words(claim.quote) in paper, claim_id


def test_error_ratios_have_the_delta_method_error_and_no_error_at_one_repetition():
    values = {"MM": (0.02, 0.001), "MC": (0.04, 0.002), "CV2": (np.nan, np.nan)}
    run = SimpleNamespace(budget=Budget("quick", 10))

    def cells(repetitions):
        return lambda budget: [({"data": "x", "norm": "Frobenius", "m": 8}, values, repetitions)]

    measured = F.error_ratios(cells(5), [("MM", "MC"), ("CV2", "MC")], "A / B").measure(run)
    assert measured.estimate == [0.5] and measured.degrees_of_freedom == [4]     # CV2 undefined: skipped
    assert math.isclose(measured.standard_error[0], 0.5 * math.hypot(0.05, 0.05), rel_tol=1e-12)
    assert measured.rows == [{"data": "x", "norm": "Frobenius", "m": 8, "A": "MM", "B": "MC"}]
    single = F.error_ratios(cells(1), [("MM", "MC")], "A / B").measure(run)
    assert single.standard_error == [np.inf] and "no standard error" in single.remark


def test_pathwise_gap_is_e_mm_minus_e_cv_star_on_one_draw():
    n, k, d, s = 3, 12, 4, 1.3
    model = mc.get_model("mm_pathwise_gap")
    got = model.estimate(np.random.default_rng(7), n, k, Workspace(), dimension=d, scaled_distance=s)
    rng = np.random.default_rng(7)
    W = rng.standard_normal((n, k, d))
    c = np.full(d, s / math.sqrt(d))
    coin = rng.integers(0, 2, n) * 2.0 - 1.0
    beta = math.exp(-s * s / 2)
    for i in range(n):
        t = W[i] @ c
        cv = np.mean(np.exp(-1j * t)) + beta * 1j * np.mean(t) + 0.5 * beta * (np.mean(t * t) - s * s)   # Eq. (11)
        mm = np.mean(np.exp(-1j * (moment_match(W[i]) @ c)))
        gap = mm - cv
        assert math.isclose(got[i], gap.real + coin[i] * gap.imag, rel_tol=1e-10, abs_tol=1e-13)
    result = mc.simulate("mm_pathwise_gap", k=[16, 256], dimension=2, scaled_distance=1.0, n_repetitions=2000,
                         random_state=0)
    cv_star = F.cv_optimal_variance(np.array([16, 256]), 2, 1.0)
    ratio = result.mse[0] / cv_star                              # E|D|^2 / V_CV*: falls like 1/m
    assert ratio[1] < ratio[0] / 4 and np.all(result.mse[0] > mc.Z_MAX * result.se_mse[0])
