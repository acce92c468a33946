"""docs/notebook_example.ipynb runs from top to bottom (nbclient), so it never rots.

Every cell runs without an error; the two ``show`` cells, one of an estimator fitted the
scikit-learn way and one of a grid search's best estimator, display a widget; the step set in
Python is the third mistake's; the last cell writes the page. Marked slow: it starts a kernel
and fits a grid search (about 20 s).
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "docs" / "notebook_example.ipynb"

pytestmark = pytest.mark.slow


def test_the_example_notebook_runs_and_shows_two_replays(tmp_path, monkeypatch):
    # in the test extra, not in test-core (the fast suite needs none of Jupyter)
    import nbformat
    from nbclient import NotebookClient

    shutil.copy(NOTEBOOK, tmp_path / NOTEBOOK.name)
    book = nbformat.read(tmp_path / NOTEBOOK.name, as_version=4)
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    monkeypatch.setenv("PYTHONPATH", path)
    NotebookClient(
        book, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    code = [cell for cell in book.cells if cell.cell_type == "code"]
    widgets = [
        cell
        for cell in code
        if any(
            "application/vnd.jupyter.widget-view+json" in out.get("data", {})
            for out in cell.outputs
        )
    ]
    assert len(widgets) == 2
    assert not [out for cell in code for out in cell.outputs if out.output_type == "error"]
    printed = "".join(out.get("text", "") for cell in code for out in cell.outputs)
    assert "Ionosphere radar returns (351, 34)" in printed
    assert "KW, tau 0.5: test accuracy 0." in printed
    best = r"PAUM \{'tau_neg': [0-9.]+, 'tau_pos': [0-9.]+\}: test accuracy 0\."
    assert re.search(best, printed)
    assert re.search(r"the replay is at step [1-9]", printed)
    assert len(re.findall(r"^(KW, tau 0.5|PAUM) +\[[0-9, ]+\]$", printed, re.M)) == 2
    assert (tmp_path / "ionosphere-kw.html").stat().st_size > 1_000_000
