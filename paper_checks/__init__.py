"""Per-paper lists of claims; ``varlab check`` runs them into reports under paper_checks/reports/."""
from importlib import import_module

PAPERS = ("000", "001")


def claims(paper: str):
    """The claims of one paper ('000', '001', ...)."""
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {list(PAPERS)}, got {paper!r}")
    return import_module(f"paper_checks.paper_{paper}").CLAIMS
