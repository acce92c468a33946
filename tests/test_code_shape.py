"""The package's functions take few parameters: state travels as small records."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _parameter_counts():
    folders = ("perceptron_core", "app_logic", "ui")
    for path in sorted(p for folder in folders for p in ROOT.glob(f"{folder}/**/*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                args = node.args
                names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
                count = len([n for n in names if n not in ("self", "cls")])
                yield path.relative_to(ROOT).as_posix(), node.name, count


def test_no_function_takes_more_than_ten_parameters():
    """(The estimators' constructors are not in the source: ``hyperparameters`` writes them.)"""
    counts = list(_parameter_counts())
    assert len(counts) > 500  # the walk found the package
    assert [(f, name, n) for f, name, n in counts if n > 10] == []


def test_app_logic_runs_without_streamlit_and_ui_is_only_streamlit():
    """Logic lives in app_logic/, which never loads Streamlit; every module of ui/ uses it."""
    modules = sorted(
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for path in (ROOT / "app_logic").rglob("*.py")
    )
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'streamlit'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert len(modules) > 10
    assert done.stdout.strip() == "[]"
    for path in sorted((ROOT / "ui").glob("*.py")):
        assert "streamlit" in _top_level_imports(path), (
            f"{path.name} does not use Streamlit: it belongs in app_logic/"
        )


def _top_level_imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names
