"""The playground in a real browser: step latency, play smoothness, first figure, a class of 30.

Starts ``streamlit run app.py`` from this checkout on a free port and drives
Debian's chromium with Playwright (the playground's latency targets; reported,
never asserted). Pick scenarios with flags; no flag runs all but ``--fresh``:

    python benchmarks/bench_browser.py --step --play       # one visitor
    python benchmarks/bench_browser.py --first             # server restart, warm numba cache
    python benchmarks/bench_browser.py --fresh             # new venv: cold, warm caches in turns
    python benchmarks/bench_browser.py --class-size 30     # 30 sessions, staggered by 0.5 s
    python benchmarks/bench_browser.py --bytes             # payload sizes of the two big cases
    python benchmarks/bench_browser.py --lessons           # warm, restart, each lesson's figure
    python benchmarks/bench_browser.py --lessons --cold    # the same from empty caches

How each number is taken:

* step: a real mouse click on Step (Playwright's ``mouse.click`` on the
  button inside the component's frame). In the frame, the click's
  ``event.timeStamp`` is the start; the end is the first
  ``requestAnimationFrame`` callback after the component painted the new
  step plus a ``setTimeout(0)`` (the frame with the new step has been
  produced). The Event Timing API (``PerformanceObserver`` of type
  "event", durationThreshold 16 ms: input delay + processing +
  presentation) is reported beside it; it only sees events that took 16 ms
  or more, so the table says how many clicks it saw.
* play: speed 30 steps/s for 10 s; a rAF loop in the frame counts the
  frames that showed a new step (distinct steps painted per second).
* first figure: navigation start to the component's first painted step,
  once the server answers its health check; the time from the server's
  start to that figure is given too.
* fresh: this checkout pip-installed into a new venv, then in turns the
  installed app's first figure as right after the install (numba's and the
  app's caches empty) and after a restart (the caches the venv's
  ``perceptron-lab warm`` filled once), with the ratio of the medians.
* class: N browser contexts opened 0.5 s apart, each one's first figure;
  then, with all open and idle, 30 steps in one of them (p95) and 10
  setting changes (the data seed, p95: change to the new run painted);
  server RSS before and after the sessions opened; the CPU the server and
  the browser's processes spent from the first context's opening until
  every first figure was painted (and 2 s more).
* lessons: ``perceptron-lab warm`` (unless ``--no-warm``; with ``--cold``
  from empty caches, as after an install or an edit of the package), then
  a server started fresh, and each of the 11 lessons opened in turn in a new page:
  navigation start to the lesson's first figure painted (whichever comes
  first: a Plotly chart's ``.main-svg`` laid out in the page, or the
  playback component's first painted step, as in first figure), and to the
  end of the page's run (Streamlit's running indicator gone), before the
  next lesson opens. Then the floors, each on a server of its own: the bare
  page with one component (``--first``'s) for the lessons that open on the
  playback component, and a bare page with one ``st.plotly_chart``
  (``benchmarks/floor/chart_app.py``) for those that open on a Plotly chart;
  each lesson's first figure is given against its floor.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from functools import partial
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright

from tests.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.live import free_port

FRAME = "iframe[title$='playback']"
#: A bare Streamlit page whose one component draws 100 points with our Plotly.js (--first).
FLOOR_APP = ROOT / "benchmarks" / "floor" / "app.py"
#: A bare Streamlit page with one st.plotly_chart of 100 points (--lessons).
CHART_FLOOR_APP = ROOT / "benchmarks" / "floor" / "chart_app.py"
#: The step scenario's pages: the default page, and 1,000 points x 100 epochs with the voted view.
PAGES = {
    "default page (100 points, perceptron)": "/",
    "1,000 points x 100 epochs, voted view": "/?data=gaussians&gaussians_n_samples=1000"
    "&noise=uniform&noise_rate=0.05&epochs=100&learner=voted&ensemble=1&averaged=1&longest=1",
}

# In the component's frame: time every click on a playback button until its step is painted.
TIMING_JS = """() => {
    const out = {clicks: [], events: []};
    window.__bench = out;
    new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (e.name === 'click') out.events.push(e.duration);
    }).observe({type: 'event', durationThreshold: 16, buffered: false});
    document.addEventListener('click', (event) => {
        const start = event.timeStamp;
        // our handler paints synchronously; this rAF runs in the frame that shows it
        requestAnimationFrame(() => setTimeout(() => out.clicks.push(performance.now() - start)));
    }, true);
}"""

PAINTED_JS = "() => !!(window.playback && window.playback.painted !== null)"

# In the frame: count the animation frames that show a new step.
PLAY_JS = """(seconds) => new Promise((resolve) => {
    let last = window.playback.painted, frames = 0, shown = 0;
    const start = performance.now();
    const tick = (now) => {
        frames++;
        if (window.playback.painted !== last) { shown++; last = window.playback.painted; }
        if (now - start < seconds * 1000) requestAnimationFrame(tick);
        else resolve({shown, frames, seconds: (now - start) / 1000, end: last});
    };
    requestAnimationFrame(tick);
})"""


def _limit_as(nbytes: int) -> None:
    """Cap this (child) process's address space, as a memory-capped container would."""
    resource.setrlimit(resource.RLIMIT_AS, (nbytes, nbytes))


