"""The update record is kept only when something needs it, and predictions do not depend on it.

A KW fit keeps its update list (every update's example, every hypothesis's
vote) only with ``predict_with="voted"`` or a ``record``; otherwise the last,
longest-survivor and averaged hypotheses come from state that does not grow
with the epochs. These tests pin that the two paths predict identically,
that both equal the hypotheses rebuilt from the list, that what needs the
list says which setting keeps it, and (slow) the memory of a default fit.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from perceptron_core import (
    AveragedPerceptron,
    KWPerceptron,
    LongestSurvivorPerceptron,
    MarginPerceptron,
    Perceptron,
    linear,
)
from perceptron_core.kernel import KernelPerceptron
from perceptron_core.steps import kw

#: Every comparison here is of two paths through the same compiled arithmetic (the record
#: changes what is kept, not what is computed), exact on any CPU: the baseline-CPU pass of
#: .ci/run holds them to it.
pytestmark = pytest.mark.numerics

COMPACT_MODES = ("last", "longest", "averaged")
LEARNERS = {
    "plain": dict(),
    "margin": dict(tau=0.5),
    "lambda and bound": dict(tau=0.25, lam=0.5, alpha_bound=3),
}


def _noisy(seed, m=400, n=4, classes=2):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, n))
    if classes == 2:
        y = np.where(X[:, 0] + 0.5 * X[:, 1] > 0, 1, -1)
        y[rng.random(m) < 0.15] *= -1
    else:
        y = np.argmax(X[:, :classes] + 0.7 * rng.normal(size=(m, classes)), axis=1)
    return X, y


@pytest.mark.parametrize("classes", [2, 3])
@pytest.mark.parametrize("learner", LEARNERS)
@pytest.mark.parametrize("mode", COMPACT_MODES)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_without_the_list_predictions_are_those_of_the_full_record(mode, learner, seed, classes):
    X, y = _noisy(seed, classes=classes)
    kw = dict(epochs=9, random_state=seed, predict_with=mode, **LEARNERS[learner])
    compact = KWPerceptron(**kw).fit(X, y)
    full = KWPerceptron(record="updates", **kw).fit(X, y)
    assert compact._upd_rows.size == 0 and full._upd_rows.shape[1] >= full.n_updates_ // 2
    X_test = np.random.default_rng(seed + 10).normal(size=(200, X.shape[1]))
    assert np.array_equal(compact.decision_function(X_test), full.decision_function(X_test))
    assert np.array_equal(compact.predict(X_test), full.predict(X_test))
    assert np.array_equal(compact.coef_, full.coef_)
    assert np.array_equal(compact.intercept_, full.intercept_)
    assert compact.n_updates_ == full.n_updates_
    assert np.array_equal(compact.updates_per_epoch_, full.updates_per_epoch_)
    # the full record's own modes agree with the voted fit's (which keeps the list too)
    voted = KWPerceptron(**{**kw, "predict_with": "voted"}).fit(X, y)
    assert np.array_equal(
        voted.decision_function(X_test, mode=mode), full.decision_function(X_test)
    )


@pytest.mark.parametrize("cls", [Perceptron, LongestSurvivorPerceptron, AveragedPerceptron])
def test_named_variants_keep_no_list_and_predict_as_the_full_record(cls):
    X, y = _noisy(5)
    compact = cls(epochs=12, random_state=3).fit(X, y)
    full = cls(epochs=12, random_state=3, record="updates").fit(X, y)
    assert compact._hyp is None and compact._upd_rows.size == 0
    assert np.array_equal(compact.decision_function(X), full.decision_function(X))


@pytest.mark.parametrize("learner", LEARNERS)
@pytest.mark.parametrize("seed", [0, 1])
def test_longest_and_averaged_equal_the_hypotheses_rebuilt_from_the_list(learner, seed):
    X, y = _noisy(seed)
    clf = KWPerceptron(epochs=6, random_state=seed, record="updates", **LEARNERS[learner])
    clf.fit(X, y)
    W, theta = clf.trace_.hypotheses()  # every hypothesis, rebuilt from the list
    votes = clf.votes_
    assert len(votes) == len(W) == clf.n_updates_ + 1
    # longest survivor: the hypothesis with the longest run (ties: the first)
    k = int(clf._state[0, kw.LONGEST_K])
    clf.predict_with = "longest"
    np.testing.assert_allclose(clf.coef_[0], W[k], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(-clf.intercept_[0], theta[k], rtol=1e-12, atol=1e-12)
    # averaged: the vote-weighted mean of hypotheses 1 on
    total = votes[1:].sum()
    assert total > 0
    clf.predict_with = "averaged"
    np.testing.assert_allclose(clf.coef_[0], votes[1:] @ W[1:] / total, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(
        -clf.intercept_[0], votes[1:] @ theta[1:] / total, rtol=1e-12, atol=1e-12
    )


def test_averaged_over_streamed_batches_equals_the_record_of_the_stream():
    # other rows in each call: the vote clocks are folded call by call
    X, y = _noisy(7, m=600)
    compact = KWPerceptron(random_state=0, predict_with="averaged")
    full = KWPerceptron(random_state=0, predict_with="voted")
    for start in (0, 150, 300, 450, 0, 300):
        for clf in (compact, full):
            clf.partial_fit(X[start : start + 150], y[start : start + 150], classes=[-1, 1])
    assert compact._hyp is None
    assert np.array_equal(compact.decision_function(X), full.decision_function(X, mode="averaged"))
    # against the mean of the hypotheses, from the list of the voted fit
    rec = full._hyp
    steps = full.eta * rec.signs[0]
    vectors = rec.support.as_float64()[rec.positions[0]]
    W = np.vstack([np.zeros(X.shape[1]), np.cumsum(steps[:, None] * vectors, axis=0)])
    votes = rec.votes[0]
    np.testing.assert_allclose(compact.coef_[0], votes[1:] @ W[1:] / votes[1:].sum(), rtol=1e-9)


def test_permuted_copy_and_reading_in_place_keep_the_same_averaged_hypothesis(monkeypatch):
    X, y = _noisy(8, m=500)
    copied = AveragedPerceptron(epochs=5, random_state=2).fit(X, y)
    monkeypatch.setattr(linear, "PERMUTED_COPY_MAX_BYTES", 0)
    in_place = AveragedPerceptron(epochs=5, random_state=2).fit(X, y)
    assert np.array_equal(copied.coef_, in_place.coef_)
    assert np.array_equal(copied.intercept_, in_place.intercept_)


@pytest.mark.parametrize("mode", ["last", "longest", "averaged", "voted"])
def test_kernel_predictions_do_not_depend_on_the_record_setting(mode):
    X, y = _noisy(4, m=150, n=2)
    kw = dict(kernel="poly", degree=2, epochs=6, random_state=1, predict_with=mode)
    a = KernelPerceptron(**kw).fit(X, y)
    b = KernelPerceptron(record="updates", **kw).fit(X, y)
    assert np.array_equal(a.decision_function(X), b.decision_function(X))
    assert np.array_equal(a.votes_, b.votes_)  # the dual form always keeps its record


def test_what_needs_the_list_names_the_setting_that_keeps_it():
    X, y = _noisy(3, m=120)
    clf = Perceptron(epochs=4, random_state=0).fit(X, y)
    with pytest.raises(AttributeError, match="predict_with='voted' or record='updates'"):
        clf.votes_  # noqa: B018 (the attribute access is what raises)
    assert not hasattr(clf, "votes_")
    with pytest.raises(ValueError, match="predict_all needs the update record"):
        clf.predict_all(X)
    with pytest.raises(ValueError, match="voted prediction needs .* record='updates'"):
        clf.decision_function(X, mode="voted")
    with pytest.raises(ValueError, match="predict_with='averaged', predict_with='voted'"):
        clf.decision_function(X, mode="averaged")
    # the longest survivor is always kept
    assert clf.decision_function(X, mode="longest").shape == (len(X),)
    margin = MarginPerceptron(epochs=4, random_state=0, predict_with="averaged").fit(X, y)
    assert margin.decision_function(X, mode="longest").shape == (len(X),)
    with pytest.raises(ValueError, match="predict_all"):
        margin.predict_all(X)


@pytest.mark.slow
def test_a_default_fit_on_noisy_data_peaks_at_most_twice_the_data():
    # 500,000 x 2 float64 (8 MB), 100 epochs, ~10 % of the visits are updates:
    # a list of the updates alone would take hundreds of MB. tracemalloc sees
    # every NumPy array the fit allocates in Python; the compiled loop itself
    # allocates nothing that grows (numba's allocations are not traced).
    rng = np.random.default_rng(0)
    m = 500_000
    X = rng.normal(size=(m, 2))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] > 0, 1, -1)
    y[rng.random(m) < 0.1] *= -1
    Perceptron(epochs=2, random_state=0).fit(X[:300], y[:300])  # compile outside the measure
    tracemalloc.start()
    try:
        clf = Perceptron(random_state=0).fit(X, y)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert clf.n_iter_ == 100 and clf.n_updates_ > 10 * m  # noisy: updates every epoch
    assert peak <= 2 * X.nbytes, f"peak {peak / 2**20:.1f} MiB for {X.nbytes / 2**20:.1f} MiB"
