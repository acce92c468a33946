"""Hostile use, third round: the playground's download buttons hold nothing outside the server's
memory budget, build their bytes once per view however often they are asked, and the page
they build opens at the view's step.

Streamlit keeps what a download button is given (its ``data`` callable) for as long as it
keeps the session's references, and builds the file when the browser asks, in a worker
thread outside the script run. So the tests take the callables the page gave Streamlit and
call them as Streamlit would: from another thread, with no script run.
"""

from __future__ import annotations

import gc
import json
import re
import threading
import weakref
from pathlib import Path

import pytest
from streamlit.delta_generator import DeltaGenerator
from streamlit.testing.v1 import AppTest

from perceptron_lab.app_logic.memory import SERVER

ROOT = Path(__file__).resolve().parents[1]
#: A view a link opens at step 57 (small: 60 points, 5 epochs). Its seed is this module's
#: own: another test's session showing the same data would hold the same cached data set.
LINK = {"data": "separable", "separable_n_samples": "60", "epochs": "5", "seed": "4057", "t": "57"}


@pytest.fixture
def downloads(monkeypatch):
    """The playground opened with :data:`LINK`: ``({label: data given to Streamlit}, at)``."""
    given: dict = {}
    original = DeltaGenerator.download_button

    def spy(self, label, data, *args, **kwargs):
        given[label] = data
        return original(self, label, data, *args, **kwargs)

    monkeypatch.setattr(DeltaGenerator, "download_button", spy)
    at = AppTest.from_file(str(ROOT / "router.py"), default_timeout=180)
    at.query_params.update(LINK)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert {"Every step as CSV (the trace)", "Download as web page"} <= set(given), given
    return given, at


def _as_streamlit_would(data):
    """What Streamlit's worker thread gets from a download's ``data`` (in another thread, with
    no script run), or what it raises there."""
    out: dict = {}

    def call():
        try:
            out["value"] = data()
        except Exception as err:  # noqa: BLE001 (handed to the test)
            out["error"] = err

    worker = threading.Thread(target=call)
    worker.start()
    worker.join()
    if "error" in out:
        raise out["error"]
    value = out["value"]
    return value if isinstance(value, bytes) else value.encode()


def _page_args(page: bytes) -> dict:
    text = page.decode()
    found = re.search(r'id="playback-args">(.*?)</script>', text)
    assert found, "no playback-args in the page"
    return json.loads(found.group(1))


def test_the_web_page_opens_at_the_step_the_view_was_at(downloads):
    given, _ = downloads
    page = _as_streamlit_would(given["Download as web page"])
    assert _page_args(page)["options"]["initial_t"] == 57


def test_what_streamlit_keeps_holds_no_run_and_no_data(downloads):
    given, at = downloads
    request = at.session_state["pg_last_good"][0]
    from perceptron_lab.ui.runs import get_dataset

    data = weakref.ref(get_dataset(request))
    for cache in ("datasets", "runs", "payloads", "downloads"):  # the budget lets go of all
        SERVER.forget(cache)
    gc.collect()
    assert data() is None, [type(r).__name__ for r in gc.get_referrers(data())]
    # while the session lives its buttons still work: what they need is made again
    page = _as_streamlit_would(given["Download as web page"])
    assert _page_args(page)["options"]["initial_t"] == 57


def test_a_button_of_a_session_that_ended_holds_nothing_and_says_so(downloads):
    from perceptron_lab.ui.player import EXPIRED

    given, at = downloads
    for key in [k for k in at.session_state if k.endswith("_view")]:
        del at.session_state[key]  # what a session's end does to its state
    gc.collect()
    with pytest.raises(LookupError, match=re.escape(EXPIRED)):
        given["Download as web page"]()


def test_a_flood_of_requests_builds_the_page_once_and_the_budget_counts_it(downloads, monkeypatch):
    from perceptron_lab.ui import standalone_page

    given, _ = downloads
    SERVER.forget("downloads")
    built = []
    original = standalone_page.run_page

    def counted(*args, **kwargs):
        built.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(standalone_page, "run_page", counted)
    before = SERVER.held("downloads")
    pages: list = []
    threads = [
        threading.Thread(target=lambda: pages.append(given["Download as web page"]()))
        for _ in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(built) == 1, f"built {len(built)} times for 8 requests"
    assert all(page is pages[0] for page in pages)  # one object: Streamlit stores it once
    assert isinstance(pages[0], bytes)
    assert SERVER.held("downloads") - before >= len(pages[0])


def test_the_trace_is_built_once_per_view_not_per_rerun(downloads):
    given, at = downloads
    first = given["Every step as CSV (the trace)"]
    at.run()  # a rerun that changes nothing gives Streamlit a new callable
    again = given["Every step as CSV (the trace)"]
    assert _as_streamlit_would(first) == _as_streamlit_would(again)
    assert first() is again()  # the same bytes, built once


def test_a_sweep_also_lets_streamlit_forget_the_files_it_served():
    from perceptron_lab.ui import player

    assert player.forget_served_files in SERVER.after_sweep


# -- counted in their view's CPU ------------------------------------------------------------


def _account(data):
    """The CPU account a download's callable counts in (``view_cost.CpuAccount``)."""
    from perceptron_lab.ui import player

    token = data.args[1]
    with player._VIEWS_LOCK:
        return player._VIEWS[token].account


def test_a_download_is_counted_in_the_cpu_of_its_view(downloads):
    given, _ = downloads
    SERVER.forget("downloads")
    trace, page = given["Every step as CSV (the trace)"], given["Download as web page"]
    account = _account(trace)
    assert account is _account(page)  # one view, one account
    made = account.seconds
    assert made > 0  # the view's making, in the page's thread
    _as_streamlit_would(trace)
    assert account.seconds > made  # and the trace's build, in Streamlit's worker thread


def test_a_view_that_has_spent_its_cpu_builds_no_download(downloads):
    from perceptron_core.datasets import DataError
    from perceptron_lab.app_logic.view_cost import MAX_VIEW_CPU_SECONDS

    given, _ = downloads
    SERVER.forget("downloads")
    page = given["Download as web page"]
    _account(page).add(MAX_VIEW_CPU_SECONDS)
    with pytest.raises(DataError, match="CPU-seconds"):
        _as_streamlit_would(page)
