"""The grid kernel against KWPerceptron and the pure-NumPy reference, setting by setting.

The kernel trains every setting of a grid on one fold and scores the test
part while training; its counts of correct predictions must be exactly those
of ``KWPerceptron(...).fit(X[train], y[train]).predict_all(X[test])`` with the
same permutation seed, for all four modes. The three add their sums in orders of their
own, so these tests use a dyadic ``eta`` (:data:`ETA`): on KW's whole-number features every
training and test score is then exact, and the updates and the last, longest and voted counts
agree by arithmetic; the averaged count rests on a division, so its scores are checked to be
clear of 0, and on real-valued data every score is checked to be clear of its threshold
(:func:`check_clear`).
"""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core import KWPerceptron
from perceptron_core.datasets import make_kw
from perceptron_core.experiments.fold_run import run_fold
from perceptron_core.experiments.grids import Settings, kw_settings
from perceptron_core.modes import MODES
from tests.numerics import NEAR
from tests.reference import (
    decides_clearly,
    prediction_clearance,
    reference_kw,
    reference_scores,
)

#: A small grid touching every switch: margins, λ-trick, α-bounds (one that binds early).
GRID = kw_settings((0.0, 0.25, 2.0), (0.0, 0.125, 1.0), (None, 20, 2))

#: The learning rate of these tests: dyadic, so sums of whole numbers times it are exact.
ETA = 0.125


def _split(n, seed, test_share=0.25):
    idx = np.random.default_rng(seed).permutation(n)
    cut = int(n * (1 - test_share))
    return np.sort(idx[:cut]), np.sort(idx[cut:])


def _estimator_counts(X, y, train, test, settings, i, perm_seed, epochs):
    clf = KWPerceptron(
        eta=ETA,
        tau=float(settings.tau[i]),
        lam=float(settings.lam[i]),
        alpha_bound=settings.alpha_value(i),
        epochs=epochs,
        random_state=perm_seed,
        record="updates",
    ).fit(X[train], y[train])
    predictions = clf.predict_all(X[test])
    return [int((predictions[mode] == y[test]).sum()) for mode in MODES], clf.n_updates_


def _reference(X, y, train, settings, i, perm_seed, epochs):
    """The reference's run of setting ``i`` on the training part, in the fold's order."""
    return reference_kw(
        X[train],
        y[train],
        eta=ETA,
        tau=settings.tau[i],
        lam=settings.lam[i],
        alpha_bound=settings.alpha_value(i),
        epochs=epochs,
        order=np.random.RandomState(perm_seed).permutation(len(train)),
    )


def check_clear(model, X_test):
    """Fail unless counting in another order cannot change a count: on whole-number
    features only the averaged predictions' scores (a division) must be clear of 0, on
    real-valued ones every training and test score clear of its threshold."""
    if np.array_equal(X_test, np.round(X_test)):
        assert prediction_clearance(model, X_test, "averaged") > NEAR
    else:
        assert decides_clearly(model, X_test)


def _kw_data(seed, noise, n=90, f=12, dtype=np.float64):
    X, y, _, _ = make_kw(f, margin=0.05, noise=noise, n_samples=n, random_state=seed, dtype=dtype)
    return X, y.astype(np.float64)


def _gaussian_data(seed, n=80, f=6):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, f)) + 0.3
    w = rng.normal(size=f)
    y = np.where(X @ w + 0.5 * rng.normal(size=n) > 0.2, 1.0, -1.0)  # noisy, not separable
    return X, y


