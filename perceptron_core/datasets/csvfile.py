"""Reading a CSV file a person uploads, with explanations instead of surprises.

:func:`load_csv` turns the bytes of a file into ``X, y`` for a classifier,
and reports every decision it took in plain words (``warnings``) so the app
can show them. It never guesses silently and raises only
:class:`~perceptron_core.datasets.DataError`. It needs the standard
:mod:`csv` module and NumPy only.

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
   (``header="auto"``); ``header=True/False`` decides explicitly.
5. **Shape**: blank lines are skipped; every other row must have as many
   values as the header (empty trailing cells are ignored). Caps on rows
   and columns apply.
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
   labels are compared as numbers (``1`` and ``1.0`` are one class).
"""

from __future__ import annotations

import csv
import io
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ._common import DataError

#: Cell values read as "missing" (compared after stripping, case-insensitively).
MISSING_MARKERS = frozenset({"", "na", "n/a", "nan", "null", "none", "?", "-"})

_DELIMITERS = (",", ";", "\t", "|")
_DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "vertical bar"}
_MAX_CLASSES = 100


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
            name=self.name, title=self.name,
            description=f"CSV file with label column {self.label_name!r}",
            source=self.name, licence="as provided by the user", shape=tuple(self.X.shape),
            feature_names=tuple(self.feature_names), class_names=tuple(self.class_names),
            labels=tuple(self.labels), class_counts=counts, notes=" ".join(self.warnings),
        )


# --------------------------------------------------------------------------
# Reading and decoding
# --------------------------------------------------------------------------


def _read_source(source, max_bytes: int):
    """Return ``(bytes_or_text, name)``, refusing anything larger than ``max_bytes``."""
    too_big = (f"The file is larger than the limit of {max_bytes:,} bytes. Use a smaller file "
                "(fewer rows or columns), or raise max_bytes if you run Perceptron Lab "
                "yourself.")
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
            raise DataError(f"Cannot read the file {str(source)[:200]!r}: {reason}. (A string "
                            "is read as a file path; pass CSV text as bytes.)") from None
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
        return (bytes(data) if not isinstance(data, str) else data,
                getattr(source, "name", None) or "uploaded file")
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
        raise DataError("This file is gzip-compressed. Decompress it first and upload the .csv "
                        "inside.")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise DataError("This file is saved as UTF-16 text. Save it as 'CSV UTF-8' (or plain "
                        "UTF-8) and upload it again.")
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        raise DataError("This looks like an old Excel workbook (.xls), not a CSV file. Save it "
                        "as 'CSV UTF-8' and upload that.")
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
# Parsing
# --------------------------------------------------------------------------


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


def _to_float(cell: str):
    """A float, None for a missing marker, or raise ValueError for text."""
    s = cell.strip()
    if s.lower() in MISSING_MARKERS:
        return None
    return float(s)


def _is_number(cell: str) -> bool:
    try:
        return _to_float(cell) is not None
    except ValueError:
        return False


def _numeric_column(values: list[str]):
    """Return ``(array with NaN for missing, first bad value or None)``."""
    arr = np.array(values, dtype=str)
    if arr.size == 0:
        return np.zeros(0), None
    low = np.char.lower(np.char.strip(arr))
    missing = np.isin(low, list(MISSING_MARKERS))
    filled = np.where(missing, "nan", arr)
    try:
        return filled.astype(np.float64), None
    except ValueError:
        pass
    out = np.empty(len(values))
    for i, v in enumerate(values):
        try:
            f = _to_float(v)
        except ValueError:
            return None, (i, v)
        out[i] = np.nan if f is None else f
    return out, None


def _parse_rows(text: str, delimiter: str, max_rows: int, max_columns: int):
    """All non-blank rows as lists of strings, with their line numbers."""
    rows, lines = [], []
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        for row in reader:
            if not row or all(not c.strip() for c in row):
                continue
            if len(row) > max_columns and any(c.strip() for c in row[max_columns:]):
                raise DataError(
                    f"Line {reader.line_num} has {len(row):,} values, more than the limit of "
                    f"{max_columns:,} columns. Use fewer columns, or raise max_columns if you run "
                    "Perceptron Lab yourself."
                )
            rows.append(row)
            lines.append(reader.line_num)
            if len(rows) > max_rows + 1:  # + 1 for a possible header
                raise DataError(
                    f"The file has more than {max_rows:,} rows, the limit. Use a sample of the "
                    "rows, or raise max_rows if you run Perceptron Lab yourself."
                )
    except csv.Error as err:
        msg = str(err)
        if "field larger than field limit" in msg:
            raise DataError(
                f"Near line {reader.line_num} a single value is longer than "
                f"{csv.field_size_limit():,} characters; this does not look like a table of "
                "numbers (perhaps an opening quote is never closed)."
            ) from None
        raise DataError(f"The file cannot be read as CSV near line {reader.line_num}: {msg}.") \
            from None
    return rows, lines


