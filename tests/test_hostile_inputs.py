"""Hostile input: uploads built to hurt, crafted links, greedy runs, a corrupt cache.

Each part checks what a visitor can do on purpose, and that the answer is a
bounded amount of work and a message that says what was wrong and what is
allowed.
"""

from __future__ import annotations

import io
import re
import signal
import subprocess
import sys
import time
import tracemalloc
import warnings
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perceptron_core.datasets import CSVLimits, DataError, load_csv
from perceptron_core.experiments import fold_run
from perceptron_core.experiments.cache import CacheWarning, CorruptCellWarning, DiskCache
from perceptron_core.experiments.cv import RunOptions
from perceptron_core.experiments.data import kw_sets
from perceptron_core.experiments.grids import kw_settings
from perceptron_core.experiments.limits import KINDS, PAGE_LIMITS, Request, check
from perceptron_core.experiments.reproduce import KW_NOISE
from perceptron_core.experiments.search import parameter_search
from perceptron_lab.app_logic.visitor_text import NAME_LIMIT, as_text
from perceptron_lab.ui.state import _parse

ROOT = Path(__file__).resolve().parents[1]
FUZZ = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# --------------------------------------------------------------------------
# Uploads: load_csv
# --------------------------------------------------------------------------


def _peak_bytes(func) -> int:
    tracemalloc.start()
    try:
        func()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_does_not_grow_with_rows_times_the_longest_cell():
    # a regression: one long cell made the reader allocate rows x longest cell x 4 bytes
    rows = b"1,1,0\n1,2,1\n" * 25_000
    short = b"a,b,y\nx,1,0\n" + rows
    long = b"a,b,y\n" + b"x" * (CSVLimits().max_cell_chars - 1) + b",1,0\n" + rows
    assert load_csv(long).dropped_columns.keys() == {"a"}
    extra = _peak_bytes(lambda: load_csv(long)) - _peak_bytes(lambda: load_csv(short))
    assert extra < 100_000  # the old reader: 50,000 rows x 1,000 characters x 4 bytes = 200 MB


def test_a_cell_longer_than_the_cap_is_refused_saying_where_and_what_is_allowed():
    data = b"a,b,y\n1,2,0\n3," + b"x" * 2_500 + b",1\n"
    with pytest.raises(
        DataError,
        match=r"Line 3, column 2 holds a value of 2,500 characters, "
        r"longer than the limit of 1,000",
    ):
        load_csv(data)
    allowed = CSVLimits(max_cell_chars=3_000)
    assert load_csv(data, limits=allowed).X.shape == (2, 1)  # the caller may allow more
    with pytest.raises(DataError, match="max_cell_chars must be a whole number"):
        CSVLimits(max_cell_chars=0)


def test_the_issue_file_is_refused_at_once():
    data = b"a,b,y\n" + b"x" * 2500 + b",1,0\n" + b"1,1,1\n" * 199_990
    assert (
        _peak_bytes(
            lambda: pytest.raises(
                DataError, load_csv, data, task="multiclass", limits=CSVLimits(max_bytes=2_000_000)
            )
        )
        < 5_000_000
    )


def test_many_columns_up_to_the_cap():
    wide = (",".join(["1"] * 1_999 + ["0"]) + "\n" + ",".join(["2"] * 1_999 + ["1"])).encode()
    assert load_csv(wide).X.shape == (2, 1_999)
    wider = (",".join(["1"] * 2_001) + "\n").encode() * 2
    with pytest.raises(DataError, match="2,001 values, more than the limit of 2,000 columns"):
        load_csv(wider)


def test_a_line_of_only_delimiters_costs_no_columns():
    data = b"a,b\n1,0\n2,1\n" + b"," * 500_000
    assert load_csv(data).X.shape == (2, 1)


def test_repeated_names_do_not_take_another_columns_name():
    # a regression: the second 'a' became 'a (2)' and replaced the real 'a (2)' column's values
    data = load_csv(b"a,a,a (2),y\n1,2,3,0\n4,5,6,1\n")
    assert data.feature_names == ["a", "a (3)", "a (2)"]
    np.testing.assert_array_equal(data.X, [[1, 2, 3], [4, 5, 6]])
    assert any("column 2 'a' is called 'a (3)'" in w for w in data.warnings)
    blanks = load_csv(b"column 2,,y\n1,2,0\n3,4,1\n")
    assert blanks.feature_names == ["column 2", "column 2 (2)"]


header_cell = st.sampled_from(["a", "a (2)", "a (3)", "", "column 2", "column 3", "b", " a "])


