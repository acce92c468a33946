"""Hostile input, third round, on the command line: outputs that are not files, budgets that are
not numbers, a cache that cannot keep anything, a pipe among the cached cells, a killed run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import numpy as np
import psutil
import pytest

from perceptron_core._output_files import check_file
from perceptron_core.experiments.cache import CorruptCellWarning, DiskCache

ROOT = Path(__file__).resolve().parents[1]


def _finishes(func, release, seconds: float = 20.0):
    """``func()``'s result or exception, or fail when it has not returned in ``seconds`` (a
    thread: an open() that waits for a pipe's other end cannot be interrupted; ``release()``
    then opens that other end, so the thread ends)."""
    outcome: dict = {}

    def call():
        try:
            outcome["value"] = func()
        except BaseException as err:  # noqa: BLE001 (handed to the test)
            outcome["error"] = err

    worker = threading.Thread(target=call, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        release()
        pytest.fail(f"still waiting after {seconds} s")
    return outcome


def _one_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in text, text
    return lines[0]


# -- an output that is a pipe -----------------------------------------------------------------


def test_an_output_naming_a_pipe_is_refused_in_one_line(tmp_path):
    fifo = tmp_path / "page.html"
    os.mkfifo(fifo)
    outcome = _finishes(
        lambda: check_file(fifo, "--output"),
        lambda: os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)),
    )
    error = outcome.get("error")
    assert isinstance(error, ValueError), outcome
    assert "--output" in str(error) and "not a regular file" in str(error), error


def test_export_html_into_a_pipe_is_refused_before_the_work(tmp_path):
    fifo = tmp_path / "page.html"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # an old check would open it, not hang
    try:
        done = subprocess.run(
            [sys.executable, "-m", "perceptron_lab.cli", "export-html", "-o", str(fifo)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 1, done
        line = _one_line(done.stderr)
        assert "not a regular file" in line and str(fifo) in line, line
        assert os.read(reader, 100) == b""  # nothing was written into the pipe
    finally:
        os.close(reader)


# -- the memory budget's environment ----------------------------------------------------------


@pytest.mark.parametrize("text", ["inf", "nan", "-5", "0", "1e30", "lots"])
@pytest.mark.parametrize("name", ["PERCEPTRON_LAB_MEMORY_MB", "PERCEPTRON_LAB_IDLE_MINUTES"])
def test_a_budget_that_is_not_a_sensible_number_is_named_with_what_is_accepted(name, text):
    from perceptron_lab.app_logic.memory import budget_from_environment

    with pytest.raises(ValueError) as refused:
        budget_from_environment({name: text})
    message = str(refused.value)
    assert f"{name}={text!r}" in message and "from" in message and "\n" not in message


@pytest.mark.parametrize(
    "name, text",
    [
        ("PERCEPTRON_LAB_MEMORY_MB", "inf"),
        ("PERCEPTRON_LAB_CLASS_HOURS", "forever"),  # the live class's (docs/deploy.md)
        ("PERCEPTRON_LAB_CLASS_DB", "mysql://host/db"),
    ],
)
def test_the_app_command_refuses_a_wrong_setting_in_one_line(name, text):
    environ = {**os.environ, name: text}
    done = subprocess.run(
        [sys.executable, "-m", "perceptron_lab.cli", "app", "--port", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        env=environ,
    )
    assert done.returncode == 1, done
    line = _one_line(done.stderr)
    assert f"{name}={text!r}" in line and "OverflowError" not in line, line


def test_a_sensible_budget_from_the_environment_is_used():
    from perceptron_lab.app_logic.memory import budget_from_environment

    budget = budget_from_environment({"PERCEPTRON_LAB_MEMORY_MB": "100"})
    assert budget.limit == int(100 * 2**20 * 0.85)
    assert budget_from_environment({}).limit > budget.limit


# -- warm with a cache folder that cannot be written -------------------------------------------


def test_warm_that_cannot_keep_the_studies_says_so_and_fails(tmp_path, monkeypatch, capsys):
    from perceptron_lab import cli
    from perceptron_lab.app_logic import lesson_studies

    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    cheap = {"l09_weights": lesson_studies.STUDIES["l09_weights"]}
    monkeypatch.setattr(lesson_studies, "STUDIES", cheap)
    lesson_studies.forget()
    assert cli.main(["warm"]) == 1
    out = capsys.readouterr()
    assert "lesson studies ready" not in out.out and "kept in" not in out.out, out.out
    line = _one_line(out.err)
    assert "could not keep the lesson studies" in line and str(blocker) in line, line


# -- a pipe among the cached cells ------------------------------------------------------------


def test_a_pipe_among_the_cached_cells_is_skipped_removed_and_computed_again(tmp_path):
    cache = DiskCache(tmp_path)
    key = "ab" * 32
    path = tmp_path / key[:2] / f"{key}.npz"
    path.parent.mkdir()
    os.mkfifo(path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        outcome = _finishes(
            lambda: cache.get(key), lambda: os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        )
    assert outcome == {"value": None}, outcome
    assert any(issubclass(w.category, CorruptCellWarning) for w in caught), caught
    assert not path.exists()
    cache.put(key, {"x": np.arange(3)})
    assert cache.get(key)["x"].tolist() == [0, 1, 2]


# -- a killed reproduce leaves no process behind ----------------------------------------------


def _descendants(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


@pytest.mark.slow
def test_no_child_process_outlives_a_killed_reproduce(tmp_path):
    command = [
        sys.executable,
        "-m",
        "perceptron_core.cli",
        "reproduce",
        "kw-table4",
        "--jobs",
        "2",
        "--no-cache",
        "--quiet",
    ]
    run = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    children: list[psutil.Process] = []
    try:
        workers: list[psutil.Process] = []
        deadline = time.monotonic() + 300
        while len(workers) < 2 and time.monotonic() < deadline:  # until both workers run cells
            time.sleep(0.5)
            workers = [p for p in _descendants(run.pid) if p.cpu_percent(0.2) > 0]
        assert len(workers) >= 2, "the run never started its workers"
        children = _descendants(run.pid)
        run.send_signal(signal.SIGKILL)
        run.wait(30)
        gone, alive = psutil.wait_procs(children, timeout=15)
        assert not alive, [(p.pid, p.cmdline()[:3]) for p in alive]
    finally:
        if run.poll() is None:
            run.kill()
        for p in children:  # what a failed check left (adopted: no longer the run's children)
            if p.is_running():
                p.kill()
