"""What a hostile visitor can cost: reading uploads, and the largest experiment the page allows.

Run: ``python benchmarks/bench_hostile.py [--sessions] [--attacks] [--experiments]``.

**Uploads.**
Every file is at most 2,000,000 bytes (the app's upload cap) and is read
the way the app's data panel reads an upload
(``load_csv(data, task="multiclass", limits=CSVLimits(max_bytes=2_000_000))``). Each case
runs in its own process, so peaks do not mix: the process builds the file's
bytes, reads one small file (imports, first-call costs), then measures

* **added MiB**: peak resident set size (RSS) during the read minus the
  RSS just before it (Linux resets the peak, ``VmHWM``, when ``5`` is
  written to ``/proc/self/clear_refs``);
* **traced MiB**: the peak of Python and NumPy allocations
  (:mod:`tracemalloc`) in a second read of the same file; tracing slows
  Python down, so it is not timed;
* **seconds**: wall time of the first read.

Targets: at most 50 MiB added and 2 s for any file within the cap.

**Sessions** (``--sessions``): six visitors at once on one ``streamlit run
app.py`` (Debian's chromium, one context each): each opens a hostile link,
uploads a hostile file within the cap, then, where a figure is on the page,
steps five times. Reported: the server's peak RSS (sampled every 50 ms),
its RSS with all six sessions open and idle (above the rest: what they
retain, the shared caches of runs included), and for each visitor whether an exception
box ever showed, the message it got, and whether its figure painted the steps. Targets: under
2 GB, every session still working, at most 100 MB retained per session.

**Memory attacks** (``--attacks``): on one ``streamlit run app.py`` (its
memory budget, ``PERCEPTRON_LAB_MEMORY_MB``, at its default unless set),
after the first page and the background warm-up: (1) three visitors open
a crafted link at once (ringnorm, 2,000 x 500, 200 epochs, ALMA or Balanced
Winnow), each until its message shows; (2) one visitor opens 40 compare
views (2,000 points, 200 epochs, three compared learners), stepping the
data seed, each until its figure is painted, then closes the tab. Reported:
the server's peak resident memory over its idle memory (sampled every
50 ms, the warm-up's child processes left out), and what it retains 10 s
and 150 s after the tab closed (Streamlit keeps a closed tab's session for
120 s). Targets: at most 300 MB peak for the crafted links;
at most the budget retained after the compare views.

**Downloads** (``--downloads``): one ``streamlit run app.py`` (``OMP_NUM_THREADS=1`` and an
idle time of ``--idle`` minutes, 2 by default, so that "after the idle time" comes within the
run), after its first page and the warm-up: (1) one visitor opens 40 compare views (the
views of ``--attacks``), stepping the seed, and in each asks for the three downloads (the
trace, the points, the web page) and the web page ``--flood`` more times, then closes the tab;
(2) 40 visitors open such a view at once (the next 40 seeds: a crafted link each) and each asks
for the web page. Reported for each: the server's peak resident memory over its idle memory,
what it retains 10 s after the last tab closed, after the idle time (plus two sweeps and
Streamlit's 120 s for a closed tab's session) and after a new visitor's page, the server's
CPU seconds for the attack, and a bystander's first figure (a browser that opens the default
playground 20 s into the attack) against the same bystander's on the idle server. Targets:
the budget (``docs/deploy.md``); the bystander within twice its idle time.

**Upload** (``--upload``): the issue's file, 200,000 rows x 2 integer features with random
labels (1.39 MB), uploaded by a visitor of ``/?epochs=2`` (400,000 steps, the most a view
animates); while the server works on it, a bystander opens the default playground. Reported:
the seconds to what the visitor sees (a message or a figure), the server's CPU seconds for
it, its peak memory, and the bystander's first figure against its idle one.

``--root PATH`` serves another checkout's app (e.g. one of the commit before a change, for
the "before" figures): its ``app.py``, with its own packages ahead of this install's.

**Experiments** (``--experiments``): the heaviest runs the Experiments page
lets through its budget of visits
(:data:`~perceptron_core.experiments.limits.PAGE_LIMITS`), on every core,
without the cache: the visits, the wall time, and the core time per visit
(wall time x workers / visits).

The machine may be shared: rerun before drawing conclusions from the times.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from common import measure_rss

CAP = 2_000_000


def _rows(row: bytes, header: bytes = b"") -> bytes:
    """``header`` and as many copies of ``row`` as fit in the cap."""
    return header + row * ((CAP - len(header)) // len(row))


#: name -> a function that builds the file (all within the cap).
CASES = {
    "one 2,500-char cell, 199,990 rows (once 25 s, 6.1 GB)": lambda: (
        b"a,b,y\n" + b"x" * 2500 + b",1,0\n" + b"1,1,1\n" * 199_990
    ),
    "one 900-char cell, 199,990 rows": lambda: (
        b"a,b,y\n" + b"x" * 900 + b",1,0\n" + b"1,1,1\n" * 199_990
    ),
    "200,000 rows of 4 numbers": lambda: b"a,b,c,y\n" + b"1,2,3,0\n1,2,3,1\n" * 99_999,
    "199,999 rows of 5 values (a million cells)": lambda: (
        b"a,b,c,d,y\n" + b"1,2,3,4,0\n1,2,3,4,1\n" * 99_999
    ),
    "a missing marker (NA) in every row": lambda: b"a,b,c,y\n" + b"NA,1,2,0\nNA,1,2,1\n" * 99_999,
    "500,000 rows (over the row cap)": lambda: _rows(b"1,0\n"),
    "a text column in every row": lambda: b"a,b,y\n" + b"ab,1,0\nab,2,1\n" * 99_999,
    "1,000 rows x 1,000 columns": lambda: _rows(b"1," * 999 + b"0\n" + b"1," * 999 + b"1\n"),
    "2,000 columns, nearly all empty": lambda: _rows(
        b"1" + b"," * 1998 + b"0\n" + b"1" + b"," * 1998 + b"1\n"
    ),
    "one line of 2,000,000 delimiters": lambda: b"a,b\n1,0\n2,1\n" + b"," * (CAP - 13),
    "1,900 names of 1,000 characters": lambda: (
        b",".join(b"n%05d" % j + b"x" * 994 for j in range(1_900))
        + b"\n"
        + b"1," * 1_899
        + b"0\n"
        + b"1," * 1_899
        + b"1\n"
    ),
    "an unclosed quote": lambda: b'a,b\n"' + b"x" * (CAP - 5),
    "200,000 different labels": lambda: (
        b"x,id\n" + b"".join(b"1,%06d\n" % i for i in range(199_000))
    ),
    "non-ASCII text (4 bytes a character)": lambda: (
        "a,\U0001f600,y\n".encode() + b"1,2,0\n1,2,1\n" * 99_995
    ),
    "decimal commas, semicolons": lambda: b"a;b;y\n" + b"1,5;2;0\n1,5;2;1\n" * 99_995,
    "formula text": lambda: b"a,b,c,y\n" + b'=1+1,"@SUM(A1:A9)",1,-2+3\n=2,@A,2,+1\n' * 40_000,
}


def child(name: str) -> dict:
    """Read one case in this process; its figures."""
    from perceptron_core.datasets import CSVLimits, DataError, load_csv

    data = CASES[name]()
    assert len(data) <= CAP, (name, len(data))
    load_csv(b"a,b,y\n1,2,0\n3,4,1\n", task="multiclass")  # imports and first calls

    outcome = {}

    def read():
        try:
            table = load_csv(data, task="multiclass", limits=CSVLimits(max_bytes=CAP))
            outcome["result"] = f"{table.X.shape[0]:,} x {table.X.shape[1]:,}"
        except DataError as err:
            outcome["result"] = "refused: " + str(err)[:60]

    start = time.perf_counter()
    before, peak = measure_rss(read)
    seconds = time.perf_counter() - start
    tracemalloc.start()
    read()
    traced = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {
        "bytes": len(data),
        "added": peak - before,
        "traced": traced,
        "seconds": seconds,
        **outcome,
    }


def experiments() -> None:
    """Time the largest page-allowed runs: big UCI data, and KW data with the most features."""
    from perceptron_core.experiments import RunOptions, kw_sets, parameter_search, resolve
    from perceptron_core.experiments.execution import default_jobs
    from perceptron_core.experiments.limits import PAGE_LIMITS, Request, check

    jobs = default_jobs()
    runs = [
        ("ticdata, search, 10 folds, 100 epochs", lambda: resolve("ticdata")),
        ("spam, search, 10 folds, 100 epochs", lambda: resolve("spam")),
        (
            "20 KW sets f=500 N=0.25, search, 10 folds, 100 epochs",
            lambda: kw_sets(500, 0.05, 0.25, 20, seed=0),
        ),
    ]
    print(f"\nthe page's budget: {PAGE_LIMITS.visits / 1e6:,.0f} million visits; {jobs} workers")
    print(f"{'run':56s} {'M visits':>9s} {'seconds':>8s} {'ns/visit':>9s}")
    for name, make in runs:
        sets = make()
        request = Request("search", tuple(d.X.shape for d in sets), 10, 100, jobs)
        check(request)  # the page would let it through
        options = RunOptions(epochs=100, jobs=jobs)
        parameter_search(sets[:1], n_folds=10, options=RunOptions(epochs=1, jobs=jobs))  # warm
        start = time.perf_counter()
        parameter_search(sets, n_folds=10, options=options)
        seconds = time.perf_counter() - start
        visits = request.visits()
        print(
            f"{name:56s} {visits / 1e6:9.0f} {seconds:8.1f} {seconds * jobs / visits * 1e9:9.1f}"
        )


#: Six visitors: a link built to hurt and a file within the cap, each.
VISITORS = [
    (
        "/?data=ringnorm&ringnorm_n_samples=2000&ringnorm_n_features=500&epochs=200&seed=9",
        "200,000 rows of 4 numbers",
    ),
    ("/?compare=voted,voted,voted&data=xor", "formula text"),
    (
        "/?edits=" + "~".join(f"+{i / 5000:.4f},0.5,1" for i in range(5_000)),
        "a missing marker (NA) in every row",
    ),
    (
        "/?epochs=%5Blog%20in%5D(https://example.com)&seed=" + "9" * 60_000,
        "1,000 rows x 1,000 columns",
    ),
    ("/?data=breast_cancer&learner=balanced_winnow", "non-ASCII text (4 bytes a character)"),
    ("/?data=spam&learner=kernel&epochs=200", "decimal commas, semicolons"),
]


def sessions() -> None:
    """Six hostile visitors at once; the server's peak memory and what each one saw."""
    import threading

    import psutil
    from bench_browser import CHROMIUM, CHROMIUM_ARGS, FRAME, Server
    from playwright.sync_api import sync_playwright

    server = Server()
    process = psutil.Process(server.proc.pid)
    peak, done = [process.memory_info().rss], threading.Event()

    def sample():
        while not done.is_set():
            try:
                peak.append(sum(p.memory_info().rss for p in [process, *process.children(True)]))
            except psutil.Error:
                pass
            time.sleep(0.05)

    threading.Thread(target=sample, daemon=True).start()
    rest = peak[0]
    rows = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            pages = []
            for link, _case in VISITORS:  # all six open at once
                page = browser.new_context().new_page()
                page.goto(server.url + link, wait_until="commit")
                pages.append(page)
            for page, (_link, case) in zip(pages, VISITORS):
                page.get_by_text("Data set").first.wait_for(timeout=180_000)
                page.wait_for_timeout(2_000)
                rows.append(_visit(page, case, FRAME))
            page.wait_for_timeout(3_000)  # every session idle, its runs in the caches
            retained = sum(p.memory_info().rss for p in [process, *process.children(True)])
            browser.close()
    finally:
        done.set()
        server.stop()
    print(
        f"server RSS at rest {rest / 2**20:.0f} MiB, peak {max(peak) / 2**20:.0f} MiB "
        f"(target under 2,048 MiB); with all six sessions open and idle "
        f"{retained / 2**20:.0f} MiB, {(retained - rest) / len(VISITORS) / 2**20:.0f} MiB a "
        "session (their runs in the shared caches included; target 100 MiB)"
    )
    for (link, case), row in zip(VISITORS, rows):
        print(f"- {link[:60]}{'...' if len(link) > 60 else ''} + {case}: {row}")


