"""An upload before its rows: its bytes, its encoding, its delimiter, its first rows and names.

:func:`open_upload` checks the size and the encoding without keeping a
decoded copy of the file (the reader reads the bytes); :func:`read_head`
reads the first rows with :mod:`csv`, which decide the header and the
columns. The messages for the caps (:func:`cap_error`) are shared with the
reader of the rows, :mod:`._csv_rows`.
"""

from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ._common import DataError

#: Cell values read as "missing" (compared after stripping, case-insensitively).
MISSING_MARKERS = frozenset({"", "na", "n/a", "nan", "null", "none", "?", "-"})
_DELIMITERS = (",", ";", "\t", "|")
DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "vertical bar"}
#: Rows kept for deciding about the header (the first row and the 50 below it).
_HEAD_ROWS = 51
#: Characters the delimiter is sniffed on (the first 50 of their lines).
_SNIFF_CHARS = 65536


def quoted(value, limit: int = 40) -> str:
    """A value from the file for a message: quoted, and cut to ``limit`` characters."""
    value = str(value).strip()
    return repr(value if len(value) <= limit else value[:limit] + "...")


def is_missing(cell: str) -> bool:
    return cell.strip().lower() in MISSING_MARKERS


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return not is_missing(cell)


def read_source(source, max_bytes: int):
    """Return ``(bytes_or_text, name)``, refusing anything larger than ``max_bytes``."""
    name = getattr(source, "name", None) or "uploaded file"
    if isinstance(source, (bytes, bytearray, memoryview)):
        data, name = bytes(source), "uploaded file"
    elif isinstance(source, (str, os.PathLike)):
        try:
            with open(source, "rb") as fh:
                data, name = fh.read(max_bytes + 1), Path(source).name
        except (OSError, ValueError) as err:
            reason = getattr(err, "strerror", None) or str(err)
            raise DataError(
                f"Cannot read the file {quoted(source, 80)}: {reason}. (A string "
                "is read as a file path; pass CSV text as bytes.)"
            ) from None
    elif hasattr(source, "read"):
        try:
            data = source.read(max_bytes + 1)
        except (OSError, ValueError) as err:
            raise DataError(f"Cannot read the uploaded file: {err}.") from None
        if not isinstance(data, (bytes, bytearray, str)):
            raise DataError("The uploaded file gave neither bytes nor text when read.")
        data = data if isinstance(data, str) else bytes(data)
    else:
        raise DataError(
            f"load_csv needs the file's bytes, a path to it, or an open file; got a "
            f"{type(source).__name__}."
        )
    if len(data) > max_bytes:
        raise DataError(
            f"The file is larger than the limit of {max_bytes:,} bytes. Use a smaller file "
            "(fewer rows or columns), or raise max_bytes if you run Perceptron Lab yourself."
        )
    return data, name


#: How files that are not text start, and what to do instead.
_NOT_TEXT = (
    (
        (b"PK\x03\x04",),
        "This looks like an Excel workbook (.xlsx) or a zip archive, not a CSV file. In "
        "your spreadsheet choose 'Save as' / 'Download as' and the format 'CSV UTF-8'.",
    ),
    (
        (b"\x1f\x8b",),
        "This file is gzip-compressed. Decompress it first and upload the .csv inside.",
    ),
    (
        (b"\xff\xfe", b"\xfe\xff"),
        "This file is saved as UTF-16 text. Save it as 'CSV UTF-8' (or plain UTF-8) and upload "
        "it again.",
    ),
    (
        (b"\xd0\xcf\x11\xe0",),
        "This looks like an old Excel workbook (.xls), not a CSV file. Save it as 'CSV UTF-8' "
        "and upload that.",
    ),
)


def _utf8_error(data: bytes, start: int) -> int | None:
    """Where ``data[start:]`` stops being UTF-8 (a byte offset), or None if it is UTF-8."""
    if data.isascii():
        return None
    try:
        str(memoryview(data)[start:], "utf-8")  # checked, not kept: the reader reads bytes
    except UnicodeDecodeError as err:
        return start + err.start
    return None


