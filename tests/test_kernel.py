"""The dual (kernel) perceptrons against a NumPy reference, the primal, and their claims.

The dual loop sums kernel columns, the reference sums a Gram matrix NumPy computed
(its own ``exp`` and ``**``), and the primal sums weights: scores agree to a tolerance, and
the record (updates, votes, labels) exactly wherever no score came near a threshold, which
each test checks, or on whole-number data where every sum is exact (:mod:`tests.numerics`).
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from perceptron_core.kernel import AveragedKernelPerceptron, KernelPerceptron
from perceptron_core.linear import KWPerceptron
from perceptron_core.modes import MODES
from tests.data import noisy_data
from tests.numerics import NEAR, band_clearance, exact_integer_data
from tests.reference import (
    beats_the_record,
    multiclass_clearance,
    prediction_clearance,
    reference_kw,
    reference_scores,
)

# --------------------------------------------------------------------------
# The reference: the dual form of docs/algorithms.md §3.1 as written, one binary problem
# --------------------------------------------------------------------------


def kernel_matrix(A, B, kernel, gamma=1.0, coef0=1.0, degree=4):
    """``K[i, r] = k(A[i], B[r])``, straight from the formulas."""
    A, B = np.asarray(A, dtype=np.float64), np.asarray(B, dtype=np.float64)
    if kernel == "linear":
        return A @ B.T
    if kernel == "poly":
        return (gamma * (A @ B.T) + coef0) ** degree
    squared_distances = ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=-1)
    return np.exp(-gamma * squared_distances)


def reference_dual(
    K,
    y,
    *,
    eta=0.1,
    theta_init=None,
    C=None,
    tau=0.0,
    lam=0.0,
    alpha_bound=None,
    epochs=10,
    order=None,
):
    """Train on the Gram matrix ``K``; hypotheses are (a, theta) pairs.

    ``f(x_j) = sum_i eta a_i y_i k(x_i, x_j) - theta``, recomputed from the
    update counts ``a`` at every visit (no running scores). ``closest`` is how near any
    score came to the edge of its band, as :func:`tests.reference.reference_kw` says it.
    """
    m = len(y)
    theta_init = np.mean(np.diag(K)) if theta_init is None else theta_init
    C = theta_init if C is None else C
    order = np.arange(m) if order is None else order
    alpha_bound = np.inf if alpha_bound is None else alpha_bound
    t = tau * theta_init

    a, theta = np.zeros(m), theta_init
    hypotheses, votes = [(a.copy(), theta)], [0]
    tally, best_tally, longest = 0, 0, 0
    updated, kinds = [], []
    closest = np.inf
    for _ in range(epochs):
        for j in order:
            s = eta * np.sum(a * y * K[:, j])  # the kernel sum, before the threshold
            raw = s
            magnitude = eta * np.sum(a * np.abs(K[:, j])) + abs(theta) + abs(t)
            magnitude += abs(theta_init) * (1 + eta * a.sum())
            closest = min(closest, band_clearance(raw, theta, t, magnitude))
            if lam > 0 and a[j] > 0:
                s += y[j] * lam * K[j, j]  # λ-trick: k(x_j, x_j) in place of ||x_j||^2
                magnitude += lam * abs(K[j, j])
                closest = min(closest, band_clearance(s, theta, t, magnitude))
            yhat = -1 if s < theta - t else (1 if s > theta + t else 0)
            if yhat != y[j] and a[j] < alpha_bound:
                a[j] += 1
                theta = theta - eta * y[j] * C
                hypotheses.append((a.copy(), theta))
                votes.append(0)
                tally = 0
                updated.append(j)
                kinds.append("mistake" if yhat == -y[j] else "margin")
            elif yhat == y[j]:
                votes[-1] += 1
                tally += 1
                if beats_the_record(tally, best_tally):
                    best_tally, longest = tally, len(votes) - 1
                raw_yhat = -1 if raw < theta - t else (1 if raw > theta + t else 0)
                kinds.append("rescued" if raw_yhat != y[j] and lam > 0 and a[j] > 0 else "correct")
            else:
                kinds.append("blocked")
    return dict(
        hypotheses=hypotheses,
        votes=np.array(votes),
        longest=longest,
        updated=np.array(updated, dtype=int),
        kinds=kinds,
        eta=eta,
        closest=closest,
    )


def as_primal(model, y):
    """The dual reference's hypotheses as :func:`tests.reference.reference_scores` reads
    them, for test points given as ``K_test.T`` (``K_test[i, r] = k(x_i, x_r)``): the
    "weights" of hypothesis ``k`` are ``eta a_i y_i``, one per training example."""
    return dict(
        W=np.array([model["eta"] * a * y for a, _ in model["hypotheses"]]),
        theta=np.array([theta for _, theta in model["hypotheses"]]),
        votes=model["votes"],
        longest=model["longest"],
    )


def reference_lingpipe(model, y, m):
    """The averaged perceptron as LingPipe stores it, built from the run's events.

    Basis vectors are appended on each update with polarity = their own
    label and a count of the correct predictions that follow; weight = the
    sum of the counts from the basis vector's position onward.
    """
    basis, polarity, counts = [], [], []
    for j, c in zip(model["updated"], model["votes"][1:]):
        basis.append(j)
        polarity.append(y[j])
        counts.append(c)
    weights = [sum(counts[i:]) for i in range(len(counts))]
    merged = np.zeros(m)
    for j, p, w in zip(basis, polarity, weights):
        merged[j] += w * p
    return np.array(counts), np.array(weights), merged, sum(counts)


def xor(seed, m=200):
    """The four quadrants, with a gap of 0.1 along the axes."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(0.1, 1, size=(m, 2)) * rng.choice([-1.0, 1.0], size=(m, 2))
    return X, np.where(X[:, 0] * X[:, 1] > 0, 1, -1)


