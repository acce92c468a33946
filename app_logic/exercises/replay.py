"""A prediction on the lesson's own replay: the exercise every lesson's figure asks in
predict mode.

A lesson opens its figure in predict mode (``stage(..., predict=REPLAY.predict)``), asking
before a few steps it chooses, those that show the lesson's point (lesson 5: an example
inside the margin band, which updates though it is on the right side). :class:`Replay` says
which steps (``choose``: candidates, the best first; the first ``asked`` of them at which a
question of the lesson's ``kinds`` fits), and what makes the exercise done: ``answers`` of
them answered (a skip does not count) with at least ``right`` right.

The questions and their right answers are predict mode's Python reference
(:class:`app_logic.predictions.Questions`), the same the replay computes in the browser; the
student answers them in the replay, whose record the progress panel in the sidebar keeps
(``ui/progress/``), and :func:`model.check` judges such a record against the lab's answers.
A wrong answer's misconception depends on what was asked (``about``: by default the kind of
question; lesson 5 tells an example inside the band from one outside it).

Examples
--------
>>> from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
>>> from perceptron_lab.app_logic.training import fit_run
>>> data = make_dataset(DataRequest("separable", (("n_samples", 20),), seed=1))
>>> run = fit_run("perceptron", (("eta", 0.5),), 5, 1, data.X, data.y, data.X_test, data.y_test)
>>> replay = Replay(lambda run, data: range(1, 30), ("outcome",), asked=4, answers=3, right=2)
>>> replay.predict(run, data).steps
(1, 2, 3, 4)
>>> [q.kind for q in replay.questions(run, data)]
['outcome', 'outcome', 'outcome', 'outcome']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from itertools import chain

import numpy as np

from perceptron_core.trace import EVENT_KINDS
from perceptron_lab.app_logic.exercises._runs import seed_of
from perceptron_lab.app_logic.exercises.model import Exercise, Misconception, Question
from perceptron_lab.app_logic.predictions import Predict, Questions
from perceptron_lab.app_logic.timeline import UPDATE_KINDS

#: Where the student answers and sees the score.
PANEL = "the figure's panel “Predict, then step” (its verdict, and the math panel beside it)"


def by_kind(asked) -> str:
    """A wrong answer's misconception: the kind of question (the default of ``about``)."""
    return asked.kind


def by_event(asked) -> str:
    """A wrong answer's misconception: the kind of question, and for "what will the learner
    do" the event that happened (``"outcome margin"``: it updated inside the band).

    Examples
    --------
    >>> from perceptron_lab.app_logic.predictions import Question as Asked
    >>> by_event(Asked(4, 0, "outcome", answer=2)), by_event(Asked(4, 0, "side", answer=1))
    ('outcome margin', 'side')
    """
    if asked.kind == "outcome":
        return f"outcome {EVENT_KINDS[int(asked.answer)]}"
    return asked.kind


@dataclass(frozen=True)
class Replay:
    """What a lesson's figure asks in predict mode, and what makes its exercise done.

    Attributes
    ----------
    choose : callable
        ``choose(run, data) -> iterable of int``: candidate steps, the best first (the
        run's first steps follow them, should they show too little).
    kinds : tuple of str
        The kinds of question the figure asks (of :data:`app_logic.predictions.KINDS`).
    asked : int
        How many steps ask: the first candidates at which a question of ``kinds`` fits.
    answers, right : int
        The exercise is done when ``answers`` of them are answered, ``right`` of those
        right.
    about : callable
        ``about(question) -> str``: the misconception a wrong answer to it shows.
    """

    choose: Callable[..., Iterable[int]]
    kinds: tuple[str, ...]
    asked: int = 6
    answers: int = 5
    right: int = 4
    about: Callable = by_kind

    def predict(self, run, data) -> Predict:
        """Predict mode for the figure of ``run``: on, asking at the lesson's steps, seeded
        with the run's seed (the same page asks the same questions)."""
        return Predict(
            on=True, ask="steps", steps=self.steps(run, data), kinds=self.kinds, seed=seed_of(run)
        )

    def steps(self, run, data) -> tuple[int, ...]:
        """The steps that ask: the first ``asked`` candidates with a question that fits,
        then (a run that shows too little of what the lesson chose) the first steps that
        have one."""
        every = Questions([run], data, Predict(on=True, kinds=self.kinds, seed=seed_of(run)))
        kept: list[int] = []
        candidates = chain(self.choose(run, data), range(1, run.timeline.n_events + 1))
        for step in candidates:
            step = int(step)
            if step not in kept and every.at(step) is not None:
                kept.append(step)
                if len(kept) == self.asked:
                    break
        return tuple(sorted(kept))

    def questions(self, run, data) -> tuple:
        """The questions the figure asks, with the lab's answers (predictions.Question)."""
        predict = self.predict(run, data)
        questions = Questions([run], data, predict)
        return tuple(questions.at(step) for step in predict.steps)


