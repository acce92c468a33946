"""About Perceptron Lab: what it shows, the references, and how the app is built."""

import streamlit as st

from app_logic.learners import LEARNERS
from app_logic.training import WARMUP

st.title("About Perceptron Lab")
st.markdown(
    "Perceptron Lab shows how the perceptron and its noise-tolerant variants learn, one "
    "example at a time, and reproduces the research about them. Every picture comes from "
    "the same code the experiments use (`perceptron_core`), trained once and replayed "
    "step by step; the same seed always gives the same picture."
)
st.subheader("The learners in the playground")
st.dataframe(
    [
        {
            "learner": learner.title,
            "what it does": learner.summary,
            "class": f"{learner.cls.__module__}.{learner.cls.__name__}",
        }
        for learner in LEARNERS.values()
    ],
    hide_index=True,
    width="stretch",
)
st.subheader("References")
st.markdown("""
- R. Khardon and G. Wachman, *Noise Tolerant Variants of the Perceptron Algorithm*,
  Journal of Machine Learning Research 8 (2007) 227–248.
- Y. Freund and R. E. Schapire, *Large Margin Classification Using the Perceptron
  Algorithm*, Machine Learning 37 (1999) 277–296 (voted and averaged perceptron).
- Y. Li, H. Zaragoza, R. Herbrich, J. Shawe-Taylor and J. Kandola, *The Perceptron
  Algorithm with Uneven Margins*, ICML 2002 (PAUM).
- I. Cantador and J. R. Dorronsoro, *Boosting Parallel Perceptrons for Label Noise
  Reduction in Classification Problems*, IWINAC 2005, LNCS 3562 (NR boosting).
- P. Auer, H. Burgsteiner and W. Maass, *A learning rule for very simple universal
  approximators consisting of a single layer of perceptrons*, Neural Networks 21 (2008)
  (parallel perceptrons, the p-delta rule).
- N. Littlestone, *Learning Quickly When Irrelevant Attributes Abound: A New
  Linear-threshold Algorithm*, Machine Learning 2 (1988) 285–318 (Winnow).
- A. B. J. Novikoff, *On Convergence Proofs on Perceptrons*, Symposium on the
  Mathematical Theory of Automata (1962) (the mistake bound (R/γ)²).
- C. Gentile, *A New Approximate Maximal Margin Classification Algorithm*, JMLR 2 (2001)
  (ALMA); K. Crammer, O. Dekel, J. Keshet, S. Shalev-Shwartz and Y. Singer, *Online
  Passive-Aggressive Algorithms*, JMLR 7 (2006).
- F. Rosenblatt, *The Perceptron: A Probabilistic Model for Information Storage and
  Organization in the Brain*, Psychological Review 65 (1958) 386–408.
- Data: see each data set's description in the playground; sources and licences are in
  `data/README.md`.
""")
st.subheader("How it is built")
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
