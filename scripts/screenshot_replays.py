"""Take the README's pictures of the replay outside the app: the exported page and the widget.

``docs/exported_page.png``: the page ``perceptron-lab export-html`` writes for a link (the
margin perceptron on noisy clouds, as docs/playground.png), opened from ``file://`` in
Debian's chromium with every other request refused. ``docs/notebook_widget.png``: a
JupyterLab (started here on a free loopback port with a one-time token, as the browser test
starts it) running ``show(KWPerceptron(...), X, y)`` on the shipped ionosphere data. Both at
1280x800::

    python scripts/screenshot_replays.py

The same link, data and seed give the same pictures (the date on the page aside).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from perceptron_lab.ui.standalone_page import link_page  # noqa: E402
from tests.chromium import CHROMIUM_ARGS  # noqa: E402
from tests.jupyter import jupyter, open_notebook, run_replay_cell, write_notebook  # noqa: E402

LINK = "data=gaussians&noise=uniform&noise_rate=0.08&learner=margin&t=260"
CELL = """from perceptron_core import KWPerceptron
from perceptron_core.datasets import load
from perceptron_lab.widget import show
X, y, info = load("ionosphere")
show(KWPerceptron(tau=0.5, epochs=10, random_state=0), X, y, title="Ionosphere")"""
SIZE = {"width": 1280, "height": 800}


def exported_page(browser, folder: Path, out: Path) -> None:
    page_text, _ = link_page(LINK)
    path = folder / "page.html"
    path.write_text(page_text, encoding="utf-8")
    context = browser.new_context(viewport=SIZE)
    context.route(
        "**/*", lambda r: r.continue_() if r.request.url.startswith("file:") else r.abort()
    )
    page = context.new_page()
    page.goto(path.as_uri())
    page.wait_for_function("() => window.playback && window.playback.settled")
    page.wait_for_timeout(500)
    page.screenshot(path=str(out))
    context.close()


def notebook_widget(browser, folder: Path, out: Path) -> None:
    write_notebook(folder / "ionosphere.ipynb", CELL)
    with jupyter(folder) as server:
        page = browser.new_page(viewport=SIZE)
        open_notebook(page, server, "ionosphere.ipynb")
        frame, _ = run_replay_cell(page)
        for _ in range(40):
            frame.locator(".btn-update").click()
        page.locator(".jp-Notebook .jp-Cell").first.scroll_into_view_if_needed()
        page.wait_for_timeout(800)
        page.screenshot(path=str(out))
        page.close()


def main() -> None:
    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        for name in ("page", "lab"):
            (Path(tmp) / name).mkdir()
        exported_page(browser, Path(tmp) / "page", ROOT / "docs" / "exported_page.png")
        notebook_widget(browser, Path(tmp) / "lab", ROOT / "docs" / "notebook_widget.png")
        browser.close()
    print("wrote docs/exported_page.png and docs/notebook_widget.png")


if __name__ == "__main__":
    main()
