"""Processes that compile at the same time keep numba's on-disk cache right.

numba's index maps each signature of a function to a data file, and a save
takes no lock: two processes saving two signatures at once could both take
the first free file name, and the index then sent one signature to the
other's compilation, whose entry point refused the arguments ("can't unbox
array from PyObject into native value"). That happened in CI, two test
workers compiling the on-line driver for uint8 and float64 data at once.
:func:`perceptron_core._numba_internals.guard_cache` saves under a lock and
treats a compilation loaded for another signature as not cached.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap

#: Whether another process holds the lock beside the index at ``index_path``.
LOCK_HELD = textwrap.dedent("""
    import fcntl, json
    def lock_held(index_path):
        with open(index_path + ".lock") as other:
            try:
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(other, fcntl.LOCK_UN)
            return False
""")

#: Compile ``squared_norms`` for float64 and uint8 rows into the cache, and say whether
#: every save found the lock beside the index held (by its own process).
SAVE = LOCK_HELD + textwrap.dedent("""
    import numpy as np
    from perceptron_core.vectors import squared_norms
    cache_file = squared_norms._cache._cache_file
    write = cache_file._save_data
    held = []
    def checking(name, data):
        held.append(lock_held(cache_file._index_path))
        write(name, data)
    cache_file._save_data = checking
    squared_norms(np.ones((2, 3)))
    squared_norms(np.ones((2, 3), dtype=np.uint8))
    print(json.dumps(held))
""")

#: Import ``squared_norms`` (whose sources' stamp the test changed, so its index is
#: dropped as the module loads), and say for each index written whether the lock was held.
DROP = LOCK_HELD + textwrap.dedent("""
    from pathlib import Path
    from numba.core import caching
    write_index = caching.IndexDataCacheFile._save_index
    held = []
    def checking(self, overloads):
        held.append([Path(self._index_path).stem, lock_held(self._index_path)])
        write_index(self, overloads)
    caching.IndexDataCacheFile._save_index = checking
    from perceptron_core.vectors import squared_norms
    from perceptron_core._jit import is_cached
    print(json.dumps([held, is_cached(squared_norms)]))
""")

#: Squared norms of uint8 rows, from the cache if it has them.
LOAD = textwrap.dedent("""
    import json
    import numpy as np
    from perceptron_core.vectors import squared_norms
    print(json.dumps(squared_norms(np.full((2, 3), 2, dtype=np.uint8)).tolist()))
""")


def _run(code, cache):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.splitlines()[-1])


def test_a_save_holds_the_lock_and_a_crossed_index_is_compiled_again(tmp_path):
    assert _run(SAVE, tmp_path) == [True, True]  # each compilation saved under the lock
    (index,) = tmp_path.rglob("vectors.squared_norms-*.nbi")
    float_file, uint8_file = sorted(index.parent.glob(f"{index.stem}.*.nbc"))
    # what the race left: the uint8 entry's file holds the float64 compilation
    shutil.copyfile(float_file, uint8_file)
    assert _run(LOAD, tmp_path) == [12.0, 12.0]  # not "can't unbox array ..."
    assert b"uint8" in uint8_file.read_bytes()  # saved again under its own name


def test_dropping_the_index_after_a_source_change_holds_the_lock(tmp_path):
    _run(SAVE, tmp_path)
    (index,) = tmp_path.rglob("vectors.squared_norms-*.nbi")
    (index.parent / "vectors.squared_norms.sources").write_text("an older source")
    held, still_cached = _run(DROP, tmp_path)
    assert held == [[index.stem, True]]  # the one index dropped, under the lock
    assert not still_cached
