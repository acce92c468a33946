"""The tests' data sets, made by the core's generators (``perceptron_core.datasets``).

A test trains on what the lab's users train on, and no test module keeps a copy of a
generator of its own. One kind of data is not here: whole-number features for runs whose
arithmetic must be exact (:func:`tests.numerics.exact_integer_data`,
docs/architecture.md#same-numbers); the data below are real-valued, and the tests that
compare two computations on them check that no score comes near a threshold.
"""

from __future__ import annotations

import numpy as np

from perceptron_core.datasets import flip_labels_exact, make_separable, make_twonorm


def twonorm(m: int, seed: int, n: int = 20, noise: float = 0.0):
    """Breiman's twonorm (:func:`~perceptron_core.datasets.make_twonorm`) with exactly
    ``round(noise * m)`` labels flipped (:func:`~perceptron_core.datasets.flip_labels_exact`,
    the NR protocol's noise).

    Returns
    -------
    X, y, flipped : the features, the labels in {-1, +1} after the flips, their mask.

    Examples
    --------
    >>> X, y, flipped = twonorm(40, seed=0, n=3, noise=0.1)
    >>> X.shape, int(flipped.sum())
    ((40, 3), 4)
    """
    X, y, _, _ = make_twonorm(m, n, random_state=seed)
    y, flipped = flip_labels_exact(y, noise, random_state=seed)
    return X, y, flipped


def noisy_data(seed: int, m: int, n: int):
    """A noisy linear problem in any dimension: :func:`twonorm` with 10% of the labels
    flipped, the first two examples labelled ``+1`` and ``-1`` so both classes are there
    however few the examples.

    Examples
    --------
    >>> X, y = noisy_data(3, 5, 1)
    >>> X.shape, y[:2].tolist()
    ((5, 1), [1, -1])
    """
    X, y, _ = twonorm(m, seed, n, noise=0.1)
    y[:2] = [1, -1]
    return X, y


def separable(seed: int, m: int = 120, margin: float = 0.05, scale: float = 1.0):
    """Linearly separable points in the square [-1, 1]² with a gap of ``margin`` on each
    side of a random line (:func:`~perceptron_core.datasets.make_separable`), all of it
    stretched by ``scale`` (the square, the line's offset and the gap): learners whose
    settings are in the features' units (a hinge at 1, a margin ``gamma``) want features of
    a few units.

    Returns
    -------
    X, y, w, theta : the points, their labels in {-1, +1}, and the line ``<w, x> = theta``
        (``w`` of unit length: ``<w, x> - theta`` is the signed distance to it, at least
        ``scale * margin``).

    Examples
    --------
    >>> X, y, w, theta = separable(0, m=50, margin=0.2, scale=3.0)
    >>> bool((y * (X @ w - theta) >= 0.6).all()), bool(abs(X).max() <= 3.0)
    (True, True)
    """
    X, y, _, target = make_separable(m, margin=margin, random_state=seed)
    return scale * X, y, np.asarray(target.w), scale * float(target.theta)
