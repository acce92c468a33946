"""Full-size data: time and memory of the KW trainer against the floor and the peers.

Run: ``python benchmarks/bench_fullsize.py [--quick] [--only fashion|kw]``.

Two scenarios, each measured in one run so the ratios compare like with like
on this shared 2-core machine (times are the minimum over ``--repeats``):

**fashion**: Fashion-MNIST (Debian's ``dataset-fashion-mnist``), 60,000 x 784
uint8 training images, ten classes, one epoch:

* floor: one single-threaded ``X @ W`` pass (float64, all ten classes);
* ours: ``KWPerceptron(epochs=1)`` on the uint8 matrix as it is (all ten
  one-vs-rest problems in one pass over the rows);
* scikit-learn ``Perceptron(max_iter=1, tol=None, n_jobs=2)`` and
  ``SGDClassifier(loss="hinge", average=True, max_iter=1, tol=None)``;
* river's ``Perceptron`` (one-vs-rest) and Vowpal Wabbit (``--oaa 10``, one
  pass), timed on a subsample and scaled to the full size;
* voted prediction of the 10,000 test rows against the one product it needs
  (``X_test @ support.T``), with a bounded chunk size.

**kw**: Khardon-Wachman data, f = 500, 10^6 examples (M = 0.1, N = 0.05):
generation time in int8; one epoch on int8 storage and on float64 storage
(a one-epoch fit, and the per-epoch cost from a 2- and a 4-epoch fit)
against the float64 ``X @ w`` floor.

Memory: each fit or prediction runs again in a fresh process, which resets
its peak resident set size after loading the data; the table gives the peak
*added* by the operation as a multiple of the data's own size (target: at
most 0.5).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import warnings

import numpy as np
from threadpoolctl import threadpool_limits

from perceptron_core import KWPerceptron

KW_SHAPE = (1_000_000, 500)
QUICK_KW_SHAPE = (100_000, 500)
PEER_ROWS = 3_000  # river and Vowpal Wabbit learn row by row in Python: a subsample, scaled
VOTED_CHUNK = 64  # test rows per chunk of the voted product (memory ~ chunk x support x 16)


def best_time(func, repeats: int) -> float:
    """The minimum wall time of ``repeats`` calls (the least disturbed run)."""
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best


# -- data -----------------------------------------------------------------------------------


def fashion(quick: bool):
    from perceptron_core.datasets import load_fashion_mnist

    X, y = load_fashion_mnist(part="train")
    X_test, y_test = load_fashion_mnist(part="test")
    if quick:
        X, y, X_test, y_test = X[:10_000], y[:10_000], X_test[:2_000], y_test[:2_000]
    return X, y, X_test, y_test


def kw(quick: bool, dtype: str = "int8"):
    from perceptron_core.datasets import make_kw

    m, f = QUICK_KW_SHAPE if quick else KW_SHAPE
    data = make_kw(f, 0.1, 0.05, m, random_state=0, dtype=dtype)
    return data.X, data.y


# -- memory: one operation in a fresh process ---------------------------------------------


def _status(field: str) -> float:
    """A field of /proc/self/status in MiB (VmRSS: now; VmHWM: the peak)."""
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"{field} not in /proc/self/status (Linux only)")


def measure_memory(op: str, quick: bool) -> dict:
    """Run ``op`` after loading its data; the peak RSS it adds, against the data's size."""
    if op.startswith("fashion"):
        X, y, X_test, _ = fashion(quick)
        data_mib = (X.nbytes + X_test.nbytes) / 2**20
    else:
        X, y = kw(quick, "int8" if op == "kw-int8" else "float64")
        data_mib = X.nbytes / 2**20
    # load the compiled kernels first: their code is the process's, not the operation's
    KWPerceptron(epochs=1, random_state=0).fit(X[:200], y[:200]).predict_all(X[:50])
    clf = None
    if op == "fashion-predict":
        clf = KWPerceptron(epochs=1, random_state=0).fit(X, y)
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")  # reset VmHWM: the peak from here on is the operation's
    base = _status("VmRSS")
    if op == "fashion-predict":
        clf.predict_all(X_test, chunk_size=VOTED_CHUNK)
    elif op == "fashion-fit" or op.startswith("kw"):
        KWPerceptron(epochs=1, random_state=0).fit(X, y)
    return {"op": op, "data_mib": data_mib, "added_mib": _status("VmHWM") - base}


