"""The NR-boosting comparison (Cantador & Dorronsoro 2005, Table 1; docs/algorithms.md §9.8).

Protocol: twonorm, threenorm and ringnorm with 300 examples (one sample per
problem); stratified 10-fold cross-validation repeated ``repeats`` times;
in each fold exactly ``round(p * m)`` labels of the training part are
flipped (:func:`~perceptron_core.datasets.flip_labels_exact`) for ``p`` in
{0, 5, 10, 20, 30} %, and the test fold stays clean. Learners, each with
its defaults (3 perceptrons, ``gamma = 0.05``, ``eta = 1e-3``, 250 epochs,
10 members or rounds):

* ``PP``: one parallel perceptron;
* ``PP bagging``, ``PP boosting`` (AdaBoost), ``NR boosting``
  (:mod:`perceptron_core.boosting`);
* for comparison, the KW perceptron on the same noisy training part (100
  epochs, no switch): ``last``, ``voted``, ``averaged``; and the margin
  perceptron ``tau = 0.5`` (last hypothesis).

Cells report test accuracy; a table cell is the mean over all folds and
repeats with its 95 % t-interval.
"""

from __future__ import annotations

import numpy as np

from perceptron_core.experiments.cache import array_digest, cell_key
from perceptron_core.experiments.cv import DEFAULT_OPTIONS, RunOptions
from perceptron_core.experiments.execution import Cell
from perceptron_core.experiments.fold_run import run_fold
from perceptron_core.experiments.folds import derive_seed, stratified_folds
from perceptron_core.experiments.grids import Settings
from perceptron_core.experiments.stats import t_interval
from perceptron_core.experiments.tables import Table, clean

PROBLEMS = ("twonorm", "threenorm", "ringnorm")
NOISE = (0.0, 0.05, 0.10, 0.20, 0.30)
LEARNERS = (
    "PP",
    "PP bagging",
    "PP boosting",
    "NR boosting",
    "perceptron last",
    "perceptron voted",
    "perceptron averaged",
    "margin tau=0.5",
)
_KW = Settings.from_tuples([(0.0, 0.0, None), (0.5, 0.0, None)])


def _nr_cell(X, y, train, test, noise, seed) -> dict:
    """Test accuracy of every learner on one fold with ``noise`` flipped training labels."""
    from perceptron_core.boosting import AdaBoost, Bagging, NRBoost
    from perceptron_core.datasets import flip_labels_exact
    from perceptron_core.parallel import ParallelPerceptron

    y_noisy, flipped = flip_labels_exact(y[train], noise, random_state=derive_seed(seed, "flip"))
    models = (
        ParallelPerceptron(random_state=derive_seed(seed, "pp")),
        Bagging(random_state=derive_seed(seed, "bag")),
        AdaBoost(random_state=derive_seed(seed, "ada")),
        NRBoost(random_state=derive_seed(seed, "nr")),
    )
    acc = [float(np.mean(m.fit(X[train], y_noisy).predict(X[test]) == y[test])) for m in models]
    y_all = y.astype(np.float64).copy()
    y_all[train] = y_noisy
    kw = run_fold(X, y_all, train, test, _KW, derive_seed(seed, "perm")).accuracy[:, -1, :]
    acc += [kw[0, 0], kw[0, 2], kw[0, 3], kw[1, 0]]  # last, voted, averaged; tau=0.5 last
    # The first NR round's committee saw uniform weights: its "noisy" flags are the
    # categorisation the NR paper evaluates against the truly flipped labels.
    flagged = models[3].categories_[0] == "noisy"
    flags = np.array([np.sum(flagged & flipped), flagged.sum(), flipped.sum()])
    return {"accuracy": np.array(acc), "flags": flags}


def nr_comparison(
    repeats: int = 10,
    noise=NOISE,
    problems=PROBLEMS,
    *,
    n_samples: int = 300,
    n_folds: int = 10,
    seed: int = 0,
    options: RunOptions = DEFAULT_OPTIONS,
) -> Table:
    """Mean test accuracy ± 95 % t-interval of each learner per problem and noise level.

    Examples
    --------
    >>> t = nr_comparison(repeats=1, noise=(0.1,), problems=("twonorm",), n_samples=60,
    ...                   n_folds=3, options=RunOptions(jobs=1))
    >>> [r["column"] for r in t.records][:4]
    ['PP', 'PP bagging', 'PP boosting', 'NR boosting']
    """
    from perceptron_core.datasets import load

    cells, index = [], []
    for problem in problems:
        X, y, _ = load(
            problem, n_samples=n_samples, random_state=derive_seed(seed, "data", problem)
        )
        digest = array_digest(X, y)
        for r in range(repeats):
            folds = stratified_folds(y, n_folds, derive_seed(seed, problem, "folds", r))
            for i, (train, test) in enumerate(folds):
                for p in noise:
                    cell_seed = derive_seed(seed, problem, r, i, p)
                    key = cell_key(
                        {
                            "kind": "nr-fold",
                            "data": digest,
                            "train": array_digest(train),
                            "noise": p,
                            "seed": cell_seed,
                            "learners": LEARNERS,
                        }
                    )
                    cells.append(Cell(key, _nr_cell, (X, y, train, test, p, cell_seed)))
                    index.append((problem, p))
    results = options.run(cells, desc="NR folds")
    records = []
    for problem in problems:
        for p in noise:
            rows = np.stack(
                [res["accuracy"] for res, key in zip(results, index) if key == (problem, p)]
            )
            for j, learner in enumerate(LEARNERS):
                mean, half = t_interval(rows[:, j])
                records.append(
                    {
                        "problem": problem,
                        "noise": p,
                        "column": learner,
                        "accuracy": round(100 * mean, 4),
                        "interval": clean(round(100 * half, 4)),
                        "n_folds": len(rows),
                    }
                )
            hits, flagged, flipped = np.sum(
                [res["flags"] for res, key in zip(results, index) if key == (problem, p)], axis=0
            )
            for name, part, whole in (
                ("flag precision", hits, flagged),
                ("flag recall", hits, flipped),
            ):
                records.append(
                    {
                        "problem": problem,
                        "noise": p,
                        "column": name,
                        "accuracy": round(float(100 * part / whole), 4) if whole else None,
                        "n_folds": len(rows),
                    }
                )
    notes = [
        (
            f"{n_samples} examples per problem; stratified {n_folds}-fold cross-validation "
            f"repeated {repeats} times; exactly round(p m) training labels flipped, test folds "
            "clean; mean ± 95 % t-interval over all folds."
        ),
        (
            "flag precision / flag recall: the share of the first NR round's 'noisy' "
            "flags that are truly flipped labels, and the share of flipped labels flagged, "
            "pooled over all folds (without noise recall is empty and any flag is a "
            "false alarm)."
        ),
    ]
    return Table(
        "NR boosting comparison (test accuracy, %)",
        records,
        ("problem", "noise"),
        "column",
        notes=notes,
    )
