"""The experiment subcommands write the documented JSON, CSV and Markdown."""

from __future__ import annotations

import csv
import json

import pytest

from perceptron_core.cli import main
from perceptron_core.modes import MODES

SEARCH_COLUMNS = ["nothing", "tau", "lam", "alpha", "tauxlam", "tauxalpha"]
QUICK = ["--jobs", "1", "--no-cache", "--quiet"]


def test_reproduce_kw_table4_writes_one_record_per_cell(tmp_path, capsys):
    path = tmp_path / "table4.json"
    assert main(["reproduce", "kw-table4", "--datasets", "1", "--json", str(path), *QUICK]) == 0
    records = json.loads(path.read_text())
    assert len(records) == 5 * 4 * 6  # noise levels x modes x columns
    assert {r["noise"] for r in records} == {0.0, 0.05, 0.1, 0.15, 0.25}
    assert sorted({r["mode"] for r in records}) == sorted(MODES)
    assert sorted({r["column"] for r in records}) == sorted(SEARCH_COLUMNS)
    assert all(0 <= r["accuracy"] <= 100 for r in records)
    clean = [r["accuracy"] for r in records if r["noise"] == 0.0]
    noisy = [r["accuracy"] for r in records if r["noise"] == 0.25]
    assert min(clean) > max(noisy)  # a sanity check that the rows are not shuffled
    out = capsys.readouterr().out
    assert "| noise | mode | nothing | tau | lam | alpha | tauxlam | tauxalpha |" in out


def test_optimize_writes_intervals_and_all_three_forms(tmp_path):
    code = main(
        [
            "optimize",
            "kw:f=10,M=0.1,N=0.1,n=60",
            "--folds",
            "3",
            "--inner",
            "3",
            "--epochs",
            "10",
            "--out",
            str(tmp_path),
            *QUICK,
        ]
    )
    assert code == 0
    stem = "optimize-kw_f_10_M_0.1_N_0.1_n_60"
    records = json.loads((tmp_path / f"{stem}.json").read_text())
    assert {r["column"] for r in records} == set(SEARCH_COLUMNS) | {"tau->lam", "tau->alpha"}
    for r in records:
        assert r["ci_low"] == pytest.approx(r["accuracy"] - r["interval"], abs=1e-3)
        assert r["ci_high"] == pytest.approx(r["accuracy"] + r["interval"], abs=1e-3)
        assert r["n_folds"] == 3
    rows = list(csv.DictReader((tmp_path / f"{stem}.csv").open()))
    assert len(rows) == len(records) and float(rows[0]["accuracy"]) == records[0]["accuracy"]
    assert "± " in (tmp_path / f"{stem}.md").read_text()


def test_search_groups_generated_sets_by_noise(tmp_path):
    path = tmp_path / "s.json"
    assert (
        main(
            [
                "search",
                "kw:f=10,M=0.05,N=0.1,n=60",
                "--datasets",
                "2",
                "--folds",
                "3",
                "--epochs",
                "10",
                "--json",
                str(path),
                *QUICK,
            ]
        )
        == 0
    )
    records = json.loads(path.read_text())
    assert len(records) == 4 * 6 and all(
        r["noise"] == 0.1 and r["n_datasets"] == 2 for r in records
    )


def test_unknown_data_is_explained(capsys):
    assert main(["search", "no-such-set", *QUICK]) == 1
    assert "There is no data set called 'no-such-set'" in capsys.readouterr().err


def test_size_curve_grows_a_generated_pool_to_fit_every_size(tmp_path):
    path = tmp_path / "curve.json"
    assert (
        main(
            [
                "curve",
                "kw:f=8,M=0.1,N=0.1",
                "--x",
                "size",
                "--sizes",
                "10,40",
                "--repeats",
                "2",
                "--test-size",
                "50",
                "--epochs",
                "5",
                "--tau",
                "0,1",
                "--json",
                str(path),
                *QUICK,
            ]
        )
        == 0
    )
    records = json.loads(path.read_text())
    assert len(records) == 2 * 2 * 4  # sizes x taus x modes
    assert {(r["size"], r["tau"]) for r in records} == {(10, 0.0), (10, 1.0), (40, 0.0), (40, 1.0)}
    assert all(r["sd"] >= 0 for r in records)


def test_a_csv_file_is_data(tmp_path):
    rows = ["a,b,label"] + [
        f"{i % 7},{(3 * i) % 5},{'yes' if i % 7 > 3 else 'no'}" for i in range(60)
    ]
    data = tmp_path / "toy.csv"
    data.write_text("\n".join(rows) + "\n")
    path = tmp_path / "toy.json"
    assert (
        main(["search", str(data), "--folds", "3", "--epochs", "5", "--json", str(path), *QUICK])
        == 0
    )
    assert {r["dataset"] for r in json.loads(path.read_text())} == {"toy.csv"}
