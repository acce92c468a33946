"""Lesson 9's exercises: Winnow against the perceptron (the course notes on on-line
learning, section 2.1; Littlestone's Winnow as the lesson states it).

Facts from the page: ``seed``, ``k`` (relevant features), ``m`` (examples in the pass),
``side`` (``"winnow"`` or ``"perceptron"``) and ``table``, the study the chart and the
sentence under it show (mistakes of one pass against n).
"""

from __future__ import annotations

import numpy as np

from perceptron_lab.app_logic.exercises._runs import shown
from perceptron_lab.app_logic.exercises.model import (
    Exercise,
    Misconception,
    Option,
    Step,
    choice_exercise,
    number_question,
    order_exercise,
)
from perceptron_lab.app_logic.exercises.replay import (
    Replay,
    events,
    replay_exercise,
    updates,
)
from perceptron_lab.app_logic.timeline import CORRECT

LESSON = 9
BOUND = "Winnow's bound 2 + 3k(1 + log₂n) in the lesson's formula"
NUMERATORS = "the numerators under “The other side: few active features”"
#: (n before, doublings) in the variants of "l09-bound-growth".
GROWTHS = ((64, 1), (16, 3), (128, 2), (32, 5))
#: n in the variants of "l09-winnow-numerator".
NUMERATOR_NS = (255, 1023, 63, 511)


def bound(k: int, n: float) -> float:
    return 2 + 3 * k * (1 + np.log2(n))


def bound_growth(facts, variant):
    k = int(facts["k"]) if facts["side"] == "winnow" else 3
    n, doublings = GROWTHS[variant % len(GROWTHS)]
    n2 = n * 2**doublings
    answer = bound(k, n2) - bound(k, n)
    return number_question(
        f"With k = {k} relevant features, by how many mistakes does Winnow's bound "
        f"2 + 3k(1 + log₂n) grow when n goes from {n} to {n2}?",
        answer,
        f"log₂ grows by {doublings} (n doubles {doublings} times), so the bound grows by "
        f"3k × {doublings} = {answer:g}: a constant per doubling, whatever n.",
        {
            "like n": (
                bound(k, n) * (2**doublings - 1),
                Misconception(
                    "The bound grows with log₂n, not with n: a doubling adds a constant.",
                    BOUND,
                ),
            ),
            "natural log": (
                3 * k * doublings * np.log(2),
                Misconception("The bound's logarithm is to base 2.", BOUND),
            ),
            "no k": (
                3.0 * doublings,
                Misconception("Each relevant weight needs its own doublings: keep the k.", BOUND),
            ),
        },
        Misconception("Subtract the bound at the first n from the bound at the second.", BOUND),
        0.05,
    )


def winnow_numerator(facts, variant):
    k = int(facts["k"]) if facts["side"] == "winnow" else 3
    n = NUMERATOR_NS[variant % len(NUMERATOR_NS)]
    answer = 2 * np.log(n + 1) * (k + 0.5) ** 2
    return number_question(
        f"The course notes' bound for Winnow, with the disjunction's threshold folded in as "
        f"an extra feature: its numerator is 2 ln(n + 1)(k + ½)². What is it for n = {n} "
        f"features and k = {k}?",
        answer,
        f"2 × ln({n + 1}) × ({k} + ½)² = {answer:.4g}.",
        {
            "base 2": (
                2 * np.log2(n + 1) * (k + 0.5) ** 2,
                Misconception("The notes' bound has the natural logarithm, ln.", NUMERATORS),
            ),
            "not squared": (
                2 * np.log(n + 1) * (k + 0.5),
                Misconception("‖u‖₁ = k + ½ enters squared.", NUMERATORS),
            ),
            "no fold": (
                2 * np.log(n) * k**2,
                Misconception(
                    "The folded threshold adds a feature (n + 1) and ½ to ‖u‖₁ (k + ½).",
                    NUMERATORS,
                ),
            ),
        },
        Misconception("Compute 2 ln(n + 1)(k + ½)².", NUMERATORS),
        max(0.01 * answer, 0.01),
    )


MULTIPLICATIVE = choice_exercise(
    "l09-multiplicative",
    LESSON,
    "With k fixed, Winnow's mistakes grow only by a constant each time n doubles, while "
    "the perceptron's multiply. Why?",
    [
        Option(
            "A relevant weight needs only about log₂n doublings to reach θ = n, and each "
            "false alarm halves many irrelevant weights at once"
        ),
        Option(
            "Winnow ignores the irrelevant features from the start",
            Misconception(
                "Every weight starts at 1: Winnow learns which features to ignore, by "
                "halving them on false alarms.",
                "the sentence before Winnow's rule: it starts every weight at 1",
            ),
        ),
        Option(
            "The perceptron updates only the relevant features",
            Misconception(
                "Both update every active feature of the example; the perceptron adds to "
                "each, so irrelevant ones grow too.",
                "the two update rules side by side",
            ),
        ),
        Option(
            "Winnow sees fewer examples",
            Misconception(
                "Both make one on-line pass over the same m examples.", "the chart's caption"
            ),
        ),
    ],
    "Multiplying reaches the threshold in log₂n steps; adding needs steps that grow with "
    "n, because R² counts the active features.",
)


