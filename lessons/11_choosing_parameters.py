"""Lesson 11. Choosing parameters honestly: cross-validation, double cross-validation, t-intervals.

One small noisy data set (KW's artificial data, 300 examples) and the
perceptron with margin. The figure puts side by side, all computed live and
seeded: the accuracies that many single train/test splits report, the same
with τ picked on each split's own test part, k-fold cross-validation with
its 95 % t-interval, the parameter search's optimistic best, and double
cross-validation; two lines give the accuracy measured on 5,000 fresh
examples from the same source. A replay shows the run at the τ that cross-validation picks,
trained on all 300, in predict mode. Session keys start with ``l11_``.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from perceptron_core.experiments import t_interval
from perceptron_core.experiments.optimize import OptimisationResult
from perceptron_core.experiments.stats import t_interval as t_interval_source
from perceptron_lab.app_logic.exercises.lesson_11 import REPLAY
from perceptron_lab.app_logic.studies_honest import (
    FIXED_TAU,
    N_DATA,
    N_INNER,
    N_SPLITS,
    TAUS,
    figure_request,
)
from perceptron_lab.app_logic.style import BLUE, GREEN, GREY, ORANGE, PURPLE, VERMILLION, Show
from perceptron_lab.lessons._basics import seed_control
from perceptron_lab.lessons._charts import small_chart
from perceptron_lab.lessons._notation import notation
from perceptron_lab.lessons._questions import computation_question
from perceptron_lab.ui.charts import chart
from perceptron_lab.ui.exercises import exercises
from perceptron_lab.ui.lesson import (
    check_question,
    lesson_header,
    research,
    show_code,
    stage,
    try_this,
)
from perceptron_lab.ui.studies import lesson_study

PREFIX = "l11_"
TEST_SHARES = (0.1, 0.2, 0.3, 0.5)
FOLDS = (5, 10, 20)
#: The figure's passes over its examples: Khardon & Wachman's 100 epochs, as the study trains.
FIGURE_EPOCHS = 100


def t_quantile(k: int) -> float:
    """``t_{k-1, 0.975}``: the factor of the 95 % t-interval of ``k`` values."""
    from scipy.stats import t as student_t

    return float(student_t.ppf(0.975, k - 1))


def half_width_candidates(sd: float, k: int) -> dict[str, float]:
    """The computation question's candidates for the half-width of the t-interval of ``2k``
    folds with standard deviation ``sd``: the right ``t_{2k-1} s/√(2k)``, and two that keep
    ``t_{k-1}`` or ``√k`` of the ``k`` folds on screen."""
    t_k, t_2k = t_quantile(k), t_quantile(2 * k)
    return {
        "right": t_2k * sd / np.sqrt(2 * k),
        "same t": t_k * sd / np.sqrt(2 * k),
        "same root": t_2k * sd / np.sqrt(k),
    }


def last_pass(run, data, fresh: float) -> str:
    """What the figure's run still updates on in its last pass, and its final line's accuracy
    on the examples it trained on beside the one on fresh examples (``fresh``)."""
    tl = run.timeline
    last = tl.epoch == tl.epoch[-1]
    updating = last & (tl.before != tl.after)
    flipped = updating & np.asarray(data.flipped, bool)[tl.index]
    labels = np.where(tl.scores(data.X, tl.n_events) > 0, 1, -1)
    return (
        f"**In its last pass** the run still updated on **{int(updating.sum())}** of the "
        f"{int(last.sum())} examples, **{int(flipped.sum())}** of them with a flipped label. "
        f"Its final line labels **{np.mean(labels == data.y):.1%}** of its own training "
        f"examples as given, and **{fresh:.1%}** of the fresh ones (the dashed line): every "
        "estimate above tests on examples the model did not train on."
    )


def estimates_figure(est: dict, test_share: float, k: int) -> go.Figure:
    """One row per way of estimating; dots are single measurements, bars 95 % t-intervals."""
    rows = [
        (
            f"one {1 - test_share:.0%}/{test_share:.0%} split, τ = {FIXED_TAU:g}",
            est["single_fixed"],
            BLUE,
            False,
        ),
        ("one split, best τ on its own test part", est["single_best"], PURPLE, False),
        (f"{k}-fold CV, τ = {FIXED_TAU:g}", est["cv_folds"], ORANGE, True),
        (
            f"double CV ({k} outer × {N_INNER} inner), τ chosen inside",
            est["double_folds"],
            GREEN,
            True,
        ),
    ]
    jitter = np.random.default_rng(0)  # only spreads the dots vertically
    fig = go.Figure()
    for y0, (label, values, color, interval) in enumerate(rows):
        fig.add_scatter(
            x=values,
            y=y0 + 0.3 * (jitter.random(len(values)) - 0.5),
            mode="markers",
            name=label,
            marker={"color": color, "size": 7, "opacity": 0.55},
            hovertemplate="%{x:.1%}<extra>" + label + "</extra>",
            showlegend=False,
        )
        if interval:
            mean, half = t_interval(values)
            fig.add_scatter(
                x=[mean],
                y=[y0 + 0.35],
                mode="markers",
                showlegend=False,
                marker={"color": color, "size": 13, "symbol": "diamond"},
                error_x={"type": "constant", "value": half, "thickness": 2.5, "width": 8},
                hovertemplate=f"mean {mean:.1%} ± {half:.1%}<extra>95 % t-interval</extra>",
            )
    fig.add_scatter(
        x=[est["search_best"]],
        y=[len(rows) - 2 + 0.35],
        mode="markers",
        showlegend=True,
        name=f"parameter search: best τ's {k}-fold CV accuracy (optimistic)",
        marker={"color": VERMILLION, "size": 13, "symbol": "x"},
    )
    for x, dash, label in (
        (est["fresh_fixed"], "dot", f"truth for τ = {FIXED_TAU:g}"),
        (est["fresh_chosen"], "dash", f"truth for the τ CV picks ({est['chosen_tau']:g})"),
    ):
        fig.add_scatter(
            x=[x, x],
            y=[-0.5, len(rows) - 0.5],
            mode="lines",
            name=label + f": {x:.1%}",
            line={"color": GREY if dash == "dot" else "#222222", "dash": dash, "width": 2},
        )
    return small_chart(
        fig,
        430,
        {"title": "accuracy", "tickformat": ".0%"},
        {
            "tickvals": list(range(len(rows))),
            "ticktext": [r[0] for r in rows],
            "range": [len(rows) - 0.5, -0.5],
        },
    )


lesson_header(
    11,
    "Choosing parameters honestly",
    "See how much one train/test split can lie, and how cross-validation, double "
    "cross-validation and a confidence interval keep the reported accuracy honest.",
)
notation(("x, y", "w, θ", "τ", "θ_init"))
st.markdown(
    r"""
