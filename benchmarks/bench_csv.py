"""CPU time and peak memory of ``load_csv`` on a 20 MB file, against another checkout's.

The file (seeded): 200,000 rows of ten numeric features written with six decimals and a 0/1
label, with a header row: just under ``CSVLimits().max_bytes``; with ``--quoted``, the same
file with its first column name in quotes (a file with quotes once took a slower reader).
Each measurement runs in a fresh process that has already read the file's bytes and
imported everything; CPU time is ``time.process_time`` around ``load_csv`` (best of
``--repeat`` calls), peak memory the growth of the process's peak resident set during the
first call (``VmHWM``, reset before it), so it includes what NumPy, pandas, pyarrow or the
``csv`` module allocate outside Python's allocator. The two checkouts run in turns,
``--rounds`` times each, and the medians are compared, so that a busy machine slows both.

Run from a checkout; ``--before`` names another checkout (e.g. ``git worktree add
--detach /tmp/csvmain main``) to compare with::

    python benchmarks/bench_csv.py --before /tmp/csvmain [--quoted]

Results are recorded in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
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


def write_file(
    path: Path, rows: int = 200_000, features: int = 10, seed: int = 0, quoted: bool = False
) -> int:
    """Write the benchmark's CSV file (its first name in quotes if ``quoted``); its size."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(rows, features))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    header = ",".join([f"x{j}" for j in range(features)] + ["label"])
    header = header.replace("x0", '"x0"') if quoted else header
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
    parser.add_argument("--repeat", type=int, default=3, help="calls per process (best CPU)")
    parser.add_argument("--rounds", type=int, default=5, help="processes per checkout, in turns")
    parser.add_argument("--quoted", action="store_true", help="the file's first name in quotes")
    args = parser.parse_args(argv)
    runs: dict[str, list[dict]] = {"before": [], "after": []}
    with tempfile.TemporaryDirectory() as tmp:
        csv_path = Path(tmp) / "bench.csv"
        size = write_file(csv_path, quoted=args.quoted)
        for _ in range(args.rounds):
            runs["before"].append(measure(args.before.resolve(), csv_path, args.repeat))
            runs["after"].append(measure(ROOT, csv_path, args.repeat))
    cpu = [statistics.median(r["cpu"] for r in runs[k]) for k in runs]
    peak = [statistics.median(r["peak_kib"] for r in runs[k]) * 1.024e-3 for k in runs]  # MB
    mb = size / 1e6
    print(f"file: {size:,} bytes (200,000 rows x 11 columns{', quoted' if args.quoted else ''})")
    print(f"medians of {args.rounds} processes each, in turns")
    print(f"{'':14}{'before':>10}{'after':>10}{'before/after':>14}")
    print(f"{'CPU (s)':14}{cpu[0]:10.3f}{cpu[1]:10.3f}{cpu[0] / cpu[1]:14.2f}")
    print(f"{'peak (MB)':14}{peak[0]:10.1f}{peak[1]:10.1f}{peak[0] / max(peak[1], 0.1):14.2f}")
    print(f"{'peak / file':14}{peak[0] / mb:10.2f}{peak[1] / mb:10.2f}")
    for key in runs:
        cpus = ", ".join(f"{r['cpu']:.3f}" for r in runs[key])
        peaks = ", ".join(f"{r['peak_kib'] * 1.024e-3:.1f}" for r in runs[key])
        print(f"{key}: CPU {cpus}; peak {peaks}; {runs[key][0]['loaded_from']}")


if __name__ == "__main__":
    main()
