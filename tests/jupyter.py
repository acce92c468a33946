"""A real JupyterLab for the notebook widget's browser test and benchmark.

:func:`jupyterlab` starts ``jupyter lab`` from this Python (the test extra installs it,
with anywidget and ipykernel) on a free loopback port with a one-time token, in a folder
of its own (its settings and workspaces there too, nothing of the user's), and stops it
afterwards. :func:`run_first_cell` opens a notebook in chromium, runs its first cell and
returns the replay's frame once its figure is drawn.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import nbformat

from tests.live import free_port

ROOT = Path(__file__).resolve().parents[1]
#: The replay's frame in a cell's output (ui/playback/notebook.js).
FRAME = "iframe.perceptron-lab-replay"


def write_notebook(path: Path, *cells: str) -> Path:
    """A notebook with these code cells."""
    book = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    book.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(book, path)
    return path


@contextmanager
def jupyterlab(folder: Path):
    """``jupyter lab`` serving ``folder``; yields ``(base URL, token)``."""
    port, token = free_port(), secrets.token_hex(16)
    # no question about JupyterLab's news over the notebook (it would cover the replay)
    notices = folder / ".settings" / "@jupyterlab" / "apputils-extension"
    notices.mkdir(parents=True, exist_ok=True)
    (notices / "notification.jupyterlab-settings").write_text(
        '{"fetchNews": "false", "checkForUpdates": false}', encoding="utf-8"
    )
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(folder / ".config"),
        "JUPYTERLAB_SETTINGS_DIR": str(folder / ".settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(folder / ".workspaces"),
        "JUPYTER_RUNTIME_DIR": str(folder / ".runtime"),
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--allow-root",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={folder}",
            "--LabApp.news_url=",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    proc.kill()
                    raise RuntimeError(
                        "jupyter lab did not start: " + proc.stdout.read().decode()[-3000:]
                    ) from None
                time.sleep(0.3)
        yield url, token
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def open_notebook(page, url: str, token: str, name: str) -> None:
    """Open notebook ``name`` in JupyterLab and wait for its kernel to be idle."""
    page.goto(f"{url}/lab/tree/{name}?token={token}&reset")
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=120_000)
    # the status bar says "Python 3 (ipykernel) | Idle" once the kernel is connected
    page.get_by_text("(ipykernel) | Idle").wait_for(timeout=120_000)
    page.wait_for_timeout(500)  # Shift+Enter right at that moment was once not run


def run_cell(page, prompt: int, timeout_ms: int = 180_000) -> None:
    """Run the ``prompt``-th cell (Shift+Enter in it) and wait until it ran as the
    ``prompt``-th execution."""
    page.locator(".jp-Notebook .jp-Cell .jp-InputArea-editor").nth(prompt - 1).click()
    page.keyboard.press("Shift+Enter")
    page.locator(".jp-InputPrompt", has_text=f"[{prompt}]").first.wait_for(timeout=timeout_ms)


def run_replay_cell(page, prompt: int = 1, timeout_ms: int = 180_000):
    """Run the ``prompt``-th cell, which shows a replay (the only one on the page); returns
    (the replay's frame, seconds from the keypress to the replay's first painted step)."""
    start = time.perf_counter()
    run_cell(page, prompt, timeout_ms)
    page.locator(FRAME).first.wait_for(timeout=timeout_ms)
    frame = page.frame_locator(FRAME).first
    frame.locator(".playback .btn-step").first.wait_for(timeout=timeout_ms)
    handle = page.locator(FRAME).first.element_handle().content_frame()
    handle.wait_for_function(
        "() => window.playback && window.playback.painted !== null", timeout=timeout_ms
    )
    seconds = time.perf_counter() - start
    handle.wait_for_function("() => window.playback.settled", timeout=timeout_ms)
    return handle, seconds
