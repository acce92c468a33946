"""numba's on-disk cache follows the source files compiled into a function, not only its own.

The on-line driver compiles the rules' steps into itself; numba checks only
the driver's file, so an edited rule would keep running the old compiled
step. :func:`perceptron_core._jit.jit` drops a cached compilation when a
file whose code it runs changed since it was made, and only then: an edit of
the command line keeps every compilation.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from perceptron_core import _jit
from perceptron_core.engine import kw_trainer, online
from perceptron_core.rules import NAMES

MODULE = textwrap.dedent("""
    from perceptron_core._jit import jit

    @jit
    def add_one(x):
        return x + 1
""")

RUN = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, sys.argv[1])
    import perceptron_core._jit as _jit
    if sys.argv[2] == "changed":  # as if a rule file had been edited since the last run
        _jit.sources_digest = lambda func: "an edited rule"
    import cached
    cached.add_one(1)
    print(json.dumps(sum(cached.add_one.stats.cache_hits.values())))
""")


def _cache_hits(folder, sources: str) -> int:
    out = subprocess.run(
        [sys.executable, "-c", RUN, str(folder), sources],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout)


#: In a new process: whether the cache holds ``add_one`` before and after its first call.
CACHED = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, sys.argv[1])
    from perceptron_core._jit import is_cached
    import cached
    before = is_cached(cached.add_one)
    cached.add_one(1)
    print(json.dumps([before, is_cached(cached.add_one)]))
""")


def test_is_cached_says_whether_a_compilation_waits_in_the_cache(tmp_path):
    (tmp_path / "cached.py").write_text(MODULE)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}

    def run():
        out = subprocess.run(
            [sys.executable, "-c", CACHED, str(tmp_path)],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        return json.loads(out.stdout)

    assert run() == [False, True]  # an empty cache (with the index the stale check leaves)
    assert run() == [True, True]  # the next process finds it


def _files(dispatcher) -> set[str]:
    return {path.name for path in _jit._source_files(dispatcher.py_func, set())}


def test_a_driver_follows_the_files_of_everything_it_compiles_in_and_nothing_else():
    driver = _files(online.run_online)
    assert {"online.py", "dispatch.py", "vectors.py", "trace.py"} <= driver
    assert {f"{name}.py" for name in NAMES} <= driver  # every rule's step is compiled in
    assert {"cli.py", "linear.py", "kernel.py", "kw_trainer.py"}.isdisjoint(driver)
    kw = _files(kw_trainer.run_epochs)
    assert {"kw_trainer.py", "kw.py", "vectors.py", "trace.py"} <= kw
    assert {"paum.py", "online.py", "cli.py"}.isdisjoint(kw)


@pytest.mark.slow  # compiles from an empty numba cache
def test_a_compilation_is_reused_until_a_source_file_of_the_package_changes(tmp_path):
    (tmp_path / "cached.py").write_text(MODULE)
    assert _cache_hits(tmp_path, "same") == 0  # compiled and cached
    assert _cache_hits(tmp_path, "same") == 1  # loaded from the cache
    assert _cache_hits(tmp_path, "changed") == 0  # the package changed: compiled again
    assert _cache_hits(tmp_path, "changed") == 1  # and cached under the new sources


COMPILED = textwrap.dedent("""
    import json, sys
    from numba.core import event
    recorder = event.RecordingListener()
    event.register("numba:compile", recorder)
    import numpy as np
    from perceptron_core.experiments.fold_run import run_fold
    from perceptron_core.experiments.grids import kw_settings
    from perceptron_lab.app_logic.training import compile_learner
    for key in sys.argv[1:]:
        compile_learner(key)
    X = np.random.default_rng(0).normal(size=(40, 3))  # the experiments' grid
    y = np.where(X[:, 0] > 0, 1, -1)
    run_fold(X, y, np.arange(30), np.arange(30, 40), kw_settings(), 0, epochs=2)
    functions = [(e.data["dispatcher"].py_func, e.data["args"])
                 for _, e in recorder.buffer if e.is_start]
    compiled = [(f.__module__ + "." + f.__qualname__, str(args)) for f, args in functions]
    print(json.dumps(compiled))
""")


#: The tests reading :func:`compiled` run on one worker, which compiles once (25 s).
COMPILED_ONCE = pytest.mark.xdist_group("jit cache: every compilation from an empty cache")


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """``(function, signature)`` of every compilation of the four drivers (KW, the on-line
    switch, the committee, the dual form) and the experiments' grid, from an empty cache."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path_factory.mktemp("numba"))}
    learners = ["perceptron", "pa", "parallel", "kernel"]
    out = subprocess.run(
        [sys.executable, "-c", COMPILED, *learners],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    )
    compiled = json.loads(out.stdout)
    drivers = (
        "kw_trainer.run_epochs",
        "online.run_online",
        "parallel._p_delta",
        "dual_trainer.run_dual_epochs",
        "_grid_kernel.run_grid",
    )
    assert all(any(name.endswith(d) for name, _ in compiled) for d in drivers)
    return compiled


@COMPILED_ONCE
@pytest.mark.slow  # compiles from an empty numba cache
def test_the_loops_compile_without_numbas_error_message_formatting(compiled):
    """A slice assignment in compiled code (``out[:] = w``) makes numba compile its
    shape-mismatch message, and with it its string formatting: on a fresh install that was
    40 % of the default page's compilation."""
    formatting = [n for n, _ in compiled if "raise_with_shape_context" in n or ".unicode." in n]
    assert not formatting


@COMPILED_ONCE
@pytest.mark.slow  # compiles from an empty numba cache
def test_no_loop_compiles_again_for_a_constant_argument(compiled):
    """A call that passes a variable still holding a constant (``n = 0; f(n)``) is typed
    with that literal, and numba compiles ``f`` once more for it: the KW driver's first
    segment compiled the epoch loop twice, on the default page's cold start."""
    literal = [
        (n, sig) for n, sig in compiled if n.startswith("perceptron_core") and "Literal[" in sig
    ]
    assert not literal
