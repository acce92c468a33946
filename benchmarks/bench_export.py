"""The exported web page's size against the run's length (ui/standalone_page.py).

Target: at most 1.5 MB for the playground's first view (separable data, 100 points, the
classic perceptron, 20 epochs); Plotly.js's basic bundle is 1.19 MB of every page, the
playback's modules (as the page carries them: without their comments) and styles about
0.2 MB, and the run's payload (base64 in the page) the rest. The table gives each part and
the whole page, for runs from the default to 1,000 points x 100 epochs (100,000 steps), and
the time to build the page (median of 3).

    python benchmarks/bench_export.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from perceptron_lab.app_logic.datasource import DataRequest, make_dataset  # noqa: E402
from perceptron_lab.app_logic.learners import LEARNERS  # noqa: E402
from perceptron_lab.app_logic.payload import build_payload  # noqa: E402
from perceptron_lab.app_logic.training import fit_run  # noqa: E402
from perceptron_lab.ui.standalone_page import PLAYBACK, playback_modules, run_page  # noqa: E402

#: (label, points, epochs, learner): the default run first.
RUNS = [
    ("default", 100, 20, "perceptron"),
    ("300 x 50", 300, 50, "perceptron"),
    ("1,000 x 20", 1000, 20, "perceptron"),
    ("1,000 x 100", 1000, 100, "perceptron"),
    ("1,000 x 100 voted", 1000, 100, "voted"),
]
TARGET = 1_500_000


def main() -> None:
    plotly = (PLAYBACK / "vendor" / "plotly-basic.min.js").stat().st_size
    code = sum(len(module.source.encode("utf-8")) for module in playback_modules())
    code += (PLAYBACK / "style.css").stat().st_size
    print(f"Plotly.js basic bundle: {plotly:,} bytes; playback modules and styles: {code:,}")
    print(f"{'run':20s} {'steps':>8s} {'payload':>10s} {'page':>11s} {'build s':>8s}  target")
    for label, points, epochs, learner in RUNS:
        request = DataRequest("separable", (("n_samples", points),))
        data = make_dataset(request)
        run = fit_run(
            learner,
            tuple(sorted(LEARNERS[learner].defaults().items())),
            epochs,
            0,
            data.X,
            data.y,
            data.X_test,
            data.y_test,
        )
        payload = build_payload(data, [run], 0)
        times, page = [], ""
        for _ in range(3):
            start = time.perf_counter()
            page = run_page(run, data, request, epochs, payload=payload)
            times.append(time.perf_counter() - start)
        size = len(page.encode("utf-8"))
        verdict = ("met" if size <= TARGET else "over") if label == "default" else ""
        print(
            f"{label:20s} {run.timeline.n_events:8,d} {payload.nbytes:10,d} {size:11,d} "
            f"{statistics.median(times):8.3f}  {verdict}"
        )


if __name__ == "__main__":
    main()
