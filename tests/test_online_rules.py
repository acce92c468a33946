"""Thick separator, threshold-relative update, average algorithm, ALMA and PA vs references.

The references add in the order the compiled rules do (left to right), with the same
operations, so their numbers are the rules' own on any CPU: the record is compared exactly.
Two add in another order: the thick separator's dot product is vectorised
(:func:`perceptron_core.vectors.row_dot`) and the average algorithm sums with NumPy; on
whole-number data every sum is exact anyway, on real-valued data the tests check that no
score came near a threshold (:mod:`tests.numerics`).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from perceptron_core.average_algorithm import AverageAlgorithm
from perceptron_core.linear import Perceptron
from perceptron_core.metrics import sparsity
from perceptron_core.rules.alma import ALMA
from perceptron_core.rules.balanced_winnow import BalancedWinnow
from perceptron_core.rules.passive_aggressive import PassiveAggressive
from perceptron_core.rules.paum import PAUMPerceptron
from perceptron_core.rules.pocket import PocketPerceptron
from perceptron_core.rules.relative_update import RelativeUpdatePerceptron
from perceptron_core.rules.thick_separator import ThickSeparatorPerceptron
from perceptron_core.rules.winnow import Winnow, WinnowR
from perceptron_core.trace import CORRECT, MARGIN, MISTAKE
from tests.data import separable
from tests.numerics import NEAR, relative_gap

# --------------------------------------------------------------------------
# References: each rule as its paper writes it, the bias as the weight of a
# constant input xb (1 with fit_intercept, else 0), x_tilde = (x, xb).
# --------------------------------------------------------------------------


def dot(a, b):
    """<a, b> summed left to right (the order the compiled kernels use)."""
    return sum(np.asarray(a, dtype=np.float64) * np.asarray(b, dtype=np.float64))


def augment(x, xb):
    return np.append(np.asarray(x, dtype=np.float64), xb)


def run_online(X, y, order, epochs, step):
    """Visit ``order`` for up to ``epochs`` passes; ``step(x, y)`` returns an event kind.

    Stops after a pass without an update (later passes would change nothing).
    """
    events = []
    for epoch in range(epochs):
        updated = False
        for j in order:
            kind = step(X[j], y[j])
            if kind != "correct":
                events.append((epoch, j, kind))
                updated = True
        if not updated:
            break
    return events


def reference_thick_separator(X, y, order, *, gamma, eta, xb, epochs):
    """The final weights, the events, and how near any score came to the slab's edge,
    relative to the magnitudes it was made of (the rule adds in another order)."""
    w = np.zeros(X.shape[1] + 1)
    closest = np.inf

    def step(x, y):
        nonlocal w, closest
        x = augment(x, xb)
        s = dot(w, x)
        closest = min(closest, float(relative_gap(y * s - gamma, dot(abs(w), abs(x)) + gamma)))
        if y * s <= gamma:  # wrong side, or inside the slab
            kind = "mistake" if (s > 0) != (y > 0) else "margin"
            w = w + eta * y * x
            return kind
        return "correct"

    events = run_online(X, y, order, epochs, step)
    return w, events, closest


def reference_relative_update(X, y, order, *, r, theta, xb, epochs):
    w = np.zeros(X.shape[1] + 1)

    def step(x, y):
        nonlocal w
        x = augment(x, xb)
        s = dot(w, x)
        if (s > theta) != (y > 0):
            w = w + r * (theta - s) / dot(x, x) * x
            return "mistake"
        return "correct"

    events = run_online(X, y, order, epochs, step)
    return w, events


def reference_alma(X, y, order, *, alpha, B, C, xb, epochs):
    """Gentile's ALMA_2(alpha; B, C), Figure 1 of the paper with p = 2."""
    w = np.zeros(X.shape[1] + 1)
    k = 1

    def step(x, y):
        nonlocal w, k
        x = augment(x, xb)
        x_hat = x / math.sqrt(dot(x, x))
        gamma_k = B / math.sqrt(k)
        s = dot(w, x_hat)
        if y * s <= (1 - alpha) * gamma_k:
            kind = "mistake" if (s > 0) != (y > 0) else "margin"
            eta_k = C / math.sqrt(k)
            w = w + eta_k * y * x_hat
            w = w / max(1.0, math.sqrt(dot(w, w)))
            k += 1
            return kind
        return "correct"

    events = run_online(X, y, order, epochs, step)
    return w, events


