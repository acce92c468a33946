"""Lesson 11's exercises: choosing parameters honestly (Khardon & Wachman 2007, section 3:
parameter search, parameter optimisation and the t-interval).

Facts from the page: ``seed``, ``test_share``, ``k`` (folds) and ``estimates``, the study
the chart and the research box show (:func:`app_logic.studies_honest.estimates`).
"""

from __future__ import annotations

import numpy as np

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
)
from perceptron_lab.app_logic.exercises.replay import (
    Replay,
    by_event,
    events,
    interleave,
    last_epoch,
    replay_exercise,
    spread,
    visits,
    within,
)
from perceptron_lab.app_logic.studies_honest import TAUS
from perceptron_lab.app_logic.timeline import CORRECT, MARGIN, MISTAKE

LESSON = 11
INTERVAL = "the t-interval's formula, Khardon & Wachman's"
DOUBLE = "the paragraph on double cross-validation"


def t_quantile(k: int) -> float:
    """``t_{k-1, 0.975}``, the factor of the 95 % t-interval of ``k`` values."""
    from scipy.stats import t as student_t

    return float(student_t.ppf(0.975, k - 1))


def half_width(facts, variant):
    name = ("cv_folds", "double_folds")[variant % 2]
    folds = np.asarray(facts["estimates"][name], dtype=float)
    k = len(folds)
    s = float(folds.std(ddof=1))
    t = t_quantile(k)
    answer = 100 * t * s / np.sqrt(k)
    what = "cross-validation with τ = 0.5" if name == "cv_folds" else "double cross-validation"
    return number_question(
        f"The {k} fold accuracies of {what} (the chart's dots) have standard deviation "
        f"s = √(Σ(y_i − ȳ)²/(k − 1)) = {100 * s:.2f} points; t_{{{k - 1}, 0.975}} = {t:.3f}. "
        "What is the half-width of the 95 % t-interval, in points?",
        answer,
        f"t × s/√k = {t:.3f} × {100 * s:.2f} / √{k} = {answer:.2f} points: the formula's "
        "square root is s/√k.",
        {
            "normal": (
                100 * 1.96 * s / np.sqrt(k),
                Misconception(
                    f"With k = {k} values the factor is Student's t with k − 1 degrees of "
                    "freedom, not the normal 1.96.",
                    INTERVAL,
                ),
            ),
            "no root": (
                100 * t * s,
                Misconception("The spread of a mean shrinks with √k: divide s by √k.", INTERVAL),
            ),
            "k minus 1": (
                100 * t * s / np.sqrt(k - 1),
                Misconception(
                    "s already divides by k − 1; the mean's spread divides by √k.", INTERVAL
                ),
            ),
        },
        Misconception("Compute t × s / √k.", INTERVAL),
        0.05,
    )


def double_count(facts, variant):
    k = int(facts["k"])
    G = len(TAUS)
    inner = (k, 5, 3)[variant % 3]
    answer = k * (inner * G + 1)
    return number_question(
        f"Double cross-validation with k = {k} outer folds, {inner} inner folds on each outer "
        f"training part and the grid of G = {G} values of τ: how many times is the perceptron "
        "trained in all?",
        answer,
        f"Each outer fold trains {inner} × {G} inner runs to choose τ, then once more with "
        f"it: {k} × ({inner} × {G} + 1) = {answer}.",
        {
            "no retrain": (
                k * inner * G,
                Misconception(
                    "After choosing τ, each outer fold retrains on its whole training part "
                    "with it before testing.",
                    DOUBLE,
                ),
            ),
            "no inner": (
                k * G,
                Misconception(
                    "τ is chosen by an inner cross-validation: it has folds of its own.", DOUBLE
                ),
            ),
            "search": (
                k * G + k,
                Misconception("The inner folds multiply the grid.", DOUBLE),
            ),
        },
        Misconception("Count the inner runs per outer fold, plus the retraining.", DOUBLE),
        0.5,
    )


OPTIMISTIC = choice_exercise(
    "l11-optimistic",
    LESSON,
    "Why is the parameter search's best cross-validated accuracy (the red ×) optimistic?",
    [
        Option(
            "The same test folds choose τ and score it: the best of several noisy "
            "estimates is partly the luckiest"
        ),
        Option(
            "It trains on more examples than the other estimates",
            Misconception(
                "It trains on the same folds as cross-validation with a fixed τ; the "
                "trouble is choosing on the folds that score.",
                "the paragraph that introduces k-fold cross-validation",
            ),
        ),
        Option(
            "Cross-validation always overestimates accuracy",
            Misconception(
                "With a fixed τ each fold's model is tested on examples it never saw; "
                "averaged over data draws the truth even sits a little to the right.",
                "the paragraph “In the chart”",
            ),
        ),
        Option(
            "τ = 0.5 is a poor setting",
            Misconception("The bias comes from the choice, whatever the grid.", DOUBLE),
        ),
    ],
    "Choosing the value that did best on the test part, then reporting that accuracy, is "
    "selection; double cross-validation chooses inside.",
)


