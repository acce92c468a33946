"""Lesson 4's exercises: from on-line to batch (Freund & Schapire 1999; Khardon & Wachman
2007, section 3).

Facts from the page: ``seed``, ``noise`` (flipped training labels), ``request``, ``data``
and ``run`` (KW's perceptron with its switches off, 20 epochs); the research box's table is
the study ``l04_predictors`` (:mod:`app_logic.studies_basics`).
"""

from __future__ import annotations

import numpy as np

from perceptron_lab.app_logic.exercises._runs import (
    dataset,
    refit,
    shown,
    study,
    test_accuracy,
    with_noise,
)
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
from perceptron_lab.app_logic.exercises.replay import Replay, replay_exercise, spread, updates

LESSON = 4
NOISES = (0.0, 0.05, 0.1, 0.15, 0.2, 0.3)
FORMULAS = "the four predictors' formulas at the top of the lesson"


def top_voted(facts, variant: int):
    """The three hypotheses with the most votes at the end of the run (the figure's darkest
    grey lines), and a test point picked by the variant."""
    tl, data = facts["run"].timeline, facts["data"]
    votes = tl.votes(tl.n_events)[1:]  # row 0, the start, never votes
    rows = np.argsort(-votes, kind="stable")[:3] + 1
    x = data.X_test[variant % len(data.X_test)]
    W, theta = tl.W[0][rows], tl.theta[0][rows]
    return votes[rows - 1], W @ x - theta, x


def averaged_score(facts, variant):
    c, f, x = top_voted(facts, variant)
    answer = float(c @ f / c.sum())
    listed = "; ".join(f"c = {int(ck)}, score {fk:+.4f}" for ck, fk in zip(c, f, strict=True))
    return number_question(
        f"Keep only the three hypotheses with the most votes at the end of the run (the "
        f"darkest grey lines). At the test point x = ({x[0]:.3f}, {x[1]:.3f}) their votes and "
        f"scores ⟨w_k, x⟩ − θ_k are: {listed}. What is the score ⟨w̄, x⟩ − θ̄ of the averaged "
        "hypothesis of these three?",
        answer,
        "w̄ and θ̄ are vote-weighted means, and the score is linear in (w, θ), so it is the "
        f"vote-weighted mean of the scores: Σ c_k s_k / Σ c_k = {answer:+.4f}.",
        {
            "unweighted": (
                float(f.mean()),
                Misconception(
                    "Each hypothesis counts with its votes c_k, not once.",
                    "the averaged predictor's formula, w̄ = Σ c_k w_k / Σ c_k",
                ),
            ),
            "not divided": (
                float(c @ f),
                Misconception("The sum is divided by Σ c_k: w̄ is a mean.", FORMULAS),
            ),
            "voted sum": (
                float(c @ np.sign(f)),
                Misconception(
                    "That is the voted perceptron's sum of signs; averaging adds the scores.",
                    FORMULAS,
                ),
            ),
        },
        Misconception("Weigh each score by its votes and divide by the total.", FORMULAS),
        tolerance(answer, 0.01, 0.002),
    )


STEADY = choice_exercise(
    "l04-steady",
    LESSON,
    "On noisy data the last line jumps at every update while the voted and averaged "
    "predictors hardly move. Why?",
    [
        Option(
            "A hypothesis made right after a noisy example is soon replaced, so it "
            "collects few votes and weighs little"
        ),
        Option(
            "They skip the flipped examples",
            Misconception(
                "No learner knows which labels are flipped; every example is visited "
                "and counts alike.",
                "the × marks: they are drawn for you, not given to the learner",
            ),
        ),
        Option(
            "They use a smaller learning rate",
            Misconception(
                "One run gives all four predictors: the same updates, only combined differently.",
                "“One run gives four predictors”",
            ),
        ),
        Option(
            "They are trained on the clean test half",
            Misconception(
                "The test half is never trained on; it only measures.",
                "“In the figure” under the formulas",
            ),
        ),
    ],
    "Votes are how long a hypothesis survived: long-lived ones dominate both the vote and "
    "the average.",
)


STEPS = (
    Step("Run the perceptron and count each hypothesis's votes c_k: its correct predictions."),
    Step(
        "Weigh each hypothesis by its votes: Σ c_k w_k and Σ c_k θ_k.",
        "the weights c_k are the votes counted first.",
    ),
    Step("Divide by Σ c_k: that gives w̄ and θ̄.", "it divides the weighted sums."),
    Step("Score the new point: ⟨w̄, x⟩ − θ̄.", "it needs w̄ and θ̄."),
    Step("Predict the sign of that score.", "it is the sign of the score."),
)


AVERAGED_ORDER = order_exercise(
    "l04-averaged-order",
    LESSON,
    "Put in order the steps of the averaged perceptron's prediction for a new point.",
    STEPS,
    "Votes, weighted sums, the means w̄ and θ̄, the score, its sign.",
    "the averaged predictor's formula at the top of the lesson",
)