@FUZZ
@given(st.lists(header_cell, min_size=1, max_size=7))
def test_column_names_are_unique_and_each_keeps_its_values(header):
    width = len(header) + 1  # and a label column
    text = ",".join(header + ["y"]) + "\n"
    text += ",".join(map(str, range(width - 1))) + ",0\n"
    text += ",".join(str(j + 100) for j in range(width - 1)) + ",1\n"
    data = load_csv(text.encode(), header=True)
    names = data.feature_names + [data.label_name]
    assert len(set(names)) == len(names)
    given_names = [h.strip() for h in header]
    for j, name in enumerate(given_names):
        if name and name not in given_names[:j]:  # the first of its name keeps it
            assert data.feature_names[j] == name
    np.testing.assert_array_equal(data.X[0], np.arange(width - 1))  # no column overwritten


def test_nul_bytes_and_encodings():
    for blob in (b"a,b\x00,y\n1,2,0\n", io.StringIO("a,b,y\n1,\x00,0\n")):
        with pytest.raises(DataError, match="NUL"):
            load_csv(blob)
    with pytest.raises(DataError, match="UTF-16"):
        load_csv("a,y\n1,0\n2,1\n".encode("utf-16"))
    latin = load_csv("größe,y\n1,ja\n2,nein\n".encode("latin-1"))
    assert latin.feature_names == ["größe"] and any("Latin-1" in w for w in latin.warnings)
    smart = load_csv("x,y\n1,\u201cyes\u201d\n2,no\n".encode("cp1252"))
    assert len(smart.class_names) == 2
    emoji = load_csv("\U0001f600,y\n1,\u00e9\n2,\u2603\n".encode())
    assert emoji.feature_names == ["\U0001f600"] and emoji.class_names == ["\u00e9", "\u2603"]
    with pytest.raises(DataError, match="not valid UTF-8"):
        load_csv(b"\xef\xbb\xbfa,y\n\xff,0\n")


def test_line_ends_cr_only_mixed_and_inside_quotes():
    for end in (b"\r", b"\n", b"\r\n"):
        data = load_csv(end.join([b"a,b,y", b"1,2,0", b"3,4,1"]) + end)
        np.testing.assert_array_equal(data.X, [[1, 2], [3, 4]])
    mixed = load_csv(b"a,b,y\r1,2,0\n3,4,1\r\n5,6,0")
    assert mixed.X.shape == (3, 2)
    quoted = load_csv(b'a,b,y\n1,2,"no\rreally"\n3,4,yes\n')
    assert quoted.class_names == ["no\rreally", "yes"]
    # a separator character that str.splitlines would break at stays inside its value
    assert load_csv(b"a,y\n1,x\x1cz\n2,w\n").class_names == ["w", "x\x1cz"]


def test_formula_text_stays_text():
    data = load_csv(
        b'=cmd|" /C calc"!A0,x,y\n"=HYPERLINK(""http://e.test"")",1,@SUM(1)\n+1+1,2,-2+3\n'
    )
    assert data.feature_names == ["x"]
    assert data.class_names == ["-2+3", "@SUM(1)"]
    assert any("=HYPERLINK" in w for w in data.warnings)  # named as text, never evaluated


def test_huge_numbers():
    assert load_csv(b"x,y\n1e308,0\n-1e308,1\n").X.max() == 1e308
    with pytest.raises(DataError, match="missing or infinite value \\(first: line 2"):
        load_csv(b"x,y\n1e309,0\n1,1\n")
    digits = b"9" * (CSVLimits().max_cell_chars - 1)
    with pytest.raises(DataError, match="infinite"):
        load_csv(b"x,y\n" + digits + b",0\n1,1\n")
    with pytest.raises(DataError, match="longer than the limit"):
        load_csv(b"x,y\n" + digits + b"99,0\n1,1\n")


@pytest.mark.parametrize(
    "blob", [b"", b" \n\t\n", b",,,\n,,\n", "\u2028\u2029".encode(), b"a,b,y\n", b"\xef\xbb\xbf"]
)
def test_empty_files_are_refused_with_a_reason(blob):
    with pytest.raises(DataError, match="empty|no rows|no rows of data"):
        load_csv(blob)


def test_a_label_column_of_identifiers_is_refused_early():
    data = b"x,id\n" + b"".join(b"1,%06d\n" % i for i in range(5_000))
    with pytest.raises(DataError, match="more than 1,000 different values.*identifier"):
        load_csv(data, task="multiclass")


def test_messages_cut_what_comes_from_the_file():
    name = "n" * 900
    header = f"{name},x,y\nabc,1,0\ndef,2,1\n".encode()
    data = load_csv(header)
    dropped = next(w for w in data.warnings if w.startswith("Dropped"))
    assert "n" * 40 + "..." in dropped and "n" * 41 not in dropped
    with pytest.raises(DataError) as err:
        load_csv(header, label_column="z" * 5_000)
    assert len(str(err.value)) < 500


# --------------------------------------------------------------------------
# The disk cache of experiment cells: corruption, killed writers, a size cap
# --------------------------------------------------------------------------

