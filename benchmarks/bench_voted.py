"""The voted prediction on every training point: the update sequence read in order, against one
product of the support rows with each chunk of test rows.

Run: ``python benchmarks/bench_voted.py [--rows N] [--features D] [--epochs E] [--repeat R]``
(default: the issue's upload, 200,000 rows x 2 integer features with random labels, 2 epochs).

``KWPerceptron(predict_with="voted")`` is trained once; then its voted scores on the training
points are computed by both ways of
:meth:`perceptron_core.engine.record.HypothesisRecord.voted_scores` (the product way is what
every number of features used before the in-order walk, and what more than
:data:`~perceptron_core.engine.record.IN_ORDER_MAX_FEATURES` features still use), in
turns, ``--repeat`` times each. Reported per way: wall time, the process's CPU time (all
threads, BLAS's included) and CPU nanoseconds per voted score (rows x updates), the
minimum over repeats, and the ratios. The scores of both ways are compared. BLAS threads
are as the environment sets them (``OMP_NUM_THREADS=1`` on a server, as ``docs/deploy.md``
recommends, keeps BLAS from burning CPU on the small products of the product way).

The work grows with rows x updates either way: a voted score is a sum of signs of every
hypothesis's score, and no sum along the update sequence gives a sum of signs.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from perceptron_core.engine import record
from perceptron_core.linear import KWPerceptron


def voted(clf, X, last, in_order: bool) -> tuple[np.ndarray, float, float]:
    """The voted scores of ``X`` one way; ``(scores, wall s, CPU s)``."""
    saved = record.IN_ORDER_MAX_FEATURES
    record.IN_ORDER_MAX_FEATURES = X.shape[1] if in_order else 0
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        scores = clf._hyp.voted_scores(X, last)
        return scores, time.perf_counter() - wall, time.process_time() - cpu
    finally:
        record.IN_ORDER_MAX_FEATURES = saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--features", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    X = rng.integers(0, 1000, size=(args.rows, args.features)).astype(np.float64)
    y = rng.integers(0, 2, size=args.rows)
    clf = KWPerceptron(epochs=args.epochs, predict_with="voted", random_state=0).fit(X, y)
    updates = len(clf._hyp.positions[0])
    last = clf._scores(X, "last")
    for in_order in (True, False):  # compile both on a few rows first
        voted(clf, X[:50], last[:50], in_order)
    scores = args.rows * updates
    print(
        f"{args.rows:,} rows x {args.features} features, {args.epochs} epochs: {updates:,} "
        f"updates, {scores:,} voted scores; OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS')}"
    )
    best: dict[str, tuple[float, float]] = {}
    results = {}
    for _ in range(args.repeat):
        for way, in_order in (("in order", True), ("product", False)):
            results[way], wall, cpu = voted(clf, X, last, in_order)
            old = best.get(way, (np.inf, np.inf))
            best[way] = (min(old[0], wall), min(old[1], cpu))
    for way, (wall, cpu) in best.items():
        per_score = cpu / scores * 1e9
        print(f"{way:9s} wall {wall:8.2f} s  CPU {cpu:8.2f} s  {per_score:6.2f} ns a score")
    (w_in, c_in), (w_pr, c_pr) = best["in order"], best["product"]
    print(f"product / in order: wall x{w_pr / w_in:.1f}, CPU x{c_pr / c_in:.1f}")
    same = np.array_equal(results["in order"], results["product"])
    print(f"the same scores both ways: {same}")


if __name__ == "__main__":
    main()
