"""What every test module shares: the markers, hypothesis's profiles and the fixtures of
the browser tests (one chromium per module, a page, the app served from the checkout).

Plain ``pytest`` runs the fast suite: ``pyproject.toml`` deselects the tests
marked ``browser`` (they drive Debian's chromium) and ``slow`` (they compile
from an empty numba cache, build the wheel, start nginx, measure memory
peaks, or run the full scikit-learn conformance matrix). ``pytest -m ""``
runs everything; ``.ci/run`` runs both parts.

Property-based tests take their number of examples from the profile, not
from each decorator: ``dev`` by default, ``ci`` (five times as many) when
``CI`` is set, or whichever ``HYPOTHESIS_PROFILE`` names.

The suite runs on every core (``-n auto``, pytest-xdist), the browser tests with one
worker more; ``-n 0`` runs it in one process.

The tests keep what the lab caches on disk (experiment cells, the lessons'
studies) in a folder of their own, shared by the run's workers, never in the
user's ``~/.cache``.

The app's background warm-up stays off: it is a thread that compiles with
numba while the tests run, and numba's compiler enters
``warnings.catch_warnings``, which is process-wide, so a test recording
warnings could lose them to it. ``tests/test_warmup.py`` starts warm-ups of
its own.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]

# deadline=None: the first example of a test may compile numba code for seconds.
settings.register_profile("dev", max_examples=20, deadline=None)
settings.register_profile(
    "ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
DEFAULT_PROFILE = "ci" if os.environ.get("CI") else "dev"
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", DEFAULT_PROFILE))


MARKERS = {
    "slow": "compiles from an empty numba cache, builds the wheel, starts nginx, measures "
    "memory peaks or runs the full conformance matrix",
    "browser": "drives Debian's chromium",
    "numerics": "compares numbers computed two ways (compiled and plain, primal and dual, "
    "the engine and a reference); .ci/run runs these again with NumPy and numba limited "
    "to a baseline CPU",
}


def pytest_configure(config):
    """Declare the markers (``--strict-markers`` refuses any other); with several workers,
    one BLAS thread each."""
    for name, meaning in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {meaning}")
    if (getattr(config.option, "numprocesses", None) or 0) > 1:
        # The workers already fill the cores: OpenBLAS's own threads on top of them wait for
        # each other while another worker holds their core. Set before the workers start
        # (they import NumPy after).
        os.environ.setdefault("OMP_NUM_THREADS", "1")


def pytest_xdist_auto_num_workers(config):
    """``-n auto``'s workers: one per core, and one more when the run does not leave out the
    tests marked browser. Those wait on chromium and on the servers they start: with one
    worker per core the cores were idle about a sixth of the time (docs/benchmarks.md,
    "browser-tests-workers")."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + ("not browser" not in (config.getoption("markexpr") or ""))


#: A lesson's number in a test's id: its file (``test_lesson_06_...``), its parameter
#: (``[06_rare_positives-sampled]``) or its study's name (``l11_estimates``).
LESSON_IN_ID = re.compile(r"(?<![0-9])(0[1-9]|1[0-2])_[a-z]")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """The tests of one lesson run on one worker (``--dist loadgroup``): loading a lesson
    runs its page, which trains its figures and computes its studies once per process, so a
    lesson spread over both workers would cost that twice.

    pytest-xdist sends a group to one worker by the suffix ``@group`` it gives the test's
    id; from pytest 9.2 (ids kept as ``NodeId``) the suffix it writes is not read, so every
    group was spread over the workers. The suffix is written here, for the lessons' groups
    and the ``xdist_group`` marks alike (this hook runs after xdist's: an id that already has
    its suffix keeps it)."""
    for item in items:
        found = LESSON_IN_ID.search(item.nodeid)
        if found:
            item.add_marker(pytest.mark.xdist_group(f"lesson{found.group(1)}"))
    if not getattr(config.option, "loadgroup", False):  # set in the workers of loadgroup
        return
    for item in items:
        groups = sorted({str(m.args[0]) for m in item.iter_markers("xdist_group") if m.args})
        suffix = "@" + "_".join(groups)
        if groups and not item.nodeid.endswith(suffix):
            if hasattr(item, "_id"):  # pytest >= 9.2
                from _pytest.nodeid import NodeId

                item._id = NodeId.parse(item.nodeid + suffix)
            else:
                item._nodeid = item.nodeid + suffix


