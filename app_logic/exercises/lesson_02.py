"""Lesson 2's exercises: Novikoff's bound (Novikoff 1962; the course notes on on-line
learning).

Facts from the page: ``seed``, ``margin`` (the gap slider), ``request``, ``data`` and
``run`` (60 separable points, the plain perceptron, 30 epochs).
"""

from __future__ import annotations

from perceptron_lab.app_logic.diagnostics import novikoff_bound
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
    events,
    interleave,
    replay_exercise,
    spread,
    updates,
)
from perceptron_lab.app_logic.timeline import CORRECT

LESSON = 2
GAPS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4)
PROOF = "the chain kηγ ≤ ⟨u, v_k⟩ ≤ ‖v_k‖ ≤ √k ηR in the lesson's proof"
#: The factors γ is divided by in the variants of "l02-halved-margin".
FACTORS = (2, 3, 4, 10)
#: The factors every point is multiplied by in the variants of "l02-scaled-data".
SCALES = (2, 10, 0.5, 3)


def r_gamma(facts) -> tuple[float, float]:
    """R and γ of the figure's data, the threshold folded in (the box's numbers)."""
    data, est = facts["data"], facts["run"].estimator
    _, R, gamma = novikoff_bound(
        data.X, data.y, data.w_star, data.theta_star, est.eta, est.C_, 0.0
    )
    return float(R), float(gamma)


def halved_margin(facts, variant):
    R, gamma = r_gamma(facts)
    k = FACTORS[variant % len(FACTORS)]
    base = (R / gamma) ** 2
    answer = (k * R / gamma) ** 2
    return number_question(
        f"The box under the figure gives R = {R:.4g} and γ = {gamma:.4g} for these data. "
        f"Suppose another data set had the same R and a margin {k} times smaller, γ/{k}. At "
        "most how many updates would Novikoff's bound allow a perceptron started at θ = 0?",
        answer,
        f"(R/(γ/{k}))² = {k}² × (R/γ)² = {k * k} × {base:,.1f} ≈ {answer:,.0f}: the margin "
        "enters squared.",
        {
            "linear": (
                k * base,
                Misconception(
                    "The bound grows with the square of 1/γ, not in proportion to it.",
                    "the sentence in bold: halve γ and the bound quadruples",
                ),
            ),
            "unchanged": (
                base,
                Misconception(
                    "The bound depends on the margin: it is (R/γ)², whatever the number of "
                    "examples.",
                    PROOF,
                ),
            ),
            "no square": (
                k * R / gamma,
                Misconception("Novikoff's bound is a square, (R/γ)².", PROOF),
            ),
        },
        Misconception("Divide γ, then square R/γ.", PROOF),
        tolerance(answer, 0.01),
    )


def scaled_data(facts, variant):
    R, gamma = r_gamma(facts)
    s = SCALES[variant % len(SCALES)]
    answer = (R / gamma) ** 2
    return number_question(
        f"The box gives R = {R:.4g} and γ = {gamma:.4g}, so (R/γ)² = {answer:,.1f}. Multiply "
        f"every point by {s:g} (θ_init and C, the mean ‖x‖², follow, so the folded z = (x, −√C) "
        f"is {s:g} times as long). What does Novikoff's bound (R/γ)² become?",
        answer,
        f"R and γ are both multiplied by {s:g}, so R/γ and the bound, {answer:,.1f}, do not "
        "change: the bound depends on the shape of the data, not their scale.",
        {
            "R only": (
                s * s * answer,
                Misconception(
                    "γ is a length in the same folded coordinates as R: it grows with the "
                    "points too.",
                    "the definitions of R and γ, both measured on z",
                ),
            ),
            "gamma only": (
                answer / (s * s),
                Misconception("R grows with the points as much as γ does.", PROOF),
            ),
            "linear": (
                s * answer,
                Misconception("Both R and γ scale: their ratio does not change.", PROOF),
            ),
        },
        Misconception("Scale R and γ, then form (R/γ)².", PROOF),
        tolerance(answer, 0.01),
    )


STEPS = (
    Step("Fold the threshold in: z = (x, −√C), v = (w, θ/√C); an update is v ← v + ηyz."),
    Step(
        "Take u, a separating line of length 1, and R = max ‖z_j‖, γ = min y_j⟨u, z_j⟩ > 0.",
        "R and γ are measured on the folded z.",
    ),
    Step(
        "Each update raises ⟨u, v⟩ by at least ηγ and ‖v‖² by at most η²R².",
        "it uses γ and R, and that a mistake means y⟨v, z⟩ ≤ 0.",
    ),
    Step(
        "After k updates from v = 0: kηγ ≤ ⟨u, v_k⟩ ≤ ‖v_k‖ ≤ √k ηR (Cauchy–Schwarz).",
        "it adds up the gains of k updates, one at a time.",
    ),
    Step("So k ≤ (R/γ)².", "it is the conclusion of the chain of inequalities."),
)


