"""Lesson 10's exercises: parallel perceptrons, their noise flags and NR boosting (Cantador &
Dorronsoro 2005, sections 1-3 and Table 1).

Facts from the page: ``seed``, ``noise`` (flipped training labels), ``H`` (committee size),
``data`` and ``run`` (the committee); the boosting rounds are the study ``l10_boosting`` and
the research box's table the study ``l10_nr``, the lab's reproduction of Cantador &
Dorronsoro's Table 1.
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
    interleave,
    replay_exercise,
    visits,
)

LESSON = 10
COMMITTEES = (1, 3, 5, 7)
REWEIGHT = "the re-weighting formula d_{t+1}(x) ∝ d_t(x) e^{−α_t r(x) y h_t(x)} in section 3"
FLAGS = "the box beside the figure: precision and recall of the noisy flag"
#: (booster, category, y h_t(x)) in the variants of "l10-reweight".
CASES = (
    ("NR boosting", "noisy", -1),
    ("AdaBoost", "misclassified", -1),
    ("NR boosting", "safe", 1),
    ("NR boosting", "borderline", -1),
)


def first_alpha(facts) -> tuple[int, float]:
    rounds = study(facts, "l10_boosting", H=facts["H"], noise=facts["noise"], seed=facts["seed"])
    first = rounds[(rounds["booster"] == "AdaBoost") & rounds["kept"]].iloc[0]
    return int(first["round t"]), float(first["α_t"])


def reweight(facts, variant):
    t, alpha = first_alpha(facts)
    booster, category, margin = CASES[variant % len(CASES)]
    r = 1 if booster == "AdaBoost" else (0 if category == "borderline" else -1)
    answer = float(np.exp(-alpha * r * margin))
    described = (
        f"a {category} pattern ({'right' if margin > 0 else 'wrong'}: y h_t(x) = {margin:+d})"
    )
    return number_question(
        f"Round {t} of AdaBoost on screen gave its committee the vote α_t = {alpha:.4f}. Take "
        f"the same α_t in {booster}: by what factor does it multiply the weight d_t(x) of "
        f"{described}, before the weights are normalised?",
        answer,
        f"e^(−α_t r y h_t) with r = {r:+d}: e^({-alpha * r * margin:+.4f}) = {answer:.4g}.",
        {
            "AdaBoost's": (
                float(np.exp(alpha * -margin)),
                Misconception(
                    "That is AdaBoost's factor (r = 1); NR boosting sets r = −1 for safe and "
                    "noisy patterns and 0 for borderline ones.",
                    REWEIGHT,
                ),
            ),
            "sign": (
                1 / answer,
                Misconception("The exponent is −α_t r y h_t(x): mind its sign.", REWEIGHT),
            ),
            "no change": (
                1.0,
                Misconception(
                    "Only a borderline pattern in NR boosting keeps its weight.", REWEIGHT
                ),
            ),
        },
        Misconception("Work out e^(−α_t r(x) y h_t(x)).", REWEIGHT),
        tolerance(answer, 0.01),
    )


def flag_numbers(facts, variant):
    data, est = facts["data"], facts["run"].estimator
    flagged = est.categorize(data.X, data.y) == "noisy"
    flipped = np.asarray(data.flipped, dtype=bool)
    F, Z, hit = int(flagged.sum()), int(flipped.sum()), int((flagged & flipped).sum())
    given = (
        f"At the end of training the committee flags {F} training patterns noisy; the lesson "
        f"flipped {Z} labels, and {hit} of the flipped ones carry a flag."
    )
    if F and (variant % 2 == 0 or not Z):
        answer, asked = 100 * hit / F, "precision (the share of the flags that are real flips)"
        other = 100 * hit / Z if Z else 100.0
    elif Z:
        answer, asked = 100 * hit / Z, "recall (the share of the flips that got a flag)"
        other = 100 * hit / F if F else 100.0
    else:
        answer, asked, other = 0.0, "number of false alarms (flags on labels not flipped)", 1.0
    return number_question(
        given + f" What is the flag's {asked}" + (", in %?" if F or Z else "?"),
        answer,
        f"{answer:.1f}" + (" %" if F or Z else "") + ".",
        {
            "swapped": (
                other,
                Misconception(
                    "Precision divides by the flags raised, recall by the flips there are.",
                    FLAGS,
                ),
            ),
        },
        Misconception("Divide the flags that are right by the right total.", FLAGS),
        0.15,
    )


NR_IDEA = choice_exercise(
    "l10-nr-idea",
    LESSON,
    "With flipped labels, why is NR boosting more robust than AdaBoost?",
    [
        Option(
            "AdaBoost raises the weight of every misclassified pattern, flipped ones again "
            "and again; NR lowers the weight of the patterns the committee calls noisy"
        ),
        Option(
            "NR boosting knows which labels were flipped",
            Misconception(
                "It guesses them from the committee's activation margins: a majority "
                "with y act_i < −ρ.",
                "the categories safe, noisy and borderline in section 1",
            ),
        ),
        Option(
            "NR boosting removes the noisy patterns from the data",
            Misconception(
                "It keeps every pattern and lowers the noisy ones' weights (r = −1).",
                REWEIGHT,
            ),
        ),
        Option(
            "NR boosting trains larger committees",
            Misconception(
                "Both boost committees like the figure's, of the same size H.",
                "the charts' caption in section 3",
            ),
        ),
    ],
    "Cantador & Dorronsoro set r = −1 for noisy patterns, so boosting stops chasing them.",
)


def table_gain(facts, variant):
    table = study(facts, "l10_nr", seed=facts["seed"])
    noisy = table[table["label noise"] != table["label noise"].iloc[0]].reset_index(drop=True)
    row = noisy.iloc[(len(noisy) - 1 - variant) % len(noisy)]  # the most noise first
    answer = shown(row["NR boosting"]) - shown(row["PP boosting"])
    return number_question(
        "Cantador & Dorronsoro's Table 1 compares the ensembles of parallel perceptrons on "
        "data with flipped labels. Read the lab's reproduction under “What the research "
        f"found”: at {row['label noise']} label noise, by how many points is NR boosting more "
        "accurate than AdaBoost of the same committees (PP boosting)?",
        answer,
        f"{shown(row['NR boosting']):.1f} − {shown(row['PP boosting']):.1f} = {answer:+.1f}.",
        {
            "bagging": (
                shown(row["NR boosting"]) - shown(row["PP bagging"]),
                Misconception(
                    "That compares with bagging; the question asks AdaBoost.", "the table"
                ),
            ),
            "reversed": (-answer, Misconception("NR boosting minus PP boosting.", "the table")),
            "single": (
                shown(row["NR boosting"]) - shown(row["PP"]),
                Misconception("That compares with one committee (PP).", "the table"),
            ),
        },
        Misconception(
            "Subtract the column PP boosting from NR boosting, in that row.", "the table"
        ),
        0.05,
    )


def precision_per_size(facts) -> list[float]:
    data, run = facts["data"], facts["run"]
    flipped = np.asarray(data.flipped, dtype=bool)
    out = []
    for H in COMMITTEES:
        flagged = refit(run, data, n_perceptrons=H).categorize(data.X, data.y) == "noisy"
        out.append(float((flagged & flipped).sum() / flagged.sum()) if flagged.any() else 0.0)
    return out


def size_setting(facts, variant):
    precisions = precision_per_size(facts)
    return setting_question(
        "Find the committee size H (the slider) at which the most precise noisy flags are "
        "raised (the largest share of flags on flipped labels; no flag counts as 0). Set it, "
        "then check.",
        "H",
        COMMITTEES,
        precisions,
        "max",
        "",
        {
            "largest": (
                COMMITTEES[-1],
                Misconception(
                    "A larger committee is not always more precise: its categories need a "
                    "larger majority.",
                    "the third task of “Try this”",
                ),
            ),
        },
        Misconception(
            "Another committee size flags more precisely: read the box at the end of training.",
            FLAGS,
        ),
        measured=("Flag precision per H", lambda p: f"{p:.0%}"),
    )


def first_epoch_flips(run, data):
    """Visits of the first epoch, the flipped labels first, then the others, taken in turn."""
    return interleave(visits(run, data.flipped), visits(run, ~np.asarray(data.flipped, bool)))


#: With a committee of one, its vote and marks are one perceptron's: the figure asks what it
#: does with the example instead.
REPLAY = Replay(first_epoch_flips, ("vote", "noisy", "outcome"))
PREDICTIONS = replay_exercise(
    "l10-predict",
    LESSON,
    "Predict the committee's vote on an example, and how it will mark the example once "
    "trained: safe, borderline or noisy.",
    REPLAY,
    "Predict at a few steps of the figure whether the committee's majority vote on the next "
    "example is right, or how the trained committee marks it: noisy when most members put "
    "it beyond the margin ρ on the wrong side. A flipped label is marked ×.",
    "The committee votes by the majority of its members' signs, and after training marks an "
    "example by its members' margins: a flipped label, on the wrong side of the true line, "
    "is most often far on the wrong side of most members, and is marked noisy.",
    {
        "vote": Misconception(
            "The committee's vote is the majority of its members' signs, compared with the "
            "example's label: a flipped label (×) makes a right majority look wrong.",
            "the vote h(x) = sign(Σ sign act_i(x)) under the lesson's first paragraph",
        ),
        "noisy": Misconception(
            "The marks come from the members' margins after training: noisy when most have "
            "y act_i < −ρ, safe when most have y act_i > ρ, borderline otherwise.",
            "the three marks safe, noisy and borderline under the committee's vote",
        ),
        "outcome": Misconception(
            "With H = 1 the committee is one perceptron trained by the p-delta rule: a step "
            "when it is wrong, or right with y·act inside the margin ρ (summed over the "
            "epoch, applied at its end); nothing when it clears ρ.",
            "the p-delta rule's two cases under “Training the committee: batch p-delta”",
        ),
    },
)

EXERCISES = (
    PREDICTIONS,
    Exercise(
        "l10-reweight",
        LESSON,
        "number",
        "By what factor does a boosting round multiply a pattern's weight?",
        reweight,
        ("data",),
    ),
    Exercise(
        "l10-flag-numbers",
        LESSON,
        "number",
        "What are the noisy flag's precision and recall, from the figure's counts?",
        flag_numbers,
        ("run", "data"),
    ),
    NR_IDEA,
    Exercise(
        "l10-table-gain",
        LESSON,
        "table",
        "Read the reproduction of Cantador & Dorronsoro's Table 1: how far is NR boosting "
        "ahead of AdaBoost at a noise level?",
        table_gain,
        form="number",
    ),
    Exercise(
        "l10-size-setting",
        LESSON,
        "setting",
        "Find the committee size whose noisy flags are the most precise.",
        size_setting,
        ("run", "data"),
    ),
)
