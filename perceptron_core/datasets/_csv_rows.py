"""The one pass over an upload's rows: pyarrow's CSV reader, checked and cast block by block.

pyarrow reads the bytes a block at a time into columns of strings, as many
as most of the first rows have. A row of another width goes to the reader's
bad-row handler (:func:`_odd_row`, which splits it with :mod:`csv`) and is put
back in its place by the reader's row number. Each block is checked (blank
rows, caps, widths) and its columns cast to float64 by Arrow, the missing
markers first; a column Arrow cannot cast is read value by value with
Python's ``float`` (Arrow accepts a subset of what ``float`` does: no spaces,
``_`` or non-ASCII digits, with the same correctly rounded values).
"""

from __future__ import annotations

import csv
import io
import math
from collections import Counter, deque
from typing import Any, NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pcsv

from ._common import DataError
from ._csv_text import MISSING_MARKERS, Head, Upload, cap_error, csv_error, used_width

#: Bytes per block of the reader, a quarter of it for tables of more than _WIDE columns
#: (whose blocks hold many small arrays): larger blocks take as much time and more memory,
#: smaller ones more time (docs/benchmarks.md, uploads).
_BLOCK, _WIDE = 1 << 18, 100
#: The characters str.isspace() calls spaces, as a class of Arrow's regular expressions (RE2).
SPACE = (
    r"\t\n\x0b\x0c\r\x1c-\x1f \x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}"
    r"\x{205f}\x{3000}"
)
_BLANK = f"^[{SPACE}]*$"


def _pool() -> pa.MemoryPool:
    """Arrow's memory for the reader: jemalloc where pyarrow has it, else the system's
    (pyarrow's default, mimalloc, holds more during a first large read: docs/benchmarks.md,
    uploads)."""
    try:
        return pa.jemalloc_memory_pool()
    except NotImplementedError:  # a build of pyarrow without jemalloc (Windows)
        return pa.system_memory_pool()


POOL = _pool()
#: The missing markers as they are usually written, matched by Arrow before it casts.
_MISSING_SPELLINGS = sorted({s for m in MISSING_MARKERS for s in (m, m.upper(), m.title())})
_MISSING_BYTES = max(map(len, _MISSING_SPELLINGS))  # a block of longer values has none


class _Odd(NamedTuple):
    """A row of another width than the reader's: its number (1 = the file's first row, blank
    ones counted), first ``width`` values, and the facts the checks need."""

    number: int
    cells: list[str]  # "" past its end
    fields: int
    used: int  # values up to its last non-empty one
    longest: int  # characters in its longest value
    position: int  # where that value is (1 = first)
    breaks: int  # line ends inside its values
    error: str  # what csv could not read, or ""


def _odd_row(text: str, number: int, delimiter: str, width: int) -> _Odd:
    """One row of another width (``text``, without its line end), split by :mod:`csv`."""
    try:  # a row may hold a million empty values: split, not csv, when it has no quote
        lines = io.StringIO(text, newline="")
        row = (
            next(csv.reader(lines, delimiter=delimiter)) if '"' in text else text.split(delimiter)
        )
    except csv.Error as err:
        return _Odd(number, [""] * width, 1, 1, 0, 0, 0, str(err))
    longest = max(map(len, row))
    position = next(j for j, cell in enumerate(row) if len(cell) == longest) + 1
    breaks = text.count("\n") + text.count("\r") - text.count("\r\n")
    cells = (row[:width] + [""] * width)[:width]
    return _Odd(number, cells, len(row), used_width(row), longest, position, breaks, "")


class Column:
    """What was learnt about one feature column beyond its numbers."""

    __slots__ = ("decimal_comma", "first_text", "lost", "rescued")

    def __init__(self, decimal_comma: bool):
        self.decimal_comma = decimal_comma  # may "3,14" mean 3.14 (not a comma-delimited file)
        # (data row, value) of the first value that is not a number
        self.first_text: tuple[int, str] | None = None
        self.rescued = False  # some value was read with the comma as decimal point
        self.lost = False  # some value is text: the column is dropped

    def read(self, cells: list[str], values: np.ndarray, row: int) -> None:
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
                self.first_text = (row + i, cell)
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