def _encoding(data: bytes, warnings: list[str]) -> str:
    """How to decode the bytes: UTF-8 (with or without the byte-order mark), else Latin-1;
    files that are not text are refused."""
    for starts, message in _NOT_TEXT:
        if data.startswith(starts):
            raise DataError(message)
    if b"\x00" in data:
        raise DataError(
            "This file contains NUL bytes, so it is not plain text: it may be a spreadsheet, "
            "an image or UTF-16 text. Export your table as 'CSV UTF-8' and upload that."
        )
    if data.startswith(b"\xef\xbb\xbf"):
        bad = _utf8_error(data, 3)
        if bad is not None:
            raise DataError(
                "The file starts with a UTF-8 marker but is not valid UTF-8 (at byte "
                f"{bad:,}). Save it again as 'CSV UTF-8'."
            )
        return "utf-8-sig"
    if _utf8_error(data, 0) is None:
        return "utf-8"
    warnings.append(
        "The file is not valid UTF-8, so it was read as Latin-1 (ISO-8859-1). If accented "
        "letters in the column names look wrong, save the file as 'CSV UTF-8'."
    )
    return "latin-1"


@dataclass(frozen=True)
class Upload:
    """The bytes the reader reads (text given as ``str`` is encoded as UTF-8), how they
    are decoded (``"text"``: given as ``str``), and the text's start (for the delimiter)."""

    data: bytes
    encoding: str
    start: str = ""

    @property
    def codec(self) -> str:
        return "utf-8" if self.encoding == "text" else self.encoding

    def text(self) -> io.TextIOWrapper:
        """The file as text, decoded a step at a time, lines ending at \\r\\n, \\r or \\n."""
        return io.TextIOWrapper(io.BytesIO(self.data), encoding=self.codec, newline="")


def open_upload(raw, warnings: list[str]) -> Upload:
    """The upload's encoding checked and its first characters read; an empty file is refused."""
    if isinstance(raw, str):
        if "\x00" in raw:
            raise DataError("This text contains NUL characters, so it is not a CSV table.")
        upload = Upload(raw.lstrip("\ufeff").encode("utf-8", "replace"), "text")
    else:
        upload = Upload(raw, _encoding(raw, warnings) if raw else "utf-8")
    text = upload.text()
    start = step = text.read(_SNIFF_CHARS)
    while step.isspace():  # blank so far: is anything else in the file?
        step = text.read(_SNIFF_CHARS)
    if not step:
        raise DataError(
            "The file is empty. Upload a CSV table with a header row and at least "
            "two rows of data."
        )
    return Upload(upload.data, upload.encoding, start)


def sniff_delimiter(text: str) -> str:
    lines = [ln for ln in text.splitlines()[:50] if ln.strip()]
    best, best_score = ",", (0.0, 0)
    for cand in _DELIMITERS:
        try:
            widths = [len(r) for r in csv.reader(lines, delimiter=cand) if r]
        except csv.Error:
            continue
        if not widths:
            continue
        values, counts = np.unique(widths, return_counts=True)
        modal = int(values[np.argmax(counts)])
        if modal < 2:
            continue
        score = (float(counts.max()) / len(widths), modal)
        if score > best_score:
            best, best_score = cand, score
    return best


# --------------------------------------------------------------------------
# The caps, and the first rows
# --------------------------------------------------------------------------


