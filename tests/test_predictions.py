"""Predict mode's Python reference (:mod:`app_logic.predictions`): each question's right answer
against an independent computation, its schedules, its seed, and its settings.

Independent means not from the page's code (the timeline and the payload): for the
Khardon–Wachman family the answers are recomputed from a NumPy run of the rule as
docs/algorithms.md writes it (:func:`tests.reference.reference_kw`, in the estimator's visiting
order), with the votes counted here from its events; for the other learners from the fitted
estimator's own weights, decision function, weight history and margins.
tests/browser/test_predict_logic.py holds the browser's questions to this reference.
"""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest

from perceptron_core.trace import EVENT_KINDS
from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.playback_args import View
from perceptron_lab.app_logic.predictions import (
    KINDS,
    Predict,
    Question,
    Questions,
    draw,
    pick,
    predict_from_link,
)
from perceptron_lab.app_logic.share_link import read_link
from tests.numerics import NEAR
from tests.pages import page_run
from tests.reference import reference_kw


@pytest.fixture(scope="module")
def data():
    return make_dataset(
        DataRequest("gaussians", (("n_samples", 40),), "uniform", 0.1, 0.25, seed=4)
    )


#: Khardon–Wachman runs whose every switch shows in some question: the classic rule with a step
#: large enough for "where does w go", a margin, and the λ-trick with an α-bound.
#: The voted perceptron's picture is its vote: no single line to ask about, the predictors instead.
KW_CASES = {
    "classic": ("perceptron", {"eta": 1.0}, {"outcome", "side", "lines", "where", "predictor"}),
    "margin": ("margin", {"eta": 1.0, "tau": 0.5}, {"outcome", "side", "lines", "predictor"}),
    "switches": ("kw", {"tau": 0.25, "lam": 0.5, "alpha_bound": 3}, {"outcome", "side", "lines"}),
    "voted": ("voted", {"eta": 1.0}, {"outcome", "predictor"}),
}
EPOCHS = 4


def every_question(questions: Questions, lane: int = 0) -> list[Question]:
    """Every question that fits any step (not only the one a seed picks)."""
    steps = questions.lanes[lane].timeline.n_events
    return [q for s in range(1, steps + 1) for q in questions.fitting(lane, s)]


class KWReference:
    """A Khardon–Wachman run recomputed by the NumPy reference: the hypothesis in force after
    each step, each visit's event, and the votes every hypothesis has at a step."""

    def __init__(self, run, data):
        est = run.estimator
        self.ref = reference_kw(
            data.X,
            np.where(data.y > 0, 1, -1),
            eta=float(est.eta),
            theta_init=float(est.theta_init_),
            C=float(est.C_),
            tau=float(est.tau),
            lam=float(est.lam),
            alpha_bound=est.alpha_bound,
            epochs=EPOCHS,
            order=est._order,
        )
        kinds = self.ref["kinds"]
        updating = np.array([k in ("mistake", "margin") for k in kinds])
        self.after = np.cumsum(updating)  # the hypothesis in force after each visit
        self.kinds = [EVENT_KINDS.index(k) for k in kinds]
        self.voting = np.array([k in ("correct", "rescued") for k in kinds])

    def hypothesis(self, row: int) -> tuple[np.ndarray, float]:
        return self.ref["W"][row], float(self.ref["theta"][row])

    def row_after(self, s: int) -> int:
        return int(self.after[s - 1])

    def row_before(self, s: int) -> int:
        return int(self.after[s - 2]) if s > 1 else 0

    def votes(self, s: int) -> np.ndarray:
        """Votes of every hypothesis up to the current one after step s (hypothesis 0 never
        votes, docs/algorithms.md §1.4)."""
        current = self.row_after(s)
        votes = np.zeros(current + 1)
        for i in range(s):
            if self.voting[i]:
                row = int(self.after[i])  # a vote goes to the hypothesis that scored the visit
                votes[row] += 1
        votes[0] = 0
        return votes

    def predictor_says(self, s: int, x: np.ndarray, mode: str) -> int:
        votes = self.votes(s)
        rows = range(len(votes))
        if votes.sum() == 0:  # no vote yet: both predictors are the last hypothesis
            w, theta = self.hypothesis(self.row_after(s))
            return 1 if x @ w - theta > 0 else -1
        if mode == "voted":
            W, theta = self.ref["W"], self.ref["theta"]
            total = sum(votes[k] * np.sign(x @ W[k] - theta[k]) for k in rows)
        else:
            w = sum(votes[k] * self.ref["W"][k] for k in rows) / votes.sum()
            theta = sum(votes[k] * self.ref["theta"][k] for k in rows) / votes.sum()
            total = x @ w - theta
        return 1 if total > 0 else -1


