"""The server's share of the playground: a recorded run, its browser payload, a page load.

Targets (on the 2-core machine): training with the trace
for 1,000 points x 100 epochs <= 0.5 s; page load after warm-up <= 3 s. A
step costs the server nothing any more (the browser replays the run, see
``benchmarks/bench_browser.py`` for what a visitor sees); what a setting
change costs it is the run plus its payload, timed here for the two big
cases: 1,000 points x 100 epochs, and a projection of 60,000 points x 10
features x 5 epochs.

    python benchmarks/bench_app.py            # prints a table

"Uncompiled" is the same fit run as plain Python (:func:`perceptron_core._jit.uncompiled`),
as a page trains a small run of a learner numba has not compiled yet: the
slowest learner of the menu on the default page, and at the largest run that
may train so (:data:`app_logic.training.UNCOMPILED_VISITS`).
"Payload" is :func:`app_logic.payload.build_payload` (the arrays and JSON sent to
the browser once per run). "Page load" is a full script run of the
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

from perceptron_core._jit import uncompiled
from perceptron_lab.app_logic.datasource import DataRequest, Dataset, make_dataset
from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.payload import build_payload
from perceptron_lab.app_logic.training import UNCOMPILED_VISITS, fit_run


def _fit(key: str, data: Dataset, epochs: int):
    settings = tuple(sorted(LEARNERS[key].defaults().items()))
    return fit_run(key, settings, epochs, 0, data.X, data.y, data.X_test, data.y_test)


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


def _uncompiled_rows() -> list[tuple]:
    """The slowest learner's uncompiled fit on the default page and at the largest run."""
    default = make_dataset(DataRequest("separable"))
    with uncompiled():
        times = {key: _median(lambda key=key: _fit(key, default, 20), 3) for key in LEARNERS}
        slowest = max(times, key=times.get)
        # overlapping and noisy, so that no learner stops early
        largest = make_dataset(DataRequest("gaussians", (("n_samples", 1000),), "uniform", 0.05))
        epochs = UNCOMPILED_VISITS // len(largest.X)
        at_budget = _median(lambda: _fit(slowest, largest, epochs), 3)
    return [
        (
            f"uncompiled train + trace, default page, 100 points x 20 epochs ({slowest})",
            times[slowest],
            None,
        ),
        (f"uncompiled train + trace, 1,000 points x {epochs} epochs ({slowest})", at_budget, None),
    ]


def main() -> None:
    # Cached functions called outside a page warn once AppTest has run; they are meant to here.
    st_logger.get_logger("streamlit.runtime.scriptrunner_utils.script_run_context").disabled = True
    st_logger.get_logger("streamlit.runtime.caching.cache_data_api").disabled = True
    data = make_dataset(DataRequest("gaussians", (("n_samples", 1000),), "uniform", 0.05, 0.0, 0))
    _fit("perceptron", data, 2)  # compile / load the kernels
    rows = [
        (
            "train + trace, 1,000 points x 100 epochs (perceptron)",
            _median(lambda: _fit("perceptron", data, 100), 7),
            0.5,
        ),
    ]
    for key in ("perceptron", "voted"):
        run = _fit(key, data, 100)
        rows.append(
            (
                f"browser payload, 1,000 points x 100 epochs ({key})",
                _median(lambda run=run: build_payload(data, [run]), 7),
                None,
            )
        )
    rows += _uncompiled_rows()
    big = _high_dimensional(60_000, 10)
    run = _fit("perceptron", big, 5)
    rows.append(
        (
            "browser payload, projection of 60,000 points x 10 features x 5 epochs",
            _median(lambda: build_payload(big, [run]), 3),
            None,
        )
    )

    app = str(ROOT / "router.py")
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
        flag = "" if target is None else ("ok" if seconds <= target else "SLOW")
        goal = "" if target is None else f"{target * 1000:5.0f} ms"
        print(f"{name:<{width}}  {seconds * 1000:7.1f} ms  {goal:>8}  {flag}")


if __name__ == "__main__":
    main()
