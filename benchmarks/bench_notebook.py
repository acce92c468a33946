"""The notebook widget in JupyterLab: show(...) to a drawn figure, and click-to-paint.

Target (the app's): a Step click painted in at most 50 ms (p50). JupyterLab is started here
on a free loopback port with a one-time token (tests/jupyter.py), the notebook opened in
Debian's chromium (headless, 1400x1000), and:

* show to figure: from Shift+Enter on a cell with ``show(...)`` to the replay's first painted
  step (the kernel's imports and the fit included). The first cell of a fresh kernel
  (imports, numba) and then a second show of the same kind in the same kernel.
* step: a real mouse click on Step in the replay's frame, timed in the frame as
  ``benchmarks/bench_browser.py`` times the app's component (the click's timestamp to the
  first animation frame after the painted step); ``--clicks`` clicks 120 ms apart.

Runs: the playground's first view (separable data, 100 points, 20 epochs) and 1,000 points x
100 epochs with the voted perceptron::

    python benchmarks/bench_notebook.py
    python benchmarks/bench_notebook.py --clicks 100
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_browser import TIMING_JS, _quantiles  # noqa: E402

from tests.browser import CHROMIUM_ARGS  # noqa: E402
from tests.jupyter import (  # noqa: E402
    FRAME,
    jupyterlab,
    open_notebook,
    run_cell,
    run_replay_cell,
    write_notebook,
)

SETUP = """from perceptron_core.datasets import load
from perceptron_lab.widget import show
X, y, _ = load("separable", random_state=0)
Xl, yl, _ = load("gaussians", n_samples=1000, random_state=0)
"""
#: (name, cell): each cell shows one replay.
CELLS = [
    ("default run (100 points x 20 epochs), first show", 'show("perceptron", X, y)'),
    ("default run, second show in the kernel", 'show("perceptron", X, y, seed=1)'),
    ("1,000 points x 100 epochs, voted", 'show("voted", Xl, yl, epochs=100)'),
]


def click_steps(page, frame, n: int) -> list[float]:
    frame.evaluate(TIMING_JS)
    step = frame.locator(".btn-step")
    step.scroll_into_view_if_needed()
    button = step.bounding_box()  # in the page's viewport
    x, y = button["x"] + button["width"] / 2, button["y"] + 5
    start = frame.evaluate("() => window.playback.painted")
    for _ in range(n):
        page.mouse.click(x, y)
        page.wait_for_timeout(120)
    frame.wait_for_function(f"() => window.__bench.clicks.length >= {n}", timeout=30_000)
    assert frame.evaluate("() => window.playback.painted") == start + n, "a click was lost"
    return frame.evaluate("() => window.__bench.clicks")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        folder = Path(tmp)
        write_notebook(folder / "bench.ipynb", SETUP, *(cell for _, cell in CELLS))
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        with jupyterlab(folder) as (url, token):
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            open_notebook(page, url, token, "bench.ipynb")
            run_cell(page, 1)
            print(f"{'replay':52s} {'show->figure':>13s} {'step p50':>9s} {'step p95':>9s}")
            for i, (name, _) in enumerate(CELLS):
                frame, seconds = run_replay_cell(page, prompt=i + 2)
                page.wait_for_timeout(1000)
                clicks = click_steps(page, frame, args.clicks)
                p50, p95 = _quantiles(clicks)
                print(f"{name:52s} {seconds:11.2f} s {p50:6.1f} ms {p95:6.1f} ms", flush=True)
                page.evaluate(f"() => document.querySelector('{FRAME}').remove()")
            page.close()
        browser.close()
    print(f"({args.clicks} Step clicks per replay, 120 ms apart)")


if __name__ == "__main__":
    main()
