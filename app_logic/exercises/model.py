"""What an exercise is, what it asks in one situation, and how an answer is checked.

An :class:`Exercise` is written once per lesson (``app_logic/exercises/lesson_NN.py``):
its id, lesson, kind, a prompt that says what it asks in general (the teachers' listing,
``perceptron-lab exercises``), and ``ask(facts, variant)``, which builds the
:class:`Question` for the page as it stands: the prompt with the page's numbers, the right
answer computed by the lab from ``facts`` (the page's controls and what it trained), the
tolerance, and what each misconception would answer. ``variant`` is the number of the
attempt (0 first): a retry asks another variant where the kind allows (another update of
the run, another order of the options), drawn from the page's seed, so the same page and
attempt ask the same thing.

:func:`check` compares a response with the question: right, or the misconception the
response shows (a number a slip gives, a wrong option, a step put too early), whose
feedback names it and points to the sentence or figure of the lesson that resolves it.

Nothing here imports Streamlit: the command line and the tests read the same exercises.
"""

from __future__ import annotations

import math
import re
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

#: The kinds of exercise, with what each asks of a student (the teachers' listing shows it).
KINDS = {
    "number": "work out a number and type it in; checked within a stated tolerance",
    "order": "put the steps of the lesson's derivation in order",
    "choice": "explain why: pick the reason; the wrong options are common misconceptions",
    "table": "read a research table: predict a cell or a trend of the lab's reproduction",
    "setting": "find a setting of the page's controls; checked on the live run",
    "replay": "predict what the lesson's replay does next, then step",
}

#: How a student answers: a number typed in, steps put in order, one option picked, a
#: control of the page set, or predictions made on the lesson's replay (its questions are
#: picked from options too: the listing counts them as multiple choice).
FORMS = ("number", "order", "choice", "setting", "replay")


@dataclass(frozen=True)
class Misconception:
    """A wrong answer's reason: what it names, and where the lesson resolves it.

    Attributes
    ----------
    feedback : str
        Names the misconception, in a sentence ("That is Khardon & Wachman's printed sign").
    see : str
        The sentence or figure of the lesson that resolves it ("the formula under 'Why an
        update fixes the mistake'").
    """

    feedback: str
    see: str

    def text(self) -> str:
        """The feedback with its pointer.

        Examples
        --------
        >>> Misconception("The bound is a square.", "the formula k ≤ (R/γ)²").text()
        'The bound is a square. See the formula k ≤ (R/γ)².'
        """
        return f"{self.feedback} See {self.see}."


@dataclass(frozen=True)
class Question:
    """An exercise as the page asks it now.

    Attributes
    ----------
    text : str
        The prompt with the page's numbers (Markdown).
    answer : float, tuple of int, frozenset, tuple of predictions.Question
        The right answer computed by the lab: a number (form "number"), the steps' order
        (form "order": indices into ``steps``), the indices of the right options (form
        "choice": usually one), the control's values that do it (form "setting") or the
        questions the replay asks with their answers (form "replay",
        :class:`app_logic.predictions.Question`).
    form : str
        One of :data:`FORMS`.
    why : str
        Shown with a right answer: how it follows.
    tolerance : float
        Form "number": a response within this of ``answer`` is right.
    tolerance_text : str
        How the tolerance is stated to the student ("within ±0.01").
    options : tuple of str
        Form "choice": the options as shown (in the variant's order); form "order": the
        steps as shown (shuffled); form "setting": the control's values, as written.
    slips : dict
        Misconception key -> what it answers: a number (form "number"), or for form
        "choice" the index of the option that shows it; for "order" and "setting" the keys
        are fixed by :func:`check`.
    misconceptions : dict of Misconception
        Key -> the misconception; the key ``"off"`` covers any other wrong answer.
    control : str
        Form "setting": the page's control (its fact name) the student sets.
    values : tuple
        Form "setting": the control's values, in the order ``options`` writes them.
    scores : tuple of float
        Form "setting": what the lab measured at each value (the feedback quotes it).
    needed : (int, int)
        Form "replay": how many of the replay's questions must be answered, and how many of
        them right (:mod:`app_logic.exercises.replay`).
    about : tuple of str
        Form "replay": per question of ``answer``, the key of the misconception a wrong
        answer to it shows.
    """

    text: str
    answer: object
    form: str
    why: str
    misconceptions: Mapping[str, Misconception]
    tolerance: float = 0.0
    tolerance_text: str = ""
    options: tuple[str, ...] = ()
    slips: Mapping[str, object] = field(default_factory=dict)
    control: str = ""
    values: tuple = ()
    scores: tuple = ()
    needed: tuple[int, int] = (0, 0)
    about: tuple[str, ...] = ()


