"""The papers' tables and figures, each from one call: :data:`REPRODUCTIONS`.

Khardon & Wachman, "Noise Tolerant Variants of the Perceptron Algorithm",
JMLR 8 (2007) 227-248 ("KW"), and Cantador & Dorronsoro, IWINAC 2005 ("NR").
Which table shows what is our reading of the papers, written down here
because the numbering is the only link between a name and its content:

=============  ==============================================================
``kw-table2``  Dominance of the prediction modes (voted vs last, voted vs
               longest, longest vs last: wins, losses, ties) over the whole
               artificial grid, per noise level. *Assumption*: that Table 2
               is this comparison (KW's first results table, before the
               parameter studies).
``kw-table3``  Parameter search on the UCI data sets: one row per data set
               and mode, columns nothing / tau / lam / alpha / tau×lam /
               tau×alpha. ``svm=True`` adds the SVM reference.
``kw-table4``  Parameter search on artificial data ``f = 50``, ``M = 0.05``
               at the five noise levels, averaged over ``count`` data sets
               per level (default 10).
``kw-table5``  Parameter optimisation (double cross-validation) on the UCI
               data sets, all columns including the sequential searches:
               the UCI rows of KW's Table 6. (KW's Table 5 itself is the
               "Adult" data set against margin and training-set size; the
               name keeps its place in the numbering of this list.)
``kw-table6``  Parameter optimisation on 600-example artificial data
               (``f = 50``, ``M = 0.05``, five noise levels; ``count`` data
               sets per level, default 1), all columns, mean ± 95 %
               t-interval.
``kw-fig3``    Accuracy against epochs (1 ... 1000, log axis) of the last,
               longest-survivor, voted and averaged perceptron on the
               ``f = 50``, ``M = 0.05`` data at each noise level: KW's
               Figure 3 curve (accuracy against training iterations), which
               they draw for the UCI "promoters" data, here on their
               artificial data; the curve against training-set size is
               ``perceptron-lab curve DATA --x size``.
``nr-table1``  NR Table 1: parallel perceptrons, bagging, AdaBoost and NR
               boosting on twonorm / threenorm / ringnorm with 0-30 % label
               noise (:mod:`perceptron_core.experiments.nr`), plus the KW
               perceptron for comparison.
=============  ==============================================================

Every reproduction uses KW's settings (docs/algorithms.md §9.1): ``eta = 0.1``,
``theta_init = C = mean ||x||^2``, 100 epochs, the training part permuted
once, 10-fold stratified cross-validation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from perceptron_core.experiments.cv import DEFAULT_OPTIONS, RunOptions
from perceptron_core.experiments.data import kw_sets, resolve
from perceptron_core.experiments.defaults import KW_NOISE, REPRODUCTION_TITLES
from perceptron_core.experiments.dominance import dominance_counts, kw_grid_sets
from perceptron_core.experiments.tables import Table

#: KW's Table 4/6 data: f = 50 features, margin M = 0.05.
TABLE4_DATA = {"n_features": 50, "margin": 0.05}


def uci_names() -> list[str]:
    """The shipped UCI data sets, plus scikit-learn's copy of WDBC (KW's Breast Cancer)."""
    from perceptron_core.datasets import get_spec, list_datasets

    specs = list_datasets("shipped") + [get_spec("breast_cancer")]
    return [s.name for s in specs if s.available and len(s.class_names) == 2]


@dataclass(frozen=True)
class Reproduction:
    """One named table or figure: what it shows and how to compute it."""

    name: str
    title: str
    run: Callable  # run(count, seed, options, **extra) -> list[Table]
    default_count: int | None = None


def _artificial(count, seed, noise=KW_NOISE):
    return [
        d
        for N in noise
        for d in kw_sets(TABLE4_DATA["n_features"], TABLE4_DATA["margin"], N, count, seed)
    ]


def _uci(seed):
    return [d for name in uci_names() for d in resolve(name, 1, seed)]


def _table2(count, seed, options, **_):
    table = dominance_counts(kw_grid_sets(count, seed), seed=seed, options=options)
    table.title = f"KW Table 2: dominance of prediction modes ({count} data set(s) per cell)"
    return [table]


def _table3(count, seed, options, svm=False, **_):
    from perceptron_core.experiments.search import parameter_search

    sets = _uci(seed)
    tables = [
        parameter_search(sets, seed=seed, options=options).table(
            "KW Table 3: parameter search on UCI data (accuracy, %)"
        )
    ]
    if svm:
        from perceptron_core.experiments.svm import svm_reference

        tables.append(svm_reference(sets, seed=seed, options=options))
    return tables


def _table4(count, seed, options, **_):
    from perceptron_core.experiments.search import parameter_search

    result = parameter_search(_artificial(count, seed), seed=seed, options=options)
    return [
        result.table(
            f"KW Table 4: parameter search, f=50, M=0.05 (mean of {count} data "
            "sets per noise level, accuracy %)",
            group_by=("noise",),
        )
    ]


def _table5(count, seed, options, **_):
    from perceptron_core.experiments.optimize import parameter_optimisation

    result = parameter_optimisation(_uci(seed), seed=seed, options=options)
    return [
        result.table(
            "Parameter optimisation on UCI data, as in KW Table 6 (accuracy %, "
            "mean ± 95% t-interval)"
        )
    ]


def _table6(count, seed, options, **_):
    from perceptron_core.experiments.optimize import parameter_optimisation

    result = parameter_optimisation(_artificial(count, seed), seed=seed, options=options)
    return [
        result.table(
            f"KW Table 6: parameter optimisation, f=50, M=0.05, 600 examples "
            f"({count} data set(s) per noise level; accuracy %, mean ± 95% "
            "t-interval)",
            group_by=("noise",),
        )
    ]


def _figure3(count, seed, options, **_):
    from perceptron_core.experiments.curves import epoch_curve

    table = epoch_curve(_artificial(count, seed), seed=seed, options=options, group_by=("noise",))
    table.title = (
        f"Accuracy against epochs, KW Figure 3's curve (theirs on promoters) on "
        f"f=50, M=0.05 ({count} data set(s))"
    )
    return [table]


def _nr_table1(count, seed, options, repeats=10, **_):
    from perceptron_core.experiments.nr import nr_comparison

    return [nr_comparison(repeats=repeats, seed=seed, options=options)]


#: Each reproduction's tables and its default count of data sets (when it has one).
_RUNS: dict[str, tuple] = {
    "kw-table2": (_table2, 2),
    "kw-table3": (_table3,),
    "kw-table4": (_table4, 10),
    "kw-table5": (_table5,),
    "kw-table6": (_table6, 1),
    "kw-fig3": (_figure3, 2),
    "nr-table1": (_nr_table1,),
}
REPRODUCTIONS: dict[str, Reproduction] = {
    name: Reproduction(name, title, *_RUNS[name]) for name, title in REPRODUCTION_TITLES.items()
}


def reproduce(
    name: str,
    count: int | None = None,
    seed: int = 0,
    options: RunOptions = DEFAULT_OPTIONS,
    **extra,
) -> list[Table]:
    """Compute the tables of one reproduction (see the module docstring).

    Parameters
    ----------
    name : str
        A key of :data:`REPRODUCTIONS`.
    count : int, optional
        Data sets per artificial cell (default: the reproduction's own).
    seed : int, default=0
    options : RunOptions
    **extra
        ``svm=True`` (kw-table3), ``repeats`` (nr-table1).

    Returns
    -------
    list of Table

    Examples
    --------
    >>> sorted(REPRODUCTIONS)  # doctest: +NORMALIZE_WHITESPACE
    ['kw-fig3', 'kw-table2', 'kw-table3', 'kw-table4', 'kw-table5', 'kw-table6', 'nr-table1']
    """
    if name not in REPRODUCTIONS:
        raise ValueError(
            f"Unknown reproduction {name!r}; choose one of {', '.join(REPRODUCTIONS)}."
        )
    entry = REPRODUCTIONS[name]
    count = entry.default_count if count is None else count
    if count is not None and count < 1:
        raise ValueError(f"--datasets must be at least 1; got {count}.")
    return entry.run(count, seed, options, **extra)
