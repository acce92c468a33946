"""Speed of the playground: one step's redraw, a page load, and a recorded training run.

Targets (issue 5, on the 2-core machine): one step's re-render of a 2-D set
of 1,000 points <= 150 ms; page load after warm-up <= 3 s; training with
the trace for 1,000 points x 100 epochs <= 0.5 s.

    python benchmarks/bench_app.py            # prints a table

"Re-render" is what a step costs the server: the figure built by
:func:`ui.figures.plane_figure` (with the invisible click grid the
playground adds while clicks edit the data) and serialised to JSON (what
``st.plotly_chart`` sends). The high-dimensional view (projection, angle
curve, margin histogram) is timed on 60,000 points of 10 features, the
size of the full data sets. "Page load" is a full script run of the
playground in Streamlit's AppTest, after one warm-up run (numba compiled,
caches warm, but a new session). Medians of several repetitions.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np
from streamlit import logger as st_logger
from streamlit.testing.v1 import AppTest

from ui.datasource import DataRequest, Dataset, make_dataset
from ui.diagnostics import test_mistakes_per_epoch
from ui.figures import Show, angle_figure, margin_histogram, plane_figure, projection_figure
from ui.learners import LEARNERS


class _Run:
    """What ui.runs.train returns, built without Streamlit's cache (so it is really timed)."""

    def __init__(self, key, data, epochs):
        self.learner_key = key
        self.learner = LEARNERS[key]
        self.values = self.learner.defaults()
        start = time.perf_counter()
        self.estimator = self.learner.make(self.values, epochs, 0).fit(data.X, data.y)
        self.timeline = self.learner.timeline(self.estimator, len(data.X))
        self.test_errors = test_mistakes_per_epoch(self.timeline, data.X_test, data.y_test)
        self.seconds = time.perf_counter() - start


def _high_dimensional(m: int, n: int) -> Dataset:
    """``m`` points of ``n`` Gaussian features labelled by a random hyperplane through 0."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(m, n))
    w = rng.normal(size=n)
    y = np.where(X @ w > 0, 1, -1)
    names = tuple(f"f{i}" for i in range(n))
    return Dataset(X, y, X[:0], y[:0], np.zeros(m, bool), w, 0.0, names, ("-1", "+1"), "bench")


def _median(func, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    # Cached functions called outside a page warn once AppTest has run; they are meant to here.
    st_logger.get_logger("streamlit.runtime.scriptrunner_utils.script_run_context").disabled = True
    data = make_dataset(DataRequest("gaussians", (("n_samples", 1000),), "uniform", 0.05, 0.0, 0))
    _Run("perceptron", data, 2)  # compile / load the kernels
    rows = []

    runs = [_Run("perceptron", data, 100) for _ in range(7)]
    train = statistics.median(r.seconds for r in runs)
    rows.append(("train + trace, 1,000 points x 100 epochs (perceptron)", train, 0.5))
    voted = _Run("voted", data, 100)
    run = runs[0]

    def rerender(draw, run=run):
        times = []
        for t in [run.timeline.n_events * k // 40 for k in range(1, 40)]:
            start = time.perf_counter()
            for fig in draw(run, t):
                fig.to_json()
            times.append(time.perf_counter() - start)
        return statistics.median(times)

    def plane(show):
        return lambda run, t: [plane_figure(data, run, t, show, clickable=True)]

    rerender(plane(Show()))  # first call imports and warms Plotly's validators
    rows.append(("one step re-render, 1,000 points (default view)", rerender(plane(Show())), 0.15))
    rows.append(
        (
            "one step re-render, voted ensemble + voted region",
            rerender(plane(Show(ensemble=True, averaged=True, longest=True)), voted),
            0.15,
        )
    )
    big = _high_dimensional(60_000, 10)
    rows.append(
        (
            "one step re-render, projection + angle + margins, 60,000 points",
            rerender(
                lambda run, t: [
                    projection_figure(big, run, t),
                    angle_figure(big, run, t),
                    margin_histogram(big, run, t),
                ],
                _Run("perceptron", big, 5),
            ),
            0.15,
        )
    )

    app = str(ROOT / "app.py")
    AppTest.from_file(app, default_timeout=120).run()  # warm-up: compile, fill caches

    def load():
        at = AppTest.from_file(app, default_timeout=120)
        at.query_params.update(
            {"data": "gaussians", "gaussians_n_samples": "1000", "epochs": "100"}
        )
        at.run()
        assert not at.exception

    load()
    rows.append(
        ("page load after warm-up (AppTest, 1,000 points x 100 epochs)", _median(load, 5), 3.0)
    )

    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'median':>9}  {'target':>7}")
    for name, seconds, target in rows:
        flag = "ok" if seconds <= target else "SLOW"
        print(f"{name:<{width}}  {seconds * 1000:7.1f} ms  {target * 1000:5.0f} ms  {flag}")


if __name__ == "__main__":
    main()
