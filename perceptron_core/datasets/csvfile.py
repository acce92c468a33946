"""Reading a CSV file a person uploads, with explanations instead of surprises.

:func:`load_csv` turns the bytes of a file into ``X, y`` for a classifier,
and reports every decision it took in plain words (``warnings``) so the app
can show them. It never guesses silently and raises only
:class:`~perceptron_core.datasets.DataError`. pandas' C reader splits the
rows and reads the numbers; the rules below are this module's.

The steps, in order:

1. **Size**: more than ``max_bytes`` bytes is refused before anything else.
2. **Decoding**: UTF-8 (with or without the byte-order mark Excel writes);
   if that fails, Latin-1 (ISO-8859-1), with a warning. Files that are not
   text (Excel workbooks, zip or gzip archives, UTF-16, anything with NUL
   bytes) are refused with a message saying how to export a CSV.
3. **Delimiter**: comma, semicolon, tab or ``|``, whichever splits the first
   lines into the same number (> 1) of fields most consistently (or the
   ``delimiter`` given). Quotes follow the usual CSV rules.
4. **Header**: the first row is taken as column names when some column is
   numeric below it but not in it, or when none of its cells is a number
   (``header="auto"``); ``header=True/False`` decides explicitly. Names
   are made unique: an empty one becomes ``column j``, a repeated one gets
   the first `` (k)`` that no other column is called (with a warning).
5. **Shape**: blank lines are skipped; every other row must have as many
   values as the header (empty trailing cells are ignored). Caps on rows,
   columns and the length of one value apply.
6. **Label column**: ``label_column`` (a name or a position; default the
   last column).
7. **Features**: a column is kept when every value is a number or a missing
   marker (empty, ``NA``, ``N/A``, ``NaN``, ``null``, ``None``, ``?``,
   ``-``); ``inf``/``-inf`` count as numbers that are not finite. Other
   columns are dropped and listed. A column that only fails because it uses
   decimal commas (``3,14``, in a file delimited by ``;`` or tabs) is read
   with the comma as decimal point, with a warning.
8. **Missing or infinite values** (and missing labels): with
   ``nan_policy="reject"`` (default) an error names the first one; with
   ``"drop"`` those rows are removed and counted.
9. **Labels**: a binary task needs exactly two label values; they become
   -1 and +1 (the second in sorted order, or ``positive_label``, is +1). A
   multi-class task numbers the values ``0..K-1`` in sorted order. Numeric
   labels are compared as exact numbers, never through float64 (``1`` and
   ``1.0`` are one class; ``100000000000000001`` and ``100000000000000000``
   are two).

Reading: the first rows are read by :mod:`csv` (header, delimiter, the caps
at once); the shape of every row (its line, its widths) is then found by
NumPy over the bytes, or by :mod:`csv` when the file has quotes or spaces
beyond ASCII; then pandas' C reader reads the values, and a column it cannot
read as numbers is read again as text, value by value. No pass keeps the
rows as Python lists: what stays is one float64 array of the values, a line
number and two widths per row, and each different label once. So memory
follows the size of the file (about 3 times it, see docs/benchmarks.md),
never rows x the longest value; values from the file that appear in
messages are cut to 40 characters.
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
from array import array
from dataclasses import dataclass, field
from decimal import MAX_PREC, Context, Decimal, InvalidOperation
from itertools import islice
from pathlib import Path
from typing import NamedTuple
from warnings import catch_warnings, simplefilter

import numpy as np

from ._common import DataError

#: Cell values read as "missing" (compared after stripping, case-insensitively).
MISSING_MARKERS = frozenset({"", "na", "n/a", "nan", "null", "none", "?", "-"})
#: The markers as they are usually written, recognised without a function call per cell.
_MISSING_SPELLINGS = frozenset(s for m in MISSING_MARKERS for s in (m, m.upper(), m.title()))

_DELIMITERS = (",", ";", "\t", "|")
_DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "vertical bar"}
_MAX_CLASSES = 100


@dataclass(frozen=True)
class CSVLimits:
    """The caps :func:`load_csv` holds a file to; each is a whole number of at least 1.

    ``max_bytes`` is the file's size, ``max_rows`` its rows of data,
    ``max_columns`` its columns and ``max_cell_chars`` the longest value a
    cell may hold, in characters: numbers need fewer than 30, and without a
    cap one long cell in a column of short ones is read as text for nothing.

    Examples
    --------
    >>> CSVLimits(max_rows=1_000).max_cell_chars
    1000
    """

    max_bytes: int = 20_000_000
    max_rows: int = 200_000
    max_columns: int = 2_000
    max_cell_chars: int = 1_000

    def __post_init__(self):
        for key, value in vars(self).items():
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
                raise DataError(
                    f"CSVLimits: {key} must be a whole number of at least 1; got {value!r}."
                )


@dataclass(eq=False)
class CSVData:
    """What :func:`load_csv` returns.

    Attributes
    ----------
    X : ndarray of shape (n_samples, n_features), float64
        The numeric feature columns; every value finite.
    y : ndarray of shape (n_samples,), int64
        {-1, +1} for a binary task, ``0..K-1`` for a multi-class one.
    feature_names : list of str
    label_name : str
        Name of the label column.
    class_names : list of str
        The original label value for each entry of ``labels``.
    labels : list of int
        The label values used in ``y``, in the order of ``class_names``.
    warnings : list of str
        Every decision worth telling the user, in plain words.
    dropped_columns : dict of str to str
        Column name -> why it was dropped.
    n_dropped_rows : int
        Rows removed because of missing or infinite values (``nan_policy="drop"``).
    encoding, delimiter : str
        How the file was read.
    """

    X: np.ndarray
    y: np.ndarray
    feature_names: list[str]
    label_name: str
    class_names: list[str]
    labels: list[int]
    warnings: list[str] = field(default_factory=list)
    dropped_columns: dict[str, str] = field(default_factory=dict)
    n_dropped_rows: int = 0
    encoding: str = "utf-8"
    delimiter: str = ","
    name: str = "uploaded file"

    @property
    def info(self):
        """The same description :func:`~perceptron_core.datasets.load` gives (a DatasetInfo)."""
        from .registry import DatasetInfo

        counts = tuple(int((self.y == v).sum()) for v in self.labels)
        return DatasetInfo(
            name=self.name,
            title=self.name,
            description=f"CSV file with label column {self.label_name!r}",
            source=self.name,
            licence="as provided by the user",
            shape=tuple(self.X.shape),
            feature_names=tuple(self.feature_names),
            class_names=tuple(self.class_names),
            labels=tuple(self.labels),
            class_counts=counts,
            notes=" ".join(self.warnings),
        )


# --------------------------------------------------------------------------
# Reading and decoding
# --------------------------------------------------------------------------


#: How the note on the label coding starts (an app that recodes the labels replaces it).
LABELS_NOTE = "Labels from column"
#: How pandas decodes a file read as ``encoding`` (text is given as UTF-8; the byte-order
#: mark is skipped).
_PANDAS_ENCODING = {"text": "utf-8", "utf-8-sig": "utf-8"}


def _read_source(source, max_bytes: int):
    """Return ``(bytes_or_text, name)``, refusing anything larger than ``max_bytes``."""
    too_big = (
        f"The file is larger than the limit of {max_bytes:,} bytes. Use a smaller file "
        "(fewer rows or columns), or raise max_bytes if you run Perceptron Lab "
        "yourself."
    )
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        if len(data) > max_bytes:
            raise DataError(too_big)
        return data, "uploaded file"
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        try:
            if path.stat().st_size > max_bytes:
                raise DataError(too_big)
            with open(path, "rb") as fh:
                data = fh.read(max_bytes + 1)
        except DataError:
            raise
        except (OSError, ValueError) as err:
            reason = getattr(err, "strerror", None) or str(err)
            raise DataError(
                f"Cannot read the file {_quoted(source, 80)}: {reason}. (A string "
                "is read as a file path; pass CSV text as bytes.)"
            ) from None
        if len(data) > max_bytes:
            raise DataError(too_big)
        return data, path.name
    if hasattr(source, "read"):
        try:
            data = source.read(max_bytes + 1)
        except (OSError, ValueError) as err:
            raise DataError(f"Cannot read the uploaded file: {err}.") from None
        if not isinstance(data, (bytes, bytearray, str)):
            raise DataError("The uploaded file gave neither bytes nor text when read.")
        if len(data) > max_bytes:
            raise DataError(too_big)
        return (
            bytes(data) if not isinstance(data, str) else data,
            getattr(source, "name", None) or "uploaded file",
        )
    raise DataError(
        f"load_csv needs the file's bytes, a path to it, or an open file; got a "
        f"{type(source).__name__}."
    )


def _decode(data: bytes, warnings: list[str]) -> tuple[str, str]:
    """Decode bytes: UTF-8 (BOM or not), else Latin-1; refuse non-text files."""
    if data.startswith(b"PK\x03\x04"):
        raise DataError(
            "This looks like an Excel workbook (.xlsx) or a zip archive, not a CSV file. In "
            "your spreadsheet choose 'Save as' / 'Download as' and the format 'CSV UTF-8'."
        )
    if data.startswith(b"\x1f\x8b"):
        raise DataError(
            "This file is gzip-compressed. Decompress it first and upload the .csv inside."
        )
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise DataError(
            "This file is saved as UTF-16 text. Save it as 'CSV UTF-8' (or plain "
            "UTF-8) and upload it again."
        )
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        raise DataError(
            "This looks like an old Excel workbook (.xls), not a CSV file. Save it "
            "as 'CSV UTF-8' and upload that."
        )
    if b"\x00" in data:
        raise DataError(
            "This file contains NUL bytes, so it is not plain text: it may be a spreadsheet, "
            "an image or UTF-16 text. Export your table as 'CSV UTF-8' and upload that."
        )
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return data[3:].decode("utf-8"), "utf-8-sig"
        except UnicodeDecodeError as err:
            raise DataError(
                "The file starts with a UTF-8 marker but is not valid UTF-8 (at byte "
                f"{err.start + 3:,}). Save it again as 'CSV UTF-8'."
            ) from None
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        warnings.append(
            "The file is not valid UTF-8, so it was read as Latin-1 (ISO-8859-1). If accented "
            "letters in the column names look wrong, save the file as 'CSV UTF-8'."
        )
        return data.decode("latin-1"), "latin-1"


# --------------------------------------------------------------------------
# Parsing: the shape of every row, then the values by pandas' C reader
# --------------------------------------------------------------------------

# A line ends at \r\n, \r or \n (as ``newline=""`` reads it); other characters that
# str.splitlines breaks at (\x1c, \u2028, ...) belong to values.
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)?")
#: Rows kept for deciding about the header (the first row and the 50 below it).
_HEAD_ROWS = 51
#: Different spellings of labels read before a label column is called a measurement.
_MAX_LABEL_SPELLINGS = 1_000
#: The characters beyond ASCII that str.strip removes: a file holding one is shaped by csv.
_WIDE_SPACE = re.compile("[\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
#: Bytes per step of the NumPy shape pass: its arrays stay a few MB whatever the file.
_CHUNK = 1 << 18


def _lines(text: str):
    """The lines of ``text`` with their line ends, one at a time.

    ``csv.reader`` takes any iterable of lines; ``io.StringIO`` would copy
    the whole text into a buffer of 4 bytes per character first.
    """
    for match in _LINE.finditer(text):
        line = match.group()
        if line:
            yield line


def _sniff_delimiter(text: str) -> str:
    lines = [ln for ln in text[:65536].splitlines()[:50] if ln.strip()]
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


def _is_missing(cell: str) -> bool:
    return cell.strip().lower() in MISSING_MARKERS


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return not _is_missing(cell)


def _used_width(row: list[str]) -> int:
    """Values in ``row`` up to its last non-empty one."""
    end = len(row)
    while end > 0 and not row[end - 1].strip():
        end -= 1
    return end


@dataclass
class _Shape:
    """The first rows, and per row (blank ones skipped) its line, widths and record.

    ``records`` counts every record of the file, blank ones too, as pandas
    numbers the rows it reads with ``skip_blank_lines=False``.
    """

    head: list
    lines: np.ndarray  # the line each row ends on (1 = first)
    widths: np.ndarray  # values in the row
    used: np.ndarray  # values up to its last non-empty one
    records: np.ndarray
    n_records: int


def _csv_error(err: csv.Error, line: int) -> DataError:
    msg = str(err)
    if "field larger than field limit" in msg:
        return DataError(
            f"Near line {line} a single value is longer than {csv.field_size_limit():,} "
            "characters; this does not look like a table of numbers (perhaps an opening quote "
            "is never closed)."
        )
    return DataError(f"The file cannot be read as CSV near line {line}: {msg}.")


def _check_caps(row: list[str], line: int, n_rows: int, limits: CSVLimits) -> None:
    """Refuse a row (the ``n_rows``-th, counting from 0) that breaks one of the caps."""
    max_columns, max_cell_chars = limits.max_columns, limits.max_cell_chars
    if len(row) > max_columns and any(c.strip() for c in islice(row, max_columns, None)):
        raise DataError(
            f"Line {line} has {len(row):,} values, more than the limit of {max_columns:,} "
            "columns. Use fewer columns, or raise max_columns if you run Perceptron Lab "
            "yourself."
        )
    longest = max(map(len, row))
    if longest > max_cell_chars:
        position = [len(c) for c in row].index(longest) + 1
        raise DataError(
            f"Line {line}, column {position} holds a value of {longest:,} characters, "
            f"longer than the limit of {max_cell_chars:,} (a number needs fewer than "
            "30). This does not look like a table of numbers: perhaps a quote is never "
            "closed, or the column holds long text; remove that column, or raise "
            "max_cell_chars if you run Perceptron Lab yourself."
        )
    if n_rows > limits.max_rows:  # one more row than allowed: a header is allowed
        raise DataError(
            f"The file has more than {limits.max_rows:,} rows, the limit. Use a sample of the "
            "rows, or raise max_rows if you run Perceptron Lab yourself."
        )


def _scan_csv(text: str, delimiter: str, limits: CSVLimits, stop: int | None = None) -> _Shape:
    """The shapes by the :mod:`csv` module, each row checked against the caps.

    Reads ``stop`` rows at most (blank ones not counted); keeps none but the first ones.
    """
    head: list[list[str]] = []
    columns = [array("q") for _ in range(4)]
    lines, widths, used, records = columns
    reader = csv.reader(_lines(text), delimiter=delimiter)
    record = -1
    try:
        for record, row in enumerate(reader):
            if not any(map(str.strip, row)):
                continue
            if len(lines) == stop:
                break
            _check_caps(row, reader.line_num, len(lines), limits)
            lines.append(reader.line_num)
            widths.append(len(row))
            used.append(len(row) if row[-1].strip() else _used_width(row))
            records.append(record)
            if len(head) < _HEAD_ROWS:
                head.append(row)
    except csv.Error as err:
        raise _csv_error(err, reader.line_num) from None
    lines_at, widths_at, used_at, records_at = (np.array(c, dtype=np.int64) for c in columns)
    return _Shape(head, lines_at, widths_at, used_at, records_at, record + 1)


def _chunk_end(body: bytes, start: int, stop: int) -> int:
    """Where a step of the shape pass ends: after a line end, never between \\r and \\n."""
    if stop >= len(body):
        return len(body)
    ends = [body.rfind(b"\n", start, stop), body.rfind(b"\r", start, stop)]
    if max(ends) < 0:  # one line longer than a step: up to its end
        ends = [i for i in (body.find(b"\n", stop), body.find(b"\r", stop)) if i >= 0]
        if not ends:
            return len(body)
        ends = [min(ends)]
    cut = max(ends) + 1
    return cut + (body[cut : cut + 1] == b"\n")


def _scan_bytes(body: bytes, offset: int, delimiter: str):
    """``(widths, used, longest)`` of every line of a file without quotes, by NumPy.

    ``longest`` is the longest value of the line in bytes, which no value
    has fewer of than characters; a line of empty values has ``used`` 0.
    The bytes are read in steps of :data:`_CHUNK`, so the arrays stay small
    whatever the file.
    """
    out: tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray]] = ([], [], [])
    start, delim = offset, ord(delimiter)
    while start < len(body):
        stop = _chunk_end(body, start, start + _CHUNK)
        c = np.frombuffer(body, dtype=np.uint8, count=stop - start, offset=start)
        start = stop
        newline, end = c == 10, c == 13
        end[:-1] &= ~newline[1:]  # the \r of \r\n is not a line end of its own
        end |= newline
        seps = np.flatnonzero(end | (c == delim))  # where each value ends
        if end[-1]:
            line_end = end[seps]
        else:  # the file's last line has no line end
            seps = np.append(seps, len(c))
            line_end = np.append(end[seps[:-1]], True)
        after = np.r_[0, seps[:-1] + 1]  # where each value starts
        # the bytes str.strip keeps (it removes 9-13 and 28-32), other than the delimiter
        content = ((c > 32) | (c < 9) | ((c > 13) & (c < 28))) & (c != delim)
        counted = np.r_[0, np.cumsum(content, dtype=np.int32)]
        filled = counted[seps] > counted[after]
        first = np.r_[0, np.flatnonzero(line_end[:-1]) + 1]  # each line's first value
        widths = np.diff(np.r_[first, len(seps)])
        position = np.arange(1, len(seps) + 1) - np.repeat(first, widths)
        out[0].append(widths)
        out[1].append(np.maximum.reduceat(position * filled, first))
        out[2].append(np.maximum.reduceat(seps - after, first))
    return tuple(np.concatenate(parts) if parts else np.zeros(0, np.int64) for parts in out)


_LINE_END = re.compile(rb"\r\n|\r|\n")


def _after_line(body: bytes, offset: int, line: int) -> int:
    """Where in ``body`` line ``line`` (1 = the first) has ended."""
    end = next(islice(_LINE_END.finditer(body, offset), line - 1, None), None)
    return end.end() if end else len(body)


def _scan(text: str, body: bytes, offset: int, delimiter: str, limits: CSVLimits) -> _Shape:
    """Every row's line and widths, with the caps checked and the first rows kept.

    The first rows are read by :mod:`csv` (a row breaking a cap is refused
    before the rest is read). A file without quotes, whose delimiter and
    spaces are ASCII, is then shaped by :func:`_scan_bytes`; any other, or
    one that may break a cap further down (a value has more bytes than the
    cap allows characters), by :mod:`csv` row by row, which decides and names
    the line.
    """
    head = _scan_csv(text, delimiter, limits, stop=_HEAD_ROWS)
    if '"' in text or not delimiter.isascii() or (not text.isascii() and _WIDE_SPACE.search(text)):
        return _scan_csv(text, delimiter, limits)
    widths, used, longest = _scan_bytes(body, offset, delimiter)
    rows = np.flatnonzero(used > 0)
    if (
        len(rows) > limits.max_rows + 1
        or (used > limits.max_columns).any()
        or (longest[rows] > limits.max_cell_chars).any()
    ):
        return _scan_csv(text, delimiter, limits)
    return _Shape(head.head, rows + 1, widths[rows], used[rows], rows, len(widths))


def _table_width(shape: _Shape) -> int:
    """The first row's width, not counting empty cells at its end (trailing delimiters)
    unless later rows have values in those columns."""
    width = int(shape.used[0])
    if shape.widths[0] > width:
        later = int(shape.used[1:].max(initial=0))
        width = max(width, min(int(shape.widths[0]), later))
    return width


def _check_row_widths(shape: _Shape, start: int, width: int, has_header: bool) -> None:
    """Every data row has ``width`` values (empty cells past the end do not count)."""
    widths, used = shape.widths[start:], shape.used[start:]
    wrong = np.flatnonzero((widths != width) & ((widths < width) | (used > width)))
    if len(wrong):
        k = int(wrong[0])
        raise DataError(
            f"Line {shape.lines[start + k]} has {widths[k]} values but "
            f"{'the header has' if has_header else 'the first row has'} {width}. Every row "
            "needs the same number of values; look for a missing value or for a delimiter "
            "inside a value that is not in quotes."
        )


class _Column:
    """What was learnt about one feature column beyond its numbers."""

    __slots__ = ("decimal_comma", "first_text", "lost", "rescued")

    def __init__(self, decimal_comma: bool):
        self.decimal_comma = decimal_comma  # may "3,14" mean 3.14 (not a comma-delimited file)
        # (data row, value) of the first value that is not a number
        self.first_text: tuple[int, str] | None = None
        self.rescued = False  # some value was read with the comma as decimal point
        self.lost = False  # some value is text: the column is dropped

    def read(self, cells, values: np.ndarray) -> None:
        """Put the number of each cell in ``values``: NaN if missing; stop at text."""
        for i, cell in enumerate(cells):
            try:
                values[i] = float(cell)
                continue
            except ValueError:
                pass
            s = cell.strip()
            if s.lower() in MISSING_MARKERS:
                values[i] = math.nan
                continue
            if self.first_text is None:
                self.first_text = (i, cell)
            if self.decimal_comma and "," in s:
                try:
                    values[i] = float(s.replace(",", "."))
                except ValueError:
                    pass
                else:
                    self.rescued = True
                    continue
            self.lost = True  # the column is dropped: its other values do not matter
            return


@dataclass
class _Values:
    """What :func:`_read_values` returns."""

    table: np.ndarray  # (rows, columns other than the label), NaN where missing or text
    columns: list  # a _Column per column of ``table``
    spellings: list  # the label values as written, in order of appearance
    codes: np.ndarray  # per row, its label's index in ``spellings``


def _read_values(
    body: bytes,
    offset: int,
    encoding: str,
    delimiter: str,
    shape: _Shape,
    start: int,
    width: int,
    label_idx: int,
    label_name: str,
) -> _Values:
    """The numbers into one float64 array, the labels as codes of their spellings.

    pandas' C reader splits the rows and reads the numbers; a column it
    cannot read as numbers is read again as text and its values one by one
    (missing markers, decimal commas, the first text for the message).
    """
    import pandas as pd  # here, not at the top: importing perceptron_core stays fast

    features = [j for j in range(width) if j != label_idx]
    # pandas reads from just after the header row (its names would make every column text)
    skipped = int(shape.records[0]) + 1 if start else 0
    begin = _after_line(body, offset, int(shape.lines[0])) if start else offset
    rows = shape.records[start:] - skipped
    options = dict(
        sep=delimiter,
        header=None,
        names=range(width),
        usecols=range(width),
        index_col=False,
        skip_blank_lines=False,
        keep_default_na=False,
        encoding=encoding,
        engine="c",
    )
    try:
        stream = io.BytesIO(body)
        stream.seek(begin)
        with catch_warnings():  # a column of numbers and text is read again as text below
            simplefilter("ignore", pd.errors.DtypeWarning)
            frame = pd.read_csv(
                stream,
                dtype={label_idx: object},
                na_values=dict.fromkeys(features, sorted(_MISSING_SPELLINGS)),
                **options,
            )
        if len(frame) != shape.n_records - skipped:
            raise ValueError(f"{len(frame):,} rows where {shape.n_records - skipped:,} were found")
    except (ValueError, pd.errors.ParserError) as err:
        raise DataError(
            f"The file cannot be read as CSV ({str(err).strip()[:200]}). Look for "
            "a quote that is never closed."
        ) from None
    # the labels as written, then as stripped: strip() once per different spelling
    written, spellings = pd.factorize(
        frame[label_idx].to_numpy(dtype=object)[rows], use_na_sentinel=False
    )
    stripped: dict[str, int] = {}
    same = [
        stripped.setdefault(s.strip() if isinstance(s, str) else "", len(stripped))
        for s in spellings
    ]
    codes, spellings = np.array(same, dtype=np.int64)[written], list(stripped)
    if len(spellings) > _MAX_LABEL_SPELLINGS:
        raise DataError(
            f"The label column {_quoted(label_name)} has more than "
            f"{_MAX_LABEL_SPELLINGS:,} different values; a classifier needs a few "
            f"classes (two for a binary task, at most {_MAX_CLASSES} for a multi-class "
            "one). It looks like a measurement or an identifier rather than a class; "
            "choose another label column."
        )
    table = np.empty((len(rows), width - 1))
    columns = [_Column(delimiter != ",") for _ in features]
    text = [k for k, j in enumerate(features) if frame[j].dtype.kind not in "fiu"]
    for k, j in enumerate(features):
        if k not in text:
            table[:, k] = frame[j].to_numpy(dtype=np.float64)[rows]
    del frame
    if text:  # read as written: pandas turns true/false into booleans, mixes types per block
        stream.seek(begin)
        cells = pd.read_csv(
            stream,
            dtype=object,
            na_filter=False,
            **(options | {"usecols": [features[k] for k in text]}),
        )
        for k in text:
            columns[k].read(cells[features[k]].to_numpy(dtype=object)[rows], table[:, k])
    return _Values(table, columns, spellings, codes)


def _detect_header(rows: list[list[str]]) -> bool:
    first, rest = rows[0], rows[1:]
    if not any(_is_number(c) for c in first):
        return True
    for j, cell in enumerate(first):
        if _is_number(cell) or _is_missing(cell):
            continue
        below = [r[j] for r in rest if j < len(r) and not _is_missing(r[j])]
        if below and all(_is_number(c) for c in below):
            return True
    return False


def _column_names(header: list[str], width: int) -> tuple[list[str], list[str]]:
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
                renamed.append(f"column {j + 1} {_quoted(name)} is called {_quoted(unique)}")
        used.add(unique)
        names.append(unique)
    return names, renamed


def _quoted(value, limit: int = 40) -> str:
    """A value from the file for a message: quoted, and cut to ``limit`` characters."""
    value = str(value).strip()
    return repr(value if len(value) <= limit else value[:limit] + "...")


def _pick_label(label_column, names: list[str], has_header: bool) -> int:
    width = len(names)
    if label_column is None:
        return width - 1
    if isinstance(label_column, bool) or not isinstance(label_column, (int, np.integer, str)):
        raise DataError(
            f"label_column must be a column name or a position (0 = first); got "
            f"{_quoted(label_column)}."
        )
    if isinstance(label_column, str):
        if not has_header:
            raise DataError(
                f"The file has no header row, so its columns have no names and "
                f"label_column={_quoted(label_column)} cannot be found. Give the label column's "
                "position instead (0 = first, -1 = last)."
            )
        if label_column in names:
            return names.index(label_column)
        folded = [n.casefold() for n in names]
        if label_column.strip().casefold() in folded:
            return folded.index(label_column.strip().casefold())
        shown = ", ".join(_quoted(n) for n in names[:20]) + (" ..." if width > 20 else "")
        raise DataError(
            f"There is no column called {_quoted(label_column)}. The columns are: {shown}."
        )
    j = int(label_column)
    if not -width <= j < width:
        raise DataError(
            f"label_column={j} is outside the {width} columns (positions 0 to "
            f"{width - 1}, or -1 for the last)."
        )
    return j % width


# --------------------------------------------------------------------------
# The loader
# --------------------------------------------------------------------------


def load_csv(
    source,
    label_column=None,
    *,
    task: str = "binary",
    positive_label=None,
    nan_policy: str = "reject",
    delimiter: str | None = None,
    header="auto",
    limits: CSVLimits | None = None,
) -> CSVData:
    """Read a CSV file into features and labels, explaining every decision.

    The steps and rules are listed in the module docstring.

    Parameters
    ----------
    source : bytes, str, os.PathLike or file-like
        The file's bytes (e.g. ``uploaded.getvalue()``), a path, or an open
        file (binary or text). A ``str`` is a path; pass CSV text as bytes.
    label_column : str or int, optional
        Name (needs a header row) or position (0 = first, -1 = last) of the
        label column. Default: the last column.
    task : {"binary", "multiclass"}, default="binary"
        A binary task needs exactly two label values; a multi-class one at
        least two (at most 100).
    positive_label : str, optional
        For a binary task, the label value to call +1 (as written in the
        file). Default: the second value in sorted order (``1`` of 0/1 or
        -1/1, ``yes`` of no/yes).
    nan_policy : {"reject", "drop"}, default="reject"
        What to do with rows that have a missing or infinite feature value or
        a missing label: stop with an error naming the first one, or drop them
        (and say how many).
    delimiter : str, optional
        One character; default: detected among ``, ; tab |``.
    header : {"auto", True, False}, default="auto"
        Whether the first row holds the column names.
    limits : CSVLimits, optional
        The caps on size, rows, columns and value length (default:
        ``CSVLimits()``, 20 MB, 200,000 data rows, 2,000 columns, 1,000
        characters per value).

    Returns
    -------
    CSVData
        ``X``, ``y``, names, the label mapping and ``warnings``.

    Raises
    ------
    DataError
        For anything that prevents reading the file as a classification
        table; the message says what was found and what is needed.

    Examples
    --------
    >>> from perceptron_core.datasets import load_csv
    >>> data = load_csv(b"height,weight,name,sport\\n1.8,80,Ann,rugby\\n1.6,50,Bo,golf\\n"
    ...                 b"1.7,NA,Cy,golf\\n", nan_policy="drop")
    >>> data.X, data.y, data.feature_names
    (array([[ 1.8, 80. ],
           [ 1.6, 50. ]]), array([ 1, -1]), ['height', 'weight'])
    >>> for w in data.warnings:
    ...     print(w)
    The first row was read as column names.
    Dropped 1 column that is not numeric: 'name' (text such as 'Ann' on line 2).
    Dropped 1 row with a missing or infinite value (first: line 4, column 'weight').
    Labels from column 'sport': 'golf' -> -1, 'rugby' -> +1.
    """
    warnings: list[str] = []
    limits = CSVLimits() if limits is None else limits
    _check_options(task, nan_policy, delimiter, header, limits)
    (body, offset), encoding, name, delim, shape, has_header, names = _layout(
        source, delimiter, header, limits, warnings
    )
    start, width = int(has_header), len(names)

    label_idx = _pick_label(label_column, names, has_header)
    label_name = names[label_idx]
    values = _read_values(
        body,
        offset,
        _PANDAS_ENCODING.get(encoding, encoding),
        delim,
        shape,
        start,
        width,
        label_idx,
        label_name,
    )
    del body
    lines = shape.lines[start:]
    X, feature_names, dropped = _features(
        values, names[:label_idx] + names[label_idx + 1 :], lines, label_name, warnings
    )

    # ---- labels and bad rows
    missing_label = np.array([_is_missing(s) for s in values.spellings], dtype=bool)
    label_missing = missing_label[values.codes]
    bad_rows = ~np.isfinite(X).all(axis=1) | label_missing
    codes = values.codes
    if bad_rows.any():
        first = int(np.flatnonzero(bad_rows)[0])
        if label_missing[first]:
            where = f"line {lines[first]}, the label is missing"
        else:
            col = feature_names[int(np.flatnonzero(~np.isfinite(X[first]))[0])]
            where = f"line {lines[first]}, column {_quoted(col)}"
        n_bad = int(bad_rows.sum())
        if nan_policy == "reject":
            raise DataError(
                f"{n_bad} row{'s have' if n_bad > 1 else ' has'} a missing or infinite value "
                f"(first: {where}). Fill in the missing values, or choose to drop these rows "
                "(nan_policy='drop')."
            )
        warnings.append(
            f"Dropped {n_bad} row{'s' if n_bad > 1 else ''} with a missing or "
            f"infinite value (first: {where})."
        )
        keep = ~bad_rows
        X, codes = X[keep], codes[keep]
        if X.shape[0] == 0:
            raise DataError(
                "No row is left after dropping the rows with missing or infinite values."
            )
    y, class_names, labels = _encode_labels(
        values.spellings, codes, label_name, task, positive_label
    )
    # a binary task's labels are -1 and +1; a multi-class task numbers its classes 0, 1, 2, ...
    mapping = ", ".join(
        f"{_quoted(c)} -> {v:+d}" if task == "binary" else f"{_quoted(c)} -> {v}"
        for c, v in zip(class_names, labels)
    )
    warnings.append(f"{LABELS_NOTE} {_quoted(label_name)}: {mapping}.")
    return CSVData(
        X=np.ascontiguousarray(X, dtype=np.float64),
        y=y,
        feature_names=feature_names,
        label_name=label_name,
        class_names=class_names,
        labels=labels,
        warnings=warnings,
        dropped_columns=dropped,
        n_dropped_rows=int(bad_rows.sum()),
        encoding=encoding,
        delimiter=delim,
        name=name,
    )


def _layout(source, delimiter, header, limits: CSVLimits, warnings: list[str]):
    """Steps 1-5 of the module docstring: ``((bytes, where the text starts in them),
    encoding, name, delimiter, shape, has_header, column names)``, with the notes on the
    header in ``warnings``."""
    raw, name = _read_source(source, limits.max_bytes)
    text, encoding = _text(raw, warnings)
    delim = delimiter or _sniff_delimiter(text)
    body = text.encode("utf-8", "replace") if encoding == "text" else raw
    offset = 3 if encoding == "utf-8-sig" else 0
    shape = _scan(text, body, offset, delim, limits)
    del text
    if not len(shape.lines):
        raise DataError("The file has no rows with values.")
    has_header = _detect_header(shape.head) if header == "auto" else bool(header)
    width = _table_width(shape)
    names, renamed = _column_names(shape.head[0] if has_header else [], width)
    start = int(has_header)
    n_rows = len(shape.lines) - start
    if n_rows == 0:
        raise DataError("The file has a header row but no rows of data.")
    if n_rows > limits.max_rows:
        raise DataError(
            f"The file has {n_rows:,} rows of data, more than the limit of "
            f"{limits.max_rows:,}. Use a sample of the rows."
        )
    if width < 2:
        raise DataError(
            f"Only one column was found (delimiter: {_DELIMITER_NAMES.get(delim, repr(delim))}). "
            "A classification table needs at least one feature column and a label column; "
            "check that the values are separated by commas, semicolons or tabs."
        )
    if width > limits.max_columns:
        raise DataError(
            f"The file has {width:,} columns, more than the limit of {limits.max_columns:,}."
        )
    if header == "auto":
        warnings.append(
            "The first row was read as column names."
            if has_header
            else "No header row was found, so the columns are named 'column 1', 'column 2', ..."
        )
    if renamed:
        more = f"; and {len(renamed) - 10} more" if len(renamed) > 10 else ""
        warnings.append(
            "Some columns have the same name, so they were renamed: "
            + "; ".join(renamed[:10])
            + more
            + "."
        )
    _check_row_widths(shape, start, width, has_header)
    return (body, offset), encoding, name, delim, shape, has_header, names


class CSVColumns(NamedTuple):
    """What :func:`csv_columns` returns: every column's name, in the file's order, and
    whether the first row holds them (else they are ``column 1``, ``column 2``, ...)."""

    names: list[str]
    has_header: bool


def csv_columns(
    source, *, delimiter: str | None = None, header="auto", limits: CSVLimits | None = None
) -> CSVColumns:
    """The columns of a CSV file, read as :func:`load_csv` reads them, before a label is chosen.

    A label column is then named (``names[j]``, when ``has_header``) or
    given by position (``j``, which a file without a header row needs) to
    :func:`load_csv`. Every column is listed, also those ``load_csv`` would
    drop as not numeric (a label may be text). Refuses what ``load_csv``
    refuses about the file itself (size, encoding, shape) with the same
    :class:`~perceptron_core.datasets.DataError`.

    Examples
    --------
    >>> csv_columns(b"1.5,2,yes\\n0.5,1,no\\n")
    CSVColumns(names=['column 1', 'column 2', 'column 3'], has_header=False)
    >>> csv_columns(b"height,sport\\n1.8,rugby\\n").names
    ['height', 'sport']
    """
    limits = CSVLimits() if limits is None else limits
    _check_options("binary", "reject", delimiter, header, limits)
    *_, has_header, names = _layout(source, delimiter, header, limits, [])
    return CSVColumns(names, has_header)


def _text(raw, warnings: list[str]) -> tuple[str, str]:
    """The file as text, and how it was decoded; an empty file is refused."""
    if isinstance(raw, str):
        if "\x00" in raw:
            raise DataError("This text contains NUL characters, so it is not a CSV table.")
        text, encoding = raw.lstrip("\ufeff"), "text"
    elif not raw or raw.isspace():
        text, encoding = "", "utf-8"
    else:
        text, encoding = _decode(raw, warnings)
    if not text or text.isspace():
        raise DataError(
            "The file is empty. Upload a CSV table with a header row and at least "
            "two rows of data."
        )
    return text, encoding


def _features(
    values: _Values, names: list[str], lines: np.ndarray, label_name: str, warnings: list[str]
):
    """``(X, feature names, dropped columns)``: the numeric columns, and why others went."""
    kept, dropped, decimal_comma = [], {}, []
    for k, column in enumerate(values.columns):
        if column.lost:
            row, text = column.first_text
            dropped[names[k]] = f"text such as {_quoted(text)} on line {lines[row]}"
        elif np.isnan(values.table[:, k]).all():
            dropped[names[k]] = "no values at all"
        else:
            kept.append(k)
            if column.rescued:
                decimal_comma.append(names[k])
    if decimal_comma:
        warnings.append(
            "Read with the comma as decimal point: "
            + ", ".join(_quoted(n) for n in decimal_comma[:10])
            + (" ..." if len(decimal_comma) > 10 else "")
            + "."
        )
    if dropped:
        items = list(dropped.items())
        shown = "; ".join(f"{_quoted(n)} ({why})" for n, why in items[:10])
        more = f"; and {len(items) - 10} more" if len(items) > 10 else ""
        word = "column that is" if len(items) == 1 else "columns that are"
        warnings.append(f"Dropped {len(items)} {word} not numeric: {shown}{more}.")
    if not kept:
        raise DataError(
            f"No numeric feature column is left (the label column is {_quoted(label_name)}). "
            "The perceptron needs numbers; encode categories as numbers (e.g. one 0/1 column "
            "per category) before uploading."
        )
    # every column kept: the table itself, no copy
    X = values.table if len(kept) == len(names) else values.table[:, kept]
    return X, [names[k] for k in kept], dropped


def _check_options(task, nan_policy, delimiter, header, limits):
    if task not in ("binary", "multiclass"):
        raise DataError(f"load_csv: task must be 'binary' or 'multiclass'; got {task!r}.")
    if nan_policy not in ("reject", "drop"):
        raise DataError(f"load_csv: nan_policy must be 'reject' or 'drop'; got {nan_policy!r}.")
    if delimiter is not None and (
        not isinstance(delimiter, str) or len(delimiter) != 1 or delimiter in '"\r\n'
    ):
        raise DataError(
            "load_csv: delimiter must be a single character such as ',' ';' or a "
            f"tab, other than a quote or a line break; got {delimiter!r}."
        )
    if not (header == "auto" or header is True or header is False):
        raise DataError(f"load_csv: header must be 'auto', True or False; got {header!r}.")
    if not isinstance(limits, CSVLimits):
        raise DataError(f"load_csv: limits must be a CSVLimits(...); got {limits!r}.")


def _label_key(values: list[str]):
    """Exact numeric keys when every label is a finite number, else None (text labels).

    Decimals, not floats: ``100000000000000001`` and ``100000000000000000``
    are one float64 but two classes; ``1`` and ``1.0`` are one number.
    """
    try:
        nums = [Decimal(v) for v in values]
    except InvalidOperation:
        return None
    if not all(v.is_finite() for v in nums):
        return None
    return nums


#: Normalising in this context never rounds (a cell may hold more digits than the default 28).
_EXACT = Context(prec=MAX_PREC)


def _format_number(v: Decimal) -> str:
    """A label value as a class name: ``1`` for ``1.0``, ``2.5`` for ``2.50``, exactly.

    Examples
    --------
    >>> _format_number(Decimal("100000000000000001.0")), _format_number(Decimal("2.50"))
    ('100000000000000001', '2.5')
    """
    if v.adjusted() < 40 and v == v.to_integral_value():  # a whole number: all its digits
        return str(int(v))
    return str(v.normalize(_EXACT))


def _encode_labels(
    spellings: list[str], codes: np.ndarray, label_name: str, task: str, positive_label
):
    """``(y, class names, labels)`` from each row's index into ``spellings``.

    Only the spellings that rows still use count (dropped rows take theirs
    with them); numeric spellings of one number (``1``, ``1.0``) are one class.
    """
    present, codes = np.unique(codes, return_inverse=True)
    spellings = [spellings[c] for c in present]
    nums = _label_key(spellings)
    if nums is not None:
        uniq = sorted(set(nums))
        index = {v: i for i, v in enumerate(uniq)}
        class_of = np.array([index[v] for v in nums], dtype=np.int64)
        names = [_format_number(v) for v in uniq]
    else:
        uniq = names = sorted(spellings)
        index = {n: i for i, n in enumerate(names)}
        class_of = np.array([index[v] for v in spellings], dtype=np.int64)
    classes = class_of[codes]
    k = len(names)
    label = _quoted(label_name)
    if k < 2:
        raise DataError(
            f"The label column {label} has only one value ({_quoted(names[0])}) in every "
            "row. A classifier needs examples of two classes; pick another label column or "
            "add examples of the other class."
        )
    if task == "binary" and k != 2:
        shown = ", ".join(_quoted(n) for n in names[:8]) + (" ..." if k > 8 else "")
        hint = (
            " It looks like a measurement rather than a class."
            if nums is not None and k > 20
            else ""
        )
        raise DataError(
            f"The label column {label} has {k} different values ({shown}) but a binary "
            f"task needs exactly two.{hint} Choose another label column, merge the classes "
            "into two, or use a multi-class task."
        )
    if task == "multiclass" and k > _MAX_CLASSES:
        raise DataError(
            f"The label column {label} has {k} different values, more than "
            f"{_MAX_CLASSES} classes. It looks like a measurement or an identifier rather than "
            "a class; choose another label column."
        )
    if task == "multiclass":
        if positive_label is not None:
            raise DataError(
                "load_csv: positive_label applies to binary tasks only; a "
                "multi-class task numbers the classes 0, 1, 2, ..."
            )
        return classes.astype(np.int64), names, list(range(k))
    pos = 1
    if positive_label is not None:
        target = str(positive_label).strip()
        matches = [i for i, n in enumerate(names) if n == target]
        if not matches and nums is not None:
            try:
                matches = [i for i, v in enumerate(uniq) if Decimal(target) == v]
            except InvalidOperation:
                matches = []
        if not matches:
            raise DataError(
                f"positive_label={_quoted(positive_label)} is not one of the two "
                f"label values {_quoted(names[0])} and {_quoted(names[1])}."
            )
        pos = matches[0]
    y = np.where(classes == pos, 1, -1).astype(np.int64)
    return y, [names[1 - pos], names[pos]], [-1, 1]