def cap_error(limits, line: int, *, values: int = 0, position: int = 0, longest: int = 0):
    """The message for a row that breaks a cap: ``values`` past ``max_columns`` (when
    given), else a value of ``longest`` characters at ``position`` (1 = first, when
    given), else one row too many."""
    if values:
        return DataError(
            f"Line {line} has {values:,} values, more than the limit of {limits.max_columns:,} "
            "columns. Use fewer columns, or raise max_columns if you run Perceptron Lab "
            "yourself."
        )
    if position:
        return DataError(
            f"Line {line}, column {position} holds a value of {longest:,} characters, "
            f"longer than the limit of {limits.max_cell_chars:,} (a number needs fewer than "
            "30). This does not look like a table of numbers: perhaps a quote is never "
            "closed, or the column holds long text; remove that column, or raise "
            "max_cell_chars if you run Perceptron Lab yourself."
        )
    return DataError(
        f"The file has more than {limits.max_rows:,} rows, the limit. Use a sample of the "
        "rows, or raise max_rows if you run Perceptron Lab yourself."
    )


def csv_error(message: str, line: int) -> DataError:
    """The message for what :mod:`csv` could not read near ``line``."""
    if "field larger than field limit" in message:
        return DataError(
            f"Near line {line} a single value is longer than {csv.field_size_limit():,} "
            "characters; this does not look like a table of numbers (perhaps an opening quote "
            "is never closed)."
        )
    return DataError(f"The file cannot be read as CSV near line {line}: {message}.")


def used_width(row: list[str]) -> int:
    """Values in ``row`` up to its last non-empty one."""
    end = len(row)
    while end > 0 and not row[end - 1].strip():
        end -= 1
    return end


class Head(NamedTuple):
    """The first rows with a value (each up to its last one), and how many values each had."""

    rows: list[list[str]]
    widths: list[int]


def read_head(upload: Upload, delimiter: str, limits) -> Head:
    """The first :data:`_HEAD_ROWS` rows with a value, read by :mod:`csv`, caps checked."""
    rows: list[list[str]] = []
    widths: list[int] = []
    reader = csv.reader(upload.text(), delimiter=delimiter)
    try:
        for row in reader:
            used = used_width(row)
            if not used:
                continue
            longest = max(map(len, row))
            if used > limits.max_columns:
                raise cap_error(limits, reader.line_num, values=len(row))
            if longest > limits.max_cell_chars:
                position = [len(c) for c in row].index(longest) + 1
                raise cap_error(limits, reader.line_num, position=position, longest=longest)
            if len(rows) > limits.max_rows:  # one more row than allowed: a header is allowed
                raise cap_error(limits, reader.line_num)
            rows.append(row[:used])
            widths.append(len(row))
            if len(rows) == _HEAD_ROWS:
                break
    except csv.Error as err:
        raise csv_error(str(err), reader.line_num) from None
    if not rows:
        raise DataError("The file has no rows with values.")
    return Head(rows, widths)


def detect_header(rows: list[list[str]]) -> bool:
    first, rest = rows[0], rows[1:]
    if not any(_is_number(c) for c in first):
        return True
    for j, cell in enumerate(first):
        if _is_number(cell) or is_missing(cell):
            continue
        below = [r[j] for r in rest if j < len(r) and not is_missing(r[j])]
        if below and all(_is_number(c) for c in below):
            return True
    return False


def column_names(header: list[str], width: int) -> tuple[list[str], list[str]]:
    """Unique column names, and a note per name that had to change.

    An empty header cell becomes ``column j``; a repeated name gets the
    first free `` (k)`` suffix, free meaning that no column of the file is
    called so: ``a,a,a (2)`` gives ``a``, ``a (3)``, ``a (2)``.
    """
    given = [header[j].strip() if j < len(header) else "" for j in range(width)]
    taken = set(filter(None, given))  # the file's own names are never given to another column
    names, renamed, used = [], [], set()
    for j, name in enumerate(given):
        wanted = name or f"column {j + 1}"
        unique = wanted
        if unique in used or (not name and unique in taken):
            k = 2
            while f"{wanted} ({k})" in taken or f"{wanted} ({k})" in used:
                k += 1
            unique = f"{wanted} ({k})"
            if name:
                renamed.append(f"column {j + 1} {quoted(name)} is called {quoted(unique)}")
        used.add(unique)
        names.append(unique)
    return names, renamed
