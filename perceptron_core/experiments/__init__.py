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

# ruff: noqa: F401 (the TYPE_CHECKING imports below are the package's public names)
from typing import TYPE_CHECKING

from perceptron_core._lazy import attach

# The public names, listed once: type checkers and IDEs read these imports, and at run time
# attach() reads them from this file and imports each on first use.
if TYPE_CHECKING:
    from ._grid_kernel import MODES
    from .curves import epoch_curve, size_curve
    from .cv import RunOptions
    from .data import Dataset, kw_sets, make_dataset, resolve
    from .dominance import dominance_counts, kw_grid_sets
    from .fold_run import run_fold
    from .folds import derive_seed, stratified_folds
    from .grids import COLUMNS, KW_SETTINGS, SEARCH_COLUMNS, Settings, choose, kw_settings
    from .nr import nr_comparison
    from .optimize import OptimisationResult, parameter_optimisation
    from .paum_study import paum_study
    from .reproduce import REPRODUCTIONS, reproduce
    from .search import SearchResult, parameter_search
    from .stats import t_interval
    from .svm import svm_reference
    from .tables import Table

__getattr__, __dir__, __all__ = attach(__name__)