@pytest.mark.parametrize("case", sorted(KW_CASES))
def test_every_answer_of_a_kw_run_is_the_reference_rules(data, case):
    key, values, kinds = KW_CASES[case]
    run = page_run(key, values, EPOCHS, 0, data)
    ref = KWReference(run, data)
    assert ref.ref["closest"] > NEAR  # the engine decides every visit as the reference does
    questions = Questions([run], data, Predict(on=True, seed=1))
    asked = every_question(questions)
    assert {q.kind for q in asked} >= kinds
    for q in asked:
        s = q.step
        w_new, theta_new = ref.hypothesis(ref.row_after(s))
        w_old, theta_old = ref.hypothesis(ref.row_before(s))
        if q.kind == "outcome":
            assert q.answer == ref.kinds[s - 1], s
            assert q.point == int(est_order_index(run, s))
        elif q.kind == "side":
            score = data.X[q.point] @ w_new - theta_new
            assert abs(score) > 1e-9 and q.answer == (1 if score > 0 else -1), s
        elif q.kind == "lines":
            lines = {name: np.array(line) for _, name, line in q.candidates}
            np.testing.assert_allclose(lines["answer"], [*w_new, theta_new], rtol=1e-9, atol=1e-9)
            if "w only" in lines:  # the update's w with the threshold left behind
                np.testing.assert_allclose(lines["w only"], [*w_new, theta_old], atol=1e-9)
            if "unchanged" in lines:
                np.testing.assert_allclose(lines["unchanged"], [*w_old, theta_old], atol=1e-9)
            answer = next(label for label, name, _ in q.candidates if name == "answer")
            assert q.answer == answer
        elif q.kind == "where":
            # the classic rule's step: w + η y x
            x, label = data.X[q.point], data.y[q.point]
            eta = float(run.estimator.eta)
            np.testing.assert_allclose(q.start, w_old, atol=1e-9)
            np.testing.assert_allclose(q.answer, w_old + eta * label * x, atol=1e-9)
            assert math.isclose(q.tolerance, 0.05 * max(box_sides(questions)), rel_tol=1e-12)
        elif q.kind == "predictor":
            assert q.answer == ref.predictor_says(s, data.X[q.point], q.mode), (s, q.mode)


def est_order_index(run, s: int) -> int:
    """The row the estimator visits at step s (its seeded order, epoch after epoch)."""
    order = run.estimator._order
    return order[(s - 1) % len(order)]


def box_sides(questions: Questions) -> tuple[float, float]:
    box = questions.box
    return box[1] - box[0], box[3] - box[2]


@pytest.mark.parametrize("key", ["pa", "alma", "thick", "kernel"])
def test_after_the_last_update_the_answers_are_the_fitted_estimators(data, key):
    """From the last update on, the hypothesis is the fitted one: its weights and its
    decision function give the answers about the boundary after that step."""
    run = page_run(key, {}, EPOCHS, 0, data)
    est = run.estimator
    tl = run.timeline
    last = int(np.flatnonzero(tl.before != tl.after)[-1]) + 1  # the step of the last update
    questions = Questions([run], data, Predict(on=True, seed=3))
    fitting = {q.kind: q for q in questions.fitting(0, last)}
    side = fitting["side"]
    score = float(est.decision_function(data.X[side.point : side.point + 1])[0])
    assert side.answer == (1 if score > 0 else -1)
    if key == "kernel":
        assert "lines" not in fitting and "where" not in fitting  # no line to draw
        return
    w, theta = est.coef_[0], -float(est.intercept_[0])
    lines = {name: line for _, name, line in fitting["lines"].candidates}
    np.testing.assert_allclose(lines["answer"], [*w, theta], rtol=1e-9, atol=1e-12)
    if "where" in fitting:
        np.testing.assert_allclose(fitting["where"].answer, w, rtol=1e-9, atol=1e-12)


