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
