"""About Perceptron Lab: what it shows, the references, and how the app is built."""

import streamlit as st

from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.training import WARMUP
from perceptron_lab.lessons._references import REFERENCES

st.title("About Perceptron Lab")
st.markdown(
    "Perceptron Lab shows how the perceptron and its noise-tolerant variants learn, one "
    "example at a time, and reproduces the research about them. Every picture comes from "
    "the same code the experiments use (`perceptron_core`), trained once and replayed "
    "step by step; the same seed always gives the same picture."
)
st.header("The learners in the playground")
# a markdown table wraps its cells; a data frame would cut the long summaries at its width
st.markdown(
    "| learner | what it does | class |\n|---|---|---|\n"
    + "\n".join(
        f"| {learner.title} | {learner.summary.replace('|', '&#124;')} | "
        f"`{learner.cls.__module__}.{learner.cls.__name__}` |"
        for learner in LEARNERS.values()
    )
)
st.header("References")
st.markdown(
    "Every work a lesson cites; the first five are the sources the lab reproduces.\n\n"
    + "\n".join(f"- {entry}" for entry in REFERENCES)
    + "\n- Data: see each data set's description in the playground; sources and licences "
    "are in `data/README.md`."
)
st.header("How it is built")
st.markdown(
    "`perceptron_core` (NumPy + numba, no UI) trains; `ui/` holds the figures and controls "
    "every page shares; pages only lay them out. Colours follow Okabe and Ito's "
    "colour-blind-safe palette, and each class also has its own marker shape."
)
warmup = WARMUP.status()
if warmup.finished:
    st.caption(
        f"This server process prepared the compiled learners in {warmup.seconds:.1f} s, from "
        "the first page on, in the background (numba compiles them once per process, or loads "
        "them from its cache)."
    )
else:
    st.caption(
        f"This server process is preparing the compiled learners in the background: "
        f"{len(warmup.done)} of {len(warmup.keys)} ready after {warmup.running_for:.1f} s."
    )
with st.expander("Warm-up per learner"):
    st.dataframe(
        [
            {
                "learner": LEARNERS[key].title,
                "seconds": round(compiled.seconds, 2),
                "result": compiled.error or "ready",
            }
            for key, compiled in warmup.done.items()
        ],
        hide_index=True,
        width="stretch",
    )
