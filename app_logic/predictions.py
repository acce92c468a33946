"""Predict, then step: the question the replay asks before it shows a step, and its answer.

In predict mode the replay (``ui/playback/questions.js``) asks one question before it reveals
a step: what the learner will do with the next example (and why: ``y·score`` against the
margin), on which side of the boundary a point ends, which of two or three drawn lines is the
boundary after an update, where ``w`` lands, what the voted or averaged predictor says at a
point, whether the committee's vote is right, or how the committee marks the example once
trained. Which questions fit a step follows from what the lane's picture is made of (its
hypotheses, its predictors, a committee's marks) and from what the step does; the browser
derives every question and its answer from the payload it already holds.

This module is the Python reference of that code, as :mod:`app_logic.timeline` is the
reference of ``timeline.js``: :class:`Questions` computes the same questions and right answers
from the runs' :class:`~app_logic.timeline.Timeline` (the tests compare the two in chromium),
so that a run's record of answers can be checked without a browser.

Every choice (the lane in compare mode, the kind of question, the point asked about, the
order of the drawn lines) is a draw of :func:`draw` from the settings' seed and the step, the
same integer arithmetic in both languages: the same run and seed ask the same questions.

Examples
--------
>>> from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
>>> from perceptron_lab.app_logic.training import fit_run
>>> data = make_dataset(DataRequest("separable"))
>>> run = fit_run("perceptron", (("eta", 0.1),), 2, 0, data.X, data.y, data.X_test, data.y_test)
>>> questions = Questions([run], data, Predict(on=True, seed=3))
>>> first = questions.at(1)
>>> first.step, first.kind in KINDS, first.is_right(first.answer)
(1, True, True)
>>> questions.at(1) == first  # seeded: asked again, the same question
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from perceptron_lab.app_logic.payload.lane import category_codes, drawn_hypotheses
from perceptron_lab.app_logic.payload.scene import axis_box
from perceptron_lab.app_logic.timeline import CORRECT, MISTAKE, UPDATE_KINDS

#: The kinds of question, in the order the replay tries them at a step.
KINDS = ("outcome", "side", "lines", "where", "predictor", "vote", "noisy")
#: Which steps ask: every step, the steps that update, every k-th step, or chosen steps.
ASK = ("every", "updates", "kth", "steps")
#: The predictors a "predictor" question asks about (those the picture's line is not).
ASKED_MODES = ("voted", "averaged")
#: A committee's marks after training, by their codes in the payload (``lane.CATEGORY_CODES``).
CATEGORY_NAMES = ("safe", "borderline", "noisy")
#: A score at most this far from 0 is not asked about (its sign could round either way).
CLEAR = 1e-9
#: "Where does w go": a mark within this share of the view's wider side counts as right...
TOLERANCE_SHARE = 0.05
#: ...and the question is asked only where w moves more than this many tolerances.
WHERE_MIN_MOVE = 2.0
#: Two drawn lines closer than this (unit normals and offsets in view widths) look the same.
SAME_LINE = 0.05
#: The wrong lines a "lines" question may draw, each a misconception about the update.
DISTRACTORS = ("w only", "reversed", "unchanged", "doubled")
#: The letters of the drawn lines.
LETTERS = "ABC"

_MASK = 0xFFFFFFFF


def _fmix(h: int) -> int:
    """MurmurHash3's 32-bit finaliser (the same bit mixing as ``questions.js``'s ``fmix``)."""
    h &= _MASK
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & _MASK
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & _MASK
    h ^= h >> 16
    return h


def draw(seed: int, step: int, salt: int) -> int:
    """A 32-bit number fixed by ``(seed, step, salt)``: every choice of a question is one.

    Examples
    --------
    >>> draw(0, 1, 2) == draw(0, 1, 2), draw(0, 1, 2) != draw(0, 1, 3)
    (True, True)
    """
    seed, step, salt = int(seed), int(step), int(salt)  # NumPy's integers would overflow
    mixed = _fmix((seed ^ 0x9E3779B9) & _MASK)
    return _fmix((mixed + (step * 0x27D4EB2F & _MASK) + (salt * 0x165667B1 & _MASK)) & _MASK)


def pick(seed: int, step: int, salt: int, n: int) -> int:
    """One of ``0 .. n - 1``, drawn (:func:`draw`).

    Examples
    --------
    >>> 0 <= pick(7, 12, 1, 3) < 3
    True
    """
    return draw(seed, step, salt) % n


@dataclass(frozen=True)
class Predict:
    """Predict mode's settings: a page's, a lesson's or a link's (``predict=1&ask=updates``).

    Attributes
    ----------
    on : bool
        Whether the replay opens in predict mode (the reader can switch it in the replay).
    ask : {"every", "updates", "kth", "steps"}
        Which steps ask: every step, the steps that update (a mistake or a margin error, in
        any lane), every ``k``-th step, or the ``steps`` given.
    k : int
        With ``ask="kth"``: ask at steps k, 2k, 3k, ...
    steps : tuple of int
        With ``ask="steps"``: the steps that ask (a lesson's choice).
    kinds : tuple of str
        The kinds of question allowed (of :data:`KINDS`); empty: every kind that fits.
    seed : int
        Seeds every choice (:func:`draw`): the same run and seed ask the same questions.

    Examples
    --------
    >>> Predict(on=True, ask="kth", k=3).link_params()
    {'predict': '1', 'ask': '3'}
    >>> Predict(ask="sometimes")
    Traceback (most recent call last):
    ...
    ValueError: Predict's ask is 'sometimes'; it takes every, updates, kth or steps.
    """

    on: bool = False
    ask: str = "every"
    k: int = 5
    steps: tuple[int, ...] = ()
    kinds: tuple[str, ...] = ()
    seed: int = 0

    def __post_init__(self):
        if self.ask not in ASK:
            raise ValueError(f"Predict's ask is {self.ask!r}; it takes {_listed(ASK, 'or')}.")
        if isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 2:
            raise ValueError(f"Predict's k is {self.k!r}; it takes a whole number, 2 or more.")
        steps = tuple(int(s) for s in self.steps)
        if any(s < 1 for s in steps):
            raise ValueError(f"Predict's steps are {steps}; a step that asks is 1 or more.")
        object.__setattr__(self, "steps", tuple(sorted(set(steps))))
        unknown = [kind for kind in self.kinds if kind not in KINDS]
        if unknown:
            raise ValueError(
                f"Predict's kinds hold {', '.join(map(repr, unknown))}; the kinds are "
                f"{_listed(KINDS, 'and')}."
            )
        if self.ask == "steps" and not steps:
            raise ValueError("Predict's ask is 'steps'; give the steps that ask (steps=...).")

    def options(self) -> dict:
        """The settings as the browser reads them (``args.options.predict``).

        Examples
        --------
        >>> Predict(on=True, ask="steps", steps=(9, 3)).options()["steps"]
        [3, 9]
        """
        return {
            "on": self.on,
            "ask": self.ask,
            "k": self.k,
            "steps": list(self.steps),
            "kinds": list(self.kinds),
            "seed": int(self.seed),
        }

    def link_params(self) -> dict[str, str]:
        """The link's entries for these settings (none while predict mode is off; a lesson's
        chosen steps are the lesson's, not the link's)."""
        if not self.on:
            return {}
        params = {"predict": "1"}
        if self.ask in ("updates", "kth"):
            params["ask"] = "updates" if self.ask == "updates" else str(self.k)
        return params


def _listed(words, last: str) -> str:
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


#: What a link's ``ask=`` takes besides a number (every k-th step).
LINK_ASK = ("every", "updates")
#: The largest k a link's ``ask=`` may give.
MAX_K = 10_000


def predict_from_link(params: Mapping[str, str], seed: int = 0) -> Predict:
    """Predict mode as a link asks for it: ``predict=1`` and ``ask=every``, ``ask=updates`` or
    ``ask=K`` (every K-th step); ``seed`` seeds the questions (the page's seed).

    Raises
    ------
    ValueError
        A value the link may not give, naming it and what is accepted.

    Examples
    --------
    >>> predict_from_link({"predict": "1", "ask": "4"}, seed=2)
    Predict(on=True, ask='kth', k=4, steps=(), kinds=(), seed=2)
    >>> predict_from_link({"predict": "yes"})
    Traceback (most recent call last):
    ...
    ValueError: The link's predict='yes' is not accepted; predict takes 0 or 1.
    """
    on = params.get("predict", "0")
    if on not in ("0", "1"):
        raise ValueError(f"The link's predict={on!r} is not accepted; predict takes 0 or 1.")
    ask = params.get("ask", "every")
    if ask in LINK_ASK:
        return Predict(on=on == "1", ask=ask, seed=seed)
    if ask.isdigit() and 1 <= int(ask) <= MAX_K:
        if int(ask) == 1:  # every step
            return Predict(on=on == "1", seed=seed)
        return Predict(on=on == "1", ask="kth", k=int(ask), seed=seed)
    raise ValueError(
        f"The link's ask={ask!r} is not accepted; ask takes every, updates or a whole number "
        f"from 1 to {MAX_K:,} (every that many steps)."
    )


@dataclass(frozen=True)
class Question:
    """One question, before step ``step`` is shown, and its right answer.

    Attributes
    ----------
    step : int
        The step it is asked before (``t = step`` shows the answer).
    lane : int
        The run asked about (compare mode has several).
    kind : str
        One of :data:`KINDS`.
    point : int or None
        The training point asked about (the next example, or another point).
    mode : str or None
        A "predictor" question's predictor (of :data:`ASKED_MODES`).
    options : tuple
        The choices offered: event codes ("outcome"), ``1``/``-1`` ("side", "predictor"),
        letters ("lines"), ``"right"``/``"wrong"`` ("vote"), marks ("noisy"); none for
        "where", which takes a point.
    answer : object
        The right choice; for "where", ``(w1, w2)`` after the step.
    candidates : tuple of (str, str, (float, float, float))
        A "lines" question's drawn lines: its letter, what it is (``"answer"`` or one of
        :data:`DISTRACTORS`) and its ``(w1, w2, θ)``.
    tolerance : float or None
        "where": how far from ``answer`` a mark still counts.
    start : (float, float) or None
        "where": ``w`` before the step.
    """

    step: int
    lane: int
    kind: str
    point: int | None = None
    mode: str | None = None
    options: tuple = ()
    answer: object = None
    candidates: tuple = ()
    tolerance: float | None = None
    start: tuple | None = None

    def is_right(self, answer) -> bool:
        """Whether ``answer`` (a choice, or a point for "where") is right.

        Examples
        --------
        >>> Question(3, 0, "where", answer=(1.0, 2.0), tolerance=0.1).is_right((1.05, 2.0))
        True
        """
        if self.kind == "where":
            return _distance(answer, self.answer) <= self.tolerance
        return answer == self.answer

    def to_json(self) -> dict:
        """The question as ``questions.js`` writes it (for the tests' comparison)."""
        return {
            "step": self.step,
            "lane": self.lane,
            "kind": self.kind,
            "point": self.point,
            "mode": self.mode,
            "options": list(self.options),
            "answer": list(self.answer) if isinstance(self.answer, tuple) else self.answer,
            "candidates": [
                {"label": label, "name": name, "line": list(line)}
                for label, name, line in self.candidates
            ],
            "tolerance": self.tolerance,
            "start": None if self.start is None else list(self.start),
        }


def _distance(a, b) -> float:
    dx, dy = float(a[0]) - float(b[0]), float(a[1]) - float(b[1])
    return math.sqrt(dx * dx + dy * dy)


@dataclass(frozen=True, eq=False)
class _Lane:
    """One run as the replay reads its lane: the timeline and what its picture is made of."""

    timeline: object
    hypotheses: str
    mode: str
    has_modes: bool
    categories: np.ndarray | None
    present: tuple = field(default=())

    @classmethod
    def of(cls, run, data) -> _Lane:
        tl, learner = run.timeline, run.learner
        return cls(
            timeline=tl,
            hypotheses=drawn_hypotheses(tl, data.n_features, data.n_features > 2),
            mode=learner.shown_mode(run.values) if learner.has_modes else "last",
            has_modes=learner.replays_votes,
            categories=category_codes(run, data),
            present=tuple(sorted({CORRECT, MISTAKE} | set(np.unique(tl.kind[0]).tolist()))),
        )

    def hypothesis(self, row: int) -> tuple[float, float, float]:
        tl = self.timeline
        return float(tl.W[0, row, 0]), float(tl.W[0, row, 1]), float(tl.theta[0, row])

    def updates(self, i: int) -> bool:
        """Whether event ``i`` updates any member."""
        return bool(np.isin(self.timeline.kind[:, i], UPDATE_KINDS).any())


class Questions:
    """The questions a replay of ``runs`` on ``data`` asks with ``predict``'s settings.

    Parameters
    ----------
    runs : sequence of app_logic.training.Run
        The page's runs (compare mode has two to four), in the payload's order.
    data : app_logic.datasource.Dataset
    predict : Predict
    """

    def __init__(self, runs, data, predict: Predict):
        self.lanes = [_Lane.of(run, data) for run in runs]
        self.X, self.y = np.asarray(data.X, np.float64), np.asarray(data.y)
        self.box = axis_box(data.X, data.X_test) if data.n_features == 2 else None
        self.predict = predict
        self.steps = self.lanes[0].timeline.n_events

    # -- which steps ask ----------------------------------------------------------------

    def asks(self, s: int) -> bool:
        """Whether step ``s`` is one the settings ask before (it may still have no question
        that fits: :meth:`at` is then None)."""
        p = self.predict
        if not 1 <= s <= self.steps:
            return False
        if p.ask == "every":
            return True
        if p.ask == "kth":
            return s % p.k == 0
        if p.ask == "steps":
            return s in p.steps
        return any(lane.updates(s - 1) for lane in self._running(s))

    def _running(self, s: int) -> list[_Lane]:
        return [lane for lane in self.lanes if lane.timeline.n_events >= s]

    # -- the question --------------------------------------------------------------------

    def at(self, s: int) -> Question | None:
        """The question asked before step ``s``, or None (the step does not ask, or no kind
        of question fits it)."""
        if not self.asks(s):
            return None
        eligible = [k for k, lane in enumerate(self.lanes) if lane.timeline.n_events >= s]
        if self.predict.ask == "updates":
            eligible = [k for k in eligible if self.lanes[k].updates(s - 1)]
        seed = self.predict.seed
        first = pick(seed, s, 1, len(eligible))
        for n in range(len(eligible)):  # the drawn lane, else the next one with a question
            k = eligible[(first + n) % len(eligible)]
            fitting = self.fitting(k, s)
            if fitting:
                return fitting[pick(seed, s, 2, len(fitting))]
        return None

    def fitting(self, k: int, s: int) -> list[Question]:
        """Every question of an allowed kind that fits step ``s`` of lane ``k``, in
        :data:`KINDS` order."""
        allowed = self.predict.kinds or KINDS
        makers = {
            "outcome": self._outcome,
            "side": self._side,
            "lines": self._lines,
            "where": self._where,
            "predictor": self._predictor,
            "vote": self._vote,
            "noisy": self._noisy,
        }
        out = []
        for kind in KINDS:
            if kind in allowed:
                question = makers[kind](k, s)
                if question is not None:
                    out.append(question)
        return out

    # -- each kind -------------------------------------------------------------------------

    def _single(self, k: int) -> bool:
        return self.lanes[k].timeline.n_members == 1

    def _moves(self, k: int, s: int) -> bool:
        """Whether step ``s`` changes the hypothesis the lane's picture draws."""
        tl = self.lanes[k].timeline
        return self._single(k) and int(tl.before[s - 1]) != int(tl.after[s - 1])

    def _line(self, k: int) -> bool:
        """Whether the lane's picture draws its last hypothesis as one line."""
        lane = self.lanes[k]
        return self._single(k) and lane.hypotheses == "plane" and lane.mode == "last"

    def _outcome(self, k: int, s: int) -> Question | None:
        lane = self.lanes[k]
        if not (self._single(k) or lane.timeline.classes):  # the classes: one outcome a visit
            return None
        options = lane.present
        if self.predict.ask == "updates":
            options = tuple(code for code in options if code in UPDATE_KINDS)
        if len(options) < 2:
            return None
        i = s - 1
        return Question(
            s,
            k,
            "outcome",
            point=int(lane.timeline.index[i]),
            options=options,
            answer=int(lane.timeline.kind[0, i]),
        )

    def _score_after(self, k: int, s: int, j: int) -> float:
        """The lane's score of training point ``j`` just after step ``s`` (its last hypothesis)."""
        lane = self.lanes[k]
        if lane.hypotheses == "kernel":
            return float(lane.timeline.scores(self.X[j : j + 1], s)[0])
        w1, w2, theta = lane.hypothesis(int(lane.timeline.after[s - 1]))
        x1, x2 = float(self.X[j, 0]), float(self.X[j, 1])
        return w1 * x1 + w2 * x2 - theta  # in the browser's order of operations

    def _side(self, k: int, s: int) -> Question | None:
        lane = self.lanes[k]
        if not self._moves(k, s) or not (lane.hypotheses == "kernel" or self._line(k)):
            return None
        seed = self.predict.seed
        current = int(lane.timeline.index[s - 1])
        other = pick(seed, s, 4, len(self.y))
        order = (current, other) if pick(seed, s, 3, 2) == 0 else (other, current)
        for j in order:
            score = self._score_after(k, s, j)
            if abs(score) > CLEAR:
                return Question(s, k, "side", point=j, options=(1, -1), answer=_sign(score))
        return None

    def _lines(self, k: int, s: int) -> Question | None:
        if not self._line(k) or not self._moves(k, s):
            return None
        lane, seed, box = self.lanes[k], self.predict.seed, self.box
        tl = lane.timeline
        old = lane.hypothesis(int(tl.before[s - 1]))
        new = lane.hypothesis(int(tl.after[s - 1]))
        if not _visible(new, box):
            return None
        pool = _distractors(old, new)
        ranked = sorted(range(len(pool)), key=lambda n: (draw(seed, s, 50 + n), n))
        chosen = []
        for n in ranked:
            name, line = pool[n]
            if not _visible(line, box) or _same(line, new, box):
                continue
            if any(_same(line, other, box) for _, other in chosen):
                continue
            chosen.append((name, line))
            if len(chosen) == 2:
                break
        if not chosen:
            return None
        drawn = [("answer", new), *chosen]
        order = sorted(range(len(drawn)), key=lambda n: (draw(seed, s, 60 + n), n))
        candidates = tuple((LETTERS[at], *drawn[n]) for at, n in enumerate(order))
        answer = next(label for label, name, _ in candidates if name == "answer")
        return Question(
            s,
            k,
            "lines",
            point=int(tl.index[s - 1]),
            options=tuple(label for label, _, _ in candidates),
            answer=answer,
            candidates=candidates,
        )

    def _where(self, k: int, s: int) -> Question | None:
        if not self._line(k) or not self._moves(k, s):
            return None
        lane, box = self.lanes[k], self.box
        tl = lane.timeline
        o1, o2, _ = lane.hypothesis(int(tl.before[s - 1]))
        n1, n2, _ = lane.hypothesis(int(tl.after[s - 1]))
        tolerance = TOLERANCE_SHARE * _span(box)
        if not (_inside((o1, o2), box) and _inside((n1, n2), box)):
            return None
        if not _distance((o1, o2), (n1, n2)) > WHERE_MIN_MOVE * tolerance:
            return None
        return Question(
            s,
            k,
            "where",
            point=int(tl.index[s - 1]),
            answer=(n1, n2),
            tolerance=tolerance,
            start=(o1, o2),
        )

    def _predictor(self, k: int, s: int) -> Question | None:
        lane = self.lanes[k]
        if not (self._single(k) and lane.hypotheses == "plane" and lane.has_modes):
            return None
        seed = self.predict.seed
        mode = ASKED_MODES[pick(seed, s, 6, len(ASKED_MODES))]
        for attempt in range(4):  # a point whose score is clearly on one side
            j = pick(seed, s, 7 + attempt, len(self.y))
            score = float(lane.timeline.scores(self.X[j : j + 1], s, mode)[0])
            if abs(score) > CLEAR:
                return Question(
                    s, k, "predictor", point=j, mode=mode, options=(1, -1), answer=_sign(score)
                )
        return None

    def _vote(self, k: int, s: int) -> Question | None:
        tl = self.lanes[k].timeline
        if tl.n_members == 1 or tl.classes:  # a committee's vote (the classes do not vote)
            return None
        j = int(tl.index[s - 1])
        plus = int((tl.score[:, s - 1] > 0).sum())
        vote = 1 if plus > tl.n_members - plus else -1
        answer = "right" if vote == int(self.y[j]) else "wrong"
        return Question(s, k, "vote", point=j, options=("right", "wrong"), answer=answer)

    def _noisy(self, k: int, s: int) -> Question | None:
        lane = self.lanes[k]
        if lane.timeline.n_members == 1 or lane.categories is None:
            return None
        j = int(lane.timeline.index[s - 1])
        return Question(
            s,
            k,
            "noisy",
            point=j,
            options=("noisy", "borderline", "safe"),
            answer=CATEGORY_NAMES[int(lane.categories[j])],
        )


def _sign(score: float) -> int:
    """The label a score predicts (a score of 0 says −1, as the replay counts it)."""
    return 1 if score > 0 else -1


def _span(box) -> float:
    return max(box[1] - box[0], box[3] - box[2])


def _inside(point, box) -> bool:
    return box[0] <= point[0] <= box[1] and box[2] <= point[1] <= box[3]


def _visible(line, box) -> bool:
    """Whether the line ``w·p = θ`` crosses the middle of the view (its inscribed circle)."""
    w1, w2, theta = line
    norm = math.sqrt(w1 * w1 + w2 * w2)
    if norm == 0:
        return False
    cx, cy = (box[0] + box[1]) / 2, (box[2] + box[3]) / 2
    return abs(w1 * cx + w2 * cy - theta) / norm <= min(box[1] - box[0], box[3] - box[2]) / 2


def _same(a, b, box) -> bool:
    """Whether two lines look the same in the view (either orientation)."""
    span = _span(box)
    na = math.sqrt(a[0] * a[0] + a[1] * a[1])
    nb = math.sqrt(b[0] * b[0] + b[1] * b[1])
    u = (a[0] / na, a[1] / na, a[2] / na / span)
    v = (b[0] / nb, b[1] / nb, b[2] / nb / span)
    apart = math.sqrt(sum((p - q) * (p - q) for p, q in zip(u, v, strict=True)))
    opposite = math.sqrt(sum((p + q) * (p + q) for p, q in zip(u, v, strict=True)))
    return min(apart, opposite) < SAME_LINE


def _distractors(old, new) -> list[tuple[str, tuple[float, float, float]]]:
    """The wrong lines of :data:`DISTRACTORS`: w moved but θ not, the update reversed, no
    update, the update twice."""
    delta = tuple(n - o for n, o in zip(new, old, strict=True))
    return [
        ("w only", (new[0], new[1], old[2])),
        ("reversed", tuple(o - d for o, d in zip(old, delta, strict=True))),
        ("unchanged", old),
        ("doubled", tuple(o + 2 * d for o, d in zip(old, delta, strict=True))),
    ]
