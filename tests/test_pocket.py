"""Gallant's pocket algorithm (with and without ratchet) against a pure-NumPy reference.

The rule's dot product is vectorised (:func:`perceptron_core.vectors.row_dot`), the
reference's adds left to right: on whole-number data with a dyadic eta every sum is exact,
on real-valued data the test checks that no score came near 0 (:mod:`tests.numerics`).
"""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from perceptron_core.rules.pocket import PocketPerceptron
from tests.numerics import NEAR, relative_gap
from tests.test_online_rules import augment, dot, fitted_events, order_of, shapes, small_data


def reference_pocket(X, y, order, *, eta, ratchet, xb, epochs):
    """Gallant (1990): the perceptron, plus a pocket for the longest run (and fewer errors).

    Also returns how near any score it decided on came to 0, relative to what it was made of.
    """
    Xa = np.array([augment(x, xb) for x in X])
    closest = np.inf

    def score(v, x):
        nonlocal closest
        s = dot(v, x)
        closest = min(closest, float(relative_gap(s, dot(abs(v), abs(x)))))
        return s

    def errors(v):
        return sum((score(v, x) > 0) != (label > 0) for x, label in zip(Xa, y))

    w = np.zeros(Xa.shape[1])
    pocket, run, pocket_run = w.copy(), 0, 0
    k = pocket_k = 0  # updates so far; the update after which the pocket's w arose
    events, answers = [], []
    for epoch in range(epochs):
        updated = False
        for j in order:
            s = score(w, Xa[j])
            if y[j] * s <= 0:
                w = w + eta * y[j] * Xa[j]
                run, k = 0, k + 1
                events.append((epoch, j, "mistake"))
                updated = True
            else:
                run += 1
                if run > pocket_run and (not ratchet or errors(w) < errors(pocket)):
                    pocket, pocket_run, pocket_k = w.copy(), run, k
            answers.append(pocket_k)
        if not updated:
            break
    return w, pocket, pocket_run, events, answers, closest


@pytest.mark.numerics
@given(eta=st.sampled_from([1.0, 0.25]), ratchet=st.booleans(), **shapes)
def test_pocket_matches_reference(eta, ratchet, m, n, seed, integer, fit_intercept, epochs):
    X, y = small_data(seed, m, n, integer)
    clf = PocketPerceptron(
        eta=eta,
        ratchet=ratchet,
        fit_intercept=fit_intercept,
        epochs=epochs,
        random_state=seed,
        record="updates",
    ).fit(X, y)
    w, pocket, pocket_run, events, answers, closest = reference_pocket(
        X, y, order_of(seed, m), eta=eta, ratchet=ratchet, xb=float(fit_intercept), epochs=epochs
    )
    assume(integer or closest > NEAR)  # whole numbers, dyadic eta: exact sums
    assert fitted_events(clf) == events
    np.testing.assert_allclose(clf.running_coef_[0], w[:-1], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(clf.coef_[0], pocket[:-1], rtol=1e-9, atol=1e-12)
    if fit_intercept:
        np.testing.assert_allclose(clf.intercept_[0], pocket[-1], rtol=1e-9, atol=1e-12)
    assert clf.pocket_run_[0] == pocket_run
    # the trace replays the running perceptron
    W, theta = clf.trace_.hypotheses()
    np.testing.assert_allclose(W[-1], clf.running_coef_[0], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(-theta[-1], clf.running_intercept_[0], rtol=1e-9, atol=1e-12)
    # and says after each visit which of its hypotheses the pocket holds
    every = PocketPerceptron(**clf.get_params() | {"record": "all"}).fit(X, y).trace_
    assert every.answer.tolist() == answers
    np.testing.assert_allclose(W[answers[-1]], clf.coef_[0], rtol=1e-9, atol=1e-12)


def test_the_ratchet_keeps_the_fewest_errors_on_noisy_data():
    rng = np.random.default_rng(3)
    X = np.r_[rng.normal(-1, 1.3, (150, 2)), rng.normal(1, 1.3, (150, 2))]
    y = np.r_[np.zeros(150), np.ones(150)].astype(int)
    clf = PocketPerceptron(epochs=30, random_state=0).fit(X, y)
    # the pocket's error count (the rule's dot product) and the score (NumPy's) agree: no
    # point is near the pocket's boundary
    w, b = clf.coef_[0], clf.intercept_[0]
    assert relative_gap(X @ w + b, np.abs(X) @ np.abs(w) + abs(b)).min() > NEAR
    running = (X @ clf.running_coef_[0] + clf.running_intercept_[0] > 0) == y
    assert clf.score(X, y) >= running.mean()
    assert clf.pocket_errors_[0] == round((1 - clf.score(X, y)) * len(y))
    plain = PocketPerceptron(epochs=30, ratchet=False, random_state=0).fit(X, y)
    assert np.isnan(plain.pocket_errors_[0])  # without the ratchet nothing is counted


def test_multiclass_is_one_vs_rest():
    rng = np.random.default_rng(0)
    centers = np.array([[0.0, 4.0], [4.0, -2.0], [-4.0, -2.0]])
    labels = rng.integers(0, 3, size=90)
    X = centers[labels] + rng.normal(size=(90, 2))
    clf = PocketPerceptron(record="all", random_state=0).fit(X, labels)
    assert set(clf.trace_) == {0, 1, 2} and clf.coef_.shape == (3, 2)
    assert clf.score(X, labels) > 0.9
