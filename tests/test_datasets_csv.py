"""load_csv: the documented behaviour on examples, then fuzzing with malformed files."""

import csv
import io
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perceptron_core.datasets import CSVData, CSVLimits, DataError, load_csv

# --------------------------------------------------------------------------
# Behaviour on examples
# --------------------------------------------------------------------------


def test_basic_file_with_header_and_text_labels():
    data = load_csv(b"a,b,label\n1,2,yes\n3,4.5,no\n-1e3,0,yes\n")
    np.testing.assert_array_equal(data.X, [[1, 2], [3, 4.5], [-1000, 0]])
    np.testing.assert_array_equal(data.y, [1, -1, 1])
    assert data.feature_names == ["a", "b"] and data.label_name == "label"
    assert data.class_names == ["no", "yes"] and data.labels == [-1, 1]
    assert any("'no' -> -1, 'yes' -> +1" in w for w in data.warnings)
    assert data.encoding == "utf-8" and data.delimiter == ","


def test_label_column_by_name_position_and_positive_label():
    text = b"y,x1,x2\n0,1,2\n1,3,4\n0,5,6\n"
    by_name = load_csv(text, label_column="y")
    by_pos = load_csv(text, label_column=0)
    np.testing.assert_array_equal(by_name.y, [-1, 1, -1])
    np.testing.assert_array_equal(by_name.y, by_pos.y)
    assert by_name.feature_names == ["x1", "x2"]
    flipped = load_csv(text, label_column="Y", positive_label="0")
    np.testing.assert_array_equal(flipped.y, [1, -1, 1])
    assert flipped.class_names == ["1", "0"]
    with pytest.raises(DataError, match="no column called 'target'.*'y', 'x1', 'x2'"):
        load_csv(text, label_column="target")
    with pytest.raises(DataError, match="outside the 3 columns"):
        load_csv(text, label_column=5)
    with pytest.raises(DataError, match="positive_label='maybe'"):
        load_csv(text, label_column="y", positive_label="maybe")


def test_numeric_labels_compare_as_numbers():
    data = load_csv(b"x,y\n1,1\n2,1.0\n3,-1\n4,-1.00\n")
    assert data.class_names == ["-1", "1"]
    np.testing.assert_array_equal(data.y, [1, 1, -1, -1])


def test_utf8_bom_and_latin1_fallback():
    bom = load_csv("\ufeffpoids,étiquette\n1,a\n2,b\n".encode("utf-8"))
    assert bom.encoding == "utf-8-sig" and bom.feature_names == ["poids"]
    assert bom.label_name == "étiquette"
    latin = load_csv("poids,étiquette\n1,a\n2,b\n".encode("latin-1"))
    assert latin.encoding == "latin-1" and latin.label_name == "étiquette"
    assert any("Latin-1" in w for w in latin.warnings)


@pytest.mark.parametrize(
    "data, fragment",
    [
        (b"", "empty"),
        (b"   \n\n ", "empty"),
        (b"PK\x03\x04rest-of-a-zip", "Excel workbook"),
        (b"\x1f\x8b\x08\x00", "gzip"),
        ("a,b\n1,2\n".encode("utf-16"), "UTF-16"),
        (b"a,b\x00,c\n", "NUL"),
        (b"\xef\xbb\xbfa,b\n\xff,1\n", "not valid UTF-8"),
    ],
)
def test_files_that_are_not_csv_text_are_refused(data, fragment):
    with pytest.raises(DataError, match=fragment):
        load_csv(data)


def test_semicolons_tabs_and_decimal_commas():
    semi = load_csv(b"x;y;label\n1,5;2;a\n3,25;4;b\n")
    assert semi.delimiter == ";"
    np.testing.assert_array_equal(semi.X, [[1.5, 2], [3.25, 4]])
    assert any("decimal point" in w for w in semi.warnings)
    tab = load_csv(b"x\ty\tlabel\n1\t2\ta\n3\t4\tb\n")
    assert tab.delimiter == "\t" and tab.X.shape == (2, 2)
    quoted = load_csv(b'name,x,label\n"Smith, J",1,a\n"Doe, K",2,b\n')
    assert quoted.delimiter == "," and quoted.feature_names == ["x"]


