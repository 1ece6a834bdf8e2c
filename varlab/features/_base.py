"""A tiny base for feature maps: scikit-learn's parameter protocol without scikit-learn.

``get_params``/``set_params``/``repr`` are read off the ``__init__`` signature, so that
parameters are stored unchanged by ``__init__`` and validated only in ``fit`` (the
scikit-learn rule). The scikit-learn adapters in ``varlab.adapters`` wrap these classes.
"""
from __future__ import annotations

import inspect


class NotFittedError(ValueError, AttributeError):
    """A method that needs fitted attributes was called before ``fit`` (as in scikit-learn)."""


class ParamsMixin:
    """``get_params``, ``set_params`` and ``__repr__`` from the ``__init__`` signature."""

    @classmethod
    def _parameters(cls) -> dict:
        signature = inspect.signature(cls.__init__)
        return {name: p.default for name, p in signature.parameters.items()
                if name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}

    def get_params(self, deep: bool = True) -> dict:
        """The constructor parameters, as stored (``deep`` is accepted for compatibility)."""
        return {name: getattr(self, name) for name in self._parameters()}

    def set_params(self, **params):
        """Set constructor parameters; they are validated at the next ``fit``."""
        valid = self._parameters()
        for name, value in params.items():
            if name not in valid:
                raise ValueError(f"invalid parameter {name!r} for {type(self).__name__}; "
                                 f"valid parameters are {sorted(valid)}")
            setattr(self, name, value)
        return self

    def __repr__(self) -> str:
        changed = []
        for name, default in self._parameters().items():
            value = getattr(self, name)
            try:
                same = value is default or bool(value == default)
            except Exception:  # e.g. arrays: compare by identity only
                same = False
            if not same:
                changed.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(changed)})"
