"""The floor of a KW view: a bare Streamlit page that makes the view and sends its payload.

For ``?seed=N`` it makes what ``bench_lean_views.py``'s KW link asks the playground for
(``data=kw&kw_n_features=50&learner=voted&seed=N``: the data, the voted perceptron's run of
20 epochs with its default settings, the replay's payload), as ``bench_view_cpu.py``'s
``whole_view`` makes it, and hands the payload to one component as the playground hands it
to its own (its id, meta, header and bytes). Nothing else is on the page: no controls, no
cache, no memory budget. As the app's admission gate does by default, at most one view a
core is made at once: a class's 30 views made together in one process wait on each other's
locks, and those hand-overs cost as much CPU again as the views themselves
(``docs/benchmarks.md``, "kw-floor"). What a view of this page costs the server is the least
a Streamlit page spends on the same view; ``bench_lean_views.py --floor`` sets it beside the
playground's. Run by hand: ``streamlit run benchmarks/floor/kw_view.py``.
"""

import gc
import threading

import streamlit as st
from component import scatter_component  # Streamlit puts this folder on the path

from perceptron_lab.app_logic.admission import default_slots
from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.payload import build_payload
from perceptron_lab.app_logic.training import fit_run

LEARNER, EPOCHS = "voted", 20


@st.cache_resource
def imports_frozen() -> None:
    """The imports set aside from the garbage collector, once, as ``app.py`` does."""
    gc.collect()
    gc.freeze()


@st.cache_resource
def views_at_once() -> threading.Semaphore:
    """As many views at once as the app's admission gate makes by default."""
    return threading.Semaphore(default_slots())


imports_frozen()
seed = int(st.query_params.get("seed", 0))
with views_at_once():
    data = make_dataset(DataRequest("kw", (("n_features", 50),), seed=seed))
    values = tuple(sorted(LEARNERS[LEARNER].defaults().items()))
    run = fit_run(LEARNER, values, EPOCHS, seed, data.X, data.y, data.X_test, data.y_test)
    payload = build_payload(data, [run], seed)
scatter_component()(
    payload_id=payload.id,
    meta=payload.meta,
    header=payload.header,
    blob=payload.blob,
    key="scatter",
)