def test_dropped_columns_are_reported():
    data = load_csv(b"id,name,x,empty,label\n1,ann,0.5,,a\n2,bo,1.5,,b\n")
    assert data.feature_names == ["id", "x"]
    assert set(data.dropped_columns) == {"name", "empty"}
    assert "text such as 'ann' on line 2" in data.dropped_columns["name"]
    assert any("Dropped 2 columns" in w for w in data.warnings)
    with pytest.raises(DataError, match="No numeric feature column"):
        load_csv(b"name,label\nann,a\nbo,b\n")


def test_missing_and_infinite_values_rejected_or_dropped():
    text = b"x1,x2,label\n1,2,a\n,3,b\n4,inf,a\n5,6,\n7,8,b\n"
    with pytest.raises(
        DataError,
        match="3 rows have a missing or infinite value \\(first: "
        "line 3, column 'x1'\\).*nan_policy='drop'",
    ):
        load_csv(text)
    data = load_csv(text, nan_policy="drop")
    np.testing.assert_array_equal(data.X, [[1, 2], [7, 8]])
    assert data.n_dropped_rows == 3
    assert any("Dropped 3 rows" in w for w in data.warnings)
    markers = load_csv(b"x,label\n1,a\nNA,b\n?,a\nnull,b\n2,b\n", nan_policy="drop")
    assert markers.n_dropped_rows == 3
    with pytest.raises(DataError, match="No row is left"):
        load_csv(b"x,y,label\n,1,a\n2,,b\n", nan_policy="drop")


def test_label_counts_are_checked():
    with pytest.raises(DataError, match="only one value \\('yes'\\)"):
        load_csv(b"x,label\n1,yes\n2,yes\n")
    with pytest.raises(DataError, match="3 different values.*exactly two"):
        load_csv(b"x,label\n1,a\n2,b\n3,c\n")
    continuous = b"x,label\n" + b"".join(f"{i},{i * 0.37}\n".encode() for i in range(30))
    with pytest.raises(DataError, match="measurement"):
        load_csv(continuous)
    multi = load_csv(b"x,label\n1,a\n2,b\n3,c\n4,a\n", task="multiclass")
    np.testing.assert_array_equal(multi.y, [0, 1, 2, 0])
    assert multi.class_names == ["a", "b", "c"] and multi.labels == [0, 1, 2]
    assert multi.info.class_counts == (2, 1, 1)


def test_header_detection():
    numeric_first = load_csv(b"1,2,0\n3,4,1\n")
    assert numeric_first.X.shape == (2, 2)
    assert numeric_first.feature_names == ["column 1", "column 2"]
    assert any("No header row" in w for w in numeric_first.warnings)
    named = load_csv(b"x,y,label\n1,2,a\n3,4,b\n")
    assert named.X.shape == (2, 2)
    forced = load_csv(b"1,2,0\n3,4,1\n5,6,0\n", header=True)
    assert forced.feature_names == ["1", "2"] and forced.X.shape == (2, 2)
    with pytest.raises(DataError, match="no header row.*position"):
        load_csv(b"1,2,0\n3,4,1\n", label_column="label")
    duplicated = load_csv(b"x,x,,label\n1,2,3,a\n4,5,6,b\n")
    assert duplicated.feature_names == ["x", "x (2)", "column 3"]


def test_ragged_rows_and_trailing_delimiters():
    with pytest.raises(DataError, match="Line 3 has 2 values but the header has 3"):
        load_csv(b"a,b,label\n1,2,x\n3,y\n")
    with pytest.raises(DataError, match="Line 2 has 4 values"):
        load_csv(b"a,b,label\n1,2,x,9\n3,4,y\n")
    trailing = load_csv(b"a,b,label,\n1,2,x,\n3,4,y,\n")
    assert trailing.feature_names == ["a", "b"] and trailing.label_name == "label"
    blank_lines = load_csv(b"a,label\n\n1,x\n\n\n2,y\n,\n")
    assert blank_lines.X.shape == (2, 1)
    with pytest.raises(DataError, match="header row but no rows of data"):
        load_csv(b"a,b,label\n")
    with pytest.raises(DataError, match="Only one column"):
        load_csv(b"a\n1\n2\n")