def test_a_committees_vote_and_marks_are_its_members_margins(data):
    run = page_run("parallel", {"n_perceptrons": 5}, 6, 0, data)
    est = run.estimator
    questions = Questions([run], data, Predict(on=True, seed=2))
    asked = every_question(questions)
    assert {q.kind for q in asked} == {"vote", "noisy"}
    # the members' weights per epoch, as the estimator recorded them (the bias is −θ)
    history = [(t.weight_history, -t.theta_history) for t in est.trace_]
    m = len(data.X)
    # after training: a majority beyond ±γ (Cantador & Dorronsoro 2005), from weights_ and gamma_
    margins = data.y[:, None] * (data.X @ est.weights_[:, :-1].T + est.weights_[:, -1])
    majority = est.n_perceptrons // 2 + 1
    for q in asked:
        j = q.point
        assert j == est_order_index_plain(q.step, m)
        if q.kind == "vote":
            epoch = (q.step - 1) // m  # the batch rule scores an epoch with its start's weights
            acts = [W[epoch] @ data.X[j] + b[epoch] for W, b in history]
            vote = 1 if sum(1 if a > 0 else -1 for a in acts) > 0 else -1
            assert q.answer == ("right" if vote == data.y[j] else "wrong"), q.step
        else:
            safe = (margins[j] > est.gamma_).sum() >= majority
            noisy = (margins[j] < -est.gamma_).sum() >= majority
            assert q.answer == ("safe" if safe else "noisy" if noisy else "borderline")


def est_order_index_plain(s: int, m: int) -> int:
    """The batch committee visits the rows in order, epoch after epoch."""
    return (s - 1) % m


def test_the_schedules_ask_at_the_steps_they_say(data):
    run = page_run("margin", {"eta": 1.0, "tau": 0.5}, EPOCHS, 0, data)
    ref = KWReference(run, data)
    E = run.timeline.n_events
    updates = Questions([run], data, Predict(on=True, ask="updates"))
    assert [s for s in range(E + 2) if updates.asks(s)] == [
        s for s in range(1, E + 1) if ref.kinds[s - 1] in (1, 2)
    ]
    # under "updates" the outcome question tells mistakes from margin errors only
    for q in every_question(updates):
        if q.kind == "outcome":
            assert q.options == (1, 2)
    kth = Questions([run], data, Predict(on=True, ask="kth", k=7))
    assert [s for s in range(E + 2) if kth.asks(s)] == list(range(7, E + 1, 7))
    chosen = Questions([run], data, Predict(on=True, ask="steps", steps=(3, 1, E + 5)))
    assert [s for s in range(E + 2) if chosen.at(s)] == [1, 3]
    only = Questions([run], data, Predict(on=True, kinds=("where",)))
    assert {q.kind for q in every_question(only)} == {"where"}


def test_the_same_seed_asks_the_same_questions_and_another_seed_others(data):
    run = page_run("perceptron", {"eta": 1.0}, EPOCHS, 0, data)
    steps = range(1, run.timeline.n_events + 1)

    def asked(seed):
        questions = Questions([run], data, Predict(on=True, seed=seed))
        return [questions.at(s) for s in steps]

    assert asked(5) == asked(5)
    assert asked(5) != asked(6)
    kinds = {q.kind for q in asked(5)}
    assert {"outcome", "side"} <= kinds <= set(KINDS)


def test_compare_mode_asks_about_every_lane_and_names_its_own_events(data):
    runs = [page_run(key, {}, EPOCHS, 0, data) for key in ("perceptron", "pa")]
    questions = Questions(runs, data, Predict(on=True, seed=4))
    asked = [questions.at(s) for s in range(1, runs[0].timeline.n_events + 1)]
    assert {q.lane for q in asked} == {0, 1}
    for q in asked:
        if q.kind == "outcome":
            assert q.answer == int(runs[q.lane].timeline.kind[0, q.step - 1])


