"""A page's run trained uncompiled shows exactly the numbers of the compiled run.

Right after an install numba has compiled nothing, and a page trains its
small run as plain Python (:func:`perceptron_core._jit.uncompiled`) instead
of waiting for the compiler: the same code, so the same numbers, which this
module checks on what the browser is sent, for every learner of the menu.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from perceptron_core._jit import uncompiled
from perceptron_lab.app_logic import training
from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.payload import build_payload
from tests.pages import page_run

#: The default page, noisy overlapping clouds with a test part, and three features (the
#: most a run may have to train uncompiled).
REQUESTS = {
    "default": DataRequest("separable"),
    "noisy": DataRequest("gaussians", noise_kind="uniform", noise_rate=0.1, test_fraction=0.25),
    "3-d": DataRequest("twonorm", (("n_features", 3), ("n_samples", 120)), seed=3),
}


#: Each learner of the menu with its defaults, and settings whose arithmetic the defaults
#: leave out: the polynomial kernel's power (a degree above 2 rounds differently through the
#: C library's ``pow`` than through the multiplications numba compiles ``**`` into).
SETTINGS = [(key, {}) for key in LEARNERS] + [("kernel", {"kernel": "poly", "degree": 5})]


def _payload(key: str, values: dict, request: DataRequest):
    data = make_dataset(request)
    run = page_run(key, values, 20, request.seed, data)
    return build_payload(data, [run], request.seed)


@pytest.mark.numerics
@pytest.mark.parametrize("request_name", REQUESTS)
@pytest.mark.parametrize(
    ("key", "values"),
    SETTINGS,
    ids=[key + "".join(f"-{v}" for v in d.values()) for key, d in SETTINGS],
)
def test_an_uncompiled_run_sends_the_browser_the_numbers_of_the_compiled_run(
    key, values, request_name
):
    request = REQUESTS[request_name]
    assert make_dataset(request).X.shape[1] <= training.UNCOMPILED_FEATURES
    with uncompiled():
        plain = _payload(key, values, request)
    compiled = _payload(key, values, request)
    assert plain.blob == compiled.blob
    assert plain.header == compiled.header
    assert _without_fit_time(plain.meta) == _without_fit_time(compiled.meta)


def _without_fit_time(meta: dict) -> str:
    """The description as JSON, less the fit's wall time (the one number that differs)."""
    lanes = [{k: v for k, v in lane.items() if k != "fit_ms"} for lane in meta["lanes"]]
    return json.dumps({**meta, "lanes": lanes}, sort_keys=True)


def test_a_page_trains_uncompiled_only_small_runs_of_learners_not_compiled_yet(monkeypatch):
    ready = set()
    monkeypatch.setattr(training.WARMUP, "ready", lambda key: key in ready)
    small = np.zeros((100, 2))
    assert training.runs_uncompiled("perceptron", small, 20)
    assert not training.runs_uncompiled("perceptron", small, training.UNCOMPILED_VISITS)
    assert not training.runs_uncompiled("perceptron", np.zeros((100, 4)), 20)
    ready.add("perceptron")
    assert not training.runs_uncompiled("perceptron", small, 20)


#: In a new process with an empty numba cache: every learner's default run, uncompiled,
#: then the names of the functions numba compiled meanwhile.
NOTHING_COMPILES = textwrap.dedent("""
    import json
    from numba.core import event
    compiled = []
    class Listener(event.Listener):
        def on_start(self, ev):
            compiled.append(ev.data["dispatcher"].py_func.__qualname__)
        def on_end(self, ev):
            pass
    event.register("numba:compile", Listener())
    from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
    from perceptron_lab.app_logic.learners import LEARNERS
    from perceptron_lab.app_logic.training import fit_run
    from perceptron_core._jit import uncompiled
    data = make_dataset(DataRequest("separable"))
    with uncompiled():
        for key, learner in LEARNERS.items():
            values = tuple(sorted(learner.defaults().items()))
            fit_run(key, values, 20, 0, data.X, data.y, data.X_test, data.y_test)
    print(json.dumps(compiled))
""")


def test_an_uncompiled_run_compiles_nothing(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", NOTHING_COMPILES],
        env=env,
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert json.loads(out.stdout) == []
