"""Learning curves (docs/algorithms.md §9.5): accuracy against epochs and against data size.

* :func:`epoch_curve`: cross-validated accuracy of the last hypothesis, the
  longest survivor, the voted and the averaged perceptron after 1, 2, 3, 5,
  ..., 1000 epochs (a log axis). One 1000-epoch run per fold and setting
  scores the test part at every checkpoint on the way (the grid kernel's
  checkpoints), so the curve costs what its last point costs.
* :func:`size_curve`: accuracy and its standard deviation over repeated
  random training sets of 10 ... 20,000 examples, for several margins
  ``tau``, on one fixed test set. KW show that the margin makes the
  perceptron's accuracy less variable; the standard deviation is the point.
"""

from __future__ import annotations

import numpy as np

from perceptron_core.experiments._grid_kernel import MODES
from perceptron_core.experiments.cv import (
    DEFAULT_OPTIONS,
    Fold,
    RunOptions,
    outer_folds,
    run_fold_cells,
)
from perceptron_core.experiments.data import Dataset
from perceptron_core.experiments.defaults import EPOCH_GRID, SIZE_GRID, SIZE_TAUS
from perceptron_core.experiments.folds import derive_seed
from perceptron_core.experiments.grids import Settings
from perceptron_core.experiments.tables import Table


def tau_settings(taus) -> Settings:
    """The margin-only settings ``(tau, lam=0, no bound)``."""
    return Settings.from_tuples([(float(t), 0.0, None) for t in taus])


def epoch_curve(
    datasets: list[Dataset],
    taus=(0.0,),
    epochs=EPOCH_GRID,
    *,
    n_folds: int = 10,
    seed: int = 0,
    options: RunOptions = DEFAULT_OPTIONS,
    group_by: tuple = (),
    modes=MODES,
) -> Table:
    """Cross-validated accuracy after each epoch count in ``epochs``, per mode and ``tau``.

    Rows are (group, tau, epochs), columns the modes; a cell averages the
    data sets of its group (or shows one data set when ``group_by`` is empty).

    Examples
    --------
    >>> from perceptron_core.experiments.data import kw_sets
    >>> sets = kw_sets(10, 0.1, 0.1, count=1, seed=0, n_samples=80)
    >>> t = epoch_curve(sets, epochs=(1, 10, 100), n_folds=3,
    ...                 options=RunOptions(jobs=1))
    >>> [(r["epochs"], r["mode"]) for r in t.records[:5]]
    [(1, 'last'), (1, 'longest'), (1, 'voted'), (1, 'averaged'), (10, 'last')]
    """
    settings = tau_settings(taus)
    options = RunOptions(**{**options.__dict__, "checkpoints": tuple(epochs)})
    plan = [(d, f) for d in datasets for f in outer_folds(d, n_folds, seed)]
    results = run_fold_cells(plan, settings, options, desc="epoch-curve folds")
    acc = np.stack([r.accuracy for r in results])  # (D*F, S, P, 4)
    acc = acc.reshape(len(datasets), n_folds, *acc.shape[1:]).mean(axis=1)
    groups: dict = {}
    for d, ds in enumerate(datasets):
        key = tuple(ds.tags.get(g) for g in group_by) if group_by else (ds.label,)
        groups.setdefault(key, []).append(d)
    fields = tuple(group_by) if group_by else ("dataset",)
    records = []
    for key, members in groups.items():
        for s, tau in enumerate(taus):
            for p, e in enumerate(epochs):
                for mode in modes:
                    value = acc[members, s, p, MODES.index(mode)].mean()
                    records.append(
                        {
                            **dict(zip(fields, key)),
                            "tau": float(tau),
                            "epochs": int(e),
                            "mode": mode,
                            "accuracy": round(100 * float(value), 4),
                        }
                    )
    notes = [
        (
            f"{n_folds}-fold cross-validation; accuracy after each number of epochs, all "
            "points of a curve from one run per fold."
        )
    ]
    return Table(
        "Accuracy against epochs", records, fields + ("tau", "epochs"), "mode", notes=notes
    )


def size_curve(
    pool: Dataset,
    sizes=SIZE_GRID,
    taus=SIZE_TAUS,
    *,
    repeats: int = 10,
    test_size: int = 500,
    seed: int = 0,
    options: RunOptions = DEFAULT_OPTIONS,
    modes=MODES,
) -> Table:
    """Accuracy (mean ± standard deviation over ``repeats``) against training-set size.

    The last ``test_size`` rows of ``pool`` are the test set; each training
    set is a seeded random sample (without replacement) of the other rows.

    Examples
    --------
    >>> from perceptron_core.experiments.data import kw_sets
    >>> pool = kw_sets(10, 0.1, 0.1, count=1, seed=0, n_samples=300)[0]
    >>> t = size_curve(pool, sizes=(20, 100), taus=(0.0, 1.0), repeats=3, test_size=100,
    ...                options=RunOptions(epochs=20, jobs=1))
    >>> r = t.records[0]
    >>> r["size"], r["tau"], r["mode"], r["sd"] >= 0
    (20, 0.0, 'last', True)
    """
    m = len(pool.y)
    available = m - test_size
    if available < max(sizes):
        raise ValueError(
            f"{pool.label} has {m} examples: with a test set of {test_size} at most "
            f"{available} remain for training, fewer than the largest size {max(sizes)}."
        )
    test = np.arange(available, m)
    settings = tau_settings(taus)
    plan = []
    for size in sizes:
        for r in range(repeats):
            rng = np.random.default_rng(derive_seed(seed, pool.label, "subset", size, r))
            train = np.sort(rng.choice(available, size=size, replace=False))
            plan.append((pool, Fold(train, test, derive_seed(seed, pool.label, "perm", size, r))))
    results = run_fold_cells(plan, settings, options, desc="size-curve cells")
    acc = np.stack([res.accuracy[:, -1, :] for res in results])  # (sizes*repeats, S, 4)
    acc = acc.reshape(len(sizes), repeats, len(settings), len(MODES))
    records = []
    for i, size in enumerate(sizes):
        for s, tau in enumerate(taus):
            for mode in modes:
                values = acc[i, :, s, MODES.index(mode)]
                records.append(
                    {
                        "size": int(size),
                        "tau": float(tau),
                        "mode": mode,
                        "accuracy": round(100 * float(values.mean()), 4),
                        "sd": round(100 * float(values.std(ddof=1)), 4) if repeats > 1 else None,
                    }
                )
    notes = [
        (
            f"{pool.label}: test set of {test_size} examples; {repeats} random training "
            f"sets per size; mean ± standard deviation; {options.epochs} epochs."
        )
    ]
    return Table(
        "Accuracy against training-set size",
        records,
        ("size", "tau"),
        "mode",
        spread_field="sd",
        notes=notes,
    )
