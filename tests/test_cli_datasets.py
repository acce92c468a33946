"""The perceptron-lab command: the table of subcommands, `datasets` and `generate`."""

import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from perceptron_core import cli
from perceptron_core.datasets import list_datasets, load_csv, make_imbalanced, make_kw

ROOT = Path(__file__).resolve().parents[1]


def test_datasets_lists_every_set_with_shape_and_source(capsys):
    assert cli.main(["datasets"]) == 0
    out = capsys.readouterr().out
    for spec in list_datasets():
        line = next(ln for ln in out.splitlines() if ln.startswith(spec.name + " "))
        assert f"{spec.shape[0]} x {spec.shape[1]}" in line
        assert spec.kind in line
    assert "r-cran-mlbench" in out and "r-cran-kernlab" in out and "scikit-learn" in out


def test_datasets_json_and_kind_filter(capsys):
    assert cli.main(["datasets", "--json", "--kind", "shipped"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["name"] for r in rows} == {s.name for s in list_datasets("shipped")}
    sonar = next(r for r in rows if r["name"] == "sonar")
    assert sonar["shape"] == [208, 60] and sonar["class_counts"] == [97, 111]
    assert sonar["available"] is True
    assert any(o["name"] == "positive_class" for o in sonar["options"])


def test_datasets_verbose_shows_options(capsys):
    assert cli.main(["datasets", "--kind", "generator", "-v"]) == 0
    out = capsys.readouterr().out
    assert "option margin (default 0.1)" in out and "option random_state" in out


def test_generate_csv_matches_the_generator(tmp_path, capsys):
    out = tmp_path / "kw.csv"
    code = cli.main(
        [
            "generate",
            "kw",
            "--seed",
            "3",
            "--n-features",
            "8",
            "--margin",
            "0.25",
            "--noise",
            "0.1",
            "--n-samples",
            "120",
            "--dtype",
            "int8",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    assert "wrote 120 examples x 8 features" in capsys.readouterr().out
    X, y, flipped, _ = make_kw(8, 0.25, 0.1, 120, random_state=3)
    data = load_csv(out)
    np.testing.assert_array_equal(data.X, X)
    np.testing.assert_array_equal(data.y, y)
    assert data.feature_names == [f"x{i}" for i in range(1, 9)]
    lines = out.read_text().splitlines()
    assert lines[0].endswith(",label") and lines[1].count(",") == 8
    assert "." not in lines[1]  # integers written as integers


def test_generate_csv_with_flipped_column_and_float_data(tmp_path):
    out = tmp_path / "g.csv"
    assert (
        cli.main(
            [
                "generate",
                "imbalanced",
                "--seed",
                "1",
                "--positive-rate",
                "1/51",
                "--n-samples",
                "510",
                "--noise",
                "0.2",
                "--include-flipped",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    X, y, flipped, _ = make_imbalanced(510, positive_rate=1 / 51, noise=0.2, random_state=1)
    table = np.loadtxt(out, delimiter=",", skiprows=1)
    np.testing.assert_array_equal(table[:, :2], X)  # %.17g round-trips floats exactly
    np.testing.assert_array_equal(table[:, 2], y)
    np.testing.assert_array_equal(table[:, 3].astype(bool), flipped)


def test_generate_npz_holds_data_mask_target_and_metadata(tmp_path):
    out = tmp_path / "kw.npz"
    assert (
        cli.main(
            [
                "generate",
                "kw",
                "--seed",
                "5",
                "--n-samples",
                "300",
                "--noise",
                "0.2",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    ref = make_kw(50, 0.1, 0.2, 300, random_state=5)
    with np.load(out, allow_pickle=False) as npz:
        np.testing.assert_array_equal(npz["X"], ref.X)
        np.testing.assert_array_equal(npz["y"], ref.y)
        np.testing.assert_array_equal(npz["flipped"], ref.flipped)
        np.testing.assert_array_equal(npz["target_w"], ref.target.w)
        assert float(npz["target_theta"]) == ref.target.theta
        meta = json.loads(str(npz["meta"]))
    assert meta["generator"] == "kw" and meta["options"]["random_state"] == 5
    assert meta["options"]["noise"] == 0.2


def test_generate_without_seed_prints_the_seed_it_used(tmp_path, capsys):
    out = tmp_path / "t.npz"
    assert cli.main(["generate", "twonorm", "--n-samples", "40", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    seed = int(printed.split("--seed ")[1].split()[0])
    again = tmp_path / "again.npz"
    assert (
        cli.main(
            ["generate", "twonorm", "--n-samples", "40", "--seed", str(seed), "--out", str(again)]
        )
        == 0
    )
    with np.load(out) as a, np.load(again) as b:
        np.testing.assert_array_equal(a["X"], b["X"])


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["generate", "kw", "--margin", "80", "--out", "x.csv"], "margin M=80 is too large"),
        (["generate", "kw", "--noise", "2", "--out", "x.csv"], "noise"),
        (["generate", "twonorm", "--out", "x.txt"], ".csv or .npz"),
        (["generate", "twonorm", "--out", "no/such/folder/x.csv"], "does not exist"),
    ],
)
def test_generate_errors_are_messages_with_exit_status_1(
    argv, fragment, capsys, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    assert cli.main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("perceptron-lab: error: ") and fragment in err


def test_usage_errors_and_help_exit_like_argparse(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["generate", "iris", "--out", "x.csv"])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        cli.main(["generate", "kw", "--margin", "wide", "--out", "x.csv"])
    assert exc.value.code == 2
    assert "1/11" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        cli.main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "datasets" in out and "generate" in out


def test_every_generator_option_is_a_flag(capsys):
    for spec in list_datasets("generator"):
        with pytest.raises(SystemExit):
            cli.main(["generate", spec.name, "--help"])
        out = capsys.readouterr().out
        for opt in spec.options:
            flag = "--seed" if opt.type == "seed" else "--" + opt.name.replace("_", "-")
            assert flag in out, (spec.name, flag)


def test_new_subcommands_plug_into_the_table(monkeypatch, capsys):
    monkeypatch.setattr(cli, "SUBCOMMANDS", dict(cli.SUBCOMMANDS))

    def add(parser: argparse.ArgumentParser):
        parser.add_argument("--times", type=int, default=1)

    @cli.register("hello", "say hello", add)
    def run(args):
        print("hello " * args.times)
        return 3

    assert cli.main(["hello", "--times", "2"]) == 3
    assert "hello hello" in capsys.readouterr().out
    assert list(cli.SUBCOMMANDS)[:2] == ["datasets", "generate"]


def test_module_runs_as_a_program():
    out = subprocess.run(
        [sys.executable, "-m", "perceptron_core.cli", "datasets", "--kind", "scikit-learn"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "breast_cancer" in out.stdout and "digits" in out.stdout


def test_version_prints_the_installed_version_and_exits_0(capsys):
    from importlib import metadata

    with pytest.raises(SystemExit) as exc:
        cli.main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == f"perceptron-lab {metadata.version('perceptron-lab')}\n"


def test_version_falls_back_to_the_package_when_not_installed(monkeypatch):
    from importlib import metadata

    import perceptron_core

    def not_installed(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", not_installed)
    assert cli.package_version() == perceptron_core.__version__


#: Prints every help page of the command, then the heavy libraries that got imported.
HELP_PROBE = """
import contextlib, io, sys
from perceptron_core import cli
from perceptron_core.datasets import list_datasets
heavy = set(sys.argv[1].split(","))
commands = [[]] + [[name] for name in cli.SUBCOMMANDS]
commands += [["generate", spec.name] for spec in list_datasets("generator")]
pages = []
for command in commands:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        cli.build_parser().parse_args([*command, "--help"])
    pages.append(out.getvalue())
assert all(page.startswith("usage: perceptron-lab") for page in pages), pages
print(len(pages))
print(sorted(m for m in sys.modules if m.split(".")[0] in heavy))
"""


def test_help_of_every_command_imports_no_heavy_library():
    """``--help`` stays fast: scikit-learn, numba, SciPy, Streamlit, Plotly (and NumPy, pandas,
    joblib behind them) load only when a command runs."""
    heavy = "sklearn,numba,llvmlite,scipy,streamlit,plotly,numpy,pandas,joblib"
    done = subprocess.run(
        [sys.executable, "-c", HELP_PROBE, heavy],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    count, imported = done.stdout.splitlines()
    assert int(count) == 1 + len(cli.SUBCOMMANDS) + len(list_datasets("generator"))
    assert imported == "[]"


def test_lazy_packages_export_what_they_list():
    """Each lazy package lists its public names once, in its ``if TYPE_CHECKING:`` imports;
    ``__all__`` and the names imported on use are read from there."""
    import importlib

    import perceptron_core
    import perceptron_core.datasets as datasets
    import perceptron_core.experiments as experiments
    from perceptron_core._lazy import exports
    from perceptron_core.datasets import _common

    for package in (perceptron_core, datasets, experiments):
        where = exports(package.__name__)
        assert package.__all__ == sorted(where) and len(where) >= 25
        assert set(package.__all__) <= set(dir(package))
        for name, module in where.items():
            assert getattr(package, name) is getattr(importlib.import_module(module), name)
    assert datasets.DataError is _common.DataError
    assert experiments.parameter_search.__module__ == "perceptron_core.experiments.search"
    assert not hasattr(perceptron_core, "NoSuchEstimator")


def test_a_public_name_that_is_also_its_submodules_name_stays_the_function():
    """Importing ``reproduce.py`` for ``REPRODUCTIONS`` binds the submodule on the package;
    the function of the same name must still be what ``from ... import reproduce`` gives."""
    probe = (
        "from perceptron_core.experiments import REPRODUCTIONS, paum_study, reproduce\n"
        "print(callable(reproduce), callable(paum_study))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"]
