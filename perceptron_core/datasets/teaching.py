"""Two-dimensional teaching sets: small pictures of what a perceptron can and cannot do.

Every function returns :class:`~perceptron_core.datasets.GeneratedData`
``(X, y, flipped, target)`` with ``X`` of shape ``(n_samples, 2)``, labels in
{-1, +1}, the mask of labels flipped by ``noise`` (label noise, always a
probability per label), and the true boundary as ``target``. Positional
scatter is called ``spread`` throughout, never ``noise``, so that "noise"
always means wrong labels.

The classes are split as evenly as possible (``n_samples // 2`` positives),
except in :func:`make_gaussians` / :func:`make_imbalanced`, whose
``positive_rate`` sets the exact number of positives. Rows are shuffled.
"""

from __future__ import annotations

import numpy as np

from perceptron_core._validation import Number

from ._common import (
    POSITIVE,
    PROBABILITY,
    DataError,
    FunctionTarget,
    GeneratedData,
    LinearTarget,
    bernoulli_flips,
    check,
    check_random_state,
    round_half_up,
)


def _common_checks(func, n_samples, noise, minimum=2):
    check(func, "n_samples", n_samples, "the number of examples", Number(minimum, integer=True))
    check(func, "noise", noise, "the probability that a label is flipped", PROBABILITY)
    return int(n_samples), float(noise)


def _finish(X, y, noise, rng, target) -> GeneratedData:
    order = rng.permutation(X.shape[0])
    X, y = X[order], y[order].astype(np.int64)
    y_noisy, flipped = bernoulli_flips(y, noise, rng)
    return GeneratedData(X, y_noisy, flipped, target)