CELL = {
    "correct": np.arange(24).reshape(2, 3, 4),
    "n_test": np.array(7),
    "n_updates": np.arange(2.0),
}


def _read_back(cache, key):
    """``(arrays or None, warnings)`` of one read."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        arrays = cache.get(key)
    return arrays, [w for w in caught if issubclass(w.category, CorruptCellWarning)]


def test_every_flipped_byte_and_every_truncation_is_caught(tmp_path):
    cache, key = DiskCache(tmp_path), "cd" * 32
    cache.put(key, CELL)
    path = next(tmp_path.rglob("*.npz"))
    good = path.read_bytes()
    damaged = [good[:n] for n in range(len(good))]
    damaged += [good[:i] + bytes([good[i] ^ 0x41]) + good[i + 1 :] for i in range(len(good))]
    for blob in damaged:
        path.write_bytes(blob)
        arrays, warned = _read_back(cache, key)
        if arrays is None:  # recomputed: said so, and the file is gone
            assert len(warned) == 1 and not path.exists()
        else:  # a byte the archive does not need (a timestamp, ...): the same arrays
            assert not warned and arrays.keys() == CELL.keys()
            for name, value in CELL.items():
                np.testing.assert_array_equal(arrays[name], value, strict=True)


@pytest.fixture(scope="module")
def small_sets():
    return kw_sets(10, 0.1, 0.1, count=2, seed=0, n_samples=60)


def _search(sets, cache_dir, **options):
    grid = kw_settings((0.0, 0.5), (0.0,), (None,))
    return parameter_search(
        sets,
        grid,
        n_folds=3,
        seed=1,
        options=RunOptions(epochs=5, jobs=1, cache_dir=str(cache_dir), **options),
    )


def test_a_truncated_and_a_flipped_cell_are_recomputed_with_a_warning(small_sets, tmp_path):
    first = _search(small_sets, tmp_path)
    cells = sorted(tmp_path.rglob("*.npz"))
    assert len(cells) == 6
    cells[0].write_bytes(cells[0].read_bytes()[:100])
    flipped = bytearray(cells[1].read_bytes())
    with zipfile.ZipFile(cells[1]) as archive:  # the last byte of the first array's data
        last = archive.infolist()[1].header_offset - 1
    flipped[last] ^= 0xFF
    cells[1].write_bytes(bytes(flipped))
    calls = fold_run.KERNEL_CALLS
    with pytest.warns(CorruptCellWarning, match="could not be read") as caught:
        second = _search(small_sets, tmp_path)
    assert len(caught) == 2 and fold_run.KERNEL_CALLS - calls == 2
    np.testing.assert_array_equal(first.fold_accuracy, second.fold_accuracy)
    calls = fold_run.KERNEL_CALLS
    third = _search(small_sets, tmp_path)  # the bad cells were rewritten: all read again
    assert fold_run.KERNEL_CALLS == calls
    np.testing.assert_array_equal(first.fold_accuracy, third.fold_accuracy)


def test_a_killed_writer_leaves_no_half_written_cell(tmp_path):
    writer = (
        "import numpy as np, sys\n"
        "from perceptron_core.experiments.cache import DiskCache\n"
        "cache = DiskCache(sys.argv[1])\n"
        "big = {'x': np.arange(2_000_000, dtype=np.float64)}\n"
        "i = 0\n"
        "while True:\n"
        "    cache.put(f'{i:064x}', big)\n"
        "    i += 1\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", writer, str(tmp_path)])
    try:
        while len(list(tmp_path.rglob("*.npz"))) < 3 and proc.poll() is None:
            time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    cells = list(tmp_path.rglob("*.npz"))
    assert len(cells) >= 3
    cache = DiskCache(tmp_path)
    for path in cells:
        arrays, warned = _read_back(cache, path.stem)
        assert not warned and arrays["x"].shape == (2_000_000,)


def test_the_size_cap_removes_the_oldest_cells(tmp_path):
    one = DiskCache(tmp_path / "measure")
    one.put("00" * 32, CELL)
    size = one.size()
    cache = DiskCache(tmp_path / "capped", max_bytes=4 * size)
    keys = [f"{i:064x}" for i in range(10)]
    for key in keys:
        cache.put(key, CELL)
        assert cache.size() <= 4 * size
    kept = [key for key in keys if cache.get(key) is not None]
    assert kept == keys[-len(kept) :] and len(kept) >= 3  # the newest stay


def test_a_cache_that_cannot_be_written_does_not_stop_the_run(small_sets, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    with pytest.warns(CacheWarning, match="Cannot write"):
        result = _search(small_sets, blocker)
    assert result.fold_accuracy.shape[:2] == (2, 3)


# --------------------------------------------------------------------------
# Experiments: limits per run on the app's page
# --------------------------------------------------------------------------


def test_each_limit_is_named_with_what_is_allowed():
    ok = {"kind": "search", "shapes": ((600, 50),), "folds": 10, "epochs": 100, "jobs": 1}
    check(Request(**ok))
    cases = [
        ({"jobs": 10_000}, "10000 worker processes (this server has"),
        ({"folds": 11}, "11 folds (at most 10)"),
        ({"kind": "optimisation", "inner_folds": 20}, "20 inner folds (at most 10)"),
        ({"epochs": 1_001}, "1001 epochs (at most 1000)"),
        ({"shapes": ((600, 501),)}, "data with 501 features (at most 500)"),
        ({"shapes": ((60, 5),) * 21}, "21 data sets (at most 20)"),
        ({"shapes": ((20_000, 50),)}, "about 1,638 million visits"),
    ]
    for change, fragment in cases:
        with pytest.raises(ValueError, match="more than the page allows") as err:
            check(Request(**{**ok, **change}))
        assert fragment in str(err.value) and "command line" in str(err.value)
    with pytest.raises(ValueError) as err:  # every excess at once, not only the first
        check(Request(**{**ok, "folds": 20, "epochs": 5_000}))
    assert "20 folds" in str(err.value) and "5000 epochs" in str(err.value)
    assert check(Request(**{**ok, "kind": "epoch-curve", "epochs": 5_000})) is None  # unused
    with pytest.raises(ValueError, match="Unknown experiment"):
        check(Request(**{**ok, "kind": "everything"}))


@FUZZ
@given(
    n=st.integers(100, 400),
    folds=st.integers(2, 10),
    inner=st.integers(2, 10),
    kind=st.sampled_from(sorted(KINDS)),
)
def test_visits_count_the_training_examples_of_the_real_plan(n, folds, inner, kind):
    from perceptron_core.experiments.cv import inner_folds, outer_folds
    from perceptron_core.experiments.data import make_dataset

    y = np.where(np.arange(n) % 3 == 0, 1, -1)
    data = make_dataset("d", np.zeros((n, 2)), y)
    examples = 0
    for i, fold in enumerate(outer_folds(data, folds, seed=0)):
        examples += len(fold.train)
        if kind == "optimisation":
            examples += sum(len(f.train) for f in inner_folds(data, fold, i, inner, seed=0))
    epochs = 1000 if kind == "epoch-curve" else 7
    request = Request(kind, ((n, 2),), folds, epochs=7, jobs=1, inner_folds=inner)
    assert request.visits() == examples * KINDS[kind] * epochs


def test_the_page_refuses_a_run_that_is_too_big_and_keeps_the_last_result(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    app = AppTest.from_file(str(ROOT / "app_pages" / "experiments.py"), default_timeout=120).run()
    assert app.number_input(key="exp_jobs").max == PAGE_LIMITS.max_jobs()
    app.multiselect(key="exp_noise").set_value([0.1])
    app.number_input(key="exp_folds").set_value(3)
    app.number_input(key="exp_epochs").set_value(10)
    app.number_input(key="exp_jobs").set_value(1)
    app.button(key="exp_run").click().run()
    shown = app.dataframe[0].value
    cells = sorted(tmp_path.rglob("*.npz"))
    app.radio(key="exp_kind").set_value("Parameter optimisation")
    app.multiselect(key="exp_noise").set_value(list(KW_NOISE))
    app.number_input(key="exp_count").set_value(10)
    app.button(key="exp_run").click().run()
    assert not app.exception
    assert "50 data sets (at most 20)" in _as_read(app.error[0].value)
    assert sorted(tmp_path.rglob("*.npz")) == cells  # nothing ran
    assert app.dataframe[0].value.equals(shown)


# --------------------------------------------------------------------------
# Crafted links: the URL parser of the app's controls, and text shown as text
# --------------------------------------------------------------------------

MARKDOWN = "[log in](https://example.com) ![i](http://127.0.0.1:9/t.png) <b>x</b> :red[r] $x$"


def _as_read(shown: str) -> str:
    """Escaped text as CommonMark reads it (a backslash before punctuation is that
    character), without the invisible word joiners."""
    return re.sub(r"\\(.)", r"\1", shown).replace("\u2060", "")


def _markdown_is_escaped(shown: str) -> bool:
    """Nothing of MARKDOWN's syntax is left unescaped in ``shown``."""
    return not any(s in shown for s in ("](", "<b>", ":red[", "$x$", "https://", "http://"))


