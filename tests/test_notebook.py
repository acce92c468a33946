"""The notebook widget without a browser: what ``show`` fits, replays, refuses and sends.

tests/test_notebook_browser.py replays it in a real JupyterLab and Notebook 7.
"""

from __future__ import annotations

import base64
import inspect
import json
import re

import numpy as np
import pandas as pd
import pytest
from scipy import sparse
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV

import perceptron_core
from perceptron_core import (
    KernelPerceptron,
    KWPerceptron,
    PAUMPerceptron,
    VotedPerceptron,
)
from perceptron_core.datasets import DataError, load
from perceptron_lab import widget
from perceptron_lab.app_logic.datasource import MAX_ANIMATED_VISITS
from perceptron_lab.app_logic.payload import build_payload
from perceptron_lab.app_logic.playback_args import View
from perceptron_lab.app_logic.style import Show
from perceptron_lab.ui.module_graph import compacted
from perceptron_lab.ui.standalone_page import (
    PLAYBACK,
    PLOTLY,
    SLOTS,
    fill,
    module_order,
    page_html,
    playback_file,
)
from perceptron_lab.widget import PlaybackFiles, Replay, dataset, show


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
    payload = build_payload(dataset(X, y), [replay.run], 2)
    assert replay.args["payload_id"] == payload.id and replay.payload == payload.blob
    assert "Khardon–Wachman (all switches) on your data" in replay.header
    assert "classes ham (−1), spam (+1)" in replay.header
    # the widget's host is the playback folder's own file, next to the modules it loads
    assert str(Replay._esm) == (PLAYBACK / "notebook.js").read_text(encoding="utf-8")


def test_an_unfitted_estimator_is_fitted_with_its_own_parameters_recording_every_visit(blobs):
    X, y = blobs
    estimator = KWPerceptron(tau=0.5, lam=0.25, C=2.0, epochs=6, random_state=3)
    replay = show(estimator, X, y)
    fitted = replay.run.estimator
    assert fitted is not estimator and fitted.record == "all"
    assert {k: v for k, v in fitted.get_params().items() if k != "record"} == {
        k: v for k, v in estimator.get_params().items() if k != "record"
    }
    assert replay.run.timeline.n_events == 80 * 6
    assert replay.run.values["C"] == 2.0 and replay.run.values["alpha_bound"] == 0
    assert "<h1>KWPerceptron on your data</h1>" in replay.header
    assert "C 2.0" in replay.header and "lam 0.25" in replay.header


def test_a_fit_recorded_elsewhere_is_replayed_as_it_is(blobs):
    X, y = blobs
    fitted = VotedPerceptron(epochs=5, random_state=1, record="all").fit(X, y)
    replay = show(fitted, X, y)
    assert replay.run.estimator is fitted
    assert replay.run.timeline.n_events == len(fitted.trace_.kind)
    np.testing.assert_array_equal(replay.run.timeline.kind[0], fitted.trace_.kind)
    assert replay.run.fit_seconds is None and replay.args["meta"]["lanes"][0]["fit_ms"] is None
    assert "fitted by you" in replay.header


def test_a_dataframe_names_the_axes_and_the_labels_name_the_legend(blobs):
    X, y = blobs
    frame = pd.DataFrame(X, columns=["height", "weight"])
    replay = show(PAUMPerceptron(tau_neg=0.5, max_epochs=4, random_state=0), frame, pd.Series(y))
    scene = replay.args["meta"]["scene"]
    assert scene["feature_names"] == ["height", "weight"]
    assert scene["class_names"] == ["ham", "spam"]


def test_labels_become_minus_and_plus_one_the_larger_class_positive(blobs):
    X, y = blobs
    data = dataset(X, y, X[:5], y[:5], title="mail")
    assert data.class_names == ("ham", "spam")
    np.testing.assert_array_equal(data.y, np.where(y == "spam", 1, -1))
    np.testing.assert_array_equal(data.y_test, data.y[:5])
    assert data.feature_names == ("x1", "x2") and data.title == "mail"


#: The estimators of perceptron_core the replay cannot draw: ensembles of several fits, and
#: Winnow's two forms, which have no entry in the playground's menu.
NOT_REPLAYED = {"AdaBoost", "Bagging", "NRBoost", "Winnow", "WinnowR"}
ESTIMATORS = [
    obj
    for name in perceptron_core.__all__
    if inspect.isclass(obj := getattr(perceptron_core, name)) and hasattr(obj, "fit")
]


def _few_passes(cls):
    """``cls`` with 3 passes and a seed, where it has them."""
    params = cls().get_params()
    few = {k: 3 for k in ("epochs", "max_epochs", "n_rounds", "n_estimators") if k in params}
    return cls(**few, **({"random_state": 0} if "random_state" in params else {}))


def _signs(estimator, X):
    return np.where(estimator.predict(X) == estimator.classes_[-1], 1, -1)


