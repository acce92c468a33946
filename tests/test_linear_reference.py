"""The compiled engine against the line-by-line NumPy reference of docs/algorithms.md §1.

The engine's dot product adds in another order than the reference's (``np.dot``), so
scores and weights agree to a tolerance, and the record (updates, events, votes, labels)
exactly wherever no score came near a threshold, which each test checks
(:mod:`tests.numerics`).
"""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from perceptron_core import KWPerceptron
from perceptron_core.modes import MODES
from tests.data import noisy_data
from tests.numerics import NEAR, exact_integer_data
from tests.reference import (
    multiclass_clearance,
    prediction_clearance,
    reference_kw,
    reference_scores,
)

pytestmark = pytest.mark.numerics

switches = st.fixed_dictionaries(
    {
        "eta": st.sampled_from([0.1, 0.5, 1.0]),
        "tau": st.sampled_from([0.0, 0.125, 0.5, 2.0]),
        "lam": st.sampled_from([0.0, 0.25, 1.0, 4.0]),
        "alpha_bound": st.sampled_from([None, 1, 3, 10]),
        "epochs": st.integers(1, 12),
        "shuffle": st.booleans(),
        "C": st.sampled_from(["auto", 0.5]),
        "theta_init": st.sampled_from(["auto", 0.0, 1.5]),
    }
)


def _reference_args(params: dict, clf) -> dict:
    """The reference's arguments for the estimator's ``params``, in the order ``clf`` visited
    the examples (``"auto"`` is the reference's ``None``)."""
    return dict(
        eta=params["eta"],
        tau=params["tau"],
        lam=params["lam"],
        alpha_bound=params["alpha_bound"],
        epochs=params["epochs"],
        order=clf._order,
        theta_init=None if params["theta_init"] == "auto" else params["theta_init"],
        C=None if params["C"] == "auto" else params["C"],
    )


@given(switches, st.integers(0, 10_000), st.integers(5, 40), st.integers(1, 6))
def test_engine_matches_reference(params, seed, m, n):
    X, y = noisy_data(seed, m, n)
    clf = KWPerceptron(random_state=seed, record="all", **params).fit(X, y)
    ref = reference_kw(X, y, **_reference_args(params, clf))
    assume(ref["closest"] > NEAR)

    # same updates, in the same order, with the same events
    trace = clf.trace_
    np.testing.assert_array_equal(trace.rows, ref["updated"])
    assert list(trace.kind_names()) == ref["kinds"]
    np.testing.assert_array_equal(clf.votes_, ref["votes"])
    assert clf._hyp.longest_k[0] == ref["longest"]

    # same hypotheses to rounding
    W, theta = trace.hypotheses()
    np.testing.assert_allclose(W, ref["W"], atol=1e-9)
    np.testing.assert_allclose(theta, ref["theta"], atol=1e-9)

    # same predictions in all four modes (labels are ±1 here)
    X_test = np.random.default_rng(seed + 1).normal(size=(30, n))
    predictions = clf.predict_all(X_test)
    assume(min(prediction_clearance(ref, X_test, mode) for mode in MODES) > NEAR)
    for mode in MODES:
        expected = np.where(reference_scores(ref, X_test, mode) > 0, 1, -1)
        np.testing.assert_array_equal(predictions[mode], expected, err_msg=mode)
        scores = clf.decision_function(X_test, mode=mode)
        np.testing.assert_allclose(scores, reference_scores(ref, X_test, mode), atol=1e-8)


@given(switches, st.integers(0, 10_000))
def test_multiclass_is_one_reference_run_per_class(params, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(40, 3))
    y = rng.integers(0, 3, size=40)
    y[:3] = [0, 1, 2]
    labels = np.array(["cat", "dog", "eel"])[y]
    clf = KWPerceptron(random_state=seed, record="updates", **params).fit(X, labels)
    args = _reference_args(params, clf)
    refs = [reference_kw(X, np.where(y == c, 1, -1), **args) for c in range(3)]
    assume(min(ref["closest"] for ref in refs) > NEAR)
    for c, ref in enumerate(refs):
        np.testing.assert_array_equal(clf.votes_[c], ref["votes"])
    X_test = rng.normal(size=(25, 3))
    predictions = clf.predict_all(X_test)
    assume(min(multiclass_clearance(refs, X_test, mode) for mode in MODES) > NEAR)
    for mode in MODES:
        scores = np.column_stack([reference_scores(ref, X_test, mode) for ref in refs])
        np.testing.assert_array_equal(predictions[mode], clf.classes_[scores.argmax(axis=1)])


