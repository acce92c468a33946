"""Questions to the class: what a teacher's question and a student's answer may be, how the
answers are pooled, and how the store keeps them (one answer per student and question, a
changed answer replacing the first, none after the reveal, deleted with the class), on a real
SQLite file. What each page is sent is tested on the hub (test_live_class_hub.py)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from perceptron_lab.app_logic.live_class.database import Database
from perceptron_lab.app_logic.live_class.messages import Refused, parse
from perceptron_lab.app_logic.live_class.questions import (
    checked_answer,
    checked_question,
    pooled,
)
from perceptron_lab.app_logic.live_class.store import ClassStore
from perceptron_lab.app_logic.live_class.tally import BINS
from perceptron_lab.app_logic.predictions import KINDS
from tests import test_live_class_store as store_tests

SIDE = {"step": 58, "lane": 0, "kind": "side", "seed": 7, "options": [1, -1], "answer": 1}
OUTCOME = {"step": 58, "lane": 0, "kind": "outcome", "seed": 7, "options": [0, 1, 2], "answer": 2}
WHERE = {
    "step": 58,
    "lane": 0,
    "kind": "where",
    "seed": 7,
    "answer": [0.4, -0.2],
    "tolerance": 0.1,
    "range": [-1.0, 1.0, -1.0, 1.0],
}


# a SQLite file of the test's own and a clock the test moves by hand
path, clock = store_tests.path, store_tests.clock


@pytest.fixture
def store(path, clock):
    database = Database(str(path))
    yield ClassStore(database, hours=1.0, clock=clock)
    database.close()


def _class(store, students: int = 3):
    started = store.start({"learner": "perceptron", "seed": "7"}, 57)
    return started, [store.join(started.code, f"S{i}") for i in range(students)]


# -- what a question and an answer may be ---------------------------------------------------


def test_every_kind_of_predict_mode_may_be_asked():
    for kind in KINDS:
        raw = WHERE if kind == "where" else {**SIDE, "kind": kind}
        assert checked_question({**raw, "kind": kind})["public"]["kind"] == kind


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"kind": "guess"}, "kind is one of"),
        ({"step": 0}, "step is a whole number"),
        ({"step": True}, "step is a whole number"),
        ({"lane": 4}, "lane is a whole number from 0 to 3"),
        ({"seed": -1}, "seed is a whole number"),
        ({"options": [1]}, "2 to 6 choices"),
        ({"options": [1, 1]}, "all different"),
        ({"options": [1, "<b>x</b>"]}, "a word of at most 12 letters"),
        ({"options": [1, 10]}, "from -9 to 9"),
        ({"answer": 2}, "a choice's index"),
        ({"answer": "1"}, "a choice's index"),
    ],
)
def test_a_choice_question_out_of_shape_is_refused(change, words):
    with pytest.raises(Refused, match=words):
        checked_question({**SIDE, **change})


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"tolerance": 0}, "above 0"),
        ({"tolerance": float("nan")}, "finite number"),
        ({"answer": [0.4]}, "pair of numbers"),
        ({"answer": [0.4, float("inf")]}, "finite number"),
        ({"range": [1.0, -1.0, -1.0, 1.0]}, "increasing order"),
        ({"range": [0, 1, 0]}, r"\[x0, x1, y0, y1\]"),
    ],
)
def test_a_where_question_out_of_shape_is_refused(change, words):
    with pytest.raises(Refused, match=words):
        checked_question({**WHERE, **change})


def test_the_key_is_kept_apart_from_what_every_page_is_sent():
    question = checked_question(OUTCOME)
    assert question["public"] == {
        "step": 58,
        "lane": 0,
        "kind": "outcome",
        "seed": 7,
        "options": [0, 1, 2],
    }
    assert question["key"] == {"answer": 2}
    where = checked_question(WHERE)
    assert "answer" not in where["public"] and "tolerance" not in where["public"]
    assert where["key"] == {"answer": [0.4, -0.2], "tolerance": 0.1}


def test_an_answer_must_fit_its_question():
    side, where = checked_question(SIDE), checked_question(WHERE)
    assert checked_answer(side, {"choice": 0}) == {"choice": 0}
    assert checked_answer(where, {"point": [1, 2.5]}) == {"point": [1.0, 2.5]}
    for question, raw, words in (
        (side, {"choice": 2}, "from 0 to 1"),
        (side, {"choice": -1}, "from 0 to 1"),
        (side, {"choice": True}, "whole number"),
        (side, {"point": [0, 0]}, "one of its choices"),
        (where, {"choice": 0}, "takes a point"),
        (where, {"point": [0, 0, 0]}, "pair of numbers"),
        (where, {"point": [0, 1e300]}, "finite number"),
    ):
        with pytest.raises(Refused, match=words):
            checked_answer(question, raw)
    # JSON's NaN and Infinity, which Python's reader takes, are refused as marks
    message = parse('{"type": "answer", "number": 1, "point": [NaN, Infinity]}', "student")
    with pytest.raises(Refused, match="finite"):
        checked_answer(where, message["answer"])


def test_an_answer_message_names_its_question_and_gives_one_answer():
    assert parse('{"type": "answer", "number": 2, "choice": 1}', "student") == {
        "type": "answer",
        "number": 2,
        "answer": {"choice": 1},
    }
    for text, words in (
        ('{"type": "answer", "choice": 1}', "names its question"),
        ('{"type": "answer", "number": 1}', "one of a choice"),
        ('{"type": "answer", "number": 1, "choice": 1, "point": [0, 0]}', "one of a choice"),
        ('{"type": "answer", "number": 1, "choice": 1}', "Only a student"),
    ):
        with pytest.raises(Refused, match=words):
            parse(text, "teacher" if "Only" in words else "student")
    for kind in ("ask", "reveal", "close"):
        with pytest.raises(Refused, match=f"Only the class's teacher can do that \\({kind}\\)"):
            parse(json.dumps({"type": kind, "question": SIDE}), "student")


def test_the_pool_counts_each_choice_and_the_right_ones():
    question = checked_question(OUTCOME)
    answers = [{"choice": c} for c in (2, 0, 2, 1, 2)]
    assert pooled(question, answers) == {"answered": 5, "right": 3, "counts": [1, 1, 3]}
    assert pooled(question, []) == {"answered": 0, "right": 0, "counts": [0, 0, 0]}


def test_the_pool_of_marks_is_a_histogram_per_coordinate_over_the_view():
    question = checked_question(WHERE)  # the view is [-1, 1] x [-1, 1]: bins of 0.2
    marks = [[0.42, -0.25], [0.35, -0.15], [-1.0, 1.0], [1.5, -3.0], [0.05, 0.999]]
    pool = pooled(question, [{"point": p} for p in marks])
    assert pool["answered"] == 5 and pool["right"] == 2  # within 0.1 of (0.4, -0.2)
    w1, w2 = pool["histograms"]
    assert (w1["name"], w1["low"], w1["high"]) == ("w₁", -1.0, 1.0)
    assert len(w1["counts"]) == BINS
    # -1.0 is the first bin's edge, 1.0 (w2) the last bin's; 1.5 and -3.0 are off the view
    assert w1["counts"] == [1, 0, 0, 0, 0, 1, 1, 1, 0, 0] and (w1["below"], w1["above"]) == (0, 1)
    assert w2["counts"] == [0, 0, 0, 1, 1, 0, 0, 0, 0, 2] and (w2["below"], w2["above"]) == (1, 0)
    assert sum(w1["counts"]) + w1["below"] + w1["above"] == 5


# -- the store ----------------------------------------------------------------------------------


def test_a_question_is_asked_answered_once_per_student_and_pooled(store):
    started, seats = _class(store)
    rev = store.pace(started.id).rev
    number = store.ask(started.id, checked_question(OUTCOME))
    assert number == 1
    pace = store.pace(started.id)
    assert pace.rev == rev + 1
    assert pace.public()["question"] == {
        "number": 1,
        "state": "open",
        "step": 58,
        "lane": 0,
        "kind": "outcome",
        "seed": 7,
        "options": [0, 1, 2],
    }
    for seat, choice in zip(seats, (0, 2, 1), strict=True):
        assert store.answer(seat, number, {"choice": choice}) == {"choice": choice}
    assert store.pool(started.id) == {
        "number": 1,
        "answered": 3,
        "right": 1,
        "counts": [1, 1, 1],
        "answer": 2,
    }
    # a changed answer replaces the first: still one per student
    store.answer(seats[0], number, {"choice": 2})
    assert store.pool(started.id)["counts"] == [0, 1, 2]
    assert store.your_answer(seats[0]) == (1, {"choice": 2})
    assert store.your_answer(seats[1]) == (1, {"choice": 2})
    assert store.pace(started.id).rev == rev + 1  # answers do not move the pace


def test_the_reveal_keeps_the_results_shows_the_step_and_takes_no_more_answers(store):
    started, seats = _class(store)
    number = store.ask(started.id, checked_question(SIDE))
    store.answer(seats[0], number, {"choice": 1})
    store.answer(seats[1], number, {"choice": 0})
    assert store.reveal(started.id)
    pace = store.pace(started.id)
    assert pace.step == 58  # the step asked about is shown to all
    assert pace.question["state"] == "revealed"
    assert pace.question["results"] == {"answered": 2, "right": 1, "counts": [1, 1], "answer": 1}
    with pytest.raises(Refused, match="revealed"):
        store.answer(seats[2], number, {"choice": 1})
    with pytest.raises(Refused, match="revealed"):
        store.answer(seats[0], number, {"choice": 0})
    assert store.pool(started.id)["counts"] == [1, 1]
    assert not store.reveal(started.id)  # once


def test_a_new_question_a_close_or_a_new_view_puts_the_question_away(store):
    started, seats = _class(store)
    first = store.ask(started.id, checked_question(SIDE))
    second = store.ask(started.id, checked_question(OUTCOME))
    assert (first, second) == (1, 2)
    with pytest.raises(Refused, match="put this question away"):
        store.answer(seats[0], first, {"choice": 0})
    with pytest.raises(Refused, match="put this question away"):
        store.answer(seats[0], 9, {"choice": 0})
    assert store.pace(started.id).question["number"] == 2
    assert store.close_question(started.id)
    assert store.pace(started.id).question is None and store.pool(started.id) is None
    assert not store.close_question(started.id)
    store.ask(started.id, checked_question(SIDE))
    store.set_view(started.id, {"learner": "perceptron", "seed": "7"})  # the same view
    assert store.pace(started.id).question["number"] == 3
    store.set_view(started.id, {"learner": "voted", "seed": "7"})
    assert store.pace(started.id).question is None


def test_a_bad_answer_is_refused_and_changes_nothing(store):
    started, seats = _class(store)
    number = store.ask(started.id, checked_question(SIDE))
    store.answer(seats[0], number, {"choice": 1})
    with pytest.raises(Refused, match="from 0 to 1"):
        store.answer(seats[0], number, {"choice": 5})
    assert store.pool(started.id)["counts"] == [0, 1]


def test_a_student_answers_only_their_own_class(store):
    started, _ = _class(store)
    other, (stranger,) = _class(store, students=1)
    number = store.ask(started.id, checked_question(SIDE))
    assert number == 1
    with pytest.raises(Refused, match="put this question away"):
        store.answer(stranger, number, {"choice": 0})  # their class has no question 1
    assert store.pool(started.id)["answered"] == 0 and store.pool(other.id) is None


def test_questions_and_answers_are_deleted_with_the_class(store, path, clock):
    for ending in ("end", "expiry"):
        started, seats = _class(store)
        number = store.ask(started.id, checked_question(WHERE))
        store.answer(seats[0], number, {"point": [0.4, -0.2]})
        if ending == "end":
            store.end(started.id)
        else:
            clock.now += 3601
            assert store.delete_expired() == 1
        with sqlite3.connect(path) as connection:
            for table in ("classes", "students", "questions", "answers"):
                assert connection.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,)
