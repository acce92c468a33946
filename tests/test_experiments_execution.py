"""Running cells: the disk cache lets a run resume, and results never depend on where cells ran."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core.experiments import fold_run
from perceptron_core.experiments.cv import RunOptions
from perceptron_core.experiments.data import kw_sets
from perceptron_core.experiments.grids import kw_settings
from perceptron_core.experiments.search import parameter_search

GRID = kw_settings((0.0, 0.5), (0.0, 1.0), (None, 10))


@pytest.fixture(scope="module")
def sets():
    return kw_sets(10, 0.1, 0.1, count=2, seed=0, n_samples=90)


def _search(sets, **options):
    return parameter_search(
        sets, GRID, n_folds=3, seed=4, options=RunOptions(epochs=15, **{"jobs": 1, **options})
    )


def test_a_second_run_reads_every_cell_from_the_cache(sets, tmp_path):
    calls = fold_run.KERNEL_CALLS
    first = _search(sets, cache_dir=tmp_path)
    assert fold_run.KERNEL_CALLS - calls == 6  # 2 data sets x 3 folds
    calls = fold_run.KERNEL_CALLS
    second = _search(sets, cache_dir=tmp_path)
    assert fold_run.KERNEL_CALLS == calls  # nothing recomputed
    np.testing.assert_array_equal(first.fold_accuracy, second.fold_accuracy)


def test_an_interrupted_run_recomputes_only_the_missing_cells(sets, tmp_path):
    full = _search(sets, cache_dir=tmp_path)
    stored = sorted(tmp_path.rglob("*.npz"))
    assert len(stored) == 6
    for path in stored[:2]:  # as if the run had died before these two finished
        path.unlink()
    calls = fold_run.KERNEL_CALLS
    resumed = _search(sets, cache_dir=tmp_path)
    assert fold_run.KERNEL_CALLS - calls == 2
    np.testing.assert_array_equal(full.fold_accuracy, resumed.fold_accuracy)


def test_a_changed_specification_is_not_read_from_the_cache(sets, tmp_path):
    _search(sets, cache_dir=tmp_path)
    calls = fold_run.KERNEL_CALLS
    parameter_search(
        sets, GRID, n_folds=3, seed=4, options=RunOptions(epochs=16, jobs=1, cache_dir=tmp_path)
    )
    assert fold_run.KERNEL_CALLS - calls == 6


def test_same_seed_same_numbers_whatever_the_number_of_processes(sets):
    one = _search(sets)
    two = _search(sets, jobs=2)
    np.testing.assert_array_equal(one.fold_accuracy, two.fold_accuracy)
    other_seed = parameter_search(
        sets, GRID, n_folds=3, seed=5, options=RunOptions(epochs=15, jobs=1)
    )
    assert not np.array_equal(one.fold_accuracy, other_seed.fold_accuracy)


def test_a_dask_cluster_gives_the_local_numbers(sets):
    from dask.distributed import LocalCluster

    local = _search(sets)
    with LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        remote = parameter_search(
            sets,
            GRID,
            n_folds=3,
            seed=4,
            options=RunOptions(epochs=15, scheduler=cluster.scheduler_address),
        )
    np.testing.assert_array_equal(local.fold_accuracy, remote.fold_accuracy)
