"""Lesson 8's exercises: kernels and the dual form (the course notes on on-line learning;
Cristianini & Shawe-Taylor 2000, chapter 3; the LingPipe notes on the averaged kernel
perceptron for the digits).

Facts from the page: ``seed``, ``kernel`` (``"rbf"``, ``"poly"`` or ``"linear"``),
``values`` (the kernel's settings: ``gamma`` β, ``degree`` d), ``data`` and ``run``; the
research box's table is the study ``l08_digits``.
"""

from __future__ import annotations

import numpy as np

from perceptron_lab.app_logic.exercises._runs import refit, shown, study, test_accuracy
from perceptron_lab.app_logic.exercises.model import (
    Exercise,
    Misconception,
    Option,
    Step,
    choice_exercise,
    choice_question,
    number_question,
    order_exercise,
    rng,
    setting_question,
    tolerance,
)
from perceptron_lab.app_logic.exercises.replay import (
    Replay,
    events,
    interleave,
    replay_exercise,
    spread,
    updates,
)
from perceptron_lab.app_logic.timeline import CORRECT

LESSON = 8
KERNELS = {"rbf": "Gaussian (rbf)", "poly": "Polynomial", "linear": "Linear"}
POLY = "the polynomial kernel's formula, (β⟨x,x'⟩ + 1)^d"


def poly_value(facts, variant):
    X = facts["data"].X
    pick = rng(facts["seed"], "l08-poly-value", variant).choice(len(X), 2, replace=False)
    x1, x2 = X[pick[0]], X[pick[1]]
    d = int(facts["values"]["degree"]) if facts["kernel"] == "poly" else 2
    beta = 1.0
    inner = float(x1 @ x2)
    answer = (beta * inner + 1) ** d
    return number_question(
        f"Two training points: x = ({x1[0]:.3f}, {x1[1]:.3f}) and x' = ({x2[0]:.3f}, "
        f"{x2[1]:.3f}). What is the polynomial kernel k(x, x') = (β⟨x,x'⟩ + 1)^d with β = 1 "
        f"and d = {d}?",
        answer,
        f"⟨x,x'⟩ = {inner:.4f}, so ({inner:.4f} + 1)^{d} = {answer:.4f}.",
        {
            "no constant": (
                inner**d,
                Misconception(
                    "The + 1 is what brings the products of fewer coordinates (and the "
                    "constant) into the feature space.",
                    POLY,
                ),
            ),
            "no power": ((inner + 1), Misconception(f"Raise it to the power d = {d}.", POLY)),
            "distance": (
                float(np.sum((x1 - x2) ** 2) + 1) ** d,
                Misconception(
                    "The polynomial kernel uses the inner product ⟨x,x'⟩; the Gaussian one "
                    "uses the distance.",
                    POLY,
                ),
            ),
        },
        Misconception("Compute the inner product, add 1, raise to the power d.", POLY),
        tolerance(answer, 0.01, 0.001),
    )


XOR_LINE = choice_exercise(
    "l08-xor-line",
    LESSON,
    "On XOR the linear kernel's updates never stop and its test accuracy stays near a "
    "coin toss. Why?",
    [
        Option("No line separates XOR, and with the linear kernel the boundary is a line"),
        Option(
            "It needs more epochs",
            Misconception(
                "On data no line separates every pass has a mistake, however long it "
                "trains (lesson 3).",
                "the first task of “Try this”",
            ),
        ),
        Option(
            "Its learning rate is too small",
            Misconception(
                "No learning rate makes a line separate XOR: the boundary stays a line.",
                "“With the linear kernel the boundary is the straight line of the earlier "
                "lessons”",
            ),
        ),
        Option(
            "The dual form loses information the primal form keeps",
            Misconception(
                "The dual form is the same perceptron: w = Σ ηa_jy_jx_j gives the same scores.",
                "the dual form's formula at the top of the lesson",
            ),
        ),
    ],
    "A kernel of degree 2 or a Gaussian one has features such as x₁x₂ (XOR's rule), in "
    "which a linear separator exists.",
)


STEPS = (
    Step("Every update adds ηyx_j to w, so w = Σ_j ηa_jy_jx_j, a_j counting j's updates."),
    Step(
        "So the score is f(x) = Σ_j ηa_jy_j⟨x_j, x⟩ − θ: only inner products.",
        "it writes the score with the sum for w.",
    ),
    Step(
        "Replace ⟨x_j, x⟩ by a kernel k(x_j, x) = ⟨φ(x_j), φ(x)⟩.",
        "it replaces the inner products the score needs.",
    ),
    Step(
        "On an error at example j: a_j ← a_j + 1 and θ ← θ − ηyC; w is never built.",
        "it is the update of the dual form, with the kernel in the score.",
    ),
)