def test_caps_on_bytes_rows_columns_and_cell_size():
    with pytest.raises(DataError, match="larger than the limit of 10 bytes"):
        load_csv(b"a,label\n1,x\n2,y\n", limits=CSVLimits(max_bytes=10))
    many_rows = b"a,label\n" + b"1,x\n2,y\n" * 60
    with pytest.raises(DataError, match="more than 100 rows"):
        load_csv(many_rows, limits=CSVLimits(max_rows=100))
    wide = (",".join(f"c{i}" for i in range(3000)) + "\n").encode() * 3
    with pytest.raises(DataError, match="more than the limit of 2,000 columns"):
        load_csv(wide)
    huge_cell = b"a,label\n" + b"1" * 200_000 + b",x\n2,y\n"
    with pytest.raises(DataError, match="longer than"):
        load_csv(huge_cell)
    with pytest.raises(DataError, match="max_rows must be a whole number of at least 1"):
        CSVLimits(max_rows=0)
    with pytest.raises(DataError, match="limits must be a CSVLimits"):
        load_csv(b"a,label\n1,x\n2,y\n", limits={"max_rows": 10})


def test_sources_paths_files_and_text(tmp_path):
    content = b"a,label\n1,x\n2,y\n"
    path = tmp_path / "upload.csv"
    path.write_bytes(content)
    for source in (
        path,
        str(path),
        io.BytesIO(content),
        io.StringIO(content.decode()),
        bytearray(content),
        memoryview(content),
    ):
        data = load_csv(source)
        np.testing.assert_array_equal(data.y, [-1, 1])
    assert load_csv(path).name == "upload.csv"
    with pytest.raises(DataError, match="Cannot read the file"):
        load_csv(tmp_path / "missing.csv")
    with pytest.raises(DataError, match="Cannot read the file"):
        load_csv(tmp_path)  # a folder
    with pytest.raises(DataError, match="needs the file's bytes"):
        load_csv(12345)
    big = tmp_path / "big.csv"
    big.write_bytes(content * 10)
    with pytest.raises(DataError, match="larger than the limit"):
        load_csv(big, limits=CSVLimits(max_bytes=50))


def test_options_are_checked():
    for kwargs, fragment in (
        ({"task": "regression"}, "task"),
        ({"nan_policy": "fill"}, "nan_policy"),
        ({"delimiter": ",,"}, "delimiter"),
        ({"delimiter": '"'}, "delimiter"),
        ({"header": "yes"}, "header"),
        ({"label_column": 1.5}, "label_column"),
    ):
        with pytest.raises(DataError, match=fragment):
            load_csv(b"a,label\n1,x\n2,y\n", **kwargs)


def test_generated_csv_round_trip():
    from perceptron_core.datasets import make_kw

    X, y, _, _ = make_kw(6, 0.1, 0.1, 50, random_state=0)
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow([f"x{i}" for i in range(6)] + ["label"])
    writer.writerows([list(map(float, row)) + [int(lab)] for row, lab in zip(X, y)])
    data = load_csv(buf.getvalue().encode())
    np.testing.assert_array_equal(data.X, X)
    np.testing.assert_array_equal(data.y, y)


# --------------------------------------------------------------------------
# Fuzzing: whatever the input, the result is data or a DataError
# --------------------------------------------------------------------------

FUZZ = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def check_outcome(source, **kwargs):
    try:
        data = load_csv(source, **kwargs)
    except DataError as err:
        msg = str(err)
        assert msg and len(msg) < 2000 and "Traceback" not in msg
        return None
    assert isinstance(data, CSVData)
    assert data.X.ndim == 2 and data.X.dtype == np.float64 and np.isfinite(data.X).all()
    assert data.X.shape[0] == data.y.shape[0] >= 2 and data.X.shape[1] >= 1
    assert len(data.feature_names) == data.X.shape[1]
    assert len(data.class_names) == len(data.labels) == len(np.unique(data.y))
    assert set(np.unique(data.y)) == set(data.labels)
    if kwargs.get("task", "binary") == "binary":
        assert data.labels == [-1, 1]
    assert all(isinstance(w, str) and w for w in data.warnings)
    return data