@pytest.fixture(autouse=True, scope="session")
def _cache_folder_of_the_tests(tmp_path_factory):
    """``XDG_CACHE_HOME`` (where the lab keeps its results) in a temporary folder, one for
    all the workers of a run: a lesson's study computed by one is read by the others."""
    before = os.environ.get("XDG_CACHE_HOME")
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = tmp_path_factory.getbasetemp().parent / "cache"  # the run's, not the worker's
        shared.mkdir(exist_ok=True)
        os.environ["XDG_CACHE_HOME"] = str(shared)
    else:
        os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if before is None:
        del os.environ["XDG_CACHE_HOME"]
    else:
        os.environ["XDG_CACHE_HOME"] = before


@pytest.fixture(autouse=True, scope="session")
def _no_background_warmup():
    """The process's ``WARMUP`` never starts its background thread (pages call it)."""
    from perceptron_lab.app_logic import training

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(training.WARMUP, "start_background", lambda: False)
        yield


@pytest.fixture(autouse=True, scope="session")
def _installed_components_looked_up_once():
    """Streamlit's ``AppTest`` reads the metadata of every installed package, looking for
    components of Streamlit's second kind, at the first run of each new ``AppTest``: a tenth
    of the fast suite's CPU (docs/benchmarks.md), for an answer that cannot change while the
    tests run. The process looks once; each ``AppTest`` gets its own copy of the list."""
    from streamlit.components.v2 import manifest_scanner

    looked_up = functools.cache(manifest_scanner.scan_component_manifests)

    def scan_component_manifests(max_workers=None):
        return list(looked_up())

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(manifest_scanner, "scan_component_manifests", scan_component_manifests)
        yield


@pytest.fixture(scope="module")
def browser():
    """One chromium for a test module, for the tests marked ``browser`` (tests/chromium.py)."""
    from playwright.sync_api import sync_playwright

    from tests.chromium import ARTIFACTS, launch

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


@pytest.fixture(scope="session")
def server():
    """``streamlit run app.py`` from the checkout on a free port, for the browser tests of a
    pytest process (a worker); its address. One a process rather than one a module: Streamlit
    starts, and the lessons' studies are computed, once a worker (docs/benchmarks.md,
    "browser-tests-one-server"). What a test leaves there (the caches, a live class under its
    own code) changes nothing another test sees."""
    from tests.live import free_port, stop, wait_for_health

    port = free_port()
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true"]
    command += ["--server.port", str(port), "--server.address", "127.0.0.1"]
    proc = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    url = f"http://127.0.0.1:{port}"
    wait_for_health(f"{url}/_stcore/health", proc)
    yield url
    stop(proc)


@pytest.fixture
def page(browser):
    """A new 1280x720 page of the module's chromium, in a context (cookies, storage, cache) of
    its own."""
    pg = browser.new_page(viewport={"width": 1280, "height": 720})
    yield pg
    pg.close()


@pytest.fixture(scope="module")
def looking(browser):
    """One browser context for a module's pages that only look (open a view, measure it,
    take a screenshot; no click, nothing kept in the browser's storage). Its HTTP cache keeps
    Streamlit's scripts from one page to the next, so the server sends them and chromium
    compiles them once, not at every page (docs/benchmarks.md, "browser-tests-looking")."""
    context = browser.new_context()
    yield context
    context.close()


@pytest.fixture
def looking_page(looking):
    """A new 1280x720 page of the module's :func:`looking` context."""
    pg = looking.new_page()
    pg.set_viewport_size({"width": 1280, "height": 720})
    yield pg
    pg.close()
