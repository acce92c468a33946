"""A real JupyterLab or Notebook 7 for the notebook widget's browser tests and benchmark.

:func:`jupyter` starts ``jupyter lab`` or ``jupyter notebook`` (Notebook 7; the test extra
installs both, with anywidget and ipykernel) from this Python on a free loopback port with a
one-time token, in a folder of its own (its settings and workspaces there too, nothing of the
user's), and stops it afterwards. :func:`open_notebook` opens a notebook in chromium and waits
for its kernel; :func:`run_replay_cell` runs a cell that shows a replay and returns the
replay's frame once its figure is drawn.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.live import free_port

ROOT = Path(__file__).resolve().parents[1]
#: The replay's frame in a cell's output (ui/playback/notebook.js).
FRAME = "iframe.perceptron-lab-replay"
#: The hosts the widget is tested in: the module that serves it, and a notebook's address.
HOSTS = {
    "JupyterLab": ("jupyterlab", "lab/tree/{name}"),
    "Notebook 7": ("notebook", "notebooks/{name}"),
}


@dataclass(frozen=True)
class Server:
    """A running Jupyter server: its host's name (a key of :data:`HOSTS`), address and token."""

    host: str
    url: str
    token: str

    def api(self, path: str):
        """GET ``path`` of the server's REST API, as JSON."""
        with urllib.request.urlopen(f"{self.url}/api/{path}?token={self.token}", timeout=5) as r:
            return json.load(r)


def write_notebook(path: Path, *cells: str) -> Path:
    """A notebook with these code cells."""
    import nbformat  # in the test extra, not in test-core (the fast suite needs none of Jupyter)

    book = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    book.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(book, path)
    return path


def _settings(folder: Path, save_widget_state: bool) -> None:
    """Settings of the server's own: no question about Jupyter's news over the notebook (it
    would cover the replay), and whether saving a notebook saves its widgets' state."""
    for plugin, value in {
        "@jupyterlab/apputils-extension/notification": {
            "fetchNews": "false",
            "checkForUpdates": False,
        },
        "@jupyter-widgets/jupyterlab-manager/plugin": {"saveState": save_widget_state},
    }.items():
        path = folder / ".settings" / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value), encoding="utf-8")


@contextmanager
def jupyter(folder: Path, host: str = "JupyterLab", save_widget_state: bool = False):
    """``host`` (a key of :data:`HOSTS`) serving ``folder``; yields its :class:`Server`."""
    module, _ = HOSTS[host]
    port, token = free_port(), secrets.token_hex(16)
    _settings(folder, save_widget_state)
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(folder / ".config"),
        "JUPYTERLAB_SETTINGS_DIR": str(folder / ".settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(folder / ".workspaces"),
        "JUPYTER_RUNTIME_DIR": str(folder / ".runtime"),
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    lab_only = [
        "--LabApp.news_url=",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            module,
            "--no-browser",
            "--allow-root",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={folder}",
            *(lab_only if module == "jupyterlab" else []),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
    )
    server = Server(host, f"http://127.0.0.1:{port}", token)
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                server.api("status")
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    proc.kill()
                    raise RuntimeError(
                        f"{host} did not start: " + proc.stdout.read().decode()[-3000:]
                    ) from None
                time.sleep(0.3)
        yield server
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def _kernel_idle(server: Server, name: str) -> bool:
    sessions = [s for s in server.api("sessions") if s["path"].endswith(name)]
    return bool(sessions) and sessions[0]["kernel"]["execution_state"] == "idle"


def open_notebook(page, server: Server, name: str) -> None:
    """Open notebook ``name`` and wait until its kernel is connected and idle."""
    _, address = HOSTS[server.host]
    page.goto(f"{server.url}/{address.format(name=name)}?token={server.token}&reset")
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=120_000)
    deadline = time.monotonic() + 120
    while not _kernel_idle(server, name):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the kernel of {name} did not start in {server.host}")
        page.wait_for_timeout(300)
    page.wait_for_timeout(1000)  # the page hears of the kernel a moment after the server


def run_cell(page, prompt: int, timeout_ms: int = 180_000) -> None:
    """Run the ``prompt``-th cell (Shift+Enter in it) and wait until it ran as the
    ``prompt``-th execution."""
    page.locator(".jp-Notebook .jp-Cell .jp-InputArea-editor").nth(prompt - 1).click()
    page.keyboard.press("Shift+Enter")
    page.locator(".jp-InputPrompt", has_text=f"[{prompt}]").first.wait_for(timeout=timeout_ms)


def replay_frame(page, nth: int = 0, timeout_ms: int = 180_000):
    """The ``nth`` replay's frame on the page, once its first step is painted."""
    page.locator(FRAME).nth(nth).wait_for(timeout=timeout_ms)
    frame = page.locator(FRAME).nth(nth).element_handle().content_frame()
    frame.wait_for_function(
        "() => window.playback && window.playback.painted != null", timeout=timeout_ms
    )
    return frame


def run_replay_cell(page, prompt: int = 1, timeout_ms: int = 180_000):
    """Run the ``prompt``-th cell, which shows a replay (the only one on the page); returns
    (the replay's frame, seconds from the keypress to the replay's first painted step)."""
    start = time.perf_counter()
    run_cell(page, prompt, timeout_ms)
    frame = replay_frame(page, 0, timeout_ms)
    seconds = time.perf_counter() - start
    frame.wait_for_function("() => window.playback.settled", timeout=timeout_ms)
    return frame, seconds


def save_notebook(page, path: Path) -> dict:
    """Save the open notebook (Ctrl+S); returns the file's notebook once it holds the widgets'
    state (the server must save it: :func:`jupyter` with ``save_widget_state``)."""
    page.locator(".jp-Notebook").first.click()
    page.keyboard.press("Control+s")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        page.wait_for_timeout(300)
        try:
            book = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError:  # being written
            continue
        if "widgets" in book["metadata"]:
            return book
    raise TimeoutError(f"{path.name} was not saved with its widgets' state")
