"""Data enter compiled code read-only, so that numba compiles a loop once per storage type.

numba types a read-only array apart from a writable one, and compiles every function it
reaches once more for each: the on-line driver, with every rule's step compiled into it, for
a data set cached read-only and again for a writable copy of it. The package's compiled
functions name the data they only read ``X``; every caller hands them a read-only view
(:func:`perceptron_core._jit.read_only`), so no compiled function holds a writable ``X``.
"""

from __future__ import annotations

import inspect
import sys

import numpy as np
import pytest
from numba import types
from numba.core.dispatcher import Dispatcher

from tests.test_sklearn_conformance import ESTIMATORS, configurations, fast_members


def _dispatchers() -> list[Dispatcher]:
    """Every compiled function of the package's imported modules."""
    found = {}
    for name, module in list(sys.modules.items()):
        if name.partition(".")[0] == "perceptron_core":
            for value in vars(module).values():
                if isinstance(value, Dispatcher):
                    found[id(value)] = value
    return list(found.values())


def writable_data_signatures() -> list[str]:
    """``function(signature)`` of each compilation that took a writable array as ``X``."""
    found = []
    for dispatcher in _dispatchers():
        names = list(inspect.signature(dispatcher.py_func).parameters)
        for signature in dispatcher.signatures:
            for name, kind in zip(names, signature):
                if name == "X" and isinstance(kind, types.Array) and kind.mutable:
                    found.append(f"{dispatcher.py_func.__qualname__}{signature}")
    return found


def _data(dtype) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(40, 3)).astype(dtype)
    return X, np.where(X[:, 0] + X[:, 1] > 0, 1, -1)


@pytest.mark.parametrize("dtype", [np.float64, np.uint8])
@pytest.mark.parametrize("cls", sorted(fast_members(ESTIMATORS), key=lambda c: c.__name__))
def test_a_fit_and_its_predictions_hand_the_data_to_compiled_code_read_only(cls, dtype):
    X, y = _data(dtype)
    assert X.flags.writeable
    estimator = configurations(cls)[0].fit(X, y)
    estimator.predict(X)
    assert X.flags.writeable  # the caller's array keeps its flag: only a view is read-only
    assert not writable_data_signatures()
