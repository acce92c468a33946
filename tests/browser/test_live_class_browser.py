"""A live class in chromium: one teacher's page and three students' pages, first on one
server with the default SQLite store, then on PostgreSQL (a server the test starts) with two
app processes, the students split between them (tests/live_class_scenario.py says what the
teacher and the students do). The seconds from the teacher's action to each student's page
are printed; the benchmark (benchmarks/bench_class.py) measures them under load."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys

import pytest

from tests.chromium import ARTIFACTS
from tests.live import free_port, stop, wait_for_health
from tests.live_class_scenario import run_class
from tests.postgres import postgres_server

pytestmark = pytest.mark.browser

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@contextlib.contextmanager
def app_server(environ: dict):
    """``streamlit run app.py`` from the checkout with ``environ`` added; its address."""
    port = free_port()
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true"]
    command += ["--server.port", str(port), "--server.address", "127.0.0.1"]
    proc = subprocess.Popen(
        command,
        cwd=ROOT,
        env={**os.environ, **environ},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for_health(f"{url}/_stcore/health", proc)
        yield url
    finally:
        stop(proc)


def _report(outcome, where: str) -> None:
    print(
        f"{where}: brought to step 57 after "
        + ", ".join(f"{s:.2f}" for s in outcome.brought)
        + " s; a followed step after "
        + ", ".join(f"{s:.2f}" for s in outcome.followed)
        + " s; a question revealed (results and step 59) after "
        + ", ".join(f"{s:.2f}" for s in outcome.revealed)
        + " s"
    )


def test_a_class_on_one_server_with_sqlite(server, browser):
    outcome = run_class(browser, server, [server] * 3, shots=ARTIFACTS)
    assert len(outcome.brought) == len(outcome.followed) == len(outcome.revealed) == 3
    _report(outcome, "SQLite, one process")


def test_a_class_on_postgresql_with_two_app_processes(browser, tmp_path):
    with postgres_server() as database:
        environ = {"PERCEPTRON_LAB_CLASS_DB": database.url}
        with app_server(environ) as first, app_server(environ) as second:
            outcome = run_class(browser, first, [first, second, second], shots=None)
    assert len(outcome.brought) == len(outcome.followed) == len(outcome.revealed) == 3
    _report(outcome, "PostgreSQL, two processes")