@dataclass(frozen=True)
class Exercise:
    """One checked exercise of a lesson.

    Attributes
    ----------
    id : str
        Unique over the course, ``l<NN>-<name>`` (``l02-proof-order``): the link's
        ``exercises=`` and the progress kept in the browser name it.
    lesson : int
    kind : str
        One of :data:`KINDS`.
    prompt : str
        What it asks, without the page's numbers (the teachers' listing).
    ask : callable
        ``ask(facts, variant) -> Question``: the question on the page as it stands.
    needs : tuple of str
        The facts ``ask`` reads; a page that lacks one (its run failed) shows the
        exercise as unavailable instead of asking it.
    form : str
        How it is answered (:data:`FORMS`); by default the kind's own form (a "table"
        exercise says which).
    """

    id: str
    lesson: int
    kind: str
    prompt: str
    ask: Callable[[Mapping, int], Question]
    needs: tuple[str, ...] = ()
    form: str = ""

    def __post_init__(self):
        if not self.form:
            object.__setattr__(self, "form", self.kind if self.kind in FORMS else "")
        if self.form not in FORMS:
            raise ValueError(f"{self.id}: say how a {self.kind} exercise is answered: {FORMS}")
        if self.kind not in KINDS:
            raise ValueError(f"{self.id}: kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if not re.fullmatch(rf"l{self.lesson:02d}-[a-z0-9-]+", self.id):
            raise ValueError(f"{self.id}: an id is l<NN>-<words>, NN the lesson ({self.lesson})")

    def question(self, facts: Mapping, variant: int = 0) -> Question:
        """The question for ``facts``, attempt ``variant``."""
        return self.ask(facts, variant)


@dataclass(frozen=True)
class Verdict:
    """What :func:`check` says about one response.

    Attributes
    ----------
    right : bool
    text : str
        The feedback: the reason with a right answer, the misconception and where the
        lesson resolves it with a wrong one.
    misconception : str or None
        The key of the misconception found (None when right).
    """

    right: bool
    text: str
    misconception: str | None = None


def rng(seed: int, exercise_id: str, variant: int) -> np.random.Generator:
    """The random numbers of one variant of one exercise on one page seed.

    Examples
    --------
    >>> a = rng(3, "l01-x", 0).permutation(5)
    >>> b = rng(3, "l01-x", 0).permutation(5)
    >>> bool((a == b).all())
    True
    """
    return np.random.default_rng([int(seed), zlib.crc32(exercise_id.encode()), int(variant)])


# ---------------------------------------------------------------------------------- numbers


def parse_number(text: str) -> float:
    """A number as a person types it: ``-0.5``, ``−0.5``, ``1,234.5``, ``1 234``, ``0,5``,
    ``12 %`` (the percent sign is dropped: the prompt says the unit).

    Raises
    ------
    ValueError
        With a message saying what was typed and what is accepted.

    Examples
    --------
    >>> parse_number("−0.25"), parse_number("1,234.5"), parse_number("0,5"), parse_number("12 %")
    (-0.25, 1234.5, 0.5, 12.0)
    >>> parse_number("2,000")
    2000.0
    >>> try:
    ...     parse_number("about 3")
    ... except ValueError as err:
    ...     print(err)
    'about 3' is not a number: type digits, with a point for decimals (such as 2.5 or -0.75).
    """
    cleaned = text.strip().replace("−", "-").replace("\u2009", "").replace(" ", "")
    cleaned = cleaned.removesuffix("%")
    if "," in cleaned and "." not in cleaned and not re.fullmatch(r"-?\d{1,3}(,\d{3})+", cleaned):
        cleaned = cleaned.replace(",", ".")  # a decimal comma: 0,5
    cleaned = cleaned.replace(",", "")
    try:
        value = float(cleaned)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise ValueError(
            f"{text!r} is not a number: type digits, with a point for decimals "
            "(such as 2.5 or -0.75)."
        )
    return value


def tolerance(answer: float, relative: float = 0.01, absolute: float = 0.0) -> float:
    """The larger of ``relative`` times ``|answer|`` and ``absolute``.

    Examples
    --------
    >>> tolerance(250.0), tolerance(0.0, absolute=0.01)
    (2.5, 0.01)
    """
    return max(relative * abs(answer), absolute)


def tolerance_words(tol: float, answer: float) -> str:
    """The tolerance as the prompt states it, with enough digits to be read.

    Examples
    --------
    >>> tolerance_words(2.5, 250.0), tolerance_words(0.0042, 0.42)
    ('within ±2.5', 'within ±0.0042')
    """
    return f"within ±{tol:.2g}" if tol < 1 else f"within ±{tol:,.3g}"


def number_question(
    text: str,
    answer: float,
    why: str,
    slips: Mapping[str, tuple[float, Misconception]],
    off: Misconception,
    tol: float,
) -> Question:
    """A question answered by a typed number, with the slips that would give another one.

    A slip within ``2 * tol`` of the right answer (or of an earlier slip) is left out: it
    could not be told apart from it, so its feedback could not be reached.

    Examples
    --------
    >>> q = number_question("?", 4.0, "2².", {"no square": (2.0, Misconception("Square.", "x")),
    ...     "same": (4.001, Misconception("-", "-"))}, Misconception("Off.", "y"), 0.01)
    >>> sorted(q.slips), q.tolerance_text
    (['no square'], 'within ±0.01')
    """
    kept: dict[str, float] = {}
    for key, (value, _) in slips.items():
        if not math.isfinite(value):
            continue
        taken = [answer, *kept.values()]
        if all(abs(value - other) > 2 * tol for other in taken):
            kept[key] = value
    named = {key: slips[key][1] for key in kept}
    return Question(
        text=text,
        answer=float(answer),
        form="number",
        why=why,
        misconceptions={**named, "off": off},
        tolerance=tol,
        tolerance_text=tolerance_words(tol, answer),
        slips=kept,
    )


# ---------------------------------------------------------------------------------- choices


@dataclass(frozen=True)
class Option:
    """An option of a choice: its text, and the misconception it shows (None: right)."""

    text: str
    wrong: Misconception | None = None


def choice_question(
    text: str, options: Sequence[Option], why: str, generator: np.random.Generator
) -> Question:
    """A choice with its options in an order drawn from ``generator`` (the variant's).

    Examples
    --------
    >>> q = choice_question("?", [Option("yes"), Option("no", Misconception("No.", "x"))],
    ...                     "Because.", rng(0, "l01-a", 0))
    >>> sorted(q.options), q.options[min(q.answer)]
    (['no', 'yes'], 'yes')
    """
    order = generator.permutation(len(options))
    shown = [options[i] for i in order]
    misconceptions = {f"option {i}": o.wrong for i, o in enumerate(shown) if o.wrong}
    return Question(
        text=text,
        answer=frozenset(i for i, o in enumerate(shown) if o.wrong is None),
        form="choice",
        why=why,
        misconceptions=misconceptions,
        options=tuple(o.text for o in shown),
        slips={key: int(key.split()[1]) for key in misconceptions},
    )


# ---------------------------------------------------------------------------------- orders


@dataclass(frozen=True)
class Step:
    """A step of a derivation, and why it cannot come earlier (the feedback when it does)."""

    text: str
    after: str = ""


def order_question(
    text: str, steps: Sequence[Step], why: str, generator: np.random.Generator, see: str
) -> Question:
    """The steps shown shuffled; the answer is their right order as indices into the shown
    list. Each step but the first has the misconception "put too early"; ``"incomplete"``
    covers a response that leaves steps out.

    Examples
    --------
    >>> q = order_question("?", [Step("a"), Step("b", "b needs a.")], "a then b.",
    ...                    rng(0, "l01-o", 1), "the proof")
    >>> [q.options[i] for i in q.answer]
    ['a', 'b']
    """
    order = generator.permutation(len(steps))
    if len(steps) > 1 and (order == np.arange(len(steps))).all():
        order = np.roll(order, 1)  # never shown already in order
    shown = [steps[i] for i in order]
    answer = tuple(int(np.flatnonzero(order == k)[0]) for k in range(len(steps)))
    misconceptions = {
        f"early {k}": Misconception(f"“{step.text}” comes later: {step.after}", see)
        for k, step in enumerate(steps)
        if k > 0
    }
    misconceptions["incomplete"] = Misconception(
        f"The derivation has {len(steps)} steps: put every one of them in order.", see
    )
    return Question(
        text=text,
        answer=answer,
        form="order",
        why=why,
        misconceptions=misconceptions,
        options=tuple(step.text for step in shown),
    )


# ---------------------------------------------------------------------------------- settings


def setting_question(
    text: str,
    control: str,
    values: Sequence,
    scores: Sequence[float],
    best: str,
    why: str,
    named: Mapping[str, tuple[object, Misconception]],
    off: Misconception,
    written: Callable[[object], str] = str,
    measured: tuple[str, Callable[[float], str]] = ("", str),
) -> Question:
    """A setting to find: the values of ``control`` whose measured score is the best.

    ``best`` is ``"max"`` or ``"min"``; scores equal to 9 decimals count alike.
    ``named`` maps a misconception's key to the value that shows it (for instance the
    largest margin, for "more is always better") and the misconception; a value that is
    right is never a misconception. The reason given with a right answer is ``why``,
    then what was measured at each value: ``measured`` names it and writes a score.

    Examples
    --------
    >>> q = setting_question("?", "eta", [0.1, 1.0, 2.0], [5, 3, 3], "min", "Fewest.",
    ...     {"largest": (2.0, Misconception("-", "-"))}, Misconception("Off.", "x"),
    ...     measured=("Updates", lambda c: f"{c:g}"))
    >>> sorted(q.answer), sorted(q.misconceptions), q.why
    ([1.0, 2.0], ['off'], 'Fewest. Updates: 0.1: 5, 1.0: 3, 2.0: 3.')
    """
    scores = [round(float(s), 9) for s in scores]
    target = max(scores) if best == "max" else min(scores)
    answer = frozenset(v for v, s in zip(values, scores, strict=True) if s == target)
    kept = {key: (value, m) for key, (value, m) in named.items() if value not in answer}
    label, shown = measured
    listed = ", ".join(f"{written(v)}: {shown(s)}" for v, s in zip(values, scores, strict=True))
    return Question(
        text=text,
        answer=answer,
        form="setting",
        why=f"{why} {label}: {listed}.".strip() if label else why,
        misconceptions={**{k: m for k, (_, m) in kept.items()}, "off": off},
        options=tuple(written(v) for v in values),
        slips={k: v for k, (v, _) in kept.items()},
        control=control,
        values=tuple(values),
        scores=tuple(scores),
    )


# ---------------------------------------------------------------------------------- checking


def check(question: Question, response) -> Verdict:
    """The verdict on ``response``: a typed text or number (form "number"), a sequence of
    shown step indices (form "order"), the picked option's index (form "choice"), the
    control's value (form "setting") or the replay's record of predictions (form "replay":
    its ``history``, entries ``{step, kind, answer, skipped}``; each answer is checked here
    against the lab's, not taken from the entry's own verdict).

    Raises
    ------
    ValueError
        For a typed text that is not a number (the message says what is accepted): not an
        attempt.

    Examples
    --------
    >>> q = number_question("?", 4.0, "2² = 4.", {"no square": (2.0, Misconception(
    ...     "The bound is a square.", "the formula"))}, Misconception("Off.", "the box"), 0.05)
    >>> check(q, "4.01").right, check(q, "2").text, check(q, "7").misconception
    (True, 'Not yet. The bound is a square. See the formula.', 'off')
    """
    if question.form == "number":
        value = parse_number(response) if isinstance(response, str) else float(response)
        if abs(value - question.answer) <= question.tolerance:
            return _right(question)
        for key, slip in question.slips.items():
            if abs(value - slip) <= question.tolerance:
                return _wrong(question, key)
        return _wrong(question, "off")
    if question.form == "choice":
        picked = int(response)
        if picked in question.answer:
            return _right(question)
        return _wrong(question, f"option {picked}")
    if question.form == "order":
        given = [int(i) for i in response]
        if tuple(given) == question.answer:
            return _right(question)
        for position, shown in enumerate(given):
            if position >= len(question.answer) or shown != question.answer[position]:
                step = question.answer.index(shown) if shown in question.answer else 0
                if step > position:  # a later step put here: it needs what comes before it
                    return _wrong(question, f"early {step}")
                break
        return _wrong(question, "incomplete")
    if question.form == "setting":
        if response in question.answer:
            return _right(question)
        for key, value in question.slips.items():
            if response == value:
                return _wrong(question, key)
        return _wrong(question, "off")
    if question.form == "replay":
        return _replay_verdict(question, response)
    raise ValueError(f"unknown form {question.form!r}")


def replay_tally(question: Question, history: Sequence[Mapping]) -> tuple[int, int, list[str]]:
    """How many of the replay's questions ``history`` answers (a skip does not count), how
    many of them right by the lab's answer, and the misconception key of each wrong one (in
    the order of the steps). An entry about another kind of question than the lab's at that
    step (the reader chose other questions in the replay), or with another right answer
    (``expected``: another run's), counts for nothing.

    Examples
    --------
    >>> from perceptron_lab.app_logic.predictions import Question as Asked
    >>> q = Question("?", (Asked(3, 0, "side", answer=1), Asked(5, 0, "side", answer=-1)),
    ...              "replay", "", {}, about=("side", "side"))
    >>> replay_tally(q, [{"step": 3, "kind": "side", "answer": 1, "skipped": False},
    ...                  {"step": 5, "kind": "side", "answer": 1, "skipped": False}])
    (2, 1, ['side'])
    """
    latest = {int(entry["step"]): entry for entry in history}
    answered, right, wrong = 0, 0, []
    for asked, key in zip(question.answer, question.about, strict=True):
        entry = latest.get(asked.step)
        if entry is None or entry.get("skipped") or not _same_question(entry, asked):
            continue
        answered += 1
        given = entry.get("answer")
        if asked.is_right(tuple(given) if isinstance(given, list) else given):
            right += 1
        else:
            wrong.append(key)
    return answered, right, wrong


def _same_question(entry: Mapping, asked) -> bool:
    """Whether a record's entry is about ``asked``: its kind, and its right answer when the
    entry gives it (a "where" to a relative 1e-9: the browser's float64 arithmetic)."""
    if entry.get("kind") != asked.kind:
        return False
    if "expected" not in entry:
        return True
    if asked.kind == "where":
        return bool(np.allclose(entry["expected"], asked.answer, rtol=1e-9, atol=1e-9))
    return entry["expected"] == asked.answer


def _replay_verdict(question: Question, history) -> Verdict:
    answers, needed = question.needed
    answered, right, wrong = replay_tally(question, history)
    score = f"{right} of your {answered} predictions on the figure are right"
    if answered >= answers and right >= needed:
        return Verdict(True, f"Right. {score}. {question.why}")
    if answered < answers:
        return Verdict(False, f"Not yet. {question.misconceptions['few'].text()}", "few")
    # the misconceptions the wrong answers show, the most frequent first
    keys = sorted(dict.fromkeys(wrong), key=lambda k: -wrong.count(k))
    named = " ".join(question.misconceptions[k].text() for k in keys)
    return Verdict(False, f"Not yet. {score}; the exercise asks for {needed}. {named}", keys[0])


def _right(question: Question) -> Verdict:
    return Verdict(True, f"Right. {question.why}")


def _wrong(question: Question, key: str) -> Verdict:
    return Verdict(False, f"Not yet. {question.misconceptions[key].text()}", key)


def reachable(question: Question) -> dict[str, object]:
    """For every misconception of ``question``, a response that :func:`check` answers with
    it (the tests use it to show that each feedback can be reached).

    Examples
    --------
    >>> q = order_question("?", [Step("a"), Step("b", "needs a."), Step("c", "needs b.")],
    ...                    "Yes.", rng(0, "l01-o", 0), "the proof")
    >>> {k: check(q, r).misconception for k, r in reachable(q).items()} == {
    ...     k: k for k in q.misconceptions}
    True
    """
    found: dict[str, object] = {}
    if question.form == "number":
        found = dict(question.slips)
        # far from the answer and from every slip
        spread = max([abs(question.answer), *map(abs, question.slips.values()), 1.0])
        found["off"] = question.answer + 7.3 * spread + 1
    elif question.form == "choice":
        found = dict(question.slips)
    elif question.form == "order":
        right = list(question.answer)
        for key in question.misconceptions:
            if key.startswith("early "):
                step = int(key.split()[1])
                found[key] = [right[step], *(i for i in right if i != right[step])]
        found["incomplete"] = right[:1]
    elif question.form == "setting":
        found = dict(question.slips)
        others = [v for v in question.values if v not in question.answer]
        off = [v for v in others if v not in question.slips.values()]
        if off:
            found["off"] = off[0]
    elif question.form == "replay":
        found = _replay_reachable(question)
    return found


def _replay_reachable(question: Question) -> dict[str, list[dict]]:
    """Form "replay": per misconception a history whose verdict names it (among others: a
    verdict names every misconception its wrong answers show)."""
    answers, needed = question.needed
    asked = question.answer
    found = {"few": [_entry(q, True) for q in asked[: answers - 1]]}
    for key in dict.fromkeys(question.about):
        wrong = {n for n, k in enumerate(question.about) if k == key}
        for n in range(len(asked)):  # more wrong ones until fewer than `needed` are right
            if len(asked) - len(wrong) < needed:
                break
            wrong.add(n)
        found[key] = [_entry(q, n not in wrong) for n, q in enumerate(asked)]
    return found


def _entry(asked, right: bool) -> dict:
    """A replay's record entry answering ``asked`` right or wrong."""
    if asked.kind == "where":
        x, y = asked.answer
        answer = [x, y] if right else [x + 10 * asked.tolerance, y]
    else:
        answer = asked.answer if right else next(o for o in asked.options if o != asked.answer)
    return {"step": asked.step, "kind": asked.kind, "answer": answer, "skipped": False}


# ---------------------------------------------------------------------------------- fixed ones


def choice_exercise(
    exercise_id: str, lesson: int, prompt: str, options: Sequence[Option], why: str
) -> Exercise:
    """An explain-why exercise whose options are fixed: each attempt shows them in another
    order, drawn from the page's seed.

    Examples
    --------
    >>> e = choice_exercise("l01-a", 1, "Why?", [Option("So."), Option("No.", Misconception(
    ...     "Not so.", "the text"))], "Because.")
    >>> e.kind, e.question({"seed": 0}).options[min(e.question({"seed": 0}).answer)]
    ('choice', 'So.')
    """

    def ask(facts: Mapping, variant: int) -> Question:
        return choice_question(prompt, options, why, rng(facts["seed"], exercise_id, variant))

    return Exercise(exercise_id, lesson, "choice", prompt, ask)


def order_exercise(
    exercise_id: str, lesson: int, prompt: str, steps: Sequence[Step], why: str, see: str
) -> Exercise:
    """Steps to put in order, shown in another order at each attempt (drawn from the page's
    seed); ``see`` is where the lesson gives them.

    Examples
    --------
    >>> e = order_exercise("l01-o", 1, "Order them.", [Step("a"), Step("b", "needs a.")],
    ...                    "a, b.", "the proof")
    >>> q = e.question({"seed": 0})
    >>> [q.options[i] for i in q.answer]
    ['a', 'b']
    """

    def ask(facts: Mapping, variant: int) -> Question:
        return order_question(prompt, steps, why, rng(facts["seed"], exercise_id, variant), see)

    return Exercise(exercise_id, lesson, "order", prompt, ask)
