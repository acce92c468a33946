"""The on-line rules: what one visit of one example does, and the estimators that run it.

A rule has two files of one name: its step in ``steps/`` and, here, the
scikit-learn estimator that runs it (its parameters declared with
:func:`perceptron_core._validation.parameter`), which also shows the step to
its readers as ``<rule>.step``. A new rule is those two files and its step's
place in :data:`RULES` (the app's menu entry, if it has one, is the app's:
``app_logic/rule_menu.py``). The two are apart so that the imports point one
way: an estimator imports its base, which calls the driver
(:mod:`perceptron_core.engine.online`), which imports the steps and no
estimator. The step is a compiled function::

    step(X, Y, p, j, a, model, hp) -> (kind, score, coef, theta_delta)

for the visit of example ``j`` (row ``X[j]``, label ``Y[p, j]`` = ±1) in
one-vs-rest problem ``p``, which has updated on that example ``a`` times so
far. ``model = (W, V, S)`` is the rule's state, changed in place: ``W[p]``
the weights, ``V[p]`` a second weight vector if the rule has one (Balanced
Winnow's ``w-``, the pocket), ``S[p]`` its few numbers (the bias, a
threshold, a counter); ``hp`` its hyper-parameters, a tuple of floats. It
returns the event (``CORRECT``, ``MISTAKE``, ``MARGIN`` or ``RESCUED`` of
:mod:`perceptron_core.trace`; ``MISTAKE`` and ``MARGIN`` mean the
hypothesis changed), the score to record, and for additive rules the
update ``w += coef * x, theta += theta_delta`` (NaN otherwise).

The driver (:func:`perceptron_core.engine.online.run_online`) does the rest.
It picks a rule by its number, the rule's place in :data:`RULES`. A rule may
also define ``answer(model, p)`` (the hypothesis it answers with, when not
the latest) and ``hypothesis(model, p, hp, out)`` (its weights, when they
are not ``W[p]`` and the bias ``S[p, 0]``). numba caches a function on disk
only when it calls fixed functions: the switches below unroll over tuples of
the rules' functions, fixed when this module is imported, so a warm start
loads the driver from the cache, where passing a step as an argument would
recompile it in every new process. Every function a rule defines for the
driver is compiled with :func:`perceptron_core._jit.jit_visit`, which has
LLVM inline it into the driver without reference counting (see there why),
so a step allocates no array.

For whoever edits a rule: numba checks only the source file of the function
it loads from its cache, and the steps are compiled into the driver;
:func:`perceptron_core._jit.jit` therefore drops every cached compilation
when any source file of the package has changed, so the next run compiles
the edited step (and everything else) again. That holds for any edit of a
rule's step or its estimator (a docstring too).
"""

import warnings

from numba import literal_unroll
from numba.core.errors import NumbaExperimentalFeatureWarning

from perceptron_core._jit import jit_visit
from perceptron_core.rules.steps import alma as alma_step
from perceptron_core.rules.steps import balanced_winnow as balanced_winnow_step
from perceptron_core.rules.steps import passive_aggressive as passive_aggressive_step
from perceptron_core.rules.steps import paum as paum_step
from perceptron_core.rules.steps import pocket as pocket_step
from perceptron_core.rules.steps import relative_update as relative_update_step
from perceptron_core.rules.steps import thick_separator as thick_separator_step
from perceptron_core.rules.steps import winnow as winnow_step
from perceptron_core.trace import CORRECT
from perceptron_core.vectors import copy_into

#: The modules of the rules' steps (``steps/<name>.py``); a rule's number is its place here.
#: They are bound here as ``<name>_step``, never by their bare names: ``perceptron_core.rules.
#: <name>`` is the rule's estimator module, and a step bound as ``<name>`` would stand in for it
#: until that module was imported (``from perceptron_core.rules import paum`` would give the
#: step).
RULES = (
    paum_step,
    thick_separator_step,
    pocket_step,
    relative_update_step,
    passive_aggressive_step,
    alma_step,
    balanced_winnow_step,
    winnow_step,
)
#: The rules' names: their files' in ``steps/`` and here (the estimators').
NAMES = tuple(rule.__name__.rpartition(".")[2] for rule in RULES)

# numba types a tuple of compiled functions with its "first-class function" feature and
# warns that it is experimental; the calls below are cached like any call of a fixed
# function, and LLVM inlines them (jit_visit; bench_rules.py measures the driver).
warnings.filterwarnings("ignore", "First-class function type", NumbaExperimentalFeatureWarning)


def number(rule: str) -> int:
    """The number of the rule whose file (its estimator's or its step's) is the module named
    ``rule`` (its place in :data:`RULES`)."""
    return NAMES.index(rule.rpartition(".")[2])


@jit_visit
def latest(model, p):
    """The default :func:`answer`: -1, which :func:`answer` reads as "the latest hypothesis"."""
    return -1


@jit_visit
def weights_and_bias(model, p, hp, out):
    """The default :func:`hypothesis`: ``W[p]`` and ``theta = -S[p, 0]`` (the bias ``b``)."""
    W, _, S = model
    copy_into(out, W[p])
    return -S[p, 0]


STEPS = tuple(rule.step for rule in RULES)
ANSWERS = tuple(getattr(rule, "answer", latest) for rule in RULES)
HYPOTHESES = tuple(getattr(rule, "hypothesis", weights_and_bias) for rule in RULES)


# The switches: numba unrolls each loop into one branch per rule. They count with a
# variable and assign, not return, inside the loop: numba 0.68 unrolls neither
# enumerate(literal_unroll(...)) nor a loop that returns from its body (tried).


@jit_visit
def step(rule, X, Y, p, j, a, model, hp):
    """The visit of example ``j`` in problem ``p`` under rule number ``rule``."""
    visit = (CORRECT, 0.0, 0.0, 0.0)
    i = 0
    for rule_step in literal_unroll(STEPS):
        if i == rule:
            visit = rule_step(X, Y, p, j, a, model, hp)
        i += 1  # noqa: SIM113
    return visit


@jit_visit
def answer(rule, model, p, n_updates):
    """The number of the hypothesis problem ``p`` answers with, after ``n_updates`` updates.

    The latest, but for a rule that answers with an earlier one (the pocket algorithm).
    """
    held = -1
    i = 0
    for rule_answer in literal_unroll(ANSWERS):
        if i == rule:
            held = rule_answer(model, p)
        i += 1  # noqa: SIM113
    return n_updates if held < 0 else held


@jit_visit
def hypothesis(rule, model, p, hp, out):
    """Write problem ``p``'s weights into ``out``; returns its threshold ``theta``."""
    theta = 0.0
    i = 0
    for rule_hypothesis in literal_unroll(HYPOTHESES):
        if i == rule:
            theta = rule_hypothesis(model, p, hp, out)
        i += 1  # noqa: SIM113
    return theta
