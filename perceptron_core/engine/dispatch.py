"""The on-line rules the driver knows, and the switches that pick one by its number.

A rule is the module of its step in :mod:`perceptron_core.steps` (which says
what a rule's file defines); :data:`RULES` finds them there, and a rule's
number is its place in that list (by file name). A new rule is its step's
file and its estimator in :mod:`perceptron_core.rules` (a file of the same
name); nothing here names it (the app's menu entry, if it has one, is the
app's: ``app_logic/rule_menu.py``).

The driver (:func:`perceptron_core.engine.online.run_online`) calls
:func:`step`, :func:`answer` and :func:`hypothesis` with the rule's number.
numba caches a function on disk only when it calls fixed functions: the
switches unroll over tuples of the rules' functions, fixed when this module
is imported, so a warm start loads the driver from the cache, where passing
a step as an argument would recompile it in every new process.

Every rule's settings cross into the driver as one tuple type,
:data:`N_HYPER` floats (:func:`pad`), so one compilation of the driver
serves every rule; the switch hands each step its own ``Settings`` again
(:func:`unpad`), so a step reads ``settings.eta``, never a position.

For whoever edits a rule: numba checks only the source file of the function
it loads from its cache, and the steps are compiled into the driver;
:func:`perceptron_core._jit.jit` therefore drops a cached compilation when
any source file compiled into it has changed, so the next run compiles the
edited step (and the driver) again. The files' names count too: a rule's
file added or removed (which renumbers the rules) compiles the driver again.
"""

import importlib
import pkgutil
import warnings

from numba import literal_unroll
from numba.core.errors import NumbaExperimentalFeatureWarning
from numba.extending import overload

from perceptron_core import steps
from perceptron_core._jit import jit_visit
from perceptron_core.steps import BIAS
from perceptron_core.trace import CORRECT
from perceptron_core.vectors import copy_into


def _rules_in_steps() -> tuple:
    """The modules of :mod:`perceptron_core.steps` that define a rule's ``step``, by file
    name (``steps/kw.py``, the KW trainer's, defines none)."""
    modules = (
        importlib.import_module(f"{steps.__name__}.{info.name}")
        for info in sorted(pkgutil.iter_modules(steps.__path__), key=lambda info: info.name)
    )
    return tuple(module for module in modules if hasattr(module, "step"))


#: The modules of the rules' steps; a rule's number is its place here.
RULES = _rules_in_steps()
#: The rules' names: their files' in :mod:`perceptron_core.steps` and in
#: :mod:`perceptron_core.rules` (the estimators').
NAMES = tuple(rule.__name__.rpartition(".")[2] for rule in RULES)

#: The length of every rule's settings as the driver passes them (padded with zeros): a
#: tuple lives in registers, where an array's numbers would be reloaded after every store
#: into the weights (the compiler cannot rule out that they overlap).
N_HYPER = 8

# numba types a tuple of compiled functions with its "first-class function" feature and
# warns that it is experimental; the calls below are cached like any call of a fixed
# function, and LLVM inlines them (jit_visit; bench_rules.py measures the driver).
warnings.filterwarnings("ignore", "First-class function type", NumbaExperimentalFeatureWarning)


def number(rule: str) -> int:
    """The number of the rule whose file (its estimator's or its step's) is the module named
    ``rule`` (its place in :data:`RULES`).

    >>> number("perceptron_core.rules.pocket") == number("perceptron_core.steps.pocket")
    True
    >>> RULES[number("perceptron_core.rules.pocket")].__name__
    'perceptron_core.steps.pocket'
    """
    return NAMES.index(rule.rpartition(".")[2])


def pad(settings) -> tuple:
    """A rule's ``Settings`` as the driver passes them: :data:`N_HYPER` floats.

    >>> from perceptron_core.steps import thick_separator
    >>> pad(thick_separator.Settings(xb=1.0, eta=0.5, gamma=2))
    (1.0, 0.5, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    """
    if len(settings) > N_HYPER:
        raise ValueError(
            f"{type(settings).__qualname__} has {len(settings)} fields; the "
            f"driver passes at most N_HYPER = {N_HYPER}"
        )
    return tuple(float(v) for v in settings) + (0.0,) * (N_HYPER - len(settings))


def unpad(settings_class, hp):
    """The rule's ``settings_class`` again from the driver's padded tuple ``hp``.

    >>> from perceptron_core.steps import thick_separator
    >>> unpad(thick_separator.Settings, (1.0, 0.5, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0))
    Settings(xb=1.0, eta=0.5, gamma=2.0)
    """
    return settings_class(*hp[: len(settings_class._fields)])


@overload(unpad, inline="always")
def _compiled_unpad(settings_class, hp):
    """:func:`unpad` in compiled code: the number of fields is read while numba types the call."""
    n_fields = len(settings_class.instance_class._fields)

    def impl(settings_class, hp):
        return settings_class(*hp[:n_fields])

    return impl


@jit_visit
def latest(state, p):
    """The default :func:`answer`: -1, which :func:`answer` reads as "the latest hypothesis"."""
    return -1


@jit_visit
def weights_and_bias(state, p, settings, out):
    """The default :func:`hypothesis`: ``w`` and ``theta = -b`` (the bias, :data:`BIAS`)."""
    copy_into(out, state.weights[p])
    return -state.numbers[p, BIAS]


STEPS = tuple((rule.step, rule.Settings) for rule in RULES)
ANSWERS = tuple(getattr(rule, "answer", latest) for rule in RULES)
HYPOTHESES = tuple(
    (getattr(rule, "hypothesis", weights_and_bias), rule.Settings) for rule in RULES
)


# The switches: numba unrolls each loop into one branch per rule. They count with a
# variable and assign, not return, inside the loop: numba 0.68 unrolls neither
# enumerate(literal_unroll(...)) nor a loop that returns from its body (tried).


@jit_visit
def step(rule, X, Y, p, j, a, state, hp):
    """The visit of example ``j`` in problem ``p`` under rule number ``rule``."""
    visit = (CORRECT, 0.0, 0.0, 0.0)
    i = 0
    for rule_step in literal_unroll(STEPS):
        if i == rule:
            visit = rule_step[0](X, Y, p, j, a, state, unpad(rule_step[1], hp))
        i += 1  # noqa: SIM113
    return visit


@jit_visit
def answer(rule, state, p, n_updates):
    """The number of the hypothesis problem ``p`` answers with, after ``n_updates`` updates.

    The latest, but for a rule that answers with an earlier one (the pocket algorithm).
    """
    held = -1
    i = 0
    for rule_answer in literal_unroll(ANSWERS):
        if i == rule:
            held = rule_answer(state, p)
        i += 1  # noqa: SIM113
    return n_updates if held < 0 else held


@jit_visit
def hypothesis(rule, state, p, hp, out):
    """Write problem ``p``'s weights into ``out``; returns its threshold ``theta``."""
    theta = 0.0
    i = 0
    for rule_hypothesis in literal_unroll(HYPOTHESES):
        if i == rule:
            theta = rule_hypothesis[0](state, p, unpad(rule_hypothesis[1], hp), out)
        i += 1  # noqa: SIM113
    return theta
