"""Double cross-validation, dominance counts and curves, checked against direct computations."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core.experiments.curves import epoch_curve, size_curve
from perceptron_core.experiments.cv import RunOptions, inner_folds, outer_folds
from perceptron_core.experiments.data import kw_sets
from perceptron_core.experiments.dominance import PAIRS, dominance_counts
from perceptron_core.experiments.fold_run import run_fold
from perceptron_core.experiments.grids import choose, kw_settings
from perceptron_core.experiments.optimize import parameter_optimisation
from perceptron_core.experiments.search import parameter_search
from perceptron_core.experiments.stats import t_interval
from perceptron_core.modes import MODES

GRID = kw_settings((0.0, 0.5, 2.0), (0.0, 1.0), (None, 5))
OPTIONS = RunOptions(epochs=12, jobs=1)


@pytest.fixture(scope="module")
def data():
    return kw_sets(10, 0.05, 0.15, count=1, seed=3, n_samples=90)[0]


def test_double_cv_chooses_by_inner_cv_and_tests_on_the_outer_fold(data):
    result = parameter_optimisation([data], GRID, n_folds=3, n_inner=3, seed=1, options=OPTIONS)
    for i, outer in enumerate(outer_folds(data, 3, seed=1)):
        # the inner folds lie inside the outer training part
        inner = inner_folds(data, outer, i, 3, seed=1)
        assert all(
            np.isin(f.train, outer.train).all() and np.isin(f.test, outer.train).all()
            for f in inner
        )
        inner_acc = np.mean(
            [
                run_fold(data.X, data.y, f.train, f.test, GRID, f.perm_seed, epochs=12).accuracy[
                    :, 0
                ]
                for f in inner
            ],
            axis=0,
        )
        outer_acc = run_fold(
            data.X, data.y, outer.train, outer.test, GRID, outer.perm_seed, epochs=12
        ).accuracy[:, 0]
        for column in ("tau", "tauxalpha", "tau->lam"):
            for m, mode in enumerate(MODES):
                values, picks = result.fold_values(0, column, mode)
                assert picks[i] == choose(inner_acc[:, m], GRID, column, include_inactive=True)
                assert values[i] == outer_acc[picks[i], m]


def test_optimisation_table_reports_mean_and_t_interval(data):
    result = parameter_optimisation([data], GRID, n_folds=3, n_inner=3, seed=1, options=OPTIONS)
    record = next(
        r for r in result.table("t").records if r["mode"] == "voted" and r["column"] == "tau"
    )
    values, _ = result.fold_values(0, "tau", "voted")
    mean, half = t_interval(values)
    assert record["accuracy"] == pytest.approx(100 * mean, abs=1e-3)
    assert record["interval"] == pytest.approx(100 * half, abs=1e-3)
    assert record["ci_low"] == pytest.approx(100 * (mean - half), abs=1e-3)


def test_search_outer_folds_are_shared_with_the_optimisation(data):
    search = parameter_search([data], GRID, n_folds=3, seed=1, options=OPTIONS)
    optimisation = parameter_optimisation(
        [data], GRID, n_folds=3, n_inner=3, seed=1, options=OPTIONS
    )
    np.testing.assert_array_equal(search.fold_accuracy[:, :, :, -1, :], optimisation.outer)


def test_search_table_averages_each_data_sets_best():
    sets = kw_sets(10, 0.05, 0.1, count=2, seed=0, n_samples=80)
    result = parameter_search(sets, GRID, n_folds=3, options=OPTIONS)
    record = next(
        r
        for r in result.table("t", group_by=("noise",)).records
        if r["mode"] == "last" and r["column"] == "tau"
    )
    acc = result.accuracy[:, :, -1, 0]  # data set x setting, last hypothesis
    tau_on = np.flatnonzero((GRID.tau > 0) & (GRID.lam == 0) & (GRID.alpha == GRID.alpha[0]))
    assert record["accuracy"] == pytest.approx(100 * acc[:, tau_on].max(axis=1).mean(), abs=1e-3)
    assert record["n_datasets"] == 2 and record["noise"] == 0.1


def test_dominance_counts_wins_losses_and_ties():
    sets = kw_sets(8, 0.05, 0.2, count=4, seed=2, n_samples=60)
    table = dominance_counts(sets, n_folds=3, options=OPTIONS)
    counts = {r["column"]: r["count"] for r in table.records}
    search = parameter_search(
        sets, kw_settings((0.0,), (0.0,), (None,)), n_folds=3, options=OPTIONS
    )
    acc = search.accuracy[:, 0, -1, :]  # data set x mode
    for a, b in PAIRS:
        ca, cb = acc[:, MODES.index(a)], acc[:, MODES.index(b)]
        assert counts[f"{a}>{b}"] == int((ca > cb + 1e-12).sum())
        assert counts[f"{b}>{a}"] == int((cb > ca + 1e-12).sum())
        assert counts[f"{a}>{b}"] + counts[f"{b}>{a}"] + counts[f"{a}={b}"] == 4


def test_epoch_curve_points_are_the_runs_of_that_length(data):
    table = epoch_curve([data], taus=(0.0,), epochs=(2, 9), n_folds=3, seed=1, options=OPTIONS)
    short = parameter_search(
        [data],
        kw_settings((0.0,), (0.0,), (None,)),
        n_folds=3,
        seed=1,
        options=RunOptions(epochs=9, jobs=1),
    )
    for r in (r for r in table.records if r["epochs"] == 9):
        expected = 100 * short.accuracy[0, 0, 0, MODES.index(r["mode"])]
        assert r["accuracy"] == pytest.approx(expected, abs=1e-3)


def test_size_curve_spread_is_over_the_repeats():
    pool = kw_sets(10, 0.1, 0.1, count=1, seed=0, n_samples=260)[0]
    table = size_curve(
        pool, sizes=(10, 150), taus=(0.0,), repeats=4, test_size=100, options=OPTIONS
    )
    small = next(r for r in table.records if r["size"] == 10 and r["mode"] == "last")
    large = next(r for r in table.records if r["size"] == 150 and r["mode"] == "last")
    assert small["sd"] > 0 and large["accuracy"] > small["accuracy"]
    with pytest.raises(ValueError, match="fewer than the largest size"):
        size_curve(pool, sizes=(200,), test_size=100, options=OPTIONS)


def test_nr_flags_count_the_flipped_labels_and_beat_chance():
    from perceptron_core.datasets import make_twonorm
    from perceptron_core.experiments.folds import stratified_folds
    from perceptron_core.experiments.nr import _nr_cell

    X, y, _, _ = make_twonorm(200, random_state=3)
    train, test = stratified_folds(y, 5, 0)[0]
    hits, flagged, flipped = _nr_cell(X, y, train, test, 0.2, seed=11)["flags"]
    assert flipped == round(0.2 * len(train))  # exactly round(p m) flips
    assert 0 < hits <= min(flagged, flipped)
    # a flag is worth something only if it is right more often than a random pick
    assert hits / flagged > 0.2


def test_nr_table_reports_flag_recall_only_under_noise():
    from perceptron_core.experiments.nr import nr_comparison

    t = nr_comparison(
        repeats=1,
        noise=(0.0, 0.2),
        problems=("twonorm",),
        n_samples=90,
        n_folds=3,
        options=RunOptions(jobs=1, cache_dir=None),
    )
    flags = {(r["noise"], r["column"]): r["accuracy"] for r in t.records if "flag" in r["column"]}
    assert flags[(0.0, "flag recall")] is None  # nothing was flipped
    assert flags[(0.0, "flag precision")] in (None, 0.0)  # any flag is a false alarm
    assert 0 < flags[(0.2, "flag precision")] <= 100 and 0 < flags[(0.2, "flag recall")] <= 100
