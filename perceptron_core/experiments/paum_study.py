"""The PAUM study (Li et al. 2002; docs/algorithms.md §9.7): uneven margins on an imbalanced set.

On a set with a rare positive class, stratified 10-fold cross-validation of
:class:`~perceptron_core.rules.paum.PAUMPerceptron` over a grid of margins
``(tau_-1, tau_+1)``, next to the KW perceptron (last hypothesis and voted)
as the even-margin reference. Per learner, the means over the folds (with
95 % t-intervals) of:

* ``MAP``: PAUM's macro-averaged precision — the mean, over the positive
  test examples, of the precision at each one's score
  (:func:`perceptron_core.metrics.macro_averaged_precision` on the decision
  scores); with one positive class this is its average precision, where
  Li et al. average over the topics of a group (ALL, TOP10, LAST30);
* ``precision``, ``recall`` and ``F1`` of the positive class, and
  ``accuracy`` (misleading here on purpose: predicting -1 everywhere scores
  the share of negatives);
* ``sparsity``: the share of training examples never used in an update (the
  ones a dual model would not store).

Margins are given in units of ``R^2 = max ||x||^2`` of the training part
(an update moves the bias by ``eta R^2``), so one grid fits every data set;
with data scaled to ``R = 1`` they are the PAUM paper's absolute margins.
"""

from __future__ import annotations

import numpy as np

from perceptron_core.experiments.cache import array_digest, cell_key
from perceptron_core.experiments.cv import DEFAULT_OPTIONS, RunOptions, outer_folds
from perceptron_core.experiments.data import Dataset
from perceptron_core.experiments.execution import Cell
from perceptron_core.experiments.folds import derive_seed
from perceptron_core.experiments.stats import t_interval
from perceptron_core.experiments.tables import Table, clean

#: ``(tau_-1, tau_+1)`` in units of R^2: even margins first, then uneven ones.
PAUM_MARGINS = (
    (0.0, 0.0),
    (0.1, 0.1),
    (0.0, 0.1),
    (0.0, 0.5),
    (0.0, 1.0),
    (-0.25, 1.0),
    (-0.25, 2.0),
)
METRICS = ("MAP", "precision", "recall", "F1", "accuracy", "sparsity")


def _metrics(y_test, scores, n_unused, n_train) -> list[float]:
    from perceptron_core.metrics import macro_averaged_precision

    predicted = scores > 0  # sign(0) is the negative class
    positive = y_test > 0
    tp = float(np.sum(predicted & positive))
    precision = tp / predicted.sum() if predicted.any() else 0.0
    recall = tp / positive.sum()
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return [
        macro_averaged_precision(y_test, scores),
        precision,
        recall,
        f1,
        float(np.mean(predicted == positive)),
        n_unused / n_train,
    ]


def _paum_cell(X, y, train, test, margins, seed) -> dict:
    """Every metric of every learner on one fold, shape (learners, metrics)."""
    from perceptron_core import KWPerceptron
    from perceptron_core.rules.paum import PAUMPerceptron

    R2 = float(np.max(np.einsum("ij,ij->i", X[train], X[train])))
    rows = []
    for tau_neg, tau_pos in margins:
        clf = PAUMPerceptron(
            tau_neg=tau_neg * R2, tau_pos=tau_pos * R2, random_state=derive_seed(seed, "paum")
        ).fit(X[train], y[train])
        rows.append(_metrics(y[test], clf.decision_function(X[test]), clf.sparsity_, len(train)))
    kw = KWPerceptron(random_state=derive_seed(seed, "kw"), record="updates")
    kw.fit(X[train], y[train])
    unused = len(train) - len(np.unique(kw.trace_.rows))  # rows of the updates
    for mode in ("last", "voted"):
        rows.append(
            _metrics(y[test], kw.decision_function(X[test], mode=mode), unused, len(train))
        )
    return {"metrics": np.array(rows)}


def paum_study(
    dataset: Dataset,
    margins=PAUM_MARGINS,
    *,
    n_folds: int = 10,
    seed: int = 0,
    options: RunOptions = DEFAULT_OPTIONS,
) -> Table:
    """Cross-validated ranking and classification metrics of PAUM and the KW perceptron.

    Examples
    --------
    >>> from perceptron_core.experiments.data import resolve
    >>> data = resolve("imbalanced:n=330", seed=0)[0]
    >>> t = paum_study(data, margins=((0.0, 0.0), (0.0, 1.0)), n_folds=3,
    ...                options=RunOptions(jobs=1))
    >>> sorted({r["learner"] for r in t.records})[:2]
    ['KW perceptron (last)', 'KW perceptron (voted)']
    """
    cells = []
    for fold in outer_folds(dataset, n_folds, seed):
        key = cell_key(
            {
                "kind": "paum-fold",
                "data": dataset.digest,
                "train": array_digest(fold.train),
                "test": array_digest(fold.test),
                "margins": [list(m) for m in margins],
                "seed": fold.perm_seed,
            }
        )
        cells.append(
            Cell(
                key,
                _paum_cell,
                (dataset.X, dataset.y, fold.train, fold.test, tuple(margins), fold.perm_seed),
            )
        )
    results = options.run(cells, desc="PAUM folds")
    values = np.stack([r["metrics"] for r in results])  # (folds, learners, metrics)
    learners = [f"PAUM({a:g}, {b:g})" for a, b in margins]
    learners += ["KW perceptron (last)", "KW perceptron (voted)"]
    records = []
    for i, learner in enumerate(learners):
        for j, metric in enumerate(METRICS):
            mean, half = t_interval(values[:, i, j])
            records.append(
                {
                    "learner": learner,
                    "column": metric,
                    "value": round(100 * mean, 4),
                    "interval": clean(round(100 * half, 4)),
                }
            )
    n_pos = int((dataset.y > 0).sum())
    notes = [
        (
            f"{dataset.label}: {len(dataset.y)} examples, {n_pos} positive; {n_folds}-fold "
            "stratified cross-validation; margins (tau_-1, tau_+1) in units of R^2; values in "
            "percent, mean ± 95% t-interval. MAP = macro-averaged precision (PAUM)."
        )
    ]
    return Table(
        "PAUM study: uneven margins on imbalanced data",
        records,
        ("learner",),
        "column",
        value_field="value",
        notes=notes,
    )
