"""How long the paper's experiments take: Table 4, one Table 6 data set, the Table 3 rows.

Run: ``python benchmarks/bench_experiments.py [--jobs 2] [--skip-uci]``.

Three timings, each without the disk cache and after one warm-up call
(the numba compilation cache is warm in every worker):

1. **Table 4 parameter search**: KW artificial data ``f = 50``,
   ``M = 0.05``, five noise levels, 10 data sets each (600 examples), all 91
   settings, 10-fold cross-validation: 45,500 training runs of 100 epochs,
   each scored in all four modes. Target: 60 s on 2 cores.
2. **Table 6 double cross-validation** of one 600-example data set
   (``N = 0.1``): 10 outer folds x (10 inner folds + 1) x 91 settings =
   10,010 training runs, every column of Table 6 from them. Target: 30 s.
3. **Table 3 rows** (parameter search, 91 settings, 10 folds) for every
   shipped UCI data set plus scikit-learn's WDBC. Target: 5 minutes.

Also printed: milliseconds per 100-epoch training (wall time x workers /
runs, i.e. core time, and the kernel alone in this process on one fold),
and, for comparison, the straightforward way: ``KWPerceptron.fit`` then
``predict_all`` for each setting. The machine may be shared: compare
numbers from one run with each other, and rerun before drawing conclusions.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from perceptron_core import KWPerceptron
from perceptron_core.experiments import (
    KW_SETTINGS,
    RunOptions,
    kw_sets,
    parameter_optimisation,
    parameter_search,
    resolve,
)
from perceptron_core.experiments.cv import outer_folds
from perceptron_core.experiments.execution import default_jobs
from perceptron_core.experiments.fold_run import run_fold
from perceptron_core.experiments.reproduce import KW_NOISE, uci_names


def timed(func):
    start = time.perf_counter()
    value = func()
    return value, time.perf_counter() - start


def kernel_ms_per_training(dataset, repeats=5) -> float:
    """Best time of one fold's 91 runs in this process, per run."""
    fold = outer_folds(dataset, 10, seed=0)[0]

    def run():
        return run_fold(dataset.X, dataset.y, fold.train, fold.test, KW_SETTINGS, fold.perm_seed)

    run()
    return min(timed(run)[1] for _ in range(repeats)) / len(KW_SETTINGS) * 1e3


def straightforward_ms_per_training(dataset, n_settings=13) -> float:
    """``KWPerceptron.fit`` + ``predict_all`` per setting (a sample of the grid)."""
    fold = outer_folds(dataset, 10, seed=0)[0]
    X, y = dataset.X, dataset.y
    picks = np.linspace(0, len(KW_SETTINGS) - 1, n_settings).astype(int)

    def run():
        for i in picks:
            clf = KWPerceptron(
                tau=float(KW_SETTINGS.tau[i]),
                lam=float(KW_SETTINGS.lam[i]),
                alpha_bound=KW_SETTINGS.alpha_value(i),
                random_state=0,
                predict_with="voted",
            )  # keeps the record predict_all reads
            clf.fit(X[fold.train], y[fold.train]).predict_all(X[fold.test])

    run()
    return min(timed(run)[1] for _ in range(3)) / n_settings * 1e3


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--skip-uci", action="store_true", help="skip the Table 3 timing")
    args = parser.parse_args(argv)
    options = RunOptions(jobs=args.jobs)
    print(f"workers: {args.jobs} (this machine may be shared; times vary run to run)")

    # warm every worker's compilation cache outside the timings
    warm = kw_sets(50, 0.05, 0.1, 1, seed=99)
    parameter_search(warm, n_folds=10, options=options)

    sets = [d for N in KW_NOISE for d in kw_sets(50, 0.05, N, 10, seed=0)]
    result, seconds = timed(lambda: parameter_search(sets, n_folds=10, options=options))
    runs = len(sets) * 10 * len(KW_SETTINGS)
    print(
        f"\n1. Table 4 parameter search: {seconds:.1f} s for {runs:,} runs "
        f"({seconds * args.jobs / runs * 1e3:.3f} ms of core time per 100-epoch run; "
        "target 60 s)"
    )
    table = result.table("Table 4", group_by=("noise",))
    for noise in (0.0, 0.1):
        row = {
            r["column"]: r["accuracy"]
            for r in table.records
            if r["noise"] == noise and r["mode"] == "voted"
        }
        print(f"   voted, N={noise}: " + ", ".join(f"{c} {v:.1f}" for c, v in row.items()))

    one = kw_sets(50, 0.05, 0.1, 1, seed=0)
    _, seconds = timed(lambda: parameter_optimisation(one, options=options))
    runs = 10 * 11 * len(KW_SETTINGS)
    print(
        f"\n2. Table 6 double CV of one 600-example set: {seconds:.1f} s for {runs:,} runs "
        f"({seconds * args.jobs / runs * 1e3:.3f} ms of core time per run; target 30 s)"
    )

    print("\n   per 100-epoch run on one fold (540 training, 60 test examples, f=50):")
    for noise in (0.0, 0.1, 0.25):
        d = kw_sets(50, 0.05, noise, 1, seed=0)[0]
        print(
            f"   N={noise}: grid kernel {kernel_ms_per_training(d):.3f} ms; "
            f"KWPerceptron fit + predict_all {straightforward_ms_per_training(d):.2f} ms"
        )

    if not args.skip_uci:
        uci = [d for name in uci_names() for d in resolve(name)]
        _, seconds = timed(lambda: parameter_search(uci, n_folds=10, options=options))
        shapes = ", ".join(f"{d.label} {d.X.shape[0]}x{d.X.shape[1]}" for d in uci)
        print(f"\n3. Table 3 rows ({len(uci)} UCI sets: {shapes}): {seconds:.1f} s (target 300 s)")


if __name__ == "__main__":
    main()
