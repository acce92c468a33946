"""scikit-learn's conformance checks over every public estimator of ``perceptron_core``.

The estimators are found, not listed, as scikit-learn's own ``test_common.py`` finds its
own with ``all_estimators()``: every class named in the ``__all__`` of ``perceptron_core``
or of one of its packages that is a scikit-learn ``BaseEstimator``. A class added to
``__all__`` is checked from then on; a public estimator class that is not exported fails
``test_every_public_estimator_class_is_exported``.

What it needs to know about a particular estimator, the estimator carries: ``_check_params``
gives construction parameters (to make a check fast, or further configurations of the same
class worth checking), ``_xfail_checks`` the checks it fails by design, with the reason (as
scikit-learn's own estimators once carried their ``_xfail_checks`` tag). A class with
neither is built with its defaults (and ``random_state=0`` when it takes one: every random
thing takes a seed).

The fast suite runs one estimator of each family, on float64 data; ``-m slow`` runs the
whole matrix. A family is the classes whose ``fit``, ``decision_function`` and ``predict``
come from the same classes (the named linear perceptrons are all ``KWPerceptron``'s code,
the on-line rules all ``OnlineLinearClassifier``'s around a compiled step of their own); the
fast suite checks its most general member (the shortest method resolution order, then the
first name). Marked ``slow``: the other members, the further configurations, and the checks
that feed other storage types than float64 (float32, integers, read-only memory maps, for
each of which numba compiles the loops again). ``check_array_api_input`` is left out
instead of being reported as skipped: it tests other array libraries (CuPy, PyTorch, ...)
through the array API, which needs ``SCIPY_ARRAY_API=1`` and those libraries; our numba
kernels take NumPy arrays only, so the check can never apply here.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import partial

import pytest
from sklearn.base import BaseEstimator
from sklearn.utils.estimator_checks import estimator_checks_generator

import perceptron_core

NOT_APPLICABLE = {"check_array_api_input"}
#: Checks that train on other storage types than float64 (and the arguments that make
#: one of the others do so).
OTHER_STORAGE = {"check_estimators_dtypes", "check_readonly_memmap_input"}
OTHER_STORAGE_ARGUMENTS = {"readonly_memmap", "X_dtype"}
#: The methods whose code makes a family: the protocol, and the on-line learners' engine (the
#: hooks of perceptron_core._estimator.OnlineEstimator and their driver call, which only
#: those learners have).
FAMILY_METHODS = ("fit", "decision_function", "predict", "_train", "_run", "_scores")


def _public_packages():
    """``perceptron_core`` and its packages whose names have no leading underscore."""
    yield perceptron_core
    for info in pkgutil.walk_packages(perceptron_core.__path__, "perceptron_core."):
        if info.ispkg and not any(part.startswith("_") for part in info.name.split(".")):
            yield importlib.import_module(info.name)


def public_classes(module, base: type) -> list[type]:
    """The subclasses of ``base`` that ``module`` defines under a name without a leading
    underscore."""
    return [
        value
        for name, value in vars(module).items()
        if isinstance(value, type)
        and issubclass(value, base)
        and value.__module__ == module.__name__
        and not name.startswith("_")
    ]


def public_estimators() -> list[type]:
    """Every scikit-learn estimator class a package of ``perceptron_core`` exports, by name."""
    found = set()
    for package in _public_packages():
        for name in getattr(package, "__all__", ()):
            value = getattr(package, name)
            if isinstance(value, type) and issubclass(value, BaseEstimator):
                found.add(value)
    return sorted(found, key=lambda cls: cls.__name__)


ESTIMATORS = public_estimators()


def configurations(cls: type) -> list[BaseEstimator]:
    """``cls`` built with each of the construction parameters it carries (``_check_params``:
    the first makes it quick enough for the fast suite, the others are configurations that
    take other paths of its code, checked under ``-m slow``); its defaults if it carries
    none, a class's own (a subclass does not inherit its base's)."""
    seed = {"random_state": 0} if "random_state" in cls().get_params() else {}
    return [cls(**{**seed, **params}) for params in vars(cls).get("_check_params", [{}])]


def expected_failures(cls: type) -> dict[str, str] | None:
    """The checks ``cls`` fails by design, ``{check name: why}`` (its ``_xfail_checks``)."""
    return vars(cls).get("_xfail_checks")


def family(cls: type) -> tuple[str, ...]:
    """The classes that define the methods of :data:`FAMILY_METHODS` for ``cls`` ("" where
    it has none)."""
    return tuple(
        next((owner.__qualname__ for owner in cls.__mro__ if method in vars(owner)), "")
        for method in FAMILY_METHODS
    )


def fast_members(classes: list[type]) -> set[type]:
    """Of each family, the member with the shortest method resolution order (then name)."""
    families: dict[tuple[str, ...], list[type]] = {}
    for cls in classes:
        families.setdefault(family(cls), []).append(cls)
    return {
        min(members, key=lambda cls: (len(cls.__mro__), cls.__name__))
        for members in families.values()
    }


def _check_name(check) -> str:
    while isinstance(check, partial):
        check = check.func
    return check.__name__


def _other_storage(check) -> bool:
    arguments = set()
    while isinstance(check, partial):
        arguments |= set(check.keywords)
        check = check.func
    return check.__name__ in OTHER_STORAGE or bool(arguments & OTHER_STORAGE_ARGUMENTS)


def sklearn_check_cases(classes: list[type]) -> list:
    """A ``pytest.param(estimator, check)`` for every applicable check of every configuration.

    The checks of :func:`expected_failures` are marked ``xfail`` with their reason; what the
    module's docstring says stays out of the fast suite is marked ``slow``.
    """
    fast = fast_members(classes)
    cases = []
    for cls in classes:
        expected = expected_failures(cls)
        for place, estimator in enumerate(configurations(cls)):
            for case in estimator_checks_generator(
                estimator, expected_failed_checks=expected, mark="xfail"
            ):
                # an expected failure comes as pytest.param(estimator, check, marks=xfail)
                est, check = case.values if hasattr(case, "values") else case
                marks = list(case.marks) if hasattr(case, "marks") else []
                name = _check_name(check)
                if name in NOT_APPLICABLE:
                    continue
                if cls not in fast or place > 0 or _other_storage(check):
                    marks.append(pytest.mark.slow)
                cases.append(pytest.param(est, check, marks=marks, id=f"{estimator!r}-{name}"))
    return cases


CASES = sklearn_check_cases(ESTIMATORS)


@pytest.mark.parametrize("estimator, check", CASES)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_every_public_estimator_class_is_exported():
    """An estimator class with a public name in a public module is in some ``__all__``,
    so the checks above find it (scikit-learn's ``all_estimators()`` walks modules the same
    way)."""
    defined = set()
    for info in pkgutil.walk_packages(perceptron_core.__path__, "perceptron_core."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        defined |= set(public_classes(importlib.import_module(info.name), BaseEstimator))
    unexported = sorted(f"{cls.__module__}.{cls.__name__}" for cls in defined - set(ESTIMATORS))
    assert not unexported, f"estimators no __all__ names, so never checked: {unexported}"


def test_every_estimator_is_checked_and_every_family_in_the_fast_suite():
    checked = {type(case.values[0]) for case in CASES}
    assert checked == set(ESTIMATORS)
    fast = {type(case.values[0]) for case in CASES if pytest.mark.slow not in case.marks}
    assert {family(cls) for cls in fast} == {family(cls) for cls in ESTIMATORS}


def test_every_expected_failure_names_a_check_the_estimator_gets():
    """A renamed check leaves no stale reason on an estimator that would silently do
    nothing."""
    named = {(cls, check) for cls in ESTIMATORS for check in expected_failures(cls) or {}}
    assert named  # Winnow's ties, the committee's sample weights
    got = {(type(case.values[0]), _check_name(case.values[1])) for case in CASES}
    assert named <= got
