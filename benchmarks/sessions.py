"""Visitors in a real browser, for the serving benchmarks (not a benchmark itself).

A :class:`Visitor` is a Playwright browser context (its own cookies, as a
separate person) on Debian's chromium. It times navigation to the
playground's figure being painted, and one click on Step or on a setting
until its result is on screen ("on screen": the change is in the page and
the browser has painted two frames since). Each time comes with the moment
the server's last message arrived before it, which separates the server's
part from the browser's.

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
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.live import wait_for_health  # noqa: E402

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


@dataclass(frozen=True)
class Timing:
    """Seconds from an action until its result was painted, and until the server's last
    message before that (arrival as Playwright saw it): the rest was the browser's work."""

    painted: float
    served: float


class Visitor:
    """One person's page of the app, with the arrival times of its websocket messages."""

    def __init__(self, page):
        self.page = page
        self.frames: list[float] = []
        page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda _: self.frames.append(time.perf_counter())))  # fmt: skip

    @classmethod
    async def arrive(cls, browser, url: str) -> tuple[Visitor, Timing]:
        """A new visitor (own cookies) opening ``url``, timed to the first figure."""
        context = await browser.new_context(viewport=VIEWPORT)
        visitor = cls(await context.new_page())
        timing = await visitor._timed(
            lambda: visitor.page.goto(url, timeout=TIMEOUT_MS),
            f"() => ({FIGURE_STATE})() !== null",
        )
        return visitor, timing

    async def step(self) -> Timing:
        """A click on Step, until the figure shows the next step."""
        return await self._click(".st-key-pg_step button", "title")

    async def change_setting(self) -> Timing:
        """A click on the "Decision region" toggle, until the figure is redrawn."""
        return await self._click(".st-key-pg_region label", "traces")

    async def leave(self) -> None:
        await self.page.context.close()

    async def _click(self, selector: str, changes: str) -> Timing:
        """Click ``selector``; timed until the figure's ``changes`` ("title", "traces") differ."""
        before = (await self.page.evaluate(FIGURE_STATE))[changes]
        return await self._timed(
            lambda: self.page.locator(selector).first.click(),
            f"(old) => {{ const s = ({FIGURE_STATE})(); return s && s.{changes} !== old; }}",
            before,
        )

    async def _timed(self, action, condition: str, arg=None) -> Timing:
        start = time.perf_counter()
        await action()
        await _until(self.page, condition, arg)
        end = time.perf_counter()
        served = max((t for t in self.frames if start <= t <= end), default=float("nan"))
        return Timing(end - start, served - start)


def summary(seconds: list[float]) -> str:
    """``p50 / p95 / max`` in seconds, from at least one value."""
    values = sorted(seconds)
    p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
    return f"{statistics.median(values):6.2f} / {p95:6.2f} / {values[-1]:6.2f}"
