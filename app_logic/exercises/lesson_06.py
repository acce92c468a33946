"""Lesson 6's exercises: rare positives and uneven margins (Li et al. 2002).

Facts from the page: ``seed``, ``tau_pos`` and ``tau_neg`` (in units of R²), ``rate`` (the
share of positives), ``R2``, ``data`` and ``run`` (PAUM, η = 1, 20 epochs); the research
box's table is the study ``l06_paum``.
"""

from __future__ import annotations

import numpy as np

from perceptron_lab.app_logic.exercises._runs import refit, shown, study
from perceptron_lab.app_logic.exercises.model import (
    Exercise,
    Misconception,
    Option,
    choice_exercise,
    number_question,
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
    visits,
    within,
)
from perceptron_lab.app_logic.timeline import CORRECT, MARGIN, MISTAKE

LESSON = 6
TAU_POS = (0.0, 0.1, 0.25, 0.5, 1.0, 2.0)
RULE = "PAUM's rule: update if y f(x) ≤ τ_y; w ← w + ηyx, b ← b + ηyR²"
COUNTS = "the ranking paragraph: precision and recall at a threshold"


def counts(labels, y) -> tuple[int, int, int, int]:
    """True positives, false positives, false negatives and true negatives."""
    tp = int(np.sum((labels > 0) & (y > 0)))
    fp = int(np.sum((labels > 0) & (y < 0)))
    fn = int(np.sum((labels <= 0) & (y > 0)))
    return tp, fp, fn, len(y) - tp - fp - fn


def final_labels(facts) -> np.ndarray:
    """The final line's labels on the test half, sign f(x) (a score of 0 is negative)."""
    tl, data = facts["run"].timeline, facts["data"]
    return np.where(tl.scores(data.X_test, tl.n_events) > 0, 1, -1)


def precision_recall(facts, variant):
    tp, fp, fn, tn = counts(final_labels(facts), facts["data"].y_test)
    asked = ("recall", "precision")[variant % 2]
    found = tp + fp
    precision = 100 * tp / found if found else 0.0
    recall = 100 * tp / (tp + fn) if tp + fn else 0.0
    answer = recall if asked == "recall" else precision
    other = precision if asked == "recall" else recall
    return number_question(
        f"At the end of training the line calls {found} of the {len(facts['data'].y_test)} "
        f"test points positive; {tp} of them are positive. The test half has {tp + fn} "
        f"positives in all. What is the line's {asked}, in %?",
        answer,
        (
            f"Recall is the share of the positives found: {tp} / {tp + fn} = {answer:.1f} %."
            if asked == "recall"
            else f"Precision is the share of the points called positive that are: {tp} / "
            f"{found} = {answer:.1f} %."
        ),
        {
            "swapped": (
                other,
                Misconception(
                    "Recall divides by the positives there are; precision by the points "
                    "called positive. You computed the other one.",
                    COUNTS,
                ),
            ),
            "accuracy": (
                100 * (tp + tn) / len(facts["data"].y_test),
                Misconception(
                    "That is accuracy, which calling everything negative already makes high "
                    "when positives are rare.",
                    "the first paragraph: accuracy hides this",
                ),
            ),
        },
        Misconception(f"Form the {asked} from the counts given.", COUNTS),
        0.15,
    )


