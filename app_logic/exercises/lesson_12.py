"""Lesson 12's exercises: one against the rest (Khardon & Wachman 2007, §2.7) and the multiclass
perceptron with Kesler's construction (Duda, Hart & Stork 2001, §5.12; the course notes'
Novikoff theorem).

Facts from the page: ``seed``, ``margin`` (the gap slider), ``request``, ``data`` and ``run``
(90 points of three classes, the multiclass perceptron, 30 epochs).
"""

from __future__ import annotations

import numpy as np

from perceptron_lab.app_logic.exercises._runs import updates_per_value
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
    after_the_first_epoch,
    by_event,
    events,
    interleave,
    replay_exercise,
    spread,
    within,
)
from perceptron_lab.app_logic.timeline import CORRECT, MISTAKE

LESSON = 12
GAPS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.3)
RULE = "the rule: w_c gains ηx, w_r loses it, and each bias moves by η"
KESLER = "the paragraph on Kesler's construction"


def update_at(facts, variant) -> tuple[np.ndarray, float]:
    """The example of one of the run's updates (the first, the second, ... by ``variant``) and
    the run's η."""
    run = facts["run"]
    rows = run.estimator.trace_.rows
    j = int(rows[variant % len(rows)])
    return facts["data"].X[j], float(run.estimator.eta)


def gap_growth(facts, variant):
    x, eta = update_at(facts, variant)
    norm2 = float(x @ x)
    answer = 2 * eta * (norm2 + 1)
    return number_question(
        f"One of the figure's updates was on x = ({x[0]:.4g}, {x[1]:.4g}), with η = {eta:g}. "
        "By how much does that update raise s_c − s_r, the true class's score minus the "
        "rival's, on x itself?",
        answer,
        f"s_c rises by η(‖x‖² + 1) (w_c gains ηx, b_c gains η) and s_r falls by as much: "
        f"2η(‖x‖² + 1) = 2 × {eta:g} × ({norm2:.4g} + 1) ≈ {answer:.4g}.",
        {
            "one side": (
                eta * (norm2 + 1),
                Misconception(
                    "Two vectors move: the rival's score falls by as much as the true "
                    "class's rises.",
                    RULE,
                ),
            ),
            "no bias": (
                2 * eta * norm2,
                Misconception(
                    "The biases move too, each by η: the constant input 1 adds 1 to ‖x‖².",
                    RULE,
                ),
            ),
        },
        Misconception("Add the two changes: η(‖x‖² + 1) each.", RULE),
        tolerance(answer, 0.01),
    )


def kesler_count(facts, variant):
    m = len(facts["data"].X)
    K = len(facts["data"].all_classes)
    answer = m * (K - 1)
    return number_question(
        f"The figure trains on {m} points of {K} classes. How many vectors φ does Kesler's "
        "construction make of this training set?",
        answer,
        f"One per example and per other class: m(K − 1) = {m} × {K - 1} = {answer}.",
        {
            "every class": (
                m * K,
                Misconception(
                    "An example is not set against its own class: K − 1 vectors each.",
                    KESLER,
                ),
            ),
            "one each": (
                m,
                Misconception(
                    "Each example gives one φ for every other class, not one in all.",
                    KESLER,
                ),
            ),
        },
        Misconception("Count K − 1 vectors for each example.", KESLER),
        0.5,
    )


STEPS = (
    Step("Stack every class's (w_k, b_k) into one vector U of K(n + 1) numbers."),
    Step(
        "Write an example x of class c as K − 1 vectors φ(x, c, k): (x, 1) in block c, "
        "−(x, 1) in block k.",
        "it needs the blocks of U to place (x, 1) in.",
    ),
    Step(
        "Then ⟨U, φ(x, c, k)⟩ = s_c − s_k: a mistake has ⟨U, φ(x, c, r)⟩ ≤ 0, and the update "
        "is U ← U + ηφ(x, c, r).",
        "it uses the vectors φ just defined.",
    ),
    Step(
        "Apply Novikoff's theorem to the φ: R = max ‖φ‖ = √2 max ‖(x, 1)‖ and a unit u with "
        "⟨u, φ⟩ ≥ γ > 0.",
        "it needs the update to be the two-class perceptron's.",
    ),
    Step("So the multiclass perceptron makes at most (R/γ)² updates.", "it is the conclusion."),
)


KESLER_ORDER = order_exercise(
    "l12-kesler-order",
    LESSON,
    "Put the steps from the multiclass perceptron to its mistake bound in order.",
    STEPS,
    "Stack the vectors, write φ, see the update as the perceptron's, apply Novikoff, conclude.",
    KESLER,
)


