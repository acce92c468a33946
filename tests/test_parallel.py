"""The parallel perceptron against a NumPy reference (docs/algorithms.md §6); its categories.

The reference makes the compiled loop's scalar operations in the same order (sums left to
right, the bias last), so its numbers are the loop's on any CPU and the events are compared
exactly; the categories come from NumPy's matrix product, so the test checks that no margin
is near ``±gamma`` before it compares them.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from perceptron_core.metrics import flag_precision_recall
from perceptron_core.parallel import ParallelPerceptron
from perceptron_core.trace import BLOCKED, CORRECT, MARGIN, MISTAKE
from tests.data import twonorm
from tests.numerics import NEAR, relative_gap


def dot(a, b):
    """<a, b> summed left to right (the order the compiled kernel uses)."""
    return sum(np.asarray(a, dtype=np.float64) * np.asarray(b, dtype=np.float64))


def sign(v):
    return 1 if v > 0 else -1  # sign(0) = -1


def reference_parallel_perceptron(X, y, W, *, gamma=0.05, eta=1e-3, epochs=250, s=None):
    """docs/algorithms.md §6.1, line by line. ``W`` (H, n + 1) is the unit-norm start; y in ±1."""
    m = len(y)
    s = np.ones(m) if s is None else s  # s_j = m d(x_j): the pattern's step multiplier
    W = W.copy()
    X1 = np.hstack([X, np.ones((m, 1))])  # the bias: a constant 1 as last coordinate
    previous_mistakes = np.inf
    history = {"errors": [], "gamma": [], "eta": [], "kinds": []}
    for _ in range(epochs):
        dW = np.zeros_like(W)  # the epoch's updates are summed, then applied once
        mistakes = 0.0
        kinds = np.full((m, len(W)), CORRECT)
        for j in range(m):
            x = X1[j]
            act = np.array([dot(W_i, x) for W_i in W])
            h = sign(sum(sign(a) for a in act))
            if h != y[j]:
                mistakes += s[j]
                for i, a in enumerate(act):
                    if y[j] * a < 0:
                        dW[i] += eta * s[j] * y[j] * x
                        kinds[j, i] = MISTAKE
            else:
                for i, a in enumerate(act):
                    if 0 < y[j] * a < gamma:
                        dW[i] += eta * s[j] * y[j] * x
                        kinds[j, i] = MARGIN
                    elif y[j] * a < 0:
                        kinds[j, i] = BLOCKED
                # margin adaptation, one step per correctly classified pattern
                correct = [y[j] * a for a in act if y[j] * a > 0]
                if all(margin >= gamma for margin in correct):
                    gamma += 0.25 * eta * s[j]
                else:
                    gamma -= 0.75 * eta * s[j]
        W = W + dW
        W = W / np.sqrt([[dot(W_i, W_i)] for W_i in W])  # every W_i back to unit norm
        if mistakes > previous_mistakes:
            eta *= 0.9
        previous_mistakes = mistakes
        history["errors"].append(mistakes)
        history["gamma"].append(gamma)
        history["eta"].append(eta)
        history["kinds"].append(kinds)
    return W, gamma, eta, history


def reference_categories(W, gamma, X, y):
    """The categories, and how near any margin came to ``±gamma``, relative to what it was
    made of (a matrix product adds in an order of its own)."""
    H = len(W)
    majority = H // 2 + 1
    X1 = np.hstack([X, np.ones((len(X), 1))])
    act = X1 @ W.T
    closest = relative_gap(np.abs(y[:, None] * act) - gamma, np.abs(X1) @ np.abs(W.T) + gamma)
    out = []
    for j in range(len(y)):
        margins = y[j] * act[j]
        if (margins > gamma).sum() >= majority:
            out.append("safe")
        elif (margins < -gamma).sum() >= majority:
            out.append("noisy")
        else:
            out.append("borderline")
    return np.array(out), float(closest.min())


def starting_weights(seed, H, n):
    """The random unit-norm Gaussian start the estimator draws from its seed."""
    W = np.random.RandomState(seed).standard_normal((H, n + 1))
    return W / np.linalg.norm(W, axis=1, keepdims=True)


# --------------------------------------------------------------------------
# Fast = reference
# --------------------------------------------------------------------------


@pytest.mark.numerics
@given(
    m=st.integers(4, 30),
    n=st.integers(1, 4),
    H=st.sampled_from([1, 3, 5]),
    gamma=st.sampled_from([0.05, 0.5]),
    eta=st.sampled_from([1e-3, 0.1]),
    epochs=st.integers(1, 12),
    weighted=st.booleans(),
    seed=st.integers(0, 10_000),
)
def test_parallel_perceptron_matches_reference(m, n, H, gamma, eta, epochs, weighted, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, n))
    y = np.where(rng.random(m) < 0.5, -1, 1)
    y[:2] = [-1, 1]
    s = rng.uniform(0, 3, size=m) if weighted else None
    pp = ParallelPerceptron(
        n_perceptrons=H, gamma=gamma, eta=eta, epochs=epochs, random_state=seed, record="all"
    ).fit(X, y, sample_weight=s)
    W, g, e, hist = reference_parallel_perceptron(
        X, y, starting_weights(seed, H, n), gamma=gamma, eta=eta, epochs=epochs, s=s
    )
    np.testing.assert_allclose(pp.weights_, W, rtol=1e-10, atol=1e-13)
    assert pp.gamma_ == pytest.approx(g, rel=1e-10, abs=1e-13)
    assert pp.eta_ == pytest.approx(e, rel=1e-12)
    np.testing.assert_allclose(pp.errors_per_epoch_, hist["errors"], rtol=1e-12)
    np.testing.assert_allclose(pp.gamma_history_, hist["gamma"], rtol=1e-10, atol=1e-13)
    kinds = np.stack(hist["kinds"])  # (epochs, m, H)
    for i, trace in enumerate(pp.trace_):
        np.testing.assert_array_equal(trace.kind, kinds[:, :, i].ravel())
        np.testing.assert_allclose(trace.weight_history[-1], pp.weights_[i, :-1])
        assert trace.theta_history[-1] == -pp.weights_[i, -1]
    categories, closest = reference_categories(pp.weights_, pp.gamma_, X, y)
    assume(closest > NEAR)
    np.testing.assert_array_equal(pp.categorize(X, y), categories)


def test_unit_weights_equal_no_weights_and_weights_scale_every_step():
    X, y, _ = twonorm(60, seed=1, n=5)
    plain = ParallelPerceptron(epochs=30, random_state=2).fit(X, y)
    ones = ParallelPerceptron(epochs=30, random_state=2).fit(X, y, sample_weight=np.ones(60))
    np.testing.assert_array_equal(plain.weights_, ones.weights_)
    assert plain.gamma_ == ones.gamma_
    # A zero weight removes the pattern: same as training without it.
    keep = np.arange(60) != 7
    s = keep.astype(float)
    zero = ParallelPerceptron(epochs=30, random_state=2).fit(X, y, sample_weight=s)
    dropped = ParallelPerceptron(epochs=30, random_state=2).fit(X[keep], y[keep])
    np.testing.assert_allclose(zero.weights_, dropped.weights_, rtol=1e-12)


def test_weights_stay_unit_norm_and_trace_has_one_row_per_epoch():
    X, y, _ = twonorm(50, seed=3, n=4)
    pp = ParallelPerceptron(n_perceptrons=5, epochs=20, random_state=0, record="updates").fit(X, y)
    np.testing.assert_allclose(np.linalg.norm(pp.weights_, axis=1), 1.0)
    assert len(pp.trace_) == 5
    for trace in pp.trace_:
        assert trace.weight_history.shape == (21, 4)
        assert set(np.unique(trace.kind)) <= {MISTAKE, MARGIN}
        assert (trace.n_updates == trace.epoch).all()  # the epoch's weights scored the event
    assert pp.errors_per_epoch_.shape == pp.gamma_history_.shape == (20,)


def test_the_sum_not_the_mean_moves_the_weights():
    # docs/algorithms.md §6.1: with eta = 1e-3 a summed epoch update moves unit-norm
    # weights; 250 epochs of it give a good committee on twonorm (Bayes error 2.3 %).
    X, y, _ = twonorm(300, seed=4)
    Xt, yt, _ = twonorm(2000, seed=5)
    pp = ParallelPerceptron(random_state=0).fit(X, y)
    assert pp.score(Xt, yt) > 0.9


def test_categorize_flags_flipped_labels_as_noisy():
    # 20 % of the labels flipped: the noisy flag should catch flipped labels far more
    # often than clean ones (NR paper, section 3).
    rates_flipped, rates_clean, precisions = [], [], []
    for seed in range(3):
        X, y_noisy, flipped = twonorm(300, seed=10 + seed, noise=0.2)
        pp = ParallelPerceptron(random_state=seed).fit(X, y_noisy)
        cats = pp.categorize(X, y_noisy)
        assert set(np.unique(cats)) <= {"safe", "noisy", "borderline"}
        rates_flipped.append(np.mean(cats[flipped] == "noisy"))
        rates_clean.append(np.mean(cats[~flipped] == "noisy"))
        precisions.append(flag_precision_recall(cats, flipped)[0])
    # observed: about 40 % of the flipped labels flagged, 6 % of the clean ones
    assert np.mean(rates_flipped) > 0.25
    assert np.mean(rates_flipped) > 4 * np.mean(rates_clean)
    assert np.mean(precisions) > 0.5  # most flagged patterns really were flipped


def test_safe_patterns_are_right_and_noisy_ones_wrong():
    X, y_noisy, _ = twonorm(200, seed=6, noise=0.1)
    pp = ParallelPerceptron(random_state=1).fit(X, y_noisy)
    assert pp.gamma_ >= 0
    cats = pp.categorize(X, y_noisy)
    right = pp.predict(X) == y_noisy
    assert right[cats == "safe"].all() and not right[cats == "noisy"].any()


def test_binary_only_odd_committee_and_clear_errors():
    X = np.random.default_rng(0).normal(size=(30, 2))
    with pytest.raises(ValueError, match="Only binary classification is supported"):
        ParallelPerceptron().fit(X, np.arange(30) % 3)
    with pytest.raises(ValueError, match="must be odd"):
        ParallelPerceptron(n_perceptrons=4).fit(X, np.arange(30) % 2)
    with pytest.raises(ValueError, match=r"eta \(the starting learning rate\)"):
        ParallelPerceptron(eta=0).fit(X, np.arange(30) % 2)
    pp = ParallelPerceptron(epochs=5).fit(X, np.arange(30) % 2)
    with pytest.raises(ValueError, match="one label per row"):
        pp.categorize(X, [0, 1])
    with pytest.raises(ValueError, match="not among the classes"):
        pp.categorize(X, np.full(30, 7))
