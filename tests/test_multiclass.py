"""The multiclass perceptron (``perceptron_core.multiclass``, docs/algorithms.md §11).

Against an independent NumPy reference written from the rule (same visiting order, same
updates, exact on integer data), its tie convention, its four predictors, Kesler's mistake
bound on separable three-class data, and the uncompiled twin.
"""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core import MulticlassPerceptron
from perceptron_core._jit import uncompiled
from perceptron_core.datasets import load
from perceptron_core.multiclass import kesler_bound, kesler_vectors
from perceptron_core.trace import CORRECT, MISTAKE
from tests.reference import longest_of


def reference(X, y, order, epochs, eta=1.0, xb=1.0):
    """The rule as docs/algorithms.md §11 writes it, in plain NumPy, with its whole history.

    Returns the updates ``(row, true, rival)``, the events ``(row, kind, rival, scores)``, the
    hypotheses (a list of ``(W, b)``, 0 the start) and each hypothesis's votes.
    """
    K = int(y.max()) + 1
    W, b = np.zeros((K, X.shape[1])), np.zeros(K)
    hypotheses, votes, updates, events = [(W.copy(), b.copy())], [0], [], []
    for _ in range(epochs):
        changed = False
        for j in order:
            s = X[j] @ W.T + xb * b
            c = y[j]
            others = [k for k in range(K) if k != c]
            r = others[int(np.argmax(s[others]))]  # the first of the highest other scores
            if s[c] > s[r]:
                votes[-1] += 1
                events.append((j, CORRECT, r, s))
                continue
            events.append((j, MISTAKE, r, s))
            updates.append((j, c, r))
            W[c] += eta * X[j]
            W[r] -= eta * X[j]
            b[c] += eta * xb
            b[r] -= eta * xb
            hypotheses.append((W.copy(), b.copy()))
            votes.append(0)
            changed = True
        if not changed:
            break
    return updates, events, hypotheses, np.array(votes)


def reference_predictions(hypotheses, votes, X, xb=1.0):
    """The four predictors from the reference's hypotheses (each one scored on its own)."""
    scores = [X @ W.T + xb * b for W, b in hypotheses]
    cast = votes.copy()
    cast[0] = 0
    out = {"last": np.argmax(scores[-1], axis=1)}
    out["longest"] = np.argmax(scores[longest_of(votes)], axis=1)
    if cast.sum() == 0:
        out["voted"] = out["averaged"] = out["last"]
        return out
    tally = np.zeros_like(scores[0])
    for k, s in enumerate(scores):
        np.add.at(tally, (np.arange(len(X)), np.argmax(s, axis=1)), cast[k])
    out["voted"] = np.argmax(tally, axis=1)
    W = sum(c * h[0] for c, h in zip(cast, hypotheses)) / cast.sum()
    b = sum(c * h[1] for c, h in zip(cast, hypotheses)) / cast.sum()
    out["averaged"] = np.argmax(X @ W.T + xb * b, axis=1)
    return out


