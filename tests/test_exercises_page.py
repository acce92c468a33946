"""A lesson's exercises as the page draws them (ui/exercises.py), in Streamlit's AppTest, on
lesson 2's facts without the rest of the lesson: each kind answered right and wrong through
its form, the verdict in its status region (on the page before any answer), another variant
on request, what is handed to the browser to keep, and a teacher's link."""

from __future__ import annotations

import weakref

from streamlit.testing.v1 import AppTest

from perceptron_lab.app_logic.exercises import for_lesson
from tests.exercise_facts import facts, right_response


def _lesson_2_exercises():
    from perceptron_lab.ui.exercises import exercises
    from tests.exercise_facts import facts

    exercises(2, **facts(2))


def _page(link: str | None = None) -> AppTest:
    at = AppTest.from_function(_lesson_2_exercises, default_timeout=120)
    if link is not None:
        at.query_params["exercises"] = link
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def _verdicts(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown if 'role="status"' in m.value]


def _submit(at: AppTest, exercise_id: str, variant: int = 0) -> None:
    at.button(key=f"FormSubmitter:ex_{exercise_id}_form{variant}-Check").click().run()
    assert not at.exception, [e.message for e in at.exception]


def test_each_kind_is_answered_right_and_wrong_through_its_form():
    at = _page()
    assert [h.value for h in at.header] == ["Exercises"]
    assert len(at.subheader) == len(for_lesson(2))
    f = facts(2)
    # the predictions are answered in the figure: the box says what it asks, and no form
    (replay,) = [e for e in for_lesson(2) if e.form == "replay"]
    assert any(m.value == replay.question(f, 0).text for m in at.markdown)
    assert any("“Predict, then step”" in c.value for c in at.caption)
    assert not [k for k in at.session_state if k.startswith(f"ex_{replay.id}_")]
    own = [e for e in for_lesson(2) if e.form != "replay"]
    assert len(_verdicts(at)) == len(own)
    assert all(v.endswith('aria-live="polite"></div>') for v in _verdicts(at))  # empty regions
    for number, exercise in enumerate(own):
        q = exercise.question(f, 0)
        key = f"ex_{exercise.id}_answer0"
        if q.form == "number":
            at.text_input(key=key).set_value(right_response(q))
        elif q.form == "choice":
            at.radio(key=key).set_value(q.options[right_response(q)])
        elif q.form == "order":
            at.multiselect(key=key).set_value([q.options[i] for i in q.answer])
        _submit(at, exercise.id)
        said = _verdicts(at)[number]
        assert "exercise-right" in said or q.form == "setting", said
        if q.form == "setting" and f[q.control] not in q.answer:
            assert "Not yet." in said
    records = at.session_state["exercise_records"]
    assert set(records) == {e.id for e in own}
    assert all(r["attempts"] == 1 and r["lesson"] == 2 and r["nonce"] for r in records.values())


def test_a_wrong_number_names_its_misconception_and_a_retry_asks_another_variant():
    at = _page()
    exercise = next(e for e in for_lesson(2) if e.form == "number")
    q = exercise.question(facts(2), 0)
    at.text_input(key=f"ex_{exercise.id}_answer0").set_value("about three")
    _submit(at, exercise.id)
    said = _verdicts(at)[0]
    assert "is not a number: type digits" in said and "exercise-wrong" not in said
    assert "exercise_records" not in at.session_state  # not an attempt
    assert not [b for b in at.button if b.label == "Try another variant"]
    slip, value = next(iter(q.slips.items()))
    at.text_input(key=f"ex_{exercise.id}_answer0").set_value(f"{value:.10g}")
    _submit(at, exercise.id)
    said = _verdicts(at)[0]
    assert "exercise-wrong" in said and "<strong>Not yet.</strong>" in said
    assert q.misconceptions[slip].feedback.split(":")[0] in said
    assert at.session_state["exercise_records"][exercise.id]["attempts"] == 1
    at.button(key=f"ex_{exercise.id}_again0").click().run()
    again = exercise.question(facts(2), 1)
    assert any(again.text in m.value for m in at.markdown)
    assert _verdicts(at)[0].endswith('aria-live="polite"></div>')  # the same region, emptied
    assert at.text_input(key=f"ex_{exercise.id}_answer1").value in ("", None)


def test_a_teachers_link_sets_the_exercises_and_a_wrong_id_is_named():
    chosen = [e.id for e in for_lesson(2)][3:]
    at = _page(",".join(chosen))
    assert len(at.subheader) == len(chosen)
    assert any(
        f"sets {len(chosen)} of this lesson's {len(for_lesson(2))} exercises" in i.value
        for i in at.info
    )
    at = _page("l02-proof-order,l09-visit-order")
    assert len(at.subheader) == len(for_lesson(2))
    message = at.error[0].value
    assert "'l09-visit-order'" in message and "lesson 2 does not have" in message
    assert all(e.id in message for e in for_lesson(2))


def test_a_rerun_asks_a_question_again_only_when_the_page_changed(monkeypatch):
    """Every click runs the whole lesson again: its exercises are asked once for the facts
    they show (the replay exercise too, which its box and the progress panel both need), and
    again when a fact changed (here the seed, hence the data and the run)."""
    from perceptron_lab.app_logic.exercises.model import Exercise
    from tests.pages import assert_page_ok, run_lesson

    asked = []
    question = Exercise.question

    def counted(self, facts, variant=0):
        asked.append((self.id, variant))
        return question(self, facts, variant)

    monkeypatch.setattr(Exercise, "question", counted)
    at = run_lesson("02_convergence")
    ids = sorted(e.id for e in for_lesson(2))
    assert sorted(i for i, _ in asked) == ids  # each once, the replay exercise included
    asked.clear()
    at.run()  # a click elsewhere on the page
    assert_page_ok(at)
    assert asked == []
    # the run and the data are the memory budget's to drop: the session refers to them weakly
    for _variant, known, _question in at.session_state["exercise_questions"].values():
        assert isinstance(known["run"], weakref.ref) and isinstance(known["data"], weakref.ref)
    at.number_input(key="l02_seed").set_value(at.number_input(key="l02_seed").value + 1).run()
    assert_page_ok(at)
    assert sorted(i for i, _ in asked) == ids
