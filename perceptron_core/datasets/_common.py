"""Shared pieces of :mod:`perceptron_core.datasets`.

* :class:`DataError`, the one error type of the package: a ``ValueError``
  whose message is meant for a person (the app shows it verbatim).
* Parameter checks that reuse :mod:`perceptron_core._validation`'s rules and
  message shape ("<function>: <name> (<meaning>) must be <accepted>; got
  <value>.") but raise :class:`DataError`.
* Random-state handling: every random function takes ``random_state`` as
  ``None``, a whole number, or a :class:`numpy.random.Generator` (a legacy
  :class:`numpy.random.RandomState` is accepted too).
* The return type of every generator, :class:`GeneratedData`, and the
  "true boundary" objects it carries (:class:`LinearTarget`,
  :class:`FunctionTarget`).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from perceptron_core._validation import SEED, Number, OneOf, Param


class DataError(ValueError):
    """What went wrong with a data set, a file or a generator option.

    Every function of :mod:`perceptron_core.datasets` raises only this error
    for a problem with its input (it is a ``ValueError``, so code that catches
    ``ValueError`` keeps working). The message says what was wrong and what is
    accepted, in words a student can act on.

    Examples
    --------
    >>> from perceptron_core.datasets import DataError, load
    >>> try:
    ...     load("no such set")
    ... except DataError as err:
    ...     print(str(err)[:40])
    There is no data set called 'no such set
    """

    __module__ = "perceptron_core.datasets"


# --------------------------------------------------------------------------
# Parameter checks
# --------------------------------------------------------------------------

PROBABILITY = Number(0, 1)
POSITIVE_INT = Number(1, integer=True)
NON_NEGATIVE = Number(0)
POSITIVE = Number(0, open_low=True)


def check(func: str, name: str, value, meaning: str, *accepted):
    """Check one argument against ``_validation`` rules; raise :class:`DataError`.

    Examples
    --------
    >>> check("make_kw", "noise", 2.0, "the label-flip probability N", PROBABILITY)
    Traceback (most recent call last):
    ...
    perceptron_core.datasets.DataError: make_kw: noise (the label-flip probability N) ...
    """
    try:
        Param(meaning, tuple(accepted)).check(func, name, value)
    except ValueError as err:
        raise DataError(str(err)) from None
    return value


def check_choice(func: str, name: str, value, meaning: str, choices):
    """Check that ``value`` is one of ``choices`` (strings)."""
    return check(func, name, value, meaning, OneOf(tuple(choices)))


def check_dtype(func: str, dtype, kinds: str = "if") -> np.dtype:
    """Turn ``dtype`` into a NumPy dtype of one of ``kinds`` ('i' signed int, 'u', 'f')."""
    try:
        dt = np.dtype(dtype)
    except TypeError:
        dt = None
    if dt is None or dt.kind not in kinds:
        names = {
            "i": "a signed integer type such as 'int8'",
            "u": "an unsigned integer type",
            "f": "a floating type such as 'float64'",
        }
        raise DataError(
            f"{func}: dtype (the storage type of X) must be "
            f"{' or '.join(names[k] for k in kinds)}; got {dtype!r}."
        )
    return dt


def check_random_state(random_state, func: str) -> np.random.Generator:
    """Return a :class:`numpy.random.Generator` for ``random_state``.

    ``None`` gives fresh entropy, a whole number seeds a new generator, a
    ``Generator`` is used as it is (so successive calls continue its stream),
    and a legacy ``RandomState`` seeds a new generator from four of its draws.

    Examples
    --------
    >>> int(check_random_state(0, "demo").integers(10))
    8
    """
    if not SEED.accepts(random_state):
        raise DataError(
            f"{func}: random_state (the seed that makes the result reproducible) must be "
            f"{SEED.describe()}; got {random_state!r}."
        )
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(0, 2**32, size=4, dtype=np.uint64))
    return np.random.default_rng(random_state)


def seed_sequence(random_state, func: str) -> np.random.SeedSequence:
    """A :class:`numpy.random.SeedSequence` for ``random_state``.

    Used where a function needs several independent streams that must not
    depend on how much is drawn from each (see :func:`make_kw`). A whole
    number seeds the sequence directly, so results depend on the seed only.
    """
    if isinstance(random_state, numbers.Integral) and SEED.accepts(random_state):
        return np.random.SeedSequence(int(random_state))
    rng = check_random_state(random_state, func)
    return np.random.SeedSequence(rng.integers(0, 2**32, size=4, dtype=np.uint64))


def child_rng(parent: np.random.SeedSequence, *key: int) -> np.random.Generator:
    """The generator of the child stream ``key`` of ``parent`` (as ``spawn`` would make it)."""
    ss = np.random.SeedSequence(parent.entropy, spawn_key=tuple(parent.spawn_key) + key)
    return np.random.Generator(np.random.PCG64(ss))


def round_half_up(x: float) -> int:
    """Round to the nearest whole number, halves up (``round(12.5) = 13``).

    Python's ``round`` sends halves to the even neighbour; a count of flipped
    labels should not depend on that. A tolerance of 1e-9 absorbs binary
    rounding (``0.05 * 250`` is 12.500000000000002 in floating point).

    Examples
    --------
    >>> round_half_up(12.5), round_half_up(0.05 * 250), round_half_up(2.4999)
    (13, 13, 2)
    """
    return math.floor(x + 0.5 + 1e-9)


# --------------------------------------------------------------------------
# Generated data and its ground truth
# --------------------------------------------------------------------------


class Target:
    """The true (noise-free) rule behind a generated data set.

    ``decision_function(X)`` is a signed score: positive on the +1 side of the
    true boundary, negative on the -1 side; ``predict`` takes its sign (a
    score of exactly 0 counts as -1, as in the learners).
    """

    description: str = ""

    def decision_function(self, X) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def predict(self, X) -> np.ndarray:
        """Labels in {-1, +1} given by the true boundary."""
        return np.where(self.decision_function(X) > 0, 1, -1).astype(np.int64)


@dataclass(eq=False)
class LinearTarget(Target):
    """A linear true boundary ``<w, x> - theta = 0`` (the +1 side is ``> 0``).

    Attributes
    ----------
    w : ndarray of shape (n_features,)
        Normal vector of the boundary.
    theta : float
        Threshold.
    description : str
        What the boundary is, in words.
    """

    w: np.ndarray
    theta: float
    description: str = ""

    def decision_function(self, X) -> np.ndarray:
        """``<w, x> - theta`` for every row; exact for integer data.

        Examples
        --------
        >>> import numpy as np
        >>> LinearTarget(np.array([1.0, -1.0]), 0.5).decision_function([[2.0, 1.0]])
        array([0.5])
        """
        X = np.asarray(X)
        if X.dtype.kind in "iub" and self.w.dtype.kind in "iu":
            return (X.astype(np.int64) @ self.w.astype(np.int64)) - self.theta
        return X.astype(np.float64) @ self.w.astype(np.float64) - self.theta

    def __repr__(self) -> str:
        return f"LinearTarget(n_features={self.w.shape[0]}, theta={self.theta:.6g}" + (
            f", {self.description!r})" if self.description else ")"
        )


@dataclass(eq=False)
class FunctionTarget(Target):
    """A non-linear true boundary given by a score function (e.g. Bayes log-odds)."""

    function: Callable[[np.ndarray], np.ndarray] = field(repr=False)
    description: str = ""

    def decision_function(self, X) -> np.ndarray:
        """The score of every row (positive on the +1 side)."""
        return np.asarray(self.function(np.asarray(X, dtype=np.float64)), dtype=np.float64)


class GeneratedData(NamedTuple):
    """What every generator returns; unpack it as ``X, y, flipped, target = ...``.

    Attributes
    ----------
    X : ndarray of shape (n_samples, n_features)
        The examples.
    y : ndarray of shape (n_samples,), int64
        Labels in {-1, +1}, *after* label noise.
    flipped : ndarray of shape (n_samples,), bool
        True where the label was flipped by the generator's label noise (all
        False when ``noise=0``): the ground truth for "which labels are wrong".
    target : Target
        The true boundary; ``target.predict(X)`` gives the noise-free labels.
    """

    X: np.ndarray
    y: np.ndarray
    flipped: np.ndarray
    target: Target


def bernoulli_flips(y: np.ndarray, noise: float, rng: np.random.Generator):
    """Flip each ±1 label with probability ``noise``; return ``(y, mask)``."""
    mask = rng.random(y.shape[0]) < noise
    return np.where(mask, -y, y).astype(np.int64), mask
