"""What the lesson and page tests share: a lesson as a module and as a page, a figure's run."""

from __future__ import annotations

import ast
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
LESSON_DIR = ROOT / "lessons"


class Lesson:
    """A lesson file as a module, for its helpers: the names it defines, read as attributes.

    The file is loaded (once per test process) when a test first reads one of its names.
    Loading runs the whole page outside Streamlit, which renders nothing but trains its
    figures and computes its studies: a test module that names a lesson at its top thus
    costs nothing when it is collected, only when one of its tests runs. A name read while
    pytest collects (a parameter list, a constant at a module's top) would run the page in
    every worker before any test, so it fails instead: pytest sets ``PYTEST_CURRENT_TEST``
    while a test, or a fixture of it, runs, and not while it collects.
    """

    def __init__(self, stem: str):
        self.stem = stem

    def __getattr__(self, name: str):
        if name.startswith("_"):  # what pytest asks of every global it collects
            raise AttributeError(name)
        if "PYTEST_CURRENT_TEST" not in os.environ:
            raise RuntimeError(
                f"lessons/{self.stem}.py's {name} was read outside a test (while pytest "
                "collects?), which runs the whole page: read it in the test, or from the "
                f"file with lesson_literal({self.stem!r}, {name!r})"
            )
        return getattr(_loaded(self.stem), name)


def _loaded(stem: str) -> ModuleType:
    name = f"lesson_{stem}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, LESSON_DIR / f"{stem}.py")
        assert spec is not None and spec.loader is not None, stem
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # its dataclasses look their module up there
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
    return sys.modules[name]


def lesson_module(stem: str) -> Lesson:
    """The lesson file ``lessons/<stem>.py`` as a module (:class:`Lesson`)."""
    return Lesson(stem)


def lesson_literal(stem: str, name: str):
    """The value of ``name = <literal>`` at the top of the lesson file, read without running
    the page: for what a test needs while it is collected (its parameters)."""
    tree = ast.parse((LESSON_DIR / f"{stem}.py").read_text(encoding="utf-8"))
    (value,) = [
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and [getattr(target, "id", None) for target in node.targets] == [name]
    ]
    return ast.literal_eval(value)


def page_run(learner_key: str, values: dict, epochs: int, seed: int, data):
    """A figure's recorded run, as a page trains it (a lesson's ``stage``, the playground):
    the learner's defaults with the page's ``values``, through ``fit_run``."""
    from perceptron_lab.app_logic.learners import LEARNERS  # the menu imports every learner
    from perceptron_lab.app_logic.training import fit_run

    learner = LEARNERS[learner_key]
    settings = {**learner.defaults(), **values}
    return fit_run(
        learner_key,
        tuple(sorted(settings.items())),
        epochs,
        seed,
        *data.fit_data(learner.learns_classes),
    )


#: The data seeds a sentence is checked on: the pages' seed control offers 0 to 9,999.
TEN_SEEDS = range(10)


def opening_then_ten_seeds(opening: int) -> list:
    """``seeds`` for ``pytest.mark.parametrize``: the page's opening seed in the fast suite,
    then seeds 0-9 marked ``slow``."""
    return [
        pytest.param((opening,), id=f"seed{opening}"),
        pytest.param(TEN_SEEDS, id="seeds0-9", marks=pytest.mark.slow),
    ]


def run_lesson(stem: str) -> AppTest:
    """The lesson's page, run once, with no exception and no error box."""
    at = AppTest.from_file(str(LESSON_DIR / f"{stem}.py"), default_timeout=300)
    at.run()
    assert_page_ok(at)
    return at


def assert_page_ok(at: AppTest) -> None:
    """No exception and no error box on the page."""
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def metrics(at: AppTest) -> dict[str, str]:
    """The page's metrics by label."""
    return {m.label: m.value for m in at.metric}


def percent(text: str) -> float:
    """A metric's text such as ``"85.0%"`` as a fraction."""
    return float(text.strip().rstrip("%")) / 100