def _rstrip_empty(row: list[str]) -> list[str]:
    end = len(row)
    while end > 0 and not row[end - 1].strip():
        end -= 1
    return row[:end]


def _trim(row: list[str], width: int) -> list[str]:
    """Drop empty cells past ``width`` (trailing delimiters)."""
    if len(row) > width and not any(c.strip() for c in row[width:]):
        return row[:width]
    return row


def _detect_header(rows: list[list[str]]) -> bool:
    first, rest = rows[0], rows[1:51]
    if not any(_is_number(c) for c in first):
        return True
    for j, cell in enumerate(first):
        if _is_number(cell) or _is_missing(cell):
            continue
        below = [r[j] for r in rest if j < len(r) and not _is_missing(r[j])]
        if below and all(_is_number(c) for c in below):
            return True
    return False


def _column_names(header: list[str], width: int) -> list[str]:
    names, seen = [], {}
    for j in range(width):
        raw = header[j].strip() if j < len(header) else ""
        name = raw or f"column {j + 1}"
        if name in seen:
            seen[name] += 1
            name = f"{name} ({seen[name]})"
        else:
            seen[name] = 1
        names.append(name)
    return names


def _short(value: str, limit: int = 40) -> str:
    value = value.strip()
    return repr(value if len(value) <= limit else value[:limit] + "...")


