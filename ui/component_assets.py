"""The folder the browser component is served from: our frontend files and plotly.min.js.

Streamlit serves a component only from real files under its root folder (it
resolves symlinks and refuses paths outside), and the Plotly script that the
``plotly`` package ships lives elsewhere. So the root is built: a copy of
``ui/playback/`` and of ``plotly/package_data/plotly.min.js`` in a writable
cache folder, one per content version (a hash of our files and Plotly's
version), written to a temporary folder and renamed into place, so a server
never serves half a folder and two servers starting at once agree. Nothing
is fetched from the network. Older versions stay (about 5 MB each): another
server on the machine may still serve one, so only a person deletes them.
No Streamlit here.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import uuid
from pathlib import Path

import plotly

SOURCE = Path(__file__).parent / "playback"
PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
FOLDER_PREFIX = "playback-"


def _cache_roots() -> list[Path]:
    """Where to build: the XDG cache folder, else the system's temporary folder."""
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    user = os.environ.get("USER") or str(os.getuid() if hasattr(os, "getuid") else "user")
    return [
        Path(xdg) / "perceptron-lab" / "component",
        Path(tempfile.gettempdir()) / f"perceptron-lab-{user}" / "component",
    ]


def _frontend_files() -> list[Path]:
    return sorted(p for p in SOURCE.iterdir() if p.is_file() and not p.name.startswith("."))


def content_version() -> str:
    """A hash of the frontend's files and Plotly's version: a new one gets a new folder.

    Examples
    --------
    >>> len(content_version())
    16
    """
    h = hashlib.blake2b(digest_size=8)
    h.update(plotly.__version__.encode())
    for path in _frontend_files():
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def _build(root: Path, target: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    staging = root / f".tmp-{uuid.uuid4().hex}"
    staging.mkdir()
    try:
        for path in _frontend_files():
            shutil.copyfile(path, staging / path.name)
        shutil.copyfile(PLOTLY_JS, staging / "plotly.min.js")
        try:
            staging.rename(target)  # atomic; fails if another process got there first
        except OSError:
            if not (target / "index.html").is_file():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def asset_folder() -> Path:
    """The component's root folder for this version, built on first use.

    Raises
    ------
    OSError
        When neither the cache folder nor the temporary folder is writable.
    """
    target_name = FOLDER_PREFIX + content_version()
    errors = []
    for root in _cache_roots():
        target = root / target_name
        if (target / "index.html").is_file():
            return target
        try:
            _build(root, target)
            return target
        except OSError as err:  # a read-only home: try the next place
            errors.append(f"{root}: {err}")
    raise OSError("No writable folder for the playback component: " + "; ".join(errors))