@pytest.mark.numerics
@pytest.mark.parametrize(
    "make",
    [
        lambda s: _kw_data(s, 0.0),
        lambda s: _kw_data(s, 0.15),
        pytest.param(
            lambda s: _kw_data(s, 0.1, dtype=np.int8), marks=pytest.mark.slow
        ),  # compiles
        _gaussian_data,
    ],
    ids=["kw-clean", "kw-noisy", "kw-int8", "gaussian"],
)
@pytest.mark.parametrize("seed", [0, 1])
def test_every_setting_and_mode_matches_kwperceptron(make, seed):
    X, y = make(seed)
    train, test = _split(len(y), seed)
    epochs, perm_seed = 15, 100 + seed
    result = run_fold(X, y, train, test, GRID, perm_seed, epochs=epochs, eta=ETA)
    for i in range(len(GRID)):
        check_clear(_reference(X, y, train, GRID, i, perm_seed, epochs), X[test])
        expected, n_updates = _estimator_counts(X, y, train, test, GRID, i, perm_seed, epochs)
        assert result.correct[i, 0].tolist() == expected, GRID.label(i)
        assert result.n_updates[i] == n_updates, GRID.label(i)


@pytest.mark.numerics
def test_matches_the_numpy_reference():
    X, y = _kw_data(3, 0.1, n=70, f=8)
    train, test = _split(len(y), 3)
    perm_seed, epochs = 7, 8
    result = run_fold(X, y, train, test, GRID, perm_seed, epochs=epochs, eta=ETA)
    for i in range(len(GRID)):
        model = _reference(X, y, train, GRID, i, perm_seed, epochs)
        check_clear(model, X[test])
        expected = [
            int(((reference_scores(model, X[test], mode) > 0) * 2 - 1 == y[test]).sum())
            for mode in MODES
        ]
        assert result.correct[i, 0].tolist() == expected, GRID.label(i)


def test_checkpoints_equal_separate_runs():
    X, y = _kw_data(4, 0.1)
    train, test = _split(len(y), 4)
    curve = run_fold(X, y, train, test, GRID, 5, checkpoints=[1, 3, 10, 25])
    for p, epochs in enumerate([1, 3, 10, 25]):
        alone = run_fold(X, y, train, test, GRID, 5, epochs=epochs)
        np.testing.assert_array_equal(curve.correct[:, p], alone.correct[:, 0])


def test_shortcut_after_an_update_free_epoch_is_exact():
    # Clean data with a wide margin: the plain perceptron stops updating within
    # a few epochs, so most of the 300 epochs are skipped by the shortcut.
    X, y, _, _ = make_kw(10, margin=0.5, noise=0.0, n_samples=120, random_state=2)
    y = y.astype(np.float64)
    train, test = _split(len(y), 2)
    grid = kw_settings((0.0, 0.125, 4.0), (0.0, 0.5), (None, 3))
    checkpoints = [2, 7, 40, 300]
    fast = run_fold(X, y, train, test, grid, 9, checkpoints=checkpoints, shortcut=True)
    slow = run_fold(X, y, train, test, grid, 9, checkpoints=checkpoints, shortcut=False)
    np.testing.assert_array_equal(fast.correct, slow.correct)
    np.testing.assert_array_equal(fast.n_updates, slow.n_updates)
    # the case the shortcut is for did occur: the plain run converged early
    converged = KWPerceptron(epochs=300, random_state=9).fit(X[train], y[train])
    assert (converged.updates_per_epoch_ == 0).sum() > 250


def test_without_updates_the_initial_hypothesis_predicts():
    # A training part of one class (KWPerceptron refuses it, the kernel need
    # not): w = 0 with theta > 0 predicts -1, which is always right, so no
    # update happens and hypothesis 0 is last, longest, and the stand-in for
    # voted and averaged (it has no vote). The test example is +1.
    X = np.array([[1.0, 2.0], [2.0, 1.0], [0.5, 0.5], [3.0, 1.0]])
    y = np.array([-1.0, -1.0, -1.0, 1.0])
    result = run_fold(
        X, y, np.arange(3), np.array([3]), Settings.from_tuples([(0, 0, None)]), 0, epochs=5
    )
    assert result.n_updates.tolist() == [0]
    assert result.correct[0, 0].tolist() == [0, 0, 0, 0]  # everything predicts -1
