"""Visitors in a real browser, for the serving benchmarks (not a benchmark itself).

A :class:`Visitor` is a Playwright browser context (its own cookies, as a
separate person) on Debian's chromium. It times navigation to the
playground's first painted step, a click on Step, and a setting change (the
data seed: a new run from the server), each until the playback component
has painted the result and the browser has drawn two frames since. Each time
comes with the moment the server's last message arrived before it, which
separates the server's part from the browser's (a step is the browser's
alone: it sends nothing to the server).

The selectors are those of the playback component (``ui/playback``): its
frame, ``window.playback`` (the painted step, the payload's id) and its
Step button; the Seed field is the data panel's. If they change, change
them here.

Also starts the app with ``perceptron-lab app`` and waits for its health check.
"""

from __future__ import annotations

import asyncio
import math
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

VIEWPORT = {"width": 1280, "height": 900}
FRAME = "iframe[title$='playback']"
#: In the component's frame: the painted step and the run's id, once a step is painted.
STATE = (
    "() => window.playback && window.playback.painted !== null"
    " ? {step: window.playback.painted, run: window.playback.payloadId} : null"
)
TWO_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
TIMEOUT_MS = 180_000


def perceptron_lab(bin_dir: Path | None = None) -> list[str]:
    """The ``perceptron-lab`` command: an install's console script, or this checkout's."""
    if bin_dir is not None:
        return [str(bin_dir / "perceptron-lab")]
    return [sys.executable, "-m", "perceptron_lab.cli"]


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


@dataclass(frozen=True)
class Timing:
    """Seconds from an action until its result was painted, and until the server's last
    message before that (arrival as Playwright saw it; NaN when the server sent nothing)."""

    painted: float
    served: float


class Visitor:
    """One person's page of the app, with the arrival times of its websocket messages."""

    def __init__(self, page):
        self.page = page
        self.frames: list[float] = []
        page.on(
            "websocket",
            lambda ws: ws.on("framereceived", lambda _: self.frames.append(time.perf_counter())),
        )

    @classmethod
    async def arrive(cls, browser, url: str) -> tuple[Visitor, Timing]:
        """A new visitor (own cookies) opening ``url``, timed to the first painted step."""
        context = await browser.new_context(viewport=VIEWPORT)
        visitor = cls(await context.new_page())
        timing = await visitor._timed(
            lambda: visitor.page.goto(url, timeout=TIMEOUT_MS), lambda state: state is not None
        )
        return visitor, timing

    async def step(self) -> Timing:
        """A click on Step, until the next step is painted."""
        before = await self._state()
        button = self.page.frame_locator(FRAME).first.locator(".btn-step")
        return await self._timed(
            button.click, lambda state: state and state["step"] == before["step"] + 1
        )

    async def change_setting(self) -> Timing:
        """A new data seed, until the new run's first step is painted."""
        before = await self._state()
        seed = self.page.get_by_label("Seed", exact=True)
        new = str(int(await seed.input_value()) + 1)

        async def enter():
            await seed.fill(new)
            await seed.press("Enter")

        return await self._timed(enter, lambda state: state and state["run"] != before["run"])

    async def leave(self) -> None:
        await self.page.context.close()

    async def _state(self):
        """The component's painted step and run, or None before its first paint."""
        frame = next((f for f in self.page.frames if "/component/" in f.url), None)
        try:
            return await frame.evaluate(STATE) if frame else None
        except Exception:  # the frame is (re)loading
            return None

    async def _timed(self, action, done) -> Timing:
        start = time.perf_counter()
        await action()
        deadline = start + TIMEOUT_MS / 1000
        while not done(await self._state()):
            if time.perf_counter() > deadline:
                raise TimeoutError(f"nothing painted within {TIMEOUT_MS / 1000:.0f} s")
            await asyncio.sleep(0.01)
        await self.page.evaluate(TWO_FRAMES)
        end = time.perf_counter()
        served = max((t for t in self.frames if start <= t <= end), default=math.nan)
        return Timing(end - start, served - start)


def summary(seconds: list[float]) -> str:
    """``p50 / p95 / max`` in seconds (a dash when there is no number)."""
    values = sorted(s for s in seconds if not math.isnan(s))
    if not values:
        return f"{'-':>22s}"
    p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
    return f"{statistics.median(values):6.2f} / {p95:6.2f} / {values[-1]:6.2f}"


@dataclass
class WireOutcome:
    """What a protocol-level visitor got: ``"figure"``, ``"message"`` (a page's error or
    warning, its text in ``text``), ``"closed"`` (the server closed the websocket or died) or
    ``"timeout"``; the seconds to it; and the places in the queue it was shown."""

    kind: str
    seconds: float
    text: str = ""
    places: tuple[str, ...] = ()


async def wire_visit(
    base: str, query: str, timeout: float = 900.0, leave_after: float | None = None
) -> WireOutcome:
    """One visitor at the protocol level: a websocket session on ``base`` (``http://host:port``)
    that asks for the page of ``query`` (``data=...&seed=1``, no ``?``) as a browser's
    Streamlit client does, and reads the server's messages until the page's script run ends
    with the playback component drawn or an error shown, the server closes the socket, or
    ``timeout`` seconds pass. No browser: what is measured is the server's part alone.

    ``leave_after`` seconds: the visitor closes the socket then, whatever it got (a visitor
    who leaves); its outcome is ``"left"``.

    The server sends every element in full: a fresh client has no cached messages to refer to.
    """
    import websockets
    from streamlit.proto.Alert_pb2 import Alert
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    uri = base.replace("http", "ws", 1) + "/_stcore/stream"
    start = time.perf_counter()
    figure, messages, places = False, [], []
    try:
        async with asyncio.timeout(leave_after or timeout):
            async with websockets.connect(
                uri,
                subprotocols=["streamlit"],
                max_size=None,
                open_timeout=timeout,
                ping_interval=None,  # a browser does not close a busy server's socket
            ) as ws:
                back = BackMsg()
                back.rerun_script.query_string = query
                back.rerun_script.page_script_hash = ""
                await ws.send(back.SerializeToString())
                async for frame in ws:
                    msg = ForwardMsg.FromString(frame)
                    kind = msg.WhichOneof("type")
                    if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                        element = msg.delta.new_element
                        what = element.WhichOneof("type")
                        if what == "component_instance" and "playback" in (
                            element.component_instance.component_name
                        ):
                            figure = True
                        elif what == "markdown" and "in the queue" in element.markdown.body:
                            places.append(element.markdown.body)  # ui/waiting.py's place
                        elif what == "alert" and element.alert.format in (
                            Alert.ERROR,
                            Alert.WARNING,
                        ):
                            messages.append(element.alert.body)
                    elif kind == "script_finished" and (figure or messages):
                        break
    except TimeoutError:
        seconds = time.perf_counter() - start
        return WireOutcome("left" if leave_after else "timeout", seconds, places=tuple(places))
    except (OSError, websockets.exceptions.WebSocketException) as err:
        return WireOutcome("closed", time.perf_counter() - start, repr(err)[:120], tuple(places))
    seconds = time.perf_counter() - start
    if figure:
        return WireOutcome("figure", seconds, "; ".join(messages)[:200], tuple(places))
    if messages:
        return WireOutcome("message", seconds, messages[0][:200], tuple(places))
    return WireOutcome("closed", seconds, "the socket ended without a figure or a message")
