"""CPU time and peak memory of ``load_csv`` on a 20 MB file, against another checkout's.

The file (seeded): 200,000 rows of ten numeric features written with six decimals and a 0/1
label, with a header row: just under ``CSVLimits().max_bytes``. Each loader runs in a fresh
process that has already read the file's bytes; CPU time is ``time.process_time`` around
``load_csv`` (best of ``--repeat``), peak memory the growth of the process's peak resident
set during the first call (``VmHWM``, reset before it), so it includes what NumPy, pandas or the
``csv`` module allocate outside Python's allocator.

Run from a checkout; ``--before`` names another checkout (e.g. ``git worktree add
--detach /tmp/csvmain main``) to compare with::

    python benchmarks/bench_csv.py --before /tmp/csvmain

Results are recorded in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

#: What each measuring process runs: argv = [checkout, csv path, repeats].
PROBE = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from perceptron_core.datasets import load_csv

def status_kib(field):
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith(field + ":"))

data = open(sys.argv[2], "rb").read()
load_csv(b"a,b,y\n1,2,0\n3,4,1\n")  # imports done before measuring
with open("/proc/self/clear_refs", "w") as fh:
    fh.write("5")  # the peak resident set (VmHWM) starts again from the current one
before = status_kib("VmRSS")
cpu = []
for _ in range(int(sys.argv[3])):
    start = time.process_time()
    result = load_csv(data)
    cpu.append(time.process_time() - start)
    if len(cpu) == 1:
        peak = status_kib("VmHWM") - before
    del result
print(json.dumps({"cpu": min(cpu), "peak_kib": peak, "loaded_from": sys.modules[
    "perceptron_core"].__file__}))
"""


def write_file(path: Path, rows: int = 200_000, features: int = 10, seed: int = 0) -> int:
    """Write the benchmark's CSV file; returns its size in bytes."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(rows, features))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    header = ",".join([f"x{j}" for j in range(features)] + ["label"])
    np.savetxt(
        path,
        np.column_stack([X, y]),
        delimiter=",",
        header=header,
        comments="",
        fmt=["%.6f"] * features + ["%d"],
    )
    return path.stat().st_size


def measure(checkout: Path, csv_path: Path, repeat: int) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(checkout), str(csv_path), str(repeat)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--before", type=Path, required=True, help="a checkout whose load_csv is the baseline"
    )
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        csv_path = Path(tmp) / "bench.csv"
        size = write_file(csv_path)
        before = measure(args.before.resolve(), csv_path, args.repeat)
        after = measure(ROOT, csv_path, args.repeat)
    mb = size / 1e6
    peak = [before["peak_kib"] * 1.024e-3, after["peak_kib"] * 1.024e-3]  # KiB to MB
    print(f"file: {size:,} bytes (200,000 rows x 11 columns)")
    print(f"{'':14}{'before':>10}{'after':>10}{'before/after':>14}")
    cpu = [before["cpu"], after["cpu"]]
    print(f"{'CPU (s)':14}{cpu[0]:10.3f}{cpu[1]:10.3f}{cpu[0] / cpu[1]:14.1f}")
    print(f"{'peak (MB)':14}{peak[0]:10.1f}{peak[1]:10.1f}{peak[0] / max(peak[1], 0.1):14.1f}")
    print(f"{'peak / file':14}{peak[0] / mb:10.2f}{peak[1] / mb:10.2f}")
    print(f"before: {before['loaded_from']}\nafter:  {after['loaded_from']}")


if __name__ == "__main__":
    main()
