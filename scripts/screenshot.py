"""Take the README's picture of the playground from the running app.

Starts ``streamlit run app.py`` from this checkout on a free port, opens a
link in Debian's chromium (headless, 1280x800), waits until the playback
component painted the linked step and drew its charts, and saves the page
to ``docs/playground.png``::

    python scripts/screenshot.py
    python scripts/screenshot.py --link "/?learner=kernel&data=circles&t=300" --out shot.png

The same link and seed give the same picture.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.chromium import CHROMIUM_ARGS  # noqa: E402
from tests.live import free_port, stop, wait_for_health  # noqa: E402
from tests.programs import INSTALL  # noqa: E402

#: Noisy labels, the margin perceptron and its band, part way through its second epoch.
DEFAULT_LINK = "/?data=gaussians&noise=uniform&noise_rate=0.08&learner=margin&t=260"
FRAME = "iframe[title$='playback']"


def screenshot(link: str, out: Path, size: tuple[int, int]) -> None:
    """Serve the app, open ``link`` and save the page once the component settled."""
    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit(f"chromium is not on the PATH: {INSTALL['chromium']}")
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        wait_for_health(f"{url}/_stcore/health", server)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": size[0], "height": size[1]})
            page.goto(url + link)
            page.wait_for_selector(FRAME, timeout=120_000)
            frame = next(f for f in page.frames if "/component/" in f.url)
            frame.wait_for_function(
                "() => window.playback && window.playback.settled", timeout=120_000
            )
            page.wait_for_timeout(500)  # the charts' transitions
            out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(out))
            browser.close()
    finally:
        stop(server)
    print(f"{out}: {link} at {size[0]}x{size[1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--link", default=DEFAULT_LINK, help="the app's path and query")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "playground.png")
    parser.add_argument("--size", default="1280x800", help="window WIDTHxHEIGHT")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    screenshot(args.link, args.out, (width, height))


if __name__ == "__main__":
    main()
