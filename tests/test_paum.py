"""PAUM against a line-by-line NumPy reference of docs/algorithms.md §2; its teaching claims.

The rule's dot product is vectorised (:func:`perceptron_core.vectors.row_dot`), the
reference's is NumPy's: the tests demand the same updates where no score came near a
margin (:mod:`tests.numerics`).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from perceptron_core.datasets import make_imbalanced
from perceptron_core.metrics import macro_averaged_precision, precision_recall_curve, sparsity
from perceptron_core.rules.paum import PAUMPerceptron
from tests.data import noisy_data
from tests.numerics import NEAR, relative_gap
from tests.reference import multiclass_clearance

# --------------------------------------------------------------------------
# The reference: Li et al. (2002), Algorithm 1, as written, one binary problem, y in {-1, +1}
# --------------------------------------------------------------------------


def reference_paum(X, y, *, tau_neg, tau_pos, eta, lam, max_epochs, order):
    """PAUM(tau_-1, tau_+1) with the kernel-form λ-trick; returns the whole run, with
    ``closest``: how near any score came to its margin, relative to what it was made of."""
    X = np.asarray(X, dtype=np.float64)
    m, n = X.shape
    R2 = max(x @ x for x in X)  # R = max ||x_j||
    tau = {-1: tau_neg, 1: tau_pos}
    w, b = np.zeros(n), 0.0
    a = np.zeros(m, dtype=int)  # updates per example
    updated, kinds, epochs, converged = [], [], 0, False
    closest = np.inf
    for _ in range(max_epochs):
        epochs += 1
        any_update = False
        for j in order:
            x_j, y_j = X[j], int(y[j])
            raw = w @ x_j + b
            f = raw + lam * eta * a[j] * y_j  # k(x, x') + lam [x == x'], own term only
            magnitude = np.abs(w) @ np.abs(x_j) + abs(b) + lam * eta * a[j] + abs(tau[y_j])
            gaps = relative_gap(np.array([y_j * f, y_j * raw]) - tau[y_j], magnitude)
            closest = min(closest, float(gaps.min()))
            if y_j * f <= tau[y_j]:
                kinds.append("mistake" if (f > 0) != (y_j > 0) else "margin")
                w = w + eta * y_j * x_j
                b = b + eta * y_j * R2
                a[j] += 1
                updated.append(j)
                any_update = True
            elif y_j * raw <= tau[y_j]:
                kinds.append("rescued")
            else:
                kinds.append("correct")
        if not any_update:  # an epoch without an update: stop
            converged = True
            break
    return dict(
        w=w,
        b=b,
        a=a,
        updated=np.array(updated, dtype=int),
        kinds=kinds,
        epochs=epochs,
        converged=converged,
        closest=closest,
    )


def last_hypothesis(ref) -> dict:
    """The reference's final ``(w, b)`` as :func:`tests.reference.multiclass_clearance`
    reads a model (threshold ``-b``)."""
    return dict(W=ref["w"][None, :], theta=np.array([-ref["b"]]), votes=np.zeros(1), longest=0)


def imbalanced(rng, n_neg, n_pos):
    """Negatives N(0, I), a rare positive cluster N(2.5, 0.7^2 I) in 2-D."""
    X = np.vstack([rng.normal(0.0, 1.0, (n_neg, 2)), rng.normal(2.5, 0.7, (n_pos, 2))])
    return X, np.r_[np.full(n_neg, -1), np.ones(n_pos, dtype=int)]


switches = st.fixed_dictionaries(
    {
        "tau_neg": st.sampled_from([-2.0, -0.5, 0.0, 0.5, 3.0]),
        "tau_pos": st.sampled_from([-1.0, 0.0, 1.0, 5.0, 20.0]),
        "eta": st.sampled_from([0.1, 0.5, 1.0]),
        "lam": st.sampled_from([0.0, 0.5, 2.0, 10.0]),
        "max_epochs": st.integers(1, 15),
        "shuffle": st.booleans(),
    }
)


@pytest.mark.numerics
@given(switches, st.integers(0, 10_000), st.integers(4, 40), st.integers(1, 5))
def test_kernel_matches_reference(params, seed, m, n):
    X, y = noisy_data(seed, m, n)
    clf = PAUMPerceptron(random_state=seed, record="all", **params).fit(X, y)
    order = np.random.RandomState(seed).permutation(m) if params["shuffle"] else np.arange(m)
    ref = reference_paum(X, y, order=order, **{k: v for k, v in params.items() if k != "shuffle"})
    assume(ref["closest"] > NEAR)
    trace = clf.trace_
    np.testing.assert_array_equal(trace.rows, ref["updated"])
    assert list(trace.kind_names()) == ref["kinds"]
    np.testing.assert_array_equal(clf.update_counts_[0], ref["a"])
    assert clf.n_iter_ == ref["epochs"]
    assert clf.converged_ == ref["converged"]
    np.testing.assert_allclose(clf.coef_[0], ref["w"], atol=1e-9)
    np.testing.assert_allclose(clf.intercept_[0], ref["b"], atol=1e-9)
    # the trace replays the same hypotheses (threshold = -b)
    W, theta = trace.hypotheses()
    np.testing.assert_allclose(W[-1], ref["w"], atol=1e-9)
    np.testing.assert_allclose(-theta[-1], ref["b"], atol=1e-9)
    assert clf.sparsity_ == int(np.sum(ref["a"] == 0))


@pytest.mark.numerics
@given(switches, st.integers(0, 10_000))
def test_multiclass_is_one_reference_run_per_class(params, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(45, 3))
    y = rng.integers(0, 3, size=45)
    y[:3] = [0, 1, 2]
    labels = np.array(["ant", "bee", "cat"])[y]
    clf = PAUMPerceptron(random_state=seed, **params).fit(X, labels)
    order = np.random.RandomState(seed).permutation(45) if params["shuffle"] else np.arange(45)
    kwargs = {k: v for k, v in params.items() if k != "shuffle"}
    refs = [reference_paum(X, np.where(y == c, 1, -1), order=order, **kwargs) for c in range(3)]
    assume(min(ref["closest"] for ref in refs) > NEAR)
    for c, ref in enumerate(refs):
        np.testing.assert_allclose(clf.coef_[c], ref["w"], atol=1e-9)
        np.testing.assert_array_equal(clf.update_counts_[c], ref["a"])
    assert clf.n_iter_ == max(ref["epochs"] for ref in refs)
    assert clf.converged_ == all(ref["converged"] for ref in refs)
    np.testing.assert_array_equal(clf.sparsity_, [np.sum(ref["a"] == 0) for ref in refs])
    scores = np.column_stack([X @ ref["w"] + ref["b"] for ref in refs])
    assume(multiclass_clearance([last_hypothesis(ref) for ref in refs], X, "last") > NEAR)
    np.testing.assert_array_equal(clf.predict(X), clf.classes_[scores.argmax(axis=1)])


def test_stops_after_an_epoch_without_updates():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 2))
    y = np.where(X @ [1.0, -1.0] > 0, 1, -1)
    clf = PAUMPerceptron(tau_pos=0.0, max_epochs=1000, random_state=0, record="updates").fit(X, y)
    assert clf.converged_ and clf.n_iter_ < 1000
    assert clf.score(X, y) == 1.0
    assert clf.trace_.epoch.max() == clf.n_iter_ - 2  # the last epoch made no update


def test_negative_margins_tolerate_errors():
    # with tau_neg = tau_pos < 0 the perceptron accepts a slightly wrong boundary
    X, y = noisy_data(7, 200, 3)
    strict = PAUMPerceptron(tau_neg=0.0, tau_pos=0.0, random_state=0).fit(X, y)
    lax = PAUMPerceptron(tau_neg=-50.0, tau_pos=-50.0, random_state=0).fit(X, y)
    assert lax.n_updates_ < strict.n_updates_
    assert lax.sparsity_ > strict.sparsity_


def test_partial_fit_epochs_equal_fit():
    X, y = noisy_data(11, 80, 4)
    params = dict(tau_neg=-0.5, tau_pos=4.0, lam=1.0, shuffle=False)
    fitted = PAUMPerceptron(max_epochs=5, **params).fit(X, y)
    online = PAUMPerceptron(**params)
    for _ in range(5):
        online.partial_fit(X, y, classes=[-1, 1])
    np.testing.assert_allclose(online.coef_, fitted.coef_)
    np.testing.assert_allclose(online.intercept_, fitted.intercept_)
    np.testing.assert_array_equal(online.update_counts_, fitted.update_counts_)
    with pytest.raises(ValueError, match="same rows"):
        online.partial_fit(X[:10], y[:10])


def test_lambda_term_is_proportional_to_the_update_count():
    # One example, always on the wrong side of a fixed boundary it cannot move
    # alone: its own term lam * eta * a_j grows by lam * eta per update, so
    # after k updates it is rescued; KW's indicator form would push once.
    X, y = noisy_data(5, 100, 2)
    few = PAUMPerceptron(tau_pos=0.0, lam=0.0, max_epochs=30, random_state=1).fit(X, y)
    many = PAUMPerceptron(tau_pos=0.0, lam=50.0, max_epochs=30, random_state=1, record="all").fit(
        X, y
    )
    assert many.update_counts_.max() < few.update_counts_.max()
    assert "rescued" in set(many.trace_.kind_names())


def test_uneven_margins_recall_the_rare_class():
    # The point of PAUM (Li et al. 2002, section 3.2): on a 1:20 set, tau_+1 > tau_-1 raises the
    # recall of the rare (positive) class on new data.
    recalls = {"even": [], "uneven": []}
    for seed in range(5):
        rng = np.random.default_rng(seed)
        X, y = imbalanced(rng, 400, 20)
        X_test, y_test = imbalanced(rng, 4000, 200)
        for name, taus in [("even", (0.0, 0.0)), ("uneven", (-1.0, 20.0))]:
            clf = PAUMPerceptron(tau_neg=taus[0], tau_pos=taus[1], random_state=0).fit(X, y)
            predicted = clf.predict(X_test)
            recalls[name].append(np.mean(predicted[y_test == 1] == 1))
            if seed == 2:  # the seeded set of the docstring
                precision, recall, _ = precision_recall_curve(
                    y_test, clf.decision_function(X_test)
                )
                assert recall[-1] == 1.0 and 0 < precision.min() <= precision.max() <= 1
    assert recalls["uneven"][2] > recalls["even"][2] + 0.1
    assert np.mean(recalls["uneven"]) > np.mean(recalls["even"]) + 0.03


def test_metrics_read_the_fitted_model():
    X, y, _, _ = make_imbalanced(150, positive_rate=0.1, noise=0.1, random_state=2)
    labels = np.where(y == 1, "rare", "common")
    clf = PAUMPerceptron(tau_neg=-1.0, tau_pos=10.0, random_state=0).fit(X, labels)
    assert clf.sparsity_ == sparsity(clf.update_counts_[0]) == sparsity(clf)[0]
    map_ = macro_averaged_precision(labels, clf.decision_function(X), classes=clf.classes_)
    assert 0.0 < map_ <= 1.0


@pytest.mark.parametrize(
    "params, fragment",
    [
        (dict(eta=0.0), "eta (the learning rate) must be a number greater than 0"),
        (dict(lam=-1.0), "lam (the strength of the λ-trick"),
        (dict(max_epochs=0), "max_epochs"),
        (dict(tau_pos="big"), "tau_pos (the margin required of positive examples) must be a"),
    ],
)
def test_parameter_errors_speak_to_students(params, fragment):
    with pytest.raises(ValueError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        PAUMPerceptron(**params).fit([[0.0, 1.0], [1.0, 0.0]], [0, 1])
