"""A two-dimensional teaching set of three classes that a linear machine separates.

:func:`make_three_classes` returns :class:`~perceptron_core.datasets.GeneratedData` like the
two-class teaching sets of :mod:`perceptron_core.datasets.teaching`, with labels ``0, 1, 2``
instead of ±1 and a :class:`LinearMachine` as its target: three linear scores, the largest
wins (Duda, Hart & Stork 2001, §5.2.2, call such a classifier a linear machine).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from perceptron_core._validation import Number

from ._common import GeneratedData, Target, check, check_random_state
from .teaching import _common_checks


@dataclass(eq=False)
class LinearMachine(Target):
    """A true boundary of several classes: class ``k`` scores ``<W[k], x> + b[k]``, the largest
    wins (the first of equal scores).

    Attributes
    ----------
    W : ndarray of shape (n_classes, n_features)
    b : ndarray of shape (n_classes,)
    description : str
    """

    W: np.ndarray
    b: np.ndarray
    description: str = ""

    def scores(self, X) -> np.ndarray:
        """Every class's score, shape ``(n_samples, n_classes)``."""
        return np.asarray(X, dtype=np.float64) @ self.W.T + self.b

    def decision_function(self, X) -> np.ndarray:
        """How far each row is inside its class: the top score minus the runner-up's, divided
        by the length of the difference of the two classes' weight vectors (the distance to
        the boundary between the two, ``>= 0``).

        Examples
        --------
        >>> m = LinearMachine(np.array([[1.0, 0.0], [-1.0, 0.0]]), np.zeros(2))
        >>> m.decision_function([[3.0, 5.0]]).tolist()
        [3.0]
        """
        S = self.scores(X)
        order = np.argsort(-S, axis=1, kind="stable")
        top, second = order[:, 0], order[:, 1]
        rows = np.arange(len(S))
        gap = S[rows, top] - S[rows, second]
        return gap / np.linalg.norm(self.W[top] - self.W[second], axis=1)

    def predict(self, X) -> np.ndarray:
        """The class numbers the machine gives (the first of equal scores)."""
        return np.argmax(self.scores(X), axis=1).astype(np.int64)


def make_three_classes(
    n_samples: int = 90, margin: float = 0.1, noise: float = 0.0, random_state=None
) -> GeneratedData:
    """Points in the square [-1, 1]² of three classes split by a linear machine, with a gap.

    The machine's three unit weight vectors point 120° apart (the first at a random angle)
    and meet at a random centre ``c`` in [-0.3, 0.3]²: class ``k`` scores
    ``<u_k, x - c>``, so its region is a wedge around ``c``. Points are drawn uniformly in the
    square and kept when their distance to the nearest boundary between their class and
    another is at least ``margin`` (``n_samples // 3`` of each class, the first classes
    taking the rest, by rejection). Without noise a linear machine separates the classes
    with that gap, so the multiclass perceptron's mistake bound applies (Kesler's
    construction, docs/algorithms.md §11).

    Parameters
    ----------
    n_samples : int, default=90
        Number of examples.
    margin : float, default=0.1
        Distance from every point to the boundaries of its class (0 to 0.3).
    noise : float, default=0
        Probability that a label is replaced by one of the two other classes, either with
        equal chance (label noise).
    random_state : None, int or numpy.random.Generator
        Seed (a whole number) for reproducible data; empty for fresh randomness.

    Returns
    -------
    GeneratedData
        Labels ``0, 1, 2`` (classes A, B, C); ``target`` is the :class:`LinearMachine`.

    Examples
    --------
    >>> X, y, flipped, target = make_three_classes(90, margin=0.1, random_state=0)
    >>> np.bincount(y).tolist(), bool((target.predict(X) == y).all())
    ([30, 30, 30], True)
    >>> bool((target.decision_function(X) >= 0.1).all())
    True
    """
    func = "make_three_classes"
    n, noise = _common_checks(func, n_samples, noise, minimum=3)
    check(
        func,
        "margin",
        margin,
        "the distance from the boundaries to the nearest point",
        Number(0, 0.3),
    )
    rng = check_random_state(random_state, func)
    angles = rng.uniform(0, 2 * np.pi) + np.arange(3) * 2 * np.pi / 3
    W = np.c_[np.cos(angles), np.sin(angles)]
    centre = rng.uniform(-0.3, 0.3, size=2)
    target = LinearMachine(W, -W @ centre, f"three wedges, a gap of {margin:g} at every boundary")
    parts = []
    for k in range(3):
        count = n // 3 + (k < n % 3)
        got, have = [], 0
        while have < count:
            P = rng.uniform(-1, 1, size=(max(64, 8 * count), 2))
            P = P[(target.predict(P) == k) & (target.decision_function(P) >= margin)]
            got.append(P)
            have += len(P)
        parts.append(np.concatenate(got)[:count])
    X = np.concatenate(parts)
    y = np.repeat(np.arange(3), [len(p) for p in parts])
    order = rng.permutation(n)
    X, y = X[order], y[order]
    flipped = rng.random(n) < noise
    moved = y + rng.integers(1, 3, size=n)  # one of the two other classes, with equal chance
    y_noisy = np.where(flipped, moved % 3, y).astype(np.int64)
    return GeneratedData(X, y_noisy, flipped, target)