#: The crafted links of the first attack: replays of gigabytes before the first hardening.
CRAFTED = [
    f"/?data=ringnorm&ringnorm_n_samples=2000&ringnorm_n_features=500&epochs=200&learner={key}"
    for key in ("alma", "balanced_winnow", "alma")
]
#: The second attack's view; the seed is appended.
COMPARE = "/?data=separable&separable_n_samples=2000&epochs=200&compare=kw,margin,pa&seed="


def attacks() -> None:
    """Crafted links at once, then 40 seed-cycled compare views: the server's memory."""
    import os
    import threading

    import psutil
    from bench_browser import CHROMIUM, CHROMIUM_ARGS, Server
    from playwright.sync_api import sync_playwright

    from perceptron_lab.app_logic.memory import DEFAULT_LIMIT_MB

    budget = float(os.environ.get("PERCEPTRON_LAB_MEMORY_MB") or DEFAULT_LIMIT_MB) * 2**20
    server = Server()
    process = psutil.Process(server.proc.pid)
    samples, done = [], threading.Event()

    def sample():
        while not done.is_set():
            samples.append(process.memory_info().rss)
            time.sleep(0.05)

    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(server.url + "/")
            page.frame_locator("iframe[title$='playback']").locator(".btn-step").wait_for()
            page.close()
            idle = _settled(process)  # the background warm-up has compiled every learner
            threading.Thread(target=sample, daemon=True).start()
            pages = [browser.new_context().new_page() for _ in CRAFTED]
            start = time.perf_counter()
            for page, link in zip(pages, CRAFTED):
                page.goto(server.url + link, wait_until="commit")
            messages = []
            for page in pages:
                alert = page.locator("[data-testid=stAlertContentError]").first
                alert.wait_for(timeout=300_000)
                messages.append(alert.inner_text()[:90])
            crafted_s = time.perf_counter() - start
            crafted_peak = max(samples) - idle
            for page in pages:
                page.context.close()
            samples.clear()
            page = browser.new_page()
            views = []
            for seed in range(1, 41):
                t0 = time.perf_counter()
                page.goto(server.url + COMPARE + str(seed))
                frame = page.frame_locator("iframe[title$='playback']")
                frame.locator(".btn-step").wait_for(timeout=300_000)
                page.wait_for_function(
                    "() => [...document.querySelectorAll('iframe')].some(f => "
                    "f.contentWindow.playback && f.contentWindow.playback.painted !== null)",
                    timeout=300_000,
                )
                views.append(time.perf_counter() - t0)
            compare_peak = max(samples) - idle
            browser.close()
        time.sleep(10)
        retained = process.memory_info().rss - idle
        time.sleep(140)  # Streamlit drops a closed tab's session 120 s after it disconnected
        retained_later = process.memory_info().rss - idle
    finally:
        done.set()
        server.stop()
    mib = 2**20
    print(f"server idle after warm-up: {idle / mib:,.0f} MiB; budget {budget / mib:,.0f} MiB")
    print(
        f"crafted links, 3 at once: {crafted_s:.1f} s to all three messages, peak "
        f"{crafted_peak / mib:,.0f} MiB over idle (target 300 MB)"
    )
    for link, message in zip(CRAFTED, messages):
        print(f"  {link[-22:]}: {message!r}")
    print(
        f"40 compare views (median {sorted(views)[20]:.2f} s a view): peak "
        f"{compare_peak / mib:,.0f} MiB over idle; retained 10 s after the tab closed "
        f"{retained / mib:,.0f} MiB, 150 s after {retained_later / mib:,.0f} MiB (target: at "
        "most the budget)"
    )


