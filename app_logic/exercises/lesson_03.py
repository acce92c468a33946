"""Lesson 3's exercises: data no line separates (Freund & Schapire 1999, Theorem 2, as the
lesson derives it; the cycling theorem as the course notes on on-line learning state it).

Facts from the page: ``seed``, ``noise`` (flipped training labels), ``epochs`` (stop after
epoch), ``request``, ``data`` and ``run`` (the plain perceptron).
"""

from __future__ import annotations

import numpy as np

from perceptron_lab.app_logic.exercises._runs import refit
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
    last_epoch,
    replay_exercise,
    spread,
    updates,
    visits,
    within,
)
from perceptron_lab.app_logic.timeline import CORRECT

LESSON = 3
#: The "stop after epoch" slider's range.
EPOCHS = range(5, 61)
#: γ as a share of R in the variants of "l03-noisy-bound".
GAMMA_SHARES = (0.1, 0.2, 0.05, 0.3)
BOUND = "the bound ((R + D)/γ)² under “How many mistakes, when no line separates?”"


def folded(facts):
    """The training points folded, ``z = (x, −√C)``, and the true line as a unit ``u``."""
    data, C = facts["data"], float(facts["run"].estimator.C_)
    Z = np.c_[data.X, np.full(len(data.X), -np.sqrt(C))]
    u = np.r_[data.w_star, data.theta_star / np.sqrt(C)]
    return Z, u / np.linalg.norm(u)


def deviations(facts, variant: int) -> tuple[float, float, float]:
    """R, γ (a share of R picked by the variant) and D of the training data, the true line
    as ``u``."""
    Z, u = folded(facts)
    R = float(np.linalg.norm(Z, axis=1).max())
    gamma = GAMMA_SHARES[variant % len(GAMMA_SHARES)] * R
    xi = np.maximum(0.0, gamma - facts["data"].y * (Z @ u))
    return R, gamma, float(np.sqrt((xi**2).sum()))


def noisy_bound(facts, variant):
    R, gamma, D = deviations(facts, variant)
    answer = ((R + D) / gamma) ** 2
    return number_question(
        f"Take u, the true line (the dotted one) at unit length, and γ = {gamma:.4g}. On the "
        f"figure's training data R = {R:.4g} and the deviations ξ_j = max(0, γ − y_j⟨u, z_j⟩) "
        f"add up to D = √(Σ ξ_j²) = {D:.4g}. At most how many mistakes may a perceptron "
        "started at 0 make on them?",
        answer,
        f"((R + D)/γ)² = (({R:.4g} + {D:.4g}) / {gamma:.4g})² ≈ {answer:,.1f}.",
        {
            "Khardon & Wachman's 2": (
                (2 * (R + D) / gamma) ** 2,
                Misconception(
                    "That is (2(R + D)/γ)², the form for a threshold kept apart; with R, γ "
                    "and D measured after folding the bound needs no 2.",
                    "the paragraph after the proof, on Khardon & Wachman's form",
                ),
            ),
            "no D": (
                (R / gamma) ** 2,
                Misconception(
                    "That is lesson 2's bound, for D = 0: here the deviations add to R.",
                    BOUND,
                ),
            ),
            "no square": ((R + D) / gamma, Misconception("The bound is a square.", BOUND)),
            "squares added": (
                (R**2 + D**2) / gamma**2,
                Misconception("R and D are added before squaring: ((R + D)/γ)².", BOUND),
            ),
        },
        Misconception("Add R and D, divide by γ, square.", BOUND),
        tolerance(answer, 0.01),
    )


def epochs_d(facts, variant):
    R, gamma, D = deviations(facts, 0)
    T = int(facts["epochs"])
    answer = D * np.sqrt(T)
    return number_question(
        f"With u the true line and γ = {gamma:.4g}, one pass over the figure's training data "
        f"has D = {D:.4g}. The run makes T = {T} passes (the slider), so the perceptron sees "
        "the same examples T times. What is D over the whole run?",
        answer,
        f"Every deviation comes back T times: D = √(T Σ ξ_j²) = √{T} × {D:.4g} ≈ {answer:.4g}.",
        {
            "times T": (
                D * T,
                Misconception(
                    "D adds the squares of the deviations: T passes multiply Σ ξ_j² by T, "
                    "so D by √T.",
                    "the last sentences before the question under the proof",
                ),
            ),
            "one pass": (
                D,
                Misconception(
                    "The sequence has T copies of each example, each with its ξ_j.", BOUND
                ),
            ),
        },
        Misconception("D = √(Σ ξ_j²) over the whole sequence.", BOUND),
        tolerance(answer, 0.01),
    )


LAST_HYPOTHESIS = choice_exercise(
    "l03-last-hypothesis",
    LESSON,
    "Why is the last hypothesis a poor choice on data no line separates?",
    [
        Option(
            "It is whichever line the last mistake left; the next mistake could move it "
            "anywhere in the cycle"
        ),
        Option(
            "It is the best, because it has seen the most data",
            Misconception(
                "Training longer does not settle it: every pass has a mistake, and each "
                "mistake moves the line.",
                "the chart of every hypothesis's accuracy under the panel",
            ),
        ),
        Option(
            "It is the average of the earlier lines, so it lags behind",
            Misconception(
                "That describes the averaged perceptron of lesson 4; the last line is "
                "the latest update's, nothing averaged.",
                "the formula (w_last, θ_last) = the hypothesis after the final update",
            ),
        ),
        Option(
            "Its weights grow without bound, so it overreacts",
            Misconception(
                "The cycling theorem says the weights stay bounded.",
                "the paragraph on the perceptron cycling theorem",
            ),
        ),
    ],
    "Updates never stop, so the line in force at the end is luck: the test curve under "
    "the panel jumps up and down to the very last update.",
)


