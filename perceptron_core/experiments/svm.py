"""The SVM reference KW compare against (docs/algorithms.md §9.6): L1 and L2 soft margins.

* **L1** soft margin (hinge loss, ``C sum xi``): scikit-learn's :class:`~sklearn.svm.SVC`
  with a linear kernel (libsvm; the bias is not regularised).
* **L2** soft margin (``C/2 sum xi^2``): the same solver on the kernel
  ``K + I/C`` with a very large box constraint, which is exactly the L2
  soft-margin problem (Cristianini & Shawe-Taylor, 2000, section 6.1.2).
  The diagonal term is the SVM counterpart of the perceptron's λ-trick
  (KW's motivation for it); at test time the kernel is ``K`` alone.

Before training, the features are divided by one common factor so that the
mean squared norm of the training part is 1. A linear classifier's
predictions do not change under such a scaling (nor do the KW perceptron's),
but it makes one C grid mean the same on every data set.

The table reports, per data set, the best 10-fold cross-validated accuracy
over the C grid (a search, like the perceptron's parameter search, on the
same folds with the same seed).
"""

from __future__ import annotations

import warnings

import numpy as np

from perceptron_core.experiments.cache import array_digest, cell_key
from perceptron_core.experiments.cv import DEFAULT_OPTIONS, RunOptions, outer_folds
from perceptron_core.experiments.data import Dataset
from perceptron_core.experiments.execution import Cell
from perceptron_core.experiments.tables import Table

#: C values (for data scaled to mean squared norm 1).
C_GRID = (0.01, 0.1, 1.0, 10.0, 100.0, 1000.0)
KINDS = ("L1", "L2")
#: Box constraint standing in for "no box" in the L2 formulation.
HARD = 1e8


def _fold_svm(X, y, train, test, c_grid) -> dict:
    """Test accuracy of L1 and L2 soft-margin SVMs for every C on one fold."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.svm import SVC

    X = np.asarray(X, dtype=np.float64)
    scale = np.sqrt(np.mean(np.einsum("ij,ij->i", X[train], X[train]))) or 1.0
    Xtr, Xte = X[train] / scale, X[test] / scale
    K, Kt = Xtr @ Xtr.T, Xte @ Xtr.T
    acc = np.zeros((len(KINDS), len(c_grid)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for j, C in enumerate(c_grid):
            l1 = SVC(kernel="precomputed", C=C, max_iter=10**7).fit(K, y[train])
            acc[0, j] = np.mean(l1.predict(Kt) == y[test])
            l2 = SVC(kernel="precomputed", C=HARD, max_iter=10**7)
            l2.fit(K + np.eye(len(train)) / C, y[train])
            acc[1, j] = np.mean(l2.predict(Kt) == y[test])
    return {"accuracy": acc}


def svm_reference(
    datasets: list[Dataset],
    c_grid=C_GRID,
    *,
    n_folds: int = 10,
    seed: int = 0,
    options: RunOptions = DEFAULT_OPTIONS,
) -> Table:
    """Best cross-validated accuracy over ``c_grid`` of L1 and L2 soft-margin SVMs.

    Examples
    --------
    >>> from perceptron_core.experiments.data import kw_sets
    >>> sets = kw_sets(10, 0.1, 0.0, count=1, seed=0, n_samples=80)
    >>> t = svm_reference(sets, c_grid=(1.0, 100.0), n_folds=3, options=RunOptions(jobs=1))
    >>> [(r["column"], r["accuracy"] > 80) for r in t.records]
    [('SVM L1', True), ('SVM L2', True)]
    """
    plan, cells = [], []
    for d in datasets:
        for fold in outer_folds(d, n_folds, seed):
            key = cell_key(
                {
                    "kind": "svm-fold",
                    "data": d.digest,
                    "train": array_digest(fold.train),
                    "test": array_digest(fold.test),
                    "c_grid": list(c_grid),
                    "hard": HARD,
                }
            )
            cells.append(Cell(key, _fold_svm, (d.X, d.y, fold.train, fold.test, tuple(c_grid))))
            plan.append(d)
    results = options.run(cells, desc="SVM folds")
    acc = np.stack([r["accuracy"] for r in results])
    acc = acc.reshape(len(datasets), n_folds, len(KINDS), len(c_grid)).mean(axis=1)
    records = []
    for i, ds in enumerate(datasets):
        for k, kind in enumerate(KINDS):
            best = int(np.argmax(acc[i, k]))
            records.append(
                {
                    "dataset": ds.label,
                    "column": f"SVM {kind}",
                    "accuracy": round(100 * float(acc[i, k, best]), 4),
                    "C": float(c_grid[best]),
                }
            )
    notes = [
        (
            f"Best {n_folds}-fold cross-validated accuracy over C in {list(c_grid)} "
            "(features scaled to mean squared norm 1)."
        )
    ]
    return Table("SVM reference", records, ("dataset",), "column", notes=notes)