def _server(root: Path | None, env: dict, address_space: int | None = None):
    """The app of this checkout, or of ``root`` (its packages put ahead of this install's);
    ``address_space`` caps the server's (bytes)."""
    from bench_browser import Server

    if root is None:
        return Server(env=env, address_space=address_space)
    root = root.resolve()
    folder = Path(tempfile.mkdtemp())  # perceptron_lab is the checkout's root, as installed
    (folder / "perceptron_lab").symlink_to(root)
    paths = {"PYTHONPATH": f"{folder}{os.pathsep}{root}"}
    return Server(
        env={**env, **paths}, script=root / "app.py", cwd=root, address_space=address_space
    )


@contextmanager
def _warmed(root: Path | None, env: dict, address_space: int | None = None):
    """A server (:func:`_server`) after its first page and its warm-up, and a browser:
    ``(server, its process, the browser, its idle resident size, [a bystander's first figure
    on it])``; both are stopped after the block."""
    import psutil
    from bench_browser import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    server = _server(root, env, address_space)
    start = time.perf_counter()
    try:
        process = psutil.Process(server.proc.pid)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            _open_view(browser.new_page(), server.url + "/")
            idle = _settled(process)
            _progress(f"first page, warm-up settled at {idle / 2**20:,.0f} MiB", start)
            calm: list = []
            _bystander(server.url, calm).join()
            _progress(f"a bystander on the idle server: {calm[0]}", start)
            yield server, process, browser, idle, calm
            browser.close()
    finally:
        if server.proc.poll() is None:
            server.stop()


