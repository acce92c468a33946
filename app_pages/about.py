"""About Perceptron Lab: what it shows, the references, and how the app is built."""

import streamlit as st

from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.training import WARMUP
from perceptron_lab.lessons._notation import notation_table
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
st.header("Notation", anchor="notation")
st.markdown(
    "The symbols every lesson uses, and how the papers write them where they differ (each "
    "lesson says so again where the symbol first appears).\n\n" + notation_table()
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
st.header("Accessibility")
#: The statement's date: when it was last checked against the app (docs/accessibility.md
#: carries the same statement, with how each claim is tested).
REVIEWED = "29 November 2026"
st.markdown(
    f"**Accessibility statement**, reviewed on {REVIEWED}. Perceptron Lab aims at the Web "
    "Content Accessibility Guidelines (WCAG) 2.1, level AA, on every page and on the replay "
    "it exports as a web page.\n\n"
    "- **Status: partially conformant.** One criterion is not met (below); the others are "
    "met as far as the project's tests and checks by hand have found.\n"
    "- **The exception: 2.1.1 Keyboard.** The zoom and pan of the replay's figure and charts "
    "(dragging on the plot, and the buttons Plotly shows over it on mouse hover) work with a "
    "pointer only. Plotly draws them; its dozen buttons per chart were taken out of the Tab "
    "order. From the keyboard you keep every number they would show: the figure in words, "
    "the table of the points at the step, the figure's walk by arrow keys, and the figure as "
    "an image under Share and export.\n"
    "- **What it gives you.** Every page has its own title and headings in order; every "
    "other control works from the keyboard and shows where the focus is, the replay's "
    "figure and charts and the data tables included; text and the edges of controls stand "
    "out from their background, in Windows' contrast themes too; nothing runs off a screen "
    "320 px wide. The replay announces each step to a screen reader and describes its "
    "figure in words with a table of its points. With the figure focused, the arrow keys "
    "walk its points (H lists the keys); every chart walks the same way and plays as sound. "
    "Under Your settings the run can sound too: a tone per step, high when the example lies "
    "well on its right side and low when well on the wrong side, a knock for each update. "
    "The replay's one-key shortcuts act only while it has the focus and can be switched "
    "off.\n"
    "- **How it is tested.** In a browser: axe-core with the WCAG 2.0 and 2.1 A and AA "
    "rules on every page, in normal and forced colours; the pages' titles and headings; the "
    "focus at every Tab stop; the contrast of controls' edges; every page 320 px wide; "
    "text spacing in the menu; the status messages; and Orca, a screen reader, hearing the "
    "replay's steps and the figure's walk. By hand: keyboard walks, 200 % zoom and "
    "greyscale. Not tried: NVDA, JAWS, VoiceOver and TalkBack, and Windows itself (its "
    "contrast themes are emulated in the browser).\n"
    "- **Known limits.** A data table moves the focus cell by cell with Tab, as Streamlit's "
    "tables do.\n"
    "- **Found a barrier?** Open an issue in the project's repository, or tell whoever runs "
    "this server: which page, what you tried, your browser and, if you use one, your "
    "assistive technology. The page's address reproduces what you saw."
)