PROOF_ORDER = order_exercise(
    "l02-proof-order",
    LESSON,
    "Put the steps of Novikoff's proof in order.",
    STEPS,
    "Fold, define R and γ, bound one update's gain, add up k of them, conclude.",
    PROOF,
)


NO_EXAMPLES = choice_exercise(
    "l02-no-examples",
    LESSON,
    "Why does Novikoff's bound not depend on the number of examples?",
    [
        Option(
            "It counts updates: each one gains ηγ on ⟨u, v⟩ while ‖v‖ grows like √k; "
            "nothing in the argument counts examples"
        ),
        Option(
            "Because the perceptron sees each example only once",
            Misconception(
                "The bound holds over every pass, for every order of the examples: the "
                "figure's run makes 30 passes.",
                "the first paragraph: “however the examples are ordered”",
            ),
        ),
        Option(
            "It does: more examples always mean more updates",
            Misconception(
                "More examples may bring a point nearer the line, and so a smaller γ, but "
                "the bound itself is (R/γ)² alone.",
                PROOF,
            ),
        ),
        Option(
            "Because the data are two-dimensional",
            Misconception(
                "The bound depends on neither the number of examples nor the dimension.",
                "the sentence before the one in bold",
            ),
        ),
    ],
    "The proof bounds ⟨u, v_k⟩ and ‖v_k‖ update by update; R and γ are all it needs.",
)


def most_updates(facts, variant):
    counts = updates_per_value(facts, "margin", GAPS)
    return setting_question(
        "Find the gap (the slider) at which the figure's run makes the most updates, on "
        "this data seed. Set it, press End to count, then check.",
        "margin",
        GAPS,
        counts,
        "max",
        "The bound grows as the gap shrinks; the updates a run needs tend to follow, but "
        "far below the bound and not step by step.",
        {
            "smallest": (
                GAPS[0],
                Misconception(
                    "The smallest gap gives the largest bound, but a run need not use it: on "
                    "this seed another gap needs more updates.",
                    "the first task of “Try this”: the bound is a worst case, not a forecast",
                ),
            ),
        },
        Misconception(
            "Another gap makes more updates: press End and read the box at each.",
            "the box under the figure's panel",
        ),
        written=lambda g: f"{g:g}",
        measured=("Updates per gap", lambda c: f"{c:g}"),
    )


def after_the_last_update(run, data):
    """The last three updates, and visits after the last one (at its end, half way, at the
    run's end); on a run that never stopped, its last visits that change nothing."""
    done = updates(run)
    last = int(done[-1]) if len(done) else 0
    after = spread(range(last + 1, run.timeline.n_events + 1), 3)
    return [*interleave(done[::-1][:3], after), *events(run, CORRECT)[::-1]]


REPLAY = Replay(after_the_last_update, ("outcome", "side"))
PREDICTIONS = replay_exercise(
    "l02-predict",
    LESSON,
    "Predict the figure's last updates and the visits after them: does the perceptron still "
    "update once its line separates the data?",
    REPLAY,
    "Predict steps near the end of the figure's run: its last updates, and visits after the "
    "last one. On separable data the updates stop: Novikoff's theorem allows at most a "
    "bounded number of them, in any order.",
    "Once the line separates the training data, every visit finds y(⟨w,x⟩ − θ) > 0 and "
    "nothing changes any more: the number of updates is finite, at most the bound.",
    {
        "outcome": Misconception(
            "After its last update the line separates the training points: every later visit "
            "is right and changes nothing; before it, a point on the wrong side still updates.",
            "the lesson's first sentence: the perceptron stops updating after finitely many "
            "updates",
        ),
        "side": Misconception(
            "An update moves the line so that the example's score rises by η(‖x‖² + C); it "
            "need not reach the right side, and the other points move with the line: read the "
            "new line in the math panel.",
            PROOF,
        ),
    },
)

EXERCISES = (
    PREDICTIONS,
    Exercise(
        "l02-halved-margin",
        LESSON,
        "number",
        "How many updates does Novikoff's bound allow if the margin is divided by k?",
        halved_margin,
        ("run", "data"),
    ),
    Exercise(
        "l02-scaled-data",
        LESSON,
        "number",
        "What does Novikoff's bound become when every point is scaled?",
        scaled_data,
        ("run", "data"),
    ),
    PROOF_ORDER,
    NO_EXAMPLES,
    Exercise(
        "l02-most-updates",
        LESSON,
        "setting",
        "Find the gap at which the figure's run makes the most updates.",
        most_updates,
        ("run", "request"),
    ),
)
