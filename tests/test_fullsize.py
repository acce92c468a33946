"""Full-size paths: data on disk, data in chunks, compact storage, bounded prediction memory.

Small stand-ins of the real sizes (the benchmarks in ``benchmarks/`` run the
real ones): what matters here is that every path gives the same model as the
plain in-memory fit.
"""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core import KWPerceptron, linear
from perceptron_core.datasets import make_kw

# Each storage type (int8, uint8, float32, a read-only memory map) compiles the loops again.
pytestmark = pytest.mark.slow

#: The learning rate of the fits compared here: dyadic, so on KW's whole-number attributes
#: every weight and score is exact, and each storage type's compilation of the dot product
#: (vectorised in an order of its own) gives the same updates by arithmetic.
ETA = 0.125


@pytest.fixture(scope="module")
def kw_int8():
    data = make_kw(40, 0.1, 0.1, 3000, random_state=5, dtype="int8")
    return data.X, data.y


def _same_model(a, b):
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)
    assert a.n_updates_ == b.n_updates_


@pytest.mark.parametrize("epochs", [1, 3])
def test_fit_from_a_memmap_equals_the_fit_in_memory(kw_int8, tmp_path, epochs):
    X, y = kw_int8
    path = tmp_path / "X.npy"
    np.save(path, X)
    on_disk = np.load(path, mmap_mode="r")
    assert isinstance(on_disk, np.memmap)
    a = KWPerceptron(eta=ETA, epochs=epochs, random_state=0, predict_with="voted").fit(on_disk, y)
    b = KWPerceptron(eta=ETA, epochs=epochs, random_state=0, predict_with="voted").fit(X, y)
    _same_model(a, b)
    for mode in ("voted", "averaged", "longest"):
        np.testing.assert_array_equal(
            a.decision_function(on_disk[:300], mode=mode), b.decision_function(X[:300], mode=mode)
        )


def test_reading_in_place_and_reading_a_permuted_copy_give_the_same_model(kw_int8, monkeypatch):
    X, y = kw_int8
    # the voted setting keeps every record, the averaged hypothesis's vote clocks included
    copied = KWPerceptron(eta=ETA, epochs=4, random_state=1, predict_with="voted").fit(X, y)
    monkeypatch.setattr(linear, "PERMUTED_COPY_MAX_BYTES", 0)  # never copy
    in_place = KWPerceptron(eta=ETA, epochs=4, random_state=1, predict_with="voted").fit(X, y)
    _same_model(copied, in_place)
    np.testing.assert_array_equal(copied.votes_, in_place.votes_)


def test_int8_and_float32_storage_train_the_float64_model(kw_int8):
    X, y = kw_int8
    models = [
        KWPerceptron(eta=ETA, epochs=5, random_state=2).fit(X.astype(t), y)
        for t in (np.int8, np.float32, np.float64)
    ]
    # integer attributes are exact in every type, and with a dyadic eta every sum is exact:
    # the same updates and labels
    for m in models[:2]:
        assert m.n_updates_ == models[2].n_updates_
        np.testing.assert_allclose(m.coef_, models[2].coef_, rtol=1e-12)
        np.testing.assert_array_equal(m.predict(X), models[2].predict(X))


def test_partial_fit_over_chunks_of_a_memmap_streams_the_data(kw_int8, tmp_path):
    X, y = kw_int8
    path = tmp_path / "X.npy"
    np.save(path, X)
    on_disk = np.load(path, mmap_mode="r")
    # theta_init is otherwise taken from the first chunk: fix it to the whole set's value
    theta = float(np.mean(np.sum(X.astype(np.float64) ** 2, axis=1)))
    clf = KWPerceptron(eta=ETA, theta_init=theta, C=theta, shuffle=False)
    for start in range(0, len(y), 1000):  # one pass, a chunk at a time
        clf.partial_fit(on_disk[start : start + 1000], y[start : start + 1000], classes=[-1, 1])
    whole = KWPerceptron(eta=ETA, theta_init=theta, C=theta, epochs=1, shuffle=False).fit(X, y)
    # with shuffle off, chunks in order are the same visits as one epoch over all rows
    np.testing.assert_allclose(clf.coef_, whole.coef_, rtol=1e-12)
    assert clf.n_updates_ == whole.n_updates_


