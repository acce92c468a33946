"""Accuracy of every learner of the app's menu when the features are scaled.

Run: ``python benchmarks/bench_scale.py``.

The app's separable 2-D data (200 points, seed 0, largest |x| about 1),
multiplied by each scale; every learner of the menu (but the kernel
perceptron) with its default settings, 20 epochs, trained and scored on
the same points. It shows which learners' defaults assume a feature scale
(their warning's range, ``perceptron_core._validation.ASSUMED_SCALE``) and
where products of features underflow for all of them.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from perceptron_lab.app_logic.datasource import DataRequest, make_dataset  # noqa: E402
from perceptron_lab.app_logic.learners import LEARNERS  # noqa: E402

SCALES = (1e-170, 1e-12, 1e-3, 1e-2, 1e-1, 1.0, 1e2, 1e3, 1e12)


def main() -> None:
    data = make_dataset(DataRequest("separable", (("n_samples", 200),)))
    X, y = data.X, data.y
    print(f"largest |x| at scale 1: {np.abs(X).max():.3g}")
    print(f"{'learner':18s}" + "".join(f"{s:>8.0e}" for s in SCALES))
    for key, learner in LEARNERS.items():
        if key == "kernel":
            continue
        cells = []
        for scale in SCALES:
            estimator = learner.make(learner.defaults(), 20, 0)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    cells.append(f"{estimator.fit(X * scale, y).score(X * scale, y):8.2f}")
            except ValueError:  # a learner that refuses the scale, with its message
                cells.append(f"{'refused':>8s}")
        print(f"{key:18s}" + "".join(cells))


if __name__ == "__main__":
    main()
