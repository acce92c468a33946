"""Khardon–Wachman data, f = 500, 10^6 examples: int8 storage against float64.

Run: ``python benchmarks/bench_fullsize_kw.py [--quick] [--rows N]``.

All times come from one run on the same data (the int8 matrix and its float64
conversion), so the ratios compare like with like on this (shared, noisy)
machine. Rows:

* **generation**: ``make_kw(500, M=0.05, N=0.05, 10**6, dtype="int8")``;
* **floor**: one single-threaded float64 ``X @ w`` pass;
* **ours**: one epoch, int8 storage and float64 storage, per epoch = (time of
  a 3-epoch fit - time of a 1-epoch fit) / 2, the minimum over repetitions;
  also int8 with ``shuffle=False`` (a sequential scan: what the shuffled
  order's random row reads cost).
  The in-place rows set ``PERMUTED_COPY_MAX_BYTES = 0``, so ``X`` is read in
  the shuffled order with prefetching and no copy (the memory target; a
  one-epoch fit always does this); the permuted-copy row, the default for a
  longer fit of data under 1 GiB, shows what the copy buys;
* **scikit-learn** ``Perceptron(max_iter=1, tol=None)`` on float64, and
  **river** and **Vowpal Wabbit** on a subsample, scaled.

Target (full-size runs): the int8 epoch beats the float64 floor (about 0.6-0.75 x).
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from common import best_time, per_epoch, print_table, river_epoch_seconds, vw_epoch_seconds
from threadpoolctl import threadpool_limits


def kw_per_epoch(X, y, repeats: int, short: int = 1, **params) -> tuple[float, float]:
    """:func:`common.per_epoch` of ``KWPerceptron(**params)``, fits of ``short`` and ``short + 2``.

    A permuted copy is only made for two or more epochs, so the row that
    measures it uses ``short=2``: then both fits make it.
    """
    from perceptron_core import KWPerceptron

    def fit(epochs):
        return KWPerceptron(epochs=epochs, random_state=0, **params).fit(X, y)

    return per_epoch(fit, short, short + 2, repeats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10^5 rows (smoke run)")
    parser.add_argument("--rows", type=int, default=None)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument(
        "--subsample", type=int, default=2_000, help="rows river and Vowpal Wabbit are timed on"
    )
    args = parser.parse_args()

    from perceptron_core import KWPerceptron, linear
    from perceptron_core.datasets import make_kw

    rows_n = args.rows or (100_000 if args.quick else 1_000_000)
    start = time.perf_counter()
    data = make_kw(500, 0.05, 0.05, rows_n, random_state=0, dtype="int8")
    generation = time.perf_counter() - start
    X, y = data.X, data.y
    X64 = X.astype(np.float64)
    print(
        f"data: KW f=500 M=0.05 N=0.05, {rows_n:,} rows: int8 {X.nbytes / 2**20:.0f} MiB, "
        f"float64 {X64.nbytes / 2**20:.0f} MiB, {(y == 1).mean():.0%} positive"
    )
    w = np.random.default_rng(1).normal(size=X.shape[1])
    with threadpool_limits(1):
        floor = best_time(lambda: X64 @ w, args.repeats * 3)

    KWPerceptron(epochs=1).fit(X[:500], y[:500])  # compile outside the timings
    KWPerceptron(epochs=1).fit(X64[:500], y[:500])
    linear.PERMUTED_COPY_MAX_BYTES = 0  # in place, as a one-epoch fit reads it
    rows = [("generation, make_kw int8", generation, "")]
    int8_epoch, int8_fixed = kw_per_epoch(X, y, args.repeats)
    rows.append(
        ("ours: epoch, int8, in place", int8_epoch, f"fit's fixed cost {int8_fixed:.2f} s")
    )
    f64_epoch, f64_fixed = kw_per_epoch(X64, y, args.repeats)
    rows.append(("ours: epoch, float64, in place", f64_epoch, f"fixed {f64_fixed:.2f} s"))
    in_order, _ = kw_per_epoch(X, y, args.repeats, shuffle=False)
    rows.append(
        ("ours: epoch, int8, in order (shuffle=False)", in_order, "rows read sequentially")
    )
    linear.PERMUTED_COPY_MAX_BYTES = 2**62
    copy_epoch, copy_fixed = kw_per_epoch(X, y, args.repeats, short=2)
    rows.append(
        (
            "ours: epoch, int8, permuted copy",
            copy_epoch,
            f"the copy and the rest of a fit: {copy_fixed:.2f} s",
        )
    )

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron as SkPerceptron

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        sk = best_time(
            lambda: SkPerceptron(max_iter=1, tol=None, random_state=0).fit(X64, y), args.repeats
        )
    rows.append(("scikit-learn Perceptron, one epoch (f64)", sk, "whole fit"))
    sub = args.subsample
    try:
        rows.append(
            (
                "river Perceptron, scaled",
                river_epoch_seconds(X, y, sub, multiclass=False) * rows_n / sub,
                f"timed on {sub:,} rows",
            )
        )
    except ImportError:
        rows.append(("river", np.nan, "not installed"))
    try:
        rows.append(
            (
                "Vowpal Wabbit hinge, scaled",
                vw_epoch_seconds(X, y, sub, n_classes=2) * rows_n / sub,
                f"timed on {sub:,} rows",
            )
        )
    except ImportError:
        rows.append(("Vowpal Wabbit", np.nan, "not installed"))
    print_table(rows, floor, "floor")
    print(f"\nfloor (single-threaded float64 X @ w): {floor * 1e3:.1f} ms")
    print(
        f"target: int8 epoch / floor < 1 (about 0.6-0.75): {copy_epoch / floor:.2f} over the "
        f"permuted copy (the default of a longer fit), {int8_epoch / floor:.2f} read in place "
        "in the shuffled order"
    )


if __name__ == "__main__":
    main()