def test_prediction_chunk_size_bounds_memory_without_changing_scores():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 256, size=(800, 30)).astype(np.uint8)
    y = rng.integers(0, 4, size=800)  # four classes, one-vs-rest in one pass
    clf = KWPerceptron(epochs=2, random_state=0, predict_with="voted").fit(X, y)
    whole = clf.decision_function(X, mode="voted")
    for chunk in (1, 7, 128):
        np.testing.assert_array_equal(
            clf.decision_function(X, mode="voted", chunk_size=chunk), whole
        )
    labels = clf.predict_all(X, chunk_size=16)
    np.testing.assert_array_equal(labels["voted"], clf.classes_[whole.argmax(axis=1)])


def test_a_nan_far_into_a_large_float_matrix_is_still_found():
    X = np.zeros((5000, 20))
    X[4321, 7] = np.nan
    with pytest.raises(ValueError, match="row 4321, column 7"):
        KWPerceptron().fit(X, np.arange(5000) % 2)


def test_huge_finite_values_whose_sum_overflows_are_accepted():
    X = np.full((4, 2), 1e308)
    X[1::2] *= -0.5
    KWPerceptron(epochs=1).fit(X, [1, -1, 1, -1])  # no "not finite" error


def test_exact_products_match_integer_arithmetic_on_both_paths():
    from perceptron_core.engine.record import exact_products

    rng = np.random.default_rng(3)

    # bright and dark images: ||s|| ||x|| spans 2**24, so both float32 and float64 blocks run
    def images(n):  # bright images (pixels 200..255) and dark ones (0..20)
        bright = rng.random((n, 1)) < 0.5
        return np.where(bright, rng.integers(200, 256, (n, 784)), rng.integers(0, 21, (n, 784)))

    S, X = images(300).astype(np.uint8), images(50).astype(np.uint8)
    s2 = (S.astype(np.float64) ** 2).sum(axis=1)
    x2 = np.sort((X.astype(np.float64) ** 2).sum(axis=1))
    assert (s2.min() * x2.min() <= 2.0**48) and (s2.max() * x2.max() > 2.0**48)
    order = np.argsort(s2, kind="stable")
    rows = X[np.argsort((X.astype(np.float64) ** 2).sum(axis=1), kind="stable")]
    out = np.empty((300, 50))
    exact_products(S, order, s2[order], rows, x2, out)
    expected = S[order].astype(np.int64) @ rows.astype(np.int64).T
    np.testing.assert_array_equal(out, expected)


def test_voted_scores_of_uint8_rows_equal_those_of_their_float64_copies():
    rng = np.random.default_rng(4)
    bright = rng.random((600, 1)) < 0.5  # sums of products beyond 2**24 for bright pairs
    X = np.where(bright, rng.integers(200, 256, (600, 784)), rng.integers(0, 31, (600, 784)))
    X = X.astype(np.uint8)
    y = rng.integers(0, 3, size=600)
    clf = KWPerceptron(epochs=2, random_state=0, predict_with="voted").fit(X, y)
    np.testing.assert_array_equal(  # float32 products (uint8) against float64 products
        clf.decision_function(X, mode="voted", chunk_size=50),
        clf.decision_function(X.astype(np.float64), mode="voted"),
    )


def test_models_trained_and_used_on_threads_equal_serial_ones(kw_int8):
    from concurrent.futures import ThreadPoolExecutor

    X, y = kw_int8
    y4 = np.arange(len(y)) % 4 + 2 * (y == 1)  # six classes: one-vs-rest in one pass

    def run(seed):
        clf = KWPerceptron(eta=ETA, epochs=3, random_state=seed, predict_with="voted").fit(X, y4)
        return clf, clf.decision_function(X[:500], mode="voted")

    serial = [run(seed) for seed in range(4)]
    with ThreadPoolExecutor(4) as pool:  # as Streamlit sessions do: one thread each
        threaded = list(pool.map(run, range(4)))
    for (a, scores_a), (b, scores_b) in zip(serial, threaded):
        _same_model(a, b)
        np.testing.assert_array_equal(scores_a, scores_b)