def score_rise(facts, variant):
    tl, data, R2 = facts["run"].timeline, facts["data"], float(facts["R2"])
    updates = np.flatnonzero(tl.before != tl.after)
    i = int(updates[variant % len(updates)])
    j = int(tl.index[i])
    x, y = data.X[j], int(data.y[j])
    sq = float(x @ x)
    answer = sq + R2  # η = 1
    return number_question(
        f"Update {variant % len(updates) + 1} of the figure's run is on x = ({x[0]:.3f}, "
        f"{x[1]:.3f}) with y = {y:+d}; η = 1 and R² = {R2:.4f}. By how much does it raise "
        "the example's y f(x), with f(x) = ⟨w,x⟩ + b?",
        answer,
        f"y(ηy‖x‖² + ηyR²) = η(‖x‖² + R²) = {sq:.4f} + {R2:.4f} = {answer:.4f}: the bias "
        "moves by ηR², as lesson 1's θ moves by ηC.",
        {
            "no bias": (
                sq,
                Misconception("The bias moves too, by ηyR², which adds R² to the change.", RULE),
            ),
            "bias only": (R2, Misconception("w moves too, by ηyx, which adds ‖x‖².", RULE)),
            "minus": (
                sq - R2,
                Misconception("The bias moves towards the example's side: b ← b + ηyR².", RULE),
            ),
        },
        Misconception("Add what w's step and b's step each do to y f(x).", RULE),
        tolerance(answer, 0.01, 0.002),
    )


ACCURACY_HIDES = choice_exercise(
    "l06-accuracy-hides",
    LESSON,
    "Why does the lesson judge the line by recall, precision and MAP rather than accuracy?",
    [
        Option(
            "With rare positives, calling everything negative is already about 95 % right "
            "at 1 : 20, so accuracy hardly moves while recall moves a lot"
        ),
        Option(
            "Accuracy is measured on the training half",
            Misconception(
                "All the figures are on the clean test half; the trouble is the rare class.",
                "the box beside the figure: on the test points",
            ),
        ),
        Option(
            "The margins change accuracy only on the positives",
            Misconception(
                "The margins move the whole line, so every point may change side.",
                "the first question of “Check yourself”",
            ),
        ),
        Option(
            "Accuracy cannot be computed when the margins are uneven",
            Misconception(
                "Prediction is sign f(x) whatever the margins: accuracy can always be "
                "computed; it just says little here.",
                "“the margins act only during training”",
            ),
        ),
    ],
    "Accuracy is dominated by the common class; recall and precision look at the rare one.",
)


def recall_gain(facts, variant):
    table = study(facts, "l06_paum", seed=facts["seed"], rate=facts["rate"])
    rows = table.set_index("learner")
    even = rows.index[0]
    uneven = [name for name in rows.index if name.startswith("PAUM(") and name != even]
    other = uneven[variant % len(uneven)]
    answer = shown(rows.loc[other, "recall"]) - shown(rows.loc[even, "recall"])
    return number_question(
        f"Read the table under “What the research found” (the lab's PAUM study on this "
        f"lesson's clouds). By how many points does recall change from {even} to {other}? "
        "(Negative if it drops.)",
        answer,
        f"{shown(rows.loc[other, 'recall']):.1f} − {shown(rows.loc[even, 'recall']):.1f} = "
        f"{answer:+.1f} points.",
        {
            "precision": (
                shown(rows.loc[other, "precision"]) - shown(rows.loc[even, "precision"]),
                Misconception(
                    "That is the change of precision; the question asks recall.", "the table"
                ),
            ),
            "MAP": (
                shown(rows.loc[other, "MAP"]) - shown(rows.loc[even, "MAP"]),
                Misconception("That is the change of MAP; the question asks recall.", "the table"),
            ),
            "reversed": (
                -answer,
                Misconception(f"From {even} to {other}: the second minus the first.", "the table"),
            ),
        },
        Misconception("Subtract the two rows' recall.", "the table"),
        0.05,
    )


def recall_per_tau(facts) -> list[float]:
    data, run, R2 = facts["data"], facts["run"], float(facts["R2"])
    out = []
    for t in TAU_POS:
        est = refit(run, data, tau_pos=t * R2)
        tp, _, fn, _ = counts(est.predict(data.X_test), data.y_test)
        out.append(tp / (tp + fn) if tp + fn else 0.0)
    return out


