"""Experiments: rerun Khardon & Wachman's studies on any data set, with a progress bar.

Everything is computed by :mod:`perceptron_core.experiments` (the same code
as ``perceptron-lab search / optimize / curve``); this page only chooses,
runs and draws. Finished folds are kept on disk (the command line's cache
folder, kept under the page's size cap), so a rerun, or the same run from
the command line, is read, not recomputed; the last result stays in the
session while other widgets change. A run that asks for more than
:data:`~perceptron_core.experiments.limits.PAGE_LIMITS` allows is refused
before it starts, with a message that says what is too big.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from perceptron_core.experiments import MODES, RunOptions, kw_sets, resolve
from perceptron_core.experiments.cache import page_cache_dir
from perceptron_core.experiments.grids import KW_SETTINGS, as_matrix
from perceptron_core.experiments.limits import PAGE_LIMITS, Request, check
from perceptron_core.experiments.reproduce import KW_NOISE, uci_names
from perceptron_lab.app_logic.admission import EXPERIMENTS as EXPERIMENT_RUNS
from perceptron_lab.ui.announce import announce
from perceptron_lab.ui.charts import chart
from perceptron_lab.ui.safety import attempt
from perceptron_lab.ui.waiting import Cancelled, view_turn

#: What each experiment computes, with the folds chosen below it.
EXPERIMENTS = {
    "Parameter search": "{folds}-fold cross-validated accuracy of all 91 settings; each column "
    "shows the best setting with its switch on (optimistic: chosen on the test folds).",
    "Parameter optimisation": "Double cross-validation: settings chosen by an inner 10-fold "
    "cross-validation on each of the {folds} outer training parts, tested on its outer fold "
    "(mean ± 95 % t-interval). Ten times the work of a search.",
    "Accuracy against epochs": "{folds}-fold cross-validated accuracy after 1, 2, 3, 5, … 1000 "
    "epochs for the last, longest-surviving, voted and averaged perceptron (one run per fold).",
}
#: The limits module's name of each experiment.
KINDS = {
    "Parameter search": "search",
    "Parameter optimisation": "optimisation",
    "Accuracy against epochs": "epoch-curve",
}

st.title("Experiments")
st.markdown(
    "Khardon & Wachman (2007) asked which noise-tolerant variant of the perceptron helps: a "
    "margin (τ), the λ-trick, an α-bound on updates per example, or predicting with the "
    "longest survivor, the vote or the average of all hypotheses. Rerun their studies here; "
    "the command line (`perceptron-lab reproduce kw-table4`) computes the same numbers."
)

# -- choices -----------------------------------------------------------------

kind = st.radio("Experiment", list(EXPERIMENTS), horizontal=True, key="exp_kind")
about = st.empty()  # what the experiment computes, once the folds are chosen below
left, right = st.columns(2)
with left:
    source = st.radio("Data", ["KW artificial data (f, M, N)", "Real data set"], key="exp_source")
    if source.startswith("KW"):
        f = st.selectbox("f: features", (50, 200, 500), key="exp_f")
        margin = st.selectbox("M: margin", (0.05, 0.1, 0.25, 0.5, 0.75), key="exp_margin")
        noise = st.multiselect(
            "N: label noise (one table row each)", KW_NOISE, default=[0.0, 0.1], key="exp_noise"
        )
        count = st.number_input("data sets per noise level", 1, 10, 1, key="exp_count")
        data_key = ("kw", f, margin, tuple(sorted(noise)), int(count))
    else:
        name = st.selectbox("data set", uci_names(), key="exp_name")
        data_key = ("named", name)
with right:
    seed = int(st.number_input("seed", 0, 2**31 - 1, 0, key="exp_seed"))
    folds = int(st.number_input("folds", 2, PAGE_LIMITS.folds, 10, key="exp_folds"))
    epochs = int(
        st.number_input(
            "epochs",
            1,
            PAGE_LIMITS.epochs,
            100,
            key="exp_epochs",
            disabled=kind == "Accuracy against epochs",
        )
    )
    most_jobs = PAGE_LIMITS.max_jobs()
    jobs = int(
        st.number_input(
            "worker processes",
            1,
            most_jobs,
            min(2, most_jobs),
            key="exp_jobs",
            help=f"At most {most_jobs}: this server's cores.",
        )
    )
about.caption(EXPERIMENTS[kind].format(folds=folds))
st.caption(
    f"Per run this page allows at most {PAGE_LIMITS.visits / 1e6:,.0f} million visits of a "
    "training example (data sets × folds × settings × epochs × training examples) and "
    f"{PAGE_LIMITS.datasets} data sets; larger studies belong to the command line."
)


def _datasets(key, seed):
    if key[0] == "kw":
        _, f, margin, noise, count = key
        return [d for n in noise for d in kw_sets(f, margin, n, count, seed)]
    return resolve(key[1], 1, seed)


# Not st.cache_data: the progress bar it would record cannot be replayed, and the
# disk cache of finished folds already makes a repeated run a read.
def run_experiment(kind, data_key, seed, folds, epochs, jobs, progress=None):
    """The experiment's tables (and raw accuracies for the heat maps)."""
    from perceptron_core.experiments import epoch_curve, parameter_optimisation, parameter_search

    sets = _datasets(data_key, seed)
    if not sets:
        raise ValueError("Choose at least one noise level.")
    check(Request(KINDS[kind], tuple(d.X.shape for d in sets), folds, epochs, jobs))
    group = ("noise",) if data_key[0] == "kw" else ()
    options = RunOptions(
        epochs=epochs,
        jobs=jobs,
        cache_dir=str(page_cache_dir()),
        cache_max_bytes=PAGE_LIMITS.cache_bytes,
        progress=progress or False,
    )
    if kind == "Parameter search":
        result = parameter_search(sets, n_folds=folds, seed=seed, options=options)
        heat = result.accuracy[:, :, -1, :].mean(axis=0)  # settings x modes
        return [result.table("Parameter search (accuracy, %)", group_by=group)], heat
    if kind == "Parameter optimisation":
        result = parameter_optimisation(sets, n_folds=folds, seed=seed, options=options)
        heat = result.outer.mean(axis=(0, 1))  # outer-fold accuracy of every setting
        return [
            result.table(
                "Parameter optimisation (accuracy %, mean ± 95% t-interval)", group_by=group
            )
        ], heat
    return [epoch_curve(sets, n_folds=folds, seed=seed, options=options, group_by=group)], None


