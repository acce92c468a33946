"""Finished cells on disk, so an interrupted experiment resumes where it stopped.

A cell (one task: e.g. every setting on one fold of one data set) is stored
under the SHA-256 of its **full specification** (:func:`cell_key`): the data's
bytes, the fold's indices, the settings, the seeds, the epochs, and
:data:`CACHE_VERSION`. Anything that could change the result changes the key,
so a stale entry is never read; nothing else does, so a rerun with another
``--jobs`` or on a cluster finds the same cells.

Files are NumPy ``.npz`` archives written to a temporary name and renamed
(``os.replace``), so a run killed mid-write leaves no half-written cell
behind. A cell that cannot be read all the same (a truncated file, a
flipped byte: the zip checksums and a digest of the arrays stored beside
them catch it), or that is no regular file (a named pipe, which a plain
open would wait on forever), is removed and computed again, with a
:class:`CorruptCellWarning`. The cache is only ever a shortcut:
a cell that cannot be written is computed and used anyway, with a
:class:`CacheWarning`.

A cache may have a size cap (``max_bytes``); past it, the oldest cells
(by the time they were written) are removed until it fits again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import tempfile
import warnings
from pathlib import Path

import numpy as np

from perceptron_core.experiments.defaults import default_cache_dir

#: Bump when the meaning of a stored result changes (kernel semantics, layout).
#: 2: every file carries a digest of its arrays (``_CHECK``).
CACHE_VERSION = 2
#: The entry of every cell file that holds the SHA-256 of the other entries.
_CHECK = "_check"


def page_cache_dir() -> Path:
    """The experiments page's own folder beside :func:`default_cache_dir`: the page caps its
    size, and that cap must not evict the cells the command line computed."""
    return default_cache_dir().with_name("page-cells")


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


def _content_digest(arrays: dict) -> str:
    """SHA-256 of a cell's entry names and arrays (a damaged name changes it too)."""
    names = sorted(arrays)
    return hashlib.sha256(
        (json.dumps(names) + array_digest(*(arrays[n] for n in names))).encode()
    ).hexdigest()


class CacheWarning(RuntimeWarning):
    """The disk cache could not keep a cell; the result was computed and used anyway."""


class CorruptCellWarning(CacheWarning):
    """A cached cell could not be read; it was removed and is computed again."""


class DiskCache:
    """A folder of finished cells, one ``.npz`` file per key.

    Parameters
    ----------
    folder : path
    max_bytes : int, optional
        Size cap on the cells' files; after a write that goes past it, the
        oldest cells are removed until the folder holds at most 90 % of it
        (so that not every write has to look at the folder). None: no cap.

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

    def __init__(self, folder, max_bytes: int | None = None):
        self.folder = Path(folder)
        self.max_bytes = max_bytes
        self._size: int | None = None  # bytes of the cells, counted at the first write

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.npz"

    def get(self, key: str) -> dict | None:
        """The arrays stored under ``key``; None if there are none or they cannot be read."""
        path = self._path(key)
        try:  # a failure to open is a miss; a failure to read, below, a bad cell
            # without waiting: a named pipe in the cell's place would block a plain open()
            fh = os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb")
        except OSError:  # never written, removed by the size cap meanwhile, or not readable
            return None
        with fh:
            try:
                if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                    raise ValueError("it is not a regular file (a named pipe, a device, ...)")
                with np.load(fh, allow_pickle=False) as archive:
                    arrays = {name: archive[name] for name in archive.files}
                if str(arrays.pop(_CHECK, "")) != _content_digest(arrays):
                    raise ValueError("its arrays do not match the digest stored with them")
                return arrays
            except Exception as err:  # noqa: BLE001 (any unreadable content: see below)
                # Whatever makes the content unreadable (BadZipFile, EOFError, a CRC
                # mismatch, NotImplementedError for a damaged compression method, a
                # ValueError from a damaged header ...), the cell is only a shortcut:
                # drop it, so that this run and every later one computes it again.
                warnings.warn(
                    CorruptCellWarning(
                        f"The cached cell {path} could not be read ({type(err).__name__}: {err}); "
                        "it was removed and is computed again."
                    ),
                    stacklevel=2,
                )
        with contextlib.suppress(OSError):
            path.unlink()
        return None

    def put(self, key: str, arrays: dict) -> None:
        """Store ``arrays`` under ``key`` (atomically), then keep the folder under its cap."""
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        except OSError as err:
            warnings.warn(
                CacheWarning(
                    f"Cannot write to the cache folder {self.folder} "
                    f"({err}); results are computed but not kept."
                ),
                stacklevel=2,
            )
            return
        try:
            with os.fdopen(fd, "wb") as fh:
                checked = {**arrays, _CHECK: np.array(_content_digest(arrays))}
                np.savez(fh, **checked)
            written = os.path.getsize(tmp)
            os.replace(tmp, path)
        except OSError as err:  # a full disk: this cell is not kept, the run goes on
            Path(tmp).unlink(missing_ok=True)
            warnings.warn(
                CacheWarning(
                    f"Cannot write the cell {path} ({err}); it is computed again next time."
                ),
                stacklevel=2,
            )
            return
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        if self.max_bytes is not None:
            self._size = self.size() if self._size is None else self._size + written
            if self._size > self.max_bytes:
                self._size = self.evict(int(0.9 * self.max_bytes))

    def _cells(self) -> list[tuple[float, int, Path]]:
        """``(time written, bytes, path)`` of every cell (a cell removed meanwhile is skipped)."""
        cells = []
        for path in self.folder.glob("??/*.npz"):
            try:
                st = path.stat()
            except FileNotFoundError:
                continue
            cells.append((st.st_mtime, st.st_size, path))
        return cells

    def size(self) -> int:
        """Bytes of all the cells' files."""
        return sum(size for _, size, _ in self._cells())

    def evict(self, target_bytes: int) -> int:
        """Remove the oldest cells until at most ``target_bytes`` are left; the bytes left."""
        cells = sorted(self._cells(), key=lambda c: c[0])
        total = sum(size for _, size, _ in cells)
        for _, size, path in cells:
            if total <= target_bytes:
                break
            with contextlib.suppress(OSError):  # removed meanwhile, or not ours to remove
                path.unlink()
            total -= size
        return total