def test_as_text_leaves_no_markup_and_cuts():
    import doctest

    from perceptron_lab.app_logic import visitor_text

    assert doctest.testmod(visitor_text).failed == 0
    shown = as_text(MARKDOWN, 500)
    assert _markdown_is_escaped(shown)
    assert _as_read(shown) == MARKDOWN  # as typed
    assert as_text("a\nb\r\n# c\u202ed", markdown=False) == "a b  # c d"
    assert len(as_text("x" * 10_000)) == NAME_LIMIT and as_text("x" * 10_000).endswith("…")


@FUZZ
@given(st.text(max_size=300))
def test_as_text_reads_back_as_the_text(text):
    shown = as_text(text, 400)
    assert _as_read(shown) == as_text(text, 400, markdown=False).replace("\u2060", "")
    bare = re.sub(r"\\[!-/:-@\[-`{-~]", "", shown)  # without the escaped characters,
    assert not re.search(r"[!-/:-@\[-`{-~]", bare)  # no punctuation is left
    assert not re.search("[\x00-\x1f\u2028\u2029]", shown)  # no line break of any kind


@FUZZ
@given(
    text=st.text(max_size=60)
    | st.sampled_from(
        ["nan", "inf", "-inf", "1e999", "9" * 5000, "0x10", " 7 ", "7.0", "١٢", "1,2"]
    ),
    kind=st.sampled_from(["int", "float", "bool", "option", "list"]),
)
def test_link_values_parse_to_an_allowed_value_or_a_value_error(text, kind):
    options = ["voted", "pa", "kw"]
    args = {
        "int": (10, None, 1, 100),
        "float": (0.5, None, 0.0, 1.0),
        "bool": (True,),
        "option": ("voted", options),
        "list": ([], options, None, None, 2),
    }[kind]
    try:
        value = _parse(text, *args)
    except ValueError:
        return
    if kind == "int":
        assert type(value) is int and 1 <= value <= 100
    elif kind == "float":
        assert isinstance(value, float) and 0.0 <= value <= 1.0
    elif kind == "bool":
        assert type(value) is bool
    elif kind == "option":
        assert value in options
    else:
        assert set(value) <= set(options) and len(value) <= 2


