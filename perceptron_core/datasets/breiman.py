"""Breiman's twonorm, threenorm and ringnorm, as the NR paper uses them (docs/algorithms.md §8.2).

Breiman (1996, *Bias, variance and arcing classifiers*) defined these
20-dimensional Gaussian problems; Cantador & Dorronsoro use them with 300
examples. Here:

* each example's class is a fair coin (Breiman's class 1 is our +1, class 2
  our -1), so class counts vary around ``n_samples / 2``;
* ``n_features`` defaults to 20; for other dimensions the offset ``a`` is
  scaled the same way (``a = 2/sqrt(d)`` or ``1/sqrt(d)``), which keeps the
  distance between the class means, and so the difficulty, the same;
* ``noise`` flips each label independently with that probability (the NR
  protocol's exact-count flips of a training part are
  :func:`~perceptron_core.datasets.flip_labels_exact`);
* the returned ``target`` is the exact Bayes rule: its ``decision_function``
  is the log-odds ``log p(x | +1) - log p(x | -1)`` (classes are equally
  likely), linear for twonorm, not for the other two.
"""

from __future__ import annotations

import numpy as np

from ._common import (
    POSITIVE_INT,
    PROBABILITY,
    FunctionTarget,
    GeneratedData,
    LinearTarget,
    bernoulli_flips,
    check,
    check_random_state,
)


def _check(func, n_samples, n_features, noise):
    check(func, "n_samples", n_samples, "the number of examples", POSITIVE_INT)
    check(func, "n_features", n_features, "the dimension", POSITIVE_INT)
    check(func, "noise", noise, "the probability that a label is flipped", PROBABILITY)
    return int(n_samples), int(n_features), float(noise)


def make_twonorm(
    n_samples: int = 300, n_features: int = 20, noise: float = 0.0, random_state=None
) -> GeneratedData:
    """Twonorm: class +1 from N(a·1, I), class -1 from N(-a·1, I), ``a = 2/sqrt(d)``.

    The means are 4 apart whatever the dimension, so the Bayes error is
    ``Phi(-2)``, about 2.3%; the Bayes boundary is the hyperplane through the
    origin orthogonal to ``1``.

    Parameters
    ----------
    n_samples : int, default=300
        Number of examples.
    n_features : int, default=20
        Dimension.
    noise : float, default=0
        Probability that each label is flipped (label noise).
    random_state : None, int or numpy.random.Generator
        Seed (a whole number) for reproducible data; empty for fresh randomness.

    Returns
    -------
    GeneratedData
        ``(X, y, flipped, target)``; ``target`` is a :class:`LinearTarget`
        whose score is the Bayes log-odds ``2a <1, x>``.

    Examples
    --------
    >>> from perceptron_core.datasets import make_twonorm
    >>> X, y, flipped, target = make_twonorm(300, random_state=0)
    >>> X.shape, sorted(set(y.tolist())), int(flipped.sum())
    ((300, 20), [-1, 1], 0)
    >>> float((target.predict(X) == y).mean()) > 0.9
    True
    """
    n, d, noise = _check("make_twonorm", n_samples, n_features, noise)
    rng = check_random_state(random_state, "make_twonorm")
    a = 2.0 / np.sqrt(d)
    y = np.where(rng.random(n) < 0.5, 1, -1).astype(np.int64)
    X = rng.standard_normal((n, d)) + a * y[:, None]
    y_noisy, flipped = bernoulli_flips(y, noise, rng)
    target = LinearTarget(np.full(d, 2 * a), 0.0, "Bayes boundary of twonorm: <1, x> = 0")
    return GeneratedData(X, y_noisy, flipped, target)


def make_threenorm(
    n_samples: int = 300, n_features: int = 20, noise: float = 0.0, random_state=None
) -> GeneratedData:
    """Threenorm: class +1 from N(a·1, I) or N(-a·1, I) with equal chance, class -1
    from N((a, -a, a, ...), I), ``a = 2/sqrt(d)``.

    Parameters
    ----------
    n_samples : int, default=300
        Number of examples.
    n_features : int, default=20
        Dimension.
    noise : float, default=0
        Probability that each label is flipped (label noise).
    random_state : None, int or numpy.random.Generator
        Seed (a whole number) for reproducible data; empty for fresh randomness.

    Returns
    -------
    GeneratedData
        ``(X, y, flipped, target)``; the target's score is the Bayes log-odds
        ``log cosh(a <1, x>) - a <s, x>`` with ``s = (1, -1, 1, ...)``.

    Examples
    --------
    >>> from perceptron_core.datasets import make_threenorm
    >>> X, y, flipped, target = make_threenorm(2000, random_state=0)
    >>> 0.8 < float((target.predict(X) == y).mean()) < 0.95
    True
    """
    n, d, noise = _check("make_threenorm", n_samples, n_features, noise)
    rng = check_random_state(random_state, "make_threenorm")
    a = 2.0 / np.sqrt(d)
    alt = np.where(np.arange(d) % 2 == 0, 1.0, -1.0)
    y = np.where(rng.random(n) < 0.5, 1, -1).astype(np.int64)
    side = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    means = np.where(y[:, None] == 1, side[:, None] * a, a * alt)
    X = rng.standard_normal((n, d)) + means
    y_noisy, flipped = bernoulli_flips(y, noise, rng)

    def log_odds(Z):
        z = np.abs(a * Z.sum(axis=1))
        return z + np.log1p(np.exp(-2 * z)) - np.log(2.0) - a * (Z @ alt)

    target = FunctionTarget(log_odds, "Bayes boundary of threenorm (log-odds = 0)")
    return GeneratedData(X, y_noisy, flipped, target)


def make_ringnorm(
    n_samples: int = 300, n_features: int = 20, noise: float = 0.0, random_state=None
) -> GeneratedData:
    """Ringnorm: class +1 from N(0, 4I), class -1 from N(a·1, I), ``a = 1/sqrt(d)``.

    Class -1 is a tight ball inside the wide ball of class +1: no hyperplane
    separates them, the Bayes boundary is a quadric.

    Parameters
    ----------
    n_samples : int, default=300
        Number of examples.
    n_features : int, default=20
        Dimension.
    noise : float, default=0
        Probability that each label is flipped (label noise).
    random_state : None, int or numpy.random.Generator
        Seed (a whole number) for reproducible data; empty for fresh randomness.

    Returns
    -------
    GeneratedData
        ``(X, y, flipped, target)``; the target's score is the Bayes log-odds
        ``||x - a1||^2 / 2 - ||x||^2 / 8 - d log 2``.

    Examples
    --------
    >>> from perceptron_core.datasets import make_ringnorm
    >>> X, y, flipped, target = make_ringnorm(2000, random_state=0)
    >>> float((target.predict(X) == y).mean()) > 0.95
    True
    """
    n, d, noise = _check("make_ringnorm", n_samples, n_features, noise)
    rng = check_random_state(random_state, "make_ringnorm")
    a = 1.0 / np.sqrt(d)
    y = np.where(rng.random(n) < 0.5, 1, -1).astype(np.int64)
    Z = rng.standard_normal((n, d))
    X = np.where(y[:, None] == 1, 2.0 * Z, Z + a)
    y_noisy, flipped = bernoulli_flips(y, noise, rng)

    def log_odds(V):
        return 0.5 * ((V - a) ** 2).sum(axis=1) - (V**2).sum(axis=1) / 8 - d * np.log(2.0)

    target = FunctionTarget(log_odds, "Bayes boundary of ringnorm (log-odds = 0)")
    return GeneratedData(X, y_noisy, flipped, target)
