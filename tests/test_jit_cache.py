"""numba's on-disk cache follows every source file of the package, not only the function's own.

The on-line driver compiles the rules' steps into itself; numba checks only
the driver's file, so an edited rule would keep running the old compiled
step. :func:`perceptron_core._jit.jit` drops a cached compilation when the
package's sources changed since it was made.
"""

from __future__ import annotations

import json
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