def _bystander(url: str, out: list, after: float = 0.0) -> threading.Thread:
    """A visitor of the default playground, ``after`` seconds from now, in a process and a
    browser of its own (:func:`first_figure`): a thread appends the seconds to its first
    painted figure, or the error, to ``out``. Returns the thread."""

    def visit():
        time.sleep(after)
        done = subprocess.run(
            [sys.executable, __file__, "--bystander", url], capture_output=True, text=True
        )
        lines = done.stdout.strip().splitlines()
        try:
            out.append(float(lines[-1]))
        except (IndexError, ValueError):
            out.append((done.stderr.strip().splitlines() or ["no answer"])[-1][:80])

    thread = threading.Thread(target=visit)
    thread.start()
    return thread


def first_figure(url: str) -> float:
    """Seconds from navigating to ``url``'s playground to its first painted figure."""
    from bench_browser import CHROMIUM, CHROMIUM_ARGS, _open
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        return _open(browser.new_page(), url + "/")


class _Sampler:
    """The server's resident size every 50 ms, in a thread."""

    def __init__(self, process, every: float = 0.05):
        self.process, self.samples, self.every = process, [], every
        self._done = threading.Event()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        while not self._done.is_set():
            try:
                self.samples.append(self.process.memory_info().rss)
            except Exception:  # noqa: BLE001 (the server stopped)
                return
            time.sleep(self.every)

    def peak(self) -> int:
        return max(self.samples)

    def stop(self):
        self._done.set()


