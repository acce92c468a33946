"""What one view costs the server in CPU-seconds: the most expensive view the app allows, per
learner.

Run: ``python benchmarks/bench_view_cpu.py [--learners KEY,KEY] [--views NAME,NAME]``, or
``--whole`` for the whole views of :data:`WHOLE_VIEWS` (every lane under one CPU meter, as the
playground makes them; :func:`whole_view`).

For every learner of the menu, each candidate view below is made the way the playground makes
it, in this process, after the learner is compiled: the data (:func:`make_dataset`), the run
(:func:`fit_run`: the fit, the timeline, the final predictions, the test errors), the
browser's payload (:func:`build_payload`), and the three downloads (the trace and the points
as CSV, the web page). Reported: the process's CPU seconds of each part (all threads, BLAS's
included) and their sum, or the refusal and the CPU spent until it. The most expensive view
the app lets through is the largest sum of a learner's row; ``docs/deploy.md`` states the
budget it must stay within.

The candidates are the corners of what the page's controls and limits allow (400,000
recorded steps, a replay of 45 MB, 2 MB uploads, 3,000 points for the kernel view), each with
labels flipped at random (noise 0.5: an update at every other visit, the most a run makes):

* ``upload``: the issue's file, 200,000 rows x 2 integer features (1.39 MB), 2 epochs;
* ``dense``: 9,500 rows of the same kind, 42 epochs: nearly the most steps (399,000), and,
  for a learner with the voted predictor, nearly the most voted scores a view may compute
  (about 1,900 million of 2,000 million);
* ``wide``: ringnorm, 2,000 points x 10 features (the most a line's replay allows at
  400,000 steps), 200 epochs;
* ``widest``: ringnorm, 2,000 points x 500 features; 200 epochs for a committee or a kernel,
  5 epochs for a line (its replay's limit);
* ``kernel``: 3,000 points x 2 features (the kernel view's most points), 133 epochs.

BLAS threads are as the environment sets them; ``docs/deploy.md`` runs the server with
``OMP_NUM_THREADS=1``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from perceptron_core.datasets import DataError
from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.export import events_csv, points_csv
from perceptron_lab.app_logic.learners import LEARNERS, LINE
from perceptron_lab.app_logic.payload import build_payload
from perceptron_lab.app_logic.training import compile_learner, fit_run
from perceptron_lab.ui.standalone_page import run_page


def upload_csv(rows: int = 200_000, seed: int = 0) -> bytes:
    """The issue's upload: two integer features from 0 to 99 and a random 0/1 label."""
    rng = np.random.default_rng(seed)
    table = np.column_stack([rng.integers(0, 100, size=(rows, 2)), rng.integers(0, 2, rows)])
    return b"a,b,y\n" + "".join(f"{a},{b},{c}\n" for a, b, c in table.tolist()).encode()


def _noisy(name: str, **options) -> DataRequest:
    return DataRequest(name, tuple(sorted(options.items())), "uniform", 0.5)


def views(learner) -> dict[str, tuple[DataRequest, int]]:
    """The candidate views of ``learner``: ``{name: (request, epochs)}``."""
    line = learner.boundary == LINE
    return {
        "upload": (DataRequest("csv", csv_bytes=upload_csv(), csv_label="y"), 2),
        "dense": (DataRequest("csv", csv_bytes=upload_csv(9_500), csv_label="y"), 42),
        "wide": (_noisy("ringnorm", n_samples=2000, n_features=10), 200),
        "widest": (_noisy("ringnorm", n_samples=2000, n_features=500), 5 if line else 200),
        "kernel": (
            DataRequest("csv", csv_bytes=upload_csv(3_000), csv_label="y"),
            133,
        ),
    }


def cost(learner_key: str, request: DataRequest, epochs: int) -> dict:
    """CPU seconds of each part of one view; ``{"refused": message}`` when the app refuses it
    (with the CPU spent until then)."""
    parts: dict = {}
    clock = time.process_time

    def timed(name, func, *args):
        start = clock()
        try:
            return func(*args)
        finally:
            parts[name] = clock() - start

    try:
        data = timed("data", make_dataset, request)
        values = tuple(sorted(LEARNERS[learner_key].defaults().items()))
        parts_of_data = (data.X, data.y, data.X_test, data.y_test)
        run = timed("run", fit_run, learner_key, values, epochs, request.seed, *parts_of_data)
    except DataError as err:
        parts["refused"] = str(err)
        return parts
    payload = timed("payload", build_payload, data, [run], request.seed)
    timed("trace", events_csv, run)
    timed("points", points_csv, data)
    timed("page", run_page, run, data, request, epochs, None, 0, "png", payload)
    parts["steps"] = run.timeline.n_events
    return parts