def table_gap(facts, variant):
    table = facts["table"]
    ns = [int(n) for n in table["n features"]]
    n = ns[(len(ns) - 1 - variant) % len(ns)]  # the largest n first
    row = table[table["n features"] == n].iloc[0]
    winnow, perceptron = shown(row["Winnow mistakes"]), shown(row["Perceptron mistakes"])
    answer = perceptron - winnow
    return number_question(
        "Read the chart's numbers (its table “The numbers” under it): at n = "
        f"{n}, how many more mistakes does the perceptron make than Winnow in the pass? "
        "(Negative if it makes fewer.)",
        answer,
        f"{perceptron:.1f} − {winnow:.1f} = {answer:+.1f}.",
        {
            "reversed": (
                -answer,
                Misconception(
                    "Perceptron minus Winnow: positive when Winnow makes fewer.", "the table"
                ),
            ),
            "Winnow's": (
                winnow,
                Misconception(
                    "That is Winnow's count; the question asks the difference.", "the table"
                ),
            ),
        },
        Misconception("Subtract Winnow's mistakes from the perceptron's at that n.", "the table"),
        0.15,  # the chart's table may show more digits than the sentence's one decimal
    )


STEPS = (
    Step("Score the example: ⟨w, x⟩, the sum of the weights of its active features."),
    Step("Predict positive if ⟨w, x⟩ ≥ θ = n.", "it compares the score with the threshold."),
    Step("Compare the prediction with the label.", "it needs the prediction."),
    Step(
        "On a missed positive double, on a false alarm halve, the weights of the active features.",
        "an update follows a mistake, found by the comparison.",
    ),
)


VISIT_ORDER = order_exercise(
    "l09-visit-order",
    LESSON,
    "Put the steps of one Winnow visit in order.",
    STEPS,
    "Score, predict, compare, and only on a mistake multiply.",
    "Winnow's rule at the top of the lesson",
)


#: The figure asks at Balanced Winnow's first four updates, then at visits that change nothing.
REPLAY = Replay(
    lambda run, data: [*updates(run)[:4], *events(run, CORRECT)],
    ("outcome", "side", "lines"),
)
MULTIPLIES = (
    "the balanced version's rule above the figure: w⁺ᵢ ← w⁺ᵢ·2^{y xᵢ}, w⁻ᵢ ← w⁻ᵢ·2^{−y xᵢ}"
)
PREDICTIONS = replay_exercise(
    "l09-predict",
    LESSON,
    "Predict Balanced Winnow's first updates in the figure: does it update, and where does "
    "its line go after a multiplicative update?",
    REPLAY,
    "Predict the first steps of Balanced Winnow in the figure: whether it updates, on which "
    "side of the new line a point ends, which dashed line is the boundary after an update. "
    "Its update multiplies: w⁺ᵢ by 2^{y xᵢ} and w⁻ᵢ by 2^{−y xᵢ}, so w = w⁺ − w⁻ moves by "
    "an amount that grows with the weights.",
    "Winnow, like the perceptron, updates only on a mistake; but it multiplies the weights "
    "instead of adding to them, so each update moves w by an amount proportional to the "
    "weights themselves: the steps grow as the weights do.",
    {
        "outcome": Misconception(
            "Winnow updates only on a mistake, as the perceptron does: an example on its side "
            "of the line changes nothing (it has no margin).",
            MULTIPLIES,
        ),
        "side": Misconception(
            "The update multiplies each weight pair by 2^{±y xᵢ}: w moves by an amount that "
            "grows with the weights, not by a fixed ηyx; read the new line in the math panel.",
            MULTIPLIES,
        ),
        "lines": Misconception(
            "A multiplicative update moves w by w⁺ᵢ(2^{y xᵢ} − 1) + w⁻ᵢ(1 − 2^{−y xᵢ}) in each "
            "coordinate, towards the example's label: larger weights, a larger jump.",
            MULTIPLIES,
        ),
    },
)

EXERCISES = (
    PREDICTIONS,
    Exercise(
        "l09-bound-growth",
        LESSON,
        "number",
        "By how many mistakes does Winnow's bound grow when n doubles a few times?",
        bound_growth,
    ),
    Exercise(
        "l09-winnow-numerator",
        LESSON,
        "number",
        "What is the numerator of the course notes' Winnow bound for n features?",
        winnow_numerator,
    ),
    MULTIPLICATIVE,
    Exercise(
        "l09-table-gap",
        LESSON,
        "table",
        "Read the chart's numbers: how many more mistakes does the perceptron make than Winnow?",
        table_gap,
        ("table",),
        form="number",
    ),
    VISIT_ORDER,
)