def integer_three_classes(seed: int, m: int = 120):
    """Integer features in [-10, 10], three classes from a random integer linear machine with
    a little label noise: every sum is exact, so every comparison is too."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-10, 11, size=(m, 4)).astype(np.float64)
    W = rng.integers(-3, 4, size=(3, 4))
    y = np.argmax(X @ W.T, axis=1)
    noisy = rng.random(m) < 0.1
    y[noisy] = rng.integers(0, 3, size=noisy.sum())
    return X, y


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_it_makes_the_updates_of_the_reference(seed):
    X, y = integer_three_classes(seed)
    clf = MulticlassPerceptron(epochs=6, random_state=seed, record="all").fit(X, y)
    order = np.random.RandomState(seed).permutation(len(X))
    updates, events, hypotheses, votes = reference(X, y, order, 6)
    t = clf.trace_
    assert len(updates) > 20  # noisy: many updates to compare
    assert list(zip(t.rows, t.true, t.rival_of_update)) == updates
    assert t.index.tolist() == [e[0] for e in events]
    assert t.kind.tolist() == [e[1] for e in events]
    assert t.rival.tolist() == [e[2] for e in events]
    np.testing.assert_array_equal(t.scores, np.array([e[3] for e in events]))  # exact: integers
    W, b = t.hypotheses()
    np.testing.assert_array_equal(W, np.array([h[0] for h in hypotheses]))
    np.testing.assert_array_equal(b, np.array([h[1] for h in hypotheses]))
    np.testing.assert_array_equal(clf.coef_, hypotheses[-1][0])
    np.testing.assert_array_equal(clf.votes_, votes)
    assert clf.n_updates_ == len(updates) and clf.n_iter_ == 6


@pytest.mark.parametrize("seed", [0, 3])
def test_its_four_predictors_are_the_references(seed):
    X, y = integer_three_classes(seed)
    clf = MulticlassPerceptron(epochs=5, random_state=seed).fit(X, y)
    order = np.random.RandomState(seed).permutation(len(X))
    _, _, hypotheses, votes = reference(X, y, order, 5)
    rng = np.random.default_rng(seed + 10)
    X_test = rng.integers(-10, 11, size=(300, 4)).astype(np.float64)
    expected = reference_predictions(hypotheses, votes, X_test)
    got = clf.predict_all(X_test)
    for mode in ("last", "longest", "voted"):
        np.testing.assert_array_equal(got[mode], expected[mode], err_msg=mode)
    # the averaged weights are a division: compare scores within rounding, labels where no
    # two classes' scores are within it
    cast = votes.copy()
    cast[0] = 0
    W = sum(c * h[0] for c, h in zip(cast, hypotheses)) / cast.sum()
    b = sum(c * h[1] for c, h in zip(cast, hypotheses)) / cast.sum()
    scores = X_test @ W.T + b
    np.testing.assert_allclose(clf.decision_function(X_test, "averaged"), scores, rtol=1e-12)
    top2 = np.sort(scores, axis=1)[:, -2:]
    clear = top2[:, 1] - top2[:, 0] > 1e-9 * np.abs(scores).max()
    np.testing.assert_array_equal(got["averaged"][clear], expected["averaged"][clear])


def test_a_tie_is_a_mistake_in_training_and_the_first_class_in_prediction():
    # from zero weights every score ties: the first visit is a mistake whatever its class
    X = np.array([[1.0, 0.0]])
    clf = MulticlassPerceptron(epochs=1, record="all").fit(np.r_[X, -X], [0, 1])
    assert clf.trace_.kind[0] == MISTAKE
    assert clf.trace_.rival[0] == 1 - clf.trace_.true[0]
    # a tie between the true class and another, later in training: a mistake too
    # (after the update on row 0, w_0 = (1, 0), b_0 = 1 and w_1 = (-1, 0), b_1 = -1, so row 1,
    # x = (-1, 0) of class 2, scores 0 in every class)
    X3 = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]])
    clf3 = MulticlassPerceptron(epochs=1, shuffle=False, record="all").fit(X3, [0, 2, 1])
    assert clf3.trace_.scores[1].tolist() == [0.0, 0.0, 0.0]
    assert clf3.trace_.kind[1] == MISTAKE
    assert clf3.trace_.rival[1] == 0  # the first of the highest other scores
    # prediction: equal scores go to the first class in classes_ order
    untrained = MulticlassPerceptron(epochs=1, shuffle=False).fit(X3, ["c", "b", "a"])
    untrained._W[:] = 0.0
    untrained._b[:] = 0.0
    assert untrained.predict([[5.0, 5.0]]).tolist() == ["a"]


def test_two_classes_score_as_scikit_learn_expects():
    X, y = integer_three_classes(4)
    two = y < 2
    clf = MulticlassPerceptron(random_state=0).fit(X[two], y[two])
    d = clf.decision_function(X)
    assert d.shape == (len(X),)
    S = X @ clf.coef_.T + clf.intercept_
    np.testing.assert_array_equal(d, S[:, 1] - S[:, 0])
    np.testing.assert_array_equal(clf.predict(X), np.argmax(S, axis=1))


def test_kesler_vectors_turn_a_machine_into_one_inner_product():
    X, y = integer_three_classes(5, m=30)
    W, b = np.arange(15.0).reshape(3, 5)[:, :4], np.array([1.0, -2.0, 0.5])
    U = np.c_[W, b].ravel()
    Phi = kesler_vectors(X, y, 3)
    S = X @ W.T + b
    others = np.array([[k for k in range(3) if k != c] for c in y])
    expected = S[np.arange(30), y][:, None] - np.take_along_axis(S, others, axis=1)
    np.testing.assert_allclose(Phi @ U, expected.ravel(), rtol=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_separable_three_classes_converge_within_keslers_bound(seed):
    X, y, info = load("three_classes", n_samples=90, margin=0.1, random_state=seed)
    bound, R, gamma = kesler_bound(X, y, 3)
    assert gamma > 0
    # R as the construction defines it, and γ no larger than the true machine's margin allows
    assert R == pytest.approx(np.sqrt(2) * np.sqrt(1 + (X**2).sum(axis=1)).max(), rel=1e-12)
    target = np.c_[info.target.W, info.target.b].ravel()
    true_gamma = (kesler_vectors(X, y, 3) @ target).min() / np.linalg.norm(target)
    assert gamma >= true_gamma * (1 - 1e-6)  # the solver's machine is at least as good
    for eta in (1.0, 0.25):
        clf = MulticlassPerceptron(eta=eta, epochs=200, random_state=seed).fit(X, y)
        assert clf.converged_ and clf.score(X, y) == 1.0
        assert clf.n_updates_ <= bound


def test_the_uncompiled_twin_gives_the_same_bits():
    X, y, _ = load("three_classes", n_samples=60, noise=0.1, random_state=7)
    kwargs = {"epochs": 4, "random_state": 7, "record": "all"}
    compiled = MulticlassPerceptron(**kwargs).fit(X, y)
    with uncompiled():
        plain = MulticlassPerceptron(**kwargs).fit(X, y)
        plain_voted = plain.decision_function(X, "voted")
    np.testing.assert_array_equal(plain.coef_, compiled.coef_)
    np.testing.assert_array_equal(plain.trace_.scores, compiled.trace_.scores)
    np.testing.assert_array_equal(plain_voted, compiled.decision_function(X, "voted"))


def test_partial_fit_continues_as_fit_does():
    X, y = integer_three_classes(6)
    fit = MulticlassPerceptron(epochs=3, shuffle=False, record="all").fit(X, y)
    step = MulticlassPerceptron(shuffle=False, record="all")
    for _ in range(3):
        step.partial_fit(X, y, classes=[0, 1, 2])
    np.testing.assert_array_equal(step.coef_, fit.coef_)
    np.testing.assert_array_equal(step.votes_, fit.votes_)
    np.testing.assert_array_equal(step.trace_.hypotheses()[0], fit.trace_.hypotheses()[0])
    assert step.trace_.epoch.tolist() == fit.trace_.epoch.tolist()
    for mode in ("longest", "voted", "averaged"):
        np.testing.assert_array_equal(
            step.decision_function(X, mode), fit.decision_function(X, mode), err_msg=mode
        )


def test_record_updates_keeps_the_update_events_only():
    X, y = integer_three_classes(8)
    every = MulticlassPerceptron(epochs=3, random_state=1, record="all").fit(X, y).trace_
    updates = MulticlassPerceptron(epochs=3, random_state=1, record="updates").fit(X, y).trace_
    assert not updates.visits and every.visits
    assert (updates.kind == MISTAKE).all()
    np.testing.assert_array_equal(updates.index, every.index[every.kind == MISTAKE])
    np.testing.assert_array_equal(updates.n_updates, np.arange(1, len(updates.rows) + 1))


def test_bad_input_is_refused_in_words():
    clf = MulticlassPerceptron().partial_fit([[0.0], [1.0], [2.0]], [0, 1, 2])
    with pytest.raises(ValueError, match="label 7, which is not among the classes"):
        clf.partial_fit([[1.0]], [7])
    with pytest.raises(ValueError, match="mode must be one of"):
        clf.decision_function([[1.0]], mode="best")
    with pytest.raises(ValueError, match="eta"):
        MulticlassPerceptron(eta=0).fit([[0.0], [1.0]], [0, 1])