def _control_page():
    import streamlit as st

    from perceptron_lab.ui.state import begin_run, control

    begin_run()
    control(
        st.slider, "Epochs", "t_epochs", 10, prefix="t_", group="g", min_value=1, max_value=100
    )
    control(
        st.selectbox, "Learner", "t_learner", "pa", prefix="t_", group="g", options=["pa", "voted"]
    )


@pytest.mark.parametrize(
    "params, fragment",
    [
        ({"epochs": MARKDOWN}, "was not understood"),
        ({"learner": "<img src=x onerror=alert(1)>"}, "was not understood"),
        ({"epochs": "9" * 60_000}, "is 60,000 characters long, more than the 1,000"),
        ({"epochs": "nan"}, "was not understood"),
    ],
)
def test_a_bad_link_value_is_refused_with_a_toast_that_shows_it_as_text(params, fragment):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_control_page)
    at.query_params.update(params)
    at.run()
    assert not at.exception
    assert at.session_state["t_epochs"] == 10 and at.session_state["t_learner"] == "pa"
    (toast,) = at.toast
    assert fragment in toast.value and len(toast.value) < 300
    assert _markdown_is_escaped(toast.value) and not re.search(r"(?<!\\)<", toast.value)


def test_an_upload_with_markdown_in_its_names_is_shown_as_text():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "router.py"), default_timeout=120).run()
    at.selectbox(key="pg_data").set_value("csv").run()
    rows = "\n".join(f"{i % 7},{MARKDOWN},{'yes' if i % 2 else MARKDOWN}" for i in range(20))
    upload = at.file_uploader(key="pg_upload")
    upload.set_value(("t.csv", f"{MARKDOWN},words,label\n{rows}\n".encode(), "text/csv")).run()
    assert not at.exception
    notes = [c.value for c in at.sidebar.caption]
    assert any("Dropped 1 column" in n for n in notes)  # 'words', quoting its Markdown
    assert all(_markdown_is_escaped(n) for n in notes)
    classes = [c.value for c in at.main.caption if "Classes in the figure" in c.value]
    assert len(classes) == 1 and _markdown_is_escaped(classes[0])  # naming the Markdown class
    one_class = f"x,label\n1,{MARKDOWN}\n2,{MARKDOWN}\n".encode()
    at.file_uploader(key="pg_upload").set_value(("t.csv", one_class, "text/csv")).run()
    assert not at.exception
    (error,) = at.error
    assert "only one value" in error.value and _markdown_is_escaped(error.value)


# -- numeric overflow in every estimator ------------------------------------------------

import perceptron_core  # noqa: E402
from perceptron_core._validation import OverflowedWarning  # noqa: E402

ESTIMATORS = sorted(
    name
    for name in perceptron_core.__all__
    if isinstance(getattr(perceptron_core, name), type)
    and hasattr(getattr(perceptron_core, name), "fit")
)