Every lesson so far had a parameter to choose: τ, λ, α, a kernel width. The
tempting recipe is to split the data once, train, test, try a few values
and report the best test accuracy. It fails twice. First, a test part of
a few dozen examples is a small sample: the accuracy it reports moves by
several points from one split to the next. Second, choosing the value that
did best *on the test part* and then reporting that test accuracy is
selection: the winner is partly the luckiest, so the number is too high.

**k-fold cross-validation** uses every example for testing once: split the
data into $k$ folds, train on $k-1$, test on the one left out, and average
the $k$ fold accuracies $y_1, \dots, y_k$. Their spread gives a 95 %
**t-interval** for the mean (Khardon & Wachman's formula):
"""
)
st.latex(r"\bar y \;\pm\; t_{k-1,\,0.975}\,\sqrt{\frac{\sum_{i=1}^{k}(y_i - \bar y)^2}{k\,(k-1)}}")
st.markdown(
    r"""
Picking τ as the best of the cross-validated accuracies and reporting that
accuracy (KW's *parameter search*) is still selection on the test folds. To
report how well the whole recipe "choose τ, then train" works, the choice
must happen inside: **double cross-validation** chooses τ on each outer
training part by an inner cross-validation, retrains with it, and only then
tests on the outer fold (KW's *parameter optimisation*).

**In the chart:** the data are 300 examples of Khardon & Wachman's
artificial data with 10 % label noise (50 features), learned by the
perceptron with margin (last hypothesis). Each dot in the top row is one
random split's test accuracy with τ = 0.5; the second row takes, on each
split, the best τ of the grid on that split's own test part. The two lower
rows show fold accuracies as dots and the mean with its 95 % t-interval as
a diamond with a bar; the red × is the parameter search's best. Because
the data come from a generator, the truth can be measured: the vertical
lines are the accuracy on 5,000 fresh examples of τ = 0.5 and of the τ that
cross-validation picks, each trained on all 300. Every split and fold
trains on fewer examples than that, so *averaged over data draws* the truth
sits a little to the right of the cross-validated mean; on one draw the
luck of the folds is larger than that and can put the mean on either side
of it (seed 5 puts it well to the right). One caution about the bars: the
$k$ fold accuracies are not independent (any two training parts share most
of their examples), so the t-interval around their mean, which assumes
independent values, is a rough summary of their spread, not a true 95 %
confidence interval for the accuracy.
"""
)

cols = st.columns(3)
with cols[0]:
    test_share = st.select_slider(
        "Test share of a single split",
        options=TEST_SHARES,
        value=0.2,
        key=f"{PREFIX}share",
        format_func=lambda p: f"{p:.0%}",
    )
with cols[1]:
    k = st.select_slider("Folds k", options=FOLDS, value=10, key=f"{PREFIX}k")
with cols[2]:
    seed = seed_control(PREFIX)
# app_logic.studies_honest.estimates, prepared by perceptron-lab warm for the first view
est = lesson_study("l11_estimates", test_share=test_share, k=k, seed=seed)
chart(estimates_figure(est, test_share, k), key=f"{PREFIX}figure")
st.caption(
    f"τ grid {{{', '.join(f'{t:g}' for t in TAUS)}}} (× θ_init); {N_SPLITS} random stratified "
    "splits; KW's training settings "
    "(η = 0.1, θ_init = C = mean ‖x‖², 100 epochs). Double CV chose τ = "
    + ", ".join(f"{t:g}" for t in est["double_choices"])
    + " in its outer folds."
)

st.header("The run behind the dashed line", anchor="the-chosen-run")
st.markdown(
    rf"""
Cross-validation picked τ = {est["chosen_tau"]:g}. The figure replays the run
whose accuracy on the 5,000 fresh examples is the dashed line: the perceptron
with margin at that τ, trained as Khardon & Wachman train (η = 0.1,
θ_init = C = mean ‖x‖², 100 passes) on all 300 examples. Its 50 features are
drawn projected on the plane of the true target and the final $w$; × marks
the labels the generator flipped. It opens at the start of the last pass, in
predict mode: before a few steps it asks what the run will do with the
example.
"""
)
figure_data, figure_run = stage(
    PREFIX,
    figure_request(seed),
    "margin",
    {"tau": est["chosen_tau"]},
    epochs=FIGURE_EPOCHS,
    show=Show(test_points=False, target=True),
    start=lambda timeline: timeline.n_events - N_DATA,
    predict=REPLAY.predict,
)
if figure_run is not None:
    st.markdown(last_pass(figure_run, figure_data, est["fresh_chosen"]))

try_this(
    "Read the spread of the top row: one split alone could have reported any of those "
    "numbers. Set the **test share** to 10 % (30 test examples): the dots spread further; "
    "at 50 % they tighten on most seeds, but each model now trains on only half the data. "
    "With a screen reader: **The numbers**, under the chart, lists every dot of each row.",
    "Compare the purple row with the blue one: they use the same splits, yet picking τ on "
    "each test part lifts the reported numbers (the research box gives both means) without "
    "any model getting better. The red × is the same selection with cross-validation; the "
    "green diamond of double CV does not select on its own test data and usually sits lower. "
    'With a screen reader: in **The numbers** the purple row is "one split, best τ on its '
    'own test part", the red × the "parameter search" and the green diamond the mean of '
    'the "double CV" row.',
    "Set **folds k** to 5, then 20: the t-interval changes width, and it should cover the "
    "dotted line in most data draws. Change the **data seed** a few times to see how often. "
    'With a screen reader: the dotted line is the series "truth for τ" in **The numbers**, '
    "and each interval's mean and half-width are in the chart's words.",
)

check_question(
    PREFIX,
    "You try six values of τ, each scored by 10-fold cross-validation, and report the best "
    "mean accuracy as your method's accuracy. What is wrong with that number?",
    [
        "Nothing: each fold's test part was unseen by the model trained on it",
        (
            "It is optimistic: τ was chosen on the same folds that score it, so the winner is "
            "partly luck; double cross-validation chooses τ inside each outer training part"
        ),
        "It is pessimistic: each model was trained on only 90 % of the data",
    ],
    answer=1,
    why="Each fold is unseen by its model, but not by the choice of τ. The maximum of six "
    "noisy estimates is biased upwards; only a test part that plays no part in the choice "
    "(the outer fold of a double CV) measures the whole recipe.",
    hints={
        0: "Unseen by the model, yes. Unseen by the choice of τ?",
        2: "There is a small pessimistic effect of that kind (it is why, averaged over data "
        "draws, the truth lines sit a little to the right), but the choice among six values "
        "biases the number upwards. Compare the red × with the green double-CV diamond.",
    },
)

folds_q = np.asarray(est["cv_folds"])
mean_q, half_q = t_interval(folds_q)
sd_q = float(np.std(folds_q, ddof=1))
t_q, t_2q = t_quantile(k), t_quantile(2 * k)
computation_question(
    f"{PREFIX}t",
    f"A t-interval by hand: the chart's {k} fold accuracies (τ = {FIXED_TAU:g}) have mean "
    f"{mean_q:.2%}, standard deviation s = √(Σ(y_i − ȳ)²/(k − 1)) = {sd_q:.2%} and a 95 % "
    f"t-interval of ± {half_q:.2%} (t_{{{k - 1}, 0.975}} = {t_q:.3f}). If {2 * k} folds gave "
    f"the same s, what would the half-width be? t_{{{2 * k - 1}, 0.975}} = {t_2q:.3f}.",
    half_width_candidates(sd_q, k),
    "right",
    ".2%",
    why=f"t·s/√k with k = {2 * k}: {t_2q:.3f} × {sd_q:.2%} / √{2 * k} = "
    f"{t_2q * sd_q / np.sqrt(2 * k):.2%}. More folds narrow the interval twice over, through "
    "√k and through a smaller t; their s, and the dependence between them, change too.",
    hints={
        "same t": f"The factor t changes with the number of folds: use t_{{{2 * k - 1}, 0.975}}.",
        "same root": f"The root is of the number of folds: √{2 * k}, not √{k}.",
    },
    seed=seed,
)

research(
    r"""
Khardon & Wachman (2007, Section 3) report both: a *parameter search* (the
best setting's 10-fold cross-validated accuracy, what a variant can reach)
and a *parameter optimisation* (double cross-validation with 95 %
t-intervals, what choosing the setting from the training data achieves).
The optimised figures are the ones to compare methods by, and they come
with intervals that often overlap. Two studies outside the papers this app
reproduces bear on the same questions: Kohavi (1995) recommended 10-fold
stratified cross-validation for model selection (choosing among settings and
methods), and Varma & Simon
(2006) showed how far the best cross-validated score of a tuned method can
sit above its true accuracy. The same effects on the data above, live:
""",
    "R. Khardon and G. Wachman, “Noise tolerant variants of the perceptron algorithm”, "
    "JMLR 8, 227–248 (2007); outside those papers: R. Kohavi, “A study of cross-validation "
    "and bootstrap for accuracy estimation and model selection”, IJCAI 1995, 1137–1143; "
    "S. Varma and R. Simon, “Bias in error estimation when using cross-validation for model "
    "selection”, BMC Bioinformatics 7, 91 (2006).",
    compute=lambda: {
        f"Single splits, τ = {FIXED_TAU:g} (lowest – highest)": (
            f"{est['single_fixed'].min():.1%} – {est['single_fixed'].max():.1%}"
        ),
        f"{k}-fold CV, τ = {FIXED_TAU:g}": "{:.1%} ± {:.1%}".format(*t_interval(est["cv_folds"])),
        "Parameter search (best τ)": f"{est['search_best']:.1%}",
        "Double CV": "{:.1%} ± {:.1%}".format(*t_interval(est["double_folds"])),
        f"Truth, τ = {FIXED_TAU:g}": f"{est['fresh_fixed']:.1%}",
        f"Truth, τ = {est['chosen_tau']:g} (CV's pick)": f"{est['fresh_chosen']:.1%}",
        "Best τ per split, mean": f"{est['single_best'].mean():.1%}",
        f"τ = {FIXED_TAU:g} per split, mean": f"{est['single_fixed'].mean():.1%}",
    },
    caption=f"Seed {seed}; perceptron_core.experiments: run_fold for the splits, "
    "parameter_search and parameter_optimisation for the cross-validations, t_interval for "
    "the intervals; the truth from KWPerceptron on 5,000 fresh examples.",
)

show_code(
    t_interval_source,
    OptimisationResult.fold_values,
    intro="The interval and the honest choice: `fold_values` picks, for each outer fold, the "
    "setting with the best *inner* cross-validated accuracy and reports its accuracy on "
    "that outer fold.",
)

exercises(
    11,
    seed=seed,
    test_share=test_share,
    k=k,
    estimates=est,
    tau=est["chosen_tau"],
    data=figure_data,
    run=figure_run,
)