#: The labels of the playground's downloads, and what each button's expander is called.
DOWNLOADS = ("Every step as CSV (the trace)", "Training points as CSV", "Download as web page")
EXPANDER = "Download the trace, the points or a web page"


def _download(page, label: str, times: int = 1) -> None:
    """Click the download ``label`` ``times`` times, each until the browser has the file."""
    button = page.get_by_role("button", name=label)
    for _ in range(times):
        with page.expect_download(timeout=900_000) as download:
            button.click()
        download.value.path()  # the whole file arrived


def _progress(what: str, since: float) -> None:
    """A line on standard error: the attacks take many minutes."""
    print(f"[{time.perf_counter() - since:7.1f} s] {what}", file=sys.stderr, flush=True)


def _open_view(page, url: str) -> None:
    page.goto(url)
    _painted(page)


def _painted(page) -> None:
    """Wait until the page's figure has painted its first step."""
    from bench_browser import FRAME, PAINTED_JS, _frame

    page.wait_for_selector(FRAME, timeout=300_000)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            if _frame(page).evaluate(PAINTED_JS):
                return
        except Exception:  # noqa: BLE001 (the frame is still loading)
            pass
        time.sleep(0.05)
    raise RuntimeError(f"no figure within 300 s: {page.url}")


def downloads(root: Path | None, idle_minutes: float, flood: int, count: int = 40) -> None:
    """``count`` seed-cycled compare views with their downloads, then ``count`` visitors at
    once."""
    from perceptron_lab.app_logic.memory import DEFAULT_LIMIT_MB, SWEEP_SECONDS

    budget = float(os.environ.get("PERCEPTRON_LAB_MEMORY_MB") or DEFAULT_LIMIT_MB) * 2**20
    env = {"OMP_NUM_THREADS": "1", "PERCEPTRON_LAB_IDLE_MINUTES": f"{idle_minutes:g}"}
    rows = []
    with _warmed(root, env) as (server, process, browser, idle, calm):
        for attack in (f"one visitor, {count} views", f"{count} visitors at once"):
            sampler, seen = _Sampler(process), []
            cpu = server.cpu()
            start = time.perf_counter()
            watcher = _bystander(server.url, seen, after=20)
            if attack.startswith("one"):
                page = browser.new_context(accept_downloads=True).new_page()
                for seed in range(1, count + 1):
                    _open_view(page, server.url + COMPARE + str(seed))
                    page.get_by_text(EXPANDER).click()
                    for label in DOWNLOADS:
                        _download(page, label)
                    _download(page, DOWNLOADS[-1], flood)
                    _progress(f"{attack}: view {seed} and its downloads", start)
                page.context.close()
            else:
                pages = [
                    browser.new_context(accept_downloads=True).new_page() for _ in range(count)
                ]
                for seed, page in enumerate(pages, count + 1):
                    page.goto(server.url + COMPARE + str(seed), wait_until="commit")
                for k, page in enumerate(pages, 1):
                    _painted(page)
                    page.get_by_text(EXPANDER).click()
                    _download(page, DOWNLOADS[-1])
                    _progress(f"{attack}: visitor {k}'s web page", start)
                for page in pages:
                    page.context.close()
            seconds = time.perf_counter() - start
            watcher.join()
            spent = server.cpu() - cpu
            time.sleep(10)
            after_10s = process.memory_info().rss - idle
            time.sleep(idle_minutes * 60 + 2 * SWEEP_SECONDS + 130)
            after_idle = process.memory_info().rss - idle
            sampler.stop()
            later: list = []
            _bystander(server.url, later).join()  # a new visitor arrives
            time.sleep(5)
            after_visit = process.memory_info().rss - idle
            rows.append(
                (
                    attack,
                    seconds,
                    spent,
                    sampler.peak() - idle,
                    after_10s,
                    after_idle,
                    after_visit,
                    seen[0] if seen else None,
                )
            )
    mib = 2**20
    print(
        f"server idle after warm-up: {idle / mib:,.0f} MiB; budget {budget / mib:,.0f} MiB; "
        f"idle time {idle_minutes:g} min; a bystander's first figure on the idle server: "
        f"{calm[0] if isinstance(calm[0], str) else f'{calm[0]:.1f} s'}"
    )
    for attack, seconds, spent, peak, after_10s, after_idle, after_visit, first in rows:
        shown = first if isinstance(first, str) else f"{first:.1f} s"
        print(
            f"{attack}: {seconds:.0f} s, server CPU {spent:.0f} s; peak {peak / mib:,.0f} MiB "
            f"over idle; retained {after_10s / mib:,.0f} MiB 10 s after the last tab closed, "
            f"{after_idle / mib:,.0f} MiB after the idle time, {after_visit / mib:,.0f} MiB "
            f"after a new visitor; a bystander's first figure during it: {shown}"
        )


