"""Peak memory of each full-size scenario against the size of its data.

Run: ``python benchmarks/bench_fullsize_memory.py [--quick] [--defaults-only]``.

Each scenario runs in its own process, so peaks do not mix. The process
loads its data from a ``.npy`` file (no loading peak above the data itself),
compiles the kernels on a few rows, then measures the resident set size
(RSS) before the operation and its peak during it: Linux resets the peak
(``VmHWM``) when ``5`` is written to ``/proc/self/clear_refs``. The table
shows what the operation added on top of what was resident before, as a
fraction of the data's size. Target (full-size runs): at most 0.5.

For the memory-mapped scenarios the pages of the file that have been read
count in the RSS (the OS may drop them again at any time); the data is not
resident before the fit, so "added" includes the data itself there. A
fit of several epochs trains on a permuted copy of data up to
``PERMUTED_COPY_MAX_BYTES`` (1 GiB), which adds the data's size; the
"no copy" row sets that budget to 0, as for larger data.

The "noisy" rows fit ``Perceptron()`` with its defaults (100 epochs,
``record="none"``) on noisy 2-D data (500,000 rows; ``--quick``: 50,000),
where nearly every epoch makes updates: a record that grew with epochs x
updates shows there. "kept MiB" is what the fitted model still holds
(RSS after the fit, the model alive, minus before); ``--defaults-only``
runs these rows only.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from common import measure_rss, proc_status


def child(scenario: str, folder: Path) -> dict:
    """Run one scenario in this process and return its figures."""
    from perceptron_core import KWPerceptron, Perceptron

    kind, _, what = scenario.partition(":")
    mmap = "r" if "memmap" in what else None
    X = np.load(folder / f"{kind}_X.npy", mmap_mode=mmap)
    y = np.load(folder / f"{kind}_y.npy")
    KWPerceptron(epochs=2, predict_with="voted").fit(np.asarray(X[:300]), y[:300]).predict_all(
        np.asarray(X[:5])
    )
    data_bytes = X.nbytes
    if what.startswith("Perceptron() "):
        epochs = int(what.split()[1])
        kept = []

        def fit():
            kept.append(Perceptron(epochs=epochs, random_state=0).fit(X, y))

        start = time.perf_counter()
        before, peak = measure_rss(fit)
        seconds = time.perf_counter() - start
        after = proc_status("VmRSS")
        return {
            "data": data_bytes,
            "before": before,
            "peak": peak,
            "kept": after - before,
            "seconds": seconds,
        }
    if what in ("fit 1 epoch", "fit 1 epoch, memmap"):
        before, peak = measure_rss(lambda: KWPerceptron(epochs=1, random_state=0).fit(X, y))
    elif what.startswith("fit 3 epochs"):
        if "no copy" in what:
            from perceptron_core import linear

            linear.PERMUTED_COPY_MAX_BYTES = 0  # read in place, as larger data are
        before, peak = measure_rss(lambda: KWPerceptron(epochs=3, random_state=0).fit(X, y))
    elif what == "partial_fit chunks, memmap":

        def stream():
            clf = KWPerceptron(random_state=0)
            for start in range(0, len(y), 50_000):
                clf.partial_fit(
                    X[start : start + 50_000], y[start : start + 50_000], classes=np.unique(y)
                )

        before, peak = measure_rss(stream)
    elif what.startswith("voted"):
        X_test = np.load(folder / f"{kind}_Xtest.npy")
        clf = KWPerceptron(epochs=1, random_state=0, predict_with="voted").fit(X, y)
        last_word = what.rsplit(" ", 1)[-1]
        chunk = int(last_word) if last_word.isdigit() else None
        before, peak = measure_rss(lambda: clf.decision_function(X_test, "voted", chunk))
    else:
        raise ValueError(scenario)
    return {"data": data_bytes, "before": before, "peak": peak}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small data (smoke run)")
    parser.add_argument(
        "--defaults-only",
        action="store_true",
        help="only the noisy rows: Perceptron() with its defaults",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, Path(args.folder))))
        return

    from perceptron_core.datasets import DataError, load_fashion_mnist, make_kw

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        noisy_rows = 50_000 if args.quick else 500_000
        rng = np.random.default_rng(0)
        X_noisy = rng.normal(size=(noisy_rows, 2))
        y_noisy = np.where(X_noisy[:, 0] + 0.5 * X_noisy[:, 1] > 0, 1, -1)
        y_noisy[rng.random(noisy_rows) < 0.1] *= -1  # 10 % of the labels flipped
        np.save(folder / "noisy_X.npy", X_noisy)
        np.save(folder / "noisy_y.npy", y_noisy)
        if not args.defaults_only:
            try:
                Xf, yf = load_fashion_mnist(part="train")
                Xf_test, _ = load_fashion_mnist(part="test")
            except DataError:
                rng = np.random.default_rng(0)
                Xf = rng.integers(0, 256, size=(60_000, 784), dtype=np.uint8)
                Xf_test = rng.integers(0, 256, size=(10_000, 784), dtype=np.uint8)
                yf = rng.integers(0, 10, size=60_000)
            rows = 100_000 if args.quick else 1_000_000
            if args.quick:
                Xf, yf, Xf_test = Xf[:6_000], yf[:6_000], Xf_test[:1_000]
            kw = make_kw(500, 0.05, 0.05, rows, random_state=0, dtype="int8")
            for name, array in [
                ("fashion_X", Xf),
                ("fashion_y", yf),
                ("fashion_Xtest", Xf_test),
                ("kw_X", kw.X),
                ("kw_y", kw.y),
            ]:
                np.save(folder / f"{name}.npy", array)
            del Xf, yf, Xf_test, kw
        noisy = ["noisy:Perceptron() 10 epochs", "noisy:Perceptron() 100 epochs (defaults)"]
        scenarios = (
            noisy
            if args.defaults_only
            else noisy
            + [
                "fashion:fit 1 epoch",
                "fashion:voted, default chunk (64 MiB)",
                "fashion:voted, chunk 100",
                "fashion:voted, chunk 50",
                "kw:fit 1 epoch",
                "kw:fit 3 epochs (permuted copy)",
                "kw:fit 3 epochs, no copy",
                "kw:fit 1 epoch, memmap",
                "kw:partial_fit chunks, memmap",
            ]
        )
        print(
            f"{'scenario':42s} {'data MiB':>9s} {'before MiB':>11s} {'peak MiB':>9s} "
            f"{'added MiB':>10s} {'added/data':>11s} {'kept MiB':>9s} "
            f"{'seconds':>8s}"
        )
        for scenario in scenarios:
            out = subprocess.run(
                [sys.executable, __file__, "--child", scenario, "--folder", str(folder)],
                check=True,
                capture_output=True,
                text=True,
            )
            r = json.loads(out.stdout.strip().splitlines()[-1])
            added = r["peak"] - r["before"]
            print(
                f"{scenario:42s} {r['data'] / 2**20:9.0f} {r['before'] / 2**20:11.0f} "
                f"{r['peak'] / 2**20:9.0f} {added / 2**20:10.0f} {added / r['data']:11.2f}"
                + (f" {r['kept'] / 2**20:9.1f} {r['seconds']:8.1f}" if "kept" in r else "")
            )


if __name__ == "__main__":
    main()
