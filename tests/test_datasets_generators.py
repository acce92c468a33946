"""Breiman's 20-D sets and the 2-D teaching sets: distributions, targets, seeds, options."""

import numpy as np
import pytest
from scipy.stats import binom, norm

from perceptron_core.datasets import (
    DataError,
    GeneratedData,
    make_circles,
    make_gaussians,
    make_imbalanced,
    make_moons,
    make_ringnorm,
    make_separable,
    make_threenorm,
    make_twonorm,
    make_xor,
)

ALL = [
    make_twonorm,
    make_threenorm,
    make_ringnorm,
    make_separable,
    make_gaussians,
    make_imbalanced,
    make_xor,
    make_circles,
    make_moons,
]


@pytest.mark.parametrize("make", ALL, ids=lambda f: f.__name__)
def test_every_generator_is_seeded_and_returns_generated_data(make):
    a = make(random_state=3, noise=0.2)
    b = make(random_state=3, noise=0.2)
    c = make(random_state=4, noise=0.2)
    assert isinstance(a, GeneratedData)
    for left, right in zip(a[:3], b[:3]):
        np.testing.assert_array_equal(left, right)
    assert not np.array_equal(a.X, c.X)
    assert a.y.dtype == np.int64 and set(np.unique(a.y)) == {-1, 1}
    assert a.flipped.dtype == bool and a.flipped.shape == a.y.shape
    assert a.X.shape[0] == a.y.shape[0] and a.X.dtype == np.float64
    assert a.target.decision_function(a.X).shape == a.y.shape


@pytest.mark.parametrize("make", ALL, ids=lambda f: f.__name__)
def test_flipped_mask_marks_exactly_the_changed_labels(make):
    noisy = make(n_samples=400, noise=0.3, random_state=8)
    clean = make(n_samples=400, noise=0.0, random_state=8)
    np.testing.assert_array_equal(noisy.X, clean.X)
    assert not clean.flipped.any()
    np.testing.assert_array_equal(noisy.y != clean.y, noisy.flipped)
    assert np.all(noisy.y[noisy.flipped] == -clean.y[noisy.flipped])


def test_breiman_flip_rate_within_binomial_interval():
    m, N = 20_000, 0.1
    g = make_twonorm(m, noise=N, random_state=0)
    low, high = binom.interval(0.9999, m, N)
    assert low <= g.flipped.sum() <= high


def test_twonorm_means_and_bayes_error():
    m = 40_000
    X, y, _, target = make_twonorm(m, random_state=1)
    a = 2 / np.sqrt(20)
    assert X.shape == (m, 20)
    np.testing.assert_allclose(X[y == 1].mean(axis=0), a, atol=0.03)
    np.testing.assert_allclose(X[y == -1].mean(axis=0), -a, atol=0.03)
    np.testing.assert_allclose(X[y == 1].std(axis=0), 1.0, atol=0.03)
    error = float((target.predict(X) != y).mean())
    bayes = norm.cdf(-2.0)  # means 4 apart, unit variance along the separating direction
    assert abs(error - bayes) < 4 * np.sqrt(bayes * (1 - bayes) / m)
    low, high = binom.interval(0.9999, m, 0.5)
    assert low <= (y == 1).sum() <= high


def test_threenorm_components():
    X, y, _, target = make_threenorm(40_000, random_state=2)
    a = 2 / np.sqrt(20)
    alt = np.where(np.arange(20) % 2 == 0, a, -a)
    np.testing.assert_allclose(X[y == -1].mean(axis=0), alt, atol=0.04)
    pos = X[y == 1]
    side = np.sign(pos.sum(axis=1))
    # class +1 is a half/half mixture of N(a1, I) and N(-a1, I): mean 0, spread along 1
    np.testing.assert_allclose(pos.mean(axis=0), 0.0, atol=0.04)
    assert abs((side > 0).mean() - 0.5) < 0.02
    proj = pos.sum(axis=1) / np.sqrt(20)  # along the unit vector 1/sqrt(20)
    assert abs(proj.var() - (1 + (a * np.sqrt(20)) ** 2)) < 0.15
    # the Bayes rule is not linear but is clearly better than chance and than any single side
    assert 0.85 < float((target.predict(X) == y).mean()) < 0.93


