"""Lesson 7's exercises: soft margins, the λ-trick in both forms and the α-bound (Khardon &
Wachman 2007, sections 2 and 3 and Table 4; Li et al. 2002 for the kernel form).

Facts from the page: ``seed``, ``form`` (``"kw_lam"``, ``"paum_lam"`` or ``"alpha"``),
``strength`` (λ or α), ``mean_sq_norm``, ``data`` and ``run``; the research box's table is
the study ``l07_switches``, the lab's reproduction of Khardon & Wachman's Table 4.
"""

from __future__ import annotations

from perceptron_lab.app_logic.exercises._runs import refit, shown, study, test_accuracy
from perceptron_lab.app_logic.exercises.model import (
    Exercise,
    Misconception,
    Option,
    choice_exercise,
    number_question,
    setting_question,
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
from perceptron_lab.app_logic.timeline import BLOCKED, CORRECT, MISTAKE, RESCUED

LESSON = 7
LAMS = (0.0, 0.125, 0.25, 0.5, 1.0, 2.0, 4.0)
ALPHAS = (0, 1, 2, 3, 5, 10, 20)
KERNEL_FORM = "the kernel form's formula, f_j = ⟨w, x_j⟩ + b + ληa_jy_j"
ALPHA_RULE = "the α-bound's rule: update only if … and a_j < α"
#: Updates a point has caused, and its label, in the variants of "l07-kernel-push".
CAUSED = ((5, -1), (3, 1), (8, 1), (2, -1))


def kernel_push(facts, variant):
    lam = 1.0 if facts["form"] != "paum_lam" or facts["strength"] == 0 else facts["strength"]
    scaled = lam * float(facts["mean_sq_norm"])
    a, y = CAUSED[variant % len(CAUSED)]
    answer = scaled * a * y  # η = 1 in the lesson's kernel form
    return number_question(
        f"In the kernel form (PAUM, η = 1) at λ = {lam:g}, which the lesson scales by the mean "
        f"‖x‖² = {facts['mean_sq_norm']:.4f} to λ' = {scaled:.4f}: a flipped point with label "
        f"y = {y:+d} has caused a_j = {a} updates so far. What push ληa_jy_j does its score "
        "get at its next visit?",
        answer,
        f"λ'·η·a_j·y = {scaled:.4f} × 1 × {a} × ({y:+d}) = {answer:+.4f}: it grows with every "
        "update the point causes, until the point lands on its own side.",
        {
            "indicator": (
                scaled * y,
                Misconception(
                    "That is one push of fixed size, as in the indicator form; the kernel "
                    "form's grows with a_j.",
                    KERNEL_FORM,
                ),
            ),
            "away": (
                -answer,
                Misconception("The push is towards the point's own label y.", KERNEL_FORM),
            ),
            "unscaled": (
                lam * a * y,
                Misconception(
                    f"The lesson scales λ by the mean ‖x‖²: use λ' = {scaled:.4f}.",
                    "the sentence on how the lesson scales the kernel form's λ",
                ),
            ),
        },
        Misconception("Multiply λ', η, a_j and y.", KERNEL_FORM),
        max(0.01 * abs(answer), 0.002),
    )


def alpha_total(facts, variant):
    alpha = ALPHAS[1 + variant % (len(ALPHAS) - 1)]
    m = len(facts["data"].y)
    answer = alpha * m
    return number_question(
        f"With the α-bound at α = {alpha}, how many updates at most can the figure's {m} "
        "training points cause in a whole run, however many epochs it lasts?",
        answer,
        f"Each example may cause at most α updates: {alpha} × {m} = {answer}.",
        {
            "per point": (
                alpha,
                Misconception(f"α bounds each of the {m} points, not the run.", ALPHA_RULE),
            ),
            "per epoch": (
                float(m),
                Misconception(
                    "The bound counts updates over the whole run, not one per epoch.",
                    ALPHA_RULE,
                ),
            ),
            "epochs": (
                alpha * m * facts["run"].epochs,
                Misconception("a_j counts every update j has caused, in every epoch.", ALPHA_RULE),
            ),
        },
        Misconception("Each example may cause at most α updates.", ALPHA_RULE),
        0.5,
    )


RESCUE = choice_exercise(
    "l07-rescue",
    LESSON,
    "A point far on the wrong side keeps being visited. Why can the kernel form of the "
    "λ-trick rescue it while the indicator form may not?",
    [
        Option(
            "The kernel form's push grows by λη with each update the point causes; the "
            "indicator form's has one size, λ‖x‖²"
        ),
        Option(
            "The kernel form changes w more at each update",
            Misconception(
                "Neither push ever changes w: it is added to the score during training only.",
                "“Neither push ever changes w, and neither is used at test time”",
            ),
        ),
        Option(
            "The kernel form is also used at test time",
            Misconception(
                "Neither push is used at test time.",
                "“Neither push ever changes w, and neither is used at test time”",
            ),
        ),
        Option(
            "The indicator form ignores points whose label is flipped",
            Misconception(
                "No learner knows which labels are flipped; the push is on for every "
                "point that has caused an update.",
                "the indicator form's formula, [a_j > 0]",
            ),
        ),
    ],
    "A point that keeps being wrong gets a bigger push each time in the kernel form, until "
    "it stops updating; in the indicator form a point deep on the wrong side is never "
    "rescued.",
)


def switch_gain(facts, variant):
    table = study(facts, "l07_switches", seed=facts["seed"])
    row = table.iloc[variant % len(table)]
    switches = ("best λ", "best α", "best τ")
    gains = {name: shown(row[name]) - shown(row["nothing"]) for name in switches}
    best = max(gains, key=gains.get)
    answer = gains[best]
    others = {
        f"{name}": (
            gain,
            Misconception(
                f"That is {name}'s gain; another switch gains more in this row.",
                "the table's row",
            ),
        )
        for name, gain in gains.items()
        if name != best
    }
    return number_question(
        "Khardon & Wachman's Table 4 compares the switches on their artificial data with label "
        "noise. Read the lab's reproduction under “What the research found”: at label noise "
        f"{row['label noise N']}, by how many points does the best switch's column beat the "
        "column nothing?",
        answer,
        f"{best}: {shown(row[best]):.1f} − {shown(row['nothing']):.1f} = {answer:+.1f} points.",
        {
            **others,
            "column": (
                shown(row[best]),
                Misconception(
                    "The question asks for the gain: subtract the column nothing.", "the table"
                ),
            ),
        },
        Misconception(
            "Take the row's largest switch column minus its column nothing.", "the table"
        ),
        0.05,
    )


def best_strength(facts, variant):
    alpha = facts["form"] == "alpha"
    data, run = facts["data"], facts["run"]
    values = ALPHAS if alpha else LAMS
    if alpha:
        fits = [refit(run, data, alpha_bound=int(v)) for v in values]
    elif facts["form"] == "kw_lam":
        fits = [refit(run, data, lam=v) for v in values]
    else:
        fits = [refit(run, data, lam=v * float(facts["mean_sq_norm"])) for v in values]
    accuracies = [test_accuracy(est, data) for est in fits]
    name = "α-bound" if alpha else "λ"
    return setting_question(
        f"Find the {name} (the slider) at which the last line is most accurate on the clean "
        "test half, with the soft margin you chose. Set it, then check.",
        "strength",
        values,
        accuracies,
        "max",
        "",
        {
            "off": (
                0,
                Misconception(
                    "Off, every pass has updates forced by the flipped points, and the line "
                    "never settles.",
                    "the first task of “Try this”",
                ),
            ),
        },
        Misconception(
            "Another strength gives a more accurate last line: read the box's test accuracy "
            "at the end of training.",
            "the box beside the figure",
        ),
        written=lambda v: f"{v:g}",
        measured=(f"Test accuracy per {name}", lambda a: f"{a:.1%}"),
    )


def softened(run, data):
    """Visits the λ-trick rescued or the α-bound blocked, mistakes and visits that change
    nothing, taken in turn, after the first epoch (by then points have caused updates)."""
    later = after_the_first_epoch(run)
    return interleave(
        *(
            spread(within(events(run, code), later), n)
            for code, n in ((RESCUED, 3), (BLOCKED, 3), (MISTAKE, 2), (CORRECT, 3))
        )
    )


REPLAY = Replay(softened, ("outcome",), about=by_event)
PREDICTIONS = replay_exercise(
    "l07-predict",
    LESSON,
    "Predict, at steps of the figure, what the soft margin does with an example: an update, "
    "a visit the λ-trick rescues, one the α-bound blocks, or nothing.",
    REPLAY,
    "Predict at a few steps of the figure what the learner does with the next example, and "
    "why. A ringed point has caused an update: with the λ-trick its score gets a push "
    "towards its label; with the α-bound a point that used up its α updates is ignored.",
    "The soft margins change only the examples that already caused updates: the λ-trick "
    "adds their push to the score, which can lift a would-be mistake past the test; the "
    "α-bound stops updating a point after α updates, so a flipped label cannot drag the "
    "line for ever.",
    {
        "outcome rescued": Misconception(
            "That example has caused an update, so the λ-trick adds its push towards its "
            "label to the score: it passes the test, and nothing moves.",
            KERNEL_FORM,
        ),
        "outcome blocked": Misconception(
            "That example has used up its α updates: the α-bound ignores it, although it is "
            "on the wrong side.",
            ALPHA_RULE,
        ),
        "outcome mistake": Misconception(
            "On the wrong side, even with the push (or below its α updates), the example is "
            "a mistake and updates.",
            ALPHA_RULE,
        ),
        "outcome correct": Misconception(
            "The example is on the right side without any help: nothing moves.",
            KERNEL_FORM,
        ),
        "outcome margin": Misconception(
            "The test is y·score ≤ 0, not < 0: a score of exactly 0 updates, whatever the "
            "example's label.",
            ALPHA_RULE,
        ),
    },
)

EXERCISES = (
    PREDICTIONS,
    Exercise(
        "l07-kernel-push",
        LESSON,
        "number",
        "What push does the kernel form of the λ-trick give a point that has caused a_j updates?",
        kernel_push,
        ("data",),
    ),
    Exercise(
        "l07-alpha-total",
        LESSON,
        "number",
        "How many updates at most can the training points cause with the α-bound at α?",
        alpha_total,
        ("run", "data"),
    ),
    RESCUE,
    Exercise(
        "l07-switch-gain",
        LESSON,
        "table",
        "Read the reproduction of Khardon & Wachman's Table 4: how many points does the best "
        "switch gain over none?",
        switch_gain,
        form="number",
    ),
    Exercise(
        "l07-best-strength",
        LESSON,
        "setting",
        "Find the strength of the chosen soft margin at which the last line is most accurate.",
        best_strength,
        ("run", "data"),
    ),
)