def _pick_label(label_column, names: list[str], has_header: bool) -> int:
    width = len(names)
    if label_column is None:
        return width - 1
    if isinstance(label_column, bool) or not isinstance(label_column, (int, np.integer, str)):
        raise DataError(f"label_column must be a column name or a position (0 = first); got "
                        f"{label_column!r}.")
    if isinstance(label_column, str):
        if not has_header:
            raise DataError(
                f"The file has no header row, so its columns have no names and "
                f"label_column={label_column!r} cannot be found. Give the label column's "
                "position instead (0 = first, -1 = last)."
            )
        if label_column in names:
            return names.index(label_column)
        folded = [n.casefold() for n in names]
        if label_column.strip().casefold() in folded:
            return folded.index(label_column.strip().casefold())
        shown = ", ".join(repr(n) for n in names[:20]) + (" ..." if width > 20 else "")
        raise DataError(f"There is no column called {label_column!r}. The columns are: "
                        f"{shown}.")
    j = int(label_column)
    if not -width <= j < width:
        raise DataError(f"label_column={j} is outside the {width} columns (positions 0 to "
                        f"{width - 1}, or -1 for the last).")
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
    max_bytes: int = 20_000_000,
    max_rows: int = 200_000,
    max_columns: int = 2_000,
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
    max_bytes, max_rows, max_columns : int
        Caps (defaults 20 MB, 200,000 data rows, 2,000 columns).

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
    _check_options(task, nan_policy, delimiter, header, max_bytes, max_rows, max_columns)
    raw, name = _read_source(source, max_bytes)
    if isinstance(raw, str):
        text, encoding = raw, "text"
        if "\x00" in text:
            raise DataError("This text contains NUL characters, so it is not a CSV table.")
        text = text.lstrip("\ufeff")
    else:
        if not raw.strip():
            raise DataError("The file is empty. Upload a CSV table with a header row and at "
                            "least two rows of data.")
        text, encoding = _decode(raw, warnings)
    if not text.strip():
        raise DataError("The file is empty. Upload a CSV table with a header row and at least "
                        "two rows of data.")

    delim = delimiter or _sniff_delimiter(text)
    rows, lines = _parse_rows(text, delim, max_rows, max_columns)
    if not rows:
        raise DataError("The file has no rows with values.")
    has_header = _detect_header(rows) if header == "auto" else bool(header)
    # The table's width is the first row's, not counting empty cells at its end (trailing
    # delimiters) unless later rows have values in those columns.
    width = len(_rstrip_empty(rows[0]))
    if len(rows[0]) > width:
        used = max((len(_rstrip_empty(r)) for r in rows[1:]), default=0)
        width = max(width, min(len(rows[0]), used))
    names = _column_names(rows[0] if has_header else [], width)
    data_rows, data_lines = (rows[1:], lines[1:]) if has_header else (rows, lines)
    if not data_rows:
        raise DataError("The file has a header row but no rows of data.")
    if len(data_rows) > max_rows:
        raise DataError(f"The file has {len(data_rows):,} rows of data, more than the limit of "
                        f"{max_rows:,}. Use a sample of the rows.")
    if width < 2:
        raise DataError(
            f"Only one column was found (delimiter: {_DELIMITER_NAMES.get(delim, repr(delim))}). "
            "A classification table needs at least one feature column and a label column; "
            "check that the values are separated by commas, semicolons or tabs."
        )
    if width > max_columns:
        raise DataError(f"The file has {width:,} columns, more than the limit of "
                        f"{max_columns:,}.")
    if header == "auto":
        warnings.append("The first row was read as column names." if has_header else
                        "No header row was found, so the columns are named 'column 1', "
                        "'column 2', ...")
    for i, row in enumerate(data_rows):
        row = _trim(row, width)
        if len(row) != width:
            raise DataError(
                f"Line {data_lines[i]} has {len(row)} values but "
                f"{'the header has' if has_header else 'the first row has'} {width}. Every row "
                "needs the same number of values; look for a missing value or for a delimiter "
                "inside a value that is not in quotes."
            )
        data_rows[i] = row

    label_idx = _pick_label(label_column, names, has_header)
    label_name = names[label_idx]
    columns = list(zip(*data_rows))

    # ---- features
    feature_idx, feature_cols, dropped = [], [], {}
    decimal_comma = []
    for j, column in enumerate(columns):
        if j == label_idx:
            continue
        values, bad = _numeric_column(list(column))
        if values is None and delim != "," and any("," in v for v in column):
            alt, _ = _numeric_column([v.replace(",", ".") for v in column])
            if alt is not None:
                values, bad = alt, None
                decimal_comma.append(names[j])
        if values is None:
            i, v = bad
            dropped[names[j]] = f"text such as {_short(v)} on line {data_lines[i]}"
            continue
        if np.isnan(values).all():
            dropped[names[j]] = "no values at all"
            continue
        feature_idx.append(j)
        feature_cols.append(values)
    if decimal_comma:
        warnings.append("Read with the comma as decimal point: "
                        + ", ".join(repr(n) for n in decimal_comma[:10])
                        + (" ..." if len(decimal_comma) > 10 else "") + ".")
    if dropped:
        items = list(dropped.items())
        shown = "; ".join(f"{n!r} ({why})" for n, why in items[:10])
        more = f"; and {len(items) - 10} more" if len(items) > 10 else ""
        word = "column that is" if len(items) == 1 else "columns that are"
        warnings.append(f"Dropped {len(items)} {word} not numeric: {shown}{more}.")
    if not feature_cols:
        raise DataError(
            f"No numeric feature column is left (the label column is {label_name!r}). The "
            "perceptron needs numbers; encode categories as numbers (e.g. one 0/1 column per "
            "category) before uploading."
        )
    X = np.column_stack(feature_cols)
    feature_names = [names[j] for j in feature_idx]

    # ---- labels and bad rows
    raw_labels = [c.strip() for c in columns[label_idx]]
    label_missing = np.array([_is_missing(v) for v in raw_labels], dtype=bool)
    bad_rows = ~np.isfinite(X).all(axis=1) | label_missing
    if bad_rows.any():
        first = int(np.flatnonzero(bad_rows)[0])
        if label_missing[first]:
            where = f"line {data_lines[first]}, the label is missing"
        else:
            col = feature_names[int(np.flatnonzero(~np.isfinite(X[first]))[0])]
            where = f"line {data_lines[first]}, column {col!r}"
        n_bad = int(bad_rows.sum())
        if nan_policy == "reject":
            raise DataError(
                f"{n_bad} row{'s have' if n_bad > 1 else ' has'} a missing or infinite value "
                f"(first: {where}). Fill in the missing values, or choose to drop these rows "
                "(nan_policy='drop')."
            )
        warnings.append(f"Dropped {n_bad} row{'s' if n_bad > 1 else ''} with a missing or "
                        f"infinite value (first: {where}).")
        keep = ~bad_rows
        X = X[keep]
        raw_labels = [v for v, k in zip(raw_labels, keep) if k]
        if X.shape[0] == 0:
            raise DataError("No row is left after dropping the rows with missing or infinite "
                            "values.")
    y, class_names, labels = _encode_labels(raw_labels, label_name, task, positive_label)
    mapping = ", ".join(f"{c!r} -> {'+1' if v == 1 else v}" for c, v in zip(class_names, labels))
    warnings.append(f"Labels from column {label_name!r}: {mapping}.")
    return CSVData(
        X=np.ascontiguousarray(X, dtype=np.float64), y=y, feature_names=feature_names,
        label_name=label_name, class_names=class_names, labels=labels, warnings=warnings,
        dropped_columns=dropped, n_dropped_rows=int(bad_rows.sum()), encoding=encoding,
        delimiter=delim, name=name,
    )