class Server:
    """``streamlit run`` of ``script`` (the app) on a free port (``python`` and ``env`` choose
    the install; ``address_space`` caps the server's address space, in bytes)."""

    def __init__(
        self,
        python: str = sys.executable,
        env: dict | None = None,
        script: Path = ROOT / "app.py",
        cwd: Path = ROOT,
        address_space: int | None = None,
    ):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            [
                python,
                "-m",
                "streamlit",
                "run",
                str(script),
                "--server.headless",
                "true",
                "--server.port",
                str(self.port),
                "--server.address",
                "127.0.0.1",
            ],
            cwd=cwd,
            env={**os.environ, **(env or {})},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=None if address_space is None else partial(_limit_as, address_space),
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2):
                    self.ready = time.perf_counter()
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("streamlit did not start")

    def rss(self) -> int:
        return psutil.Process(self.proc.pid).memory_info().rss

    def cpu(self) -> float:
        """CPU seconds the server has used (user + system)."""
        times = psutil.Process(self.proc.pid).cpu_times()
        return times.user + times.system

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)


def _browser_cpu() -> float:
    """CPU seconds used so far by the chromium processes running now (browser, renderers, GPU).

    A process that ended since is not counted, so a difference is a lower bound.
    """
    total = 0.0
    for proc in psutil.process_iter(["name", "cpu_times"]):
        times = proc.info["cpu_times"]
        if "chrom" in (proc.info["name"] or "") and times is not None:
            total += times.user + times.system
    return total


def _frame(page):
    return next(f for f in page.frames if "/component/" in f.url)


def _open(page, url: str) -> float:
    """Seconds from navigation to the component's first painted step."""
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector(FRAME, timeout=180_000)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            if _frame(page).evaluate(PAINTED_JS):
                return time.perf_counter() - start
        except (StopIteration, Exception):  # the frame is still loading
            pass
        time.sleep(0.02)
    raise RuntimeError("no figure within 180 s")


def _quantiles(values) -> tuple[float, float]:
    values = sorted(values)
    return statistics.median(values), values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]


def _click_steps(page, n: int) -> dict:
    frame = _frame(page)
    frame.evaluate(TIMING_JS)
    box = page.locator(FRAME).first.bounding_box()
    button = frame.evaluate(
        "() => document.querySelector('.btn-step').getBoundingClientRect().toJSON()"
    )
    x, y = box["x"] + button["x"] + button["width"] / 2, box["y"] + button["y"] + 5
    start = frame.evaluate("() => window.playback.painted")
    for _ in range(n):
        page.mouse.click(x, y)
        page.wait_for_timeout(120)
    frame.wait_for_function(f"() => window.__bench.clicks.length >= {n}", timeout=30_000)
    result = frame.evaluate("() => window.__bench")
    assert frame.evaluate("() => window.playback.painted") == start + n, "a click was lost"
    return result