class Rows:
    """One read of the rows (:func:`read_rows`): what it keeps of the data rows (their
    lines, values and labels) and the facts the messages about the table's shape need."""

    def __init__(
        self, upload: Upload, delimiter, limits, head: Head, width, start, features, label
    ):
        self.upload, self.delimiter, self.limits = upload, delimiter, limits
        self.read_width = Counter(head.widths).most_common(1)[0][0]  # of the first rows
        # a block must hold a row (a character may take 4 bytes; a row may start anywhere)
        longest = max(sum(map(len, row)) + len(row) for row in head.rows)
        self.block_size = max(_BLOCK if self.read_width <= _WIDE else _BLOCK // 4, 8 * longest)
        self.width, self.start = width, start  # the table's; 1 if the first row holds names
        self.quotes = b'"' in upload.data
        self.pending: deque[_Odd] = deque()  # rows of another width, not yet in place
        self.next = 1  # the reader's number of the next row to place
        self.breaks = 0  # line ends inside values so far
        self.n_rows = 0  # rows with a value, a header row too
        self.later_used = 0  # the most values up to the last non-empty one below the first row
        self.filled = 0  # data rows kept
        self.wrong: tuple[int, int] | None = None  # (line, values) of the first of another width
        self.last = (0, 0)  # the line the last row ends on, and the line ends inside it
        self.unclosed = 0  # the line of the last row if a quote in it is never closed
        self.parts: list[np.ndarray] = []  # per block, the line each data row ends on
        self.lines = np.zeros(0, np.int32)  # and for the whole file, once read
        self.label = label
        self.labels: Any = []  # the label column's strings, per block, then as one ChunkedArray
        self.columns = [Column(delimiter != ",") for _ in features or ()]
        self.features = features
        self.table: np.ndarray | None = None  # (data rows, features), NaN if missing or text
        if features is not None and self.read_width < width:
            self.features = None  # every row of the common width is refused as too short
        elif features is not None:
            rows = upload.data.count(b"\n") + upload.data.count(b"\r") + 1  # at most the lines
            self.table = np.empty((min(rows, limits.max_rows + 1), len(features)))

    def run(self, whole: bool = False) -> Rows:
        """Read the rows a block at a time (the file in one block if ``whole``)."""
        names = [str(j) for j in range(self.read_width)]
        source = pa.py_buffer(self.upload.data)
        reader = pcsv.open_csv(
            source.slice(3) if self.upload.encoding == "utf-8-sig" else source,
            read_options=pcsv.ReadOptions(
                column_names=names,
                use_threads=False,  # the handler is then told each row's number
                block_size=len(self.upload.data) + 1 if whole else self.block_size,
                encoding="latin1" if self.upload.codec == "latin-1" else "utf8",
            ),
            parse_options=pcsv.ParseOptions(
                delimiter=self.delimiter,
                newlines_in_values=self.quotes,
                ignore_empty_lines=False,  # so the reader's row numbers count every line
                invalid_row_handler=self._on_odd,
            ),
            convert_options=pcsv.ConvertOptions(
                column_types=dict.fromkeys(names, pa.string()),
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
            ),
            memory_pool=POOL,
        )
        for batch in reader:
            self.block(batch)
        self.block(None)  # rows of another width after the last block
        if self.parts:
            self.lines = np.concatenate(self.parts)
        if self.table is not None:
            self.table = self.table[: self.filled]
        if self.label is not None:
            self.labels = pa.chunked_array(self.labels, pa.string())
        if self.quotes:
            self.unclosed = _unclosed_quote(self.upload, self.delimiter, *self.last)
        return self

    def _on_odd(self, row) -> str:
        self.pending.append(_odd_row(row.text, row.number, self.delimiter, self.read_width))
        return "skip"

    def _place(self, batch):
        """``batch``'s rows and those of another width among them, in the file's order:
        ``(rows, their numbers, where the odd ones are, the odd ones)``."""
        n = batch.num_rows if batch is not None else 0
        end, odd = self.next + n, []
        while self.pending and (batch is None or self.pending[0].number < end):
            odd.append(self.pending.popleft())
            end += 1
        numbers = np.arange(self.next, end)
        self.next = end
        if not odd:
            return batch, numbers, np.zeros(0, np.int64), odd
        at = np.searchsorted(numbers, [o.number for o in odd])
        cells = [
            pa.array([o.cells[j] for o in odd], pa.string(), memory_pool=POOL)
            for j in range(self.read_width)
        ]
        parts = [pa.record_batch(cells, names=[str(j) for j in range(self.read_width)])]
        order = np.empty(len(numbers), np.int64)
        order[at] = n + np.arange(len(odd))
        order[np.setdiff1d(np.arange(len(numbers)), at)] = np.arange(n)
        rows = pc.take(
            pa.Table.from_batches(([batch] if n else []) + parts), order, memory_pool=POOL
        )
        return rows.combine_chunks(memory_pool=POOL).to_batches()[0], numbers, at, odd

    def block(self, batch) -> None:
        """Check one block's rows and keep their values."""
        rows, numbers, at, odd = self._place(batch)
        if not len(numbers):
            return
        m, limits = len(numbers), self.limits
        fields = np.full(m, self.read_width, np.int32)
        used = _used_past(rows, self.width)
        cells = _cells(rows, range(rows.num_columns))
        longest, position = _longest(cells, m, limits.max_cell_chars)
        breaks = _breaks(cells, m) if self.quotes else np.zeros(m, np.int32)
        blank = _blank(rows)
        error = np.zeros(m, bool)
        if odd:
            facts = np.array([o[2:7] for o in odd]).T
            fields[at], used[at], longest[at], position[at], breaks[at] = facts
            error[at] = [bool(o.error) for o in odd]
            blank[at] = (facts[1] == 0) & ~error[at]
        lines = (numbers + self.breaks).astype(np.int32)
        if self.quotes:
            lines += np.cumsum(breaks, dtype=np.int32)
            self.breaks += int(breaks.sum())
        self.last = (int(lines[-1]), int(breaks[-1]))
        filled = ~blank
        index = self.n_rows + np.cumsum(filled) - 1  # among the rows with a value
        over = filled & (
            error
            | (used > limits.max_columns)
            | (longest > limits.max_cell_chars)
            | (index > limits.max_rows)  # one more row than allowed: a header is allowed
        )
        if over.any():
            i = int(np.argmax(over))
            line = int(lines[i])
            if error[i]:
                raise csv_error(odd[list(at).index(i)].error, line)
            if used[i] > limits.max_columns:
                raise cap_error(limits, line, values=int(fields[i]))
            if longest[i] > limits.max_cell_chars:
                raise cap_error(limits, line, position=int(position[i]), longest=int(longest[i]))
            raise cap_error(limits, line)
        self.n_rows += int(filled.sum())
        below = filled & (index >= 1)
        if below.any():
            self.later_used = max(self.later_used, int(used[below].max()))
        data = filled & (index >= self.start)
        wrong = data & (fields != self.width) & ((fields < self.width) | (used > self.width))
        if self.wrong is None and wrong.any():
            i = int(np.argmax(wrong))
            self.wrong = (int(lines[i]), int(fields[i]))
        self.parts.append(lines[data])
        if self.features is not None and data.any():
            self._keep(rows if data.all() else pc.filter(rows, pa.array(data), memory_pool=POOL))

    def _keep(self, rows) -> None:
        """Keep the data rows' values: one cast for the block, or column by column if some
        value is not a number."""
        n, start = rows.num_rows, self.filled
        assert self.table is not None  # kept only when there are features
        block = self.table[start : start + n]
        active = [k for k, column in enumerate(self.columns) if not column.lost]
        try:
            if active:
                numbers = _numbers(_cells(rows, [self.features[k] for k in active]))
                block[:, active] = numbers.reshape(len(active), n).T
        except pa.ArrowInvalid:
            for k in active:
                cells = rows.column(self.features[k])
                try:
                    block[:, k] = _numbers(cells)
                except pa.ArrowInvalid:
                    self.columns[k].read(cells.to_pylist(), block[:, k], start)
        if self.label is not None:
            self.labels.append(rows.column(self.label))
        self.filled += n


def _cells(rows, columns) -> pa.Array:
    """The block's cells of ``columns``, column after column, as one array: an Arrow call
    then costs the same for a block of 2,000 columns as for one of two."""
    return pa.concat_arrays([rows.column(j) for j in columns], memory_pool=POOL)


def _numbers(cells) -> np.ndarray:
    """The numbers in an Arrow array of strings, NaN for missing markers; ArrowInvalid if
    some value is neither."""
    shortest = pc.min(pc.binary_length(cells, memory_pool=POOL)).as_py()
    if shortest is not None and shortest <= _MISSING_BYTES:
        missing = pc.is_in(cells, value_set=pa.array(_MISSING_SPELLINGS), memory_pool=POOL)
        if pc.any(missing).as_py():  # before the cast: one that fails costs a whole one
            cells = pc.if_else(missing, "nan", cells, memory_pool=POOL)  # NaN, and no nulls
    return pc.cast(cells, pa.float64(), memory_pool=POOL).to_numpy(zero_copy_only=False)


def _matches(cells, pattern: str) -> np.ndarray:
    return pc.match_substring_regex(cells, pattern, memory_pool=POOL).to_numpy(
        zero_copy_only=False
    )


def _blank(rows) -> np.ndarray:
    """Which rows hold only spaces: the first column decides for most rows; the others'
    cells are looked at together, in one call (column by column, a block of 2,000 mostly
    empty columns cost 2,000 calls)."""
    blank = _matches(rows.column(0), _BLANK)
    if rows.num_columns == 1 or not blank.any():
        return blank
    which = np.flatnonzero(blank)
    rest = rows if len(which) == rows.num_rows else rows.take(pa.array(which))
    cells = _matches(_cells(rest, range(1, rest.num_columns)), _BLANK)
    blank[which] = cells.reshape(rest.num_columns - 1, len(which)).all(axis=0)
    return blank


def _used_past(rows, width: int) -> np.ndarray:
    """Per row, its values up to its last non-empty one when that is past ``width``, else 0."""
    extra = rows.num_columns - width
    if extra <= 0:
        return np.zeros(rows.num_rows, np.int32)  # no memory until written
    filled = ~_matches(_cells(rows, range(width, rows.num_columns)), _BLANK).reshape(extra, -1)
    last = rows.num_columns - np.argmax(filled[::-1], axis=0)
    return np.where(filled.any(axis=0), last, 0).astype(np.int32)


def _longest(cells, m: int, cap: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row of a block (``cells`` column after column, ``m`` rows), its longest value in
    characters and where it is (1 = first); zeros when no value has more bytes than
    ``cap`` (a character has at least one byte)."""
    if (pc.max(pc.binary_length(cells, memory_pool=POOL)).as_py() or 0) <= cap:
        return np.zeros(m, np.int32), np.zeros(m, np.int32)  # no memory until written
    lengths = pc.utf8_length(cells, memory_pool=POOL).to_numpy().reshape(-1, m)
    return lengths.max(axis=0), lengths.argmax(axis=0) + 1


def _breaks(cells, m: int) -> np.ndarray:
    """Per row of a block, the line ends inside its values (a quoted value may hold some)."""
    data = np.frombuffer(cells.buffers()[2] or b"", np.uint8)
    if not ((data == 10).any() or (data == 13).any()):
        return np.zeros(m, np.int32)
    found = pc.count_substring_regex(cells, r"\r\n|\r|\n", memory_pool=POOL).to_numpy()
    return found.reshape(-1, m).sum(axis=0, dtype=np.int32)


def _unclosed_quote(upload: Upload, delimiter: str, line: int, breaks: int) -> int:
    """The line where the last row starts if a quote in it is never closed, else 0: the
    reader lets such a value run to the end of the file, as :mod:`csv` does, whose rules
    are followed here over the last row's text."""
    data, start = upload.data, line - breaks
    ends = data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")
    at = len(data)
    for _ in range(ends - start + 2):  # back to the line end before the row
        at = max(data.rfind(b"\n", 0, at), data.rfind(b"\r", 0, at))
        at -= at > 0 and data[at - 1 : at + 1] == b"\r\n"
        if at < 0:
            break
    at += 1 + (data[at : at + 2] == b"\r\n") if at >= 0 else 1
    state = "start"  # of a value; "text", "quoted", "quote" (in a quoted value)
    for c in data[at:].decode(upload.codec, "replace"):
        if state == "quoted":
            state = "quote" if c == '"' else state
        elif c == delimiter or c in "\r\n":
            state = "start"
        elif state == "quote" and c == '"' or state == "start" and c == '"':
            state = "quoted"
        else:
            state = "text"
    return start if state == "quoted" else 0


def read_rows(upload: Upload, delimiter, limits, head, width, start, features, label) -> Rows:
    """Read every row once; refuse the first that breaks a cap, naming its line.

    ``head`` holds the first rows, ``width`` is the table's, ``start`` 1 when
    the first row holds names; the values of the columns ``features`` and the
    strings of ``label`` are kept (None: only the shape is read).
    """
    args = (upload, delimiter, limits, head, width, start, features, label)
    try:
        return Rows(*args).run()
    except pa.ArrowInvalid as err:
        if "straddl" in str(err):  # a row longer than two blocks: read the file in one
            return Rows(*args).run(whole=True)
        raise DataError(
            f"The file cannot be read as CSV ({str(err).strip()[:200]}). Look for "
            "a quote that is never closed."
        ) from None
