"""Reading a CSV file a person uploads, with explanations instead of surprises.

:func:`load_csv` turns the bytes of a file into ``X, y`` for a classifier,
and reports every decision it took in plain words (``warnings``) so the app
can show them. It never guesses silently and raises only
:class:`~perceptron_core.datasets.DataError`. pyarrow's CSV reader splits the
rows and reads the numbers; the rules below are this module's.

The steps, in order:

1. **Size**: more than ``max_bytes`` bytes is refused before anything else.
2. **Decoding**: UTF-8 (with or without the byte-order mark Excel writes);
   if that fails, Latin-1 (ISO-8859-1), with a warning. Files that are not
   text (Excel workbooks, zip or gzip archives, UTF-16, anything with NUL
   bytes) are refused with a message saying how to export a CSV.
3. **Delimiter**: comma, semicolon, tab or ``|``, whichever splits the first
   lines into the same number (> 1) of fields most consistently (or the
   ``delimiter`` given). Quotes follow the usual CSV rules; a quote never
   closed by the end of the file is refused.
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

Reading: the first rows are read by :mod:`csv` (steps 3-4 are decided on
them, :mod:`._csv_text`), then every row once by pyarrow's CSV reader, a
block at a time (steps 5 and 7, :mod:`._csv_rows`), the file never held
decoded nor its rows kept: what stays is one float64 array of the values, a
line number per row and the label column's strings (steps 6 and 9,
:mod:`._csv_labels`). So memory follows the size of the file (see
docs/benchmarks.md), never rows x the longest value; values from the file
that appear in messages are cut to 40 characters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ._common import DataError
from ._csv_labels import encode_labels, label_codes, pick_label
from ._csv_text import (
    DELIMITER_NAMES,
    column_names,
    detect_header,
    is_missing,
    open_upload,
    quoted,
    read_head,
    read_source,
    sniff_delimiter,
)
from ._csv_text import (
    MISSING_MARKERS as MISSING_MARKERS,  # a public name of this module
)

if TYPE_CHECKING:
    from ._csv_rows import Rows

#: How the note on the label coding starts (an app that recodes the labels replaces it).
LABELS_NOTE = "Labels from column"


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
    table = _read(source, delimiter, header, limits, warnings, label_column=label_column)
    names, label_idx, rows = table.names, table.label, table.rows
    label_name = names[label_idx]
    if rows.unclosed:
        raise DataError(
            f"The file cannot be read as CSV: a quote in the row on line {rows.unclosed} is "
            "never closed, so its value runs to the end of the file. Close that quote (a "
            'quote inside a quoted value is written twice: "").'
        )
    codes, spellings = label_codes(rows.labels, label_name)
    lines = rows.lines
    X, feature_names, dropped = _features(
        rows, names[:label_idx] + names[label_idx + 1 :], lines, label_name, warnings
    )

    # ---- labels and bad rows
    missing_label = np.array([is_missing(s) for s in spellings], dtype=bool)
    label_missing = missing_label[codes]
    bad_rows = ~np.isfinite(X).all(axis=1) | label_missing
    if bad_rows.any():
        first = int(np.flatnonzero(bad_rows)[0])
        if label_missing[first]:
            where = f"line {lines[first]}, the label is missing"
        else:
            col = feature_names[int(np.flatnonzero(~np.isfinite(X[first]))[0])]
            where = f"line {lines[first]}, column {quoted(col)}"
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
    y, class_names, labels = encode_labels(spellings, codes, label_name, task, positive_label)
    # a binary task's labels are -1 and +1; a multi-class task numbers its classes 0, 1, 2, ...
    mapping = ", ".join(
        f"{quoted(c)} -> {v:+d}" if task == "binary" else f"{quoted(c)} -> {v}"
        for c, v in zip(class_names, labels)
    )
    warnings.append(f"{LABELS_NOTE} {quoted(label_name)}: {mapping}.")
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
        encoding=table.encoding,
        delimiter=table.delimiter,
        name=table.name,
    )


@dataclass
class _Table:
    """What :func:`_read` found: how the file was read, its columns and its rows."""

    encoding: str
    name: str
    delimiter: str
    has_header: bool
    names: list[str]
    label: int  # the label column's position
    rows: Rows


def _read(source, delimiter, header, limits: CSVLimits, warnings: list[str], **label) -> _Table:
    """Steps 1-5 of the module docstring, the notes on the header in ``warnings``. Given a
    ``label_column`` (as :func:`load_csv` is), the values are kept too; else only the
    shape of the table is read."""
    from ._csv_rows import read_rows  # here: importing perceptron_core stays fast

    raw, name = read_source(source, limits.max_bytes)
    upload = open_upload(raw, warnings)
    delim = delimiter or sniff_delimiter(upload.start)
    head = read_head(upload, delim, limits)
    has_header = detect_header(head.rows) if header == "auto" else bool(header)
    start, width = int(has_header), len(head.rows[0])
    while True:
        names, renamed = column_names(head.rows[0] if has_header else [], width)
        try:
            label_idx: int | DataError = pick_label(label.get("label_column"), names, has_header)
        except DataError as err:  # said after what is wrong with the file itself
            label_idx = err
        keep = label and isinstance(label_idx, int)
        features = [j for j in range(width) if j != label_idx] if keep else None
        rows = read_rows(
            upload, delim, limits, head, width, start, features, label_idx if keep else None
        )
        wider = max(width, min(head.widths[0], rows.later_used))
        if wider == width:
            break
        width = wider  # empty cells closing the first row count when a row below fills them
    n_rows = rows.n_rows - start
    if n_rows == 0:
        raise DataError("The file has a header row but no rows of data.")
    if n_rows > limits.max_rows:
        raise DataError(
            f"The file has {n_rows:,} rows of data, more than the limit of "
            f"{limits.max_rows:,}. Use a sample of the rows."
        )
    if width < 2:
        raise DataError(
            f"Only one column was found (delimiter: {DELIMITER_NAMES.get(delim, repr(delim))}). "
            "A classification table needs at least one feature column and a label column; "
            "check that the values are separated by commas, semicolons or tabs."
        )
    if header == "auto":
        warnings.append(
            "The first row was read as column names."
            if has_header
            else "No header row was found, so the columns are named 'column 1', 'column 2', ..."
        )
    if renamed:
        more = f"; and {len(renamed) - 10} more" if len(renamed) > 10 else ""
        shown = "; ".join(renamed[:10])
        warnings.append(f"Some columns have the same name, so they were renamed: {shown}{more}.")
    if rows.wrong is not None:
        line, values = rows.wrong
        raise DataError(
            f"Line {line} has {values} values but "
            f"{'the header has' if has_header else 'the first row has'} {width}. Every row "
            "needs the same number of values; look for a missing value or for a delimiter "
            "inside a value that is not in quotes."
        )
    if isinstance(label_idx, DataError):
        raise label_idx
    return _Table(upload.encoding, name, delim, has_header, names, label_idx, rows)


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
    table = _read(source, delimiter, header, limits, [])
    return CSVColumns(table.names, table.has_header)


def _features(rows, names: list[str], lines: np.ndarray, label_name: str, warnings: list[str]):
    """``(X, feature names, dropped columns)``: the numeric columns, and why others went."""
    kept, dropped, decimal_comma = [], {}, []
    for k, column in enumerate(rows.columns):
        if column.lost:
            row, text = column.first_text
            dropped[names[k]] = f"text such as {quoted(text)} on line {lines[row]}"
        elif np.isnan(rows.table[:, k]).all():
            dropped[names[k]] = "no values at all"
        else:
            kept.append(k)
            if column.rescued:
                decimal_comma.append(names[k])
    if decimal_comma:
        warnings.append(
            "Read with the comma as decimal point: "
            + ", ".join(quoted(n) for n in decimal_comma[:10])
            + (" ..." if len(decimal_comma) > 10 else "")
            + "."
        )
    if dropped:
        items = list(dropped.items())
        shown = "; ".join(f"{quoted(n)} ({why})" for n, why in items[:10])
        more = f"; and {len(items) - 10} more" if len(items) > 10 else ""
        word = "column that is" if len(items) == 1 else "columns that are"
        warnings.append(f"Dropped {len(items)} {word} not numeric: {shown}{more}.")
    if not kept:
        raise DataError(
            f"No numeric feature column is left (the label column is {quoted(label_name)}). "
            "The perceptron needs numbers; encode categories as numbers (e.g. one 0/1 column "
            "per category) before uploading."
        )
    # every column kept: the table itself, no copy
    X = rows.table if len(kept) == len(names) else rows.table[:, kept]
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
