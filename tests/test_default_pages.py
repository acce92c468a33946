"""The default page of every learner shows and sends what ``tests/golden/default_pages.json``
records (see :mod:`tests.default_pages` for what is compared and how to write it again)."""

from __future__ import annotations

import json

import pytest

from perceptron_lab.app_logic.learners import LEARNERS
from tests.default_pages import RECORD, default_page

#: Floating-point summaries agree to this relative tolerance (another CPU, another last bit).
RTOL = 1e-9


@pytest.fixture(scope="module")
def recorded() -> dict:
    return json.loads(RECORD.read_text(encoding="utf-8"))


def test_the_record_has_every_learner(recorded):
    assert sorted(recorded) == sorted(LEARNERS)


@pytest.mark.parametrize("learner", LEARNERS)
def test_the_default_page_is_as_recorded(recorded, learner):
    page, kept = default_page(learner), recorded[learner]
    assert page["text"] == kept["text"], "the page's text changed"
    assert _same(page["meta"], kept["meta"])  # the payload's description
    assert sorted(page["arrays"]) == sorted(kept["arrays"])
    for name, now in page["arrays"].items():
        before = kept["arrays"][name]
        if "sha256" in before:
            assert now == before, f"the integer array {name} changed"
        else:
            assert now["shape"] == before["shape"] and now["nonfinite"] == before["nonfinite"]
            for key in ("sum", "abs_sum", "min", "max"):
                assert now[key] == pytest.approx(before[key], rel=RTOL, abs=1e-12), (name, key)


def _same(now, before, where: str = "meta") -> bool:
    """``now`` equals ``before``, floats within :data:`RTOL`; names the first difference."""
    if isinstance(before, dict):
        assert isinstance(now, dict) and sorted(now) == sorted(before), where
        return all(_same(now[k], before[k], f"{where}.{k}") for k in before)
    if isinstance(before, list):
        assert isinstance(now, list) and len(now) == len(before), where
        return all(_same(a, b, f"{where}[{i}]") for i, (a, b) in enumerate(zip(now, before)))
    if isinstance(before, float) and isinstance(now, float):
        assert now == pytest.approx(before, rel=RTOL, abs=1e-12, nan_ok=True), where
        return True
    assert now == before, where
    return True
