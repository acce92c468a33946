"""Precision-recall, PAUM's macro-averaged precision, sparsity and the noise-flag scores."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn import metrics as skm

from perceptron_core.metrics import (
    average_precision,
    flag_precision_recall,
    macro_averaged_precision,
    precision_recall_curve,
    sparsity,
)
from perceptron_core.rules.passive_aggressive import PassiveAggressive


def reference_average_precision(y, scores):
    """PAUM's definition, literally: for each positive, the precision at its score."""
    precisions = []
    for i in np.flatnonzero(y == 1):
        predicted = scores >= scores[i]
        precisions.append((y[predicted] == 1).sum() / predicted.sum())
    return np.mean(precisions)


labels_and_scores = st.integers(2, 40).flatmap(
    lambda m: st.tuples(
        st.lists(st.integers(0, 1), min_size=m, max_size=m),
        st.lists(st.integers(-3, 3), min_size=m, max_size=m),  # small ints: many ties
    )
)


@given(data=labels_and_scores)
def test_average_precision_is_the_mean_precision_at_each_positive(data):
    y, scores = np.array(data[0]), np.array(data[1], dtype=float)
    if y.sum() == 0:
        y[0] = 1
    expected = reference_average_precision(y, scores)
    assert average_precision(y, scores) == pytest.approx(expected, rel=1e-12)
    assert average_precision(y, scores) == pytest.approx(skm.average_precision_score(y, scores))


@given(data=labels_and_scores)
def test_precision_recall_curve_agrees_with_scikit_learn(data):
    y, scores = np.array(data[0]), np.array(data[1], dtype=float)
    if y.sum() == 0:
        y[0] = 1
    p, r, t = precision_recall_curve(y, scores)
    sp, sr, st_ = skm.precision_recall_curve(y, scores)
    # scikit-learn: increasing thresholds and a final (precision 1, recall 0) point
    np.testing.assert_allclose(p, sp[:-1][::-1])
    np.testing.assert_allclose(r, sr[:-1][::-1])
    np.testing.assert_allclose(t, st_[::-1])
    for precision, recall, threshold in zip(p, r, t):  # each point, by its definition
        predicted = scores >= threshold
        assert precision == pytest.approx((y[predicted] == 1).mean())
        assert recall == pytest.approx((y[predicted] == 1).sum() / (y == 1).sum())


def test_labels_other_than_0_1_need_pos_label():
    y = np.array(["spam", "ham", "spam"])
    with pytest.raises(ValueError, match="pos_label"):
        average_precision(y, [3, 2, 1])
    assert average_precision(y, [3, 2, 1], pos_label="spam") == pytest.approx((1 + 2 / 3) / 2)
    assert average_precision([-1, 1, 1], [3, 2, 1]) == pytest.approx((1 / 2 + 2 / 3) / 2)
    with pytest.raises(ValueError, match="no positive example"):
        average_precision([0, 0], [1, 2])
    with pytest.raises(ValueError, match="one number per example"):
        precision_recall_curve([0, 1], [1, 2, 3])


def test_macro_averaged_precision_averages_over_categories():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 4, size=80)
    S = rng.normal(size=(80, 4)) + np.eye(4)[y]
    expected = np.mean(
        [reference_average_precision((y == k).astype(int), S[:, k]) for k in range(4)]
    )
    assert macro_averaged_precision(y, S) == pytest.approx(expected)
    # two classes and 1-D scores: the positive class's average precision
    yb = (y > 1).astype(int)
    assert macro_averaged_precision(yb, S[:, 0]) == pytest.approx(
        reference_average_precision(yb, S[:, 0])
    )
    with pytest.raises(ValueError, match="one column per class"):
        macro_averaged_precision(y, S[:, :3])


