"""Hostile use, third round: the voted prediction of a view is computed cheaply where it can
be, refused before it starts where it would cost a view more than it may, and stopped when
the visitor who asked for it has left.

A voted score is a sum over hypotheses of vote x sign(score), so every hypothesis's score on
every row is needed: the work grows with rows x updates however it is arranged. With few
features the updates are read in order (``voted_scores_in_order``); its scores must be the
product way's exactly where the arithmetic is exact (integer-valued data: every product and
every running sum is an integer below 2**53), and a reference's on any data up to ties.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from perceptron_core.datasets import DataError
from perceptron_core.engine import record
from perceptron_core.linear import KWPerceptron


def _both_ways(clf, X, monkeypatch):
    """The voted scores of ``X`` read in order and by the product, in turn."""
    monkeypatch.setattr(record, "IN_ORDER_MAX_FEATURES", X.shape[1])
    in_order = clf.decision_function(X, mode="voted")
    monkeypatch.setattr(record, "IN_ORDER_MAX_FEATURES", 0)
    product = clf.decision_function(X, mode="voted", chunk_size=37)  # chunks end mid-way
    return in_order, product


def _reference(clf, X) -> tuple[np.ndarray, float]:
    """Every hypothesis formed and scored, one by one (problem 0); and the smallest distance
    of a score from its threshold."""
    rec = clf._hyp
    support = rec.support.as_float64()
    steps = rec.eta * rec.signs[0]
    w, theta = np.zeros(X.shape[1]), rec.theta_init
    out, closest = np.zeros(len(X)), np.inf
    for i, p in enumerate(rec.positions[0]):
        w = w + steps[i] * support[p]
        theta = theta - rec.C * steps[i]
        score = X @ w - theta
        closest = min(closest, float(np.abs(score).min()))
        out += rec.votes[0][i + 1] * np.sign(score)
    return out, closest


# On one worker: these tests compile the KW trainer for int8 data (2 s) once, not on both.
@pytest.mark.xdist_group("KW on int8 data: compiled once")
@pytest.mark.parametrize("dtype", [np.float64, np.int8])
@pytest.mark.parametrize("n_features", [1, 2, 5, 12])
@pytest.mark.parametrize("classes", [2, 4])
def test_reading_the_updates_in_order_gives_the_products_scores_exactly(
    dtype, n_features, classes, monkeypatch
):
    rng = np.random.default_rng(n_features)
    X = rng.integers(-100, 100, size=(700, n_features)).astype(dtype)
    y = rng.integers(0, classes, size=700)  # random labels: many updates, every epoch
    clf = KWPerceptron(epochs=3, random_state=1, predict_with="voted", eta=0.5).fit(X, y)
    in_order, product = _both_ways(clf, X, monkeypatch)
    np.testing.assert_array_equal(in_order, product)


def test_a_second_partial_fit_call_is_read_in_order_too(monkeypatch):
    rng = np.random.default_rng(7)
    X = rng.integers(-9, 9, size=(400, 3)).astype(np.float64)
    y = rng.integers(0, 2, size=400)
    clf = KWPerceptron(random_state=0, predict_with="voted")
    for part in (slice(0, 250), slice(150, 400)):  # overlapping rows: the support is shared
        clf.partial_fit(X[part], y[part], classes=[0, 1])
    in_order, product = _both_ways(clf, X, monkeypatch)
    np.testing.assert_array_equal(in_order, product)


def test_on_float_data_the_scores_are_the_references_up_to_ties(monkeypatch):
    """Float products round; a row's score can differ only where some hypothesis scores it
    within rounding of its threshold (none does on these data: the check says so)."""
    rng = np.random.default_rng(11)
    X = rng.normal(size=(300, 4))
    y = rng.integers(0, 2, size=300)
    clf = KWPerceptron(epochs=2, random_state=0, predict_with="voted").fit(X, y)
    monkeypatch.setattr(record, "IN_ORDER_MAX_FEATURES", 4)
    in_order = clf.decision_function(X, mode="voted")
    expected, closest = _reference(clf, X)
    assert closest > 1e-9  # no score within rounding of its threshold: the votes must agree
    np.testing.assert_array_equal(in_order, expected)


# -- the app: a view's voted predictions within its CPU budget -------------------------------


def _upload(rows: int, seed: int = 0):
    """The issue's upload: integer features, random labels (every other visit an update)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 1000, size=(rows, 2)).astype(np.float64)
    return X, np.where(rng.random(rows) < 0.5, 1, -1), np.empty((0, 2)), np.empty(0, int)


def test_the_issues_upload_is_refused_before_its_voted_predictions_with_what_fits():
    from perceptron_lab.app_logic import training

    with pytest.raises(DataError) as refused:
        training.fit_run("perceptron", (), 2, 0, *_upload(200_000))
    message = str(refused.value)
    assert "voted" in message and "200,000 points" in message, message
    assert "fewer points" in message and "CPU" in message, message


def test_the_epochs_the_refusal_offers_do_fit(monkeypatch):
    from perceptron_lab.app_logic import training

    data = _upload(3_000)
    monkeypatch.setattr(training, "MAX_VOTED_SCORES", 3_000 * 2_500)  # about 1.7 epochs
    with pytest.raises(DataError, match=r"at most \d+ epoch") as refused:
        training.fit_run("perceptron", (), 4, 0, *data)
    fitting = int(re.search(r"at most (\d+) epoch", str(refused.value)).group(1))
    run = training.fit_run("perceptron", (), fitting, 0, *data)
    assert run.timeline.n_events == 3_000 * fitting


def test_work_for_a_visitor_who_left_stops_between_chunks():
    from perceptron_lab.app_logic import training

    class Left(BaseException):  # as Streamlit's StopException: not an Exception
        pass

    asked = []

    def interrupt():
        asked.append(1)
        if len(asked) > 2:
            raise Left

    with pytest.raises(Left):
        training.fit_run("perceptron", (), 2, 0, *_upload(20_000), interrupt=interrupt)
    assert len(asked) == 3  # it stopped at the first chance after the visitor left
