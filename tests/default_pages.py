"""What the playground's default page of every learner shows and sends, as a record to compare.

A change meant to keep behaviour (a restructuring) must leave this record as it
was: ``tests/test_default_pages.py`` compares the page with the record kept in
``tests/golden/default_pages.json``. A change meant to alter what a default page
shows writes the record again (``python -m tests.default_pages``) and says so in
its commit message.

What is compared, and how (docs/architecture.md, "the same numbers"):

* exactly: the page's text, every integer array of the payload (events, rows,
  counts, labels) and every number of the payload's description that is not a
  float (its one wall-clock field, ``fit_ms``, left out);
* within a relative 1e-9: the description's floats, and each floating-point
  array's sum, sum of absolute values, smallest and largest value. Another CPU
  may round a score's last bit differently; a different update, vote or step
  moves these far more.
"""

from __future__ import annotations

import json
import sys
from hashlib import sha256
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

from perceptron_lab.app_logic.learners import LEARNERS
from tests.player_args import player_args

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "tests" / "golden" / "default_pages.json"
#: The page's elements whose text a person reads.
TEXT_KINDS = ("title", "header", "subheader", "markdown", "caption", "text", "latex", "code")
TEXT_KINDS += ("info", "warning", "error", "success")
#: The payload's fields that are measurements of the machine, not of the run.
MACHINE_FIELDS = ("fit_ms",)


def _digest(text: str) -> str:
    return sha256(text.encode("utf-8")).hexdigest()


def _without_machine_fields(value):
    if isinstance(value, dict):
        return {k: _without_machine_fields(v) for k, v in value.items() if k not in MACHINE_FIELDS}
    if isinstance(value, list):
        return [_without_machine_fields(v) for v in value]
    return value


def _array(values: np.ndarray) -> dict:
    if values.dtype.kind == "f":
        finite = values[np.isfinite(values)].astype(np.float64)
        return {
            "shape": list(values.shape),
            "nonfinite": int(values.size - finite.size),
            "sum": float(finite.sum()),
            "abs_sum": float(np.abs(finite).sum()),
            "min": float(finite.min()) if finite.size else 0.0,
            "max": float(finite.max()) if finite.size else 0.0,
        }
    return {"shape": list(values.shape), "sha256": sha256(values.tobytes()).hexdigest()}


def default_page(learner: str) -> dict:
    """The record of the playground's default page with ``learner`` picked."""
    at = AppTest.from_file(str(ROOT / "router.py"), default_timeout=600)
    at.run()
    if at.selectbox(key="pg_learner").value != learner:
        at.selectbox(key="pg_learner").set_value(learner).run()
    assert not at.exception, at.exception
    args = player_args(at, "pg_player")
    text = "\n".join(f"{kind}: {el.value}" for kind in TEXT_KINDS for el in at.get(kind))
    return {
        "text": _digest(text),
        "meta": _without_machine_fields(args["meta"]),
        "arrays": {name: _array(np.asarray(a)) for name, a in sorted(args["arrays"].items())},
    }


def record() -> dict:
    """The record of every learner's default page."""
    return {learner: default_page(learner) for learner in LEARNERS}


if __name__ == "__main__":
    RECORD.write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {RECORD.relative_to(ROOT)}", file=sys.stderr)