#: The class's link (a teacher's compare view; each visitor's seed is appended).
CLASS_LINK = (
    "data=separable&separable_n_samples=2000&epochs=200&noise=uniform&noise_rate=0.5&test=0.5"
    "&learner=voted&compare=margin,longest,perceptron&seed="
)
#: The kernel variant: the kernel perceptron with a test part (its per-epoch test errors).
KERNEL_LINK = (
    "data=circles&circles_n_samples=2000&test=0.5&noise=uniform&noise_rate=0.5&learner=kernel"
    "&epochs=200&seed="
)
#: The server's address-space limit in the class scenario, as a memory-capped container's.
CLASS_ADDRESS_SPACE = 6 * 2**30


def class_at_once(
    root: Path | None, count: int, link: str, same: bool, leavers: int, deadline: float
) -> None:
    """``count`` protocol-level visitors (:func:`sessions.wire_visit`) open ``link`` at once,
    each with a seed of its own (``same``: all seed 1), on a server under a 6 GiB address-space
    limit with ``OMP_NUM_THREADS=1`` and the default budget; ``leavers`` of them close their
    socket 5 s in; a visitor with nothing after ``deadline`` seconds counts as timed out. A
    bystander's first figure 10 s into it, against its idle one."""
    import asyncio

    from sessions import wire_visit

    from perceptron_lab.app_logic.memory import DEFAULT_LIMIT_MB

    budget = float(os.environ.get("PERCEPTRON_LAB_MEMORY_MB") or DEFAULT_LIMIT_MB) * 2**20
    env = {"OMP_NUM_THREADS": "1"}
    with _warmed(root, env, CLASS_ADDRESS_SPACE) as (server, process, browser, idle, calm):
        sampler, seen = _Sampler(process), []
        cpu, start = server.cpu(), time.perf_counter()
        watcher = _bystander(server.url, seen, after=10)

        async def everyone():
            return await asyncio.gather(
                *(
                    wire_visit(
                        server.url,
                        link + str(1 if same else k),
                        timeout=deadline,
                        leave_after=5.0 if k <= leavers else None,
                    )
                    for k in range(1, count + 1)
                )
            )

        with ThreadPoolExecutor(1) as pool:  # Playwright's own loop runs in this thread
            outcomes = pool.submit(asyncio.run, everyone()).result()
        seconds = time.perf_counter() - start
        watcher.join()
        crashed = server.proc.poll()
        spent = server.cpu() - cpu if crashed is None else float("nan")
        sampler.stop()
    mib = 2**20
    kinds: dict[str, int] = {}
    for outcome in outcomes:
        kinds[outcome.kind] = kinds.get(outcome.kind, 0) + 1
    told = sorted({o.text[:90] for o in outcomes if o.kind in ("message", "closed")})
    done = sorted(o.seconds for o in outcomes if o.kind in ("figure", "message"))
    placed = sum(1 for o in outcomes if o.places)
    first = seen[0] if seen and isinstance(seen[0], str) else f"{seen[0]:.1f} s" if seen else "-"
    print(
        f"{count} visitors of ?{link}{'1' if same else 'N'} at once ({leavers} leaving after "
        f"5 s); server idle {idle / mib:,.0f} MiB, budget {budget / mib:,.0f} MiB, address "
        f"space {CLASS_ADDRESS_SPACE / 2**30:.0f} GiB"
    )
    print(
        f"  server {'alive' if crashed is None else f'DIED (exit code {crashed})'}; "
        f"{seconds:.0f} s; server CPU {spent:.0f} s; peak {(sampler.peak() - idle) / mib:,.0f} "
        f"MiB over idle; outcomes {kinds}; shown a place in the queue: {placed}"
    )
    if done:
        print(
            f"  figure or message after (s) median {done[len(done) // 2]:.1f}, last {done[-1]:.1f}"
        )
    for text in told[:6]:
        print(f"  told: {text!r}")
    print(f"  a bystander's first figure: {calm[0]:.1f} s on the idle server, {first} during it")