def step_latency(browser, server: Server, clicks: int) -> list[tuple[str, str]]:
    rows = []
    for name, path in PAGES.items():
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        _open(page, server.url + path)
        page.wait_for_timeout(1500)
        result = _click_steps(page, clicks)
        p50, p95 = _quantiles(result["clicks"])
        seen = result["events"]
        et = f"{len(seen)} of {clicks} clicks >= 16 ms" + (
            f", their p50 {statistics.median(seen):.0f} ms" if seen else ""
        )
        rows.append((f"step click -> painted, {name}", f"p50 {p50:.1f} ms, p95 {p95:.1f} ms"))
        rows.append((f"  Event Timing API, {name}", et))
        page.close()
    return rows


def play_rate(browser, server: Server, seconds: float = 10.0) -> list[tuple[str, str]]:
    rows = []
    for name, path in PAGES.items():
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        _open(page, server.url + path)
        frame = _frame(page)
        frame.select_option(".speed", "30")
        frame.evaluate("() => window.playback.args && null")
        frame.locator(".btn-play").click()
        result = frame.evaluate(PLAY_JS, seconds)
        frame.locator(".btn-play").click()
        rate = result["shown"] / result["seconds"]
        frames = result["frames"] / result["seconds"]
        rows.append(
            (
                f"play at 30 steps/s, {name}",
                f"{rate:.1f} steps painted per s ({frames:.0f} frames/s, at step "
                f"{result['end']} after {result['seconds']:.1f} s)",
            )
        )
        page.close()
    return rows