def reference_passive_aggressive(X, y, order, *, variant, C, xb, epochs):
    """Crammer et al. (2006), Figure 1: PA, PA-I and PA-II."""
    w = np.zeros(X.shape[1] + 1)

    def step(x, y):
        nonlocal w
        x = augment(x, xb)
        s = dot(w, x)
        loss = max(0.0, 1.0 - y * s)
        if loss > 0:
            if variant == "PA":
                tau = loss / dot(x, x)
            elif variant == "PA-I":
                tau = min(C, loss / dot(x, x))
            else:
                tau = loss / (dot(x, x) + 1 / (2 * C))
            kind = "mistake" if (s > 0) != (y > 0) else "margin"
            w = w + tau * y * x
            return kind
        return "correct"

    events = run_online(X, y, order, epochs, step)
    return w, events


def reference_average(X, y):
    """Servedio's average algorithm: w = (1/m) sum_j y_j x_j."""
    return sum(y_j * x_j for x_j, y_j in zip(X.astype(np.float64), y)) / len(y)


NAMES = {CORRECT: "correct", MISTAKE: "mistake", MARGIN: "margin"}


def fitted_events(clf):
    t = clf.trace_
    return [
        (e, j, NAMES[k]) for e, j, k in zip(t.epoch.tolist(), t.index.tolist(), t.kind.tolist())
    ]


def order_of(seed, m):
    return np.random.RandomState(seed).permutation(m)


def small_data(seed, m, n, integer):
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(m, n)).astype(float) if integer else rng.normal(size=(m, n))
    y = np.where(rng.random(m) < 0.5, -1, 1)
    y[:2] = [-1, 1]
    return X, y


shapes = {
    "m": st.integers(2, 25),
    "n": st.integers(1, 6),
    "seed": st.integers(0, 10_000),
    "integer": st.booleans(),
    "fit_intercept": st.booleans(),
    "epochs": st.integers(1, 8),
}


