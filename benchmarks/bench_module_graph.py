"""The exported page's bundler: the time to read the replay's import graph, once per process.

``ui.module_graph.module_graph`` tokenizes every module ``main.js`` reaches; the page's
template (``ui.standalone_page.page_template``) is built from it once per process and kept.
Side by side in one run, from cold (no cache), the minimum and the median of ``--repeat``:

* reading the modules' files (the floor: what any bundler must do);
* ``module_graph`` (read, tokenize, walk), and its ratio to the floor;
* ``page_template`` (the graph, the styles and the page around them);
* with ``--before REV``: the regular expressions that read the imports at git revision REV
  (its ``ui/standalone_page.py``'s ``module_order``, run on today's modules).

    python benchmarks/bench_module_graph.py
    python benchmarks/bench_module_graph.py --before 11d2829
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from perceptron_lab.ui import standalone_page  # noqa: E402
from perceptron_lab.ui.module_graph import module_graph  # noqa: E402
from perceptron_lab.ui.standalone_page import ENTRY, PLAYBACK, module_order  # noqa: E402


def _old_module_order(revision: str):
    """``module_order`` of ``ui/standalone_page.py`` at ``revision``, reading today's modules."""
    source = subprocess.run(
        ["git", "show", f"{revision}:ui/standalone_page.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "old_standalone_page.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("old_standalone_page", path)
    old = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = old
    spec.loader.exec_module(old)
    old.PLAYBACK = PLAYBACK
    assert old.module_order.__wrapped__() == module_order(), "the two readers disagree"
    return old.module_order.__wrapped__


def _cold_template() -> str:
    for cached in (standalone_page.playback_modules, standalone_page.playback_file):
        cached.cache_clear()
    return standalone_page.page_template.__wrapped__()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--before", metavar="REV", help="also time the import reader at REV")
    args = parser.parse_args()
    names = module_order()
    size = sum((PLAYBACK / name).stat().st_size for name in names)
    cases = {
        "read the files (floor)": lambda: [
            (PLAYBACK / name).read_text(encoding="utf-8") for name in names
        ],
        "module_graph": lambda: module_graph(PLAYBACK, ENTRY),
        "page_template, cold": _cold_template,
    }
    if args.before:
        cases[f"regular expressions at {args.before}"] = _old_module_order(args.before)
    print(f"{len(names)} modules, {size:,} bytes; {args.repeat} runs each")
    print(f"{'':40s} {'min ms':>8s} {'median ms':>10s} {'min / floor':>12s}")
    floor = None
    for label, run in cases.items():
        times = timeit.repeat(run, number=1, repeat=args.repeat)
        floor = floor or min(times)
        print(
            f"{label:40s} {min(times) * 1e3:8.2f} {statistics.median(times) * 1e3:10.2f} "
            f"{min(times) / floor:12.1f}"
        )


if __name__ == "__main__":
    main()
