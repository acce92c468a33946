"""load_csv's one pass over the rows (pyarrow's CSV reader, a block at a time): rows of
another width back in their place, line numbers through quoted line ends, Arrow's casts and
spaces against Python's, what the pass keeps in memory, and a quote never closed."""

import sys
import tracemalloc

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from perceptron_core.datasets import CSVLimits, DataError, load_csv
from perceptron_core.datasets._csv_rows import _BLANK, _BLOCK
from perceptron_core.datasets.csvfile import csv_columns

#: Rows enough for several of the reader's blocks.
ROWS = 6 * _BLOCK // 10


def _table(rows: int, line) -> bytes:
    return ("x,y,label\n" + "".join(line(i) for i in range(rows))).encode()


def test_rows_of_another_width_are_read_in_their_place_across_blocks():
    # a trailing delimiter every 997th row, a blank line every 1,009th: rows the reader
    # hands back to be put in place, in every block
    def line(i):
        end = "," if i % 997 == 0 else ""
        blank = "\n" if i % 1009 == 5 else ""
        return f"{blank}{i},{i % 7}.5,{'ab'[i % 2]}{end}\n"

    data = load_csv(_table(ROWS, line))
    np.testing.assert_array_equal(data.X[:, 0], np.arange(ROWS))
    np.testing.assert_array_equal(data.X[:, 1], np.arange(ROWS) % 7 + 0.5)
    np.testing.assert_array_equal(data.y, np.where(np.arange(ROWS) % 2, 1, -1))
    # a value that is not a number, late in the file: its line counts the blank lines
    late = ROWS - 10
    blanks = sum(1 for i in range(late + 1) if i % 1009 == 5)
    text = _table(ROWS, lambda i: line(i).replace(f"{i},", "oops,", 1) if i == late else line(i))
    dropped = load_csv(text).dropped_columns
    assert dropped == {"x": f"text such as 'oops' on line {late + 2 + blanks}"}


def test_a_row_with_values_past_the_first_rows_width_widens_the_table():
    # the first row ends in empty cells, which a row below fills: the table is 4 wide
    blob = b"a,b,label,\n" + b"1,2,x,\n" * ROWS + b"3,4,y,7\n5,6,x,8\n"
    assert csv_columns(blob).names == ["a", "b", "label", "column 4"]
    data = load_csv(blob, label_column="label", nan_policy="drop")
    assert data.feature_names == ["a", "b", "column 4"]
    np.testing.assert_array_equal(data.X, [[3, 4, 7], [5, 6, 8]])


def test_line_numbers_count_line_ends_inside_quoted_values_across_blocks():
    # a label spread over two lines every 251st row, then a row one value short near the end
    def line(i):
        label = '"a\r\nb"' if i % 251 == 0 else "c"
        return f"{i},{i},{label}\n" if i != ROWS - 3 else f"{i},{label}\n"

    breaks = sum(1 for i in range(ROWS - 3) if i % 251 == 0)
    with pytest.raises(DataError, match=f"Line {ROWS - 3 + 2 + breaks} has 2 values but the"):
        load_csv(_table(ROWS, line), task="multiclass")


def test_a_quote_never_closed_at_the_end_of_the_file_is_refused_naming_its_row():
    lines = [b"x,label", b"1,a", b"2,b", b'3,"c', b"4,d"]
    with pytest.raises(DataError, match="quote in the row on line 4 is never closed, so its"):
        load_csv(b"\r\n".join(lines))
    closed = load_csv(b"\n".join(lines[:3] + [b'3,"c""', b'4,d"']), task="multiclass")
    assert closed.class_names == ["a", "b", 'c"\n4,d']  # a quote in a value is written twice


def test_spaces_are_what_str_isspace_calls_spaces():
    chars = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000]
    blank = pc.match_substring_regex(pa.array(chars), _BLANK).to_numpy(zero_copy_only=False)
    assert [c for c, b in zip(chars, blank) if b] == [c for c in chars if c.isspace()]


@pytest.mark.parametrize(
    "value",
    [
        "1.5",
        "-0",
        "+3",
        ".5",
        "1e5",
        "1E-3",
        "inf",
        "-Infinity",
        "1e400",
        "1e-400",
        "0.1",
        "9007199254740993",
        "3" * 400,
        " 7 ",
        "1_000",
        "\u0661\u0662",
        "\t2",
    ],
)
def test_numbers_read_by_arrow_are_pythons_floats(value):
    blob = ("x,label\n" + "".join(f"{value},{'ab'[i % 2]}\n" for i in range(4))).encode()
    if np.isfinite(float(value)):
        assert load_csv(blob).X[:, 0].tolist() == [float(value)] * 4
    else:
        with pytest.raises(DataError, match="4 rows have a missing or infinite value"):
            load_csv(blob)


@pytest.mark.parametrize("value", ["0x1F", "1,5", "1d5", "nan1", "1e", "True"])
def test_values_python_cannot_read_as_numbers_are_text(value):
    blob = (f'x,z,label\n"{value}",1,a\n2,2,b\n').encode()
    assert load_csv(blob).dropped_columns == {"x": f"text such as {value!r} on line 2"}


def test_the_pass_keeps_the_values_and_a_line_per_row_not_the_rows():
    # 200,000 rows of three features: what is traced (Python and NumPy) stays within 4 x X,
    # the labels' coding included (about 2.8 x X); per-row arrays of the rows' shapes, the
    # text or a frame of the values beside X go past it
    blob = b"a,b,c,y\n" + b"1,2,3,0\n1,2,3,1\n" * 100_000
    load_csv(blob[:24])  # the header and two rows: imports, first calls
    tracemalloc.start()
    try:
        data = load_csv(blob, limits=CSVLimits(max_bytes=len(blob)))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert data.X.shape == (200_000, 3)
    assert peak < 4 * data.X.nbytes
