"""Parameter optimisation by double cross-validation (KW section 3.4, docs/algorithms.md §9.3).

For each outer fold ``i`` of a data set: an inner 10-fold cross-validation on
the outer training part scores every setting; each column picks its setting
from its grid **including** the inactive value
(:func:`~perceptron_core.experiments.grids.choose` with
``include_inactive=True``), separately for each prediction mode; the chosen
setting is retrained on the whole outer training part and tested on outer
fold ``i``. The column's figure is the mean over the outer folds with the
95 % t-interval of :func:`~perceptron_core.experiments.stats.t_interval`.

Nothing is trained twice: the inner folds and the outer training parts each
run all settings in one compiled call, and the retraining on an outer
training part *is* that outer call (it trains every setting, so the chosen
one is among them). The outer calls are the parameter search's folds
(same seeds), so a search and an optimisation with one seed share cached
cells.

The sequential columns ``tau->lam`` and ``tau->alpha`` choose ``tau`` by
inner cross-validation first (lam = 0, no α-bound), then the other switch
with that ``tau`` fixed.

When a table row groups several data sets, the interval is computed over
all their outer folds together (k = data sets × folds).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from perceptron_core.experiments.cv import (
    DEFAULT_OPTIONS,
    RunOptions,
    inner_folds,
    outer_folds,
    run_fold_cells,
)
from perceptron_core.experiments.data import Dataset
from perceptron_core.experiments.grids import COLUMNS, KW_SETTINGS, Settings, choose
from perceptron_core.experiments.stats import t_interval
from perceptron_core.experiments.tables import Table, clean, grouped_cells
from perceptron_core.modes import MODES


@dataclass
class OptimisationResult:
    """Inner and outer accuracies of every setting, per data set and outer fold.

    Attributes
    ----------
    datasets : list of Dataset
    settings : Settings
    inner : ndarray of shape (D, F, S, 4)
        Inner cross-validated accuracy of each setting (the basis of choice).
    outer : ndarray of shape (D, F, S, 4)
        Accuracy on outer fold ``i`` after training on its training part.
    """

    datasets: list
    settings: Settings
    inner: np.ndarray
    outer: np.ndarray

    def fold_values(self, d: int, column: str, mode: str) -> tuple[np.ndarray, list]:
        """Outer-fold accuracies of the chosen settings, and the choices (indices)."""
        m = MODES.index(mode)
        picks = [
            choose(self.inner[d, i, :, m], self.settings, column, include_inactive=True)
            for i in range(self.inner.shape[1])
        ]
        return np.array([self.outer[d, i, s, m] for i, s in enumerate(picks)]), picks

    def table(self, title: str, group_by: tuple = (), columns=COLUMNS, modes=MODES) -> Table:
        """Rows (group, mode), one column per ``columns``; mean ± 95 % t-interval."""
        fields, cells = grouped_cells(self.datasets, group_by, modes, columns)
        records = []
        for record, members, mode, column in cells:
            values: list[float] = []
            picks: Counter[str] = Counter()
            for d in members:
                v, p = self.fold_values(d, column, mode)
                values.extend(v)
                picks.update(self.settings.label(i) for i in p)
            mean, half = t_interval(values)
            record.update(
                mode=mode,
                column=column,
                accuracy=round(100 * mean, 4),
                interval=clean(round(100 * half, 4)),
                ci_low=clean(round(100 * (mean - half), 4)),
                ci_high=clean(round(100 * (mean + half), 4)),
                n_folds=len(values),
                chosen="; ".join(f"{s} ({n})" for s, n in picks.most_common(3)),
            )
            records.append(record)
        notes = [
            (
                f"Double cross-validation: {self.outer.shape[1]} outer folds, settings "
                "chosen by inner cross-validation on each outer training part over grids "
                "including the inactive value; mean ± 95 % t-interval over the outer folds."
            )
        ]
        return Table(title, records, fields + ("mode",), "column", notes=notes)


def parameter_optimisation(
    datasets: list[Dataset],
    settings: Settings = KW_SETTINGS,
    *,
    n_folds: int = 10,
    n_inner: int = 10,
    seed: int = 0,
    options: RunOptions = DEFAULT_OPTIONS,
) -> OptimisationResult:
    """Double cross-validation of every setting on every data set.

    Parameters
    ----------
    datasets : list of Dataset
    settings : Settings, default=KW_SETTINGS
    n_folds, n_inner : int, default=10
        Outer and inner folds.
    seed : int, default=0
    options : RunOptions

    Returns
    -------
    OptimisationResult

    Examples
    --------
    >>> from perceptron_core.experiments.data import kw_sets
    >>> from perceptron_core.experiments.grids import kw_settings
    >>> sets = kw_sets(10, 0.1, 0.1, count=1, seed=0, n_samples=90)
    >>> grid = kw_settings((0.0, 0.5), (0.0, 1.0), (None, 10))
    >>> result = parameter_optimisation(sets, grid, n_folds=3, n_inner=3,
    ...                                 options=RunOptions(epochs=10, jobs=1))
    >>> result.inner.shape, result.outer.shape
    ((1, 3, 6, 4), (1, 3, 6, 4))
    >>> record = result.table("demo").records[0]
    >>> sorted(k for k in record if k in ("accuracy", "interval", "ci_low", "ci_high"))
    ['accuracy', 'ci_high', 'ci_low', 'interval']
    """
    outer_plan, inner_plan = [], []
    for d in datasets:
        for i, fold in enumerate(outer_folds(d, n_folds, seed)):
            outer_plan.append((d, fold))
            inner_plan += [(d, f) for f in inner_folds(d, fold, i, n_inner, seed)]
    results = run_fold_cells(outer_plan + inner_plan, settings, options, desc="double-CV folds")
    last = [r.accuracy[:, -1, :] for r in results]  # (S, 4) at the final epoch
    D, S = len(datasets), len(settings)
    outer = np.stack(last[: len(outer_plan)]).reshape(D, n_folds, S, len(MODES))
    inner = np.stack(last[len(outer_plan) :]).reshape(D, n_folds, n_inner, S, len(MODES))
    return OptimisationResult(list(datasets), settings, inner.mean(axis=2), outer)
