"""The wheel carries the core, the app and the shipped data; installed, it finds them.

The build test makes a real wheel (pip, with build isolation) from a copy of
the checkout, or takes the one ``.ci/run`` built from the checkout a moment
before (``PERCEPTRON_LAB_WHEEL``), and installs it with ``pip install --target``
(no dependencies: this environment has them), then runs Python from an
unrelated folder against that installed copy only.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from perceptron_lab.cli import APP_FOLDER
from tests.live import perceptron_lab, serve_once

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
APP_FOLDERS = ("ui", "app_logic", "app_pages", "lessons")
DATA = ROOT / "data"
SHIPPED_SETS = sorted(p.stem for p in DATA.glob("*.npz"))


def _folders(top: Path, python_only: bool) -> list[Path]:
    """``top`` and the folders below it (only those that hold a ``.py`` file, if asked)."""
    found = {p.parent for p in top.rglob("*.py")} if python_only else {top, *top.rglob("*")}
    return sorted(f for f in found if f.is_dir() and "__pycache__" not in f.parts)


def test_app_folder_of_a_checkout_is_its_root():
    assert APP_FOLDER == ROOT


def test_every_folder_of_the_app_and_every_python_folder_of_the_core_is_a_listed_package():
    """A folder missing from the list is left out of the wheel (or, with only data files,
    included with a warning that a later setuptools may turn into an error)."""
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    expected = {
        ".".join(folder.relative_to(ROOT).parts)
        for folder in _folders(ROOT / "perceptron_core", python_only=True)
    }
    for name in (*APP_FOLDERS, "data"):
        expected |= {
            ".".join(("perceptron_lab",) + folder.relative_to(ROOT).parts)
            for folder in _folders(ROOT / name, python_only=False)
        }
    missing = sorted(expected - listed)
    assert not missing, f"add these to [tool.setuptools] packages in pyproject.toml: {missing}"


def _copy_checkout(target: Path) -> Path:
    """The checkout without build output, caches and local environments."""
    shutil.copytree(
        ROOT,
        target,
        ignore=shutil.ignore_patterns(
            ".git",
            "build",
            "dist",
            "*.egg-info",
            ".ci-venv",
            ".ci-lowest-venv",
            ".venv",
            "venv",
            "__pycache__",
            "*.nbi",
            "*.nbc",
            ".pytest_cache",
            ".hypothesis",
            "test-artifacts",
            "node_modules",
        ),
    )
    return target


#: A wheel of this checkout built already (``.ci/run`` builds one first and names it here).
BUILT_WHEEL = "PERCEPTRON_LAB_WHEEL"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """A wheel built from a clean copy of this checkout, or the one :data:`BUILT_WHEEL` names."""
    if os.environ.get(BUILT_WHEEL):
        built = Path(os.environ[BUILT_WHEEL])
        assert built.is_file() and built.name.startswith("perceptron_lab-"), built
        return built
    tmp = tmp_path_factory.mktemp("wheel")
    source = _copy_checkout(tmp / "source")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(source),
            "--no-deps",
            "--quiet",
            "--wheel-dir",
            str(tmp / "dist"),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    (built,) = (tmp / "dist").glob("perceptron_lab-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """The wheel installed into an empty folder (its site-packages)."""
    site = tmp_path_factory.mktemp("site")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            str(wheel),
            "--no-deps",
            "--quiet",
            "--target",
            str(site),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    return site


@pytest.mark.slow
def test_wheel_carries_the_app_and_the_data_without_generic_top_level_names(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    tops = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert tops == {"perceptron_core", "perceptron_lab"}
    shipped = [p for p in DATA.iterdir() if p.suffix in (".npz", ".json", ".md")]
    app_files = [
        ROOT / name for name in ("app.py", "router.py", "cli.py", ".streamlit/config.toml")
    ]
    for folder in APP_FOLDERS:
        app_files += [
            p
            for p in (ROOT / folder).rglob("*")
            if p.suffix in (".py", ".html", ".js", ".css", ".txt") and "__pycache__" not in p.parts
        ]
    for path in shipped + app_files:
        name = "perceptron_lab/" + path.relative_to(ROOT).as_posix()
        assert name in names, f"{name} is not in the wheel"
    core = [p for p in (ROOT / "perceptron_core").rglob("*.py") if "__pycache__" not in p.parts]
    for path in core:
        assert path.relative_to(ROOT).as_posix() in names


def _run_installed(site: Path, cwd: Path, code: str) -> str:
    """Run ``code`` with only the installed copy (not this checkout) importable."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PERCEPTRON_LAB_DATA")}
    env["PYTHONPATH"] = str(site)
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
def test_installed_wheel_finds_its_app_and_data_from_any_folder(installed, tmp_path):
    out = _run_installed(
        installed,
        tmp_path,
        """
import json
import perceptron_core
from perceptron_core.datasets import list_datasets, load
from perceptron_lab.cli import APP_FOLDER
X, y, info = load("sonar")
print(json.dumps({
    "core": perceptron_core.__file__,
    "app": str(APP_FOLDER),
    "sonar": list(X.shape),
    "available": sorted(s.name for s in list_datasets("shipped") if s.available),
}))
""",
    )
    found = json.loads(out)
    assert Path(found["core"]).is_relative_to(installed)
    assert found["app"] == str(installed / "perceptron_lab")
    assert found["sonar"] == [208, 60]
    assert found["available"] == SHIPPED_SETS


@pytest.mark.slow
def test_installed_wheel_warms_a_learner_and_serves_the_app(installed, tmp_path):
    warm = perceptron_lab(installed, tmp_path, "warm", "--learners", "perceptron")
    out = warm.communicate(timeout=600)[0]
    assert warm.returncode == 0, out
    assert "1 of 1 learners ready" in out
    body, printed, port = serve_once(installed, tmp_path)
    assert body == "ok"
    assert f"Perceptron Lab from {installed / 'perceptron_lab'}: preparing" in printed
    assert f"then serving it at http://127.0.0.1:{port}/" in printed
