"""Full-size paths: data on disk, data in chunks, compact storage, bounded prediction memory.

Small stand-ins of the real sizes (the benchmarks in ``benchmarks/`` run the
real ones): what matters here is that every path gives the same model as the
plain in-memory fit.
"""

from __future__ import annotations

import numpy as np
import pytest

import perceptron_core.linear as linear
from perceptron_core import KWPerceptron
from perceptron_core.datasets import make_kw


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
    a = KWPerceptron(epochs=epochs, random_state=0).fit(on_disk, y)
    b = KWPerceptron(epochs=epochs, random_state=0).fit(X, y)
    _same_model(a, b)
    for mode in ("voted", "averaged", "longest"):
        np.testing.assert_array_equal(
            a.decision_function(on_disk[:300], mode=mode), b.decision_function(X[:300], mode=mode)
        )


def test_reading_in_place_and_reading_a_permuted_copy_give_the_same_model(kw_int8, monkeypatch):
    X, y = kw_int8
    copied = KWPerceptron(epochs=4, random_state=1).fit(X, y)
    monkeypatch.setattr(linear, "PERMUTED_COPY_MAX_BYTES", 0)  # never copy
    in_place = KWPerceptron(epochs=4, random_state=1).fit(X, y)
    _same_model(copied, in_place)
    np.testing.assert_array_equal(copied.votes_, in_place.votes_)


def test_int8_and_float32_storage_train_the_float64_model(kw_int8):
    X, y = kw_int8
    models = [KWPerceptron(epochs=5, random_state=2).fit(X.astype(t), y)
              for t in (np.int8, np.float32, np.float64)]
    # integer attributes are exact in every type: the same updates, weights to rounding
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
    clf = KWPerceptron(theta_init=theta, C=theta, shuffle=False)
    for start in range(0, len(y), 1000):  # one pass, a chunk at a time
        clf.partial_fit(on_disk[start:start + 1000], y[start:start + 1000], classes=[-1, 1])
    whole = KWPerceptron(theta_init=theta, C=theta, epochs=1, shuffle=False).fit(X, y)
    # with shuffle off, chunks in order are the same visits as one epoch over all rows
    np.testing.assert_allclose(clf.coef_, whole.coef_, rtol=1e-12)
    assert clf.n_updates_ == whole.n_updates_


def test_prediction_chunk_size_bounds_memory_without_changing_scores():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 256, size=(800, 30)).astype(np.uint8)
    y = rng.integers(0, 4, size=800)  # four classes, one-vs-rest in one pass
    clf = KWPerceptron(epochs=2, random_state=0).fit(X, y)
    whole = clf.decision_function(X, mode="voted")
    for chunk in (1, 7, 128):
        np.testing.assert_array_equal(clf.decision_function(X, mode="voted", chunk_size=chunk),
                                      whole)
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