STEPS = (
    Step("Split the data into k outer folds."),
    Step(
        "On each outer training part, choose τ by an inner cross-validation.",
        "the inner cross-validation runs on an outer training part.",
    ),
    Step(
        "Retrain on the whole outer training part with the chosen τ.",
        "it uses the τ the inner cross-validation chose.",
    ),
    Step("Test that model on the outer fold left out.", "it tests the retrained model."),
    Step(
        "Average the k outer accuracies, with their t-interval.",
        "it needs every outer fold's accuracy.",
    ),
)


DOUBLE_ORDER = order_exercise(
    "l11-double-order",
    LESSON,
    "Put the steps of double cross-validation in order.",
    STEPS,
    "Outer folds, inner choice, retraining, outer test, average.",
    DOUBLE,
)


def closest(facts, variant):
    est = facts["estimates"]
    truth = float(est["fresh_chosen"])
    candidates = {
        "the parameter search's best (red ×)": float(est["search_best"]),
        "the mean of double cross-validation": float(np.mean(est["double_folds"])),
        "the mean of single splits with the best τ on their own test part": float(
            np.mean(est["single_best"])
        ),
        "the mean of cross-validation with τ = 0.5": float(np.mean(est["cv_folds"])),
    }
    gaps = {name: abs(value - truth) for name, value in candidates.items()}
    nearest = min(gaps, key=gaps.get)
    why_not = dict(
        zip(
            candidates,
            (
                "The parameter search chooses τ on the folds that score it: a selection, "
                "which tends to sit high.",
                "Double cross-validation estimates the whole recipe, choice included, but on "
                "one draw of the data another estimate can happen to sit nearer.",
                "Choosing τ on each split's own test part is a selection too, and one split "
                "is a small sample.",
                "That estimates τ = 0.5, not the τ cross-validation picks.",
            ),
            strict=True,
        )
    )
    options = [
        Option(f"{name}: {100 * value:.1f} %")
        if gaps[name] - gaps[nearest] <= 1e-12
        else Option(
            f"{name}: {100 * value:.1f} %",
            Misconception(
                f"{why_not[name]} It is {100 * gaps[name]:.1f} points from the truth.",
                "the research box's table and the paragraph “In the chart”",
            ),
        )
        for name, value in candidates.items()
    ]
    return choice_question(
        "Read the research box's table. Which estimate lies closest to the truth for the τ "
        f"cross-validation picks (accuracy on 5,000 fresh examples, {100 * truth:.1f} %)?",
        options,
        f"Nearest: {nearest}, {100 * gaps[nearest]:.1f} points from the truth. Choosing τ on "
        "the folds that score it is selection; double cross-validation chooses inside.",
        rng(facts["seed"], "l11-closest", variant),
    )


def last_pass(run, data):
    """The last epoch's visits: flipped labels, updates inside the band, mistakes and visits
    that change nothing, taken in turn; then the last epoch's first visits."""
    last = last_epoch(run)
    return [
        *interleave(
            spread(within(visits(run, data.flipped), last), 2),
            spread(within(events(run, MARGIN), last), 2),
            spread(within(events(run, CORRECT), last), 2),
            spread(within(events(run, MISTAKE), last), 2),
        ),
        *(np.flatnonzero(last) + 1),
    ]


REPLAY = Replay(last_pass, ("outcome",), about=by_event)
PREDICTIONS = replay_exercise(
    "l11-predict",
    LESSON,
    "Predict, in the last pass of the run at the τ cross-validation picks, what the "
    "perceptron with margin does with a training example.",
    REPLAY,
    "Predict at a few steps of the run's last pass over its 300 training examples what the "
    "perceptron with margin does with the next one: a mistake, an update inside its band, or "
    "nothing. A label the generator flipped is marked ×.",
    "After 99 passes the run still updates: on examples whose label was flipped, which no "
    "line near the true one gets right, and on examples inside its band. Its accuracy on "
    "the data it trained on is no estimate of its accuracy on fresh data.",
    {
        "outcome mistake": Misconception(
            "A flipped label sits on the wrong side of any line near the true one: it is "
            "still a mistake after 99 passes.",
            "the chart's dashed line: the accuracy this run reaches on fresh examples",
        ),
        "outcome margin": Misconception(
            "With τ above 0 an example on the right side but inside the band, "
            "y(⟨w,x⟩ − θ) ≤ τθ_init, still updates.",
            "lesson 5's rule, the perceptron with margin",
        ),
        "outcome correct": Misconception(
            "Most examples are outside the band by the last pass: they change nothing.",
            "lesson 5's rule, the perceptron with margin",
        ),
    },
)

EXERCISES = (
    PREDICTIONS,
    Exercise(
        "l11-half-width",
        LESSON,
        "number",
        "What is the half-width of the 95 % t-interval of the fold accuracies?",
        half_width,
        ("estimates",),
    ),
    Exercise(
        "l11-double-count",
        LESSON,
        "number",
        "How many trainings does double cross-validation take?",
        double_count,
    ),
    OPTIMISTIC,
    DOUBLE_ORDER,
    Exercise(
        "l11-closest",
        LESSON,
        "table",
        "Read the research box's table: which estimate lies closest to the truth?",
        closest,
        ("estimates",),
        form="choice",
    ),
)
