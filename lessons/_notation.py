"""The course's notation: one table, used by every lesson and shown on the about page.

Not a page (no digit prefix). Each row is a symbol as the lessons write it,
what it means, the lessons that use it, and how the papers write it where
they differ (each lesson says so again where the symbol first appears).
Every lesson calls :func:`notation` with the symbols it uses; the about page
renders the whole table with :func:`notation_table`.

>>> notation_table(("η",)).splitlines()[2].startswith("| η |")
True
"""

from __future__ import annotations

import streamlit as st

#: (symbol, meaning, lessons, the papers' symbol where it differs)
NOTATION: tuple[tuple[str, str, str, str], ...] = (
    ("x, y", "an example and its label, y ∈ {−1, +1}", "all", ""),
    (
        "w, θ",
        "weights and threshold: the prediction is sign(⟨w, x⟩ − θ)",
        "all",
        "Li et al. and Cristianini & Shawe-Taylor write a bias b = −θ: ⟨w, x⟩ + b (lesson 6; "
        "lesson 5's thick separator is learned in that form); the course notes write θ (Θ for "
        "Winnow), as here; Cantador & Dorronsoro fold it into W_i with an input 1 (lesson 10)",
    ),
    ("η", "the learning rate: an update adds η y x to w", "1–10, 12", ""),
    (
        "C",
        "the threshold's step: an update moves θ by −η y C (default: the mean ‖x‖²)",
        "1–5, 7–9",
        "Khardon & Wachman's C; not the soft-margin SVM's constant (lesson 5 writes its "
        "penalty μ)",
    ),
    (
        "θ_init",
        "the threshold's start (default: the mean ‖x‖²)",
        "1, 2, 5, 6, 9, 11, 12",
        "KW: θ_Init",
    ),
    (
        "z, v",
        "the threshold folded in: z = (x, −√C), v = (w, θ/√C), so ⟨v, z⟩ = ⟨w, x⟩ − θ",
        "2–4",
        "lesson 1's textbook form folds in 1 (C = 1); Cristianini & Shawe-Taylor and Li et "
        "al. fold in R (b moves by η R²); Cantador & Dorronsoro a constant input 1",
    ),
    (
        "R",
        "the radius max_j ‖z_j‖, with the threshold folded in (lesson 6: max_j ‖x_j‖; "
        "lesson 12: max ‖φ‖)",
        "2–4, 6, 12",
        "Khardon & Wachman, Cristianini & Shawe-Taylor, Li et al.: max_j ‖x_j‖, threshold "
        "apart; hence their factor 4 in (2R/γ)²",
    ),
    (
        "u, γ",
        "a separating direction of length 1 (folded) and its margin min_j y_j ⟨u, z_j⟩ "
        "(lesson 12: min ⟨u, φ⟩ over Kesler's vectors)",
        "2–4, 6, 8, 12",
        "KW, Cristianini & Shawe-Taylor: the distance to a line with ‖w‖ = 1, threshold "
        "apart; lesson 6 writes Γ for the reference line's margin, γ_j for a line's margin "
        "on class j, as Li et al. do; lesson 8 takes u in the kernel's feature space",
    ),
    (
        "ξ_j, D",
        "how far example j falls short of margin γ, and D = √(Σ ξ_j²)",
        "3, 4",
        "Freund & Schapire: d_i",
    ),
    (
        "ε, δ",
        "the PAC model's error and confidence: an error of at most ε, with probability at "
        "least 1 − δ",
        "4",
        "Valiant's model, as the course notes use it; not lesson 10's ε_t",
    ),
    (
        "ℓ_j, L",
        "one example's loss: the perceptron loss max(0, −y_j ⟨v, z_j⟩), or a hinge loss "
        "max(0, margin − y_j f(x_j)); L: the hinge loss of a comparison line v* = u/γ summed "
        "over the steps with a mistake",
        "3, 5",
        "Shalev-Shwartz & Ben-David: f_t for ℓ_j, the sum for L",
    ),
    (
        "τ",
        "the perceptron with margin's margin, in units of θ_init: update if "
        "y(⟨w, x⟩ − θ) ≤ τ θ_init",
        "5–7, 11",
        "Khardon & Wachman: τ",
    ),
    (
        "τ₋₁, τ₊₁",
        "PAUM's margin for each class, in score units; lesson 6 sets them as multiples of "
        "R²: τ₊₁ = t R² asks the score margin that τ = t R²/θ_init asks in lesson 5",
        "6",
        "Li et al.: the same",
    ),
    (
        "κ",
        "the thick separator's slab half-width, in score units",
        "5, playground",
        "course notes: γ",
    ),
    ("μ", "the soft-margin SVM's penalty on ‖w‖²", "5", "often λ"),
    ("λ", "the λ-trick's strength", "7", "Khardon & Wachman, Li et al.: λ"),
    (
        "a_j, α",
        "the updates example j has caused (its dual coefficient), and the α-bound on them",
        "7, 8",
        "Khardon & Wachman write α_i for a_j",
    ),
    (
        "β",
        "the Gaussian kernel's width: exp(−β ‖x − x′‖²) (and the polynomial kernel's scale)",
        "8, playground",
        "scikit-learn: gamma",
    ),
    (
        "2",
        "Winnow's promotion factor",
        "9",
        "the course notes: 2 as well (w_i ← 2 w_i); perceptron_core.Winnow's parameter: alpha",
    ),
    (
        "K, c",
        "the number of classes, and an example's class",
        "12",
        "Duda, Hart & Stork write c for the number of classes",
    ),
    (
        "w_k, b_k",
        "class k's weights and bias in the multiclass perceptron: s_k = ⟨w_k, x⟩ + b_k, the "
        "highest score wins",
        "12",
        "",
    ),
    ("r", "the rival: the class other than the true one with the highest score", "12", ""),
    (
        "φ, U",
        "Kesler's construction: φ(x, c, k) holds (x, 1) in class c's block and −(x, 1) in k's; "
        "U stacks every (w_k, b_k), so ⟨U, φ⟩ = s_c − s_k",
        "12",
        "",
    ),
    (
        "ρ",
        "the parallel perceptron's margin on the activations",
        "10, playground",
        "Cantador & Dorronsoro: γ",
    ),
    (
        "ε_t, α_t",
        "a boosting round's weighted error and vote (ε_t is not lesson 4's ε, α_t not lesson "
        "7's α)",
        "10",
        "Cantador & Dorronsoro: the same",
    ),
    (
        "r(x)",
        "NR boosting's factor in the re-weighting: −1, 0 or 1",
        "10",
        "Cantador & Dorronsoro: R(X)",
    ),
)


def notation_table(symbols: tuple[str, ...] | None = None) -> str:
    """The rows for ``symbols`` (all rows when None) as a markdown table."""
    rows = [row for row in NOTATION if symbols is None or row[0] in symbols]
    unknown = set(symbols or ()) - {row[0] for row in rows}
    if unknown:
        raise ValueError(f"not in the course's notation: {sorted(unknown)}")
    lines = ["| symbol | meaning | lessons | the papers |", "|---|---|---|---|"]
    lines += [
        f"| {s} | {meaning} | {where} | {papers or '–'} |" for s, meaning, where, papers in rows
    ]
    return "\n".join(lines)


def notation(symbols: tuple[str, ...]) -> None:
    """A closed expander with the rows of the symbols a lesson uses, and where the whole
    table is."""
    with st.expander("Notation on this page"):
        st.markdown(
            notation_table(symbols)
            + "\n\nThe whole course's notation is on the [About](/about#notation) page."
        )