def memory_in_subprocess(op: str, quick: bool) -> dict:
    args = [sys.executable, __file__, "--memory-worker", op] + (["--quick"] if quick else [])
    out = subprocess.run(args, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


# -- peers on a subsample ------------------------------------------------------------------


def river_seconds(X, y) -> float | None:
    try:
        from river import linear_model, multiclass
    except ImportError:
        return None
    model = multiclass.OneVsRestClassifier(linear_model.Perceptron())
    rows = [dict(enumerate(map(float, x))) for x in X]
    start = time.perf_counter()
    for x, label in zip(rows, y):
        model.learn_one(x, int(label))
    return time.perf_counter() - start


def vw_seconds(X, y) -> float | None:
    try:
        from vowpalwabbit import pyvw
    except ImportError:
        return None
    n_classes = len(np.unique(y))
    lines = [
        f"{int(label) + 1} | " + " ".join(f"{j}:{v}" for j, v in enumerate(x) if v)
        for x, label in zip(X, y)
    ]
    model = pyvw.Workspace(f"--oaa {n_classes} --quiet")
    start = time.perf_counter()
    for line in lines:
        model.learn(line)
    seconds = time.perf_counter() - start
    model.finish()
    return seconds


# -- scenarios ------------------------------------------------------------------------------


def run_fashion(quick: bool, repeats: int) -> list[tuple[str, float, str]]:
    from sklearn.linear_model import Perceptron, SGDClassifier

    X, y, X_test, y_test = fashion(quick)
    m = len(X)
    X64 = X.astype(np.float64)
    W = np.random.default_rng(0).normal(size=(X.shape[1], 10))
    with threadpool_limits(1):
        floor = best_time(lambda: X64 @ W, repeats)
    KWPerceptron(epochs=1).fit(X[:100], y[:100])  # compile outside the timing
    ours = best_time(lambda: KWPerceptron(epochs=1, random_state=0).fit(X, y), repeats)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # max_iter=1 warns that it did not converge
        sk = best_time(lambda: Perceptron(max_iter=1, tol=None, n_jobs=2).fit(X, y), repeats)
        sgd = best_time(
            lambda: SGDClassifier(loss="hinge", average=True, max_iter=1, tol=None).fit(X, y),
            repeats,
        )
    sub = slice(0, min(PEER_ROWS, m))
    river = river_seconds(X[sub], y[sub])
    vw = vw_seconds(X[sub], y[sub])
    scale = m / min(PEER_ROWS, m)

    clf = KWPerceptron(epochs=1, random_state=0).fit(X, y)
    support = clf._hyp.support.vectors.astype(np.float64)  # the distinct updated rows
    Xt64 = X_test.astype(np.float64)
    product = best_time(lambda: Xt64 @ support.T, repeats)
    voted = best_time(lambda: clf.decision_function(X_test, "voted", VOTED_CHUNK), repeats)
    accuracy = {mode: float(np.mean(p == y_test)) for mode, p in clf.predict_all(X_test).items()}

    rows = [
        ("floor: X @ W, float64, 1 thread", floor, "1.00 x floor"),
        ("ours: KWPerceptron, 1 epoch, uint8", ours,
         f"{ours / floor:.2f} x floor; sklearn Perceptron / ours = {sk / ours:.1f}"),
        ("scikit-learn Perceptron(n_jobs=2)", sk, f"{sk / floor:.2f} x floor"),
        ("scikit-learn SGD hinge, averaged", sgd,
         f"{sgd / floor:.2f} x floor; SGD / ours = {sgd / ours:.1f}"),
    ]
    for name, seconds in (("river Perceptron (OvR)", river), ("Vowpal Wabbit --oaa", vw)):
        if seconds is not None:
            rows.append((f"{name}, scaled from {min(PEER_ROWS, m):,} rows", seconds * scale,
                         f"{seconds * scale / ours:.0f} x ours"))
    rows += [
        (f"voted prediction, {len(X_test):,} test rows", voted,
         f"{voted / product:.2f} x the product; {len(support):,} support rows"),
        ("  the product X_test @ support.T", product, ""),
        ("test accuracy (last / longest / voted / averaged)", float("nan"),
         " / ".join(f"{100 * a:.1f}" for a in accuracy.values())),
    ]
    return rows


def run_kw(quick: bool, repeats: int) -> list[tuple[str, float, str]]:
    from perceptron_core.datasets import make_kw

    m, f = QUICK_KW_SHAPE if quick else KW_SHAPE
    generation = best_time(
        lambda: make_kw(f, 0.1, 0.05, m, random_state=0, dtype="int8"), 1
    )
    X8, y = kw(quick, "int8")
    X64 = X8.astype(np.float64)
    w = np.random.default_rng(0).normal(size=f)
    with threadpool_limits(1):
        floor = best_time(lambda: X64 @ w, repeats)
    KWPerceptron(epochs=1).fit(X8[:100], y[:100])
    KWPerceptron(epochs=1).fit(X64[:100], y[:100])
    rows = [(f"generation, {m:,} x {f} int8", generation, ""),
            ("floor: X @ w, float64, 1 thread", floor, "1.00 x floor")]
    for name, X in (("int8", X8), ("float64", X64)):
        one = best_time(lambda X=X: KWPerceptron(epochs=1, random_state=0).fit(X, y), repeats)
        # two and four epochs both read a permuted copy: their difference is two epochs
        two = best_time(lambda X=X: KWPerceptron(epochs=2, random_state=0).fit(X, y), repeats)
        four = best_time(lambda X=X: KWPerceptron(epochs=4, random_state=0).fit(X, y), repeats)
        per_epoch = (four - two) / 2
        rows.append((f"ours: one-epoch fit (read in place), {name}", one,
                     f"{one / floor:.2f} x floor"))
        rows.append((f"ours: per epoch of a longer fit (permuted copy), {name}", per_epoch,
                     f"{per_epoch / floor:.2f} x floor"))
    return rows


def print_rows(title: str, rows) -> None:
    print(f"\n### {title}\n\n| what | seconds | ratio |\n| --- | --- | --- |")
    for name, seconds, ratio in rows:
        shown = "" if np.isnan(seconds) else f"{seconds:.3f}"
        print(f"| {name} | {shown} | {ratio} |")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    parser.add_argument("--only", choices=("fashion", "kw"), default=None)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--memory-worker", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.memory_worker:
        print(json.dumps(measure_memory(args.memory_worker, args.quick)))
        return
    scenarios = [args.only] if args.only else ["fashion", "kw"]
    memory_ops = []
    if "fashion" in scenarios:
        print_rows("Fashion-MNIST, ten classes, one epoch", run_fashion(args.quick, args.repeats))
        memory_ops += ["fashion-fit", "fashion-predict"]
    if "kw" in scenarios:
        print_rows("KW f = 500, 10^6 examples (M = 0.1, N = 0.05)",
                   run_kw(args.quick, args.repeats))
        memory_ops += ["kw-int8", "kw-float64"]
    print("\n### Peak memory added by the operation (fresh process each)\n")
    print("| operation | data (MiB) | added (MiB) | added / data |\n| --- | --- | --- | --- |")
    for op in memory_ops:
        r = memory_in_subprocess(op, args.quick)
        print(f"| {op} | {r['data_mib']:.0f} | {r['added_mib']:.0f} | "
              f"{r['added_mib'] / r['data_mib']:.2f} |")


if __name__ == "__main__":
    main()
