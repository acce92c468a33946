"""Lesson 1's exercises: the perceptron rule (Khardon & Wachman 2007, section 2.1).

Facts from the page: ``seed``, ``eta`` (the learning-rate slider), ``data`` and ``run``
(the figure's 20 separable points and the perceptron's recorded run).
"""

from __future__ import annotations

import numpy as np

from perceptron_core import Perceptron
from perceptron_lab.app_logic.exercises.model import (
    Exercise,
    Misconception,
    Option,
    Step,
    choice_exercise,
    number_question,
    order_exercise,
    setting_question,
    tolerance,
)
from perceptron_lab.app_logic.exercises.replay import (
    Replay,
    events,
    replay_exercise,
    updates,
)
from perceptron_lab.app_logic.timeline import CORRECT

LESSON = 1
#: The figure's epochs and the learning rates its slider offers.
EPOCHS = 20
ETAS = (0.05, 0.1, 0.2, 0.5, 1.0, 2.0)
RULE = "the rule w ← w + ηyx, θ ← θ − ηyC under Khardon & Wachman's form"
CHANGE = "the formula under “Why an update fixes the mistake”"


def update(facts, variant: int) -> dict:
    """The run's update number ``variant`` (cycling through them): example, label, the
    hypothesis before it, η and C."""
    tl, est, data = facts["run"].timeline, facts["run"].estimator, facts["data"]
    updates = np.flatnonzero(tl.before != tl.after)
    i = int(updates[variant % len(updates)])
    j = int(tl.index[i])
    w, theta = tl.hypothesis(i)  # the hypothesis in force before event i
    return {
        "number": variant % len(updates) + 1,
        "x": data.X[j],
        "y": int(data.y[j]),
        "w": w,
        "theta": float(theta),
        "eta": float(est.eta),
        "C": float(est.C_),
    }


def _xy(u) -> str:
    return f"x = ({u['x'][0]:.3f}, {u['x'][1]:.3f}) with y = {u['y']:+d}"


def score_change(facts, variant):
    u = update(facts, variant)
    sq = float(u["x"] @ u["x"])
    eta, C = u["eta"], u["C"]
    answer = eta * (sq + C)
    return number_question(
        f"Update {u['number']} of the figure's run is on {_xy(u)}; η = {eta:g} and "
        f"C = {C:.4f}. By how much does this update raise the example's own score "
        f"y(⟨w,x⟩ − θ)? (‖x‖² = x₁² + x₂².)",
        answer,
        f"η(‖x‖² + C) = {eta:g} × ({sq:.4f} + {C:.4f}) = {answer:.4f}, the same for every "
        "update: the box under the figure's panel shows it at each one.",
        {
            "no C": (
                eta * sq,
                Misconception("The threshold moves too: θ changes by ηyC, which adds ηC.", CHANGE),
            ),
            "no eta": (
                sq + C,
                Misconception("Both w and θ move by η times their step: keep the η.", RULE),
            ),
            "printed sign": (
                eta * (sq - C),
                Misconception(
                    "That is the change with the threshold step printed as θ + ηyC in "
                    "Khardon & Wachman's figures; with their prediction rule it is θ − ηyC.",
                    "the research box",
                ),
            ),
            "not squared": (
                eta * (float(np.sqrt(sq)) + C),
                Misconception("The change uses the squared length ‖x‖² = ⟨x, x⟩.", CHANGE),
            ),
        },
        Misconception("Work out η(‖x‖² + C) with the numbers given.", CHANGE),
        tolerance(answer, 0.01, 0.002),
    )


def theta_after(facts, variant):
    u = update(facts, variant)
    eta, C, y, theta = u["eta"], u["C"], u["y"], u["theta"]
    answer = theta - eta * y * C
    return number_question(
        f"Just before update {u['number']} of the figure's run, θ = {theta:.4f}. The update "
        f"is on an example with y = {y:+d}; η = {eta:g}, C = {C:.4f}. What is θ after it?",
        answer,
        f"θ − ηyC = {theta:.4f} − {eta:g} × ({y:+d}) × {C:.4f} = {answer:.4f}: "
        + ("a positive example lowers θ." if y > 0 else "a negative example raises θ."),
        {
            "printed sign": (
                theta + eta * y * C,
                Misconception(
                    "That is the sign printed in Khardon & Wachman's figures; with the "
                    "prediction sign(⟨w,x⟩ − θ) it would make the example harder to get right.",
                    "the research box",
                ),
            ),
            "no eta": (theta - y * C, Misconception("The threshold step is η·C, not C.", RULE)),
            "no label": (
                theta - eta * C,
                Misconception("The step carries the label y: θ ← θ − ηyC.", RULE),
            ),
        },
        Misconception("Apply θ ← θ − ηyC to the numbers given.", RULE),
        tolerance(answer, 0.0, 0.002),
    )


WHY_IT_HELPS = choice_exercise(
    "l01-why-it-helps",
    LESSON,
    "Why does every update raise the score y(⟨w,x⟩ − θ) of the example it was made on?",
    [
        Option("Its change is η(‖x‖² + C), which is positive whatever the label y is"),
        Option(
            "Because w always moves towards x",
            Misconception(
                "w moves towards x only for y = +1; for y = −1 it moves away from it, "
                "and the score y(⟨w,x⟩ − θ) still rises.",
                "the red arrow Δw = ηyx in the figure",
            ),
        ),
        Option(
            "Because after the update the example is always classified right",
            Misconception(
                "One update may not be enough to fix the example: its score rises, but "
                "may stay below 0. That is why training makes several passes.",
                "the paragraph after the formula under “Why an update fixes the mistake”",
            ),
        ),
        Option(
            "Because θ always decreases",
            Misconception(
                "θ moves by −ηyC: it rises on a negative example.",
                RULE,
            ),
        ),
    ],
    "y² = 1, so the change y(ηy‖x‖² + ηyC) is η(‖x‖² + C) > 0 for either label.",
)


