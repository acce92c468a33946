"""The estimators keep working when a numba release renames the private parts we use.

:mod:`perceptron_core._numba_internals` is the one place that reaches numba's private
names (a function cache's ``flush`` and ``_cache_file``, the ``_nrt`` compile option). Each
test here hides them, in a new process and before the package is imported, as a numba that
renamed them would (numba's own code keeps working), and trains.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from perceptron_core import Perceptron

#: Run first in each process: numba's function caches without ``flush`` and ``_cache_file``
#: (numba itself goes on caching through its other methods), and numba's CPU target without
#: the ``_nrt`` option (a function compiled with it would now fail).
HIDE_PRIVATE_NAMES = textwrap.dedent("""
    from numba.core import cpu, dispatcher

    class RenamedCache:
        def __init__(self, cache):
            self._inner = cache
        def __getattr__(self, name):
            if name in ("flush", "_cache_file"):
                raise AttributeError(name)
            return getattr(self._inner, name)

    enable_caching = dispatcher.Dispatcher.enable_caching
    def enable_renamed_caching(self):
        enable_caching(self)
        self._cache = RenamedCache(self._cache)
    dispatcher.Dispatcher.enable_caching = enable_renamed_caching
    for klass in cpu.CPUTargetOptions.__mro__:
        if "_nrt" in vars(klass):
            delattr(klass, "_nrt")
""")

#: Then train a perceptron and print its predictions (with every cached compilation stale
#: first when asked: ``flush`` is then needed, and missing).
TRAIN = textwrap.dedent("""
    import json, sys
    import numpy as np
    import perceptron_core._jit as _jit
    from perceptron_core import _numba_internals
    if sys.argv[1] == "stale":  # as if a rule file had been edited since the last run
        _jit.sources_digest = lambda func: "an edited rule"
    assert _numba_internals.without_reference_counting() == {}
    from perceptron_core import Perceptron
    from perceptron_core.engine import kw_trainer
    X = np.random.default_rng(0).normal(size=(60, 3))
    y = np.where(X @ [1.0, -2.0, 0.5] > 0, 1, -1)
    clf = Perceptron(random_state=0).fit(X, y)
    print(json.dumps({
        "predictions": clf.predict(X).tolist(),
        "is_cached": _jit.is_cached(kw_trainer.run_epochs),
    }))
""")


def _train_without_private_names(sources: str, env=None) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", HIDE_PRIVATE_NAMES + TRAIN, sources],
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _expected() -> list:
    X = np.random.default_rng(0).normal(size=(60, 3))
    y = np.where(X @ [1.0, -2.0, 0.5] > 0, 1, -1)
    return Perceptron(random_state=0).fit(X, y).predict(X).tolist()


def test_an_estimator_fits_and_predicts_when_numbas_private_names_are_gone():
    out = _train_without_private_names("same")
    assert out["predictions"] == _expected()
    assert out["is_cached"] is False  # cannot tell: the app treats the cache as cold


@pytest.mark.slow  # every loop compiles, without the cache
def test_a_stale_cache_that_cannot_be_dropped_is_not_used(tmp_path):
    # the cache holds compilations of sources that changed since, and this numba gives no
    # way to drop them: the loops compile again, uncached, and train as before
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = _train_without_private_names("stale", env)
    assert out["predictions"] == _expected()
    assert not any(tmp_path.rglob("*.nbi"))  # nothing was written to the cache


#: In a new process: a small module compiled with ``jit`` and ``jit_visit``, with the cache
#: stale and the private names gone; its results.
SMALL = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, sys.argv[2])
    import perceptron_core._jit as _jit
    _jit.sources_digest = lambda func: "an edited rule"
    import small
    print(json.dumps([small.twice(3.0), small.add_one(1)]))
""")

SMALL_MODULE = textwrap.dedent("""
    from perceptron_core._jit import jit, jit_visit

    @jit_visit
    def twice(x):
        return 2.0 * x

    @jit
    def add_one(x):
        return x + twice(x) - x + 1 - twice(x) + x
""")


def test_jit_compiles_without_the_cache_when_it_cannot_drop_a_stale_one(tmp_path):
    (tmp_path / "small.py").write_text(SMALL_MODULE)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    done = subprocess.run(
        [sys.executable, "-c", HIDE_PRIVATE_NAMES + SMALL, "stale", str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [6.0, 2]
    assert not any((tmp_path / "numba").rglob("*.nbi"))  # compiled without the cache