def circles(seed, m=200):
    rng = np.random.default_rng(seed)
    radius = np.where(rng.random(m) < 0.5, 0.5, 1.0)
    angle = rng.uniform(0, 2 * np.pi, m)
    X = radius[:, None] * np.column_stack([np.cos(angle), np.sin(angle)])
    X += rng.normal(scale=0.08, size=X.shape)
    return X, np.where(radius < 0.75, 1, -1)


switches = st.fixed_dictionaries(
    {
        "eta": st.sampled_from([0.1, 0.5, 1.0]),
        "tau": st.sampled_from([0.0, 0.125, 0.5, 2.0]),
        "lam": st.sampled_from([0.0, 0.25, 1.0, 4.0]),
        "alpha_bound": st.sampled_from([None, 1, 3, 10]),
        "epochs": st.integers(1, 10),
        "shuffle": st.booleans(),
        "C": st.sampled_from(["auto", 0.5]),
        "theta_init": st.sampled_from(["auto", 0.0, 1.5]),
    }
)
kernels = st.sampled_from(
    [
        dict(kernel="linear"),
        dict(kernel="poly", degree=2, gamma=0.5, coef0=1.0),
        dict(kernel="poly", degree=4, gamma=None, coef0=0.5),
        dict(kernel="rbf", gamma=0.7),
    ]
)


def reference_kwargs(params, order):
    return dict(
        eta=params["eta"],
        tau=params["tau"],
        lam=params["lam"],
        alpha_bound=params["alpha_bound"],
        epochs=params["epochs"],
        order=order,
        theta_init=None if params["theta_init"] == "auto" else params["theta_init"],
        C=None if params["C"] == "auto" else params["C"],
    )


# --------------------------------------------------------------------------
# The numba dual loop equals the reference
# --------------------------------------------------------------------------


