"""Hostile input, second round: uploads one after another, files without a header row,
labels that float64 cannot tell apart, and command lines whose output cannot be written."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from perceptron_core.cli import main
from perceptron_core.datasets import load_csv

ROOT = Path(__file__).resolve().parents[1]
QUICK = ["--jobs", "1", "--no-cache", "--quiet"]
#: A run that would take a few seconds if it started (it must not).
SEARCH = ["search", "kw:f=10,M=0.05,N=0.1,n=60", "--folds", "3", "--epochs", "5", *QUICK]


def _rows(n: int, row) -> str:
    return "\n".join(row(i) for i in range(n)) + "\n"


# -- uploads in the playground --------------------------------------------------------------


def _playground():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "router.py"), default_timeout=120).run()
    at.selectbox(key="pg_data").set_value("csv").run()
    return at


def _upload(at, text: str):
    at.file_uploader(key="pg_upload").set_value(("t.csv", text.encode(), "text/csv")).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def _trained(at):
    """The request and the data of the figure on screen (the session keeps the request; the
    data come from the server's cache, in this process)."""
    from perceptron_lab.ui.runs import get_dataset

    request = at.session_state["pg_last_good"][0]
    return request, get_dataset(request)


def test_a_second_upload_starts_from_its_own_columns_not_the_first_files():
    at = _upload(_playground(), "x1,x2,y\n" + _rows(40, lambda i: f"{i % 7},{i % 5},{i % 2}"))
    assert _trained(at)[0].csv_label == "y"
    # 'y' is a feature now and 'label' the label: the old choice of 'y' must not survive
    _upload(at, "y,x2,label\n" + _rows(40, lambda i: f"{i * 0.5},{i % 5},{'ab'[i % 2]}"))
    assert not at.error, [e.value for e in at.error]
    request, data = _trained(at)
    assert request.csv_label == "label" and data.feature_names == ("y", "x2")
    assert data.class_names == ("a", "b")
    assert not any("not numeric" in c.value for c in at.caption)
    # a file sharing no name: its own figure, not an empty choice and the old figure
    _upload(at, "p,q,kind\n" + _rows(30, lambda i: f"{i % 3},{i % 4},{'uv'[i % 2]}"))
    assert not at.error and not at.warning, [e.value for e in at.error + at.warning]
    request, data = _trained(at)
    assert request.csv_label == "kind" and data.feature_names == ("p", "q")
    assert at.multiselect(key="pg_csv_features").value == ["p", "q"]


def test_a_file_without_a_header_row_gets_its_label_by_position():
    # iris-like: four measurements, then the class; no header row
    rows = _rows(
        40,
        lambda i: (
            f"{5 + i % 3 * 0.1:.1f},{3 + i % 4 * 0.1:.1f},1.{i % 5},0.2,"
            f"{'setosa' if i % 2 else 'versicolor'}"
        ),
    )
    at = _upload(_playground(), rows)
    assert not at.error, [e.value for e in at.error]
    label = at.selectbox(key="pg_csv_label")
    assert label.value == 4 and label.options == [f"column {j} of 5" for j in range(1, 5)] + [
        "column 5 of 5 (the last)"
    ]
    request, data = _trained(at)
    assert request.csv_label == 4 and len(data.X) == 40
    assert data.feature_names == ("column 1", "column 2", "column 3", "column 4")
    assert set(data.class_names) == {"setosa", "versicolor"}


def test_a_headerless_file_whose_last_column_is_no_label_can_be_given_another():
    # the class first (as in many UCI files), then 150 different measurements in the last
    rows = _rows(150, lambda i: f"{'MB'[i % 2]},{i % 7},{i * 0.01:.2f}")
    at = _upload(_playground(), rows)
    (error,) = at.error  # the last column is refused, in words, and the control stays
    assert "150 different values" in error.value and "choose another label column" in error.value
    at.selectbox(key="pg_csv_label").set_value(0).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    request, data = _trained(at)
    assert request.csv_label == 0 and data.feature_names == ("column 2", "column 3")
    assert data.class_names == ("B", "M")


# -- labels that float64 cannot tell apart --------------------------------------------------


BIG = (100000000000000000, 100000000000000001)  # one float64, two integers


def test_large_integer_labels_stay_two_classes_in_the_csv_reader():
    text = "x,label\n" + _rows(6, lambda i: f"{i},{BIG[i % 2]}")
    data = load_csv(text.encode())
    assert data.class_names == [str(BIG[0]), str(BIG[1])]
    assert data.y.tolist() == [-1, 1] * 3
    # one number written two ways is still one class; positive_label is compared exactly
    same = load_csv(b"x,label\n1,1\n2,1.0\n3,2\n4,2e0\n", positive_label="1.00")
    assert same.class_names == ["2", "1"] and same.y.tolist() == [1, 1, -1, -1]
    beyond = load_csv(b"x,label\n1,1e-400\n2,0\n")  # float64 rounds 1e-400 to 0
    assert beyond.class_names == ["0", "1E-400"]


@pytest.mark.parametrize("name", ["Perceptron", "KWPerceptron", "VotedPerceptron", "Winnow"])
def test_large_integer_labels_stay_two_classes_in_the_estimators(name):
    import perceptron_core

    X = np.array([[1.0, 0.0], [0.0, 1.0]] * 5)
    y = np.array([BIG[0], BIG[1]] * 5)
    model = getattr(perceptron_core, name)().fit(X, y)
    assert model.classes_.tolist() == list(BIG)
    assert model.predict(X).tolist() == y.tolist()


# -- the command line ------------------------------------------------------------------------


def _one_line_error(capsys, *words) -> str:
    out, err = capsys.readouterr()
    assert out == "", "nothing runs, so no table is printed"
    assert err.count("\n") == 1 and err.startswith("perceptron-lab: error: "), err
    assert "Traceback" not in err and all(w in err for w in words), err
    return err


def test_json_into_a_missing_folder_is_refused_before_the_work(tmp_path, capsys):
    assert main([*SEARCH, "--json", str(tmp_path / "missing" / "s.json")]) == 1
    _one_line_error(capsys, "--json", "does not exist")


def test_out_naming_an_existing_file_is_refused_before_the_work(tmp_path, capsys):
    taken = tmp_path / "results"
    taken.write_text("keep me")
    assert main([*SEARCH, "--out", str(taken)]) == 1
    _one_line_error(capsys, "--out", "is a file, not a folder")
    assert taken.read_text() == "keep me"


def test_a_path_that_cannot_be_written_is_refused_before_the_work(tmp_path, capsys):
    assert main(["generate", "separable", "-o", "/proc/x.csv", "--seed", "1"]) == 1
    _one_line_error(capsys, "--out", "/proc/x.csv")
    assert main([*SEARCH, "--csv", str(tmp_path)]) == 1  # a folder where a file is needed
    _one_line_error(capsys, "--csv", "is a folder")
    assert not list(tmp_path.iterdir())  # the check left nothing behind


@pytest.mark.parametrize("flag", ["--epochs", "--folds"])
def test_zero_epochs_is_refused_about_epochs(flag, capsys):
    with pytest.raises(SystemExit) as stop:
        main([*SEARCH, flag, "0"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {flag}: the number of {flag[2:]} must be a whole number" in err, err
    assert "checkpoint" not in err and "Traceback" not in err
