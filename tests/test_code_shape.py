"""The package's functions take few parameters: state travels as small records."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _parameter_counts():
    for path in sorted([*ROOT.glob("perceptron_core/**/*.py"), *ROOT.glob("ui/*.py")]):
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