def replay_exercise(
    exercise_id: str,
    lesson: int,
    prompt: str,
    replay: Replay,
    how: str,
    why: str,
    misconceptions: Mapping[str, Misconception],
) -> Exercise:
    """The exercise of a lesson's replay.

    Parameters
    ----------
    prompt : str
        What it asks, for the teachers' listing.
    replay : Replay
    how : str
        What to predict and what to look at, the first sentences of the page's prompt.
    why : str
        Said with a right verdict: the lesson's point the predictions rest on.
    misconceptions : dict
        Key (of ``replay.about``) -> the misconception a wrong answer shows; the question
        keeps those its asked questions can show.
    """

    def ask(facts: Mapping, variant: int) -> Question:
        asked = replay.questions(facts["run"], facts["data"])
        about = tuple(replay.about(q) for q in asked)
        steps = [f"{q.step:,}" for q in asked]
        listed = ", ".join(steps[:-1]) + f" and {steps[-1]}" if len(steps) > 1 else steps[0]
        few = Misconception(
            f"The exercise counts {replay.answers} answered predictions of the figure's "
            f"{len(asked)}; a skipped one does not count. Press Start, then Step or Play: "
            "the replay stops before each step that asks",
            PANEL,
        )
        return Question(
            text=f"{how} The figure asks before steps {listed} (predict mode is on: press "
            "**Start**, then **Step** or **Play**, and the replay stops before each of them). "
            f"Answer at least **{replay.answers}** of them, at least **{replay.right}** right; "
            "the sidebar marks this exercise done once you have.",
            answer=asked,
            form="replay",
            why=why,
            misconceptions={"few": few, **{k: misconceptions[k] for k in dict.fromkeys(about)}},
            needed=(replay.answers, replay.right),
            about=about,
        )

    return Exercise(exercise_id, lesson, "replay", prompt, ask, ("run", "data"))


# ---------------------------------------------------------------------------------- steps


def updates(run) -> np.ndarray:
    """The steps (1-based) whose visit updated the hypothesis."""
    return np.flatnonzero(np.isin(run.timeline.kind[0], UPDATE_KINDS)) + 1


def events(run, code: int) -> np.ndarray:
    """The steps (1-based) whose visit was event ``code`` (of ``perceptron_core.trace``)."""
    return np.flatnonzero(run.timeline.kind[0] == code) + 1


def visits(run, rows) -> np.ndarray:
    """The steps (1-based) that visit a training row where the boolean ``rows`` is true (a
    mask over the training set: the flipped labels, the positives)."""
    return np.flatnonzero(np.asarray(rows, bool)[run.timeline.index]) + 1


def after_the_first_epoch(run) -> np.ndarray:
    """A mask over the steps (0-based) after the run's first epoch: the line, and a band,
    are in the view by then."""
    return run.timeline.epoch > 0


def last_epoch(run) -> np.ndarray:
    """A mask over the steps (0-based) of the run's last epoch."""
    epoch = run.timeline.epoch
    return epoch == epoch[-1]


def within(steps, mask) -> np.ndarray:
    """The steps (1-based) of ``steps`` whose 0-based position ``mask`` keeps.

    Examples
    --------
    >>> within(np.array([1, 3, 4]), np.array([True, False, False, True])).tolist()
    [1, 4]
    """
    steps = np.asarray(steps, int)
    return steps[np.asarray(mask, bool)[steps - 1]]


def spread(steps, n: int) -> list[int]:
    """``n`` of ``steps`` evenly spread from the first to the last (all of them if fewer).

    Examples
    --------
    >>> spread([2, 4, 6, 8, 10, 12], 3)
    [2, 6, 12]
    """
    steps = list(steps)
    if len(steps) <= n:
        return steps
    return [steps[round(i * (len(steps) - 1) / (n - 1))] for i in range(n)] if n > 1 else steps[:1]


def interleave(*groups) -> list[int]:
    """The candidates of several groups taken in turn (the first of each, then the second):
    a lesson's steps mix what each group shows.

    Examples
    --------
    >>> interleave([1, 2, 3], [10], [20, 21])
    [1, 10, 20, 2, 21, 3]
    """
    lists = [list(g) for g in groups]
    out: list[int] = []
    for n in range(max(map(len, lists), default=0)):
        out.extend(int(g[n]) for g in lists if n < len(g))
    return out


def for_the_browser(exercise_id: str, question: Question) -> dict:
    """What the progress panel in the browser needs to judge the replay's record (JSON): the
    questions with the lab's answers, how many answers make it done, and each
    misconception's words (``ui/progress/progress.js`` tallies as :func:`model.check` does).

    Examples
    --------
    >>> from perceptron_lab.app_logic.predictions import Question as Asked
    >>> q = Question("?", (Asked(3, 0, "where", answer=(1.0, 2.0), tolerance=0.1),), "replay",
    ...              "Because.", {"few": Misconception("More.", "x"), "where": Misconception(
    ...              "w + ηyx.", "y")}, needed=(1, 1), about=("where",))
    >>> spec = for_the_browser("l01-predict", q)
    >>> spec["questions"], spec["feedback"]["where"]
    ([{'step': 3, 'kind': 'where', 'expected': [1.0, 2.0], 'tolerance': 0.1}], 'w + ηyx. See y.')
    """
    return {
        "id": exercise_id,
        "questions": [
            {
                "step": q.step,
                "kind": q.kind,
                "expected": list(q.answer) if isinstance(q.answer, tuple) else q.answer,
                "tolerance": q.tolerance,
            }
            for q in question.answer
        ],
        "about": list(question.about),
        "needed": list(question.needed),
        "feedback": {key: m.text() for key, m in question.misconceptions.items()},
        "why": question.why,
    }
