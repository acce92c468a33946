"""Reproducing Khardon & Wachman (2007) and the NR paper: grids, cross-validation, tables.

The experiments of docs/algorithms.md §9, fast enough for a laptop and ready for a cluster:

* :func:`parameter_search` — cross-validated accuracy of every setting of the
  KW grids (:data:`KW_SETTINGS`, 91 settings), and per column the best
  setting excluding the inactive value;
* :func:`parameter_optimisation` — double cross-validation with grids
  including the inactive value, mean ± 95 % t-interval (:func:`t_interval`),
  and the sequential searches tau->lam and tau->alpha;
* :func:`dominance_counts` — wins, losses and ties of voted / longest /
  last over many artificial data sets, per noise level;
* :func:`epoch_curve` and :func:`size_curve` — learning curves;
* :func:`svm_reference` — L1 and L2 soft-margin SVMs over a C grid;
* :func:`nr_comparison` — NR boosting against bagging and AdaBoost of
  parallel perceptrons under label noise;
* :func:`paum_study` — uneven margins (PAUM) on imbalanced data, with
  macro-averaged precision and sparsity;
* :func:`reproduce` — the papers' tables and figures by name
  (:data:`REPRODUCTIONS`).

How it is fast: every training run yields the last, longest-survivor, voted
and averaged accuracies at once, the test part is scored while training (no
hypothesis is stored), and all settings of one fold run in one compiled call
(:mod:`perceptron_core.experiments._grid_kernel`). Folds and data sets run in
parallel with joblib, or on a Dask cluster (``RunOptions(scheduler=...)``);
finished cells are cached on disk (``RunOptions(cache_dir=...)``), and every
result is reproducible bit for bit from the seed.

Names are imported on first use, so ``import perceptron_core.experiments``
(and ``perceptron-lab --help``) stays fast.

Examples
--------
>>> from perceptron_core.experiments import RunOptions, kw_sets, parameter_search
>>> sets = kw_sets(n_features=20, margin=0.1, noise=0.1, count=1, seed=0, n_samples=100)
>>> result = parameter_search(sets, n_folds=3, options=RunOptions(epochs=20, jobs=1))
>>> result.accuracy.shape                    # data sets, settings, checkpoints, modes
(1, 91, 1, 4)
"""

from importlib import import_module

_EXPORTS = {
    "KW_SETTINGS": "grids",
    "Settings": "grids",
    "kw_settings": "grids",
    "choose": "grids",
    "COLUMNS": "grids",
    "SEARCH_COLUMNS": "grids",
    "RunOptions": "cv",
    "MODES": "_grid_kernel",
    "Dataset": "data",
    "resolve": "data",
    "kw_sets": "data",
    "make_dataset": "data",
    "parameter_search": "search",
    "SearchResult": "search",
    "parameter_optimisation": "optimize",
    "OptimisationResult": "optimize",
    "dominance_counts": "dominance",
    "kw_grid_sets": "dominance",
    "epoch_curve": "curves",
    "size_curve": "curves",
    "svm_reference": "svm",
    "nr_comparison": "nr",
    "paum_study": "paum_study",
    "reproduce": "reproduce",
    "REPRODUCTIONS": "reproduce",
    "t_interval": "stats",
    "stratified_folds": "folds",
    "derive_seed": "folds",
    "run_fold": "fold_run",
    "Table": "tables",
}

__all__ = [
    "COLUMNS",
    "KW_SETTINGS",
    "MODES",
    "REPRODUCTIONS",
    "SEARCH_COLUMNS",
    "Dataset",
    "OptimisationResult",
    "RunOptions",
    "SearchResult",
    "Settings",
    "Table",
    "choose",
    "derive_seed",
    "dominance_counts",
    "epoch_curve",
    "kw_grid_sets",
    "kw_sets",
    "kw_settings",
    "make_dataset",
    "nr_comparison",
    "parameter_optimisation",
    "parameter_search",
    "paum_study",
    "reproduce",
    "resolve",
    "run_fold",
    "size_curve",
    "stratified_folds",
    "svm_reference",
    "t_interval",
]


def __getattr__(name):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{_EXPORTS[name]}"), name)
    globals()[name] = value
    return value


def __dir__():
    return __all__