#: Views of the memory estimate's check: (link, points, test points, features, epochs, lanes).
ESTIMATED = [
    ("", 100, 0, 2, 20, ("perceptron",)),
    (CLASS_LINK + "7", 1000, 1000, 2, 200, ("voted", "margin", "longest", "perceptron")),
    (KERNEL_LINK + "7", 1000, 1000, 2, 200, ("kernel",)),
    (
        "data=separable&separable_n_samples=2000&epochs=200&noise=uniform&noise_rate=0.5&seed=7",
        2000,
        0,
        2,
        200,
        ("perceptron",),
    ),
    (
        "data=ringnorm&ringnorm_n_samples=2000&ringnorm_n_features=10&epochs=20&learner=alma"
        "&noise=uniform&noise_rate=0.5&seed=7",
        2000,
        0,
        10,
        20,
        ("alma",),
    ),
    (
        "data=ringnorm&ringnorm_n_samples=2000&ringnorm_n_features=500&epochs=5&learner=pa"
        "&noise=uniform&noise_rate=0.5&seed=7",
        2000,
        0,
        500,
        5,
        ("pa",),
    ),
    (
        "data=separable&separable_n_samples=2000&epochs=200&noise=uniform&noise_rate=0.5"
        "&learner=pocket&compare=pa,relative,thick&seed=7",
        2000,
        0,
        2,
        200,
        ("pocket", "pa", "relative", "thick"),
    ),
]


def view_memory(root: Path | None) -> None:
    """Each view of :data:`ESTIMATED` alone on a warmed server (one protocol-level visitor at a
    time): the server's peak resident size over its size before the view (sampled every 10 ms),
    against the view's estimate (:func:`app_logic.view_cost.view_bytes`)."""
    import asyncio

    from sessions import wire_visit

    from perceptron_lab.app_logic.view_cost import view_bytes

    mib = 2**20
    with _warmed(root, {"OMP_NUM_THREADS": "1"}) as (server, process, _browser, idle, _calm):
        print(f"server idle {idle / mib:,.0f} MiB")
        print(f"{'view':70s} {'estimate MiB':>12s} {'peak MiB':>9s} {'ratio':>6s}  outcome")
        for link, n, n_test, f, epochs, lanes in ESTIMATED:
            before = process.memory_info().rss
            sampler = _Sampler(process, every=0.01)
            with ThreadPoolExecutor(1) as pool:
                outcome = pool.submit(asyncio.run, wire_visit(server.url, link)).result()
            time.sleep(0.5)
            sampler.stop()
            peak = sampler.peak() - before
            estimate = view_bytes(n, n_test, f, epochs, lanes)
            print(
                f"{(link or 'the default page')[-70:]:70s} {estimate / mib:12,.1f} "
                f"{peak / mib:9,.1f} {peak / estimate:6.2f}  {outcome.kind} {outcome.text[:60]}"
            )


def upload(root: Path | None) -> None:
    """The issue's 1.39 MB upload at 2 epochs, and a bystander meanwhile."""
    from bench_view_cpu import upload_csv

    data = upload_csv()
    with _warmed(root, {"OMP_NUM_THREADS": "1"}) as (server, process, browser, idle, calm):
        page = browser.new_page()
        _open_view(page, server.url + "/?epochs=2")
        page.locator("[data-testid=stSelectbox]", has_text="Data set").first.click()
        page.get_by_role("option", name="Upload a CSV file").click()
        sampler, seen = _Sampler(process), []
        cpu, start = server.cpu(), time.perf_counter()
        page.locator("input[type=file]").set_input_files(
            {"name": "upload.csv", "mimeType": "text/csv", "buffer": data}
        )
        watcher = _bystander(server.url, seen)
        alert = page.locator("[data-testid=stAlertContentError]").first
        figure = page.get_by_text("200,000 training points")  # the run was drawn
        alert.or_(figure).first.wait_for(timeout=3_600_000)
        seconds = time.perf_counter() - start
        message = alert.inner_text()[:100] if alert.count() else "the figure of the run"
        watcher.join()
        spent = server.cpu() - cpu
        sampler.stop()
    mib = 2**20
    first = seen[0] if isinstance(seen[0], str) else f"{seen[0]:.1f} s"
    print(
        f"upload of {len(data):,} bytes (200,000 rows x 2, random labels) at 2 epochs: the "
        f"visitor's message after {seconds:.1f} s; server CPU {spent:.1f} s; peak "
        f"{(sampler.peak() - idle) / mib:,.0f} MiB over idle"
    )
    print(f"  {message!r}")
    print(f"a bystander's first figure: {calm[0]:.1f} s on the idle server, {first} during it")


def _settled(process, quiet_s: float = 20.0, most_s: float = 600.0) -> int:
    """The resident size of ``process`` once its warm-up has ended: no child process left
    and the size steady (within 4 MiB) for ``quiet_s``; the idle memory the attacks add to."""
    start, last, since = time.perf_counter(), process.memory_info().rss, time.perf_counter()
    while time.perf_counter() - start < most_s:
        time.sleep(2)
        rss = process.memory_info().rss
        busy = bool(process.children(recursive=True)) or abs(rss - last) > 4 * 2**20
        if busy:
            last, since = rss, time.perf_counter()
        elif time.perf_counter() - since >= quiet_s:
            return rss
    return process.memory_info().rss


