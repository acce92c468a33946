"""scikit-learn's conformance checks as a pytest parametrization.

Like ``sklearn.utils.estimator_checks.parametrize_with_checks``, with two
differences. The fast suite checks only the first estimator of a list and
only on float64 data: the other estimators (configurations of the same
code) and the checks that feed other storage types (float32, integers,
read-only memory maps, for each of which numba compiles the loops again)
are marked ``slow``. And ``check_array_api_input`` is left out instead of
being reported as skipped. It tests other array libraries (CuPy, PyTorch, ...) through the
array API, which needs ``SCIPY_ARRAY_API=1`` and those libraries; our numba
kernels take NumPy arrays only, so the check can never apply here.
"""

from functools import partial

import pytest
from sklearn.utils.estimator_checks import estimator_checks_generator

NOT_APPLICABLE = {"check_array_api_input"}
#: Checks that train on other storage types than float64 (and the arguments that make
#: one of the others do so).
OTHER_STORAGE = {"check_estimators_dtypes", "check_readonly_memmap_input"}
OTHER_STORAGE_ARGUMENTS = {"readonly_memmap", "X_dtype"}


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


def parametrize_with_sklearn_checks(estimators, expected_failed_checks=None):
    """Parametrize ``(estimator, check)`` over every applicable check.

    ``expected_failed_checks(estimator)`` may return ``{check name: reason}``;
    those checks are marked ``xfail`` with the reason. Every estimator after
    the first, and every check on other storage than float64, is marked ``slow``.
    """
    cases = []
    for place, estimator in enumerate(estimators):
        expected = expected_failed_checks(estimator) if expected_failed_checks else None
        for case in estimator_checks_generator(
            estimator, expected_failed_checks=expected, mark="xfail"
        ):
            # an expected failure comes as pytest.param(estimator, check, marks=xfail)
            est, check = case.values if hasattr(case, "values") else case
            marks = list(case.marks) if hasattr(case, "marks") else []
            if place > 0 or _other_storage(check):
                marks.append(pytest.mark.slow)
            name = _check_name(check)
            if name in NOT_APPLICABLE:
                continue
            cases.append(pytest.param(est, check, marks=marks, id=f"{estimator!r}-{name}"))
    return pytest.mark.parametrize("estimator, check", cases)