if st.button("Run", type="primary", key="exp_run"):
    bar = st.progress(0.0, text="starting …")

    def report(done, total):
        bar.progress(done / max(total, 1), text=f"{done} of {total} folds done")

    result = None
    run_key = (kind, data_key, seed, folds, epochs, jobs)
    try:  # one run at a time per server process; the others wait for their turn
        with view_turn("exp_", run_key, lambda: 0, EXPERIMENT_RUNS, cpu_meter=False, again=True):
            result = attempt(
                "The experiment",
                run_experiment,
                kind,
                data_key,
                seed,
                folds,
                epochs,
                jobs,
                progress=report,
            )
    except Cancelled:
        pass
    if result is not None:  # after an error the previous result stays on the page
        st.session_state["exp_result"] = (kind, result)
    bar.empty()
    if result is not None:  # the bar's end is seen, not heard (4.1.3); an error is an alert
        announce(f"The experiment finished: “{result[0][0].title}” is below.")

# -- results -------------------------------------------------------------------

stored = st.session_state.get("exp_result")
if stored is None:
    st.info(
        "Choose an experiment and press **Run**. Finished folds are kept on disk, so "
        "running it again (here or from the command line) is instant."
    )
    st.stop()

shown_kind, (tables, heat) = stored
table = tables[0]
st.header(table.title)
rows = {}
for r in table.records:
    key = tuple(r[f] for f in table.row_fields)
    rows.setdefault(key, dict(zip(table.row_fields, key)))[str(r[table.column_field])] = (
        table.cell_text(r)
    )
st.dataframe(list(rows.values()), hide_index=True, width="stretch")
for note in table.notes:
    st.caption(note)

if shown_kind == "Accuracy against epochs":
    fig = go.Figure()
    curve_of = [f for f in table.row_fields if f != "epochs"]  # e.g. noise, tau
    lines: dict = {}
    for r in table.records:
        lines.setdefault((r["mode"], *(r[f] for f in curve_of)), []).append(r)
    for (r_mode, *group), points in lines.items():
        label = ", ".join([r_mode] + [f"{f}={g}" for f, g in zip(curve_of, group)])
        fig.add_scatter(
            x=[r["epochs"] for r in points],
            y=[r["accuracy"] for r in points],
            mode="lines+markers",
            name=label,
        )
    fig.update_layout(
        xaxis_type="log", xaxis_title="epochs", yaxis_title="accuracy (%)", height=450
    )
    chart(fig)
else:
    mode = st.radio("Heat maps for", MODES, horizontal=True, key="exp_heat_mode")
    st.caption(
        "Accuracy of every setting, averaged over the data sets (and, for the "
        "optimisation, over the outer folds): where on the grids the good settings lie."
    )
    maps = st.columns(2)
    for column, second, title in ((maps[0], "lam", "τ × λ"), (maps[1], "alpha", "τ × α")):
        taus, others, matrix = as_matrix(100 * heat[:, MODES.index(mode)], KW_SETTINGS, second)
        fig = go.Figure(
            go.Heatmap(
                z=matrix,
                x=["∞" if o is None else f"{o:g}" for o in others],
                y=[f"{t:g}" for t in taus],
                colorscale="Viridis",
                colorbar_title="%",
                text=np.round(matrix, 1),
                texttemplate="%{text}",
            )
        )
        fig.update_layout(
            title=title,
            xaxis_title="λ" if second == "lam" else "α-bound",
            yaxis_title="τ",
            xaxis_type="category",
            yaxis_type="category",
            height=420,
        )
        chart(fig, where=column)

st.header("Download")
stem = shown_kind.lower().replace(" ", "-")
cols = st.columns(3)
cols[0].download_button(
    "JSON (one record per cell)",
    table.to_json(),
    f"{stem}.json",
    "application/json",
    key="exp_dl_json",
)
cols[1].download_button("CSV", table.to_csv(), f"{stem}.csv", "text/csv", key="exp_dl_csv")
cols[2].download_button(
    "Markdown", table.to_markdown(), f"{stem}.md", "text/markdown", key="exp_dl_md"
)