def recall_setting(facts, variant):
    recalls = recall_per_tau(facts)
    return setting_question(
        "Find the margin τ₊₁ (the slider) at which the final line finds the most test "
        "positives (the highest recall), with the page's other settings. Set it, then check.",
        "tau_pos",
        TAU_POS,
        recalls,
        "max",
        "Each positive keeps updating until it clears τ₊₁, which pushes the line into the "
        "negatives.",
        {
            "even": (
                0.0,
                Misconception(
                    "τ₊₁ = 0 is the classic perceptron with a bias: the many negatives push "
                    "the line close to the positives, and it misses many of them.",
                    "the first paragraph and the first task of “Try this”",
                ),
            ),
        },
        Misconception(
            "Another τ₊₁ finds more positives: read recall in the box at the end of training.",
            "the box beside the figure",
        ),
        written=lambda t: f"{t:g}",
        measured=("Recall per τ₊₁", lambda r: f"{r:.0%}"),
    )


def uneven(run, data):
    """Visits of the rare positives that update inside their margin or on a mistake, and of
    negatives, taken in turn, after the first epoch (the line is in the view by then)."""
    positive, negative = visits(run, data.y > 0), visits(run, data.y < 0)

    def of(steps, code):
        return within(steps, (run.timeline.kind[0] == code) & after_the_first_epoch(run))

    return [
        *interleave(
            spread(of(positive, MARGIN), 2),
            spread(of(negative, MISTAKE), 1),
            spread(of(positive, MISTAKE), 1),
            spread(of(negative, CORRECT), 2),
            spread(of(negative, MARGIN), 1),
            spread(of(positive, CORRECT), 1),
        ),
        *spread(within(events(run, CORRECT), after_the_first_epoch(run)), 6),
    ]


REPLAY = Replay(uneven, ("outcome", "side"), about=by_event)
PREDICTIONS = replay_exercise(
    "l06-predict",
    LESSON,
    "Predict, at steps of the figure, whether PAUM updates: a rare positive inside its "
    "margin τ₊₁, a negative inside τ₋₁, or neither.",
    REPLAY,
    "Predict at a few steps of the figure what PAUM does with the next example, or where a "
    "point ends after an update. Its margins are uneven: a positive (orange) updates while "
    "y f(x) ≤ τ₊₁, a negative while y f(x) ≤ τ₋₁.",
    "PAUM compares y f(x) with the margin of the example's own class: a large τ₊₁ keeps the "
    "rare positives updating until they are deep inside their side, while τ₋₁ lets the "
    "negatives near the line alone.",
    {
        "outcome margin": Misconception(
            "The margins are uneven: a positive updates while y f(x) ≤ τ₊₁ even on the right "
            "side, a negative only while y f(x) ≤ τ₋₁.",
            RULE,
        ),
        "outcome correct": Misconception(
            "Beyond its own class's margin an example changes nothing: y f(x) > τ_y.",
            RULE,
        ),
        "outcome mistake": Misconception(
            "On the wrong side, y f(x) ≤ 0, an example is a mistake and updates, whatever "
            "its class's margin.",
            RULE,
        ),
        "side": Misconception(
            "An update moves w by ηyx and b by ηyR²: R² is large, so the line shifts far "
            "towards the example's side; read the new line in the math panel.",
            RULE,
        ),
    },
)

EXERCISES = (
    PREDICTIONS,
    Exercise(
        "l06-precision-recall",
        LESSON,
        "number",
        "What are the final line's recall and precision on the test half, from its counts?",
        precision_recall,
        ("run", "data"),
    ),
    Exercise(
        "l06-score-rise",
        LESSON,
        "number",
        "By how much does a PAUM update raise its example's y f(x)?",
        score_rise,
        ("run", "data"),
    ),
    ACCURACY_HIDES,
    Exercise(
        "l06-recall-gain",
        LESSON,
        "table",
        "Read the lab's PAUM study: how does recall change from even to uneven margins?",
        recall_gain,
        form="number",
    ),
    Exercise(
        "l06-recall-setting",
        LESSON,
        "setting",
        "Find the margin τ₊₁ at which the final line finds the most test positives.",
        recall_setting,
        ("run", "data"),
    ),
)