def _fit_saying_what_happened(estimator, X, y):
    """Fit; returns "error: ...", "warned" or "finite" (scores of every training row finite)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            estimator.fit(X, y)
        except ValueError as err:
            return f"error: {err}"
    if any(issubclass(w.category, OverflowedWarning) for w in caught):
        return "warned"
    with np.errstate(all="ignore"):
        finite = np.isfinite(np.asarray(estimator.decision_function(X), dtype=float)).all()
    return "finite" if finite else "silent non-finite scores"


@pytest.mark.parametrize("name", ESTIMATORS)
@pytest.mark.parametrize("scale", [1e306, 1e150])
def test_overflow_ends_in_an_error_or_a_warning_never_in_silent_nan(name, scale):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] + 0.3 * rng.normal(size=60) > 0).astype(int)
    outcome = _fit_saying_what_happened(getattr(perceptron_core, name)(), X * scale, y)
    # an error says what is accepted (Winnow: 0/1 features; Balanced Winnow: their scale)
    assert outcome in ("warned", "finite") or outcome.startswith(f"error: {name}"), outcome


def _epochs_parameter(name):
    params = getattr(perceptron_core, name)().get_params()
    return next((p for p in ("epochs", "max_epochs") if p in params), None)


#: Learners that stop after an epoch without an update (the dual loop and the
#: committee run every epoch they are asked for).
STOPPING = [
    name
    for name in ESTIMATORS
    if _epochs_parameter(name)
    and name not in ("KernelPerceptron", "AveragedKernelPerceptron", "ParallelPerceptron")
]


@pytest.mark.parametrize("name", STOPPING)
def test_asking_for_a_hundred_million_epochs_costs_only_the_epochs_that_run(name):
    cls, epochs = getattr(perceptron_core, name), _epochs_parameter(name)
    rng = np.random.default_rng(2)
    # boolean (Winnow's), the label copied into two features: every learner here, the
    # threshold-relative rule included, stops after a few epochs on these data (on data
    # whose margin is narrower that rule may correct forever: its docstring says why)
    y = rng.integers(0, 2, size=40)
    X = np.c_[y, y, rng.integers(0, 2, size=(40, 2))].astype(float)
    seeded = {"random_state": 0} if "random_state" in cls().get_params() else {}
    cls(**{epochs: 2}, **seeded).fit(X, y)  # compile outside the measurement
    tracemalloc.start()
    cls(**{epochs: 10**8}, **seeded).fit(X, y)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 5 * 2**20  # 10**8 epochs of counts would be 800 MB


def test_a_huge_learning_rate_is_named_in_the_warning():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(80, 4)) * 1e10
    y = (X[:, 0] > 0).astype(int)
    with pytest.warns(OverflowedWarning, match="smaller learning rate eta"):
        perceptron_core.Perceptron(eta=1e308, epochs=5).fit(X, y)


def test_a_link_or_a_session_keeps_at_most_a_thousand_point_edits():
    from streamlit.testing.v1 import AppTest

    from perceptron_core.datasets import make_separable
    from perceptron_lab.app_logic.datasource import make_dataset
    from perceptron_lab.app_logic.edits import MAX_EDITS, PointEdits, add_point, edited

    crafted = "~".join(f"+{i / 5000:.4f},0.5,1" for i in range(5_000))
    with pytest.raises(ValueError, match="at most 1,000 point edits, not 5,000"):
        PointEdits.from_text(crafted)
    at = AppTest.from_file(str(ROOT / "router.py"), default_timeout=120)
    at.query_params["edits"] = crafted
    at.run()
    assert not at.exception
    (toast,) = at.toast
    assert "at most 1,000 point edits" in toast.value.replace("\\", "")  # shown as text
    request = at.session_state["pg_last_good"][0]
    assert request.edits is None and len(make_dataset(request).X) == 100  # without them
    X0, y0 = make_separable(n_samples=20, random_state=0)[:2]
    full = PointEdits(added=tuple((i / 1000, 0.5, 1) for i in range(MAX_EDITS)))
    with pytest.raises(DataError, match="at most 1,000 point edits"):
        edited(full, X0, y0, add_point((0.9, 0.9), -1))


def test_a_crafted_link_cannot_make_a_run_hold_more_than_its_budget():
    """ringnorm, 500 features, 200 epochs: its replay could hold 1,610 MB. It is refused
    before it trains, with a message that says what was too big and what is allowed."""
    from streamlit.testing.v1 import AppTest

    link = {
        "data": "ringnorm",
        "ringnorm_n_samples": "2000",
        "ringnorm_n_features": "500",
        "epochs": "200",
        "seed": "3",
    }
    at = AppTest.from_file(str(ROOT / "router.py"), default_timeout=300)
    at.query_params.update(link)
    at.run()
    assert not at.exception
    (error,) = at.error
    text = error.value.replace("\\", "")
    assert "could hold 1,610 MB, more than the 45 MB a view may use" in text
    assert "Use at most 5 epochs" in text
    assert "pg_last_good" not in at.session_state  # nothing was kept for it


def test_the_largest_run_allowed_peaks_under_two_hundred_megabytes():
    from perceptron_core.datasets import DataError as Refused
    from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
    from perceptron_lab.app_logic.learners import LEARNERS
    from perceptron_lab.app_logic.training import fit_run

    data = make_dataset(
        DataRequest("ringnorm", (("n_samples", 2000), ("n_features", 500)), seed=1)
    )
    settings = tuple(sorted(LEARNERS["voted"].defaults().items()))
    fit_run("voted", settings, 1, 1, data.X, data.y, data.X_test, data.y_test)  # compiled
    largest = None
    for epochs in range(2, 30, 2):
        tracemalloc.start()
        try:
            fit_run("voted", settings, epochs, 1, data.X, data.y, data.X_test, data.y_test)
        except Refused:
            tracemalloc.stop()
            break
        largest = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert largest is not None and epochs < 28  # some runs are allowed, longer ones refused
    assert largest < 200e6


# -- second round: memory for everyone, numbers the figure cannot draw ------------------------


def test_a_run_over_budget_is_refused_before_the_learner_trains(monkeypatch):
    """The crafted link's ALMA run (2,000 x 500, 200 epochs) is refused from its shape: the
    learner's fit is never called, so no visitor can hold gigabytes before the refusal."""
    from perceptron_core.rules.alma import ALMA
    from perceptron_lab.app_logic.learners import LEARNERS
    from perceptron_lab.app_logic.training import fit_run

    def must_not_train(*args, **kwargs):
        raise AssertionError("the run trained before it was refused")

    monkeypatch.setattr(ALMA, "fit", must_not_train)
    X, y = np.zeros((2000, 500)), np.tile([-1, 1], 1000)
    settings = tuple(sorted(LEARNERS["alma"].defaults().items()))
    with pytest.raises(DataError, match=r"could hold 1,610 MB.*Use at most 5 epochs"):
        fit_run("alma", settings, 200, 0, X, y, X[:0], y[:0])