def test_ringnorm_variances():
    X, y, _, target = make_ringnorm(40_000, random_state=3)
    a = 1 / np.sqrt(20)
    np.testing.assert_allclose(X[y == 1].var(axis=0), 4.0, rtol=0.06)
    np.testing.assert_allclose(X[y == -1].var(axis=0), 1.0, rtol=0.06)
    np.testing.assert_allclose(X[y == -1].mean(axis=0), a, atol=0.03)
    assert float((target.predict(X) == y).mean()) > 0.97


def test_breiman_dimension_option_keeps_the_mean_distance():
    X, y, _, _ = make_twonorm(20_000, n_features=5, random_state=4)
    assert X.shape[1] == 5
    gap = np.linalg.norm(X[y == 1].mean(axis=0) - X[y == -1].mean(axis=0))
    assert abs(gap - 4.0) < 0.1


@pytest.mark.parametrize("margin", [0.0, 0.05, 0.2, 0.5])
def test_separable_has_the_requested_margin_and_balance(margin):
    X, y, flipped, target = make_separable(301, margin=margin, random_state=5)
    assert X.shape == (301, 2)
    assert np.abs(X).max() <= 1.0
    dist = target.decision_function(X)
    assert np.linalg.norm(target.w) == pytest.approx(1.0)
    assert np.all(np.abs(dist) >= margin)
    np.testing.assert_array_equal(np.where(dist > 0, 1, -1), y)
    assert (y == 1).sum() == 150 and (y == -1).sum() == 151


@pytest.mark.parametrize(
    "rate, n, positives", [(0.5, 200, 100), (1 / 11, 550, 50), (1 / 51, 1020, 20), (0.3, 10, 3)]
)
def test_gaussians_and_imbalanced_have_exact_positive_counts(rate, n, positives):
    for make in (make_gaussians, make_imbalanced):
        X, y, _, target = make(n_samples=n, positive_rate=rate, random_state=6)
        assert (y == 1).sum() == positives and (y == -1).sum() == n - positives


def test_gaussian_target_is_the_bayes_boundary():
    X, y, _, target = make_imbalanced(50_000, positive_rate=0.1, separation=2.0, random_state=7)
    bayes_acc = float((target.predict(X) == y).mean())
    # moving the threshold either way can only lose accuracy (up to sampling noise)
    s = target.decision_function(X)
    for shift in (-1.0, 1.0):
        assert bayes_acc >= float((np.where(s > shift, 1, -1) == y).mean()) - 0.003
    assert bayes_acc > 0.9  # better than the 90% of "always -1"


def test_xor_circles_moons_targets_and_balance():
    X, y, _, target = make_xor(203, spread=0.2, random_state=8)
    assert (y == 1).sum() == 51 + 51 and X.shape == (203, 2)
    assert float((target.predict(X) == y).mean()) > 0.97
    X, y, _, target = make_circles(200, factor=0.3, spread=0.05, random_state=9)
    r = np.hypot(X[:, 0], X[:, 1])
    assert abs(r[y == 1].mean() - 0.3) < 0.02 and abs(r[y == -1].mean() - 1.0) < 0.02
    assert float((target.predict(X) == y).mean()) == 1.0
    X, y, _, target = make_moons(400, spread=0.0, random_state=10)
    assert float((target.predict(X) == y).mean()) == 1.0
    upper = X[y == 1]
    np.testing.assert_allclose(np.hypot(upper[:, 0], upper[:, 1]), 1.0)


@pytest.mark.parametrize(
    "call, fragment",
    [
        (lambda: make_twonorm(0), "n_samples"),
        (lambda: make_twonorm(10, noise=-0.1), "noise"),
        (lambda: make_ringnorm(10, n_features=0), "n_features"),
        (lambda: make_separable(10, margin=0.9), "margin"),
        (lambda: make_gaussians(10, positive_rate=1.0), "positive_rate"),
        (lambda: make_imbalanced(10, positive_rate=0.01), "both classes"),
        (lambda: make_gaussians(10, spread=0), "spread"),
        (lambda: make_circles(10, factor=1.0), "factor"),
        (lambda: make_xor(3), "n_samples"),
        (lambda: make_moons(10, random_state=2.5), "random_state"),
    ],
)
def test_bad_options_raise_data_error(call, fragment):
    with pytest.raises(DataError, match=fragment):
        call()