@pytest.mark.parametrize("cls", ESTIMATORS, ids=lambda cls: cls.__name__)
def test_every_estimator_replays_its_own_fit_or_says_in_one_line_why_not(cls, blobs):
    X, y = blobs
    estimator = _few_passes(cls)
    if cls.__name__ in NOT_REPLAYED:
        with pytest.raises(ValueError) as refusal:
            show(estimator, X, y)
        message = str(refusal.value)
        assert "\n" not in message and f"no entry for {cls.__name__};" in message
        return
    alone = clone(estimator).fit(X, y)
    replay = show(estimator, X, y)
    expected = _signs(alone, X)
    np.testing.assert_array_equal(_signs(replay.run.estimator, X), expected)
    learner = replay.run.learner
    shown = learner.shown_mode(replay.run.values) if learner.has_modes else "last"
    # a learner of the classes together gives the class numbers: 0 for -1, 1 for +1
    final = (expected > 0).astype(int) if learner.learns_classes else expected
    np.testing.assert_array_equal(replay.run.final_train[shown], final)
    # the same estimator fitted with its record is replayed as that fit: the same steps
    recorded = clone(estimator).set_params(record="all").fit(X, y)
    again = show(recorded, X, y)
    assert again.run.estimator is recorded
    np.testing.assert_array_equal(again.run.timeline.kind, replay.run.timeline.kind)
    np.testing.assert_array_equal(again.run.timeline.index, replay.run.timeline.index)


def test_a_grid_searchs_best_estimator_is_replayed_and_the_search_is_refused(blobs):
    X, y = blobs
    grid = {"tau_neg": [0.0, 0.5], "tau_pos": [0.5, 1.0]}
    search = GridSearchCV(PAUMPerceptron(max_epochs=4, random_state=0, record="all"), grid, cv=3)
    search.fit(X, y)
    replay = show(search.best_estimator_, X, y)
    assert replay.run.estimator is search.best_estimator_
    with pytest.raises(ValueError, match=re.escape("(a search: pass its best_estimator_)")):
        show(search, X, y)


def test_the_page_travels_once_and_each_replay_carries_its_run(blobs):
    X, y = blobs
    first, second = show("perceptron", X, y, epochs=2), show("voted", X, y, epochs=3)
    assert first.files is second.files and isinstance(first.files, PlaybackFiles)
    state = first.get_state()
    assert state["files"] == f"IPY_MODEL_{first.files.model_id}"
    sizes = {key: len(json.dumps(value)) for key, value in state.items() if key != "payload"}
    assert sum(sizes.values()) < 40_000, sizes  # the arguments and the loader, not the page
    assert first.payload == build_payload(first.data, [first.run], 0).blob
    page = first.files.page
    assert first.files.plotly == playback_file(PLOTLY) and PLOTLY not in page
    for name in module_order():  # each module once, compacted as in an exported page
        assert page.count(compacted(playback_file(name))) == 1
    assert re.findall(r"<!--slot:(\w+)-->", page) == [s for s in SLOTS if s != "generator"]


def test_filling_the_notebooks_template_with_a_replays_parts_gives_its_page(blobs, tmp_path):
    """What ui/playback/notebook.js does in the browser, here in Python: the notebook's frame
    is the page to_html writes, Plotly.js aside."""
    X, y = blobs
    replay = show("perceptron", X, y, epochs=2)
    replay.step = 7
    path = replay.to_html(tmp_path / "run.html")
    written = path.read_text(encoding="utf-8")
    payload = build_payload(replay.data, [replay.run], 0)
    view = View(show=Show(), initial_t=7)
    assert written == page_html(payload, replay.run, replay.data, replay.about, view)
    args = replay.args | {"options": replay.args["options"] | {"initial_t": 7}}
    framed = fill(
        replay.files.page,
        title=replay.about.title().replace("<", "&lt;"),
        header=replay.about.html(),
        args=json.dumps(args, separators=(",", ":")).replace("<", "\\u003c"),
        blob=base64.b64encode(replay.payload).decode("ascii"),
        plotly=f"<script>{playback_file(PLOTLY)}</script>",
    )
    assert framed == written
    assert '"initial_t":7' in written and "Content-Security-Policy" in written


def test_the_step_is_checked_and_the_steps_of_an_event_are_found(blobs):
    X, y = blobs
    replay = show("perceptron", X, y, epochs=3)
    mistakes = replay.steps("mistake")
    kinds = replay.run.timeline.kind[0]
    assert (kinds[mistakes - 1] == 1).all() and len(mistakes) == (kinds == 1).sum()
    replay.step = int(mistakes[2])
    assert replay.step == mistakes[2]
    with pytest.raises(Exception, match=r"step must be between 0 \(before the first visit\)"):
        replay.step = 241
    with pytest.raises(ValueError, match="kind must be one of correct, mistake"):
        replay.steps("mistakes")


