"""Winnow, Winnow-R and Balanced Winnow against pure-NumPy references, and the log n lesson.

The references make the rules' own scalar operations in the same order (sums left to right,
the C library's ``pow``), so their numbers are the rules' on any CPU and the mistakes are
compared exactly.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptron_core.rules.balanced_winnow import BalancedWinnow
from perceptron_core.rules.thick_separator import ThickSeparatorPerceptron
from perceptron_core.rules.winnow import Winnow, WinnowR, make_k_of_n_disjunction
from perceptron_core.trace import MISTAKE
from tests.numerics import NEAR, relative_gap

# --------------------------------------------------------------------------
# References: Littlestone's rules, one example at a time, as in the papers.
# --------------------------------------------------------------------------


def dot(a, b):
    """<a, b> summed left to right (the order the compiled kernels use)."""
    return sum(np.asarray(a, dtype=np.float64) * np.asarray(b, dtype=np.float64))


def reference_winnow(
    X, y, order, *, alpha=2.0, theta=None, demotion="divide", min_weight=0.0, epochs=1
):
    """Winnow (y in {-1, +1}); returns the weights, every hypothesis and the mistakes."""
    _m, n = X.shape
    theta = float(n) if theta is None else theta
    w = np.ones(n)
    hypotheses, mistakes = [w.copy()], []
    for epoch in range(epochs):
        made_a_mistake = False
        for j in order:
            x = X[j]
            active = x == 1
            predicted_positive = dot(w, x) >= theta
            if y[j] == 1 and not predicted_positive:  # promotion
                w[active] = w[active] * alpha
            elif y[j] == -1 and predicted_positive:
                if demotion == "eliminate":  # elimination
                    w[active] = 0.0
                else:  # demotion, never below the floor (Winnow-R)
                    w[active] = np.maximum(w[active] / alpha, min_weight)
            else:
                continue
            made_a_mistake = True
            mistakes.append((epoch, j))
            hypotheses.append(w.copy())
        if not made_a_mistake:
            break
    return w, np.array(hypotheses), mistakes


def reference_balanced_winnow(X, y, order, *, alpha=2.0, theta=None, fit_intercept=True, epochs=1):
    """Balanced Winnow with the constant input xb; weights w+ and w- start at 1."""
    _m, n = X.shape
    theta = float(n) if theta is None else theta
    xb = 1.0 if fit_intercept else 0.0
    w_pos, w_neg = np.ones(n), np.ones(n)
    b_pos, b_neg = 1.0, 1.0
    mistakes = []
    for epoch in range(epochs):
        made_a_mistake = False
        for j in order:
            x = X[j].astype(np.float64)
            score = dot(w_pos - w_neg, x) + (b_pos - b_neg) * xb - theta
            if (y[j] == 1 and score < 0) or (y[j] == -1 and score >= 0):
                # math.pow, the C library's pow, as the compiled rule calls it (NumPy's ** on
                # an array may take a vector path that rounds differently)
                factor = np.array([math.pow(alpha, y[j] * v) for v in x])
                w_pos, w_neg = w_pos * factor, w_neg / factor
                if xb != 0:
                    f = math.pow(alpha, y[j] * xb)
                    b_pos, b_neg = b_pos * f, b_neg / f
                # the package's overflow guard: an exact common rescaling
                if max(w_pos.max(), w_neg.max(), b_pos, b_neg) > 2.0**600:
                    w_pos, w_neg = w_pos / 2.0**500, w_neg / 2.0**500
                    b_pos, b_neg, theta = b_pos / 2.0**500, b_neg / 2.0**500, theta / 2.0**500
                made_a_mistake = True
                mistakes.append((epoch, j))
        if not made_a_mistake:
            break
    return w_pos - w_neg, (b_pos - b_neg) * xb - theta, mistakes


def fitted_mistakes(clf):
    t = clf.trace_
    keep = t.kind == MISTAKE
    return list(zip(t.epoch[keep].tolist(), t.index[keep].tolist()))


def order_of(random_state, m):
    return np.random.RandomState(random_state).permutation(m)


boolean_data = st.integers(2, 25).flatmap(
    lambda m: st.integers(1, 10).flatmap(
        lambda n: st.tuples(
            st.lists(st.lists(st.integers(0, 1), min_size=n, max_size=n), min_size=m, max_size=m),
            st.lists(st.sampled_from([-1, 1]), min_size=m, max_size=m),
        )
    )
)


# --------------------------------------------------------------------------
# Fast = reference
# --------------------------------------------------------------------------


@pytest.mark.numerics
@given(
    data=boolean_data,
    alpha=st.sampled_from([1.5, 2.0, 3.0]),
    theta=st.sampled_from(["auto", 0.5, 2.0]),
    demotion=st.sampled_from(["divide", "eliminate"]),
    epochs=st.integers(1, 6),
    seed=st.integers(0, 1000),
)
def test_winnow_matches_reference(data, alpha, theta, demotion, epochs, seed):
    X, y = np.array(data[0], dtype=np.uint8), np.array(data[1])
    if len(set(y.tolist())) < 2:
        y[0] = -y[0]
    clf = Winnow(
        alpha=alpha,
        threshold=theta,
        demotion=demotion,
        epochs=epochs,
        random_state=seed,
        record="updates",
    ).fit(X, y)
    w, hyps, mistakes = reference_winnow(
        X,
        y,
        order_of(seed, len(y)),
        alpha=alpha,
        theta=None if theta == "auto" else theta,
        demotion=demotion,
        epochs=epochs,
    )
    assert fitted_mistakes(clf) == mistakes
    np.testing.assert_allclose(clf.coef_[0], w, rtol=1e-12)
    np.testing.assert_allclose(clf.trace_.weight_history, hyps, rtol=1e-12)
    assert clf.n_mistakes_ == len(mistakes)


@pytest.mark.numerics
def test_a_score_that_ties_theta_in_exact_arithmetic_is_summed_as_the_reference_sums():
    # alpha = 1.5: the weights 1/1.5^k of the active features sum to 1.9999999999999998 left
    # to right, to 2.0 = theta in a vectorised order; the reference sums left to right
    rows = {
        1: [1, 2, 3, 4, 5, 7],
        4: [4, 5, 6, 7, 8],
        5: [0, 1, 4, 6],
        6: [5, 7],
        9: [1, 2, 3, 4, 5, 7],
        10: [1, 7],
        11: [0, 4, 5],
        12: [1, 2, 3, 4, 7, 8],
        13: [3, 5],
    }
    X = np.zeros((19, 9), np.uint8)
    for j, active in rows.items():
        X[j, active] = 1
    y = -np.ones(19, int)
    y[[0, 5, 6, 10]] = 1
    clf = Winnow(alpha=1.5, threshold=2.0, epochs=2, random_state=17, record="updates").fit(X, y)
    _, _, mistakes = reference_winnow(X, y, order_of(17, 19), alpha=1.5, theta=2.0, epochs=2)
    assert fitted_mistakes(clf) == mistakes


@pytest.mark.numerics
@given(
    data=boolean_data,
    min_weight=st.sampled_from([0.5, 0.25, 0.9]),
    epochs=st.integers(1, 6),
    seed=st.integers(0, 1000),
)
def test_winnow_r_matches_reference_and_keeps_the_floor(data, min_weight, epochs, seed):
    X, y = np.array(data[0], dtype=np.uint8), np.array(data[1])
    if len(set(y.tolist())) < 2:
        y[0] = -y[0]
    clf = WinnowR(min_weight=min_weight, epochs=epochs, random_state=seed, record="updates").fit(
        X, y
    )
    w, _, mistakes = reference_winnow(
        X, y, order_of(seed, len(y)), min_weight=min_weight, epochs=epochs
    )
    assert fitted_mistakes(clf) == mistakes
    np.testing.assert_allclose(clf.coef_[0], w, rtol=1e-12)
    assert clf.coef_.min() >= min_weight


@pytest.mark.numerics
@given(
    m=st.integers(2, 25),
    n=st.integers(1, 6),
    real=st.booleans(),
    alpha=st.sampled_from([1.2, 2.0]),
    fit_intercept=st.booleans(),
    epochs=st.integers(1, 6),
    seed=st.integers(0, 1000),
)
def test_balanced_winnow_matches_reference(m, n, real, alpha, fit_intercept, epochs, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, n)) if real else rng.integers(0, 2, size=(m, n)).astype(np.uint8)
    y = np.where(rng.random(m) < 0.5, -1, 1)
    y[:2] = [-1, 1]
    clf = BalancedWinnow(
        alpha=alpha,
        fit_intercept=fit_intercept,
        epochs=epochs,
        random_state=seed,
        record="updates",
    ).fit(X, y)
    w, b, mistakes = reference_balanced_winnow(
        X, y, order_of(seed, m), alpha=alpha, fit_intercept=fit_intercept, epochs=epochs
    )
    assert fitted_mistakes(clf) == mistakes
    np.testing.assert_allclose(clf.coef_[0], w, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(clf.intercept_[0], b, rtol=1e-10, atol=1e-12)


@pytest.mark.numerics
def test_balanced_winnow_rescales_instead_of_overflowing():
    rng = np.random.default_rng(0)
    X = rng.normal(scale=30.0, size=(60, 3))  # alpha ** 30 per update: overflow within a few
    y = np.where(rng.random(60) < 0.5, -1, 1)
    clf = BalancedWinnow(epochs=50, shuffle=False).fit(X, y)
    w, b, mistakes = reference_balanced_winnow(X, y, np.arange(60), epochs=50)
    assert np.isfinite(clf.coef_).all() and np.isfinite(clf.intercept_).all()
    assert clf.n_mistakes_ == len(mistakes) > 20
    np.testing.assert_allclose(clf.coef_[0], w, rtol=1e-10, atol=1e-300)
    # BLAS adds in another order: the labels agree because no score is near the threshold
    assert relative_gap(X @ w + b, np.abs(X) @ np.abs(w) + abs(b)).min() > NEAR
    np.testing.assert_array_equal(clf.predict(X), np.where(X @ w + b >= 0, 1, -1))


@pytest.mark.numerics
def test_multiclass_winnow_is_one_reference_per_class():
    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, size=(40, 8)).astype(np.uint8)
    labels = np.array(["a", "b", "c"])[rng.integers(0, 3, size=40)]
    clf = Winnow(epochs=4, random_state=1, record="all").fit(X, labels)
    assert set(clf.trace_) == {"a", "b", "c"}
    for k, c in enumerate(clf.classes_):
        y = np.where(labels == c, 1, -1)
        w, _, mistakes = reference_winnow(X, y, order_of(1, 40), epochs=4)
        np.testing.assert_allclose(clf.coef_[k], w)
        assert fitted_mistakes_of(clf.trace_[c]) == mistakes
    scores = X @ clf.coef_.T + clf.intercept_
    np.testing.assert_array_equal(clf.predict(X), clf.classes_[scores.argmax(axis=1)])


def fitted_mistakes_of(trace):
    keep = trace.kind == MISTAKE
    return list(zip(trace.epoch[keep].tolist(), trace.index[keep].tolist()))


# --------------------------------------------------------------------------
# Protocol
# --------------------------------------------------------------------------


def test_non_boolean_input_gets_a_clear_error_and_binarize_fixes_it():
    X = np.array([[0.0, 0.5], [1.0, 0.0], [0.0, 1.0]])
    y = [0, 1, 1]
    for cls in (Winnow, WinnowR):
        with pytest.raises(ValueError, match=r"boolean features .* value 0.5 in row 0, column 1"):
            cls().fit(X, y)
        clf = cls(binarize=0.25, shuffle=False).fit(X, y)
        np.testing.assert_array_equal(
            clf.predict(X), cls(shuffle=False).fit(X > 0.25, y).predict(X > 0.25)
        )
    fitted = Winnow().fit(X > 0, y)
    with pytest.raises(ValueError, match="boolean features"):
        fitted.predict(X)
    BalancedWinnow().fit(X, y)  # real features are fine here


def test_predict_fires_at_equality_with_the_threshold():
    # One feature, threshold 1, weight 1: <w, x> = theta exactly -> positive (the CS 446
    # notes predict 1 iff <w, x> >= theta).
    clf = Winnow(threshold=1.0, epochs=1).fit([[1], [0]], [1, 0])
    assert clf.n_mistakes_ == 0
    assert clf.decision_function([[1]])[0] == 0.0
    assert clf.predict([[1]])[0] == 1


def test_partial_fit_continues_fit():
    X, y = make_k_of_n_disjunction(30, 2, 80, random_state=2)
    one_go = Winnow(epochs=3, shuffle=False, record="all").fit(X, y)
    stepwise = Winnow(shuffle=False, record="all")
    for _ in range(3):
        stepwise.partial_fit(X, y, classes=[0, 1])
    # fit stops after a clean epoch, partial_fit does not; a clean epoch changes nothing
    np.testing.assert_array_equal(one_go.coef_, stepwise.coef_)
    w, _, _ = reference_winnow(X, np.where(y == 1, 1, -1), np.arange(len(y)), epochs=3)
    np.testing.assert_array_equal(stepwise.coef_[0], w)
    np.testing.assert_array_equal(one_go.trace_.weight_history[-1], one_go.coef_[0])
    np.testing.assert_array_equal(stepwise.trace_.weight_history[-1], stepwise.coef_[0])
    assert stepwise.trace_.index.max() == 3 * len(y) - 1  # rows count across batches
    assert stepwise.n_iter_ == 3


def test_bad_parameters_are_explained():
    with pytest.raises(ValueError, match=r"Winnow: alpha \(the update factor.*greater than 1"):
        Winnow(alpha=1.0).fit([[0, 1], [1, 0]], [0, 1])
    with pytest.raises(ValueError, match="demotion"):
        Winnow(demotion="halve").fit([[0, 1], [1, 0]], [0, 1])
    with pytest.raises(ValueError, match="min_weight"):
        WinnowR(min_weight=0).fit([[0, 1], [1, 0]], [0, 1])


# --------------------------------------------------------------------------
# The lesson: O(k log n) mistakes for Winnow, Θ(n) for the perceptron
# --------------------------------------------------------------------------


def test_k_of_n_disjunction_generator():
    X, y, relevant = make_k_of_n_disjunction(40, 3, 4000, random_state=5, return_relevant=True)
    assert X.dtype == np.uint8 and X.shape == (4000, 40) and set(np.unique(X)) == {0, 1}
    np.testing.assert_array_equal(y, X[:, relevant].max(axis=1))
    assert abs(y.mean() - 0.5) < 0.04  # the default density balances the classes
    X2, _y2 = make_k_of_n_disjunction(40, 3, 4000, random_state=5)
    np.testing.assert_array_equal(X, X2)
    with pytest.raises(ValueError, match="k <= n_features"):
        make_k_of_n_disjunction(3, 4, 10)


def test_winnow_mistakes_grow_like_log_n_and_the_perceptrons_like_n():
    k, sizes = 2, (25, 100, 400)
    winnow, perceptron = [], []
    for n in sizes:
        w_runs, p_runs = [], []
        for seed in range(2):
            X, y = make_k_of_n_disjunction(n, k, 1500, random_state=seed)
            # one on-line pass over the stream, counting mistakes
            w_runs.append(Winnow(epochs=1, shuffle=False).fit(X, y).n_mistakes_)
            p_runs.append(
                ThickSeparatorPerceptron(gamma=0.0, epochs=1, shuffle=False).fit(X, y).n_mistakes_
            )
        winnow.append(np.mean(w_runs))
        perceptron.append(np.mean(p_runs))
    # Winnow: within Littlestone's bound 2 + 3k(1 + log2 n), and about +c per factor 4 of n
    for n, mistakes in zip(sizes, winnow):
        assert mistakes <= 2 + 3 * k * (1 + np.log2(n))
    assert winnow[-1] / winnow[0] < 3.0  # 16 times more features, < 3 times the mistakes
    # the perceptron: roughly proportional to n (observed ~ 12x for 16x the features)
    assert perceptron[-1] / perceptron[0] > 8.0
    assert perceptron[1] / perceptron[0] > 2.5 and perceptron[2] / perceptron[1] > 2.5
    assert perceptron[-1] > 10 * winnow[-1]


def test_balanced_winnow_refuses_features_whose_factor_leaves_floating_point():
    """alpha ** (y x_i) for x_i of 1e4 is 2 ** 10000: a clear error names the fix (it divided
    by zero before); on features it can take, the weights stay finite."""
    from sklearn.datasets import make_classification

    X, y = make_classification(n_samples=200, n_features=6, random_state=0)
    with pytest.raises(ValueError, match=r"Scale the features to at most 400 .*alpha closer to 1"):
        BalancedWinnow(epochs=5).fit(X * 1e4, y)
    with pytest.raises(ValueError, match="at most 2 in absolute value"):  # 400 / log2(2**200)
        BalancedWinnow(alpha=2.0**200, epochs=5).fit(X, y)
    est = BalancedWinnow(epochs=20, random_state=0).fit(X * 50, y)  # factors up to 2 ** 300
    assert np.isfinite(est.weights_pos_).all() and np.isfinite(est.weights_neg_).all()
    assert np.isfinite(est.decision_function(X * 50)).all()
