"""The predictors' names are written once (perceptron_core/modes.py); the rest imports them."""

from __future__ import annotations

import re
from pathlib import Path

from perceptron_core.modes import MODES

ROOT = Path(__file__).resolve().parents[1]
#: A tuple or list literal of the four names in their order, across lines or not.
WRITTEN_OUT = re.compile(
    r"[(\[]\s*" + r"\s*,\s*".join(f"[\"']{m}[\"']" for m in MODES) + r"\s*,?\s*[)\]]"
)
FOLDERS = ("perceptron_core", "app_logic", "ui", "app_pages", "lessons", "widget", "tests")


def _copies() -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{text[: found.start()].count(chr(10)) + 1}"
        for folder in FOLDERS
        for path in sorted((ROOT / folder).rglob("*"))
        if path.suffix in (".py", ".js") and "vendor" not in path.parts
        for text in [path.read_text(encoding="utf-8")]
        for found in WRITTEN_OUT.finditer(text)
    ]


def test_the_four_names_are_written_out_only_in_the_modes_module():
    assert _copies() == ["perceptron_core/modes.py:18"]


def test_the_check_finds_a_copy_across_lines():
    copy = 'MODES = [\n    "last",\n    "longest",\n    "voted",\n    "averaged",\n]\n'
    assert WRITTEN_OUT.search(copy)
    assert not WRITTEN_OUT.search('modes = ("last", "longest", "averaged")')  # not all four