def test_a_run_over_the_apps_limits_is_refused_before_the_data_are_read_or_fitted(monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("read the data or fitted a run the view refuses")

    monkeypatch.setattr(VotedPerceptron, "fit", never)
    monkeypatch.setattr(widget, "dataset", never)
    X = np.random.default_rng(0).normal(size=(4_001, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    message = f"more than the {MAX_ANIMATED_VISITS:,} the browser view animates"
    with pytest.raises(DataError, match=re.escape(message)):
        show(VotedPerceptron(epochs=100), X, y)
    with pytest.raises(DataError, match=re.escape(message)):
        show("voted", X, y, epochs=100)


def _callable_kernel(A, B):
    return A @ B.T


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
        # bad inputs that once failed deep inside NumPy, or were taken wrongly
        (
            lambda X, y: show("kw", X, np.where(y == "spam", "spam", None)),
            DataError,
            "y has 40 missing labels (None or NaN), the first at row",
        ),
        (
            lambda X, y: show("kw", sparse.csr_matrix(X), y),
            DataError,
            "X is a sparse matrix; the replay draws every point and needs a dense array: "
            "pass X.toarray().",
        ),
        (
            lambda X, y: show("kw", X, np.where(y == "spam", 0.0, np.nan)),
            DataError,
            "y has 40 missing labels (None or NaN)",
        ),
        (
            lambda X, y: show("kw", X, y, title=None),
            DataError,
            "title must be text (the data's name on the page); got None.",
        ),
        (
            lambda X, y: show("kw", X, y, epochs=2.5),
            DataError,
            "epochs must be a whole number, 1 or more; got 2.5.",
        ),
        (
            lambda X, y: show("kw", X, np.array([1, "a"] * 40, dtype=object)),
            DataError,
            "y mixes kinds of labels",
        ),
        (
            lambda X, y: show("kw", pd.DataFrame({"a": X[:, 0], "b": y}), y),
            DataError,
            "X's columns b are not numbers",
        ),
        # estimators
        (
            lambda X, y: show(KWPerceptron(), X, y, epochs=3, tau=0.5),
            ValueError,
            "show takes KWPerceptron's own parameters; set epochs=3, tau=0.5 on the estimator",
        ),
        (
            lambda X, y: show(KWPerceptron(epochs=2).fit(X, y), X, y),
            ValueError,
            "This KWPerceptron was fitted with record='none', which keeps no record of every "
            'visit to replay: fit it with record="all", or pass it unfitted',
        ),
        (
            lambda X, y: show(KWPerceptron(epochs=2, record="all").fit(X, y), X[:60], y[:60]),
            ValueError,
            "This KWPerceptron's record visits 80 points per epoch and X has 60 rows: pass "
            "the X, y it was fitted on, or the estimator unfitted",
        ),
        (
            lambda X, y: show(KWPerceptron(epochs=2, record="all").fit(X, y), X + 1, y),
            ValueError,
            "of X is not the point this KWPerceptron updated on there",
        ),
        (
            lambda X, y: show(KWPerceptron(epochs=2, record="all").fit(X, y), X, y[::-1]),
            ValueError,
            "is not the label this KWPerceptron's update on row",
        ),
        (
            lambda X, y: show(KWPerceptron(epochs=2, record="all").fit(X, y), X, y == "spam"),
            ValueError,
            "This KWPerceptron was fitted on the classes ham, spam and y has False, True",
        ),
        (
            lambda X, y: show(KernelPerceptron(kernel=_callable_kernel), X, y),
            ValueError,
            "kernel=<function _callable_kernel",
        ),
        (
            lambda X, y: show(KWPerceptron(random_state=np.random.RandomState(0)), X, y),
            ValueError,
            "KWPerceptron's random_state (a RandomState) cannot be replayed: pass an int",
        ),
        (
            lambda X, y: show(KWPerceptron(random_state=1), X, y, seed=2),
            ValueError,
            "seed=2 differs from the estimator's random_state=1",
        ),
    ],
)
def test_show_refuses_what_it_cannot_replay_in_one_line(blobs, call, error, message):
    X, y = blobs
    with pytest.raises(error, match=re.escape(message)) as refusal:
        call(X, y)
    assert "\n" not in str(refusal.value)


def test_predict_mode_opens_from_show_and_its_score_is_a_synced_trait(blobs):
    from perceptron_lab.app_logic.predictions import Predict, Questions

    X, y = blobs
    quiz = show("perceptron", X, y, epochs=2, seed=3, predict=True)
    assert quiz.args["options"]["predict"] == Predict(on=True, seed=3).options()
    assert quiz.score == {"asked": 0, "right": 0, "skipped": 0, "marks": "", "history": []}
    assert quiz.trait_metadata("score", "sync") is True
    reference = Questions([quiz.run], quiz.data, Predict(on=True, seed=3))
    assert [quiz.question(s) for s in (1, 2, 7)] == [reference.at(s) for s in (1, 2, 7)]
    chosen = show("perceptron", X, y, epochs=2, predict=Predict(on=True, ask="updates"))
    assert chosen.args["options"]["predict"]["ask"] == "updates"
    assert chosen.question(1) is None or chosen.run.timeline.is_update(1)
    plain = show("perceptron", X, y, epochs=2)
    assert plain.args["options"]["predict"]["on"] is False
    with pytest.raises(DataError, match="predict must be True, False or an app_logic"):
        show("perceptron", X, y, epochs=2, predict="yes")
