"""Cross-validation of a whole grid: folds, their cells, and the accuracies they give.

Every experiment of this package is made of **fold cells**: one cell trains
every setting of a grid on one training part and scores its test part
(:func:`~perceptron_core.experiments.fold_run.run_fold`, one compiled call).
This module plans them (which folds, which seeds), hands them to
:func:`~perceptron_core.experiments.execution.run_cells`, and reshapes the
results.

Seeds (all from the experiment's ``seed`` and the data set's label):
``derive_seed(seed, label, "folds")`` splits the data;
``derive_seed(seed, label, "perm", i)`` permutes training part ``i``; an
inner split of outer fold ``i`` (double cross-validation) uses
``derive_seed(seed, label, "inner-folds", i)`` and
``derive_seed(seed, label, "perm", i, j)``. So the outer folds of a
parameter optimisation are exactly the folds of the parameter search with
the same seed, and share its cached cells.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from perceptron_core.experiments.cache import array_digest, cell_key
from perceptron_core.experiments.data import Dataset
from perceptron_core.experiments.execution import Cell, run_cells
from perceptron_core.experiments.fold_run import EPOCHS, ETA, FoldResult, run_fold
from perceptron_core.experiments.folds import derive_seed, stratified_folds
from perceptron_core.experiments.grids import Settings


@dataclass(frozen=True)
class Fold:
    """A training part, a test part and the seed of the training order."""

    train: np.ndarray
    test: np.ndarray
    perm_seed: int


@dataclass(frozen=True)
class RunOptions:
    """How every fold is trained (KW's settings by default) and where cells run.

    Attributes
    ----------
    epochs : int, default=100
    eta : float, default=0.1
    checkpoints : tuple of int or None
        Epochs at which to score (learning curves); None: only the last.
    jobs, scheduler, cache_dir, cache_max_bytes, progress
        See :func:`~perceptron_core.experiments.execution.run_cells`.
    """

    epochs: int = EPOCHS
    eta: float = ETA
    checkpoints: tuple | None = None
    jobs: int | None = None
    scheduler: str | None = None
    cache_dir: str | None = None
    cache_max_bytes: int | None = None
    progress: object = False  # bool, or a function progress(done, total)

    @property
    def epoch_list(self) -> tuple:
        return tuple(self.checkpoints) if self.checkpoints else (self.epochs,)

    def run(self, cells: list[Cell], desc: str) -> list[dict]:
        """:func:`~perceptron_core.experiments.execution.run_cells` where these options say."""
        return run_cells(
            cells,
            jobs=self.jobs,
            scheduler=self.scheduler,
            cache_dir=self.cache_dir,
            cache_max_bytes=self.cache_max_bytes,
            progress=self.progress,
            desc=desc,
        )


#: KW's settings, every core, no cache, no progress bar.
DEFAULT_OPTIONS = RunOptions()


def outer_folds(dataset: Dataset, n_folds: int, seed: int) -> list[Fold]:
    """The ``n_folds`` stratified folds of a data set, with their permutation seeds."""
    label = dataset.label
    return [
        Fold(train, test, derive_seed(seed, label, "perm", i))
        for i, (train, test) in enumerate(
            stratified_folds(dataset.y, n_folds, derive_seed(seed, label, "folds"))
        )
    ]


def inner_folds(
    dataset: Dataset, outer: Fold, outer_index: int, n_folds: int, seed: int
) -> list[Fold]:
    """Folds of the outer training part (indices into the whole data set)."""
    label = dataset.label
    y = dataset.y[outer.train]
    split = stratified_folds(y, n_folds, derive_seed(seed, label, "inner-folds", outer_index))
    return [
        Fold(outer.train[tr], outer.train[te], derive_seed(seed, label, "perm", outer_index, j))
        for j, (tr, te) in enumerate(split)
    ]


def _fold_cell(X, y, train, test, settings, perm_seed, checkpoints, eta) -> dict:
    """Module-level (picklable) body of a fold cell."""
    return run_fold(
        X, y, train, test, settings, perm_seed, checkpoints=checkpoints, eta=eta
    ).to_arrays()


def fold_cell(dataset: Dataset, fold: Fold, settings: Settings, options: RunOptions) -> Cell:
    """The cell that runs ``settings`` on ``fold``, keyed by its full specification."""
    checkpoints = options.epoch_list
    key = cell_key(
        {
            "kind": "grid-fold",
            "data": dataset.digest,
            "train": array_digest(fold.train),
            "test": array_digest(fold.test),
            "settings": settings.key(),
            "perm_seed": fold.perm_seed,
            "checkpoints": list(checkpoints),
            "eta": options.eta,
        }
    )
    return Cell(
        key,
        _fold_cell,
        (
            dataset.X,
            dataset.y,
            fold.train,
            fold.test,
            settings,
            fold.perm_seed,
            checkpoints,
            options.eta,
        ),
    )


def run_fold_cells(
    jobs: list[tuple[Dataset, Fold]], settings: Settings, options: RunOptions, desc: str = "folds"
) -> list[FoldResult]:
    """Run ``settings`` on every ``(dataset, fold)`` pair; results in the same order."""
    cells = [fold_cell(d, f, settings, options) for d, f in jobs]
    raw = options.run(cells, desc)
    return [FoldResult.from_arrays(r) for r in raw]


def fold_accuracies(results: list[FoldResult]) -> np.ndarray:
    """Stack fold results into accuracies of shape (folds, settings, checkpoints, 4)."""
    return np.stack([r.accuracy for r in results])
