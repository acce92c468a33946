"""The Khardon-Wachman generator: the paper's recipe, its margin and noise, reproducibility."""

import numpy as np
import pytest
from scipy.stats import binom

from perceptron_core.datasets import DataError, kw, kw_target, make_kw
from perceptron_core.datasets._common import child_rng, seed_sequence
from perceptron_core.datasets.kw import BLOCK_SIZE


def reference_kw(f, M, N, m, seed, pool_size=600):
    """The KW recipe written one example at a time, reading the generator's streams.

    Pool stream 0: a pool of examples and one fair coin each; w* = sum of heads;
    theta* = mean 0.5 |<w*, x>| over the pool. Stream 1, block b: candidates;
    stream 2, block b: one uniform number per candidate for the label flip.
    """
    root = seed_sequence(seed, "test")
    rng = child_rng(root, 0)
    pool = rng.integers(-10, 11, size=(pool_size, f), dtype=np.int8).astype(int).tolist()
    heads = rng.integers(0, 2, size=pool_size).tolist()
    w = [0] * f
    for x, coin in zip(pool, heads):
        if coin == 1:
            w = [wi + xi for wi, xi in zip(w, x)]
    theta = sum(0.5 * abs(sum(wi * xi for wi, xi in zip(w, x))) for x in pool) / pool_size
    X, y, flipped, block = [], [], [], 0
    while len(X) < m:
        cand = child_rng(root, 1, block).integers(-10, 11, size=(BLOCK_SIZE, f), dtype=np.int8)
        u = child_rng(root, 2, block).random(BLOCK_SIZE)
        for x, ui in zip(cand.astype(int).tolist(), u.tolist()):
            s = sum(wi * xi for wi, xi in zip(w, x))
            if abs(s - theta) < M * theta or s == theta:
                continue
            label = 1 if s > theta else -1
            flip = ui < N
            X.append(x)
            y.append(-label if flip else label)
            flipped.append(flip)
            if len(X) == m:
                break
        block += 1
    return np.array(X), np.array(y), np.array(flipped), np.array(w), theta


@pytest.mark.parametrize(
    "f, M, N, m, seed", [(7, 0.1, 0.2, 300, 0), (3, 0.5, 0.0, 2500, 1), (12, 0.0, 0.1, 50, 2)]
)
def test_matches_the_one_example_at_a_time_reference(f, M, N, m, seed):
    X, y, flipped, target = make_kw(f, M, N, m, random_state=seed)
    Xr, yr, fr, wr, thr = reference_kw(f, M, N, m, seed)
    np.testing.assert_array_equal(X, Xr)
    np.testing.assert_array_equal(y, yr)
    np.testing.assert_array_equal(flipped, fr)
    np.testing.assert_array_equal(target.w, wr)
    assert target.theta == pytest.approx(thr, rel=1e-12)


@pytest.mark.parametrize("f", [50, 200, 500])
@pytest.mark.parametrize("M", [0.05, 0.1, 0.25, 0.5, 0.75])
def test_margin_property_on_noiseless_data(f, M):
    X, y, flipped, target = make_kw(f, M, 0.0, 600, random_state=f + int(100 * M))
    scores = X.astype(np.int64) @ target.w  # exact integers
    assert np.all(np.abs(scores - target.theta) >= M * target.theta)
    assert not flipped.any()
    np.testing.assert_array_equal(y, np.where(scores > target.theta, 1, -1))
    # the band is really used: some example lies close to its edge
    assert np.min(np.abs(scores - target.theta)) < (M + 0.5) * target.theta


def test_attributes_are_integers_from_minus_10_to_10():
    X, *_ = make_kw(50, 0.1, 0.0, 5000, random_state=3)
    assert X.min() == -10 and X.max() == 10
    assert np.array_equal(X, np.round(X))
    counts = np.bincount((X.astype(int) + 10).ravel(), minlength=21)
    assert counts.min() > 0.8 * counts.mean() and counts.max() < 1.2 * counts.mean()


@pytest.mark.parametrize("N", [0.05, 0.1, 0.25])
@pytest.mark.parametrize("seed", [0, 1])
def test_flip_rate_within_binomial_interval(N, seed):
    m = 20_000
    X, y, flipped, target = make_kw(20, 0.1, N, m, random_state=seed)
    low, high = binom.interval(0.9999, m, N)
    assert low <= flipped.sum() <= high
    clean = target.predict(X)
    assert np.all(y[flipped] == -clean[flipped])
    assert np.all(y[~flipped] == clean[~flipped])


def test_same_seed_same_data_other_seed_other_data():
    a = make_kw(30, 0.25, 0.1, 700, random_state=42)
    b = make_kw(30, 0.25, 0.1, 700, random_state=42)
    c = make_kw(30, 0.25, 0.1, 700, random_state=43)
    for left, right in zip(a[:3], b[:3]):
        np.testing.assert_array_equal(left, right)
    np.testing.assert_array_equal(a.target.w, b.target.w)
    assert a.target.theta == b.target.theta
    assert not np.array_equal(a.X, c.X)
    assert not np.array_equal(a.target.w, c.target.w)


