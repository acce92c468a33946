"""Live processes for tests and benchmarks: a free port, a health check, ``perceptron-lab``
run as a separate program that imports only what a given folder holds (this checkout, or an
installed copy). Debian's chromium and its flags are in :mod:`tests.chromium`.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_health(url: str, proc: subprocess.Popen, timeout: float = 120) -> str:
    """The body of ``url`` once it answers 200; fails early when ``proc`` exits first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server exited with status {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return answer.read().decode()
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"{url} did not answer within {timeout} s")


def stop(proc: subprocess.Popen) -> str:
    """Terminate ``proc`` and return what it printed (stdout and stderr, if piped)."""
    proc.terminate()
    try:
        out, _ = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    return out or ""


def perceptron_lab(pythonpath: Path, cwd: Path, *args: str) -> subprocess.Popen:
    """``perceptron-lab ARGS`` importing the core and the app from ``pythonpath`` only."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PERCEPTRON_LAB_DATA")}
    env["PYTHONPATH"] = str(pythonpath)
    return subprocess.Popen(
        [sys.executable, "-m", "perceptron_lab.cli", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def serve_once(pythonpath: Path, cwd: Path, *args: str) -> tuple[str, str, int]:
    """Start ``perceptron-lab app ARGS`` on a free loopback port, wait for its health check,
    stop it; returns ``(the health check's answer, what the command printed, the port)``."""
    port = free_port()
    app = perceptron_lab(
        pythonpath, cwd, "app", "--port", str(port), "--address", "127.0.0.1", *args
    )
    try:
        body = wait_for_health(f"http://127.0.0.1:{port}/_stcore/health", app)
    finally:
        printed = stop(app)
    return body, printed, port
