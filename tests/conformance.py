"""scikit-learn's conformance checks as a pytest parametrization.

Like ``sklearn.utils.estimator_checks.parametrize_with_checks``, with one
difference: ``check_array_api_input`` is left out instead of being reported
as skipped. It tests other array libraries (CuPy, PyTorch, ...) through the
array API, which needs ``SCIPY_ARRAY_API=1`` and those libraries; our numba
kernels take NumPy arrays only, so the check can never apply here.
"""

from functools import partial

import pytest
from sklearn.utils.estimator_checks import estimator_checks_generator

NOT_APPLICABLE = {"check_array_api_input"}


def _check_name(check) -> str:
    while isinstance(check, partial):
        check = check.func
    return check.__name__


def parametrize_with_sklearn_checks(estimators, expected_failed_checks=None):
    """Parametrize ``(estimator, check)`` over every applicable check.

    ``expected_failed_checks(estimator)`` may return ``{check name: reason}``;
    those checks are marked ``xfail`` with the reason.
    """
    cases = []
    for estimator in estimators:
        expected = expected_failed_checks(estimator) if expected_failed_checks else None
        for case in estimator_checks_generator(
            estimator, expected_failed_checks=expected, mark="xfail"
        ):
            # an expected failure comes as pytest.param(estimator, check, marks=xfail)
            est, check = case.values if hasattr(case, "values") else case
            marks = case.marks if hasattr(case, "marks") else ()
            name = _check_name(check)
            if name in NOT_APPLICABLE:
                continue
            cases.append(pytest.param(est, check, marks=marks, id=f"{estimator!r}-{name}"))
    return pytest.mark.parametrize("estimator, check", cases)
