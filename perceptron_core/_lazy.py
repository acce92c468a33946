"""Packages that import their public names on first use (PEP 562).

A package lists where each name lives; :func:`attach` gives it the module
``__getattr__`` and ``__dir__`` that import a name's submodule when the name
is first asked for, so importing the package itself stays cheap.
"""

from __future__ import annotations

import sys
from importlib import import_module


def attach(package: str, exports: dict[str, str]):
    """``(__getattr__, __dir__)`` for ``package``, whose name ``n`` lives in ``exports[n]``.

    A name once imported is kept in the package's namespace, so later lookups
    do not reach ``__getattr__``.

    Examples
    --------
    >>> import json
    >>> getattr_, dir_ = attach("json", {"JSONDecoder": "decoder"})
    >>> getattr_("JSONDecoder") is json.decoder.JSONDecoder, "JSONDecoder" in dir_()
    (True, True)
    """
    namespace = sys.modules[package].__dict__

    def __getattr__(name: str):
        if name not in exports:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f"{package}.{exports[name]}"), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(exports))

    return __getattr__, __dir__