def test_generator_random_state_is_accepted_and_advanced():
    rng = np.random.default_rng(5)
    first = make_kw(10, 0.1, 0.0, 100, random_state=rng)
    second = make_kw(10, 0.1, 0.0, 100, random_state=rng)
    assert not np.array_equal(first.X, second.X)
    again = make_kw(10, 0.1, 0.0, 100, random_state=np.random.default_rng(5))
    np.testing.assert_array_equal(first.X, again.X)


def test_large_chunked_set_starts_with_the_small_set():
    small = make_kw(50, 0.25, 0.1, 600, random_state=7)
    large = make_kw(50, 0.25, 0.1, 60_000, random_state=7, dtype=np.int8)
    assert large.X.shape == (60_000, 50)
    np.testing.assert_array_equal(large.X[:600], small.X)
    np.testing.assert_array_equal(large.y[:600], small.y)
    np.testing.assert_array_equal(large.flipped[:600], small.flipped)
    np.testing.assert_array_equal(large.target.w, small.target.w)
    assert large.target.theta == small.target.theta
    # a cut inside the second block, too
    mid = make_kw(50, 0.25, 0.1, BLOCK_SIZE + 17, random_state=7)
    np.testing.assert_array_equal(large.X[: BLOCK_SIZE + 17], mid.X)


def test_target_does_not_depend_on_n_samples_and_matches_kw_target():
    t = kw_target(40, margin=0.5, random_state=9)
    for n in (1, 10, 5000):
        g = make_kw(40, 0.5, 0.0, n, random_state=9)
        np.testing.assert_array_equal(g.target.w, t.w)
        assert g.target.theta == t.theta


def test_theta_is_half_the_mean_absolute_score_of_the_distribution():
    # theta* comes from a 600-example pool; on fresh examples (M = 0 keeps nearly all)
    # 0.5 * mean |<w*, x>| must agree to within the pool's sampling error.
    X, y, flipped, target = make_kw(100, 0.0, 0.0, 30_000, random_state=11)
    ratio = 0.5 * np.abs(target.decision_function(X) + target.theta).mean() / target.theta
    assert 0.9 < ratio < 1.1
    assert target.w.dtype == np.int64


def test_changing_noise_keeps_the_examples_and_nests_the_flips():
    low = make_kw(25, 0.1, 0.05, 3000, random_state=4)
    high = make_kw(25, 0.1, 0.15, 3000, random_state=4)
    np.testing.assert_array_equal(low.X, high.X)
    assert np.all(high.flipped[low.flipped])
    assert high.flipped.sum() > low.flipped.sum()


@pytest.mark.parametrize("dtype", ["int8", np.int16, "float32", np.float64])
def test_dtypes_hold_the_same_values(dtype):
    ref = make_kw(20, 0.1, 0.1, 500, random_state=2)
    other = make_kw(20, 0.1, 0.1, 500, random_state=2, dtype=dtype)
    assert other.X.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(other.X.astype(np.float64), ref.X)
    np.testing.assert_array_equal(other.y, ref.y)
    assert set(np.unique(other.y)) <= {-1, 1} and other.y.dtype == np.int64


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"n_features": 0}, "n_features"),
        ({"n_features": 2.5}, "whole number"),
        ({"margin": -0.1}, "margin"),
        ({"noise": 1.5}, "noise"),
        ({"n_samples": 0}, "n_samples"),
        ({"dtype": "uint8"}, "dtype"),
        ({"dtype": "text"}, "dtype"),
        ({"random_state": -1}, "random_state"),
        ({"random_state": "seed"}, "random_state"),
        ({"margin": 100.0}, "too large"),
    ],
)
def test_bad_options_raise_data_error_with_a_message(kwargs, fragment):
    args = {"n_features": 10, "margin": 0.1, "noise": 0.0, "n_samples": 20, "random_state": 0}
    args.update(kwargs)
    with pytest.raises(DataError, match=fragment):
        make_kw(**args)


def test_margin_that_keeps_almost_nothing_stops_with_advice(monkeypatch):
    # The pool's estimate can be optimistic (it is a sample); then the check on the
    # stream itself must stop generation instead of looping for a very long time.
    original = kw._target

    def optimistic(*args):
        target = original(*args)
        target.acceptance = 1.0
        return target

    monkeypatch.setattr(kw, "_target", optimistic)
    with pytest.raises(DataError, match="keeps only .* smaller margin"):
        make_kw(10, 30.0, 0.0, 10_000, random_state=0)


def test_zero_target_is_reported():
    # a one-example pool gets tails half the time: then w* = 0 and there is no boundary
    messages = []
    for seed in range(10):
        try:
            make_kw(5, 0.1, 0.0, 10, random_state=seed, pool_size=1)
        except DataError as err:
            messages.append(str(err))
    assert messages and all("target came out as zero" in msg for msg in messages)