@FUZZ
@given(st.binary(max_size=600))
def test_fuzz_arbitrary_bytes(blob):
    check_outcome(blob)


cell = st.one_of(
    st.integers(-(10**6), 10**6).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(
        [
            "",
            "NA",
            "nan",
            "inf",
            "-inf",
            "?",
            "null",
            "yes",
            "no",
            "1,5",
            "1e400",
            '"quoted, with comma"',
            '"',
            'a"b',
            "\u00e9t\u00e9",
            "1_000",
            " 7 ",
            "\t",
            "0x1F",
            "\u0661\u0662",
        ]
    ),
    st.text(max_size=8),
)
ragged_rows = st.lists(st.lists(cell, min_size=0, max_size=6), min_size=0, max_size=12)
even_rows = st.integers(1, 6).flatmap(
    lambda w: st.lists(st.lists(cell, min_size=w, max_size=w), min_size=1, max_size=12)
)


@FUZZ
@given(
    rows=st.one_of(ragged_rows, even_rows),
    delimiter=st.sampled_from([",", ";", "\t", "|"]),
    newline=st.sampled_from(["\n", "\r\n", "\r"]),
    encoding=st.sampled_from(["utf-8", "utf-8-sig", "latin-1", "utf-16", "cp1252"]),
    task=st.sampled_from(["binary", "multiclass"]),
    nan_policy=st.sampled_from(["reject", "drop"]),
    label_column=st.one_of(st.none(), st.integers(-8, 8), st.sampled_from(["label", "x"])),
    header=st.sampled_from(["auto", True, False]),
)
def test_fuzz_table_like_files(
    rows, delimiter, newline, encoding, task, nan_policy, label_column, header
):
    text = newline.join(delimiter.join(r) for r in rows)
    try:
        blob = text.encode(encoding)
    except UnicodeEncodeError:
        blob = text.encode("utf-8", errors="replace")
    check_outcome(blob, task=task, nan_policy=nan_policy, label_column=label_column, header=header)


@FUZZ
@given(
    n_rows=st.integers(2, 30),
    n_cols=st.integers(1, 5),
    labels=st.lists(
        st.sampled_from(["a", "b", "c", "1", "0", "", "NA"]), min_size=30, max_size=30
    ),
    values=st.lists(
        st.one_of(
            st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(["", "x", "NA"])
        ),
        min_size=150,
        max_size=150,
    ),
    ragged=st.sets(st.integers(0, 29), max_size=2),
)
def test_fuzz_near_valid_tables(n_rows, n_cols, labels, values, ragged):
    """Mostly valid tables with holes, text, NaN/inf, one class, extra labels, ragged rows."""
    lines = [",".join([f"f{j}" for j in range(n_cols)] + ["label"])]
    for i in range(n_rows):
        cells = [str(values[(i * n_cols + j) % len(values)]) for j in range(n_cols)]
        if i in ragged:
            cells = cells[:-1]
        lines.append(",".join(cells + [labels[i]]))
    blob = "\n".join(lines).encode()
    for task in ("binary", "multiclass"):
        data = check_outcome(blob, task=task, nan_policy="drop")
        if data is not None:
            assert data.label_name == "label"
            # rows whose cells are all empty are blank lines, skipped before counting
            blank = sum(1 for line in lines[1:] if not line.replace(",", "").strip())
            assert data.X.shape[0] + data.n_dropped_rows == n_rows - blank


