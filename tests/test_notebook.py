"""The notebook widget without a browser: what ``show`` fits, refuses and writes.

tests/test_notebook_browser.py replays it in a real JupyterLab.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from perceptron_core.datasets import DataError, load
from perceptron_lab.app_logic.payload import build_payload
from perceptron_lab.ui.standalone_page import PLAYBACK
from perceptron_lab.widget import Replay, dataset, show


@pytest.fixture(scope="module")
def blobs():
    X, y, _ = load("gaussians", n_samples=80, random_state=4)
    return X, np.where(y > 0, "spam", "ham")


def test_show_replays_the_fit_of_the_menus_learner(blobs):
    X, y = blobs
    replay = show("kw", X, y, epochs=4, seed=2, tau=0.5)
    assert isinstance(replay, Replay)
    assert replay.run.learner_key == "kw" and replay.run.values["tau"] == 0.5
    assert replay.run.timeline.n_events == 80 * 4
    args = json.loads(re.search(r'id="playback-args">(.*?)</script>', replay.page, re.S).group(1))
    data = dataset(X, y)
    assert args["payload_id"] == build_payload(data, [replay.run], 2).id
    assert "Khardon–Wachman (all switches) on your data" in replay.page
    # the widget's host is the playback folder's own file, next to the modules it loads
    assert str(Replay._esm) == (PLAYBACK / "notebook.js").read_text(encoding="utf-8")


def test_labels_become_minus_and_plus_one_the_larger_class_positive(blobs):
    X, y = blobs
    data = dataset(X, y, X[:5], y[:5], title="mail")
    assert data.class_names == ("ham", "spam")
    np.testing.assert_array_equal(data.y, np.where(y == "spam", 1, -1))
    np.testing.assert_array_equal(data.y_test, data.y[:5])
    assert data.feature_names == ("x1", "x2") and data.title == "mail"


def test_to_html_writes_the_page_that_plays_offline(blobs, tmp_path):
    X, y = blobs
    replay = show("perceptron", X, y, epochs=2)
    path = replay.to_html(tmp_path / "run.html")
    assert path.read_text(encoding="utf-8") == replay.page
    assert "Content-Security-Policy" in replay.page


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda X, y: show("nope", X, y), ValueError, "Unknown learner 'nope'; the menu has"),
        (lambda X, y: show("kw", X, y, rate=1), ValueError, "has no setting rate; its settings"),
        (lambda X, y: show("kw", X, np.arange(len(X)) % 3), DataError, "two classes; y has 3"),
        (lambda X, y: show("kw", X[:, 0], y), DataError, "X must be a 2-D array"),
        (lambda X, y: show("kw", np.full_like(X, np.nan), y), DataError, "NaN or infinite"),
        (lambda X, y: show("kw", X, y[:10]), DataError, "X has 80 rows but y has 10"),
        (
            lambda X, y: show("kw", X, y, test=(X, np.full(len(X), "eggs"))),
            DataError,
            "y_test has classes that y has not",
        ),
        (lambda X, y: show("kw", X, y, epochs=5001), DataError, "more than the 400,000"),
    ],
)
def test_show_refuses_what_the_app_refuses_with_a_message(blobs, call, error, message):
    X, y = blobs
    with pytest.raises(error, match=re.escape(message)):
        call(X, y)
