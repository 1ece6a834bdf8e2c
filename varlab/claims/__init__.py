"""Claims: each paper statement as a declaration, checked against theory and simulation with
three outcomes (confirmed, contradicted, inconclusive; ``varlab.testing.outcomes``).

* declarations (``kinds``): :class:`Agreement`, :class:`Ordering`, :class:`Identity`,
  :class:`Paired`, :class:`Joint` (parts joined by "and"), and :func:`claim` for a check with a
  rule of its own;
* what they compare (``sources``): shared :class:`Simulation` objects, a :class:`Difference` of
  two, code outside the engine as a :class:`Measured` source; their theories (``theories``),
  with :func:`per_sample` for a law of one sample;
* a check gets a :class:`ClaimRun` (``run``): the :class:`Budget`, seeds from the claim's id,
  cached simulations and the run's :class:`Store`; it builds its :class:`Verdict` (the one
  record, ``varlab.testing.verdict``) with ``varlab.testing.builders``;
* papers are found through the entry-point group ``varlab.papers`` (``registry``), a claim's
  paper from its id; what a paper leaves unchecked is declared beside its claims
  (:class:`NotChecked`, ``not_checked``) and listed after them in its report;
* :func:`check` (``runner``) runs claims, resumably, and writes the reports (``report``); with
  an :class:`UntilDecided` it gives each inconclusive claim one deciding run with fresh seeds
  (``until_decided``);
* :func:`run_units` (``units``) runs an experiment's units resumably in a :class:`Store`.
"""
from ..mc.stats import Z_MAX, t_threshold
from ..testing.outcomes import CONFIRMED, CONTRADICTED, INCONCLUSIVE, OUTCOMES
from ..testing.verdict import Verdict
from .budget import BUDGETS, Budget, base_name, budget, factor_of, setting
from .kinds import Agreement, Check, Claim, Identity, Joint, Ordering, Paired, claim
from .unchecked import NotChecked
from .registry import GROUP, claims, load, not_checked, paper_of, paper_title, papers
from .report import rewrite_report, write_report
from .run import ClaimRun, points, seed_for, simulate_for
from .runner import check, run_claims, stored_verdicts
from .sources import Difference, Measured, Measurement, Simulation
from .theories import per_sample
from .store import Store, store_for
from .until_decided import UntilDecided
from .units import DeadlineReached, run_units, unit_key

__all__ = ["Z_MAX", "t_threshold", "CONFIRMED", "CONTRADICTED", "INCONCLUSIVE", "OUTCOMES",
           "BUDGETS", "Budget", "budget", "base_name", "factor_of", "setting", "Agreement", "Check", "Claim",
           "Difference", "Identity", "Joint", "Measured", "Measurement", "NotChecked", "Ordering",
           "Paired", "Simulation", "per_sample", "claim", "GROUP", "claims", "load", "not_checked",
           "paper_of", "paper_title",
           "papers", "rewrite_report", "write_report", "ClaimRun", "points", "seed_for", "simulate_for", "check",
           "run_claims", "stored_verdicts", "Store", "store_for", "DeadlineReached", "run_units", "unit_key", "Verdict",
           "UntilDecided"]
