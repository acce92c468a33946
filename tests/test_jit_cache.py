"""numba's on-disk cache follows every source file of the package, not only the function's own.

The on-line driver compiles the rules' steps into itself; numba checks only
the driver's file, so an edited rule would keep running the old compiled
step. :func:`perceptron_core._jit.jit` drops a cached compilation when the
package's sources changed since it was made.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

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
        _jit._sources_digest = lambda: "an edited rule"
    import cached
    cached.add_one(1)
    print(json.dumps(sum(cached.add_one.stats.cache_hits.values())))
""")


def _cache_hits(folder, sources: str) -> int:
    out = subprocess.run([sys.executable, "-c", RUN, str(folder), sources],
                         check=True, capture_output=True, text=True)  # fmt: skip
    return json.loads(out.stdout)


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
    from ui.runs import compile_learner
    for key in sys.argv[1:]:
        compile_learner(key)
    X = np.random.default_rng(0).normal(size=(40, 3))  # the experiments' grid
    y = np.where(X[:, 0] > 0, 1, -1)
    run_fold(X, y, np.arange(30), np.arange(30, 40), kw_settings(), 0, epochs=2)
    print(json.dumps(sorted({f"{e.data['dispatcher'].py_func.__module__}."
                             f"{e.data['dispatcher'].py_func.__qualname__}"
                             for _, e in recorder.buffer})))
""")


def test_the_loops_compile_without_numbas_error_message_formatting(tmp_path):
    """A slice assignment in compiled code (``out[:] = w``) makes numba compile its
    shape-mismatch message, and with it its string formatting: on a fresh install that was
    40 % of the default page's compilation. Every driver (and the experiments' grid) compiles
    here from an empty cache."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    learners = ["perceptron", "pa", "parallel", "kernel"]  # KW, the on-line switch, committee, dual
    out = subprocess.run([sys.executable, "-c", COMPILED, *learners],
                         check=True, capture_output=True, text=True, env=env)  # fmt: skip
    compiled = json.loads(out.stdout)
    drivers = ("kw_trainer.run_epochs", "online.run_online", "parallel._p_delta", "_dual_run",
               "_grid_kernel.run_grid")  # fmt: skip
    assert all(any(name.endswith(d) for name in compiled) for d in drivers)
    formatting = [n for n in compiled if "raise_with_shape_context" in n or ".unicode." in n]
    assert not formatting
