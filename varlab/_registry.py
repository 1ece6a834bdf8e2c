"""Registries filled by definition (models, samplers, spectral measures): a class registers
itself under a name when it is defined, and the registry imports every module of its package
before it is read, so a new family is one new module and no list is edited by hand."""
from __future__ import annotations

import importlib
import pkgutil

__all__ = ["Registry"]


class Registry(dict):
    """name -> class, for one kind of object defined in the modules of ``package``."""

    def __init__(self, kind: str, package: str):
        super().__init__()
        self.kind = kind
        self.package = package
        self._loaded = False

    def add(self, cls: type, name) -> type:
        """Register ``cls`` as ``name``; re-defining the same class (same module and qualified
        name) replaces it, another class under a taken name is an error."""
        if not isinstance(name, str):
            raise TypeError(f"a {self.kind}'s name must be a non-empty string, got {name!r}")
        if not name:
            raise ValueError(f"a {self.kind}'s name must be a non-empty string, got {name!r}")
        old = self.get(name)
        if old is not None and (old.__module__, old.__qualname__) != (cls.__module__, cls.__qualname__):
            raise ValueError(f"a {self.kind} named {name!r} is already registered "
                             f"({old.__module__}.{old.__qualname__})")
        self[name] = cls
        return cls

    def load(self) -> "Registry":
        """Import every module of the package (defining its classes registers them); once per
        process (listing the package costs about 1 ms, paid by every ``get_sampler`` call)."""
        if self._loaded:
            return self
        package = importlib.import_module(self.package)
        for info in pkgutil.iter_modules(package.__path__):
            importlib.import_module(f"{self.package}.{info.name}")
        self._loaded = True
        return self

    def by_name(self) -> dict:
        """Every registered class, by name (sorted), after loading the package."""
        self.load()
        return dict(sorted(self.items()))
