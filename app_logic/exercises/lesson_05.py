"""Lesson 5's exercises: margins (Khardon & Wachman 2007, section 3; the thick separator of
the course notes on on-line learning, in the lesson's reading).

Facts from the page: ``seed``, ``learner`` (``"margin"`` or ``"thick"``), ``tau`` or
``gamma`` (the margin slider of that learner: τ in units of θ_init, κ in score units),
``request``, ``data`` and ``run``; the research box's table is the study ``l05_margins``.
"""

from __future__ import annotations

import numpy as np

from perceptron_lab.app_logic.exercises._runs import refit, shown, study, test_accuracy
from perceptron_lab.app_logic.exercises.model import (
    Exercise,
    Misconception,
    Option,
    choice_exercise,
    choice_question,
    number_question,
    rng,
    setting_question,
    tolerance,
)
from perceptron_lab.app_logic.exercises.replay import (
    Replay,
    after_the_first_epoch,
    by_event,
    events,
    interleave,
    replay_exercise,
    spread,
    within,
)
from perceptron_lab.app_logic.timeline import CORRECT, MARGIN, MISTAKE

LESSON = 5
TAUS = (0.0, 0.125, 0.25, 0.5, 1.0, 2.0)
KAPPAS = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0)
#: The band a margin of 0 would have had: the sliders' opening values (τ × θ_init, κ).
OPENING = {"margin": 0.5, "thick": 1.0}
BAND = "the sentence “Both bands are fixed in score units”"
HINGE = "the hinge loss under “The perceptron as stochastic gradient descent”"


def half_width(facts) -> tuple[float, str]:
    """The band's half-width in score units, and how the prompt names it; with a margin of
    0 the band of the slider's opening value (the figure draws none)."""
    run = facts["run"]
    band = run.learner.band(run.estimator)
    if band and band[1] > 0:
        return float(band[1]), "the band reaches the scores"
    opening = OPENING[facts["learner"]]
    if facts["learner"] == "margin":
        return opening * float(
            run.estimator.theta_init_
        ), f"at τ = {opening:g} the band would reach"
    return opening, f"at κ = {opening:g} the band would reach"


def band_distance(facts, variant):
    tl = facts["run"].timeline
    half, which = half_width(facts)
    updates = np.flatnonzero(np.linalg.norm(tl.W[0], axis=1) > 0)
    k = int(updates[(len(updates) - 1 - variant) % len(updates)])  # the last update first
    norm = float(np.linalg.norm(tl.W[0][k]))
    answer = half / norm
    return number_question(
        f"After update {k} of the figure's run ‖w‖ = {norm:.4g}, and {which} ±{half:.4g}. How "
        "far from the line, in the plane, does the band reach?",
        answer,
        f"A score changes by ‖w‖ per unit of distance: {half:.4g} / {norm:.4g} = {answer:.4g}.",
        {
            "times": (
                half * norm,
                Misconception(
                    "Distance is the score divided by ‖w‖: a longer w makes the band narrower.",
                    BAND,
                ),
            ),
            "squared": (
                half / norm**2,
                Misconception("Divide by ‖w‖, not by ‖w‖².", BAND),
            ),
            "score": (
                half,
                Misconception(
                    "That is the band in score units; in the plane it is that over ‖w‖.",
                    BAND,
                ),
            ),
        },
        Misconception("Divide the band's half-width in score units by ‖w‖.", BAND),
        tolerance(answer, 0.01),
    )


def hinge(facts, variant):
    run, data = facts["run"], facts["data"]
    tl = run.timeline
    half, _ = half_width(facts)
    margin = half if (run.learner.band(run.estimator) or (0, 0))[1] > 0 else 0.0
    scores = tl.scores(data.X, tl.n_events)
    losses = np.maximum(0.0, margin - data.y * scores)
    inside = np.flatnonzero(losses > 0)  # an example with a loss, when there is one
    pool = inside if len(inside) else np.arange(len(data.y))
    j = int(pool[rng(facts["seed"], "l05-hinge", variant).integers(len(pool))])
    s, y = float(scores[j]), int(data.y[j])
    answer = max(0.0, margin - y * s)
    return number_question(
        f"At the end of training the training example number {j + 1} has label y = {y:+d} and "
        f"score {s:+.4f}; the run asks for a margin of {margin:.4g} in score units. What is "
        "its hinge loss?",
        answer,
        f"max(0, {margin:.4g} − ({y:+d})({s:+.4f})) = {answer:.4f}"
        + (": it is outside the band." if answer == 0 else ": it would force an update."),
        {
            "no max": (
                margin - y * s,
                Misconception(
                    "The loss is never negative: an example outside the band has loss 0.",
                    HINGE,
                ),
            ),
            "no label": (
                max(0.0, margin - s),
                Misconception("The loss uses y times the score: y(⟨w,x⟩ − θ).", HINGE),
            ),
            "no margin": (
                max(0.0, -y * s),
                Misconception(
                    "That is the plain perceptron's loss (τ = 0): this run asks for a margin.",
                    HINGE,
                ),
            ),
        },
        Misconception("Apply max(0, margin − y × score).", HINGE),
        tolerance(answer, 0.01, 0.002),
    )


