"""The learners compile once per process: the default page never waits for the others.

The :class:`~app_logic.warmup.Warmup` tests use a stand-in compile function held
at a gate (a threading.Event), so "still compiling" is a state the test
controls, not a race; the app tests swap the process's warm-up for one
whose background compilation of a learner waits at such a gate.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from perceptron_lab.app_logic import training
from perceptron_lab.app_logic import warmup as warmup_module
from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.training import compile_learner
from perceptron_lab.app_logic.warmup import Warmup, in_child_process
from tests.player_args import player_args

APP = str(Path(__file__).resolve().parents[1] / "router.py")
#: Long enough for any compilation here; reaching it means something waited for ever.
PATIENCE = 120


def _shown_learner(at: AppTest) -> str:
    """The learner of the run the playground sent to its playback component."""
    return player_args(at, "pg_player")["meta"]["lanes"][0]["key"]


class GatedCompiler:
    """``compile_one`` that records who compiled what, and holds the ``gated`` keys."""

    def __init__(self, gated=(), failing=(), real=False):
        self.gate = threading.Event()
        self.started = {key: threading.Event() for key in gated}
        self.failing = set(failing)
        self.real = real
        self.calls = Counter()
        self.threads = {}

    def __call__(self, key):
        self.calls[key] += 1
        self.threads[key] = threading.current_thread().name
        if key in self.started:
            self.started[key].set()
            assert self.gate.wait(PATIENCE), "the test never opened the gate"
        if key in self.failing:
            raise RuntimeError(f"no compiler for {key}")
        if self.real:
            compile_learner(key)


def _in_thread(func, *args):
    """Run ``func`` in a thread; returns (thread, results list filled when it ends)."""
    results = []
    thread = threading.Thread(target=lambda: results.append(func(*args)), daemon=True)
    thread.start()
    return thread, results


def test_default_learner_does_not_wait_while_the_background_compiles_another():
    compiler = GatedCompiler(gated=["slow"])
    warmup = Warmup(["default", "slow", "other"], compiler)
    warmup.ensure("default")
    assert warmup.start_background()
    assert compiler.started["slow"].wait(PATIENCE)
    thread, results = _in_thread(warmup.ensure, "default")
    thread.join(PATIENCE)
    assert not thread.is_alive() and results[0].error is None  # answered with the gate shut
    assert not warmup.ready("slow")
    compiler.gate.set()
    assert warmup.wait(PATIENCE)


def test_a_second_request_for_a_compiling_learner_waits_then_works():
    compiler = GatedCompiler(gated=["slow"])
    warmup = Warmup(["slow"], compiler)
    warmup.start_background()
    assert compiler.started["slow"].wait(PATIENCE)
    thread, results = _in_thread(warmup.ensure, "slow")
    thread.join(0.5)
    assert thread.is_alive()  # waiting for the background's compilation, not starting its own
    compiler.gate.set()
    thread.join(PATIENCE)
    assert not thread.is_alive() and results[0].error is None
    assert compiler.calls["slow"] == 1
    assert compiler.threads["slow"] == "perceptron-lab-warmup"


def test_a_learner_picked_before_its_turn_compiles_in_the_callers_thread_once():
    compiler = GatedCompiler(gated=["slow"])
    warmup = Warmup(["slow", "later"], compiler)
    warmup.start_background()
    assert compiler.started["slow"].wait(PATIENCE)
    warmup.ensure("later")  # the background is still busy with "slow"
    assert compiler.threads["later"] == threading.current_thread().name
    compiler.gate.set()
    assert warmup.wait(PATIENCE)
    assert compiler.calls == Counter({"slow": 1, "later": 1})  # the background skipped it


def test_a_failure_in_the_background_is_reported_and_nobody_waits_for_it():
    compiler = GatedCompiler(failing=["broken"])
    warmup = Warmup(["broken", "fine"], compiler)
    warmup.start_background()
    assert warmup.wait(PATIENCE)
    status = warmup.status()
    assert status.finished and status.seconds >= 0
    assert status.failed == {"broken": "RuntimeError: no compiler for broken"}
    assert warmup.ensure("broken").error == "RuntimeError: no compiler for broken"
    assert warmup.ensure("fine").error is None
    assert compiler.calls == Counter({"broken": 1, "fine": 1})  # failures are not retried here


def test_many_sessions_at_once_compile_each_learner_exactly_once():
    keys = [f"learner{i}" for i in range(6)]
    compiler = GatedCompiler(gated=keys)
    warmup = Warmup(keys, compiler)
    sessions = [_in_thread(warmup.ensure, key) for key in keys * 4]
    warmup.start_background()
    assert not warmup.status().finished
    compiler.gate.set()
    for thread, _ in sessions:
        thread.join(PATIENCE)
    assert all(len(results) == 1 and results[0].error is None for _, results in sessions)
    assert warmup.wait(PATIENCE)
    assert compiler.calls == Counter(dict.fromkeys(keys, 1))


def test_status_counts_until_every_learner_is_done():
    compiler = GatedCompiler(gated=["b"])
    warmup = Warmup(["a", "b"], compiler)
    assert warmup.status().running_for == 0 and warmup.status().done == {}
    warmup.ensure("a")
    warmup.start_background()
    assert compiler.started["b"].wait(PATIENCE)
    status = warmup.status()
    assert list(status.done) == ["a"] and not status.finished and status.seconds is None
    compiler.gate.set()
    warmup.wait(PATIENCE)
    assert warmup.status().finished and list(warmup.status().done) == ["a", "b"]


def test_stop_waits_for_the_learner_being_compiled_and_starts_no_other():
    compiler = GatedCompiler(gated=["slow"])
    warmup = Warmup(["slow", "later"], compiler)
    warmup.start_background()
    assert compiler.started["slow"].wait(PATIENCE)
    assert warmup.stop(timeout=0.2) is False  # "slow" is still at its gate
    thread, results = _in_thread(warmup.stop, PATIENCE)
    thread.join(0.5)
    assert thread.is_alive()  # an exit would wait here, not end inside the compiler
    compiler.gate.set()
    thread.join(PATIENCE)
    assert results == [True]
    assert compiler.calls == Counter({"slow": 1})  # "later" never started
    assert not warmup.ready("later") and not warmup.status().finished


def test_stop_ends_the_child_compiling_ahead_and_compiles_nothing_more():
    started = threading.Event()

    def ahead(keys):
        started.set()
        in_child_process("signal", "pause")  # stands for a child compiling every learner

    compiler = GatedCompiler()
    warmup = Warmup(["a", "b"], compiler, ahead, then=lambda: compiler("then"))
    warmup.start_background()
    assert started.wait(PATIENCE)
    deadline = time.monotonic() + PATIENCE
    while not warmup_module._children and time.monotonic() < deadline:  # the child is up
        time.sleep(0.01)
    begin = time.monotonic()
    assert warmup.stop(timeout=PATIENCE)
    assert time.monotonic() - begin < PATIENCE / 2  # the child was ended, not waited for
    assert compiler.calls == Counter()  # neither the learners nor the last step ran


def test_a_process_that_ends_lets_the_learner_being_compiled_finish_and_starts_no_other(
    tmp_path,
):
    """At exit the process waits for the compilation under way (``atexit``): one that
    ended inside numba's compiler could abort ("terminate called without an active
    exception"), as the app's first page did when a script returned right after it."""
    script = textwrap.dedent(
        f"""
        import time
        from pathlib import Path
        from perceptron_lab.app_logic.warmup import Warmup
        def compile_one(key):
            time.sleep(1)
            Path({str(tmp_path)!r}, key).touch()
        Warmup(["first", "second"], compile_one).start_background()
        time.sleep(0.2)  # "first" is compiling when the script returns
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=PATIENCE)
    assert done.returncode == 0, done.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["first"]


# -- in the app -----------------------------------------------------------------------


@pytest.fixture
def gated_app(monkeypatch):
    """The app with a fresh warm-up whose background holds "kw" at a gate (others compile)."""
    compiler = GatedCompiler(gated=["kw"], failing=["alma"], real=True)
    warmup = Warmup(LEARNERS, compiler)
    monkeypatch.setattr(training, "WARMUP", warmup)
    at = AppTest.from_file(APP, default_timeout=PATIENCE)
    yield at, warmup, compiler
    compiler.gate.set()
    warmup.wait(PATIENCE)


def test_first_page_trains_uncompiled_while_the_learners_compile_in_the_background(gated_app):
    at, warmup, compiler = gated_app
    at.run()  # would time out if the page waited for "kw" (its gate is shut)
    assert not at.exception and not at.error
    assert _shown_learner(at) == "perceptron"
    assert compiler.started["kw"].wait(PATIENCE)  # the background started after the page
    # the page compiled nothing: the background compiled its learner, then got to "kw"
    assert compiler.threads == dict.fromkeys(["perceptron", "kw"], "perceptron-lab-warmup")
    assert not warmup.ready("kw")


def test_a_small_run_of_the_learner_being_compiled_does_not_wait_for_it(gated_app):
    at, warmup, compiler = gated_app
    at.run()
    assert compiler.started["kw"].wait(PATIENCE)
    at.selectbox(key="pg_learner").set_value("kw").run()  # would time out if it waited
    assert not at.exception and not at.error
    assert _shown_learner(at) == "kw"
    assert not warmup.ready("kw") and compiler.calls["kw"] == 1


def test_a_large_run_of_the_learner_being_compiled_waits_for_it_then_draws(gated_app):
    at, warmup, compiler = gated_app
    at.run()
    assert compiler.started["kw"].wait(PATIENCE)
    at.selectbox(key="pg_data").set_value("twonorm").run()  # 20 features: too many uncompiled
    picked = at.selectbox(key="pg_learner").set_value("kw")
    thread, _ = _in_thread(picked.run)
    thread.join(0.5)
    assert thread.is_alive()  # the session waits for the background's compilation
    compiler.gate.set()
    thread.join(PATIENCE)
    assert not thread.is_alive()
    assert not at.exception and not at.error
    assert _shown_learner(at) == "kw"
    assert compiler.calls["kw"] == 1


def test_about_page_reports_the_warm_up_and_a_failure_does_not_break_the_app(gated_app):
    at, warmup, compiler = gated_app
    at.run()
    compiler.gate.set()
    assert warmup.wait(PATIENCE)
    at.switch_page("app_pages/about.py").run()
    assert not at.exception and not at.error
    caption = " ".join(c.value for c in at.caption)
    assert f"prepared the compiled learners in {warmup.status().seconds:.1f} s" in caption
    table = at.dataframe[-1].value
    assert set(table["learner"]) == {learner.title for learner in LEARNERS.values()}
    assert "RuntimeError: no compiler for alma" in set(table["result"])
    at.switch_page("app_pages/playground.py").run()
    at.selectbox(key="pg_learner").set_value("alma").run()  # its fit compiles on use
    assert not at.exception and not at.error
    assert _shown_learner(at) == "alma"


def test_the_background_hands_the_learners_nobody_asked_for_to_another_process_first():
    order = []
    compiler = GatedCompiler()
    warmup = Warmup(
        ["a", "b", "c"],
        lambda key: (order.append(key), compiler(key)),
        lambda keys: order.append(("elsewhere", tuple(keys))),
    )
    warmup.ensure("b")
    warmup.start_background()
    assert warmup.wait(PATIENCE)
    assert order == ["b", ("elsewhere", ("a", "c")), "a", "c"]


def test_when_the_other_process_fails_the_background_compiles_everything_itself():
    compiler = GatedCompiler()

    def broken(keys):
        raise RuntimeError("no child processes here")

    warmup = Warmup(["a", "b"], compiler, broken)
    warmup.start_background()
    assert warmup.wait(PATIENCE)
    assert warmup.status().failed == {}
    assert compiler.calls == Counter({"a": 1, "b": 1})


@pytest.mark.slow  # compiles from an empty numba cache
def test_the_child_process_fills_numbas_cache_and_this_process_then_only_loads(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    training.compile_in_child(["pa"])
    assert list(tmp_path.rglob("*.nbi"))  # numba's cache index, written by the child


#: A server process that starts compile_in_child and prints the child's pid.
SERVER_WITH_CHILD = textwrap.dedent("""
    import subprocess
    from perceptron_lab.app_logic import training
    class Announced(subprocess.Popen):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            print(self.pid, flush=True)
    subprocess.Popen = Announced
    training.compile_in_child(["kernel", "paum", "parallel"])
""")


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists and has not ended (a zombie has ended)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.slow  # compiles from an empty numba cache
def test_the_child_stops_compiling_when_the_server_process_ends(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}  # cold: still compiling when stopped
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER_WITH_CHILD],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    child = int(server.stdout.readline())
    time.sleep(1)
    server.kill()
    server.wait()
    deadline = time.monotonic() + 5
    while _running(child) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _running(child)