def table_gap(facts, variant):
    table = study(facts, "l04_predictors", seed=facts["seed"])
    noisy = table[table["label noise N"] > 0].reset_index(drop=True)
    row = noisy.iloc[variant % len(noisy)]
    N = float(row["label noise N"])
    answer = shown(row["averaged"]) - shown(row["last"])
    return number_question(
        f"Read the table under “What the research found”, the lab's reproduction of Khardon "
        f"& Wachman's comparison. At label noise N = {N:g}, by how many points (in %) is the "
        "averaged predictor more accurate than the last hypothesis? (Negative if it is less.)",
        answer,
        f"{shown(row['averaged']):.1f} − {shown(row['last']):.1f} = {answer:+.1f} points.",
        {
            "reversed": (
                -answer,
                Misconception(
                    "Averaged minus last: positive when the averaged predictor is ahead.",
                    "the table's columns averaged and last",
                ),
            ),
            "voted": (
                shown(row["voted"]) - shown(row["last"]),
                Misconception(
                    "That is the voted column; the question asks for averaged.", "the table"
                ),
            ),
            "longest": (
                shown(row["longest"]) - shown(row["last"]),
                Misconception("That is the longest survivor's column.", "the table"),
            ),
        },
        Misconception("Subtract the table's last from its averaged, in that row.", "the table"),
        0.05,
    )


def gaps_per_noise(facts) -> list[float]:
    """Test accuracy of the averaged predictor minus the last hypothesis's, at every noise
    level of the slider (the figure's data seed and learner)."""
    gaps = []
    for rate in NOISES:
        data = dataset(with_noise(facts["request"], rate))
        est = refit(facts["run"], data)
        gaps.append(test_accuracy(est, data, "averaged") - test_accuracy(est, data, "last"))
    return gaps


def noise_setting(facts, variant):
    gaps = gaps_per_noise(facts)
    return setting_question(
        "Find the share of flipped training labels (the slider) at which the last hypothesis "
        "falls furthest behind the averaged predictor on the test half, on this data seed. "
        "Set it, then check.",
        "noise",
        NOISES,
        gaps,
        "max",
        "Votes weigh the long-lived hypotheses; how much that gains depends on the noise.",
        {
            "clean": (
                0.0,
                Misconception(
                    "On separable data the updates stop, and the last line collects every "
                    "later vote: there is little for averaging to fix.",
                    "the second task of “Try this”",
                ),
            ),
        },
        Misconception(
            "Another share of flipped labels opens a wider gap: read the table under the "
            "panel at the end of training.",
            "the table of the four predictors beside the figure",
        ),
        written=lambda n: f"{n:.0%}",
        measured=("Averaged minus last, in points", lambda g: f"{100 * g:+.1f}"),
    )


def late_updates(run, data):
    """Updates of the run's second half, spread; then its other updates, from the last back
    (a run with few updates)."""
    done = updates(run)
    late = done[done > run.timeline.n_events // 2]
    return [*spread(late, 6), *done[::-1]]


REPLAY = Replay(late_updates, ("predictor", "side"))
PREDICTIONS = replay_exercise(
    "l04-predict",
    LESSON,
    "Predict what the voted and averaged predictors, and the last line, say at a point after "
    "an update late in training.",
    REPLAY,
    "Predict at updates late in the figure's run: what the voted or averaged predictor says "
    "at a point after the step, or on which side of the last line a point ends. The last line "
    "jumps at every update; the other two weigh every hypothesis by its votes.",
    "An update adds one hypothesis with no votes yet: the voted and averaged predictors, "
    "sums over every hypothesis weighted by its votes, hardly move, while the last line jumps.",
    {
        "predictor": Misconception(
            "The voted and averaged predictors weigh every hypothesis by its votes (correct "
            "predictions while it stood): one update adds a hypothesis with no votes, so "
            "they keep what they said before it.",
            FORMULAS,
        ),
        "side": Misconception(
            "The last line is the latest hypothesis alone: an update moves it by ηyx at once, "
            "so a point near it may change side.",
            FORMULAS,
        ),
    },
)

EXERCISES = (
    PREDICTIONS,
    Exercise(
        "l04-averaged-score",
        LESSON,
        "number",
        "What is the averaged hypothesis's score at a test point, from three hypotheses' votes "
        "and scores?",
        averaged_score,
        ("run", "data"),
    ),
    STEADY,
    AVERAGED_ORDER,
    Exercise(
        "l04-table-gap",
        LESSON,
        "table",
        "Read the reproduction of Khardon & Wachman's comparison: how far is the averaged "
        "predictor ahead of the last hypothesis at a noise level?",
        table_gap,
        form="number",
    ),
    Exercise(
        "l04-noise-setting",
        LESSON,
        "setting",
        "Find the share of flipped labels at which the last hypothesis falls furthest behind "
        "the averaged predictor.",
        noise_setting,
        ("run", "request"),
    ),
)