def check_against(clf, X, y, w, events, xb_used=True):
    assert fitted_events(clf) == events
    np.testing.assert_allclose(clf.coef_[0], w[:-1], rtol=1e-9, atol=1e-12)
    if xb_used:
        np.testing.assert_allclose(clf.intercept_[0], w[-1], rtol=1e-9, atol=1e-12)
    # the trace rebuilds the final hypothesis
    W, theta = clf.trace_.hypotheses()
    np.testing.assert_allclose(W[-1], clf.coef_[0], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(-theta[-1], clf.intercept_[0], rtol=1e-9, atol=1e-12)


# --------------------------------------------------------------------------
# Fast = reference
# --------------------------------------------------------------------------


@pytest.mark.numerics
@given(gamma=st.sampled_from([0.0, 0.5, 3.0]), eta=st.sampled_from([1.0, 0.25]), **shapes)
def test_thick_separator_matches_reference(gamma, eta, m, n, seed, integer, fit_intercept, epochs):
    X, y = small_data(seed, m, n, integer)
    clf = ThickSeparatorPerceptron(
        gamma=gamma,
        eta=eta,
        fit_intercept=fit_intercept,
        epochs=epochs,
        random_state=seed,
        record="updates",
    ).fit(X, y)
    w, events, closest = reference_thick_separator(
        X, y, order_of(seed, m), gamma=gamma, eta=eta, xb=float(fit_intercept), epochs=epochs
    )
    assume(integer or closest > NEAR)  # whole numbers, dyadic eta and gamma: exact sums
    check_against(clf, X, y, w, events)
    assert clf.n_updates_ == len(events)
    assert clf.n_mistakes_ == sum(kind == "mistake" for *_, kind in events)


@pytest.mark.numerics
@given(r=st.sampled_from([1.0, 1.5, 2.0, 0.7]), theta=st.sampled_from([1.0, 0.3]), **shapes)
def test_relative_update_matches_reference(r, theta, m, n, seed, integer, fit_intercept, epochs):
    X, y = small_data(seed, m, n, integer)
    if not fit_intercept:
        X[(X == 0).all(axis=1)] = 1.0  # the reference (like the formula) divides by <x, x>
    clf = RelativeUpdatePerceptron(
        r=r,
        theta=theta,
        fit_intercept=fit_intercept,
        epochs=epochs,
        random_state=seed,
        record="updates",
    ).fit(X, y)
    w, events = reference_relative_update(
        X, y, order_of(seed, m), r=r, theta=theta, xb=float(fit_intercept), epochs=epochs
    )
    assert fitted_events(clf) == events
    np.testing.assert_allclose(clf.coef_[0], w[:-1], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(clf.intercept_[0], w[-1] - theta, rtol=1e-9, atol=1e-12)


@pytest.mark.numerics
@given(
    alpha=st.sampled_from([1.0, 0.9, 0.5, 0.1]),
    B=st.sampled_from([None, 1.0]),
    C=st.sampled_from([math.sqrt(2), 0.5]),
    **shapes,
)
def test_alma_matches_reference(alpha, B, C, m, n, seed, integer, fit_intercept, epochs):
    X, y = small_data(seed, m, n, integer)
    if not fit_intercept:
        X[(X == 0).all(axis=1)] = 1.0  # x / ||x|| needs x != 0
    clf = ALMA(
        alpha=alpha,
        B=B,
        C=C,
        fit_intercept=fit_intercept,
        epochs=epochs,
        random_state=seed,
        record="updates",
    ).fit(X, y)
    w, events = reference_alma(
        X,
        y,
        order_of(seed, m),
        alpha=alpha,
        B=1 / alpha if B is None else B,
        C=C,
        xb=float(fit_intercept),
        epochs=epochs,
    )
    check_against(clf, X, y, w, events)
    assert np.hypot(np.linalg.norm(clf.coef_), clf.intercept_[0]) <= 1 + 1e-12
    assert clf.n_updates_k_[0] == len(events) + 1
    assert len(clf.trace_.weight_history) == len(events) + 1


@pytest.mark.numerics
@given(
    variant=st.sampled_from(["PA", "PA-I", "PA-II"]),
    C=st.sampled_from([0.05, 1.0, 10.0]),
    **shapes,
)
def test_passive_aggressive_matches_reference(
    variant, C, m, n, seed, integer, fit_intercept, epochs
):
    X, y = small_data(seed, m, n, integer)
    if not fit_intercept:
        X[(X == 0).all(axis=1)] = 1.0  # the formulas divide by ||x||^2
    clf = PassiveAggressive(
        variant=variant,
        C=C,
        fit_intercept=fit_intercept,
        epochs=epochs,
        random_state=seed,
        record="updates",
    ).fit(X, y)
    w, events = reference_passive_aggressive(
        X, y, order_of(seed, m), variant=variant, C=C, xb=float(fit_intercept), epochs=epochs
    )
    check_against(clf, X, y, w, events)


@pytest.mark.numerics
@given(
    m=st.integers(2, 40), n=st.integers(1, 6), seed=st.integers(0, 10_000), integer=st.booleans()
)
def test_average_algorithm_matches_reference(m, n, seed, integer):
    X, y = small_data(seed, m, n, integer)
    clf = AverageAlgorithm(record="all").fit(X, y)
    np.testing.assert_allclose(clf.coef_[0], reference_average(X, y), rtol=1e-12, atol=1e-14)
    assert clf.intercept_[0] == 0
    # on-line view: the running sum of the examples before j predicts j
    running, wrong, closest = np.zeros(n), 0, np.inf
    for j in range(m):
        score = dot(running, X[j])
        closest = min(closest, float(relative_gap(score, dot(abs(running), abs(X[j])))))
        wrong += (score > 0) != (y[j] > 0)
        running = running + y[j] * X[j]
    assume(integer or closest > NEAR)  # NumPy adds in another order; whole numbers: exact
    assert clf.n_mistakes_ == wrong
    W, _ = clf.trace_.hypotheses()
    np.testing.assert_allclose(W[-1], running, rtol=1e-12, atol=1e-12)
    # partial_fit in two batches gives the same average
    half = AverageAlgorithm().partial_fit(X[: m // 2], y[: m // 2], classes=[-1, 1])
    half.partial_fit(X[m // 2 :], y[m // 2 :])
    np.testing.assert_allclose(half.coef_, clf.coef_, rtol=1e-12, atol=1e-14)


# --------------------------------------------------------------------------
# What each rule promises
# --------------------------------------------------------------------------


#: The separable data below (tests.data.separable) fill the square [-3, 3]² with a gap of
#: 0.5 on each side of the line: features of a few units, as the rules' defaults expect.
SEPARABLE = {"margin": 0.5 / 3, "scale": 3.0}


def test_thick_separator_with_gamma_zero_is_the_textbook_perceptron_and_gamma_buys_margin():
    X, y, _, _ = separable(0, **SEPARABLE)
    plain = ThickSeparatorPerceptron(gamma=0.0, random_state=0).fit(X, y)
    thick = ThickSeparatorPerceptron(gamma=20.0, random_state=0).fit(X, y)
    for clf in (plain, thick):
        assert clf.score(X, y) == 1.0

    def geometric(c):
        return (y * c.decision_function(X)).min() / np.linalg.norm(c.coef_)

    assert geometric(thick) > geometric(plain)
    assert geometric(thick) > 0.6 * 0.5  # a good share of the true margin 0.5


def test_relative_update_puts_the_example_where_the_formula_says():
    X, y = np.array([[2.0, 1.0]]), np.array([1])
    clf = RelativeUpdatePerceptron(r=1.5, theta=1.0, epochs=1, record="updates")
    clf.partial_fit(X, y, classes=[-1, 1])
    # old score 0 (w = 0): new score = theta + (r - 1)(theta - 0) = 1.5, i.e. decision 0.5
    assert clf.decision_function(X)[0] == pytest.approx(0.5)
    assert clf.trace_.kind.tolist() == [MISTAKE]


def test_relative_update_may_never_stop_on_separable_data_as_its_docstring_says():
    """Boolean features labelled by the first: separable (the perceptron learns them), but
    with this visiting order the rule leaves eight positive rows exactly on the threshold,
    mistakes whose step is zero, and runs every epoch it is given."""
    rng = np.random.default_rng(2)
    X = rng.integers(0, 2, size=(40, 3)).astype(float)
    y = (X[:, 0] > 0).astype(int)
    assert Perceptron(random_state=2).fit(X, y).score(X, y) == 1.0
    fits = [RelativeUpdatePerceptron(epochs=e, random_state=2).fit(X, y) for e in (10, 20)]
    for clf in fits:
        assert clf.n_iter_ == clf.epochs and clf.score(X, y) == 0.8
        assert clf.n_updates_ == 8 * clf.epochs + 1  # eight mistakes an epoch, forever
        assert (clf.decision_function(X)[y == 1].min()) == 0.0  # exactly on the threshold
    assert np.array_equal(fits[0].coef_, fits[1].coef_)  # ... and they move nothing
    # the docstring's count: three visiting orders of six end like this
    stuck = [RelativeUpdatePerceptron(epochs=50, random_state=s).fit(X, y) for s in range(6)]
    assert sum(clf.n_iter_ == 50 for clf in stuck) == 3


def test_passive_aggressive_variants_differ_as_the_paper_says():
    X, y = np.array([[3.0, 4.0]]), np.array([1])  # ||x~||^2 = 26 with the bias input
    steps = {}
    for variant in ("PA", "PA-I", "PA-II"):
        clf = PassiveAggressive(variant=variant, C=0.01, epochs=1).partial_fit(X, y, [-1, 1])
        steps[variant] = clf.intercept_[0]  # b = tau * y
    assert steps["PA"] == pytest.approx(1 / 26)  # loss 1 at w = 0: the margin is met exactly
    assert steps["PA-I"] == pytest.approx(0.01)  # capped at C
    assert steps["PA-II"] == pytest.approx(1 / (26 + 1 / 0.02))
    pa = PassiveAggressive(variant="PA", epochs=1).partial_fit(X, y, [-1, 1])
    assert pa.decision_function(X)[0] == pytest.approx(1.0)


def test_alma_reaches_its_margin_guarantee():
    # Gentile: on separable data ALMA ends with margin >= (1 - alpha) gamma*, measured in
    # its own space (normalised inputs, bias input included). The generating hyperplane's
    # margin there is a lower bound on gamma*.
    X, y, w, theta = separable(1, **SEPARABLE)
    Xa = np.hstack([X, np.ones((len(X), 1))])
    X_hat = Xa / np.linalg.norm(Xa, axis=1, keepdims=True)

    def margin(w):
        return (y * (X_hat @ w)).min() / np.linalg.norm(w)

    gamma_true = margin(np.append(w, -theta))
    margins = []
    for alpha in (1.0, 0.5, 0.2):
        clf = ALMA(alpha=alpha, epochs=1000, random_state=0).fit(X, y)
        assert clf.n_iter_ < 1000  # stopped: a pass without update
        margins.append(margin(np.append(clf.coef_[0], clf.intercept_[0])))
        assert margins[-1] >= (1 - alpha) * gamma_true
    assert margins[0] < margins[1] < margins[2]


def test_multiclass_is_one_vs_rest_and_traces_every_class():
    rng = np.random.default_rng(0)
    centers = np.array([[0.0, 4.0], [4.0, -2.0], [-4.0, -2.0]])
    labels = rng.integers(0, 3, size=90)
    X = centers[labels] + rng.normal(size=(90, 2))
    names = np.array(["x", "y", "z"])[labels]
    for cls in (
        ThickSeparatorPerceptron,
        RelativeUpdatePerceptron,
        ALMA,
        PassiveAggressive,
        AverageAlgorithm,
    ):
        clf = cls(record="all").fit(X, names)
        assert set(clf.trace_) == {"x", "y", "z"}
        assert clf.coef_.shape == (3, 2) and clf.update_counts_.shape == (3, 90)
        assert clf.score(X, names) > 0.9, cls.__name__
        for c, trace in clf.trace_.items():
            W, _theta = trace.hypotheses()
            k = list(clf.classes_).index(c)
            scale = len(X) if cls is AverageAlgorithm else 1  # its trace holds the sums
            np.testing.assert_allclose(W[-1], clf.coef_[k] * scale, rtol=1e-9, atol=1e-9)


def test_record_modes_and_sparsity():
    X, y, _, _ = separable(3, m=60, **SEPARABLE)  # a set PA separates within 100 epochs
    clf_all = PassiveAggressive(random_state=3, record="all").fit(X, y)
    clf_upd = PassiveAggressive(random_state=3, record="updates").fit(X, y)
    clf_none = PassiveAggressive(random_state=3).fit(X, y)
    assert clf_none.trace_ is None
    np.testing.assert_array_equal(clf_all.coef_, clf_none.coef_)
    assert clf_all.trace_.n_events == clf_all.n_iter_ * len(X)
    assert clf_upd.trace_.n_events == clf_upd.n_updates_ == clf_all.trace_.total_updates
    per_epoch_all = clf_all.trace_.mistakes_per_epoch()  # every epoch is visible
    per_epoch_upd = clf_upd.trace_.mistakes_per_epoch()  # up to the last epoch with an update
    assert len(per_epoch_all) == clf_all.n_iter_ and per_epoch_all[-1] == 0  # stopped: clean
    np.testing.assert_array_equal(per_epoch_all[: len(per_epoch_upd)], per_epoch_upd)
    assert clf_all.update_counts_.sum() == clf_all.n_updates_
    unused = sparsity(clf_all)
    assert unused == int((clf_all.update_counts_[0] == 0).sum()) and 0 < unused < len(X)


def test_fit_equals_epochs_of_partial_fit_on_the_permuted_data():
    X, y, _, _ = separable(4, m=50, **SEPARABLE)
    order = order_of(7, len(y))
    fit = ThickSeparatorPerceptron(gamma=2.0, epochs=5, random_state=7).fit(X, y)
    online = ThickSeparatorPerceptron(gamma=2.0)
    for _ in range(5):
        online.partial_fit(X[order], y[order], classes=[-1, 1])
    np.testing.assert_allclose(fit.coef_, online.coef_)
    np.testing.assert_allclose(fit.intercept_, online.intercept_)


def test_same_seed_same_model_and_errors_in_words():
    X, y, _, _ = separable(5, m=40, **SEPARABLE)
    a = ALMA(random_state=11).fit(X, y)
    b = ALMA(random_state=11).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    with pytest.raises(ValueError, match=r"ALMA: alpha \(the approximation parameter"):
        ALMA(alpha=0).fit(X, y)
    with pytest.raises(ValueError, match=r"variant .* 'PA', 'PA-I' or 'PA-II'|'PA' or 'PA-I'"):
        PassiveAggressive(variant="PA-III").fit(X, y)
    with pytest.raises(ValueError, match=r"r \(the relaxation factor\) must be"):
        RelativeUpdatePerceptron(r=2.5).fit(X, y)
    with pytest.raises(ValueError, match=r"gamma .* at least 0"):
        ThickSeparatorPerceptron(gamma=-1).fit(X, y)
    with pytest.raises(ValueError, match="NaN or infinite"):
        PassiveAggressive().fit(np.array([[np.nan, 1.0], [0.0, 1.0]]), [0, 1])


def test_every_rule_file_is_in_the_registry():
    """``dispatch.RULES`` finds every rule's step in ``steps/`` (``steps/kw.py``, the KW
    trainer's, defines none), and each has its estimator's file of the same name."""
    import pkgutil

    from perceptron_core import rules, steps
    from perceptron_core.engine import dispatch

    files = {module.name for module in pkgutil.iter_modules(rules.__path__)}
    step_files = {module.name for module in pkgutil.iter_modules(steps.__path__)} - {"kw"}
    registered = [rule.__name__.rpartition(".")[2] for rule in dispatch.RULES]
    assert sorted(registered) == sorted(files) == sorted(step_files) == sorted(rules.NAMES)
    numbers = [dispatch.number(rule.__name__) for rule in dispatch.RULES]
    assert numbers == list(range(len(dispatch.RULES)))


def test_a_rule_imported_from_the_package_is_its_estimators_module_in_a_fresh_process():
    """``from perceptron_core.rules import paum`` is the estimator module, whatever was
    imported before it: the package binds no step under a rule's bare name."""
    import subprocess
    import sys

    from perceptron_core import rules

    script = (
        "import importlib, perceptron_core.rules as rules\n"
        "for name in rules.NAMES:\n"
        "    module = getattr(importlib.import_module('perceptron_core.rules'), name, None)\n"
        "    assert module is None or module.__name__ == f'perceptron_core.rules.{name}', name\n"
        "    exec(f'from perceptron_core.rules import {name} as got')\n"
        "    assert got.__name__ == f'perceptron_core.rules.{name}', got.__name__\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert rules.NAMES and "paum" in rules.NAMES  # the loop above saw the rules


def test_every_rule_file_defines_the_estimators_that_run_its_step():
    """A rule's estimators live in the file named as its step, name it, and show it."""
    import importlib

    from perceptron_core._online import OnlineLinearClassifier
    from perceptron_core.engine import dispatch
    from tests.test_sklearn_conformance import public_classes

    for number, rule in enumerate(dispatch.RULES):
        module = importlib.import_module(f"perceptron_core.rules.{dispatch.NAMES[number]}")
        estimators = public_classes(module, OnlineLinearClassifier)
        assert estimators, module.__name__
        assert {estimator._rule for estimator in estimators} == {module.__name__}
        assert dispatch.number(module.__name__) == number
        assert module.step is rule.step


@pytest.mark.parametrize(
    "cls",
    [
        ThickSeparatorPerceptron,
        PassiveAggressive,
        RelativeUpdatePerceptron,
        ALMA,
        AverageAlgorithm,
        PAUMPerceptron,
        PocketPerceptron,
        Winnow,
        WinnowR,
        BalancedWinnow,
    ],
    ids=lambda cls: cls.__name__,
)
def test_each_parameter_is_declared_once_for_constructor_and_checks(cls):
    """The constructor scikit-learn reads and the table ``fit`` checks come from one list."""
    import inspect

    signature = inspect.signature(cls).parameters
    assert set(signature) == set(cls._parameters)
    assert all(p.kind is p.KEYWORD_ONLY for p in signature.values())
    estimator = cls()
    for name, row in cls._parameters.items():
        assert getattr(estimator, name) == signature[name].default
        row.check(cls.__name__, name, signature[name].default)  # every default is accepted
    changed = cls(record="all")
    assert changed.get_params()["record"] == "all" and estimator.record == "none"
