"""End-to-end time of NR boosting of parallel perceptrons on a 300-example twonorm set.

Run: ``python benchmarks/bench_nrboost.py [--repeats 7]``.

One NR fit is 10 rounds, each a fresh 3-perceptron committee trained for 250
batch epochs on the weighted set, its categories and the re-weighting; then
prediction of the 300 training rows. Reported (minimum over repetitions, this
machine is shared): NR boosting fit + predict, AdaBoost and bagging of the
same committee, one committee on its own, and the first call in a fresh
process (numba compilation cache warm) for comparison.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

import numpy as np
from common import best_time
from threadpoolctl import threadpool_limits

from perceptron_core.boosting import AdaBoost, Bagging, NRBoost
from perceptron_core.parallel import ParallelPerceptron


def twonorm(m, seed):
    try:
        from perceptron_core.datasets import make_twonorm

        X, y, _, _ = make_twonorm(m, random_state=seed)
        return X, y
    except ImportError:  # the datasets module is optional for this script
        rng = np.random.default_rng(seed)
        y = np.where(rng.random(m) < 0.5, -1, 1)
        return rng.standard_normal((m, 20)) + 2 / np.sqrt(20) * y[:, None], y


FIRST_CALL = """
start = time.perf_counter()
import numpy as np
from perceptron_core.boosting import NRBoost
rng = np.random.default_rng(0)
y = np.where(rng.random(300) < 0.5, -1, 1)
X = rng.standard_normal((300, 20)) + 0.447 * y[:, None]
NRBoost(random_state=0).fit(X, y).predict(X)
print(time.perf_counter() - start)
"""


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)

    X, y = twonorm(300, seed=0)
    rng = np.random.default_rng(1)
    flipped = rng.choice(300, size=60, replace=False)  # 20 % noise, as in the NR protocol
    y = y.copy()
    y[flipped] = -y[flipped]

    with threadpool_limits(1):
        NRBoost(random_state=0).fit(X, y)  # compile / load the kernels once
        rows = [
            (
                "NR boosting, 10 rounds: fit + predict",
                lambda: NRBoost(random_state=0).fit(X, y).predict(X),
            ),
            (
                "AdaBoost, 10 rounds: fit + predict",
                lambda: AdaBoost(random_state=0).fit(X, y).predict(X),
            ),
            (
                "bagging, 10 committees: fit + predict",
                lambda: Bagging(random_state=0).fit(X, y).predict(X),
            ),
            (
                "one committee (3 x 250 epochs): fit",
                lambda: ParallelPerceptron(random_state=0).fit(X, y),
            ),
        ]
        print(f"twonorm, 300 x 20, 20 % label noise; minimum of {args.repeats} runs, 1 thread")
        for name, func in rows:
            print(f"  {name:<42} {1e3 * best_time(func, args.repeats):8.1f} ms")
    first = subprocess.run(
        [sys.executable, "-c", FIRST_CALL], capture_output=True, text=True, check=True
    )
    print(
        f"  {'first NR fit in a fresh process (import incl.)':<42} "
        f"{1e3 * float(first.stdout.strip()):8.1f} ms"
    )


if __name__ == "__main__":
    main()