def test_the_server_caches_share_one_budget_and_keep_nothing_alive():
    """Data sets, runs and payloads are counted in one budget, which drops the least recently
    used; a payload does not keep its runs alive once the runs' entries are gone."""
    import gc
    import weakref

    from perceptron_lab.app_logic import memory
    from perceptron_lab.app_logic.datasource import DataRequest
    from perceptron_lab.ui import player, runs

    budget = memory.Budget(limit=3 * 2**20, idle_seconds=3600)
    original = memory.SERVER
    runs.SERVER = player.SERVER = budget
    try:
        alive = []
        for seed in range(12):
            request = DataRequest("separable", (("n_samples", 400),), seed=seed)
            data = runs.get_dataset(request)
            run = runs.train("perceptron", (), 20, seed, data.X, data.y, data.X_test, data.y_test)
            player.page_payload(request, data, [run], seed=seed)
            alive.append(weakref.ref(run))
            del run
            assert budget.held() <= budget.limit
        assert {"datasets", "runs", "payloads"} <= {slot[0] for slot in budget._entries}
        gc.collect()
        kept = sum(ref() is not None for ref in alive)
        assert kept == sum(1 for slot in budget._entries if slot[0] == "runs")
        assert kept < 12  # the early ones were dropped, their payloads did not hold them
    finally:
        runs.SERVER = player.SERVER = original


def test_a_cached_entry_nobody_used_for_a_while_is_dropped():
    from perceptron_lab.app_logic.memory import Budget

    now = [0.0]
    budget = Budget(limit=10**9, idle_seconds=60, clock=lambda: now[0])
    budget.cached("runs", "a", lambda: np.zeros(1000))
    now[0] = 30.0
    budget.cached("runs", "b", lambda: np.zeros(1000))
    now[0] = 75.0
    budget.sweep()  # a: idle 75 s, dropped; b: idle 45 s, kept
    assert budget.held() == 8000  # b alone (its key, a string, counts nothing)
    assert [slot[1] for slot in budget._entries] == ["b"]


def test_two_sessions_asking_at_once_make_an_entry_once():
    import threading

    from perceptron_lab.app_logic.memory import Budget

    budget, made = Budget(limit=10**9, idle_seconds=60), []
    start = threading.Barrier(4)

    def make():
        made.append(1)
        time.sleep(0.2)
        return np.zeros(10)

    def ask():
        start.wait()
        budget.cached("runs", "same", make)

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(made) == 1


@pytest.mark.parametrize("edits", ["+1e200,0,1", "+1e153,1e153,-1", "+1e101,0,1"])
def test_values_the_figure_cannot_draw_are_refused_with_the_fix(edits):
    """A link's edit (or a file) with values near float64's ends is refused before a run,
    naming the range accepted and the fix; before, 1e200 reached the browser as Infinity."""
    from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
    from perceptron_lab.app_logic.edits import PointEdits

    request = DataRequest("separable", (("n_samples", 40),), edits=PointEdits.from_text(edits))
    with pytest.raises(DataError, match=r"accept features from 1e-100 to 1e\+100.*Scale"):
        make_dataset(request)


