"""Programs besides Python that some tests need: Debian's chromium and its headless shell,
nginx and PostgreSQL, and for the screen reader's test Orca with what it speaks through
(:mod:`tests.screen_reader`).

``.ci/run`` installs them. Elsewhere a test that needs a missing program is
skipped with one line saying what to install; under CI (``CI`` set, as
``.ci/run`` does) it fails instead, so CI cannot pass by skipping it.
"""

from __future__ import annotations

import glob
import os
import shutil
from pathlib import Path

import pytest

#: How to install each program on Debian (and on the CI machine).
INSTALL = {
    "chromium": "apt-get install chromium",
    "chromium-headless-shell": "apt-get install chromium-headless-shell",
    "nginx": "apt-get install nginx",
    "orca": "apt-get install orca",
    "Xvfb": "apt-get install xvfb",
    "dbus-daemon": "apt-get install dbus",
    "gsettings": "apt-get install libglib2.0-bin",
    "at-spi-bus-launcher": "apt-get install at-spi2-core",
    "speech-dispatcher": "apt-get install speech-dispatcher speech-dispatcher-espeak-ng",
    "espeak-ng": "apt-get install espeak-ng",
    "postgres": "apt-get install postgresql",
}
#: Where Debian puts PostgreSQL's server programs (one folder per major version), which are
#: not on the PATH.
POSTGRES_BIN = "/usr/lib/postgresql/*/bin"


def _missing(message: str):
    if os.environ.get("CI"):
        pytest.fail(f"{message}; under CI a missing program fails the run", pytrace=False)
    pytest.skip(message)


def program(name: str) -> str:
    """The path of ``name`` on the ``PATH``; skips the test (fails it under CI) without it."""
    path = shutil.which(name)
    if path is None:
        _missing(f"{name} is not on the PATH ({INSTALL[name]} to run this test)")
    return path


def postgres_bin() -> Path:
    """The folder of PostgreSQL's ``initdb`` and ``postgres`` (the newest version installed);
    skips the test (fails it under CI) without them."""
    found = sorted(Path(p).parent for p in glob.glob(f"{POSTGRES_BIN}/initdb"))
    if not found:
        _missing(f"PostgreSQL's server is not installed ({INSTALL['postgres']} to run this test)")
    return found[-1]
