"""The notebook widget: a notebook's saved size, show to a drawn figure, and click-to-paint.

Targets: a notebook with ten default replays saves at most 3 MB of widget state;
a Step click painted in at most 50 ms (p50, the app's). The host is started here on a free
loopback port with a one-time token (tests/jupyter.py), the notebook opened in Debian's
chromium (headless, 1400x1000), and:

* saved size (JupyterLab, its setting to save widget state on): ten cells, each
  ``show("perceptron", X, y, seed=i)`` on the playground's first view (separable data, 100
  points x 20 epochs); all run, the notebook saved (Ctrl+S), then the bytes of the file and
  of its widget state (``metadata.widgets``). Beside it, the state the widget synced when it
  carried a page (before the ``PlaybackFiles`` widget) for the same ten runs: one
  self-contained page per replay (``ui.standalone_page.page_html``) as JSON text, computed
  here;
* show to figure: from Shift+Enter on a cell with ``show(...)`` to the replay's first painted
  step (the kernel's imports and the fit included): the first cell of a fresh kernel
  (imports, numba), a second show in the same kernel, an unfitted estimator, and a longer run;
* step: a real mouse click on Step in the replay's frame, timed in the frame as
  ``benchmarks/bench_browser.py`` times the app's component (the click's timestamp to the
  first animation frame after the painted step); ``--clicks`` clicks 120 ms apart. Beside
  them, in the same browser, the default run's exported page (``to_html``) opened alone: the
  same replay with no notebook around it.

::

    python benchmarks/bench_notebook.py                       # both hosts, and the size
    python benchmarks/bench_notebook.py --hosts JupyterLab --clicks 100
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_browser import TIMING_JS, _quantiles  # noqa: E402

from tests.chromium import launch  # noqa: E402
from tests.jupyter import (  # noqa: E402
    FRAME,
    HOSTS,
    jupyter,
    open_notebook,
    replay_frame,
    run_cell,
    run_replay_cell,
    save_notebook,
    write_notebook,
)

SETUP = """from perceptron_core import KWPerceptron
from perceptron_core.datasets import load
from perceptron_lab.widget import show
X, y, _ = load("separable", random_state=0)
Xl, yl, _ = load("gaussians", n_samples=1000, random_state=0)
"""
#: (name, cell): each cell shows one replay.
CELLS = [
    ("default run (100 points x 20 epochs), first show", 'show("perceptron", X, y)'),
    ("default run, second show in the kernel", 'show("perceptron", X, y, seed=1)'),
    ("KWPerceptron(tau=0.5, epochs=20), unfitted", "show(KWPerceptron(tau=0.5, epochs=20), X, y)"),
    ("1,000 points x 100 epochs, voted", 'show("voted", Xl, yl, epochs=100)'),
]
#: The ten default replays whose notebook is saved.
TEN = 10


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


def time_shows(browser, host: str, clicks: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_notebook(folder / "bench.ipynb", SETUP, *(cell for _, cell in CELLS))
        with jupyter(folder, host) as server:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            open_notebook(page, server, "bench.ipynb")
            run_cell(page, 1)
            for i, (name, _) in enumerate(CELLS):
                frame, seconds = run_replay_cell(page, prompt=i + 2)
                page.wait_for_timeout(1000)
                p50, p95 = _quantiles(click_steps(page, frame, clicks))
                print(
                    f"{host:11s} {name:50s} {seconds:9.2f} s {p50:6.1f} ms {p95:6.1f} ms",
                    flush=True,
                )
                page.evaluate(f"() => document.querySelector('{FRAME}').remove()")
            page.close()


def time_alone(browser, clicks: int) -> None:
    """Step clicks on the default run's exported page, opened alone from a file."""
    from perceptron_core.datasets import load
    from perceptron_lab.widget import show

    X, y, _ = load("separable", random_state=0)
    with tempfile.TemporaryDirectory() as tmp:
        path = show("perceptron", X, y).to_html(Path(tmp) / "default.html")
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(path.as_uri())
        page.wait_for_function("() => window.playback && window.playback.settled")
        page.wait_for_timeout(1000)
        p50, p95 = _quantiles(click_steps(page, page.main_frame, clicks))
        name = "default run, its exported page alone (no notebook)"
        print(f"{'-':11s} {name:50s} {'':>11s} {p50:6.1f} ms {p95:6.1f} ms", flush=True)
        page.close()


def the_pages_before() -> int:
    """The widget state the ten replays held when each carried its page, as JSON text."""
    from perceptron_core.datasets import load
    from perceptron_lab.app_logic.payload import build_payload
    from perceptron_lab.ui.standalone_page import page_html
    from perceptron_lab.widget import show

    X, y, _ = load("separable", random_state=0)
    total = 0
    for seed in range(TEN):
        replay = show("perceptron", X, y, seed=seed)
        payload = build_payload(replay.data, [replay.run], seed)
        page = page_html(payload, replay.run, replay.data, replay.about)
        total += len(json.dumps(page).encode("utf-8"))
    return total


def saved_size(browser) -> tuple[int, int, int]:
    """(file bytes, widget-state bytes, widget models) of the saved ten-replay notebook."""
    cells = [f'show("perceptron", X, y, seed={seed})' for seed in range(TEN)]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = write_notebook(folder / "ten.ipynb", SETUP, *cells)
        with jupyter(folder, "JupyterLab", save_widget_state=True) as server:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            open_notebook(page, server, "ten.ipynb")
            for prompt in range(1, TEN + 2):
                run_cell(page, prompt)
            for nth in range(TEN):
                replay_frame(page, nth)
            book = save_notebook(page, path)
            page.close()
        state = book["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]
        widgets = json.dumps(state).encode("utf-8")
        return path.stat().st_size, len(widgets), len(state["state"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=50)
    parser.add_argument("--hosts", nargs="*", default=list(HOSTS), choices=list(HOSTS))
    parser.add_argument("--no-size", action="store_true", help="skip the saved notebook")
    args = parser.parse_args()
    with sync_playwright() as p:
        browser = launch(p, full=True)
        if not args.no_size:
            size, widgets, models = saved_size(browser)
            before = the_pages_before()
            print(f"ten default replays, saved: {size:,} bytes, widget state {widgets:,} bytes")
            print(f"  ({models} widget models); the pages the widget held before: {before:,}")
            print(f"  bytes, {before / widgets:.1f} times the state saved now")
        print(f"{'host':11s} {'replay':50s} {'show->figure':>11s} {'step p50':>9s} {'p95':>9s}")
        time_alone(browser, args.clicks)
        for host in args.hosts:
            time_shows(browser, host, args.clicks)
        browser.close()
    print(f"({args.clicks} Step clicks per replay, 120 ms apart)")


if __name__ == "__main__":
    main()