def _first_paint(browser, server: Server) -> tuple[float, dict]:
    """A server's first page: seconds from navigation to its painted figure, and in the
    component's frame (its own clock, ms) when Plotly.js had arrived and the figure was painted,
    and when the page's HTML had."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        seconds = _open(page, server.url + "/")
        parts = _frame(page).evaluate("""() => {
            const r = performance.getEntriesByType('resource')
                .find(e => e.name.includes('plotly-basic'));
            return {plotly_loaded: r ? r.responseEnd : null, painted: window.playback.paintedAt};
        }""")
        parts["html"] = page.evaluate(
            "() => performance.getEntriesByType('navigation')[0].responseEnd"
        )
    finally:
        page.close()
    return seconds, parts


def _restarted(
    browser,
    python: str = sys.executable,
    env: dict | None = None,
    script: Path = ROOT / "app.py",
    cwd: Path = ROOT,
) -> tuple[float, float, dict]:
    """Start a server, open its first page: (seconds to the figure, seconds the server took
    to answer, the frame's parts)."""
    server = Server(python, env, script, cwd)
    try:
        seconds, parts = _first_paint(browser, server)
    finally:
        server.stop()
    return seconds, server.ready - server.started, parts


def _first_rows(label: str, seconds: float, answered: float, parts: dict) -> list[tuple]:
    return [
        (
            f"first figure, {label}",
            f"{seconds:.2f} s after navigation; the server answered "
            f"{answered:.1f} s after its start, so {answered + seconds:.1f} s from start to "
            "figure",
        ),
        (
            "  inside the component's frame",
            f"Plotly.js loaded at {parts['plotly_loaded']:.0f} ms, the figure painted at "
            f"{parts['painted']:.0f} ms (frame's own clock); page HTML at {parts['html']:.0f} ms",
        ),
    ]


def first_figure(browser, rounds: int) -> list[tuple[str, str]]:
    """The playground's first figure after a restart (warm numba cache), in turns with the
    floor's: a bare Streamlit page whose one component draws 100 points with the same Plotly.js
    (``benchmarks/floor/app.py``), each after a restart of its server."""
    rows, ours, floor = [], [], []
    for turn in range(1, rounds + 1):
        seconds, answered, parts = _restarted(browser)
        ours.append(seconds)
        rows += _first_rows(f"restart, warm numba cache, turn {turn}", seconds, answered, parts)
        seconds, answered, parts = _restarted(browser, script=FLOOR_APP)
        floor.append(seconds)
        rows += _first_rows(f"the floor, turn {turn}", seconds, answered, parts)
    ours_median, floor_median = statistics.median(ours), statistics.median(floor)
    rows.append(
        (
            f"first figure after a restart, median of {rounds}",
            f"{ours_median:.2f} s; the floor {floor_median:.2f} s; "
            f"ours / floor {ours_median / floor_median:.2f}",
        )
    )
    return rows


def fresh_install(browser, rounds: int) -> list[tuple[str, str]]:
    """This checkout pip-installed into a new venv (minutes); then, in turns, the installed
    app's first figure with empty caches (as right after the install) and after a restart
    with warm ones (filled once by the venv's ``perceptron-lab warm``)."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "venv", str(tmp / "venv")], check=True)
        python = str(tmp / "venv" / "bin" / "python")
        subprocess.run([python, "-m", "pip", "install", "--quiet", str(ROOT)], check=True)
        installed = time.perf_counter() - start
        app = subprocess.run(
            [python, "-c", "from perceptron_lab.cli import APP_FOLDER; print(APP_FOLDER)"],
            cwd=tmp,
            env={**os.environ, "PYTHONPATH": ""},
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()

        def caches(name: str) -> dict:
            return {
                "NUMBA_CACHE_DIR": str(tmp / name / "numba"),
                "PYTHONPATH": "",
                "XDG_CACHE_HOME": str(tmp / name / "cache"),
            }

        start = time.perf_counter()
        subprocess.run(
            [str(tmp / "venv" / "bin" / "perceptron-lab"), "warm"],
            cwd=tmp,
            env={**os.environ, **caches("warm")},
            check=True,
            stdout=subprocess.DEVNULL,
        )
        warmed = time.perf_counter() - start
        rows = [
            ("pip install of the checkout into a new venv", f"{installed:.0f} s"),
            ("perceptron-lab warm in it, once", f"{warmed:.0f} s"),
        ]
        cold, warm = [], []
        for turn in range(1, rounds + 1):
            seconds, answered, parts = _restarted(
                browser, python, caches(f"cold{turn}"), Path(app) / "app.py", tmp
            )
            cold.append(seconds)
            rows += _first_rows(
                f"after the install (empty caches), turn {turn}", seconds, answered, parts
            )
            seconds, answered, parts = _restarted(
                browser, python, caches("warm"), Path(app) / "app.py", tmp
            )
            warm.append(seconds)
            rows += _first_rows(
                f"after a restart (warm caches), turn {turn}", seconds, answered, parts
            )
        cold_median, warm_median = statistics.median(cold), statistics.median(warm)
        rows.append(
            (
                f"first figure, median of {rounds}",
                f"after the install {cold_median:.2f} s; after a restart "
                f"{warm_median:.2f} s; install / restart {cold_median / warm_median:.2f}",
            )
        )
        return rows


def a_class(browser, size: int, clicks: int = 30, changes: int = 10) -> list[tuple[str, str]]:
    server = Server()
    try:
        warm = browser.new_page()
        _open(warm, server.url + "/")  # the server's first page pays the warm-up, not the class
        warm.close()
        base, cpu, browser_cpu = server.rss(), server.cpu(), _browser_cpu()
        contexts, pages, opened = [], [], []
        for _ in range(size):
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            contexts.append(context)
            pages.append(page)
            opened.append(time.time())
            page.goto(server.url + "/", wait_until="commit")
            time.sleep(0.5)
        # each page's first painted step, by the frame's own clock turned into wall time
        firsts = [float("nan")] * size
        deadline = time.monotonic() + 600
        while any(math.isnan(f) for f in firsts) and time.monotonic() < deadline:
            for k, page in enumerate(pages):
                if not math.isnan(firsts[k]):
                    continue
                try:
                    painted = _frame(page).evaluate(
                        "() => window.playback && window.playback.painted !== null"
                        " ? performance.timeOrigin + window.playback.paintedAt : null"
                    )
                except Exception:  # the frame is not there yet
                    painted = None
                if painted:
                    firsts[k] = painted / 1000 - opened[k]
            time.sleep(0.2)
        time.sleep(2)
        rss, cpu, browser_cpu = server.rss(), server.cpu() - cpu, _browser_cpu() - browser_cpu
        opening = time.time() - opened[0]
        page = pages[0]
        result = _click_steps(page, clicks)
        s50, s95 = _quantiles(result["clicks"])
        times = []
        frame = _frame(page)
        for k in range(changes):
            before = frame.evaluate("() => window.playback.payloadId")
            start = time.perf_counter()
            seed = page.get_by_label("Seed", exact=True)
            seed.fill(str(k + 1))
            seed.press("Enter")
            frame.wait_for_function(
                f"() => window.playback.payloadId !== {json.dumps(before)} && "
                "window.playback.painted !== null",
                timeout=60_000,
            )
            times.append(time.perf_counter() - start)
        c50, c95 = _quantiles(times)
        for context in contexts:
            context.close()
        p50, p95 = _quantiles(firsts)
        return [
            (
                f"class: {size} sessions opened 0.5 s apart, first figure",
                f"p50 {p50:.2f} s, p95 {p95:.2f} s, max {max(firsts):.2f} s",
            ),
            (
                f"class: with {size} open, step click -> painted",
                f"p50 {s50:.1f} ms, p95 {s95:.1f} ms",
            ),
            (
                f"class: with {size} open, a setting change (seed) -> new run painted",
                f"p50 {c50:.2f} s, p95 {c95:.2f} s over {changes}",
            ),
            (
                "class: server memory per session",
                f"{(rss - base) / size / 2**20:.1f} MB "
                f"(RSS {base / 2**20:.0f} -> {rss / 2**20:.0f} MB)",
            ),
            ("class: server CPU per session opened", f"{cpu / size * 1000:.0f} ms"),
            (
                "class: chromium CPU per session opened",
                f"{browser_cpu / size * 1000:.0f} ms (at least: the contexts' processes still "
                f"running); server and chromium together {cpu + browser_cpu:.1f} s of CPU in "
                f"{opening:.1f} s on {os.cpu_count()} cores",
            ),
        ]
    finally:
        server.stop()


#: In the page: whether a Plotly chart (st.plotly_chart) has drawn its SVG with a size.
PLOTLY_PAINTED_JS = """() => [...document.querySelectorAll('.js-plotly-plot .main-svg')]
    .some((e) => e.getBoundingClientRect().height > 0)"""
#: In the page: whether Streamlit still runs the page's script (its status widget shows it).
RUNNING_JS = "() => !!document.querySelector('[data-testid=\"stStatusWidget\"]')"


def _lesson_pages() -> list[tuple[str, str]]:
    """``(menu title, URL path)`` of every lesson, in menu order (Streamlit names the path)."""
    from streamlit.source_util import page_icon_and_name

    from perceptron_lab.ui.lesson import lessons

    return [(title, page_icon_and_name(path)[1]) for path, title in lessons(ROOT / "lessons")]


def _lesson_figure(page, url: str, timeout: float = 180) -> tuple[float, str, float]:
    """Open a lesson: seconds from navigation to its first painted figure, which kind it was,
    and seconds to the end of the page's run (its running indicator gone for 0.5 s)."""
    start = time.perf_counter()
    page.goto(url)
    first, kind = None, ""
    deadline = time.monotonic() + timeout
    while first is None and time.monotonic() < deadline:
        if page.evaluate(PLOTLY_PAINTED_JS):
            first, kind = time.perf_counter() - start, "Plotly chart"
            break
        try:
            if _frame(page).evaluate(PAINTED_JS):
                first, kind = time.perf_counter() - start, "playback"
                break
        except (StopIteration, Exception):  # no component, or its frame is still loading
            pass
        time.sleep(0.02)
    if first is None:
        return float("nan"), f"no figure within {timeout:.0f} s", float("nan")
    idle_since, done = None, float("nan")
    while time.monotonic() < deadline:
        now = time.perf_counter()
        if page.evaluate(RUNNING_JS):
            idle_since = None
        elif idle_since is None:
            idle_since = now
        elif now - idle_since >= 0.5:
            done = idle_since - start
            break
        time.sleep(0.05)
    return first, kind, done


def _sources_digest() -> str:
    """SHA-256 of the app's and the package's Python files: an edit between ``warm`` and the
    visits (others work in this tree) makes numba's cache and the prepared studies stale."""
    import hashlib

    digest = hashlib.sha256()
    for folder in ("perceptron_core", "app_logic", "lessons", "ui"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            digest.update(path.read_bytes())
    return digest.hexdigest()


def lesson_figures(browser, warm: bool, cold: bool) -> list[tuple[str, str]]:
    """Each lesson's first figure on a freshly started server, after ``perceptron-lab warm``.

    ``cold``: numba's cache and the app's cache folder start empty (new temporary
    folders for both commands), as after an install or an edit of the package.
    """
    with tempfile.TemporaryDirectory() as tmp:
        env = {"NUMBA_CACHE_DIR": f"{tmp}/numba", "XDG_CACHE_HOME": f"{tmp}/cache"} if cold else {}
        return _lesson_figures(browser, warm, env)


def _lesson_figures(browser, warm: bool, env: dict) -> list[tuple[str, str]]:
    rows = []
    sources = _sources_digest()
    if env:
        rows.append(
            (
                "lessons: caches",
                "numba's and the app's start empty (NUMBA_CACHE_DIR, "
                "XDG_CACHE_HOME in a new temporary folder)",
            )
        )
    if warm:
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "perceptron_lab.cli", "warm"],
            cwd=ROOT,
            env={**os.environ, **env},
            capture_output=True,
            text=True,
            check=False,
        )
        rows.append(
            (
                "lessons: perceptron-lab warm before the restart",
                f"{time.perf_counter() - start:.1f} s, exit status {done.returncode}",
            )
        )
    server = Server(env=env)
    try:
        lessons = []
        for title, path in _lesson_pages():
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            try:
                first, kind, done = _lesson_figure(page, f"{server.url}/{path}")
            finally:
                page.close()
            lessons.append((title, first, kind, done))
            print(title, f"{first:.2f} s", kind, file=sys.stderr, flush=True)  # as it goes
    finally:
        server.stop()
    floors = {
        "playback": _floor_figure(browser, FLOOR_APP),
        "Plotly chart": _floor_figure(browser, CHART_FLOOR_APP),
    }
    for title, first, kind, done in lessons:
        rows.append(
            (
                f"lesson {title}",
                f"first figure {first:5.2f} s ({kind}, "
                f"{first / floors[kind]:.2f} x its floor); page run done {done:5.2f} s",
            )
        )
    rows.append(
        (
            "lessons: the floors",
            f"one component {floors['playback']:.2f} s, one "
            f"st.plotly_chart {floors['Plotly chart']:.2f} s",
        )
    )
    firsts = [first for _, first, _, _ in lessons]
    rows.append(
        (
            "lessons: slowest first figure, and how many within 5 s",
            f"{max(firsts):.2f} s; {sum(f <= 5 for f in firsts)} of {len(firsts)}",
        )
    )
    rows.append(
        (
            "lessons: a source file changed during the scenario",
            "yes: numba's cache or the prepared studies may have been stale"
            if _sources_digest() != sources
            else "no",
        )
    )
    return rows


