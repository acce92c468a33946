"""Properties every fit of the KW perceptron must have, whatever the data."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptron_core import KWPerceptron, Perceptron
from perceptron_core.modes import MODES
from perceptron_core.trace import MARGIN, MISTAKE, RESCUED
from tests.data import separable


@given(st.integers(0, 10_000), st.sampled_from([0.25, 1.0, 4.0]))
def test_novikoff_bound_on_separable_data(seed, C):
    # With theta_init = 0 the threshold is the weight of an extra constant
    # coordinate sqrt(C): <w,x> - theta = <(w, -theta/sqrt(C)), (x, sqrt(C))>.
    X, y, u, b = separable(seed, m=150, margin=0.1)
    R = np.sqrt((X**2).sum(axis=1) + C).max()
    u_aug = np.append(u, -b / np.sqrt(C))
    gamma = (y * (X @ u - b)).min() / np.linalg.norm(u_aug)
    bound = (R / gamma) ** 2
    epochs = int(bound) + 2
    clf = Perceptron(
        theta_init=0.0, C=C, eta=1.0, epochs=min(epochs, 3000), random_state=seed
    ).fit(X, y)
    assert clf.n_updates_ <= bound
    if epochs <= 3000:
        assert clf.updates_per_epoch_[-1] == 0  # converged
        assert clf.score(X, y) == 1.0


def test_same_seed_same_model_other_seed_other_order():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 6))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=200) > 0, "yes", "no")
    kw = dict(tau=0.5, lam=0.25, epochs=10, record="updates")
    a = KWPerceptron(random_state=7, **kw).fit(X, y)
    b = KWPerceptron(random_state=7, **kw).fit(X, y)
    c = KWPerceptron(random_state=8, **kw).fit(X, y)
    for mode in MODES:
        np.testing.assert_array_equal(
            a.decision_function(X, mode=mode), b.decision_function(X, mode=mode)
        )
    np.testing.assert_array_equal(a.votes_, b.votes_)
    assert not np.array_equal(a._order, c._order)


@pytest.mark.numerics
@pytest.mark.slow  # each storage type compiles the loops again
@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.uint8, np.int32, np.bool_])
def test_storage_types_give_the_float64_result(dtype):
    rng = np.random.default_rng(1)
    if dtype == np.bool_:
        values = rng.integers(0, 2, size=(120, 9))
    elif dtype == np.uint8:
        values = rng.integers(0, 256, size=(120, 9))
    else:
        values = rng.integers(-10, 11, size=(120, 9))
    y = np.where(values @ rng.normal(size=9) > np.median(values @ rng.normal(size=9)), 1, 0)
    y[:2] = [0, 1]
    X = values.astype(dtype)
    # record="updates": the votes and the voted mode need the update record. Whole numbers
    # and a dyadic eta: every score is exact, however the dot product is vectorised for each
    # storage type, so both runs update alike by arithmetic.
    settings = {"eta": 0.5, "tau": 0.25, "epochs": 5, "random_state": 0, "record": "updates"}
    ref = KWPerceptron(**settings).fit(values.astype(np.float64), y)
    got = KWPerceptron(**settings).fit(X, y)
    np.testing.assert_array_equal(got.votes_, ref.votes_)
    np.testing.assert_array_equal(got.coef_, ref.coef_)
    for mode in MODES:  # the same updates; sums of support vectors may differ in rounding
        np.testing.assert_allclose(
            got.decision_function(X, mode=mode),
            ref.decision_function(values, mode=mode),
            rtol=1e-12,
        )


def test_int8_storage_is_kept_for_the_support_vectors():
    rng = np.random.default_rng(2)
    X = rng.integers(-10, 11, size=(300, 20)).astype(np.int8)
    y = np.where(X.astype(float) @ rng.normal(size=20) > 0, 1, -1)
    clf = KWPerceptron(epochs=3, random_state=0, predict_with="voted").fit(X, y)
    assert clf._hyp.support.vectors.dtype == np.int8


@pytest.mark.numerics
def test_shuffling_features_permutes_coef_and_nothing_else():
    # integer data, eta and thresholds: every sum is exact, whatever its order
    rng = np.random.default_rng(3)
    X = rng.integers(-10, 11, size=(150, 7)).astype(np.float64)
    y = np.where(X @ rng.normal(size=7) + rng.normal(size=150) * 3 > 0, 1, -1)
    perm = rng.permutation(7)
    kw = dict(
        eta=1.0,
        theta_init=40.0,
        C=8.0,
        tau=0.5,
        lam=1.0,
        epochs=6,
        random_state=4,
        record="updates",
    )
    a = KWPerceptron(**kw).fit(X, y)
    b = KWPerceptron(**kw).fit(X[:, perm], y)
    np.testing.assert_array_equal(b.votes_, a.votes_)
    for mode in ("last", "longest", "averaged"):
        a.predict_with = b.predict_with = mode
        np.testing.assert_allclose(b.coef_, a.coef_[:, perm], rtol=1e-12)
        np.testing.assert_allclose(b.intercept_, a.intercept_, rtol=1e-12)
    for mode in MODES:
        np.testing.assert_array_equal(b.predict_all(X[:, perm])[mode], a.predict_all(X)[mode])


@pytest.mark.numerics
def test_partial_fit_epochs_equal_one_fit():
    # three features: every vectorisation of the dot product adds them in order, so fit (a
    # permuted copy) and partial_fit (the rows in place) make the same sums
    rng = np.random.default_rng(5)
    X = rng.normal(size=(90, 3))
    y = rng.integers(0, 3, size=90)
    kw = dict(tau=0.5, lam=0.5, alpha_bound=4, random_state=2, predict_with="voted")
    whole = KWPerceptron(epochs=4, **kw).fit(X, y)
    steps = KWPerceptron(**kw)
    for _ in range(4):
        steps.partial_fit(X, y, classes=[0, 1, 2])
    assert steps.n_iter_ == 4 and steps.n_updates_ == whole.n_updates_
    for a, b in zip(steps.votes_, whole.votes_):
        np.testing.assert_array_equal(a, b)
    for mode in MODES:
        np.testing.assert_allclose(
            steps.decision_function(X, mode=mode), whole.decision_function(X, mode=mode)
        )
    # the same rows seen again reuse their stored copies
    assert len(steps._hyp.support) == len(whole._hyp.support) <= len(X)


def test_partial_fit_streams_batches_of_any_size():
    rng = np.random.default_rng(6)
    X = rng.normal(size=(300, 4))
    y = np.where(X[:, 0] - X[:, 1] > 0, 1, -1)
    clf = KWPerceptron(random_state=0)
    for start in range(0, 300, 70):
        clf.partial_fit(X[start : start + 70], y[start : start + 70], classes=[-1, 1])
    assert clf.score(X, y) > 0.9
    with pytest.raises(ValueError, match="same rows in the same order"):
        KWPerceptron(lam=0.5).partial_fit(X[:50], y[:50]).partial_fit(X[:60], y[:60])
    with pytest.raises(ValueError, match="traces one training set"):
        KWPerceptron(record="updates").partial_fit(X[:50], y[:50]).partial_fit(
            X[50:100], y[50:100]
        )
    traced = KWPerceptron(record="updates", random_state=0)
    for _ in range(3):
        traced.partial_fit(X[:50], y[:50])
    whole = KWPerceptron(record="updates", epochs=3, random_state=0).fit(X[:50], y[:50])
    np.testing.assert_allclose(traced.trace_.hypotheses()[0], whole.trace_.hypotheses()[0])


@pytest.mark.numerics
def test_trace_agrees_with_the_fitted_model():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(60, 2))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=60) > 0, 1, -1)
    clf = KWPerceptron(
        tau=0.5, lam=0.5, alpha_bound=3, epochs=7, random_state=0, record="all"
    ).fit(X, y)
    t = clf.trace_
    assert t.n_events == 7 * 60 and t.visits
    np.testing.assert_array_equal(t.mistakes_per_epoch(), clf.updates_per_epoch_)
    W, theta = t.hypotheses()
    np.testing.assert_allclose(W[-1], clf.coef_[0])
    np.testing.assert_allclose(-theta[-1], clf.intercept_[0])
    w5, th5 = t.hypothesis(5)
    np.testing.assert_allclose(w5, W[5])
    assert th5 == pytest.approx(theta[5])
    updates = (
        KWPerceptron(tau=0.5, lam=0.5, alpha_bound=3, epochs=7, random_state=0, record="updates")
        .fit(X, y)
        .trace_
    )
    updating = np.isin(t.kind, [1, 2])
    np.testing.assert_array_equal(updates.index, t.index[updating])
    np.testing.assert_array_equal(updates.epoch, t.epoch[updating])
    np.testing.assert_array_equal(updates.score, t.score[updating])


@pytest.mark.parametrize("dual", [False, True], ids=["primal", "kernel"])
def test_the_trace_carries_the_lambda_term_of_every_score(dual):
    """``lam_term`` is ``y λ‖x‖²`` once the example has caused an update, else 0, and the
    score without it is the plain score of the hypothesis that visited."""
    from perceptron_core.kernel import KernelPerceptron

    rng = np.random.default_rng(3)
    X = rng.normal(size=(50, 2))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=50) > 0, 1, -1)
    cls = KernelPerceptron if dual else KWPerceptron
    params = {"kernel": "linear"} if dual else {}
    t = cls(lam=0.7, epochs=6, random_state=0, record="all", **params).fit(X, y).trace_
    W = None if dual else t.hypotheses()[0]
    updates_before = np.zeros(len(X), dtype=int)
    expected, plain = np.zeros(t.n_events), np.zeros(t.n_events)
    for i, (j, kind) in enumerate(zip(t.index, t.kind)):
        if updates_before[j] > 0:
            expected[i] = y[j] * 0.7 * X[j] @ X[j]
        k = t.n_updates[i] - (kind in (MISTAKE, MARGIN))
        if not dual:
            plain[i] = W[k] @ X[j]
        updates_before[j] += kind in (MISTAKE, MARGIN)
    assert (t.kind == RESCUED).any() and 0 < np.count_nonzero(expected) < t.n_events
    np.testing.assert_allclose(t.lam_term, expected, rtol=1e-12)
    if not dual:
        np.testing.assert_allclose(t.score - t.lam_term, plain, rtol=1e-9, atol=1e-12)
    updates_only = cls(lam=0.7, epochs=6, random_state=0, record="updates", **params)
    assert updates_only.fit(X, y).trace_.lam_term is None  # recorded with every visit only


def test_predict_modes_need_no_retraining():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(100, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    clf = KWPerceptron(epochs=5, random_state=0, record="updates").fit(X, y)
    votes = clf.votes_.copy()
    for mode in MODES:
        clf.set_params(predict_with=mode)
        clf.predict(X)
    np.testing.assert_array_equal(clf.votes_, votes)
    assert clf.n_iter_ == 5


def test_first_partial_fit_batch_may_show_one_class_when_told_all():
    X = np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 0.0], [-2.0, -1.0]])
    clf = KWPerceptron(shuffle=False).partial_fit(X[:2], ["yes", "yes"], classes=["no", "yes"])
    clf.partial_fit(X[2:], ["no", "no"])
    assert list(clf.classes_) == ["no", "yes"]
    with pytest.raises(ValueError, match="only one class"):
        KWPerceptron().partial_fit(X[:2], ["yes", "yes"])
    assert KWPerceptron().fit(X, [0, 0, 1, 1]).trace_ is None