def test_threshold_moves_down_after_a_missed_positive():
    # the positive example is seen first and scored 0 - theta_init < 0: a mistake
    clf = KWPerceptron(epochs=1, shuffle=False, record="updates").fit(
        [[1.0, 0.0], [0.0, -1.0]], [1, -1]
    )
    W, theta = clf.trace_.hypotheses()
    assert theta[1] < theta[0] == clf.theta_init_
    np.testing.assert_allclose(W[1], [0.1, 0.0])


def test_voted_chunking_does_not_change_scores():
    # whole-number features: every product of a chunk is exact, whatever kernel BLAS picks
    # for the chunk's shape, so the voted scores are equal bit for bit
    X, y = exact_integer_data(3, 200, 5)
    clf = KWPerceptron(epochs=5, random_state=0, predict_with="voted").fit(X, y)
    whole = clf.decision_function(X, mode="voted")
    for chunk in (1, 7, 64):
        np.testing.assert_array_equal(
            clf.decision_function(X, mode="voted", chunk_size=chunk), whole
        )


@pytest.mark.parametrize("mode", MODES)
def test_predict_with_selects_the_mode(mode):
    X, y = noisy_data(5, 120, 4)
    clf = KWPerceptron(epochs=8, random_state=1, predict_with=mode, record="updates").fit(X, y)
    np.testing.assert_array_equal(clf.predict(X), clf.predict_all(X)[mode])
    np.testing.assert_array_equal(clf.decision_function(X), clf.decision_function(X, mode=mode))


@pytest.mark.parametrize("params", [dict(), dict(alpha_bound=2), dict(lam=1.0, tau=0.25)])
def test_epochs_after_a_clean_epoch_are_added_exactly(params):
    # Separable data converge early; the engine then skips the identical
    # epochs arithmetically. The reference runs every one of them.
    rng = np.random.default_rng(11)
    X = rng.normal(size=(40, 3))
    y = np.where(X @ np.array([1.0, -2.0, 0.5]) > 0, 1, -1)
    clf = KWPerceptron(epochs=300, random_state=0, record="updates", **params).fit(X, y)
    ref = reference_kw(X, y, epochs=300, order=clf._order, **params)
    assert ref["closest"] > NEAR  # so the engine, adding in another order, decides alike
    assert clf.updates_per_epoch_[-1] == 0  # it did converge
    np.testing.assert_array_equal(clf.votes_, ref["votes"])
    assert clf._hyp.longest_k[0] == ref["longest"]
    np.testing.assert_array_equal(clf.trace_.rows, ref["updated"])


@pytest.mark.parametrize("record", ["all", "updates"])
def test_epochs_longer_than_a_segment_grow_the_records_mid_epoch(record):
    # 3 x MIN_SEGMENT rows with a margin: nearly every visit updates, so the
    # records fill up and grow several times inside each epoch
    from perceptron_core.engine.kw_trainer import MIN_SEGMENT

    X, y = noisy_data(7, 3 * MIN_SEGMENT, 4)
    params = dict(tau=2.0, lam=0.25, alpha_bound=10, epochs=3)
    clf = KWPerceptron(random_state=1, record=record, **params).fit(X, y)
    ref = reference_kw(X, y, eta=0.1, order=clf._order, **params)
    assert ref["closest"] > NEAR  # so the engine, adding in another order, decides alike
    assert clf.n_updates_ > 2 * MIN_SEGMENT
    np.testing.assert_array_equal(clf.trace_.rows, ref["updated"])
    if record == "all":  # every visit's event lands at its own step
        assert list(clf.trace_.kind_names()) == ref["kinds"]
    np.testing.assert_array_equal(clf.votes_, ref["votes"])
    assert clf._hyp.longest_k[0] == ref["longest"]
    np.testing.assert_allclose(clf.trace_.hypotheses()[0][-1], ref["W"][-1], atol=1e-9)