STEPS = (
    Step("Take a unit u and a margin γ; each example falls short by ξ_j; D = √(Σ ξ_j²)."),
    Step(
        "Give example j a coordinate of its own, Δ, and u the entries y_jξ_j/Δ there, "
        "normalised; the perceptron's run does not change.",
        "its entries are the deviations ξ_j, defined first.",
    ),
    Step(
        "Now every example has margin at least γ/√(1 + D²/Δ²) and length at most √(R² + Δ²).",
        "these are the margin and length of the extended examples.",
    ),
    Step(
        "Novikoff's bound on these separable data: (R² + Δ²)(1 + D²/Δ²)/γ².",
        "it needs the margin and the length of the separable data.",
    ),
    Step("Choose Δ² = RD: the bound is ((R + D)/γ)².", "it picks Δ in Novikoff's bound."),
)


PROOF_ORDER = order_exercise(
    "l03-proof-order",
    LESSON,
    "Put the steps of the proof of the bound ((R + D)/γ)² in order.",
    STEPS,
    "Define the deviations, make the data separable with a coordinate each, bound margin "
    "and length, apply Novikoff, choose Δ.",
    "the proof under “How many mistakes, when no line separates?”",
)


def accuracy_per_epoch(facts) -> list[float]:
    """Test accuracy of the last hypothesis after each epoch of :data:`EPOCHS`: the
    figure's run continued to the slider's end, read at each epoch's end (a run of fewer
    epochs is the start of this one: the same visits in the same order)."""
    from perceptron_lab.app_logic.timeline import Timeline

    data = facts["data"]
    est = refit(facts["run"], data, epochs=EPOCHS[-1])
    tl = Timeline.from_trace(est.trace_, len(data.y))
    accuracies = []
    for e in EPOCHS:
        w, theta = tl.hypothesis(min(e * len(data.y), tl.n_events))
        labels = np.where(data.X_test @ w - theta > 0, 1, -1)
        accuracies.append(float(np.mean(labels == data.y_test)))
    return accuracies


def best_stop(facts, variant):
    accuracies = accuracy_per_epoch(facts)
    return setting_question(
        "Find the epoch to stop after (the slider, 5 to 60) at which the last hypothesis is "
        "most accurate on the clean test half, on this data seed. Set it, then check.",
        "epochs",
        tuple(EPOCHS),
        accuracies,
        "max",
        f"Its test accuracy is {max(accuracies):.1%}; from epoch 5 to 60 it ranges from "
        f"{min(accuracies):.1%} to {max(accuracies):.1%}: where training stops is luck.",
        {
            "longest": (
                EPOCHS[-1],
                Misconception(
                    "Training longer is not better here: the line keeps cycling, and the "
                    "last one is where the last mistake left it.",
                    "the first task of “Try this”",
                ),
            ),
        },
        Misconception(
            "Another stopping epoch gives a more accurate last line: move the slider and read "
            "the last value of the test curve.",
            "the chart of every hypothesis's accuracy under the panel",
        ),
    )


def still_updating(run, data):
    """The last epoch: its updates, the visits of flipped labels and a few that change
    nothing; then the run's updates from the last one back (a run that stopped early)."""
    last = last_epoch(run)
    return [
        *interleave(
            spread(within(updates(run), last), 3),
            within(visits(run, data.flipped), last),
            spread(within(events(run, CORRECT), last), 2),
        ),
        *updates(run)[::-1],
    ]


REPLAY = Replay(still_updating, ("outcome", "side", "lines"))
PREDICTIONS = replay_exercise(
    "l03-predict",
    LESSON,
    "Predict steps of the figure's last epoch: does the perceptron still update on data no "
    "line separates, and where does its line go?",
    REPLAY,
    "Predict steps of the figure's last epoch: whether the perceptron still updates, where a "
    "point ends after an update, which dashed line is the boundary after it. A flipped label "
    "(×) sits on the wrong side of the true line.",
    "On data no line separates some example is always on the wrong side: the updates never "
    "stop, and each one turns the last line, late in training as early.",
    {
        "outcome": Misconception(
            "No line separates these data, so the updates never stop: a flipped label (×) is "
            "a mistake for any line near the true one, at every pass.",
            BOUND,
        ),
        "side": Misconception(
            "Late in training an update still moves the line as much as early on (the step is "
            "ηyx whatever the epoch): read the new line in the math panel.",
            "the figure's last epoch, the math panel's old → new w and θ",
        ),
        "lines": Misconception(
            "Each update turns the last line by ηyx and shifts θ by −ηyC, late in training "
            "too: the line after it is the one moved towards the example's label.",
            "the math panel's old → new w and θ",
        ),
    },
)

EXERCISES = (
    PREDICTIONS,
    Exercise(
        "l03-noisy-bound",
        LESSON,
        "number",
        "At most how many mistakes on the figure's noisy training data, by ((R + D)/γ)²?",
        noisy_bound,
        ("run", "data"),
    ),
    Exercise(
        "l03-passes-d",
        LESSON,
        "number",
        "What is the total deviation D over the run's T passes?",
        epochs_d,
        ("run", "data"),
    ),
    LAST_HYPOTHESIS,
    PROOF_ORDER,
    Exercise(
        "l03-best-stop",
        LESSON,
        "setting",
        "Find the stopping epoch at which the last hypothesis is most accurate on the test half.",
        best_stop,
        ("run", "data"),
    ),
)