@pytest.mark.parametrize("scale", [1e-170, 1e-101])
def test_a_table_of_tiny_values_is_refused_not_learned_at_chance(scale):
    """A 40-row table scaled by 1e-170 trained to accuracy 0.6 with an update at every step,
    silently: x.x underflows to 0. It is refused with the range accepted and the fix."""
    from perceptron_lab.app_logic.datasource import DataRequest, make_dataset

    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    y = np.where(X[:, 0] + X[:, 1] > 0, 1, 0)
    text = "x1,x2,y\n" + "".join(f"{a:.17g},{b:.17g},{c}\n" for (a, b), c in zip(X * scale, y))
    request = DataRequest("csv", csv_bytes=text.encode(), csv_label="y")
    with pytest.raises(DataError, match=r"accept features from 1e-100 to 1e\+100.*Scale"):
        make_dataset(request)


def test_a_crafted_link_with_huge_values_shows_a_message_not_a_broken_figure():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "router.py"), default_timeout=120)
    at.query_params.update({"edits": "+1e200,0,1"})
    at.run()
    assert not at.exception
    assert any("Scale the features" in e.value for e in at.error)


def test_tiny_features_are_named_by_every_learner_and_scale_dependent_ones_warn_early():
    """Below 1e-150 products of features underflow and every score is 0 (before: chance
    accuracy, silently); at 1e-3, the learners whose settings are in the features' units warn."""
    from perceptron_core import ALMA, KWPerceptron, PassiveAggressive, Perceptron
    from perceptron_core._validation import FeatureScaleWarning

    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    y = np.where(X[:, 0] + X[:, 1] > 0, 1, -1)
    for estimator in (Perceptron(), KWPerceptron(), ALMA()):
        with pytest.warns(FeatureScaleWarning, match="underflow to 0"):
            estimator.fit(X * 1e-170, y)
    for estimator in (ALMA(), PassiveAggressive()):
        with pytest.warns(FeatureScaleWarning, match="far from the 0.1 to 100"):
            estimator.fit(X * 1e-3, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", FeatureScaleWarning)
        Perceptron().fit(X * 1e-3, y)  # scale-free: no warning
        ALMA().fit(X, y)


def test_the_page_tells_the_visitor_what_the_learner_warned():
    """A run's scale problems reach the page, not only the server's log."""
    from perceptron_lab.app_logic.learners import LEARNERS
    from perceptron_lab.app_logic.training import fit_run

    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2)) * 1e-3
    y = np.where(X[:, 0] > 0, 1, -1)
    run = fit_run(
        "alma", tuple(sorted(LEARNERS["alma"].defaults().items())), 5, 0, X, y, X[:0], y[:0]
    )
    assert len(run.notes) == 1 and "Scale the features" in run.notes[0]


def test_a_bound_too_large_for_floating_point_says_so_instead_of_failing():
    """R = 1e99 and gamma = 1e-160 (both accepted values): (R/gamma)^2 overflows, which
    raised OverflowError ("Drawing the run failed") and could send inf to the browser."""
    from dataclasses import replace

    from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
    from perceptron_lab.app_logic.diagnostics import novikoff_for
    from perceptron_lab.app_logic.training import fit_run

    data = make_dataset(DataRequest("separable", (("n_samples", 20),)))
    X = np.array([[1e-160, 0.0], [-1e-160, 0.0], [1e99, 0.0], [-1e99, 0.0]])
    y = np.array([1, -1, 1, -1])
    data = replace(data, X=X, y=y, w_star=np.array([1.0, 0.0]), theta_star=0.0)
    run = fit_run("perceptron", (), 5, 0, X, y, X[:0], y[:0])
    sentence, bound = novikoff_for(run, data)
    assert bound is None and "too large for floating point" in sentence


def test_an_entry_is_counted_at_what_it_holds():
    """The budget counts a run at what Python and NumPy allocated for it (within 5 %): the
    estimator's own arrays, which a dataclass's fields do not list, and those numba made."""
    import gc

    from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
    from perceptron_lab.app_logic.memory import nbytes
    from perceptron_lab.app_logic.training import fit_run

    data = make_dataset(DataRequest("separable", (("n_samples", 500),), seed=1))
    fit_run("perceptron", (), 2, 1, data.X, data.y, data.X_test, data.y_test)  # compiled
    gc.collect()
    tracemalloc.start()
    run = fit_run("perceptron", (), 50, 1, data.X, data.y, data.X_test, data.y_test)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert abs(nbytes(run) - held) < 0.05 * held
