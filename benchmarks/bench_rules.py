"""Per-epoch cost of every on-line rule outside the KW trainer, one tree against another.

Run: ``python benchmarks/bench_rules.py [--tree PATH ...] [--rows 20000] [--features 200]``.

Each ``--tree`` is a checkout of this repository (default: this one). The
rules of every tree are timed in their own process, the processes taking
turns rule by rule, so two trees (say ``main`` and a branch that rewrites
the on-line driver) are compared in one run on the same data under the same
load. Per epoch = (time of a long fit - time of a short fit) / extra epochs,
the minimum over repetitions. The data: integer features in [-10, 10] (0/1
for Winnow), a random linear target, 10 % flipped labels, so no rule stops
early; the table gives each rule's updates per epoch too.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: name -> (class, constructor arguments, boolean features?); every tree exports the classes
#: from ``perceptron_core`` itself, wherever their modules are.
RULES = {
    "thick separator": ("ThickSeparatorPerceptron", {}, False),
    "passive-aggressive I": ("PassiveAggressive", {}, False),
    "threshold-relative": ("RelativeUpdatePerceptron", {}, False),
    "ALMA": ("ALMA", {}, False),
    "PAUM": ("PAUMPerceptron", {"tau_pos": 1.0, "lam": 0.5}, False),
    "Winnow": ("Winnow", {}, True),
    "Balanced Winnow": ("BalancedWinnow", {"alpha": 1.1}, True),
    "pocket (ratchet)": ("PocketPerceptron", {}, False),
}

#: The timing run inside one tree's process: prints one JSON line.
WORKER = r"""
import importlib, json, sys, time
import numpy as np
sys.path.insert(0, {bench!r})
from common import per_epoch
rows, features, repeats, name = {rows}, {features}, {repeats}, {name!r}
cls, params, boolean = {spec!r}
try:
    Rule = getattr(importlib.import_module("perceptron_core"), cls)
except (ImportError, AttributeError):
    print(json.dumps(None)); sys.exit()
rng = np.random.default_rng(0)
X = rng.integers(-10, 11, size=(rows, features)).astype(np.float64)
if boolean:
    X = (X > 0).astype(np.float64)
y = (X @ rng.normal(size=features) > 0).astype(int)
y[rng.random(rows) < 0.10] ^= 1
epochs_name = "max_epochs" if cls == "PAUMPerceptron" else "epochs"
Rule(**{{epochs_name: 1}}, **params).fit(X[:50], y[:50])  # compile (or load) outside the timings
fit = lambda epochs: Rule(**{{epochs_name: epochs}}, shuffle=False, **params).fit(X, y)
epoch, _ = per_epoch(fit, 1, 4, repeats)
print(json.dumps([epoch, fit(4).n_updates_ / 4]))
"""


def time_rule(tree: Path, name: str, args) -> list | None:
    code = WORKER.format(
        bench=str(HERE),
        rows=args.rows,
        features=args.features,
        repeats=args.repeats,
        name=name,
        spec=RULES[name],
    )
    env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, env=env, cwd=tree
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tree",
        action="append",
        type=Path,
        help="a checkout to time (repeatable; default: this one)",
    )
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--features", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    trees = [t.resolve() for t in (args.tree or [HERE.parent])]
    print(f"data: {args.rows:,} x {args.features}; per-epoch ms, updates per epoch")
    header = "".join(f"{t.name[-18:]:>26s}" for t in trees)
    print(f"{'rule':22s}{header}" + ("   ratio (last/first)" if len(trees) > 1 else ""))
    for name in RULES:
        results = [time_rule(tree, name, args) for tree in trees]
        cells = "".join(
            f"{'—':>26s}" if r is None else f"{r[0] * 1e3:12.1f} ms {r[1]:9,.0f} upd"
            for r in results
        )
        ratio = ""
        if len(trees) > 1 and results[0] and results[-1]:
            ratio = f"   {results[-1][0] / results[0][0]:.2f}"
        print(f"{name:22s}{cells}{ratio}")


if __name__ == "__main__":
    main()
