"""One training part, one test part, every setting: the unit of work of an experiment.

:func:`run_fold` prepares what the grid kernel
(:mod:`perceptron_core.experiments._grid_kernel`) needs, with KW's settings
(docs/algorithms.md §9.1): ``theta_init = C = mean ||x||^2`` of the training part,
``eta = 0.1``, the training part permuted once (seeded) and visited in that
order every epoch. It makes exactly the choices :class:`KWPerceptron` makes
for ``KWPerceptron(tau=..., lam=..., alpha_bound=..., random_state=perm_seed)
.fit(X[train], y[train])``, so every setting's run is that estimator's run
(the tests check it); it only skips the estimator's record of hypotheses and
scores the test part while training instead.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from perceptron_core import vectors
from perceptron_core._jit import compiled_or_plain, read_only
from perceptron_core.experiments._grid_kernel import MODES, run_grid
from perceptron_core.experiments.grids import Settings
from perceptron_core.steps import kw

#: KW's learning rate.
ETA = 0.1
#: KW's number of epochs.
EPOCHS = 100

#: Number of calls of the compiled kernel in this process (the cache tests read it).
KERNEL_CALLS = 0


@dataclass(frozen=True)
class FoldResult:
    """Correct test predictions of every setting on one fold.

    Attributes
    ----------
    correct : ndarray of shape (S, P, 4), int64
        Per setting, checkpoint epoch and mode (last, longest, voted,
        averaged).
    n_test : int
    n_updates : ndarray of shape (S,), int64
        Updates made by each setting's run (over all its epochs).
    """

    correct: np.ndarray
    n_test: int
    n_updates: np.ndarray

    @property
    def accuracy(self) -> np.ndarray:
        """``correct / n_test``, shape (S, P, 4)."""
        return self.correct / self.n_test

    def to_arrays(self) -> dict:
        return {
            "correct": self.correct,
            "n_test": np.array(self.n_test),
            "n_updates": self.n_updates,
        }

    @classmethod
    def from_arrays(cls, arrays) -> FoldResult:
        return cls(
            np.asarray(arrays["correct"]), int(arrays["n_test"]), np.asarray(arrays["n_updates"])
        )


def as_plus_minus(y) -> np.ndarray:
    """Binary labels as float64 ±1, the larger label value being +1 (as scikit-learn).

    Examples
    --------
    >>> as_plus_minus([0, 1, 1]).tolist(), as_plus_minus(["no", "yes"]).tolist()
    ([-1.0, 1.0, 1.0], [-1.0, 1.0])
    """
    y = np.asarray(y)
    classes = np.unique(y)
    if len(classes) != 2:
        raise ValueError(
            f"The experiments need two classes; these labels have {len(classes)}. For a "
            "multi-class set choose one class against the rest (e.g. 'digits:positive_class=3')."
        )
    return np.where(y == classes[1], 1.0, -1.0)


def native(X) -> np.ndarray:
    """``X`` as a C-contiguous array of a type the kernel reads (float64 unless native)."""
    X = np.asarray(X)
    if X.dtype.type not in (np.float64, np.float32, np.int8, np.uint8):
        X = X.astype(np.float64)
    return np.ascontiguousarray(X)


def run_fold(
    X,
    y,
    train,
    test,
    settings: Settings,
    perm_seed: int,
    *,
    epochs: int = EPOCHS,
    checkpoints=None,
    eta: float = ETA,
    shortcut: bool = True,
) -> FoldResult:
    """Train every setting on ``X[train]`` and count correct predictions on ``X[test]``.

    Parameters
    ----------
    X : array of shape (n_samples, n_features)
    y : array of shape (n_samples,)
        ±1 labels (see :func:`as_plus_minus`).
    train, test : int arrays
        Row indices of the training and the test part.
    settings : Settings
    perm_seed : int
        Seed of the training part's permutation (``RandomState(perm_seed)``,
        as ``KWPerceptron(random_state=perm_seed)`` draws it).
    epochs : int, default=100
        Used when ``checkpoints`` is None.
    checkpoints : sequence of int, optional
        Epochs after which to count (a learning curve); default ``[epochs]``.
    eta : float, default=0.1
    shortcut : bool, default=True
        Skip the epochs after an update-free one arithmetically (exact).

    Returns
    -------
    FoldResult

    Examples
    --------
    >>> from perceptron_core.datasets import make_kw
    >>> from perceptron_core.experiments.grids import KW_SETTINGS
    >>> X, y, _, _ = make_kw(20, margin=0.1, noise=0.0, n_samples=200, random_state=0)
    >>> r = run_fold(X, y.astype(float), np.arange(150), np.arange(150, 200), KW_SETTINGS, 0)
    >>> r.correct.shape, bool(r.accuracy[0, 0].min() > 0.8)
    ((91, 1, 4), True)
    """
    global KERNEL_CALLS
    X = native(X)
    y = np.asarray(y, dtype=np.float64)
    train, test = np.asarray(train), np.asarray(test)
    X_train = read_only(np.ascontiguousarray(X[train]))
    # theta_init as KWPerceptron computes it: squared norms of the training
    # part in its given order, averaged by NumPy (pairwise summation).
    theta_init = float(compiled_or_plain(vectors.squared_norms)(X_train).mean())
    order = np.random.RandomState(perm_seed).permutation(len(train))
    Xp = read_only(np.ascontiguousarray(X_train[order]))  # rows read in order: see linear.py
    yp = np.ascontiguousarray(y[train][order])
    X_test = X[test]
    G = Xp.astype(np.float64) @ X_test.astype(np.float64).T
    checkpoints = np.asarray([epochs] if checkpoints is None else checkpoints, dtype=np.int64)
    if len(checkpoints) == 0 or checkpoints[0] < 1 or np.any(np.diff(checkpoints) <= 0):
        raise ValueError("checkpoints must be increasing epoch numbers, the first at least 1.")
    correct = np.zeros((len(settings), len(checkpoints), len(MODES)), dtype=np.int64)
    n_updates = np.zeros(len(settings), dtype=np.int64)
    margins = kw.absolute_margin(settings.tau, theta_init)
    grid = (float(eta), theta_init, theta_init, margins, settings.lam, settings.alpha)
    compiled_or_plain(run_grid)(
        (Xp, yp, compiled_or_plain(vectors.squared_norms)(Xp)),
        (np.ascontiguousarray(G), np.ascontiguousarray(y[test])),
        grid,
        checkpoints,
        correct,
        n_updates,
        shortcut,
    )
    KERNEL_CALLS += 1
    return FoldResult(correct, len(test), n_updates)
