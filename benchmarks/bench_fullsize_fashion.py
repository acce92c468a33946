"""Fashion-MNIST, ten classes: one epoch and voted predictions, against scikit-learn.

Run: ``python benchmarks/bench_fullsize_fashion.py [--quick]``.

All times come from one run on the same data, so the ratios compare like with
like on this (shared, noisy) machine. Rows:

* **floor**: one single-threaded ``X @ W`` pass over the float64 training
  matrix for all ten classes (``W`` is 784 x 10): an epoch cannot read the
  data faster than that;
* **ours**: ``KWPerceptron(epochs=1)`` on the uint8 images as they are (the
  whole ``fit``: validation, setup, one pass updating all ten class vectors,
  the record), then voted and averaged predictions on the test rows;
* **scikit-learn** ``Perceptron(max_iter=1, tol=None, n_jobs=2)`` and
  ``SGDClassifier(loss="hinge", average=True, max_iter=1)``, fitted on the
  float64 matrix they convert to anyway (the conversion is not timed);
* **river** and **Vowpal Wabbit** on a subsample, scaled to the full size;
* the **float64 product** ``support @ X_test.T`` that voted prediction used to
  need, for the speed-up of the exact float32 product.

Targets (full-size runs): our epoch <= 2 x the floor and >= 2 x faster than
scikit-learn. Without the Debian package ``dataset-fashion-mnist`` the script
says so and uses random uint8 images of the same shape.
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
from common import best_time, print_table, river_epoch_seconds, vw_epoch_seconds
from threadpoolctl import threadpool_limits


def load(quick: bool):
    """Training and test images (uint8) and labels; the note says where they came from."""
    from perceptron_core.datasets import DataError, load_fashion_mnist

    try:
        X, y = load_fashion_mnist(part="train")
        X_test, y_test = load_fashion_mnist(part="test")
        note = "Fashion-MNIST"
    except DataError:
        rng = np.random.default_rng(0)
        X = rng.integers(0, 256, size=(60_000, 784), dtype=np.uint8)
        X_test = rng.integers(0, 256, size=(10_000, 784), dtype=np.uint8)
        y, y_test = rng.integers(0, 10, size=60_000), rng.integers(0, 10, size=10_000)
        note = "random uint8 stand-in (dataset-fashion-mnist is not installed)"
    if quick:
        X, y, X_test, y_test = X[:6_000], y[:6_000], X_test[:1_000], y_test[:1_000]
    return X, y, X_test, y_test, note


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the data (smoke run)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--chunk-size",
        type=int,
        default=None,
        help="test rows per chunk of the voted product (default: 64 MiB)",
    )
    parser.add_argument(
        "--subsample", type=int, default=2_000, help="rows river and Vowpal Wabbit are timed on"
    )
    args = parser.parse_args()

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron as SkPerceptron
    from sklearn.linear_model import SGDClassifier

    from perceptron_core import KWPerceptron

    X, y, X_test, y_test, note = load(args.quick)
    m, n = X.shape
    print(
        f"data: {note}, {m:,} x {n} {X.dtype} training ({X.nbytes / 2**20:.0f} MiB), "
        f"{len(X_test):,} test rows"
    )
    X64 = X.astype(np.float64)
    W = np.random.default_rng(1).normal(size=(n, 10))
    with threadpool_limits(1):
        floor = best_time(lambda: X64 @ W, args.repeats * 3)

    KWPerceptron(epochs=1, predict_with="voted").fit(X[:500], y[:500]).predict_all(
        X_test[:10]
    )  # compile first
    rows = []
    ours = best_time(lambda: KWPerceptron(epochs=1, random_state=0).fit(X, y), args.repeats)
    # the voted setting keeps the update record the voted and predict_all rows below read
    clf = KWPerceptron(epochs=1, random_state=0, predict_with="voted").fit(X, y)
    rows.append(("ours: fit, one epoch (uint8)", ours, f"{clf.n_updates_:,} updates"))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        sk = best_time(
            lambda: SkPerceptron(max_iter=1, tol=None, n_jobs=2, random_state=0).fit(X64, y),
            args.repeats,
        )
        sgd = best_time(
            lambda: SGDClassifier(
                loss="hinge", average=True, max_iter=1, tol=None, random_state=0
            ).fit(X64, y),
            args.repeats,
        )
    rows.append(("scikit-learn Perceptron(n_jobs=2)", sk, f"ours is {sk / ours:.1f} x faster"))
    rows.append(
        ("scikit-learn SGDClassifier(hinge, average)", sgd, f"ours is {sgd / ours:.1f} x faster")
    )

    sub = min(args.subsample, m)
    try:
        river = river_epoch_seconds(X, y, sub // 4, multiclass=True) * m / (sub // 4)
        rows.append(("river OneVsRest(Perceptron), scaled", river, f"timed on {sub // 4:,} rows"))
    except ImportError:
        rows.append(("river", np.nan, "not installed"))
    try:
        vw = vw_epoch_seconds(X, y, sub, n_classes=10) * m / sub
        rows.append(("Vowpal Wabbit --oaa 10 hinge, scaled", vw, f"timed on {sub:,} rows"))
    except ImportError:
        rows.append(("Vowpal Wabbit", np.nan, "not installed"))

    voted = best_time(
        lambda: clf.decision_function(X_test, mode="voted", chunk_size=args.chunk_size), 1
    )
    averaged = best_time(lambda: clf.decision_function(X_test, mode="averaged"), args.repeats)
    support = clf._hyp.support.vectors
    old = best_time(lambda: support.astype(np.float64) @ X_test.astype(np.float64).T, 1)
    accuracy = {
        mode: float((pred == y_test).mean())
        for mode, pred in clf.predict_all(X_test, chunk_size=args.chunk_size).items()
    }
    rows.append(
        (
            f"ours: voted scores, {len(X_test):,} test rows",
            voted,
            f"{len(support):,} support rows; {old / voted:.1f} x faster than the f64 product",
        )
    )
    rows.append(("  (float64 product support @ X_test.T)", old, "what voted used to need"))
    rows.append(("ours: averaged scores", averaged, ""))
    print_table(rows, floor, "floor")
    print(f"\nfloor (single-threaded float64 X @ W, W {n} x 10): {floor * 1e3:.1f} ms")
    print(
        "test accuracy after one epoch: "
        + ", ".join(f"{mode} {acc:.3f}" for mode, acc in accuracy.items())
    )
    print(
        f"targets: ours / floor = {ours / floor:.2f} (<= 2); scikit-learn / ours = "
        f"{min(sk, sgd) / ours:.1f} (>= 2)"
    )


if __name__ == "__main__":
    main()