def make_separable(
    n_samples: int = 100, margin: float = 0.1, noise: float = 0.0, random_state=None
) -> GeneratedData:
    """Points in the square [-1, 1]² separated by a random line with a gap of ``margin``.

    The line's normal ``w`` has a uniformly random direction (unit length) and
    its offset ``theta`` is uniform in [-0.3, 0.3]; points are drawn uniformly
    in the square and kept when their distance to the line is at least
    ``margin`` (half the classes on each side, by rejection on each side).
    Without noise the data are linearly separable with geometric margin at
    least ``margin``, so Novikoff's bound applies: a perceptron started at
    ``w = 0, theta = 0`` makes at most ``(R / gamma)^2`` mistakes, with ``R``
    and ``gamma`` measured once the threshold is folded in as a coordinate
    (folding never makes the margin larger).

    Parameters
    ----------
    n_samples : int, default=100
        Number of examples.
    margin : float, default=0.1
        Distance from the line to the nearest point (0 to 0.5).
    noise : float, default=0
        Probability that each label is flipped (label noise).
    random_state : None, int or numpy.random.Generator
        Seed (a whole number) for reproducible data; empty for fresh randomness.

    Returns
    -------
    GeneratedData
        ``target`` is a :class:`LinearTarget` with unit ``w``: its score is the
        signed distance to the line.

    Examples
    --------
    >>> from perceptron_core.datasets import make_separable
    >>> X, y, flipped, target = make_separable(100, margin=0.2, random_state=0)
    >>> bool((abs(target.decision_function(X)) >= 0.2).all())
    True
    >>> bool((target.predict(X) == y).all())
    True
    """
    func = "make_separable"
    n, noise = _common_checks(func, n_samples, noise)
    check(
        func,
        "margin",
        margin,
        "the distance from the boundary to the nearest point",
        Number(0, 0.5),
    )
    rng = check_random_state(random_state, func)
    angle = rng.uniform(0, 2 * np.pi)
    w = np.array([np.cos(angle), np.sin(angle)])
    theta = float(rng.uniform(-0.3, 0.3))
    parts = []
    for sign, count in ((1, n // 2), (-1, n - n // 2)):
        got, have = [], 0
        while have < count:
            P = rng.uniform(-1, 1, size=(max(64, 4 * count), 2))
            P = P[sign * (P @ w - theta) >= margin]
            got.append(P)
            have += P.shape[0]
        parts.append(np.concatenate(got)[:count])
    X = np.concatenate(parts)
    y = np.concatenate([np.ones(n // 2), -np.ones(n - n // 2)])
    target = LinearTarget(w, theta, f"a line with a gap of {margin:g} on each side")
    return _finish(X, y, noise, rng, target)


def make_gaussians(
    n_samples: int = 200,
    separation: float = 2.5,
    spread: float = 1.0,
    positive_rate: float = 0.5,
    noise: float = 0.0,
    random_state=None,
) -> GeneratedData:
    """Two overlapping round Gaussian clouds along the diagonal.

    Class +1 is centred at ``+(separation / 2) u`` and class -1 at
    ``-(separation / 2) u`` with ``u = (1, 1) / sqrt(2)``, both with standard
    deviation ``spread`` in every direction. Exactly
    ``round(positive_rate * n_samples)`` examples are positive. The target is
    the Bayes boundary, a line orthogonal to ``u`` that moves away from the
    rare class as the classes get unbalanced: its score is the log-odds
    ``<w, x> - theta`` with ``w = separation u / spread**2`` and
    ``theta = log((1 - positive_rate) / positive_rate)``.

    Parameters
    ----------
    n_samples : int, default=200
        Number of examples.
    separation : float, default=2.5
        Distance between the centres.
    spread : float, default=1
        Standard deviation of each cloud.
    positive_rate : float, default=0.5
        Share of positive examples.
    noise : float, default=0
        Probability that each label is flipped (label noise).
    random_state : None, int or numpy.random.Generator
        Seed (a whole number) for reproducible data; empty for fresh randomness.

    Returns
    -------
    GeneratedData

    Examples
    --------
    >>> from perceptron_core.datasets import make_gaussians
    >>> X, y, flipped, target = make_gaussians(200, random_state=0)
    >>> X.shape, int((y == 1).sum())
    ((200, 2), 100)
    """
    func = "make_gaussians"
    return _gaussians(func, n_samples, separation, spread, positive_rate, noise, random_state)


def make_imbalanced(
    n_samples: int = 550,
    positive_rate: float = 1 / 11,
    separation: float = 3.0,
    spread: float = 1.0,
    noise: float = 0.0,
    random_state=None,
) -> GeneratedData:
    """Two Gaussian clouds with a rare positive class (the PAUM setting).

    The same construction as :func:`make_gaussians` with other defaults. A
    ratio of 1 positive to ``k`` negatives is ``positive_rate = 1 / (k + 1)``:
    1:10 is ``1/11`` (the default: 50 positives of 550), 1:50 is ``1/51``.
    Accuracy is misleading here (predicting -1 everywhere scores
    ``1 - positive_rate``); look at precision and recall of the positives.

    Parameters
    ----------
    n_samples : int, default=550
        Number of examples.
    positive_rate : float, default=1/11
        Share of positive examples (1:k is 1/(k+1)).
        Strictly between 0 and 1.
    separation : float, default=3
        Distance between the centres.
    spread : float, default=1
        Standard deviation of each cloud.
    noise : float, default=0
        Probability that each label is flipped (label noise).
    random_state : None, int or numpy.random.Generator
        Seed (a whole number) for reproducible data; empty for fresh randomness.

    Returns
    -------
    GeneratedData

    Examples
    --------
    >>> from perceptron_core.datasets import make_imbalanced
    >>> X, y, flipped, target = make_imbalanced(1020, positive_rate=1 / 51, random_state=0)
    >>> int((y == 1).sum()), int((y == -1).sum())
    (20, 1000)
    """
    return _gaussians(
        "make_imbalanced", n_samples, separation, spread, positive_rate, noise, random_state
    )


def _gaussians(func, n_samples, separation, spread, positive_rate, noise, random_state):
    n, noise = _common_checks(func, n_samples, noise)
    check(func, "separation", separation, "the distance between the class centres", Number(0))
    check(func, "spread", spread, "the standard deviation of each cloud", POSITIVE)
    check(
        func,
        "positive_rate",
        positive_rate,
        "the share of positive examples",
        Number(0, 1, open_low=True, open_high=True),
    )
    n_pos = round_half_up(positive_rate * n)
    if not 1 <= n_pos <= n - 1:
        raise DataError(
            f"{func}: positive_rate={positive_rate:g} of {n} examples gives {n_pos} positive "
            "examples; both classes need at least one. Use more examples or a rate further "
            "from 0 and 1."
        )
    rng = check_random_state(random_state, func)
    u = np.array([1.0, 1.0]) / np.sqrt(2.0)
    y = np.concatenate([np.ones(n_pos), -np.ones(n - n_pos)])
    X = rng.normal(scale=spread, size=(n, 2)) + (separation / 2) * y[:, None] * u
    w = separation * u / spread**2
    theta = float(np.log((1 - positive_rate) / positive_rate))
    target = LinearTarget(w, theta, "Bayes boundary of the two Gaussian clouds")
    return _finish(X, y, noise, rng, target)


def make_xor(
    n_samples: int = 200, spread: float = 0.35, noise: float = 0.0, random_state=None
) -> GeneratedData:
    """XOR: four round clouds at (±1, ±1); +1 where both coordinates have the same sign.

    No line separates the classes (Minsky and Papert's example); the true
    boundary is the two axes, score ``x1 * x2``. The clouds get
    ``n_samples // 4`` points each (the first ones one more when it does not
    divide).

    Parameters
    ----------
    n_samples : int, default=200
        Number of examples.
    spread : float, default=0.35
        Standard deviation of each cloud.
    noise : float, default=0
        Probability that each label is flipped (label noise).
    random_state : None, int or numpy.random.Generator
        Seed (a whole number) for reproducible data; empty for fresh randomness.

    Returns
    -------
    GeneratedData

    Examples
    --------
    >>> from perceptron_core.datasets import make_xor
    >>> X, y, flipped, target = make_xor(200, random_state=0)
    >>> int((y == 1).sum()), float((target.predict(X) == y).mean()) > 0.95
    (100, True)
    """
    func = "make_xor"
    n, noise = _common_checks(func, n_samples, noise, minimum=4)
    check(func, "spread", spread, "the standard deviation of each cloud", POSITIVE)
    rng = check_random_state(random_state, func)
    centres = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    counts = [n // 4 + (1 if i < n % 4 else 0) for i in range(4)]
    which = np.repeat(np.arange(4), counts)
    X = centres[which] + rng.normal(scale=spread, size=(n, 2))
    y = np.where(which < 2, 1.0, -1.0)
    target = FunctionTarget(lambda Z: Z[:, 0] * Z[:, 1], "the two axes (score x1 * x2)")
    return _finish(X, y, noise, rng, target)


def make_circles(
    n_samples: int = 200,
    factor: float = 0.5,
    spread: float = 0.08,
    noise: float = 0.0,
    random_state=None,
) -> GeneratedData:
    """Two concentric circles: +1 on the inner one (radius ``factor``), -1 on radius 1.

    Points are spread uniformly around each circle and moved by Gaussian
    scatter of standard deviation ``spread``. The true boundary is the circle
    halfway between, score ``(1 + factor) / 2 - ||x||``. A perceptron on
    ``(x1, x2)`` fails; on ``(x1, x2, x1² + x2²)`` it succeeds.

    Parameters
    ----------
    n_samples : int, default=200
        Number of examples.
    factor : float, default=0.5
        Radius of the inner circle (below 1).
    spread : float, default=0.08
        Standard deviation of the scatter.
    noise : float, default=0
        Probability that each label is flipped (label noise).
    random_state : None, int or numpy.random.Generator
        Seed (a whole number) for reproducible data; empty for fresh randomness.

    Returns
    -------
    GeneratedData

    Examples
    --------
    >>> from perceptron_core.datasets import make_circles
    >>> X, y, flipped, target = make_circles(200, random_state=0)
    >>> float((target.predict(X) == y).mean()) > 0.95
    True
    """
    func = "make_circles"
    n, noise = _common_checks(func, n_samples, noise)
    check(func, "factor", factor, "the radius of the inner circle", Number(0, 1, open_high=True))
    check(func, "spread", spread, "the standard deviation of the scatter", Number(0))
    rng = check_random_state(random_state, func)
    y = np.concatenate([np.ones(n // 2), -np.ones(n - n // 2)])
    radius = np.where(y > 0, factor, 1.0)
    angle = rng.uniform(0, 2 * np.pi, size=n)
    X = radius[:, None] * np.column_stack([np.cos(angle), np.sin(angle)])
    X += rng.normal(scale=spread, size=(n, 2)) if spread > 0 else 0.0
    mid = (1 + factor) / 2
    target = FunctionTarget(
        lambda Z: mid - np.hypot(Z[:, 0], Z[:, 1]), f"the circle of radius {mid:g}"
    )
    return _finish(X, y, noise, rng, target)


def _arc_distance(Z, centre, low, high):
    """Distance from each row of ``Z`` to the unit-radius arc of angles [low, high]."""
    V = Z - centre
    phi = np.arctan2(V[:, 1], V[:, 0])
    on_arc = np.abs(np.hypot(V[:, 0], V[:, 1]) - 1.0)
    ends = np.array([[np.cos(low), np.sin(low)], [np.cos(high), np.sin(high)]])
    to_ends = np.min(np.linalg.norm(V[:, None, :] - ends[None], axis=2), axis=1)
    return np.where((phi >= low) & (phi <= high), on_arc, to_ends)


def make_moons(
    n_samples: int = 200, spread: float = 0.1, noise: float = 0.0, random_state=None
) -> GeneratedData:
    """Two interleaved half circles: +1 on the upper moon, -1 on the lower one.

    The upper moon is ``(cos t, sin t)``, the lower ``(1 - cos t, 1/2 - sin t)``,
    ``t`` uniform in [0, pi], plus Gaussian scatter ``spread``. The target's
    score is (distance to the lower arc) - (distance to the upper arc), so a
    point is +1 when it is nearer the upper moon.

    Parameters
    ----------
    n_samples : int, default=200
        Number of examples.
    spread : float, default=0.1
        Standard deviation of the scatter.
    noise : float, default=0
        Probability that each label is flipped (label noise).
    random_state : None, int or numpy.random.Generator
        Seed (a whole number) for reproducible data; empty for fresh randomness.

    Returns
    -------
    GeneratedData

    Examples
    --------
    >>> from perceptron_core.datasets import make_moons
    >>> X, y, flipped, target = make_moons(200, random_state=0)
    >>> float((target.predict(X) == y).mean()) > 0.95
    True
    """
    func = "make_moons"
    n, noise = _common_checks(func, n_samples, noise)
    check(func, "spread", spread, "the standard deviation of the scatter", Number(0))
    rng = check_random_state(random_state, func)
    y = np.concatenate([np.ones(n // 2), -np.ones(n - n // 2)])
    t = rng.uniform(0, np.pi, size=n)
    upper = np.column_stack([np.cos(t), np.sin(t)])
    lower = np.column_stack([1 - np.cos(t), 0.5 - np.sin(t)])
    X = np.where(y[:, None] > 0, upper, lower)
    X += rng.normal(scale=spread, size=(n, 2)) if spread > 0 else 0.0
    up_c, low_c = np.array([0.0, 0.0]), np.array([1.0, 0.5])

    def score(Z):
        return _arc_distance(Z, low_c, -np.pi, 0.0) - _arc_distance(Z, up_c, 0.0, np.pi)

    target = FunctionTarget(score, "nearer the upper moon than the lower one")
    return _finish(X, y, noise, rng, target)
