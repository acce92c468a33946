"""Programs besides Python that some tests need: Debian's chromium and nginx.

``.ci/run`` installs both. Elsewhere a test that needs a missing program is
skipped with one line saying what to install; under CI (``CI`` set, as
``.ci/run`` does) it fails instead, so CI cannot pass by skipping it.
"""

from __future__ import annotations

import os
import shutil

import pytest

#: How to install each program on Debian (and on the CI machine).
INSTALL = {"chromium": "apt-get install chromium", "nginx": "apt-get install nginx"}


def program(name: str) -> str:
    """The path of ``name`` on the ``PATH``; skips the test (fails it under CI) without it."""
    path = shutil.which(name)
    if path is None:
        message = f"{name} is not on the PATH ({INSTALL[name]} to run this test)"
        if os.environ.get("CI"):
            pytest.fail(f"{message}; under CI a missing program fails the run", pytrace=False)
        pytest.skip(message)
    return path
