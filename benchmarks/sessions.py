"""Visitors in a real browser, for the serving benchmarks (not a benchmark itself).

A visitor is a Playwright browser context (its own cookies, as a separate
person) on Debian's chromium. :func:`open_session` times navigation to the
playground's figure being painted; :func:`step` and :func:`change_setting`
time one click each until its result is on screen. "On screen" means the
change is in the page and the browser has painted two frames since.

The selectors are those of today's playground (a Plotly figure that the
server re-sends on every rerun): a Step click reruns the server, the
setting change ("Decision region" in the sidebar) reruns it and redraws the
figure. If the playground's controls change, change them here.

Also starts the app with ``perceptron-lab app`` and waits for its health check.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.servers import wait_for_health  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORT = {"width": 1400, "height": 1000}
FIGURE = ".st-key-pg_figure .js-plotly-plot"
#: The figure's Plotly state once drawn: its title (the step) and its number of traces.
FIGURE_STATE = f"""() => {{
    const el = document.querySelector('{FIGURE}');
    if (!el || !el._fullLayout || !el.querySelector('.main-svg')) return null;
    return {{title: el.layout.title.text, traces: el.data.length}};
}}"""
TWO_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
TIMEOUT_MS = 180_000


def perceptron_lab(bin_dir: Path | None = None) -> list[str]:
    """The ``perceptron-lab`` command: an install's console script, or this checkout's."""
    if bin_dir is not None:
        return [str(bin_dir / "perceptron-lab")]
    return [sys.executable, "-m", "perceptron_core.cli"]


def start_app(command: list[str], port: int, log: Path, env: dict | None = None):
    """``perceptron-lab app`` on 127.0.0.1:port, once it answers its health check.

    Returns ``(process, seconds until healthy)``; the output goes to ``log``.
    """
    environ = {**os.environ, **(env or {})}
    environ.pop("PYTHONPATH", None)  # an install runs its own copy only
    if command[0] == sys.executable:  # this checkout: import its packages, wherever we are
        environ["PYTHONPATH"] = str(ROOT)
    start = time.perf_counter()
    proc = subprocess.Popen(
        [*command, "app", "--port", str(port), "--address", "127.0.0.1"],
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        env=environ,
        cwd=log.parent,
    )
    wait_for_health(f"http://127.0.0.1:{port}/_stcore/health", proc)
    return proc, time.perf_counter() - start


async def _until(page, condition: str, arg=None) -> None:
    await page.wait_for_function(condition, arg=arg, timeout=TIMEOUT_MS)
    await page.evaluate(TWO_FRAMES)


async def open_session(browser, url: str) -> tuple[object, float]:
    """A new visitor's page at ``url``; returns ``(page, seconds to the first figure)``."""
    context = await browser.new_context(viewport=VIEWPORT)
    page = await context.new_page()
    start = time.perf_counter()
    await page.goto(url, timeout=TIMEOUT_MS)
    await _until(page, f"() => ({FIGURE_STATE})() !== null")
    return page, time.perf_counter() - start


async def _state(page) -> dict:
    return await page.evaluate(FIGURE_STATE)


async def step(page) -> float:
    """Seconds from a click on Step until the figure shows the next step."""
    before = (await _state(page))["title"]
    start = time.perf_counter()
    await page.locator(".st-key-pg_step button").first.click()
    await _until(page, f"(old) => {{ const s = ({FIGURE_STATE})(); return s && s.title !== old; }}",
                 before)  # fmt: skip
    return time.perf_counter() - start


async def change_setting(page) -> float:
    """Seconds from a click on the "Decision region" toggle until the figure is redrawn."""
    before = (await _state(page))["traces"]
    start = time.perf_counter()
    await page.locator(".st-key-pg_region label").first.click()
    await _until(page, f"(old) => {{ const s = ({FIGURE_STATE})(); return s && s.traces !== old; }}",
                 before)  # fmt: skip
    return time.perf_counter() - start


def summary(seconds: list[float]) -> str:
    """``p50 / p95 / max`` in seconds, from at least one value."""
    values = sorted(seconds)
    p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
    return f"{statistics.median(values):6.2f} / {p95:6.2f} / {values[-1]:6.2f}"
