"""The README's Python example runs as written and prints what it says it prints, and the README
stays short enough to read before starting."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from perceptron_core.modes import MODES

ROOT = Path(__file__).resolve().parents[1]


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.DOTALL)


def test_the_core_example_prints_a_test_accuracy_per_predictor(tmp_path):
    (block,) = _python_blocks()
    # as a reader runs it: a new interpreter, in a folder of their own
    done = subprocess.run(
        [sys.executable, "-c", block], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines] == list(MODES)
    assert all(0.5 < float(line.split()[-1]) <= 1.0 for line in lines)


def test_the_readme_is_at_most_150_lines():
    """The details live in docs/ (it had grown to 165 lines once, and to 152 again later)."""
    assert len((ROOT / "README.md").read_text().splitlines()) <= 150
