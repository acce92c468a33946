"""The dominance table: which prediction mode wins, over many artificial data sets.

KW compare the voted perceptron, the longest survivor and the classical
perceptron (the last hypothesis) over their whole artificial grid
(``f`` in {50, 200, 500}, ``M`` in {0.05, 0.1, 0.25, 0.5, 0.75}, two data sets
per cell; docs/algorithms.md §8.1), per noise level ``N``. For each data set the three modes
come from the same runs (10-fold cross-validation, 100 epochs, one
setting), and each pair is counted as a win, a loss or a tie of their
cross-validated accuracies (compared as total correct test predictions, so a
tie is exact). Counts per noise level: ``voted>last``, ``last>voted``,
``voted=last``, and the same for voted/longest and longest/last.

By default the setting is the plain perceptron (no margin, λ-trick or
α-bound); ``settings`` with several entries count every (data set,
setting) pair as a case.
"""

from __future__ import annotations

import numpy as np

from perceptron_core.experiments._grid_kernel import MODES
from perceptron_core.experiments.cv import DEFAULT_OPTIONS, RunOptions, outer_folds, run_fold_cells
from perceptron_core.experiments.data import Dataset, kw_sets
from perceptron_core.experiments.defaults import KW_FEATURES, KW_MARGINS, KW_NOISE
from perceptron_core.experiments.grids import Settings
from perceptron_core.experiments.tables import Table

#: The three comparisons, as (better, other).
PAIRS = (("voted", "last"), ("voted", "longest"), ("longest", "last"))

PLAIN = Settings.from_tuples([(0.0, 0.0, None)])


def kw_grid_sets(
    count: int,
    seed: int,
    features=KW_FEATURES,
    margins=KW_MARGINS,
    noise=KW_NOISE,
    n_samples: int = 600,
) -> list[Dataset]:
    """``count`` data sets for every ``(f, M, N)`` of the grid, tagged for tables."""
    return [
        d
        for f in features
        for M in margins
        for N in noise
        for d in kw_sets(f, M, N, count, seed, n_samples)
    ]


def dominance_counts(
    datasets: list[Dataset],
    settings: Settings = PLAIN,
    *,
    n_folds: int = 10,
    seed: int = 0,
    options: RunOptions = DEFAULT_OPTIONS,
    group_by: str = "noise",
) -> Table:
    """Count wins, losses and ties of the mode pairs per group (default: noise level).

    Examples
    --------
    >>> sets = kw_grid_sets(1, seed=0, features=(10,), margins=(0.1,), noise=(0.0, 0.2),
    ...                     n_samples=60)
    >>> table = dominance_counts(sets, n_folds=3, options=RunOptions(epochs=10, jobs=1))
    >>> sorted({r["noise"] for r in table.records}), table.records[0]["column"]
    ([0.0, 0.2], 'voted>last')
    >>> sum(r["count"] for r in table.records[:3])   # one data set: one win, loss or tie
    1
    """
    plan = [(d, f) for d in datasets for f in outer_folds(d, n_folds, seed)]
    results = run_fold_cells(plan, settings, options, desc="dominance folds")
    # total correct test predictions per data set, setting and mode (final epoch)
    correct = np.stack([r.correct[:, -1, :] for r in results])
    correct = correct.reshape(len(datasets), n_folds, len(settings), len(MODES)).sum(axis=1)
    groups: dict = {}
    for d, ds in enumerate(datasets):
        groups.setdefault(ds.tags.get(group_by), []).append(d)
    records = []
    for key, members in groups.items():
        for a, b in PAIRS:
            ca = correct[members][..., MODES.index(a)]
            cb = correct[members][..., MODES.index(b)]
            for column, count in (
                (f"{a}>{b}", (ca > cb).sum()),
                (f"{b}>{a}", (cb > ca).sum()),
                (f"{a}={b}", (ca == cb).sum()),
            ):
                records.append(
                    {group_by: key, "column": column, "count": int(count), "cases": int(ca.size)}
                )
    notes = [
        (
            f"Cases per row: data sets x settings ({len(settings)} setting(s)); "
            f"{n_folds}-fold cross-validation, {options.epoch_list[-1]} epochs; a win is a "
            "higher cross-validated accuracy."
        )
    ]
    return Table(
        "Dominance of prediction modes",
        records,
        (group_by,),
        "column",
        value_field="count",
        notes=notes,
    )
