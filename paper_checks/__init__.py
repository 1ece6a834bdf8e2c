"""Per-paper claims and figures: one package ``pNNN`` per paper (its ``claims``/``figures``
modules and ``TITLE``), discovered by ``varlab.claims.papers()``; generated reports live in
``reports/``."""
