"""Noise injection: right amounts, right places, masks that tell the truth, inputs untouched."""

import numpy as np
import pytest
from scipy.stats import binom

from perceptron_core.datasets import (
    DataError,
    add_feature_noise,
    add_outliers,
    flip_labels,
    flip_labels_exact,
    flip_near_boundary,
    make_gaussians,
)


def test_flip_labels_rate_within_binomial_interval_and_mask_is_truth():
    y = np.where(np.arange(30_000) % 3 == 0, 1, -1)
    before = y.copy()
    y_noisy, mask = flip_labels(y, 0.15, random_state=0)
    np.testing.assert_array_equal(y, before)  # not changed in place
    low, high = binom.interval(0.9999, y.size, 0.15)
    assert low <= mask.sum() <= high
    np.testing.assert_array_equal(y_noisy != y, mask)
    np.testing.assert_array_equal(y_noisy[mask], -y[mask])


@pytest.mark.parametrize(
    "m, p, expected",
    [
        (250, 0.05, 13),
        (270, 0.05, 14),
        (300, 0.1, 30),
        (30, 0.05, 2),
        (10, 0.25, 3),
        (7, 0.0, 0),
        (7, 1.0, 7),
        (270, 0.3, 81),
    ],
)
def test_flip_exact_count_rounds_half_up(m, p, expected):
    y = np.array([1, -1] * m)[:m]
    y_noisy, mask = flip_labels_exact(y, p, random_state=1)
    assert mask.sum() == expected
    assert (y_noisy != y).sum() == expected


def test_flip_exact_is_uniform_over_examples():
    hits = np.zeros(40)
    for seed in range(500):
        _, mask = flip_labels_exact(np.ones(40, dtype=int), 0.25, random_state=seed)
        hits += mask
    # each example is chosen with probability 10/40 = 1/4 in each of 500 draws
    low, high = binom.interval(0.9999, 500, 0.25)
    assert hits.min() >= low and hits.max() <= high


def test_flips_work_for_other_label_sets():
    words = np.array(["ham", "spam", "ham", "ham"])
    y_noisy, mask = flip_labels_exact(words, 0.5, random_state=0)
    assert set(y_noisy[mask]) <= {"ham", "spam"}
    assert np.all(y_noisy[mask] != words[mask]) and mask.sum() == 2
    zero_one = np.array([0, 1, 1, 0, 1])
    y_noisy, mask = flip_labels(zero_one, 1.0, random_state=0)
    np.testing.assert_array_equal(y_noisy, 1 - zero_one)
    digits = np.arange(10).repeat(20)
    y_noisy, mask = flip_labels(digits, 0.5, random_state=0)
    assert np.all(y_noisy[mask] != digits[mask])
    assert set(np.unique(y_noisy)) <= set(range(10))
    # all +1: the other label is still known
    y_noisy, mask = flip_labels_exact(np.ones(10, dtype=int), 0.3, random_state=0)
    assert sorted(y_noisy.tolist()) == [-1] * 3 + [1] * 7


def test_one_class_that_cannot_be_flipped_is_an_error():
    with pytest.raises(DataError, match="only one label value"):
        flip_labels_exact(np.array(["a", "a", "a"]), 0.5, random_state=0)


def test_flip_near_boundary_prefers_examples_near_the_boundary():
    X, y, _, target = make_gaussians(4000, random_state=0)
    s = target.decision_function(X)
    y_noisy, mask = flip_near_boundary(y, s, 0.1, random_state=0)
    assert mask.sum() == 400
    np.testing.assert_array_equal(y_noisy != y, mask)
    assert np.median(np.abs(s[mask])) < 0.5 * np.median(np.abs(s))
    _, uniform = flip_labels_exact(y, 0.1, random_state=0)
    assert np.abs(s[mask]).mean() < np.abs(s[uniform]).mean()
    # a wider bandwidth spreads the flips further from the boundary
    _, wide = flip_near_boundary(y, s, 0.1, bandwidth=100.0, random_state=0)
    assert np.abs(s[wide]).mean() > np.abs(s[mask]).mean()


def test_flip_near_boundary_checks_scores():
    with pytest.raises(DataError, match="one number per label"):
        flip_near_boundary([1, -1, 1], [0.1, 0.2], 0.5)
    with pytest.raises(DataError, match="NaN"):
        flip_near_boundary([1, -1], [0.1, np.nan], 0.5)
    with pytest.raises(DataError, match="bandwidth"):
        flip_near_boundary([1, -1], [0.1, 0.2], 0.5, bandwidth=0)


def test_feature_noise_touches_only_the_masked_rows_with_the_right_scale():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20_000, 3)) * np.array([1.0, 10.0, 100.0])
    Xn, rows = add_feature_noise(X, scale=0.5, rate=0.3, random_state=1)
    assert abs(rows.mean() - 0.3) < 0.02
    np.testing.assert_array_equal(Xn[~rows], X[~rows])
    diff = (Xn - X)[rows]
    np.testing.assert_allclose(diff.std(axis=0), 0.5 * X.std(axis=0), rtol=0.05)
    Xa, _ = add_feature_noise(X, scale=2.0, relative=False, random_state=1)
    np.testing.assert_allclose((Xa - X).std(axis=0), 2.0, rtol=0.05)


def test_outliers_move_exactly_the_masked_rows_far_away():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 4))
    Xo, moved = add_outliers(X, rate=0.05, distance=6.0, random_state=2)
    assert moved.sum() == 20
    np.testing.assert_array_equal(Xo[~moved], X[~moved])
    z = (Xo[moved] - X.mean(axis=0)) / X.std(axis=0)
    np.testing.assert_allclose(np.linalg.norm(z, axis=1), 6.0)


@pytest.mark.parametrize(
    "call, fragment",
    [
        (lambda: flip_labels([1, -1], 1.5), "rate"),
        (lambda: flip_labels([[1, -1]], 0.1), "1-D"),
        (lambda: flip_labels([], 0.1), "empty"),
        (lambda: add_feature_noise([1.0, 2.0]), "2-D"),
        (lambda: add_feature_noise([[np.inf, 1.0]]), "finite"),
        (lambda: add_feature_noise([["a", "b"]]), "numbers"),
        (lambda: add_feature_noise([[1.0, 2.0]], relative="yes"), "relative"),
        (lambda: add_outliers([[1.0, 2.0]], distance=-1), "distance"),
    ],
)
def test_bad_inputs_raise_data_error(call, fragment):
    with pytest.raises(DataError, match=fragment):
        call()