def test_the_draws_are_fixed_32_bit_numbers():
    """Pinned: a change of the mixing would change every question of every seed (the browser
    draws the same numbers: tests/browser/test_predict_logic.py)."""
    assert [draw(0, 1, 1), draw(7, 400_000, 63), draw(1_000_000, 3, 2)] == [
        1833582730,
        2927803740,
        1836740825,
    ]
    grid = [(seed, step, salt) for seed in range(3) for step in range(50) for salt in range(3)]
    values = [draw(*point) for point in grid]
    assert all(0 <= v < 2**32 for v in values)
    assert len(set(values)) == len(values)  # no collisions on a small grid
    counts = np.bincount([pick(9, step, 2, 3) for step in range(3000)], minlength=3)
    assert counts.min() > 900  # about a third each


def test_where_counts_a_mark_within_its_tolerance():
    q = Question(5, 0, "where", answer=(1.0, -2.0), tolerance=0.25, start=(0.0, 0.0))
    assert q.is_right((1.0, -2.0)) and q.is_right((1.15, -1.8))
    assert not q.is_right((1.2, -1.8))  # 0.283 away
    assert Question(5, 0, "side", options=(1, -1), answer=-1).is_right(-1)


def test_the_settings_are_checked_and_reach_the_browser():
    assert View().options(600)["predict"] == Predict().options()
    opened = View(predict=Predict(on=True, ask="steps", steps=(8, 2), kinds=("lines",)))
    assert opened.options(600)["predict"] == {
        "on": True,
        "ask": "steps",
        "k": 5,
        "steps": [2, 8],
        "kinds": ["lines"],
        "seed": 0,
    }
    with pytest.raises(ValueError, match="k is 1; it takes a whole number, 2 or more"):
        Predict(ask="kth", k=1)
    with pytest.raises(ValueError, match="kinds hold 'guess'; the kinds are outcome, side"):
        Predict(kinds=("guess",))
    with pytest.raises(ValueError, match="give the steps that ask"):
        Predict(ask="steps")
    with pytest.raises(ValueError, match="a step that asks is 1 or more"):
        Predict(ask="steps", steps=(0, 3))


@pytest.mark.parametrize(
    "query, expected",
    [
        ({}, Predict()),
        ({"predict": "1"}, Predict(on=True)),
        ({"predict": "1", "ask": "updates"}, Predict(on=True, ask="updates")),
        ({"predict": "1", "ask": "12"}, Predict(on=True, ask="kth", k=12)),
        ({"predict": "1", "ask": "1"}, Predict(on=True)),
        ({"predict": "0", "ask": "updates"}, Predict(ask="updates")),
    ],
)
def test_a_link_asks_for_predict_mode(query, expected):
    assert predict_from_link(query) == expected
    assert predict_from_link(expected.link_params()) == Predict(
        on=expected.on, ask=expected.ask if expected.on else "every", k=expected.k
    )


@pytest.mark.parametrize(
    "query, message",
    [
        ({"predict": "on"}, "predict='on' is not accepted; predict takes 0 or 1"),
        ({"ask": "often"}, "ask='often' is not accepted; ask takes every, updates or a whole"),
        ({"ask": "0"}, "ask='0' is not accepted"),
        ({"ask": "10001"}, "from 1 to 10,000"),
    ],
)
def test_a_links_wrong_predict_mode_is_named(query, message):
    with pytest.raises(ValueError, match=message):
        predict_from_link(query)


def test_the_exported_pages_link_carries_predict_mode():
    s = read_link("http://localhost:8501/?data=gaussians&predict=1&ask=3&seed=7")
    assert s.predict == Predict(on=True, ask="kth", k=3, seed=7)
    with pytest.raises(ValueError, match="predict takes 0 or 1"):
        read_link("?predict=2")


def test_an_exported_link_opens_the_page_in_predict_mode():
    from perceptron_lab.ui.standalone_page import link_page

    page, _ = link_page("?data=separable&epochs=2&predict=1&ask=updates")
    args = json.loads(re.search(r'id="playback-args">(.*?)</script>', page, re.S).group(1))
    assert args["options"]["predict"] == Predict(on=True, ask="updates").options()