def test_sparsity_counts_examples_never_updated_on():
    assert sparsity([0, 2, 0, 1]) == 2
    np.testing.assert_array_equal(sparsity([[0, 1, 0], [1, 1, 0]]), [2, 1])
    rng = np.random.default_rng(1)
    X = rng.normal(size=(100, 2))
    y = np.where(X[:, 0] + X[:, 1] > 0, 1, 0)
    clf = PassiveAggressive(variant="PA", random_state=0).fit(X, y)
    assert sparsity(clf) == int((clf.update_counts_[0] == 0).sum())
    assert 0 < sparsity(clf) < 100  # far-away points never force an update


def test_flag_precision_recall():
    cats = np.array(["noisy", "safe", "noisy", "borderline", "noisy"])
    flipped = np.array([True, False, False, True, True])
    assert flag_precision_recall(cats, flipped) == (2 / 3, 2 / 3)
    assert flag_precision_recall(cats, [0, 3, 4]) == (2 / 3, 2 / 3)
    p, r = flag_precision_recall(np.zeros(3, bool), np.zeros(3, bool))
    assert np.isnan(p) and np.isnan(r)


# The outputs of the NumPy implementation these functions had before they called
# scikit-learn, on ties, one class only, a single example, -1/1, boolean and text labels.
BEFORE_SCIKIT_LEARN = [
    (
        [1, 0, 1, 1, 0, 0, 1],
        [2, 2, 1, 1, 1, 0, -1],
        {},
        0.5678571428571428,
        [0.5, 0.6, 0.5, 0.5714285714285714],
        [0.25, 0.75, 0.75, 1.0],
        [2.0, 1.0, 0.0, -1.0],
    ),
    ([1, 1, 1], [0.3, 0.3, 0.1], {}, 1.0, [1.0, 1.0], [2 / 3, 1.0], [0.3, 0.1]),
    ([1], [5.0], {}, 1.0, [1.0], [1.0], [5.0]),
    ([0, 1, 0, 1], [1, 1, 1, 1], {}, 0.5, [0.5], [1.0], [1.0]),
    (
        [-1, 1, 1, -1, 1],
        [0.5, 0.5, 0.2, -3, 0.9],
        {},
        0.8055555555555555,
        [1.0, 2 / 3, 0.75, 0.6],
        [1 / 3, 2 / 3, 1.0, 1.0],
        [0.9, 0.5, 0.2, -3.0],
    ),
    (
        [True, False, True],
        [1, 2, 3],
        {},
        0.8333333333333333,
        [1.0, 0.5, 2 / 3],
        [0.5, 0.5, 1.0],
        [3.0, 2.0, 1.0],
    ),
    (
        ["spam", "ham", "spam", "eggs"],
        [3, 2, 2, 1],
        {"pos_label": "spam"},
        0.8333333333333333,
        [1.0, 2 / 3, 0.5],
        [0.5, 1.0, 1.0],
        [3.0, 2.0, 1.0],
    ),
]


@pytest.mark.parametrize(
    "y, scores, kwargs, ap, precision, recall, thresholds", BEFORE_SCIKIT_LEARN
)
def test_same_outputs_as_before_scikit_learn(y, scores, kwargs, ap, precision, recall, thresholds):
    assert average_precision(y, scores, **kwargs) == pytest.approx(ap, rel=1e-15)
    p, r, t = precision_recall_curve(y, scores, **kwargs)
    np.testing.assert_allclose(p, precision, rtol=1e-15)
    np.testing.assert_allclose(r, recall, rtol=1e-15)
    np.testing.assert_array_equal(t, thresholds)


@pytest.mark.parametrize(
    "y, scores, message",
    [
        ([], [], "no positive example: average precision is undefined"),
        ([0, 0], [1, 2], "no positive example: average precision is undefined"),
        ([1, np.nan], [1, 2], r"labels \[1.0, nan\]; say which one is positive"),
        ([1, 0], [np.inf, 1], "scores contain NaN or infinite values"),
        ([[1, 0]], [1, 1], r"must be 1-D, one label per example; got shape \(1, 2\)"),
    ],
)
def test_same_errors_as_before_scikit_learn(y, scores, message):
    with pytest.raises(ValueError, match=message):
        average_precision(y, scores)
