"""Hostile use, fifth round: every long stage of a view stops soon after its visitor leaves
(a view's downloads, counted in its CPU budget: ``tests/test_hostile_downloads.py``).

A view's work asks whether its visitor still wants it (and whether its CPU is spent) between
its parts: the pieces of an on-line rule's fit (the pocket's fit of a 200,000-row upload was
one compiled loop), the timeline, each lane of the payload.
"""

from __future__ import annotations

import traceback
from pathlib import Path

import numpy as np
import pytest

from perceptron_core.datasets import DataError
from perceptron_core.engine.chunks import WORK_PER_CHUNK, visits_per_chunk


class Left(Exception):
    """The visitor closed the tab (Streamlit raises its own stop there)."""


def _upload_like(rows: int, seed: int = 0):
    """The kind of upload the pocket's fit was slow on: integer features, random labels."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 100, size=(rows, 2)).astype(np.float64), rng.integers(0, 2, rows)


def _fit_run(key, X, y, epochs, interrupt):
    from perceptron_lab.app_logic.learners import LEARNERS
    from perceptron_lab.app_logic.training import fit_run

    values = tuple(sorted(LEARNERS[key].defaults().items()))
    empty = np.empty((0, X.shape[1]))
    return fit_run(key, values, epochs, 0, X, y, empty, np.empty(0, int), interrupt=interrupt)


def test_the_pockets_fit_of_a_long_upload_asks_the_visitor_between_pieces():
    rows = 20_000
    X, y = _upload_like(rows)
    asked = []
    _fit_run("pocket", X, y, 2, lambda: asked.append(1))
    pieces = 2 * -(-rows // visits_per_chunk(WORK_PER_CHUNK, 2, 1 + 2 * rows))
    assert len(asked) >= pieces  # once before each piece of the fit, and after it

    def leaving():
        asked.append(1)
        if len(asked) == 3:
            raise Left

    asked.clear()
    with pytest.raises(Left) as raised:
        _fit_run("pocket", X, y, 2, leaving)
    # it stopped inside the fit, between two of its pieces, not after the whole loop
    frames = traceback.extract_tb(raised.value.__traceback__)
    assert any(Path(frame.filename).name == "chunks.py" for frame in frames)


def test_every_online_rule_of_the_menu_is_asked_between_pieces_in_a_view():
    from perceptron_core._online import OnlineLinearClassifier
    from perceptron_lab.app_logic.learners import LEARNERS

    rows = 70_000  # 2 epochs: more visits than one piece holds
    assert 2 * rows > visits_per_chunk(WORK_PER_CHUNK, 2, 1)
    X, y = _upload_like(rows)
    online = [
        key
        for key, learner in LEARNERS.items()
        if isinstance(learner.make(learner.defaults(), 1, 0), OnlineLinearClassifier)
        and key != "average"  # no run of the driver: a mean of the examples
    ]
    assert {"pocket", "pa", "relative", "thick", "alma", "paum", "balanced_winnow"} <= set(online)
    for key in online:
        asked = []
        _fit_run(key, X, y, 2, lambda: asked.append(1))  # noqa: B023
        assert len(asked) >= 4, key  # two pieces, after the fit, after the timeline


def test_a_payload_asks_between_its_lanes():
    from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
    from perceptron_lab.app_logic.payload import build_payload
    from perceptron_lab.app_logic.view_cost import metered

    data = make_dataset(DataRequest("separable", (("n_samples", 300),), seed=5))
    runs = [_fit_run(k, data.X, data.y, 3, lambda: None) for k in ("pocket", "pa", "thick")]
    asked = []
    with metered(interrupt=lambda: asked.append(1)):
        build_payload(data, runs, 5)
    assert len(asked) >= len(runs)

    def leaving():
        asked.append(1)
        if len(asked) == 2:
            raise Left

    asked.clear()
    with pytest.raises(Left), metered(interrupt=leaving):
        build_payload(data, runs, 5)
    with pytest.raises(DataError, match="CPU-seconds"), metered(limit=-1.0):
        build_payload(data, runs, 5)  # a view whose CPU is spent builds no payload
