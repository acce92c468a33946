"""Per-epoch cost of the KW trainer against its peers and the memory floor.

Run: ``python benchmarks/bench_core.py [--rows 100000] [--features 500]``.

All figures come from one run, so the ratios compare like with like on this
(shared, noisy) machine. Two data sets of the same size: KW-style data (a
sixth of the visits update) and integers with a random linear target and 10 %
flipped labels (a quarter update: the update-heavy case). For each:

* **floor**: one single-threaded ``X @ w`` pass over the training matrix,
  what reading the data once costs with BLAS;
* **ours**: ``KWPerceptron`` plain (and, on the first set, with each switch:
  ``tau``, ``lam``, ``alpha_bound``), per epoch = (time of a long fit - time
  of a short fit) / extra epochs, the minimum over repetitions; the rest of a
  fit (validation, setup, the end-of-fit work) is reported separately as the
  fixed cost; with the share of visits that updated; the cost of an update is
  the difference of the plain epochs on the two sets over the difference of
  their updates;
* **scikit-learn** ``Perceptron(tol=None, shuffle=False)`` timed the same way;
* **river** ``Perceptron``, which learns one dict at a time: timed on a
  subsample and scaled to the full size.

Then, on the first set: **voted prediction** of 10,000 test rows against the
one matrix product it needs (``X_test @ support.T``), and the **first call
after import** in a fresh process, with the compilation cache warm.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

import numpy as np
from common import best_time, per_epoch
from threadpoolctl import threadpool_limits

#: Epochs of the long fit (the short one has 2): ten extra epochs outweigh the
#: run-to-run jitter of a fit's fixed work (validation, the permuted copy).
LONG = 12


def make_data(rows: int, features: int, seed: int = 0):
    """KW-style data: integers in [-10, 10], a random linear target, 5% flipped labels."""
    try:
        from perceptron_core.datasets import make_kw

        X, y, *_ = make_kw(
            n_features=features, margin=0.05, noise=0.05, n_samples=rows, random_state=seed
        )
        return np.asarray(X, dtype=np.float64), np.asarray(y)
    except ImportError:
        rng = np.random.default_rng(seed)
        X = rng.integers(-10, 11, size=(rows, features)).astype(np.float64)
        score = X @ rng.normal(size=features)
        y = np.where(score > np.median(score), 1, -1)
        y[rng.random(rows) < 0.05] *= -1
        return X, y


def _fresh_process_seconds(code: str) -> float:
    """What ``code`` prints (its own timing) in a fresh process, the second of two runs (the
    first warms numba's cache and the file system's)."""
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return float(out.stdout.strip())


def first_call_seconds() -> tuple[float, float]:
    """Import + first tiny fit and predict_all in a fresh process (cache warm), and importing
    scikit-learn's estimator base alone: the floor of any scikit-learn estimator's first call."""
    fit = (
        "import time; t = time.perf_counter();"
        "import numpy as np; from perceptron_core import KWPerceptron;"
        "X = np.random.default_rng(0).normal(size=(50, 3)); y = (X[:, 0] > 0).astype(int);"
        "KWPerceptron(epochs=2, tau=0.5, lam=0.5, alpha_bound=3, record='all').fit(X, y)"
        ".predict_all(X); print(time.perf_counter() - t)"
    )
    base = (
        "import time; t = time.perf_counter(); import sklearn.base; print(time.perf_counter() - t)"
    )
    return _fresh_process_seconds(fit), _fresh_process_seconds(base)


def noisy_data(rows: int, features: int, seed: int = 0):
    """The update-heavy case: integers in [-10, 10], the 0/1 sign of a random linear target,
    10 % of the labels flipped: about a quarter of the visits update (a sixth on
    :func:`make_data`'s data), so the update path weighs more.
    """
    rng = np.random.default_rng(seed)
    X = rng.integers(-10, 11, size=(rows, features)).astype(np.float64)
    score = X @ rng.normal(size=features)
    y = (score > np.median(score)).astype(np.int64)
    flip = rng.random(rows) < 0.10
    y[flip] = 1 - y[flip]
    return X, y


def epoch_table(X, y, variants: dict, repeats: int, river_rows: int) -> list[tuple]:
    """``(name, epoch s, fixed s, updates per epoch)`` of our trainer's variants and the peers."""
    from perceptron_core import KWPerceptron

    table = []
    KWPerceptron(epochs=1).fit(X[:100], y[:100])  # compile outside the timings
    for name, params in variants.items():

        def fit(epochs, params=params):
            KWPerceptron(epochs=epochs, random_state=0, **params).fit(X, y)

        epoch, fixed = per_epoch(fit, 2, LONG, repeats)
        clf = KWPerceptron(epochs=LONG, random_state=0, **params).fit(X, y)
        table.append((name, epoch, fixed, clf.n_updates_ / LONG))

    from sklearn.linear_model import Perceptron as SkPerceptron

    def sk_fit(epochs):
        SkPerceptron(max_iter=epochs, tol=None, shuffle=False, random_state=0).fit(X, y)

    import warnings

    from sklearn.exceptions import ConvergenceWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        epoch, fixed = per_epoch(sk_fit, 2, LONG, max(2, repeats // 2))
    table.append(("scikit-learn Perceptron", epoch, fixed, None))

    try:
        from river import linear_model as river_lm

        rows_as_dicts = [dict(enumerate(row)) for row in X[:river_rows]]
        labels = (y[:river_rows] == 1).tolist()

        def river_epoch():
            model = river_lm.Perceptron()
            for xd, label in zip(rows_as_dicts, labels):
                model.learn_one(xd, label)

        epoch = best_time(river_epoch, 2) * len(X) / river_rows
        table.append(("river Perceptron (scaled)", epoch, float("nan"), None))
    except ImportError:
        table.append(("river Perceptron (not installed)", float("nan"), float("nan"), None))
    return table


def print_epochs(title: str, X, y, table, floor: float) -> None:
    """The table, each epoch as a multiple of the floor, with the share of visits that updated."""
    rows = len(X)
    print(
        f"\n{title}: {rows:,} x {X.shape[1]} float64 ({X.nbytes / 2**20:.0f} MiB), "
        f"{(y == 1).mean():.0%} positive; floor (one single-threaded X @ w pass) "
        f"{floor * 1e3:.1f} ms"
    )
    print(f"{'trainer':32s} {'epoch ms':>9s} {'x floor':>8s} {'fixed ms':>9s} {'updates':>8s}")
    for name, epoch, fixed, updates in table:
        rate = "" if updates is None else f"{updates / rows:8.1%}"
        print(f"{name:32s} {epoch * 1e3:9.1f} {epoch / floor:8.2f} {fixed * 1e3:9.1f} {rate:>8s}")
    ours = table[0][1]
    sk = next(e for name, e, *_ in table if name.startswith("scikit"))
    print(f"scikit-learn epoch / our plain epoch: {sk / ours:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--features", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--river-rows", type=int, default=2_000)
    args = parser.parse_args()

    from perceptron_core import KWPerceptron

    kw_data = make_data(args.rows, args.features)
    cases = {
        "KW-style data (a linear target, 5 % flipped)": (
            kw_data,
            {
                "ours, plain": {},
                "ours, tau=0.5": {"tau": 0.5},
                "ours, lam=0.5": {"lam": 0.5},
                "ours, alpha_bound=5": {"alpha_bound": 5},
            },
        ),
        "integers, a random linear 0/1 target, 10 % flipped": (
            noisy_data(args.rows, args.features),
            {"ours, plain": {}},
        ),
    }
    plain = []  # (epoch s, updates per epoch) of our plain trainer on each set
    for title, ((X, y), variants) in cases.items():
        w = np.random.default_rng(1).normal(size=X.shape[1])
        with threadpool_limits(1):
            floor = best_time(lambda X=X, w=w: X @ w, args.repeats * 3)
        table = epoch_table(X, y, variants, args.repeats, args.river_rows)
        print_epochs(title, X, y, table, floor)
        _, epoch, _, updates = table[0]
        plain.append((epoch, updates))
    # The two sets have the same size and type: the difference of their epochs is the
    # cost of the second set's extra updates.
    (epoch1, updates1), (epoch2, updates2) = plain
    print(
        f"\nan update costs {(epoch2 - epoch1) / (updates2 - updates1) * 1e9:.0f} ns "
        f"(plain epochs {epoch1 * 1e3:.1f} and {epoch2 * 1e3:.1f} ms with "
        f"{updates1:,.0f} and {updates2:,.0f} updates)"
    )

    X, y = kw_data
    # Voted prediction of 10,000 rows against the one matrix product it needs.
    clf = KWPerceptron(epochs=3, random_state=0, predict_with="voted").fit(X, y)
    X_test = X[:10_000]
    support = clf._hyp.support.as_float64()
    matmul = best_time(lambda: X_test @ support.T, 3)
    voted = best_time(lambda: clf.decision_function(X_test, mode="voted"), 3)
    print(
        f"\nvoted prediction, 10,000 rows, {clf.n_updates_:,} updates, "
        f"{len(support):,} support rows: {voted:.2f} s = {voted / matmul:.2f} x the product "
        f"X_test @ support.T ({matmul:.2f} s)"
    )

    first, sklearn_base = first_call_seconds()
    print(
        f"first call after import (warm cache): {first:.2f} s; importing sklearn.base alone "
        f"(numpy, scipy, pandas with it): {sklearn_base:.2f} s"
    )


if __name__ == "__main__":
    main()