def _check_options(task, nan_policy, delimiter, header, max_bytes, max_rows, max_columns):
    if task not in ("binary", "multiclass"):
        raise DataError(f"load_csv: task must be 'binary' or 'multiclass'; got {task!r}.")
    if nan_policy not in ("reject", "drop"):
        raise DataError(f"load_csv: nan_policy must be 'reject' or 'drop'; got {nan_policy!r}.")
    if delimiter is not None and (not isinstance(delimiter, str) or len(delimiter) != 1
                                  or delimiter in "\"\r\n"):
        raise DataError("load_csv: delimiter must be a single character such as ',' ';' or a "
                        f"tab, other than a quote or a line break; got {delimiter!r}.")
    if not (header == "auto" or header is True or header is False):
        raise DataError(f"load_csv: header must be 'auto', True or False; got {header!r}.")
    for key, value in (("max_bytes", max_bytes), ("max_rows", max_rows),
                       ("max_columns", max_columns)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise DataError(f"load_csv: {key} must be a whole number of at least 1; got "
                            f"{value!r}.")


def _label_key(values: list[str]):
    """Numeric keys when every label is a finite number, else the strings themselves."""
    try:
        nums = [float(v) for v in values]
    except ValueError:
        return None
    if not all(math.isfinite(v) for v in nums):
        return None
    return nums


def _format_number(v: float) -> str:
    return str(int(v)) if v.is_integer() else repr(v)


def _encode_labels(raw: list[str], label_name: str, task: str, positive_label):
    nums = _label_key(raw)
    if nums is not None:
        keys = np.array(nums)
        uniq = np.unique(keys)
        names = [_format_number(float(v)) for v in uniq]
    else:
        keys = np.array(raw, dtype=object)
        uniq = np.array(sorted(set(raw)), dtype=object)
        names = [str(v) for v in uniq]
    k = len(uniq)
    if k < 2:
        raise DataError(
            f"The label column {label_name!r} has only one value ({names[0]!r}) in every "
            "row. A classifier needs examples of two classes; pick another label column or "
            "add examples of the other class."
        )
    if task == "binary" and k != 2:
        shown = ", ".join(repr(n) for n in names[:8]) + (" ..." if k > 8 else "")
        hint = (" It looks like a measurement rather than a class."
                if nums is not None and k > 20 else "")
        raise DataError(
            f"The label column {label_name!r} has {k} different values ({shown}) but a binary "
            f"task needs exactly two.{hint} Choose another label column, merge the classes "
            "into two, or use a multi-class task."
        )
    if task == "multiclass" and k > _MAX_CLASSES:
        raise DataError(
            f"The label column {label_name!r} has {k} different values, more than "
            f"{_MAX_CLASSES} classes. It looks like a measurement or an identifier rather than "
            "a class; choose another label column."
        )
    codes = np.searchsorted(uniq, keys) if nums is not None else _codes(raw, names)
    if task == "multiclass":
        if positive_label is not None:
            raise DataError("load_csv: positive_label applies to binary tasks only; a "
                            "multi-class task numbers the classes 0, 1, 2, ...")
        return codes.astype(np.int64), names, list(range(k))
    pos = 1
    if positive_label is not None:
        target = str(positive_label).strip()
        matches = [i for i, n in enumerate(names) if n == target]
        if not matches and nums is not None:
            try:
                matches = [i for i, v in enumerate(uniq) if float(target) == v]
            except ValueError:
                matches = []
        if not matches:
            raise DataError(f"positive_label={positive_label!r} is not one of the two label "
                            f"values {names[0]!r} and {names[1]!r}.")
        pos = matches[0]
    y = np.where(codes == pos, 1, -1).astype(np.int64)
    return y, [names[1 - pos], names[pos]], [-1, 1]


def _codes(raw: list[str], names: list[str]) -> np.ndarray:
    index = {n: i for i, n in enumerate(names)}
    return np.array([index[v] for v in raw], dtype=np.int64)