def _visit(page, case: str, frame_selector: str) -> str:
    """Upload ``case`` on the open page, step where a figure is shown; what the visitor saw."""
    page.locator("[data-testid=stSelectbox]", has_text="Data set").first.click()
    page.get_by_role("option", name="Upload a CSV file").click()
    page.locator("input[type=file]").set_input_files(
        {"name": "hostile.csv", "mimeType": "text/csv", "buffer": CASES[case]()}
    )
    page.wait_for_timeout(6_000)
    exception = page.locator("[data-testid=stException]").count()
    alerts = [t[:70] for t in page.locator("[data-testid=stAlertContentError]").all_inner_texts()]
    stepped = "no figure"
    if page.locator(frame_selector).count():
        frame = next(f for f in page.frames if "/component/" in f.url)
        start = frame.evaluate("() => window.playback.painted")
        for _ in range(5):
            frame.locator(".btn-step").click()
        frame.wait_for_function(f"() => window.playback.painted === {start} + 5", timeout=30_000)
        stepped = f"stepped {start} -> {start + 5}"
    return f"exception boxes {exception}; {stepped}; messages {alerts[:2]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--bystander", help=argparse.SUPPRESS)
    parser.add_argument(
        "--sessions",
        action="store_true",
        help="six hostile visitors at once on a running app (a few minutes)",
    )
    parser.add_argument(
        "--attacks",
        action="store_true",
        help="crafted links and seed-cycled compare views: server memory",
    )
    parser.add_argument(
        "--downloads",
        action="store_true",
        help="40 compare views with their downloads, then 40 visitors: memory, bystander",
    )
    parser.add_argument(
        "--upload",
        action="store_true",
        help="the 200,000-row upload at 2 epochs: seconds, CPU, bystander",
    )
    parser.add_argument(
        "--class-at-once",
        type=int,
        metavar="N",
        help="N protocol-level visitors of the class's link at once, under a 6 GiB limit",
    )
    parser.add_argument(
        "--view-memory", action="store_true", help="views one at a time: peak against estimate"
    )
    parser.add_argument("--kernel", action="store_true", help="the kernel link (--class-at-once)")
    parser.add_argument(
        "--same", action="store_true", help="every visitor seed 1 (--class-at-once)"
    )
    parser.add_argument("--leavers", type=int, default=0, help="visitors who leave after 5 s")
    parser.add_argument("--deadline", type=float, default=3600, help="seconds a visitor waits")
    parser.add_argument("--root", type=Path, default=None, help="serve this checkout's app")
    parser.add_argument("--idle", type=float, default=2.0, help="idle minutes (--downloads)")
    parser.add_argument("--flood", type=int, default=5, help="more web pages a view asks for")
    parser.add_argument("--count", type=int, default=40, help="views and visitors (--downloads)")
    parser.add_argument(
        "--experiments",
        action="store_true",
        help="also time the largest experiments the page allows (minutes)",
    )
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child)))
        return
    if args.bystander:
        print(first_figure(args.bystander))
        return
    if args.sessions:
        sessions()
        return
    if args.attacks:
        attacks()
        return
    if args.downloads:
        downloads(args.root, args.idle, args.flood, args.count)
        return
    if args.upload:
        upload(args.root)
        return
    if args.view_memory:
        view_memory(args.root)
        return
    if args.class_at_once:
        link = KERNEL_LINK if args.kernel else CLASS_LINK
        class_at_once(args.root, args.class_at_once, link, args.same, args.leavers, args.deadline)
        return
    print(
        f"{'file':44s} {'bytes':>9s} {'added MiB':>9s} {'traced MiB':>10s} {'seconds':>7s}  result"
    )
    worst_mem = worst_time = 0.0
    for name in CASES:
        out = subprocess.run(
            [sys.executable, __file__, "--child", name], check=True, capture_output=True, text=True
        )
        r = json.loads(out.stdout.strip().splitlines()[-1])
        worst_mem = max(worst_mem, r["added"] / 2**20, r["traced"] / 2**20)
        worst_time = max(worst_time, r["seconds"])
        print(
            f"{name:44s} {r['bytes']:9,d} {r['added'] / 2**20:9.1f} "
            f"{r['traced'] / 2**20:10.1f} {r['seconds']:7.2f}  {r['result']}"
        )
    print(f"\nworst: {worst_mem:.1f} MiB (target 50), {worst_time:.2f} s (target 2)")
    if args.experiments:
        experiments()


if __name__ == "__main__":
    main()
