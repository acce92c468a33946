"""Parameter search (KW section 3.3, docs/algorithms.md §9.2): a variant's best on each data set.

For every setting of the grid, the 10-fold cross-validated accuracy (the
mean of the fold accuracies) in each prediction mode; a table column then
reports, per data set and mode, the best accuracy over the column's settings
**excluding** the inactive value (:func:`~perceptron_core.experiments.grids.choose`
with ``include_inactive=False``), and a table row averages that over the
data sets of a group (e.g. the ten data sets of one noise level). Because
the best setting is picked on the test folds themselves this is optimistic:
it shows what a variant can reach, not what parameter selection achieves
(that is :mod:`perceptron_core.experiments.optimize`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from perceptron_core.experiments.cv import (
    DEFAULT_OPTIONS,
    RunOptions,
    fold_accuracies,
    outer_folds,
    run_fold_cells,
)
from perceptron_core.experiments.data import Dataset
from perceptron_core.experiments.grids import KW_SETTINGS, SEARCH_COLUMNS, Settings, choose
from perceptron_core.experiments.tables import Table, grouped_cells
from perceptron_core.modes import MODES


@dataclass
class SearchResult:
    """Fold accuracies of every setting on every data set.

    Attributes
    ----------
    datasets : list of Dataset
    settings : Settings
    fold_accuracy : ndarray of shape (D, F, S, P, 4)
        Data set, fold, setting, checkpoint epoch, mode (last, longest,
        voted, averaged).
    epochs : tuple of int
        The checkpoint epochs (P of them).
    """

    datasets: list
    settings: Settings
    fold_accuracy: np.ndarray
    epochs: tuple

    @property
    def accuracy(self) -> np.ndarray:
        """Cross-validated accuracy, shape (D, S, P, 4)."""
        return self.fold_accuracy.mean(axis=1)

    def best(
        self, d: int, column: str, mode: str, include_inactive: bool = False, checkpoint: int = -1
    ) -> tuple[int, float]:
        """``(setting index, accuracy)`` a column picks for data set ``d`` and ``mode``."""
        scores = self.accuracy[d, :, checkpoint, MODES.index(mode)]
        i = choose(scores, self.settings, column, include_inactive)
        return i, float(scores[i])

    def table(
        self,
        title: str,
        group_by: tuple = (),
        columns=SEARCH_COLUMNS,
        modes=MODES,
        include_inactive: bool = False,
    ) -> Table:
        """The search table: rows (group, mode), one column per ``columns``.

        ``group_by`` names data set tags (e.g. ``("noise",)``); a row averages
        its data sets' column figures. Without it, each data set is a row.
        """
        fields, cells = grouped_cells(self.datasets, group_by, modes, columns)
        records = []
        for record, members, mode, column in cells:
            picks = [self.best(d, column, mode, include_inactive) for d in members]
            record.update(
                mode=mode,
                column=column,
                accuracy=round(100 * float(np.mean([a for _, a in picks])), 4),
                n_datasets=len(members),
            )
            if len(members) == 1:
                record.update(self.settings.as_dict(picks[0][0]))
            records.append(record)
        notes = [
            (
                f"{self.fold_accuracy.shape[1]}-fold cross-validation, {self.epochs[-1]} "
                f"epochs; best over each column's grid "
                f"{'including' if include_inactive else 'excluding'} the inactive value; "
                f"{len(self.settings)} settings."
            )
        ]
        return Table(title, records, fields + ("mode",), "column", notes=notes)


def parameter_search(
    datasets: list[Dataset],
    settings: Settings = KW_SETTINGS,
    *,
    n_folds: int = 10,
    seed: int = 0,
    options: RunOptions = DEFAULT_OPTIONS,
) -> SearchResult:
    """Cross-validate every setting on every data set (one compiled call per fold).

    Parameters
    ----------
    datasets : list of Dataset
    settings : Settings, default=KW_SETTINGS (91 settings)
    n_folds : int, default=10
    seed : int, default=0
        Seeds the folds and the training orders (see :mod:`~perceptron_core.experiments.cv`).
    options : RunOptions
        Epochs, learning rate, checkpoints, parallelism, cache, progress.

    Returns
    -------
    SearchResult

    Examples
    --------
    >>> from perceptron_core.experiments.data import kw_sets
    >>> from perceptron_core.experiments.grids import kw_settings
    >>> sets = kw_sets(10, 0.1, 0.1, count=2, seed=0, n_samples=100)
    >>> grid = kw_settings((0.0, 0.5), (0.0, 1.0), (None, 10))
    >>> result = parameter_search(sets, grid, n_folds=3, options=RunOptions(epochs=20, jobs=1))
    >>> result.fold_accuracy.shape
    (2, 3, 6, 1, 4)
    >>> table = result.table("demo", group_by=("noise",))
    >>> [r["column"] for r in table.records[:6]]
    ['nothing', 'tau', 'lam', 'alpha', 'tauxlam', 'tauxalpha']
    """
    plan = [(d, fold) for d in datasets for fold in outer_folds(d, n_folds, seed)]
    results = run_fold_cells(plan, settings, options, desc="search folds")
    acc = fold_accuracies(results)
    acc = acc.reshape(len(datasets), n_folds, *acc.shape[1:])
    return SearchResult(list(datasets), settings, acc, options.epoch_list)
