"""Checking the command line's output paths before the work that fills them.

A run of ``perceptron-lab`` may take minutes; a path it cannot write should
stop it at the start, with one line saying why, not with a traceback once
the table is printed. :func:`check_file` and :func:`check_folder` raise a
:class:`ValueError` (which the command prints as one line); they need the
standard library only, so ``perceptron-lab --help`` stays fast.
"""

from __future__ import annotations

import os
from pathlib import Path


def _reason(err: OSError) -> str:
    return (err.strerror or str(err)).lower()


def check_file(path: Path, flag: str) -> Path:
    """Make sure ``path`` can be written as a file; return it.

    The folder must exist, and an existing ``path`` must be a regular file (a
    folder is refused, and so are a named pipe, whose opening would wait for a
    reader, a device and a socket). The check writes nothing into an existing
    file and leaves no new file behind: it opens an existing one for
    appending, or creates and removes a new one (so a read-only folder, or
    ``/proc``, is refused here too).

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> check_file(folder / "table.json", "--json") == folder / "table.json"
    True
    >>> check_file(folder / "missing" / "table.json", "--json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: --json: the folder '.../missing' does not exist; create it first ...
    """
    path = Path(path)
    folder = path.parent
    if not folder.is_dir():
        what = "is a file, not a folder" if folder.exists() else "does not exist"
        raise ValueError(
            f"{flag}: the folder {str(folder)!r} {what}; create it first or "
            "choose another path. Nothing was run."
        )
    if path.is_dir():
        raise ValueError(f"{flag}: {str(path)!r} is a folder; give a file name. Nothing was run.")
    existed = path.exists()
    if existed and not path.is_file():
        raise ValueError(
            f"{flag}: {str(path)!r} is not a regular file (a named pipe, a device or a "
            "socket); give the name of a file. Nothing was run."
        )
    try:
        with open(path, "a" if existed else "x", encoding="utf-8"):
            pass
        if not existed:
            os.unlink(path)
    except OSError as err:
        raise ValueError(
            f"{flag}: cannot write {str(path)!r} ({_reason(err)}). Nothing was run."
        ) from None
    return path


def check_folder(path: Path, flag: str) -> Path:
    """Create the folder ``path`` (and its parents) if needed; return it.

    Refused when ``path`` or one of its parents is a file, or it cannot be
    created.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> (folder / "a.csv").write_text("x")
    1
    >>> check_folder(folder / "a.csv", "--out")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: --out: '.../a.csv' is a file, not a folder; ...
    """
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ValueError(
            f"{flag}: {str(path)!r} is a file, not a folder; give a folder (it is "
            "created if missing). Nothing was run."
        )
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ValueError(
            f"{flag}: cannot create the folder {str(path)!r} ({_reason(err)}). Nothing was run."
        ) from None
    return path