REST = choice_exercise(
    "l12-rest-guarantee",
    LESSON,
    "Why does one against the rest not inherit Novikoff's guarantee on data a linear machine "
    "separates?",
    [
        Option(
            "Each of its perceptrons has the bound only if its own class can be cut from all "
            "the others by one line, and a linear machine's regions need not allow that"
        ),
        Option(
            "Because it trains its perceptrons one after the other, not in one pass",
            Misconception(
                "Khardon & Wachman train them side by side, in the same pass (§2.7); the "
                "order is not the reason.",
                "the first paragraph of the lesson",
            ),
        ),
        Option(
            "Because its perceptrons have no bias",
            Misconception(
                "Each perceptron of the lab has its threshold θ; what it lacks is a line "
                "between its class and all the rest.",
                "the paragraph after the bound",
            ),
        ),
        Option(
            "It does inherit it: one against the rest converges whenever the multiclass "
            "perceptron does",
            Misconception(
                "Under the figure, on the same points, its perceptrons still update in their "
                "last epoch while the multiclass perceptron has stopped.",
                "the sentence under the figure",
            ),
        ),
    ],
    "Novikoff's theorem needs each binary problem separable; the machine's regions make the "
    "whole problem separable for the multiclass perceptron, not each class against the rest.",
)


def most_updates(facts, variant):
    counts = updates_per_value(facts, "margin", GAPS)
    return setting_question(
        "Find the gap (the slider) at which the figure's run makes the most updates, on this "
        "data seed. Set it, press End to count, then check.",
        "margin",
        GAPS,
        counts,
        "max",
        "The bound (R/γ)² grows as the gap shrinks; the updates a run makes tend to follow, "
        "far below it.",
        {
            "widest": (
                GAPS[-1],
                Misconception(
                    "A wider gap makes γ larger and the bound smaller: runs need fewer "
                    "updates there.",
                    "the second task of “Try this”",
                ),
            ),
        },
        Misconception(
            "Another gap makes more updates: press End and read the box at each.",
            "the box beside the figure",
        ),
        written=lambda g: f"{g:g}",
        measured=("Updates per gap", lambda c: f"{c:g}"),
    )


def after_the_first_pass(run, data):
    """Visits after the first epoch, mistakes and visits that change nothing taken in turn
    (by then every class's vector has moved, and a visit's outcome is no longer a tie at
    zero); then the later visits in order."""
    later = after_the_first_epoch(run)
    return [
        *interleave(
            spread(within(events(run, MISTAKE), later), 3),
            spread(within(events(run, CORRECT), later), 3),
        ),
        *(np.flatnonzero(later) + 1),
    ]


REPLAY = Replay(after_the_first_pass, ("outcome",), about=by_event)
PREDICTIONS = replay_exercise(
    "l12-predict",
    LESSON,
    "Predict, after the first epoch, whether the multiclass perceptron's next example is a "
    "mistake (an update of two classes' vectors) or changes nothing.",
    REPLAY,
    "Predict at a few steps after the first epoch what the multiclass perceptron does with "
    "the next example: compare the three scores ⟨w_k, x⟩ + b_k at its point; it is a mistake "
    "when a rival's score is at least its own class's.",
    "A visit updates exactly when the true class's score is not strictly the highest: then "
    "w_c gains ηx and the rival's w_r loses it, and the third class's vector stays.",
    {
        "outcome mistake": Misconception(
            "A point is a mistake when a rival class scores at least as high as its own "
            "class, even if its own score is positive: the highest score wins, not the sign.",
            RULE,
        ),
        "outcome correct": Misconception(
            "When the true class's score is strictly the highest, nothing moves, however "
            "close the rival's score is (the multiclass perceptron has no margin).",
            RULE,
        ),
    },
)

EXERCISES = (
    PREDICTIONS,
    Exercise(
        "l12-gap-growth",
        LESSON,
        "number",
        "By how much does an update raise the true class's score minus the rival's?",
        gap_growth,
        ("run", "data"),
    ),
    Exercise(
        "l12-kesler-count",
        LESSON,
        "number",
        "How many Kesler vectors does a training set give?",
        kesler_count,
        ("data",),
    ),
    KESLER_ORDER,
    REST,
    Exercise(
        "l12-most-updates",
        LESSON,
        "setting",
        "Find the gap at which the figure's run makes the most updates.",
        most_updates,
        ("run", "request"),
    ),
)