@FUZZ
@given(st.integers(1, 5000), st.integers(1, 300_000))
def test_fuzz_huge_headers(n_cols, cell_len):
    header = ",".join("h" * min(cell_len, 300_000 // n_cols + 1) for _ in range(n_cols))
    blob = (
        header + "\n" + ",".join(["1"] * n_cols) + "\n" + ",".join(["2"] * n_cols) + "\n"
    ).encode()
    check_outcome(blob)


# --------------------------------------------------------------------------
# Two ways to the rows' shapes: NumPy over the bytes (files without quotes) and the csv
# module (the others); a quoted header name sends a file down the second way
# --------------------------------------------------------------------------

plain_cell = st.one_of(
    st.sampled_from(
        [
            "",
            " ",
            "NA",
            "1",
            "-2.5",
            "1e400",
            "x",
            "yes",
            "no",
            "1,5",
            "\t",
            "\x1c",
            "é",
            "€",
            "nan",
            "inf",
            "7 ",
            "0",
            "10000000000000000001",
        ]
    ),
    st.text(alphabet="0123456789.,;|-e xé\t", max_size=7),
)


def outcome(blob, **kwargs):
    try:
        data = load_csv(blob, **kwargs)
    except DataError as err:
        return str(err)
    return (
        data.X.tolist(),
        data.y.tolist(),
        data.feature_names,
        data.label_name,
        data.class_names,
        data.warnings,
        data.dropped_columns,
        data.n_dropped_rows,
        data.delimiter,
    )


@FUZZ
@given(
    rows=st.lists(st.lists(plain_cell, min_size=0, max_size=6), min_size=1, max_size=10),
    delimiter=st.sampled_from([",", ";", "\t", "|"]),
    newline=st.sampled_from(["\n", "\r\n", "\r"]),
    encoding=st.sampled_from(["utf-8", "utf-8-sig", "latin-1"]),
    small_caps=st.booleans(),
    nan_policy=st.sampled_from(["reject", "drop"]),
)
def test_files_without_quotes_read_as_with_quotes(
    rows, delimiter, newline, encoding, small_caps, nan_policy
):
    width = max(len(r) for r in rows) or 1
    names = [f"f{j}" for j in range(width)]
    body = newline.join(delimiter.join(r) for r in rows)
    plain = delimiter.join(names) + newline + body
    quoted = delimiter.join(['"f0"'] + names[1:]) + newline + body
    limits = CSVLimits(max_rows=4, max_columns=4, max_cell_chars=5) if small_caps else None
    blobs = [text.encode(encoding, errors="replace") for text in (plain, quoted)]
    kwargs = {"limits": limits, "nan_policy": nan_policy, "task": "multiclass"}
    assert outcome(blobs[0], **kwargs) == outcome(blobs[1], **kwargs)


def test_large_files_are_shaped_across_steps_of_the_byte_pass():
    # more than one step of the NumPy pass (256 KiB), with \r\n ends and blank lines between
    lines = [f"{i % 7},{i * 0.5},{'a' if i % 3 else 'b'}" for i in range(40_000)]
    lines[20_000] = ""
    lines[30_000] = ",,"
    plain = ("x,y,label\r\n" + "\r\n".join(lines)).encode()
    data = load_csv(plain)
    quoted = load_csv(plain.replace(b"x,y", b'"x",y', 1))
    assert data.X.shape == (39_998, 2)
    np.testing.assert_array_equal(data.X, quoted.X)
    np.testing.assert_array_equal(data.y, quoted.y)
    ragged = plain.replace(b"\r\n0,17500.0,a", b"\r\n0,a")
    with pytest.raises(DataError, match="Line 35002 has 2 values but the header has 3"):
        load_csv(ragged)


def test_a_column_of_numbers_then_text_is_named_without_a_pandas_warning():
    # pandas reads in blocks: numbers in the first ones and text in a later one make a
    # column of mixed types (and a DtypeWarning), which is read again as text
    rows = b"".join(b"%d,%d,%s\n" % (i, i % 5, b"ab"[i % 2 : i % 2 + 1]) for i in range(300_000))
    blob = b"x,code,label\n" + rows.replace(b"\n299990,0,", b"\n299990,oops,", 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        data = load_csv(blob, limits=CSVLimits(max_rows=400_000, max_bytes=10_000_000))
    assert data.dropped_columns == {"code": "text such as 'oops' on line 299992"}
