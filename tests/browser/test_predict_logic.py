"""Predict mode's questions in the browser (ui/playback/questions.js) against the Python
reference (:mod:`app_logic.predictions`), at every step of runs of every kind of learner.

The payload is built in Python and the replay's own modules run in chromium (served by
Playwright, no server). Each step's question is compared field by field: which steps ask,
the lane, the kind, the point, the options and the right answer exactly; the drawn lines,
the tolerance and where ``w`` goes to a relative 1e-12 (the same float64 numbers, but another
language may fuse or round the last operation differently).
"""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.payload import build_payload
from perceptron_lab.app_logic.predictions import KINDS, Predict, Questions, draw
from tests.chromium import DECODE_JS, payload_arg, serve_playback
from tests.pages import page_run

pytestmark = pytest.mark.browser

#: Every learner at its defaults, the KW switches that add outcomes, a committee of five and
#: a polynomial kernel.
CASES = {key: (key, {}) for key in LEARNERS} | {
    "kw-switches": ("kw", {"tau": 0.25, "lam": 0.5, "alpha_bound": 3}),
    "perceptron-eta1": ("perceptron", {"eta": 1.0}),
    "committee5": ("parallel", {"n_perceptrons": 5}),
    "poly": ("kernel", {"kernel": "poly", "degree": 3, "gamma": 0.5}),
}

QUESTIONS_JS = """async ({payload, settings, steps}) => {
    const d = await (DECODE)(payload);
    const {Questioner} = await import('/questions.js');
    const q = new Questioner({lanes: d.lanes, scene: d.scene, settings});
    return steps.map(s => ({asks: q.asks(s), question: q.question(s)}));
}""".replace("DECODE", DECODE_JS)

#: A "where" question's numbers (the others are exact).
FLOATS = ("tolerance",)


#: Overlapping clouds with flipped labels and a test part.
NOISY = DataRequest("gaussians", (("n_samples", 60),), "uniform", 0.1, test_fraction=0.2, seed=4)


@pytest.fixture(scope="module")
def page(browser):
    """A page of the module's chromium that serves the replay's modules (no server)."""
    bare = browser.new_page()
    serve_playback(bare)
    yield bare
    bare.close()


@pytest.fixture(scope="module")
def data():
    return make_dataset(NOISY)


def browser_questions(page, payload, predict: Predict, steps):
    return page.evaluate(
        QUESTIONS_JS,
        {"payload": payload_arg(payload), "settings": predict.options(), "steps": list(steps)},
    )


def assert_same(mine: dict | None, reference, where) -> None:
    """The browser's question equals the reference's (floats to a relative 1e-12)."""
    if reference is None:
        assert mine is None, where
        return
    expected = reference.to_json()
    assert mine is not None, where
    for key, value in expected.items():
        got = mine[key]
        if key == "candidates":
            assert [(c["label"], c["name"]) for c in got] == [
                (c["label"], c["name"]) for c in value
            ], where
            for a, b in zip(got, value, strict=True):
                np.testing.assert_allclose(a["line"], b["line"], rtol=1e-12, atol=1e-15)
        elif (
            value is not None
            and (key in FLOATS or key in ("answer", "start"))
            and (reference.kind == "where")
        ):
            np.testing.assert_allclose(got, value, rtol=1e-12, atol=1e-15, err_msg=str(where))
        else:
            assert got == value, (where, key, got, value)


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_steps_question_is_the_references(page, data, case):
    key, values = CASES[case]
    run = page_run(key, values, 3, 0, data)
    payload = build_payload(data, [run])
    steps = range(0, run.timeline.n_events + 2)  # 0 and one past the end ask nothing
    predict = Predict(on=True, seed=11)
    reference = Questions([run], data, predict)
    got = browser_questions(page, payload, predict, steps)
    kinds = set()
    for s, answer in zip(steps, got, strict=True):
        assert answer["asks"] == reference.asks(s), (case, s)
        expected = reference.at(s)
        assert_same(answer["question"], expected, (case, s))
        if expected is not None:
            kinds.add(expected.kind)
    assert kinds, case
    assert kinds <= set(KINDS)


def test_each_kind_is_asked_somewhere_in_the_menu(page, data):
    """Over the menu's learners every kind of question comes up (the others test that they are
    the same in both languages)."""
    seen = set()
    for key in ("perceptron", "voted", "parallel", "kernel"):
        run = page_run(key, {"eta": 1.0} if key == "perceptron" else {}, 3, 0, data)
        questions = Questions([run], data, Predict(on=True, seed=1))
        for s in range(1, run.timeline.n_events + 1):
            seen |= {q.kind for q in questions.fitting(0, s)}
    assert seen == set(KINDS)


@pytest.mark.parametrize(
    "predict",
    [
        Predict(on=True, ask="updates", seed=5),
        Predict(on=True, ask="kth", k=7, seed=5),
        Predict(on=True, ask="steps", steps=(1, 9, 40, 77), seed=5),
        Predict(on=True, kinds=("lines", "where"), seed=5),
    ],
    ids=["updates", "kth", "steps", "kinds"],
)
def test_the_schedules_and_kinds_ask_as_the_reference_does(page, data, predict):
    run = page_run("margin", {"eta": 1.0}, 3, 0, data)
    payload = build_payload(data, [run])
    steps = range(0, run.timeline.n_events + 1)
    reference = Questions([run], data, predict)
    got = browser_questions(page, payload, predict, steps)
    asked = 0
    for s, answer in zip(steps, got, strict=True):
        assert answer["asks"] == reference.asks(s), s
        assert_same(answer["question"], reference.at(s), s)
        asked += answer["question"] is not None
    assert asked > 0


def test_compare_mode_draws_the_lane_asked_about(page, data):
    runs = [page_run(key, {}, 3, 0, data) for key in ("perceptron", "pa", "parallel")]
    payload = build_payload(data, runs)
    predict = Predict(on=True, seed=2)
    reference = Questions(runs, data, predict)
    steps = range(1, runs[0].timeline.n_events + 1)
    got = browser_questions(page, payload, predict, steps)
    lanes = set()
    for s, answer in zip(steps, got, strict=True):
        expected = reference.at(s)
        assert_same(answer["question"], expected, s)
        lanes.add(expected.lane)
    assert lanes == {0, 1, 2}


def test_more_features_than_two_ask_what_the_learner_does(page):
    """On data drawn projected there is no line to ask about: the outcome questions remain."""
    data = make_dataset(DataRequest("kw", (("n_features", 10), ("n_samples", 40)), seed=2))
    run = page_run("margin", {"tau": 0.5}, 2, 0, data)
    payload = build_payload(data, [run])
    predict = Predict(on=True, seed=3)
    reference = Questions([run], data, predict)
    steps = range(1, run.timeline.n_events + 1)
    got = browser_questions(page, payload, predict, steps)
    for s, answer in zip(steps, got, strict=True):
        assert_same(answer["question"], reference.at(s), s)
    assert {answer["question"]["kind"] for answer in got} == {"outcome"}


def test_the_browser_draws_the_references_numbers(page):
    seeds, steps = (0, 7, 999_999), (1, 2, 40_000)
    grid = [[seed, step, salt] for seed in seeds for step in steps for salt in range(8)]
    got = page.evaluate(
        "async (grid) => { const {draw} = await import('/questions.js');"
        " return grid.map(([seed, step, salt]) => draw(seed, step, salt)); }",
        grid,
    )
    assert got == [draw(*point) for point in grid]
