"""Helpers shared by the benchmark scripts (timing, peak memory, the table, river and VW).

Not a benchmark itself. Every competitor that learns one example at a time in
Python (river) or through a text parser (Vowpal Wabbit) is timed on a
subsample and its time scaled linearly to the full size: their cost per
example does not depend on how many examples there are.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np


def best_time(func, repeats: int) -> float:
    """The minimum wall time of ``repeats`` calls (the least disturbed run)."""
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best


def per_epoch(make_fit, short: int, long: int, repeats: int) -> tuple[float, float]:
    """(per-epoch seconds, fixed seconds of a fit) from ``make_fit(short)`` and ``make_fit(long)``.

    The difference of the two fits over the extra epochs is the cost of an
    epoch; what is left of the short fit is the work every fit does once.
    Both fits must do the same fixed work for this to hold.
    """
    t_short = best_time(lambda: make_fit(short), repeats)
    t_long = best_time(lambda: make_fit(long), repeats)
    epoch = (t_long - t_short) / (long - short)
    return epoch, t_short - short * epoch


def proc_status(key: str) -> int:
    """A ``/proc/self/status`` entry in bytes (``VmRSS``, ``VmHWM``); Linux only."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024
    raise KeyError(key)


def measure_rss(operation) -> tuple[int, int]:
    """(RSS before, peak RSS during) ``operation()``."""
    before = proc_status("VmRSS")
    Path("/proc/self/clear_refs").write_text("5")  # reset the peak to the current RSS
    operation()
    return before, proc_status("VmHWM")


def print_table(rows, floor: float, floor_name: str) -> None:
    """``rows`` of ``(name, seconds, note)``, with each time as a multiple of ``floor``."""
    print(f"\n{'what':44s} {'seconds':>9s} {'x ' + floor_name:>12s}  note")
    for name, seconds, note in rows:
        print(f"{name:44s} {seconds:9.3f} {seconds / floor:12.2f}  {note}")


def river_epoch_seconds(X, y, n_rows: int, multiclass: bool) -> float:
    """One pass of river's Perceptron (one-vs-rest if ``multiclass``) over ``n_rows`` rows."""
    from river import linear_model
    from river import multiclass as river_multiclass

    rows = [dict(enumerate(row.tolist())) for row in X[:n_rows]]
    labels = y[:n_rows].tolist()
    if not multiclass:
        labels = [label == 1 for label in labels]

    def one_pass():
        model = linear_model.Perceptron()
        if multiclass:
            model = river_multiclass.OneVsRestClassifier(model)
        for xd, label in zip(rows, labels):
            model.learn_one(xd, label)

    return best_time(one_pass, 1)


def vw_epoch_seconds(X, y, n_rows: int, n_classes: int) -> float:
    """One pass of Vowpal Wabbit (hinge loss; ``--oaa`` for classes) over ``n_rows`` rows.

    Timed as a user runs it from Python: formatting each example as VW text
    and learning it (VW parses text; that is part of its cost).
    """
    from vowpalwabbit import Workspace

    def one_pass():
        if n_classes > 2:
            vw = Workspace(f"--oaa {n_classes} --loss_function hinge --quiet")
            labels = [str(int(label) + 1) for label in y[:n_rows]]  # oaa labels are 1..K
        else:
            vw = Workspace("--loss_function hinge --binary --quiet")
            labels = ["1" if label == 1 else "-1" for label in y[:n_rows]]
        for row, label in zip(X[:n_rows], labels):
            nonzero = np.flatnonzero(row)
            features = " ".join(f"{f}:{row[f]}" for f in nonzero.tolist())
            vw.learn(f"{label} | {features}")
        vw.finish()

    return best_time(one_pass, 1)