@pytest.mark.numerics
@given(switches, kernels, st.integers(0, 10_000), st.integers(5, 35), st.integers(1, 4))
def test_dual_matches_reference(params, kernel, seed, m, n):
    X, y = noisy_data(seed, m, n)
    clf = KernelPerceptron(random_state=seed, record="all", **kernel, **params).fit(X, y)
    kparams = dict(
        gamma=clf.gamma_, coef0=kernel.get("coef0", 1.0), degree=kernel.get("degree", 4)
    )
    K = kernel_matrix(X, X, kernel["kernel"], **kparams)
    ref = reference_dual(K, y, **reference_kwargs(params, clf._order))
    assume(ref["closest"] > NEAR)

    trace = clf.trace_
    np.testing.assert_array_equal(trace.rows, ref["updated"])
    assert list(trace.kind_names()) == ref["kinds"]
    np.testing.assert_array_equal(clf.votes_, ref["votes"])
    assert clf._hyp.longest_k[0] == ref["longest"]
    np.testing.assert_array_equal(clf.update_counts_[0], ref["hypotheses"][-1][0])

    X_test = np.random.default_rng(seed + 1).normal(size=(25, n))
    K_test = kernel_matrix(X, X_test, kernel["kernel"], **kparams)
    predictions = clf.predict_all(X_test)
    primal_form = as_primal(ref, y)
    assume(min(prediction_clearance(primal_form, K_test.T, mode) for mode in MODES) > NEAR)
    for mode in MODES:
        expected = reference_scores(primal_form, K_test.T, mode)
        scores = clf.decision_function(X_test, mode=mode)
        np.testing.assert_allclose(scores, expected, atol=1e-8, rtol=1e-10, err_msg=mode)
        np.testing.assert_array_equal(predictions[mode], np.where(expected > 0, 1, -1))
    # the trace's hypotheses, evaluated in kernel space, are the reference's
    F = trace.scores(X_test)
    for k in (0, len(F) // 2, len(F) - 1):
        a, theta = ref["hypotheses"][k]
        np.testing.assert_allclose(F[k], ref["eta"] * (a * y) @ K_test - theta, atol=1e-8)


# --------------------------------------------------------------------------
# Primal = dual for the linear kernel
# --------------------------------------------------------------------------


@pytest.mark.numerics
@given(switches, st.integers(0, 10_000), st.integers(5, 50), st.integers(1, 6))
def test_linear_kernel_agrees_with_kw_perceptron(params, seed, m, n):
    X, y = noisy_data(seed, m, n)
    primal = KWPerceptron(random_state=seed, record="updates", **params).fit(X, y)
    dual = KernelPerceptron(kernel="linear", random_state=seed, record="updates", **params)
    dual.fit(X, y)
    # both decide as the reference does where no score came near a threshold
    assume(reference_kw(X, y, **reference_kwargs(params, primal._order))["closest"] > NEAR)
    np.testing.assert_array_equal(dual.trace_.rows, primal.trace_.rows)  # same updates
    np.testing.assert_array_equal(dual.votes_, primal.votes_)  # same votes
    assert dual._hyp.longest_k[0] == primal._hyp.longest_k[0]
    assert dual.theta_init_ == pytest.approx(primal.theta_init_)
    X_test = np.random.default_rng(seed + 2).normal(size=(30, n))
    for mode in MODES:
        np.testing.assert_allclose(
            dual.decision_function(X_test, mode=mode),
            primal.decision_function(X_test, mode=mode),
            atol=1e-9,
            rtol=1e-9,
            err_msg=mode,
        )
    np.testing.assert_allclose(dual.coef_, primal.coef_, atol=1e-9)
    np.testing.assert_allclose(dual.intercept_, primal.intercept_, atol=1e-9)
    W_dual, theta_dual = dual.trace_.hypotheses()
    W_primal, theta_primal = primal.trace_.hypotheses()
    np.testing.assert_allclose(W_dual, W_primal, atol=1e-9)
    np.testing.assert_allclose(theta_dual, theta_primal, atol=1e-9)


@pytest.mark.numerics
@given(switches, st.integers(0, 10_000))
def test_linear_kernel_agrees_with_kw_multiclass(params, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(40, 3))
    labels = np.array(["cat", "dog", "eel"])[np.r_[0, 1, 2, rng.integers(0, 3, size=37)]]
    primal = KWPerceptron(random_state=seed, record="updates", **params).fit(X, labels)
    dual = KernelPerceptron(kernel="linear", random_state=seed, **params).fit(X, labels)
    args = reference_kwargs(params, primal._order)
    refs = [reference_kw(X, np.where(labels == c, 1, -1), **args) for c in primal.classes_]
    assume(min(ref["closest"] for ref in refs) > NEAR)
    for c in range(3):
        np.testing.assert_array_equal(dual.votes_[c], primal.votes_[c])
    X_test = rng.normal(size=(20, 3))
    p_primal, p_dual = primal.predict_all(X_test), dual.predict_all(X_test)
    assume(min(multiclass_clearance(refs, X_test, mode) for mode in MODES) > NEAR)
    for mode in MODES:
        np.testing.assert_array_equal(p_dual[mode], p_primal[mode], err_msg=mode)


@pytest.mark.numerics
def test_partial_fit_streams_like_the_primal():
    # batches of equal size, no per-example switch: each new batch's running
    # scores come from the current dual hypothesis. Whole numbers and a dyadic eta: every
    # score is exact both ways, so both update alike by arithmetic.
    X, y = exact_integer_data(4, 120, 3)
    # (the voted setting keeps the primal's update record, for votes_)
    primal = KWPerceptron(eta=0.5, random_state=0, predict_with="voted")
    dual = KernelPerceptron(kernel="linear", eta=0.5, random_state=0)
    for start in (0, 40, 80, 0):
        primal.partial_fit(X[start : start + 40], y[start : start + 40], classes=[-1, 1])
        dual.partial_fit(X[start : start + 40], y[start : start + 40], classes=[-1, 1])
    np.testing.assert_array_equal(dual.votes_, primal.votes_)
    np.testing.assert_allclose(
        dual.decision_function(X), primal.decision_function(X, mode="last"), atol=1e-9
    )


# --------------------------------------------------------------------------
# What kernels buy, what the cache must not change
# --------------------------------------------------------------------------


@pytest.mark.parametrize("make", [xor, circles], ids=["xor", "circles"])
@pytest.mark.parametrize(
    "kernel", [dict(kernel="rbf", gamma=2.0), dict(kernel="poly", degree=2)], ids=["rbf", "poly"]
)
def test_kernels_solve_what_the_linear_perceptron_cannot(make, kernel):
    X, y = make(0)
    X_test, y_test = make(1)
    linear = KWPerceptron(epochs=50, random_state=0, predict_with="voted").fit(X, y)
    curved = KernelPerceptron(epochs=50, random_state=0, predict_with="voted", **kernel).fit(X, y)
    assert linear.score(X_test, y_test) < 0.8
    assert curved.score(X_test, y_test) > 0.92


@pytest.mark.parametrize(
    "params",
    [
        dict(kernel="rbf", gamma=1.0),
        dict(kernel="poly", degree=3, tau=0.5, lam=1.0, alpha_bound=4),
    ],
)
def test_cache_size_never_changes_results(params):
    X, y = noisy_data(8, 300, 4)
    X_test = np.random.default_rng(9).normal(size=(50, 4))
    fits = {}
    for mb in (0, 0.05, 200):  # scratch column only / 20 columns with evictions / whole Gram
        clf = KernelPerceptron(
            cache_size_mb=mb, epochs=15, random_state=0, record="updates", **params
        )
        fits[mb] = clf.fit(X, y)
    whole = fits[200]
    assert whole.gram_cached_ and not fits[0.05].gram_cached_
    for clf in fits.values():
        np.testing.assert_array_equal(clf.trace_.rows, whole.trace_.rows)
        np.testing.assert_array_equal(clf.trace_.score, whole.trace_.score)  # bit for bit
        np.testing.assert_array_equal(clf.votes_, whole.votes_)
        for mode in MODES:
            np.testing.assert_array_equal(
                clf.decision_function(X_test, mode=mode),
                whole.decision_function(X_test, mode=mode),
            )
    # the whole Gram computes each support vector's column once; smaller caches recompute
    assert whole.n_kernel_columns_ == len(whole.support_)
    assert fits[0].n_kernel_columns_ >= fits[0.05].n_kernel_columns_ >= whole.n_kernel_columns_


@pytest.mark.numerics
def test_kernel_function_equals_the_builtin_kernel():
    # whole numbers: the function's Gram matrix (NumPy's BLAS) and the built-in columns are
    # exact both, so the two fits update alike by arithmetic
    X, y = exact_integer_data(12, 80, 3)

    def quadratic(A, B):
        return (A @ B.T + 1.0) ** 2

    builtin = KernelPerceptron(kernel="poly", degree=2, gamma=1.0, coef0=1.0, random_state=0)
    given_as_function = KernelPerceptron(kernel=quadratic, random_state=0)
    builtin.fit(X, y)
    given_as_function.fit(X, y)
    np.testing.assert_array_equal(given_as_function.votes_, builtin.votes_)
    np.testing.assert_allclose(
        given_as_function.decision_function(X), builtin.decision_function(X), rtol=1e-10
    )
    with pytest.raises(ValueError, match="Raise cache_size_mb"):
        KernelPerceptron(kernel=quadratic, cache_size_mb=0.01).fit(X, y)
    with pytest.raises(ValueError, match="must return shape"):
        KernelPerceptron(kernel=lambda A, B: np.ones((len(A), 2))).fit(X, y)


@pytest.mark.numerics
def test_fit_then_partial_fit_continues_exactly():
    # whole numbers and dyadic settings: every kernel value and score is exact, so the
    # continued run, whose scores add its support vectors in another order, updates alike
    X, y = exact_integer_data(6, 90, 3)
    params = dict(
        kernel="poly", degree=2, gamma=0.5, coef0=1.0, eta=0.5, lam=0.5, tau=0.25, random_state=3
    )
    long = KernelPerceptron(epochs=4, **params).fit(X, y)
    short = KernelPerceptron(epochs=3, **params).fit(X, y).partial_fit(X, y)
    np.testing.assert_array_equal(short.votes_, long.votes_)
    np.testing.assert_array_equal(short.update_counts_, long.update_counts_)
    # same hypothesis; support vectors stored in another order sum in another order
    np.testing.assert_allclose(short.decision_function(X), long.decision_function(X), atol=1e-12)
    with pytest.raises(ValueError, match="same rows"):
        short.partial_fit(X[:10], y[:10])


def test_refit_forgets_the_previous_model():
    X1, y1 = noisy_data(21, 60, 2)
    X2, y2 = noisy_data(22, 60, 2)
    refit = KernelPerceptron(kernel="rbf", epochs=5, random_state=0).fit(X1, y1).fit(X2, y2)
    fresh = KernelPerceptron(kernel="rbf", epochs=5, random_state=0).fit(X2, y2)
    np.testing.assert_array_equal(refit.votes_, fresh.votes_)
    np.testing.assert_array_equal(refit.decision_function(X2), fresh.decision_function(X2))


# --------------------------------------------------------------------------
# Fitted dual attributes
# --------------------------------------------------------------------------


@pytest.mark.numerics
def test_support_and_dual_coefficients():
    X, y = noisy_data(13, 100, 3)
    clf = KernelPerceptron(kernel="rbf", gamma=1.0, epochs=10, random_state=0).fit(X, y)
    a = clf.update_counts_[0]
    np.testing.assert_array_equal(clf.support_, np.flatnonzero(a))
    np.testing.assert_array_equal(clf.support_vectors_, X[clf.support_])
    np.testing.assert_allclose(clf.dual_coef_[0], clf.eta * a[clf.support_] * y[clf.support_])
    assert clf.sparsity_ == len(X) - len(clf.support_)
    manual = clf.dual_coef_[0] @ kernel_matrix(clf.support_vectors_, X, "rbf", gamma=1.0)
    np.testing.assert_allclose(clf.decision_function(X), manual + clf.intercept_[0], atol=1e-10)
    with pytest.raises(AttributeError, match="only available with kernel='linear'"):
        _ = clf.coef_
    with pytest.raises(ValueError, match="no weight vector"):
        KernelPerceptron(kernel="rbf", epochs=2, record="updates").fit(X, y).trace_.hypotheses()


def test_gamma_defaults():
    X, y = noisy_data(1, 50, 4)
    X = 3.0 * X
    rbf = KernelPerceptron(kernel="rbf", epochs=1).fit(X, y)
    assert rbf.gamma_ == pytest.approx(1.0 / (4 * X.var()))
    assert rbf.theta_init_ == 1.0  # mean k(x, x) = 1 for the Gaussian kernel
    poly = KernelPerceptron(kernel="poly", degree=2, coef0=0.0, epochs=1).fit(X, y)
    assert poly.gamma_ == 1.0
    assert poly.theta_init_ == pytest.approx(np.mean((X**2).sum(axis=1) ** 2))


def test_pickle_leaves_the_column_cache_behind():
    X, y = noisy_data(2, 400, 3)
    clf = KernelPerceptron(kernel="rbf", random_state=0)
    clf.partial_fit(X, y)  # partial_fit keeps its cache for the next call
    assert clf._batch.cache is not None
    restored = pickle.loads(pickle.dumps(clf))
    assert restored._batch.cache is None
    assert len(pickle.dumps(clf)) < 400 * 400 * 8 / 4
    np.testing.assert_array_equal(restored.decision_function(X), clf.decision_function(X))
    restored.partial_fit(X, y)
    clf.partial_fit(X, y)
    np.testing.assert_array_equal(restored.votes_, clf.votes_)
    assert restored.n_kernel_columns_ >= clf.n_kernel_columns_


# --------------------------------------------------------------------------
# The averaged kernel perceptron (LingPipe's merged basis vectors)
# --------------------------------------------------------------------------


@pytest.mark.numerics
@given(switches, kernels, st.integers(0, 10_000), st.integers(5, 35))
def test_averaged_kernel_perceptron_is_lingpipes_average(params, kernel, seed, m):
    X, y = noisy_data(seed, m, 3)
    merged = AveragedKernelPerceptron(random_state=seed, **kernel, **params).fit(X, y)
    full = KernelPerceptron(random_state=seed, predict_with="averaged", **kernel, **params)
    full.fit(X, y)
    X_test = np.random.default_rng(seed).normal(size=(30, 3))
    np.testing.assert_allclose(
        merged.decision_function(X_test), full.decision_function(X_test), atol=1e-9
    )

    kparams = dict(
        gamma=merged.gamma_, coef0=kernel.get("coef0", 1.0), degree=kernel.get("degree", 4)
    )
    ref = reference_dual(
        kernel_matrix(X, X, kernel["kernel"], **kparams),
        y,
        **reference_kwargs(params, merged._order),
    )
    assume(ref["closest"] > NEAR)
    K_test = kernel_matrix(X, X_test, kernel["kernel"], **kparams)
    assume(prediction_clearance(as_primal(ref, y), K_test.T, "averaged") > NEAR)
    np.testing.assert_array_equal(merged.predict(X_test), full.predict(X_test))
    counts, weights, per_example, total = reference_lingpipe(ref, y, m)
    np.testing.assert_array_equal(merged.basis_counts_, counts)
    np.testing.assert_array_equal(merged.basis_weights_, weights)
    np.testing.assert_array_equal(merged.basis_polarity_, y[ref["updated"]])
    np.testing.assert_array_equal(
        merged.support_vectors_[merged.basis_support_], X[ref["updated"]]
    )
    if total > 0:
        sv_rows = merged.support_
        np.testing.assert_allclose(
            merged.dual_coef_[0], merged.eta * per_example[sv_rows] / total, atol=1e-12
        )


@pytest.mark.numerics
def test_averaged_polarity_is_the_basis_vectors_own_label():
    # one-vs-rest: the polarity of a basis vector is its label in that problem
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    labels = np.array(["a", "b", "c"])[np.r_[0, 1, 2, rng.integers(0, 3, 57)]]
    clf = AveragedKernelPerceptron(kernel="rbf", gamma=1.0, epochs=5, random_state=0).fit(
        X, labels
    )
    full = KernelPerceptron(
        kernel="rbf", gamma=1.0, epochs=5, random_state=0, predict_with="averaged"
    ).fit(X, labels)
    for c, label in enumerate(clf.classes_):
        rows = [
            np.flatnonzero((X == v).all(axis=1))[0]
            for v in clf.support_vectors_[clf.basis_support_[c]]
        ]
        np.testing.assert_array_equal(
            clf.basis_polarity_[c], np.where(labels[rows] == label, 1, -1)
        )
    np.testing.assert_allclose(clf.decision_function(X), full.decision_function(X), atol=1e-9)


# --------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params, fragment",
    [
        (
            dict(kernel="sigmoid"),
            "kernel (the similarity k(x, x') that replaces the inner product)",
        ),
        (dict(degree=0), "degree (the degree of the polynomial kernel) must be a whole number"),
        (dict(gamma=0.0), "gamma (the scale of the rbf and poly kernels) must be None"),
        (dict(cache_size_mb=-1), "cache_size_mb"),
        (dict(eta=0), "eta"),
    ],
)
def test_parameter_errors_speak_to_students(params, fragment):
    escaped = "".join("\\" + ch if ch in "()[]." else ch for ch in fragment)
    with pytest.raises(ValueError, match=escaped):
        KernelPerceptron(**params).fit([[0.0, 1.0], [1.0, 0.0]], [0, 1])