DUAL_ORDER = order_exercise(
    "l08-dual-order",
    LESSON,
    "Put in order the steps from the perceptron to the kernel perceptron.",
    STEPS,
    "w as a sum of examples, the score as inner products, the kernel in their place, the "
    "dual update.",
    "the dual form's formulas at the top of the lesson",
)


def best_degree(facts, variant):
    table = study(facts, "l08_digits", seed=facts["seed"])
    column = ("averaged", "voted", "last")[variant % 3]
    degrees = [int(d) for d in table["degree d"]]
    accuracy = [shown(a) for a in table[column]]
    best = max(accuracy)
    options = [
        Option(f"d = {d}")
        if a == best
        else Option(
            f"d = {d}",
            Misconception(
                ("A higher degree is not always more accurate: " if d == max(degrees) else "")
                + f"column {column} reads {a:.1f} at d = {d}; another degree reads higher.",
                "the table under “What the research found”",
            ),
        )
        for d, a in zip(degrees, accuracy, strict=True)
    ]
    return choice_question(
        "Read the table under “What the research found” (polynomial kernels on handwritten "
        f"digits, computed live). At which degree d is the {column} predictor most accurate?",
        options,
        f"Column {column}: "
        + ", ".join(f"d = {d}: {a:.1f}" for d, a in zip(degrees, accuracy, strict=True))
        + ".",
        rng(facts["seed"], "l08-best-degree", variant),
    )


def best_kernel(facts, variant):
    data, run = facts["data"], facts["run"]
    names = tuple(KERNELS)
    accuracies = [test_accuracy(refit(run, data, kernel=k), data) for k in names]
    return setting_question(
        "Find the kernel (the radio button) that classifies the test half best on these data, "
        "with the β or d set now. Set it, then check.",
        "kernel",
        names,
        accuracies,
        "max",
        "",
        {
            "linear": (
                "linear",
                Misconception(
                    "No line separates XOR or two circles: the linear kernel's boundary is a "
                    "line.",
                    "the first task of “Try this”",
                ),
            ),
        },
        Misconception(
            "Another kernel is more accurate here: read the box's test accuracy at the end.",
            "the box beside the figure",
        ),
        written=KERNELS.get,
        measured=("Test accuracy per kernel", lambda a: f"{a:.1%}"),
    )


def kernel_steps(run, data):
    """Updates spread over the run, and visits that change nothing, taken in turn."""
    return interleave(spread(updates(run), 4), spread(events(run, CORRECT), 4))


REPLAY = Replay(kernel_steps, ("outcome", "side"))
PREDICTIONS = replay_exercise(
    "l08-predict",
    LESSON,
    "Predict, at steps of the figure, whether the kernel perceptron updates and on which side "
    "of its curved boundary a point ends.",
    REPLAY,
    "Predict at a few steps of the figure whether the kernel perceptron updates on the next "
    "example, or on which side of the boundary (the tint) a point ends after an update. An "
    "update adds one term η y_j k(x_j, x) to f: a bump of the kernel's shape around the "
    "example.",
    "The kernel perceptron is the perceptron in dual form: it updates on a mistake, and the "
    "update adds the kernel centred on the example, which raises f near it (for y = +1) "
    "and less and less further away.",
    {
        "outcome": Misconception(
            "The kernel perceptron updates exactly when the perceptron would: on a mistake, "
            "y f(x) ≤ 0, with f the sum of kernel terms.",
            "the dual form f(x) = Σ η a_j y_j k(x_j, x) − θ",
        ),
        "side": Misconception(
            "An update adds η y_j k(x_j, x) to f everywhere: with the Gaussian kernel mostly "
            "near the example, so a point near it moves towards its label's side, a far one "
            "hardly moves.",
            "the dual form f(x) = Σ η a_j y_j k(x_j, x) − θ and the kernels' formulas",
        ),
    },
)

EXERCISES = (
    PREDICTIONS,
    Exercise(
        "l08-poly-value",
        LESSON,
        "number",
        "What is the polynomial kernel's value for two training points?",
        poly_value,
        ("data",),
    ),
    XOR_LINE,
    DUAL_ORDER,
    Exercise(
        "l08-best-degree",
        LESSON,
        "table",
        "Read the digits table: at which polynomial degree is a predictor most accurate?",
        best_degree,
        form="choice",
    ),
    Exercise(
        "l08-best-kernel",
        LESSON,
        "setting",
        "Find the kernel that classifies the test half best on the figure's data.",
        best_kernel,
        ("run", "data"),
    ),
)
