"""The words of the math panel: what each outcome of a step means, in one sentence.

The panel itself is drawn in the browser (``ui/playback/mathpanel.js``): for
the current event it shows the example, the score the learner computed, the
test that decided (mistake, margin, λ-rescue, α-block or correct), and, when
the hypothesis moved, old → new ``w`` and ``θ``. The prose stays here, with
the rest of the app's explanations, and travels to the browser as it is.
"""

from __future__ import annotations

from perceptron_lab.app_logic.timeline import BLOCKED, CORRECT, MARGIN, MISTAKE, RESCUED

#: Said of a correct step when the learner has no margin band (lesson 1's classic perceptron):
#: the panel names only what the learner on screen has.
CORRECT_NO_BAND = (
    "Right side of the boundary: nothing moves; the current hypothesis's run of correct "
    "answers (its vote) grows by one."
)
WHY = {
    CORRECT: "Right side of the boundary (and outside any margin band): nothing moves; the "
    "current hypothesis's run of correct answers (its vote) grows by one.",
    MISTAKE: "Wrong side of the boundary: the update moves this example's score towards its "
    "label (for a line: w turns towards y·x and the threshold shifts).",
    MARGIN: "Right side, but inside the margin band: it counts as an error, and the update "
    "pushes the line away from the example.",
    RESCUED: "This would have been an error, but the example already forced an update, so the "
    "λ-trick adds its own term to its score: y·λ‖x‖² in Khardon & Wachman's perceptron, "
    "y·λ·k(x, x) in its kernel form, λ·η·a_j·y in PAUM, where a_j counts the example's updates "
    "(Li et al. 2002, §2.3). With it the example passes the test and the line stays where it is.",
    BLOCKED: "An error, but this example has used up its α-bound of updates: it is ignored, "
    "so a mislabelled point cannot drag the line forever.",
}
OUTCOME = {
    CORRECT: "correct",
    MISTAKE: "mistake → update",
    MARGIN: "inside the margin → update",
    RESCUED: "rescued by the λ-trick",
    BLOCKED: "blocked by the α-bound",
}
#: The outcome as the replay's live region says it after a step (``ui/playback/speech.js``):
#: words a screen reader reads, no arrows.
SPOKEN = {
    CORRECT: "correct, no update",
    MISTAKE: "mistake, update",
    MARGIN: "inside the margin band, update",
    RESCUED: "rescued by the λ-trick, no update",
    BLOCKED: "blocked by the α-bound, no update",
}
#: Predict mode's choices for "what will the learner do with this example?" (the outcome and
#: why: ``y·score`` against the margin), as the replay offers those its learner can reach.
PREDICT_OUTCOME = {
    CORRECT: "No update: y·score clears the margin (right side, outside any band)",
    MISTAKE: "Update: a mistake, y·score ≤ 0 (wrong side of the boundary)",
    MARGIN: "Update: right side, but y·score is inside the margin band",
    RESCUED: "No update: a mistake without the λ-trick, whose push lifts y·score past the test",
    BLOCKED: "No update: an error, but the example has used up its α-bound",
}
#: The same first choice for a learner without a margin band.
PREDICT_CORRECT_NO_BAND = "No update: y·score > 0 (right side of the boundary)"
COMMITTEE_NOTE = (
    "Batch training: the members' updates are summed over the epoch and applied "
    "at its end (then every W is rescaled to unit length), so the lines move once "
    "per epoch."
)


def why(has_band: bool) -> dict[int, str]:
    """:data:`WHY` as the panel says it for a learner with or without a margin band.

    Examples
    --------
    >>> "margin band" in why(has_band=False)[CORRECT], "margin band" in why(True)[CORRECT]
    (False, True)
    """
    return WHY if has_band else {**WHY, CORRECT: CORRECT_NO_BAND}


#: :data:`WHY` for the classes learned together (the multiclass perceptron, docs/algorithms.md
#: §11): its only outcomes are a correct visit and a mistake.
CLASSES_WHY = {
    CORRECT: "The true class's score is strictly above every other class's: nothing moves; the "
    "current hypothesis's run of correct answers (its vote) grows by one.",
    MISTAKE: "Another class, the rival, scores at least as high as the true class (a tie counts "
    "as a mistake): the true class's w gains η·x and the rival's loses it, so the true class's "
    "score of x rises and the rival's falls (each by η(‖x‖² + 1)).",
}
