"""Packages that import their public names on first use (PEP 562).

A package lists its public names once, as the imports of its ``if TYPE_CHECKING:``
block: type checkers and IDEs read them there, and :func:`attach` reads the same
block from the package's source to give the package its ``__all__`` and the module
``__getattr__`` and ``__dir__`` that import a name's submodule when the name is first
asked for, so importing the package itself stays cheap.
"""

from __future__ import annotations

import ast
import sys
from importlib import import_module
from importlib.util import resolve_name
from pathlib import Path


def exports(package: str) -> dict[str, str]:
    """``name -> submodule`` for each name imported in ``package``'s ``if TYPE_CHECKING:`` block.

    Examples
    --------
    >>> import perceptron_core.datasets
    >>> exports("perceptron_core.datasets")["load"]
    'perceptron_core.datasets.registry'
    """
    source = Path(sys.modules[package].__file__ or "").read_text(encoding="utf-8")
    found = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom):
                    dots = "." * statement.level
                    module = resolve_name(dots + (statement.module or ""), package)
                    found.update({alias.asname or alias.name: module for alias in statement.names})
    return found


def attach(package: str):
    """``(__getattr__, __dir__, __all__)`` for ``package``, whose public names are the imports
    of its ``if TYPE_CHECKING:`` block (:func:`exports`).

    A name once imported is kept in the package's namespace, with the other names of its
    submodule, so later lookups do not reach ``__getattr__``.

    Examples
    --------
    >>> import perceptron_core.datasets as datasets
    >>> getattr_, dir_, all_ = attach("perceptron_core.datasets")
    >>> getattr_("DataError") is datasets._common.DataError, "load" in dir_(), "load" in all_
    (True, True, True)
    """
    namespace = sys.modules[package].__dict__
    where = exports(package)

    def __getattr__(name: str):
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = import_module(where[name])
        # every public name of that submodule at once: importing it bound the submodule itself
        # on the package, over a public name that shares its name (``experiments.reproduce``)
        for other, home in where.items():
            if home == where[name]:
                namespace[other] = getattr(module, other)
        return namespace[name]

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(where))

    return __getattr__, __dir__, sorted(where)
