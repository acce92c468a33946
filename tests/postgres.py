"""A PostgreSQL server of a test's own: Debian's ``initdb`` and ``postgres`` in a temporary
folder, on a free loopback port, stopped (and its folder removed) at the end.

PostgreSQL refuses to run as root; where the tests run as root (CI), the server runs as the
``postgres`` system user that Debian's package makes (``runuser``), in a folder given to it.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from tests.live import free_port
from tests.programs import postgres_bin


def _as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


class PostgresServer:
    """Debian's PostgreSQL on a free loopback port, its data in a temporary folder; ``url`` is
    its address (user ``lab``, database ``postgres``). :meth:`stop` and :meth:`start` again
    restart it on the same data and port."""

    def __init__(self):
        self.bin = postgres_bin()
        self.folder = Path(tempfile.mkdtemp(prefix="perceptron-lab-pg-"))
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
        self.data, self.port = self.folder / "data", free_port()
        self.url = f"postgresql://lab@127.0.0.1:{self.port}/postgres"
        self.process: subprocess.Popen | None = None
        subprocess.run(
            _as_server_user(
                [str(self.bin / "initdb"), "-D", str(self.data), "-U", "lab", "--auth=trust"]
                + ["-E", "UTF8"]
            ),
            check=True,
            capture_output=True,
        )

    def start(self) -> None:
        self.process = subprocess.Popen(
            _as_server_user(
                [
                    str(self.bin / "postgres"),
                    "-D",
                    str(self.data),
                    "-p",
                    str(self.port),
                    "-k",
                    str(self.folder),
                    "-c",
                    "listen_addresses=127.0.0.1",
                    "-c",
                    "fsync=off",
                    "-c",
                    "max_connections=200",
                ]  # fmt: skip
            ),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait(self.url, self.process)

    def stop(self) -> None:
        """A fast shutdown (clients are disconnected, not waited for), until it is done."""
        if self.process is None:
            return
        subprocess.run(
            _as_server_user(
                [str(self.bin / "pg_ctl"), "-D", str(self.data), "stop", "-m", "fast", "-w"]
            ),
            capture_output=True,
            timeout=60,
        )
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


@contextlib.contextmanager
def postgres_server() -> Iterator[PostgresServer]:
    """A running :class:`PostgresServer`, stopped and removed at the end."""
    server = PostgresServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.folder, ignore_errors=True)


def _wait(url: str, server: subprocess.Popen, timeout: float = 60) -> None:
    import psycopg

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"PostgreSQL exited with status {server.returncode}")
        try:
            psycopg.connect(url, connect_timeout=2).close()
            return
        except psycopg.OperationalError:
            time.sleep(0.2)
    raise AssertionError(f"PostgreSQL did not answer within {timeout} s")