def _floor_figure(browser, script: Path) -> float:
    """A bare page's first figure, on a server of its own started for it."""
    server = Server(script=script)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        return _lesson_figure(page, server.url + "/")[0]
    finally:
        page.close()
        server.stop()


def payload_bytes() -> list[tuple[str, str]]:
    """Bytes sent for 2-D 1,000 points x 100 epochs and for the 60,000-point projection."""
    import numpy as np

    from perceptron_lab.app_logic.datasource import DataRequest, Dataset, make_dataset
    from perceptron_lab.app_logic.learners import LEARNERS
    from perceptron_lab.app_logic.payload import build_payload
    from perceptron_lab.app_logic.training import fit_run

    def run(key, data, epochs):
        settings = tuple(sorted(LEARNERS[key].defaults().items()))
        return fit_run(key, settings, epochs, 0, data.X, data.y, data.X_test, data.y_test)

    rows = []
    plane = make_dataset(DataRequest("gaussians", (("n_samples", 1000),), "uniform", 0.05))
    for key in ("perceptron", "voted", "parallel"):
        r = run(key, plane, 100)
        start = time.perf_counter()
        p = build_payload(plane, [r])
        rows.append(
            (
                f"payload, 2-D 1,000 points x 100 epochs, {key}",
                f"{p.nbytes / 1e6:.2f} MB ({r.timeline.n_events:,} steps, "
                f"{r.timeline.W.shape[1]:,} hypotheses; built in "
                f"{(time.perf_counter() - start) * 1000:.0f} ms)",
            )
        )
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60_000, 10))
    w = rng.normal(size=10)
    y = np.where(X @ w > 0, 1, -1)
    big = Dataset(
        X,
        y,
        X[:0],
        y[:0],
        np.zeros(len(X), bool),
        w,
        0.0,
        tuple(f"f{i}" for i in range(10)),
        ("-1", "+1"),
        "bench",
    )
    r = run("perceptron", big, 5)
    start = time.perf_counter()
    p = build_payload(big, [r])
    rows.append(
        (
            "payload, 60,000 points x 10 features x 5 epochs, projection",
            f"{p.nbytes / 1e6:.2f} MB ({r.timeline.n_events:,} steps, "
            f"{r.timeline.W.shape[1]:,} hypotheses; built in "
            f"{(time.perf_counter() - start) * 1000:.0f} ms)",
        )
    )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--step", action="store_true", help="step click latency")
    parser.add_argument("--play", action="store_true", help="play at 30 steps/s")
    parser.add_argument("--first", action="store_true", help="first figure after a restart")
    parser.add_argument("--fresh", action="store_true", help="first figure after a fresh install")
    parser.add_argument("--class-size", type=int, default=0, help="sessions of the class scenario")
    parser.add_argument("--bytes", action="store_true", help="payload sizes")
    parser.add_argument(
        "--lessons",
        action="store_true",
        help="each lesson's first figure after warm and a restart",
    )
    parser.add_argument(
        "--no-warm",
        action="store_true",
        help="--lessons without running perceptron-lab warm first",
    )
    parser.add_argument(
        "--cold",
        action="store_true",
        help="--lessons from empty caches (numba's and the app's), then warm",
    )
    parser.add_argument("--clicks", type=int, default=40)
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="turns of --first (ours, floor) and of --fresh (cold, warm)",
    )
    args = parser.parse_args()
    everything = not (
        args.step
        or args.play
        or args.first
        or args.fresh
        or args.class_size
        or args.bytes
        or args.lessons
    )
    rows = [("machine", f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start")]
    if everything or args.bytes:
        rows += payload_bytes()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        if everything or args.first:
            rows += first_figure(browser, args.rounds)
        if everything or args.step or args.play:
            server = Server()
            try:
                warm = browser.new_page()
                _open(warm, server.url + "/")
                warm.close()
                if everything or args.step:
                    rows += step_latency(browser, server, args.clicks)
                if everything or args.play:
                    rows += play_rate(browser, server)
            finally:
                server.stop()
        if everything or args.class_size:
            rows += a_class(browser, args.class_size or 30)
        if everything or args.lessons:
            rows += lesson_figures(browser, warm=not args.no_warm, cold=args.cold)
        if args.fresh:
            rows += fresh_install(browser, args.rounds)
        browser.close()
    rows.append(("machine", f"load average {os.getloadavg()[0]:.1f} at the end"))
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")


if __name__ == "__main__":
    main()