#: Whole views as the issue's visitors asked for them: ``{name: (request, epochs, lanes)}``.
WHOLE_VIEWS = {
    "kernel link (circles 2,000, test 0.5, noise 0.5, 200 epochs)": (
        DataRequest("circles", (("n_samples", 2000),), "uniform", 0.5, test_fraction=0.5),
        200,
        ("kernel",),
    ),
    "kernel, 6,000-row upload, test 0.5, 133 epochs": (
        DataRequest("csv", csv_bytes=upload_csv(6_000), csv_label="y", test_fraction=0.5),
        133,
        ("kernel",),
    ),
    "compare: pocket, pa, relative, thick on the 200,000-row upload, 2 epochs": (
        DataRequest("csv", csv_bytes=upload_csv(), csv_label="y"),
        2,
        ("pocket", "pa", "relative", "thick"),
    ),
}


def _caller() -> str:
    """Where a look was asked from: the innermost frame of this project's code that asked."""
    import traceback

    frames = [
        f
        for f in traceback.extract_stack()[:-3]
        if "perceptron" in f.filename or "app_logic" in f.filename
    ]
    return f"{Path(frames[-1].filename).stem}.{frames[-1].name}" if frames else "?"


def whole_view(request: DataRequest, epochs: int, lanes: tuple[str, ...]) -> dict:
    """One view made as the playground makes it, in this thread under one CPU meter
    (:func:`app_logic.view_cost.metered`): the data, every lane's run, their payload. Its CPU
    seconds, what it ended with, and the most CPU between two of the looks its work takes at
    whether the visitor is still there (a closed tab stops it at the next look), with where
    the two looks were asked from."""
    from perceptron_lab.app_logic.view_cost import metered, with_cpu_check

    looks = [(0.0, "the view's start")]

    def seen() -> None:
        looks.append((meter.spent(), _caller()))

    with metered(interrupt=seen) as meter:
        try:
            data = make_dataset(request)
            runs = []
            for key in lanes:
                values = tuple(sorted(LEARNERS[key].defaults().items()))
                parts = (data.X, data.y, data.X_test, data.y_test)
                check = with_cpu_check(seen)
                runs.append(fit_run(key, values, epochs, request.seed, *parts, interrupt=check))
            build_payload(data, runs, request.seed)
            ended = "drawn"
        except DataError as err:
            ended = "refused: " + str(err)[:100]
        spent = meter.spent()
    looks.append((spent, "the view's end"))
    gap, before, after = max((b[0] - a[0], a[1], b[1]) for a, b in zip(looks, looks[1:]))
    return {
        "cpu": spent,
        "ended": ended,
        "gap": gap,
        "where": f"{before} -> {after}",
        "looks": len(looks) - 2,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", default=",".join(LEARNERS))
    parser.add_argument("--views", default="upload,dense,wide,widest,kernel")
    parser.add_argument(
        "--whole", action="store_true", help="the issue's kernel and compare views, whole"
    )
    args = parser.parse_args()
    if args.whole:
        for key in ("kernel", "pocket", "pa", "relative", "thick"):
            compile_learner(key)
        for name, (request, epochs, lanes) in WHOLE_VIEWS.items():
            got = whole_view(request, epochs, lanes)
            print(
                f"{name}: {got['cpu']:.2f} CPU s, {got['ended']}; {got['looks']} looks at the "
                f"visitor, at most {got['gap']:.2f} CPU s between two ({got['where']})"
            )
        return
    names = args.views.split(",")
    print(
        f"{'learner':16s} {'view':7s} {'data':>6s} {'run':>6s} {'payload':>7s} "
        f"{'trace':>6s} {'points':>6s} {'page':>6s} {'total':>6s}  CPU s"
    )
    worst = {}
    for key in args.learners.split(","):
        compile_learner(key)
        candidates = views(LEARNERS[key])
        for name in names:
            request, epochs = candidates[name]
            parts = cost(key, request, epochs)
            total = sum(v for k, v in parts.items() if k not in ("refused", "steps"))
            shown = [f"{parts.get(k, 0.0):6.2f}" for k in ("data", "run")]
            if "refused" in parts:
                print(
                    f"{key:16s} {name:7s} {' '.join(shown)}  refused ({total:.2f} s): "
                    f"{parts['refused'][:90]}"
                )
                continue
            rest = [
                f"{parts[k]:{w}.2f}"
                for k, w in (("payload", 7), ("trace", 6), ("points", 6), ("page", 6))
            ]
            print(
                f"{key:16s} {name:7s} {' '.join(shown)} {' '.join(rest)} {total:6.2f}"
                f"  ({parts['steps']:,} steps)"
            )
            if total > worst.get(key, ("", 0.0))[1]:
                worst[key] = (name, total)
    print("\nthe most expensive allowed view of each learner (CPU s):")
    for key, (name, total) in worst.items():
        print(f"  {key:16s} {total:6.2f}  ({name})")


if __name__ == "__main__":
    main()
