"""Check your own theorem against varlab's Monte Carlo engine, with no edit to varlab.

A check simulates a model (a registered name or your own ``varlab.mc.Model`` instance) over a
grid and returns a :class:`Verdict` whose ``outcome`` is one of three (``outcomes``):
``confirmed`` (the statement held everywhere, at a resolution no coarser than your tolerance),
``contradicted`` (a departure significantly beyond the tolerance) or ``inconclusive`` (with the
budget that would resolve it).

* :func:`check_agreement` / :func:`assert_agreement`: a statistic ("mean", "variance", "mse")
  equals a formula (``agreement``);
* :func:`check_ordering` / :func:`assert_ordering`: a statistic of model A is below that of
  model B (``ordering``);
* :func:`product_grid`: every combination of parameter values (grids otherwise broadcast);
* ``varlab.testing.strategies``: hypothesis strategies over the declared parameter domains.

The assert functions raise AssertionError with the per-point table, for use in a test suite.

A check is a paper claim's declaration (``varlab.claims.Agreement`` / ``Ordering``), unregistered:
the claims and these checks share the :class:`Verdict` (``verdict``), the decisions
(``decision``), the builders of a Verdict (``builders``) and one threshold rule
(``outcomes.threshold``: the t quantile of the repetitions used, minus 1).
"""
from .agreement import assert_agreement, check_agreement
from ..mc.grid import product_grid
from .ordering import assert_ordering, check_ordering
from .outcomes import CONFIRMED, CONTRADICTED, INCONCLUSIVE, OUTCOMES
from .verdict import Verdict

__all__ = ["check_agreement", "assert_agreement", "check_ordering", "assert_ordering",
           "product_grid", "Verdict", "CONFIRMED", "CONTRADICTED", "INCONCLUSIVE", "OUTCOMES"]