NARROWING = choice_exercise(
    "l05-narrowing",
    LESSON,
    "As training goes on, the grey band narrows around the line. Why?",
    [
        Option(
            "The band is fixed in score units, its width in the plane is that over ‖w‖, "
            "and updates make w longer"
        ),
        Option(
            "τ shrinks during training",
            Misconception("τ is a setting: it stays as you set it.", BAND),
        ),
        Option(
            "The learning rate decays",
            Misconception(
                "η is fixed: every update is w ← w + ηyx with the same η.",
                "the update rule under “update if y(⟨w,x⟩ − θ) ≤ τθ_init”",
            ),
        ),
        Option(
            "Fewer examples are inside it",
            Misconception(
                "That follows from a narrower band; it does not cause it.",
                "the box under the panel: ‖w‖ and the half-width",
            ),
        ),
    ],
    "Distance = score / ‖w‖; PAM has no penalty on ‖w‖, so it meets its margin in score "
    "units by making w longer.",
)


def best_margin(facts, variant):
    table = study(facts, "l05_margins", seed=facts["seed"])
    levels = sorted(table["label noise N"].unique())
    N = levels[variant % len(levels)]
    rows = table[table["label noise N"] == N]
    taus = [float(t) for t in rows["margin τ"]]
    accuracy = [shown(a) for a in rows["last"]]
    best = max(accuracy)
    options = [
        Option(f"τ = {t:g}")
        if a == best
        else Option(
            f"τ = {t:g}",
            Misconception(
                "No margin is the plain perceptron; Khardon & Wachman found the margin an "
                "effective way to tolerate noise."
                if t == 0
                else f"At τ = {t:g} the table reads {a:.1f}; another margin reads higher.",
                "the research box's table, column last",
            ),
        )
        for t, a in zip(taus, accuracy, strict=True)
    ]
    return choice_question(
        f"Read the table under “What the research found” (the lab's reproduction of Khardon "
        f"& Wachman's margin comparison). At label noise N = {N:g}, which margin τ gives the "
        "last hypothesis its best accuracy?",
        options,
        f"Column last at N = {N:g}: "
        + ", ".join(f"τ = {t:g}: {a:.1f}" for t, a in zip(taus, accuracy, strict=True))
        + ".",
        rng(facts["seed"], "l05-best-margin", variant),
    )


def best_setting(facts, variant):
    thick = facts["learner"] == "thick"
    name, values = ("gamma", KAPPAS) if thick else ("tau", TAUS)
    data, run = facts["data"], facts["run"]
    accuracies = [test_accuracy(refit(run, data, **{name: v}), data) for v in values]
    symbol = "κ" if thick else "τ"
    return setting_question(
        f"Find the margin {symbol} (the slider) at which the last line is most accurate on "
        "the clean test half, on this data seed. Set it, then check.",
        name,
        values,
        accuracies,
        "max",
        "",
        {
            "none": (
                0.0,
                Misconception(
                    "Without a margin the last line is the plain perceptron's, which lesson 3 "
                    "showed is luck on noisy data.",
                    "the first task of “Try this”",
                ),
            ),
        },
        Misconception(
            f"Another {symbol} gives a more accurate last line: read the box's test accuracy "
            "at the end of training.",
            "the box under the panel",
        ),
        written=lambda v: f"{v:g}",
        measured=(f"Test accuracy per {symbol}", lambda a: f"{a:.1%}"),
    )


def inside_the_band(run, data):
    """Updates inside the band (right side, too close), mistakes and visits that change
    nothing, taken in turn from the epochs after the first (the line and its band are in
    the view by then)."""
    later = after_the_first_epoch(run)
    return interleave(
        spread(within(events(run, MARGIN), later), 3),
        spread(within(events(run, MISTAKE), later), 2),
        spread(within(events(run, CORRECT), later), 3),
    )


REPLAY = Replay(inside_the_band, ("outcome",), about=by_event)
PREDICTIONS = replay_exercise(
    "l05-predict",
    LESSON,
    "Predict, at steps of the figure, whether the learner updates on an example: on the wrong "
    "side, on the right side but inside the margin band, or outside it.",
    REPLAY,
    "Predict at a few steps of the figure what the learner does with the next example, and "
    "why: a mistake (wrong side), an update inside the band (right side, but y·score within "
    "the margin) or nothing (outside the band). The grey band is where correct examples "
    "still update.",
    "The test is y·score against the margin, not against 0: an example on the right side but "
    "inside the band updates as a mistake would; only one outside the band changes nothing.",
    {
        "outcome margin": Misconception(
            "Inside the band counts as an error: the learner updates an example with "
            "y(⟨w,x⟩ − θ) ≤ τθ_init (the thick separator: y f(x) ≤ κ), though it is on the "
            "right side.",
            "the update rule under the lesson's first paragraph",
        ),
        "outcome correct": Misconception(
            "Outside the band nothing moves: y·score is above the margin, so the example "
            "clears it.",
            BAND,
        ),
        "outcome mistake": Misconception(
            "An example on the wrong side of the line, y·score ≤ 0, is a mistake: it updates "
            "whatever the margin.",
            "the update rule under the lesson's first paragraph",
        ),
    },
)

EXERCISES = (
    PREDICTIONS,
    Exercise(
        "l05-band-distance",
        LESSON,
        "number",
        "How far from the line does the margin band reach after an update?",
        band_distance,
        ("run",),
    ),
    Exercise(
        "l05-hinge",
        LESSON,
        "number",
        "What is a training example's hinge loss at the end of training?",
        hinge,
        ("run", "data"),
    ),
    NARROWING,
    Exercise(
        "l05-best-margin",
        LESSON,
        "table",
        "Read the reproduction of Khardon & Wachman's margin comparison: which τ is best "
        "for the last hypothesis at a noise level?",
        best_margin,
        form="choice",
    ),
    Exercise(
        "l05-best-setting",
        LESSON,
        "setting",
        "Find the margin at which the last line is most accurate on the test half.",
        best_setting,
        ("run", "data"),
    ),
)