STEPS = (
    Step("Write the example's score after the update: y(⟨w + ηyx, x⟩ − (θ − ηyC)).", ""),
    Step(
        "Expand: ⟨w + ηyx, x⟩ = ⟨w, x⟩ + ηy‖x‖².",
        "it expands the score after the update, which must be written first.",
    ),
    Step(
        "Subtract the score before the update, y(⟨w,x⟩ − θ).",
        "the difference is taken once the new score is written out.",
    ),
    Step(
        "Use y² = 1: the difference is η(‖x‖² + C).",
        "y² appears only once the difference is formed.",
    ),
    Step(
        "η > 0 and ‖x‖² + C > 0, so the example's score rises.",
        "it is the conclusion, drawn from the difference η(‖x‖² + C).",
    ),
)


DERIVATION_ORDER = order_exercise(
    "l01-derivation-order",
    LESSON,
    "Put in order the steps that show how much an update raises its example's score.",
    STEPS,
    "Write the new score, expand it, subtract the old one, use y² = 1, conclude.",
    CHANGE,
)


def updates_at(X, y, eta: float, seed: int) -> int:
    """Updates of the figure's run at learning rate ``eta`` (the perceptron's defaults:
    θ_init = C = mean ‖x‖²), on its data and order."""
    est = Perceptron(eta=eta, epochs=EPOCHS, random_state=seed).fit(X, y)
    return int(est.n_updates_)


def fewest_updates(facts, variant):
    data = facts["data"]
    counts = [updates_at(data.X, data.y, eta, facts["seed"]) for eta in ETAS]
    return setting_question(
        "Find a learning rate η (the slider) at which the figure's run needs the fewest "
        f"updates on these data ({EPOCHS} epochs). Set it, then check.",
        "eta",
        ETAS,
        counts,
        "min",
        "Started at θ_init = C, η matters: the start does not grow with η, so small steps "
        "take many updates to move the line from where θ_init puts it.",
        {
            "largest": (
                ETAS[-1],
                Misconception(
                    "A larger step is not always fewer updates: with θ_init ≠ 0 the run's "
                    "updates depend on η in no fixed direction; on these data another η "
                    "needs fewer.",
                    "the second task of “Try this” and the table under the figure",
                ),
            ),
        },
        Misconception(
            "Another η needs fewer updates: press End and read “updates so far” above the "
            "figure at each.",
            "the table under the figure, which counts the updates of each form",
        ),
        written=lambda v: f"{v:g}",
        measured=("Updates per η", lambda c: f"{c:g}"),
    )


#: The figure asks at its first four updates, then at the first visits that change nothing.
REPLAY = Replay(
    lambda run, data: [*updates(run)[:4], *events(run, CORRECT)],
    ("outcome", "lines", "where"),
)
PREDICTIONS = replay_exercise(
    "l01-predict",
    LESSON,
    "Predict steps of the figure before they are shown: does the perceptron update, which "
    "line is the boundary after an update, where does w land?",
    REPLAY,
    "Predict a few steps of the figure: whether the perceptron updates (only on a mistake, "
    "y(⟨w,x⟩ − θ) ≤ 0), which dashed line is the boundary after an update, or where w lands "
    "(at w + ηyx).",
    "The rule changes nothing while y(⟨w,x⟩ − θ) > 0; on a mistake it adds ηyx to w and "
    "−ηyC to θ, which turns the line towards the example's side and moves the threshold.",
    {
        "outcome": Misconception(
            "The perceptron updates only on a mistake, when y(⟨w,x⟩ − θ) ≤ 0; an example "
            "already on its side changes nothing (a score of exactly 0 counts as a mistake).",
            "the prediction ŷ(x) = sign(⟨w,x⟩ − θ) and the test in the math panel",
        ),
        "lines": Misconception(
            "An update moves both: w by ηyx (towards a +1 example, away from a −1 one) and θ "
            "by −ηyC; the line after it is ⟨w + ηyx, x⟩ = θ − ηyC.",
            RULE,
        ),
        "where": Misconception(
            "w lands at w + ηyx: from w now, η times the example, added for a +1 label and "
            "subtracted for a −1 one (the red arrow Δw).",
            RULE,
        ),
    },
)

EXERCISES = (
    PREDICTIONS,
    Exercise(
        "l01-score-change",
        LESSON,
        "number",
        "By how much does an update of the figure's run raise its example's score?",
        score_change,
        ("run", "data"),
    ),
    Exercise(
        "l01-theta-after",
        LESSON,
        "number",
        "What is θ after an update of the figure's run?",
        theta_after,
        ("run", "data"),
    ),
    WHY_IT_HELPS,
    DERIVATION_ORDER,
    Exercise(
        "l01-fewest-updates",
        LESSON,
        "setting",
        "Find a learning rate η at which the figure's run needs the fewest updates.",
        fewest_updates,
        ("data",),
    ),
)
