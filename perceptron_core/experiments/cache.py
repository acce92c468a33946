"""Finished cells on disk, so an interrupted experiment resumes where it stopped.

A cell (one task: e.g. every setting on one fold of one data set) is stored
under the SHA-256 of its **full specification** (:func:`cell_key`): the data's
bytes, the fold's indices, the settings, the seeds, the epochs, and
:data:`CACHE_VERSION`. Anything that could change the result changes the key,
so a stale entry is never read; nothing else does, so a rerun with another
``--jobs`` or on a cluster finds the same cells.

Files are NumPy ``.npz`` archives written to a temporary name and renamed,
so a run killed mid-write leaves no half-written cell behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

import numpy as np

#: Bump when the meaning of a stored result changes (kernel semantics, layout).
CACHE_VERSION = 1


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/perceptron-lab/cells`` (``~/.cache/perceptron-lab/cells`` by default)."""
    root = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(root) / "perceptron-lab" / "cells"


def array_digest(*arrays) -> str:
    """SHA-256 of arrays' types, shapes and bytes (a data set's identity).

    Examples
    --------
    >>> a = np.arange(3)
    >>> array_digest(a) == array_digest(a.copy()), array_digest(a) == array_digest(a + 1)
    (True, False)
    """
    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(f"{a.dtype.str}{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def cell_key(spec: dict) -> str:
    """The cache key of a cell: SHA-256 of its specification as canonical JSON.

    Examples
    --------
    >>> cell_key({"a": 1, "b": [2, 3]}) == cell_key({"b": [2, 3], "a": 1})
    True
    """
    text = json.dumps({"version": CACHE_VERSION, **spec}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


class DiskCache:
    """A folder of finished cells, one ``.npz`` file per key.

    Examples
    --------
    >>> import tempfile
    >>> cache = DiskCache(tempfile.mkdtemp())
    >>> cache.get("ab" * 32) is None
    True
    >>> cache.put("ab" * 32, {"x": np.arange(3)})
    >>> cache.get("ab" * 32)["x"].tolist()
    [0, 1, 2]
    """

    def __init__(self, folder):
        self.folder = Path(folder)

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.npz"

    def get(self, key: str) -> dict | None:
        path = self._path(key)
        if not path.exists():
            return None
        try:
            with np.load(path, allow_pickle=False) as archive:
                return {name: archive[name] for name in archive.files}
        except (OSError, ValueError):  # unreadable (e.g. a disk error): compute it again
            return None

    def put(self, key: str, arrays: dict) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                np.savez(fh, **arrays)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
