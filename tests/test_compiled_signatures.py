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


# On one worker: the kernel estimators share their compilations of the dual trainer, which
# two workers starting them at the same moment would each compile (2 s).
@pytest.mark.xdist_group("read-only data: one worker compiles each loop")
@pytest.mark.parametrize("dtype", [np.float64, np.uint8])
@pytest.mark.parametrize("cls", sorted(fast_members(ESTIMATORS), key=lambda c: c.__name__))
def test_a_fit_and_its_predictions_hand_the_data_to_compiled_code_read_only(cls, dtype):
    X, y = _data(dtype)
    assert X.flags.writeable
    estimator = configurations(cls)[0].fit(X, y)
    estimator.predict(X)
    assert X.flags.writeable  # the caller's array keeps its flag: only a view is read-only
    assert not writable_data_signatures()


def test_the_voted_and_kernel_loops_are_compiled_once_whatever_shape_the_callers_arrays_take():
    """A shorter last chunk (columns of a larger buffer), a transpose that needed no copy
    (one feature: a read-only view) or a copy (several), rows writable or read-only: each
    used to compile the loop once more for the same kind of data (0.2-0.7 s each time a
    server starts). The loops now take contiguous, read-only arrays from every caller."""
    from perceptron_core._jit import read_only
    from perceptron_core.engine import kernel_cache, kw_trainer
    from perceptron_core.kernel import KernelPerceptron
    from perceptron_core.linear import KWPerceptron

    rng = np.random.default_rng(3)
    for n_features in (1, 3, 20):  # in order up to 12 features, by chunks above
        X = rng.normal(size=(100, n_features))
        y = rng.integers(0, 2, size=100)
        clf = KWPerceptron(epochs=2, random_state=0, predict_with="voted").fit(X, y)
        for rows in (X, X[:74], read_only(X)):  # 74 = two whole chunks of 37, 100 = 37+37+26
            clf.decision_function(rows, chunk_size=37)
        kernel = KernelPerceptron(kernel="rbf", epochs=2, random_state=0).fit(X, y)
        kernel.predict(X), kernel.predict(read_only(X))
    walks = [sig[0] for sig in kw_trainer.voted_scores.signatures]
    assert walks and all(kind.layout == "C" for kind in walks), walks
    in_order = [sig[1] for sig in kw_trainer.voted_scores_in_order.signatures]
    assert in_order and not any(kind.mutable for kind in in_order), in_order
    kernels = [sig[:2] for sig in kernel_cache._cross_kernel.signatures]
    assert kernels and not any(a.mutable or b.mutable for a, b in kernels), kernels
