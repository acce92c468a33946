"""The lessons' studies are prepared ahead: warm computes them, the disk keeps them, lessons
read them.

A prepared result is the same numbers as a fresh computation with the same
seed; ``perceptron-lab warm`` prepares every study after the learners; a
lesson's first view asks for exactly the settings that were prepared and,
when they are on disk, computes nothing; so does lesson 9's second setting
when it is picked; the server's background warm-up prepares them after its
learners. Every test keeps its results in a
temporary cache folder (``XDG_CACHE_HOME``) and starts from an empty memory.
"""

from __future__ import annotations

import threading

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from perceptron_lab.app_logic import lesson_studies
from perceptron_lab.app_logic.lesson_studies import STUDIES, Study, forget, prepare_lessons, stored
from perceptron_lab.app_logic.warmup import Warmup
from perceptron_lab.cli import main
from tests.pages import LESSON_DIR

#: Each lesson with a study -> the studies its first view reads.
LESSON_STUDIES = {
    "02_convergence": ["l02_sweep"],
    "04_from_online_to_batch": ["l04_predictors"],
    "05_margins": ["l05_margins"],
    "06_rare_positives": ["l06_paum"],
    "07_soft_margins": ["l07_switches"],
    "08_kernels": ["l08_digits"],
    "09_winnow": ["l09_mistakes", "l09_weights"],
    "10_parallel_perceptrons": ["l10_boosting", "l10_nr"],
    "11_choosing_parameters": ["l11_estimates"],
    "12_more_than_two_classes": ["l12_compare"],
}
#: A study a lesson reads only once a radio is moved -> (lesson, the radio's key, the option).
AFTER_A_PICK = {"l09_perceptron_side": ("09_winnow", "l09_side", 1)}
#: Studies that take about a second at most: these are computed here for real.
QUICK = (
    "l02_sweep",
    "l09_mistakes",
    "l09_perceptron_side",
    "l09_weights",
    "l10_boosting",
    "l11_estimates",
)


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    """A cache folder of the test's own, and nothing remembered from other tests."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    forget()
    yield lesson_studies.cache_folder()
    forget()


def _assert_same(a, b) -> None:
    if isinstance(a, pd.DataFrame):
        pd.testing.assert_frame_equal(a, b)
    else:
        assert a.keys() == b.keys()
        for name in a:
            np.testing.assert_array_equal(a[name], b[name])


def test_every_lesson_study_is_registered_in_lesson_order():
    read = [name for names in LESSON_STUDIES.values() for name in names] + list(AFTER_A_PICK)
    assert sorted(read) == sorted(STUDIES)
    assert list(STUDIES) == sorted(STUDIES)  # prepared in lesson order


@pytest.mark.parametrize("name", QUICK)
def test_a_prepared_study_is_the_same_numbers_as_a_fresh_computation(name, own_cache):
    (prepared,) = prepare_lessons(names=[name])
    assert (prepared.name, prepared.source, prepared.error) == (name, "computed", None)
    assert list(own_cache.glob("??/*.npz"))  # on disk, for the next process
    forget()  # a new process: only the disk has it
    from_disk = stored(name)
    assert from_disk is not None
    study = STUDIES[name]
    _assert_same(from_disk, study.compute(**study.defaults))  # same seed, same numbers
    (again,) = prepare_lessons(names=[name])
    assert again.source == "memory"


def test_a_study_is_computed_again_when_its_settings_or_the_code_change(monkeypatch):
    key = lesson_studies.study_key("l09_weights", {"n": 256, "k": 3, "m": 2000, "seed": 0})
    other_seed = lesson_studies.study_key("l09_weights", {"n": 256, "k": 3, "m": 2000, "seed": 1})
    monkeypatch.setattr(lesson_studies, "code_digest", lambda: "edited")
    other_code = lesson_studies.study_key("l09_weights", {"n": 256, "k": 3, "m": 2000, "seed": 0})
    assert len({key, other_seed, other_code}) == 3


def test_a_folder_that_cannot_be_written_still_gives_the_result(tmp_path, caplog):
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder")
    weights = lesson_studies.result("l09_weights", folder=blocked / "studies")
    assert "Cannot write" in caplog.text
    _assert_same(weights, stored("l09_weights"))  # kept in memory all the same


def test_a_second_session_waits_for_the_first_ones_computation_and_follows_it(monkeypatch):
    gate, calls, seen = threading.Event(), [], []

    def slow(seed, progress):
        calls.append(seed)
        progress(0.5, "half way")
        assert gate.wait(60)
        return {"x": np.arange(3) + seed}

    monkeypatch.setitem(STUDIES, "l00_slow", Study("l00_slow", slow, {"seed": 0}, "Waiting"))
    first = threading.Thread(target=lesson_studies.result, args=("l00_slow",))
    first.start()
    while not calls:
        threading.Event().wait(0.01)
    second = threading.Thread(
        target=lambda: seen.append(
            lesson_studies.result(
                "l00_slow", progress=lambda share, text: seen.append((share, text))
            )
        )
    )
    second.start()
    threading.Event().wait(0.5)  # the second session is waiting now
    gate.set()
    first.join(60)
    second.join(60)
    assert calls == [0]  # computed once
    assert (0.5, "half way") in seen  # the second session showed the first one's progress
    assert seen[-1]["x"].tolist() == [0, 1, 2]


def test_warm_prepares_the_lessons_after_the_learners_and_reports_each(monkeypatch, capsys):
    from perceptron_lab.app_logic import training

    compiled, prepared = [], []
    monkeypatch.setattr(training, "compile_learner", compiled.append)

    def prepare(folder=None, names=None):
        assert compiled  # after the learners
        prepared.append(True)
        yield lesson_studies.Prepared("l02_sweep", 1.5, "computed")
        yield lesson_studies.Prepared("l09_mistakes", 0.25, "failed", "ValueError: no")

    monkeypatch.setattr(lesson_studies, "prepare_lessons", prepare)
    # the computed study is on the disk, where warm checks that the next process finds it
    monkeypatch.setattr(lesson_studies, "stored", lambda name: {"l02_sweep": object()}.get(name))
    assert main(["warm"]) == 1  # a study failed
    out = capsys.readouterr().out.splitlines()
    start = out.index(next(line for line in out if line.startswith("lesson study")))
    assert out[start + 1].split() == ["l02_sweep", "1.50", "computed"]
    assert out[start + 2].split()[:3] == ["l09_mistakes", "0.25", "FAILED:"]
    assert out[start + 3].startswith("1 of 2 lesson studies ready in ")
    assert str(lesson_studies.cache_folder()) in out[start + 3]
    prepared.clear()
    assert main(["warm", "--learners", "perceptron"]) == 0  # a list of learners: those only
    assert not prepared


def test_warm_from_an_empty_folder_writes_what_the_next_process_reads(own_cache):
    done = list(prepare_lessons(names=["l09_weights"]))  # what warm calls, one study
    assert [p.error for p in done] == [None]
    forget()
    assert lesson_studies.missing() == [name for name in STUDIES if name != "l09_weights"]


class _Asked(RuntimeError):
    """Raised by the spy instead of reading or computing a study."""


@pytest.mark.parametrize("stem", LESSON_STUDIES)
def test_a_lessons_first_view_asks_for_the_prepared_settings(stem, monkeypatch):
    asked = []

    def spy(name, settings=None, folder=None):
        asked.append((name, lesson_studies.settings_of(name, settings)))
        raise _Asked(name)

    monkeypatch.setattr(lesson_studies, "stored", spy)
    AppTest.from_file(str(LESSON_DIR / f"{stem}.py"), default_timeout=300).run()
    first = LESSON_STUDIES[stem][0]
    assert asked and asked[0] == (first, STUDIES[first].defaults)


def _prepared_then_refused(stem: str, names: list, monkeypatch, when: str) -> AppTest:
    """The lesson's page, first run after ``names`` were prepared (as ``warm`` does) and the
    server restarted, with every computation of those studies refused."""
    assert all(p.source == "computed" for p in prepare_lessons(names=names))
    forget()  # a restarted server: the disk has them, the memory not

    def refuse(**settings):
        raise AssertionError(f"the lesson computed a study {when}: {settings}")

    for name in names:
        monkeypatch.setitem(STUDIES, name, Study(name, refuse, STUDIES[name].defaults, "no"))
    at = AppTest.from_file(str(LESSON_DIR / f"{stem}.py"), default_timeout=300)
    at.run()
    return at


@pytest.mark.parametrize(
    "stem", [s for s, names in LESSON_STUDIES.items() if set(names) <= set(QUICK)]
)
def test_a_lesson_reads_its_prepared_study_and_computes_nothing(stem, monkeypatch):
    at = _prepared_then_refused(stem, LESSON_STUDIES[stem], monkeypatch, "on its first view")
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    if stem == "09_winnow":  # the research table (a row per n) is the prepared one
        prepared = stored("l09_mistakes")
        shown = next(d.value for d in at.dataframe if "n features" in d.value.columns)
        assert shown["Winnow mistakes"].tolist() == prepared["Winnow mistakes"].tolist()


@pytest.mark.parametrize("name", AFTER_A_PICK)
def test_a_study_shown_after_a_pick_is_prepared_and_read_without_computing(name, monkeypatch):
    stem, key, option = AFTER_A_PICK[name]
    names = [*LESSON_STUDIES[stem], name]
    at = _prepared_then_refused(stem, names, monkeypatch, "after the pick")
    radio = at.radio(key=key)
    radio.set_value(radio.options[option]).run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    prepared = stored(name)
    shown = at.dataframe[0].value  # the research table is the prepared one
    assert shown["n features"].tolist() == prepared["n features"].tolist()
    assert shown["Perceptron mistakes"].tolist() == prepared["Perceptron mistakes"].tolist()


@pytest.mark.parametrize("stem", ["09_winnow", "11_choosing_parameters"])
def test_a_study_computed_on_a_first_visit_shows_a_progress_bar_not_a_spinner(stem, monkeypatch):
    import streamlit as st

    shown, progress = [], st.delta_generator.DeltaGenerator.progress

    def recorded(self, value, text=None):
        shown.append((value, text))
        return progress(self, value, text=text)

    def no_spinner(*args, **kwargs):
        raise AssertionError("a spinner")

    monkeypatch.setattr(st.delta_generator.DeltaGenerator, "progress", recorded)
    monkeypatch.setattr(st, "spinner", no_spinner)
    at = AppTest.from_file(str(LESSON_DIR / f"{stem}.py"), default_timeout=300)
    at.run()  # nothing prepared: the first visit computes
    assert not at.exception, [e.message for e in at.exception]
    what = STUDIES[LESSON_STUDIES[stem][0]].what
    steps = [(value, text) for value, text in shown if text.startswith(f"{what}: ")]
    assert len(steps) > 3 and all(0 <= value <= 1 for value, _ in steps)
    assert [value for value, _ in steps] == sorted(value for value, _ in steps)  # it advances
    assert not at.get("progress")  # removed once the result is there


def test_the_servers_warm_up_prepares_the_lessons_after_its_learners(monkeypatch):
    order = []
    warmup = Warmup(["a", "b"], order.append, then=lambda: order.append("lessons"))
    warmup.start_background()
    assert warmup.wait(60)
    warmup._thread.join(60)
    assert order == ["a", "b", "lessons"]
    from perceptron_lab.app_logic import training

    assert training.WARMUP._then is lesson_studies.prepare_in_background


def test_the_background_step_failing_is_logged_not_raised(caplog):
    def broken():
        raise RuntimeError("no disk")

    warmup = Warmup(["a"], lambda key: None, then=broken)
    warmup.start_background()
    warmup._thread.join(60)
    assert "last step after the learners failed" in caplog.text


def test_the_server_part_reads_what_warm_prepared_without_a_child(monkeypatch):
    list(prepare_lessons(names=["l09_weights"]))
    children = []
    monkeypatch.setattr(lesson_studies, "prepare_in_child", lambda: children.append(1))
    monkeypatch.setattr(lesson_studies, "missing", lambda folder=None: [])
    forget()
    monkeypatch.setattr(lesson_studies, "STUDIES", {"l09_weights": STUDIES["l09_weights"]})
    lesson_studies.prepare_in_background()
    assert not children  # nothing missing: nothing computed elsewhere
    assert (
        lesson_studies._recalled(
            lesson_studies.study_key("l09_weights", STUDIES["l09_weights"].defaults)
        )
        is not None
    )
