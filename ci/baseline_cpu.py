"""The baseline-CPU pass of ``.ci/run``: which of this CPU's features to disable, and a check.

``python ci/baseline_cpu.py features`` prints the SIMD features NumPy found on this CPU
above its baseline (the value for ``NPY_DISABLE_CPU_FEATURES``: read from NumPy, so it fits
any machine and any NumPy version). ``python ci/baseline_cpu.py check``, run with that
setting, ``OPENBLAS_CORETYPE`` and ``NUMBA_CPU_NAME=generic``, fails unless NumPy, OpenBLAS
and numba really run on the baseline, and prints what they use.
"""

from __future__ import annotations

import sys

import numpy as np


def simd_extensions() -> dict:
    """NumPy's ``{"baseline": [...], "found": [...], "not found": [...]}`` at run time."""
    return np.show_config(mode="dicts")["SIMD Extensions"]


def check() -> None:
    import numba
    from threadpoolctl import threadpool_info

    simd = simd_extensions()
    assert not simd.get("found"), f"NumPy still dispatches to {simd['found']}"
    assert numba.config.CPU_NAME == "generic", f"numba compiles for {numba.config.CPU_NAME}"
    blas = sorted(
        {i.get("architecture", "?") for i in threadpool_info() if i["user_api"] == "blas"}
    )
    print(
        f"baseline CPU: NumPy {np.__version__} uses {' '.join(simd['baseline'])} only "
        f"(disabled: {' '.join(simd.get('not found', []))}); OpenBLAS kernels {', '.join(blas)}; "
        f"numba {numba.__version__} compiles for a generic CPU"
    )


if __name__ == "__main__":
    if sys.argv[1:] == ["features"]:
        print(" ".join(simd_extensions().get("found", [])))
    elif sys.argv[1:] == ["check"]:
        check()
    else:
        sys.exit("usage: python ci/baseline_cpu.py features|check")
