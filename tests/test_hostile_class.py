"""Hostile use, fourth round: a class at once, the kernel view's test errors, compare mode's
CPU, two visitors of the experiments page, a refused upload, the CLI's edges.

The admission gate is exercised with real threads (each stands for a visitor's script run);
the pages through Streamlit's test runner; the class itself on a real server with
protocol-level visitors (``slow``).
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from functools import partial
from pathlib import Path

import numpy as np
import pytest

from perceptron_core import cli
from perceptron_core.datasets import DataError
from perceptron_lab.app_logic.memory import Budget

ROOT = Path(__file__).resolve().parents[1]
MB = 2**20


class Visitors:
    """Threads that each make a view through ``gate``, recording what happened when.

    :meth:`visit` returns once its visitor is in the gate's queue (or already through it), so
    the visitors arrive in the order they were sent, however loaded the machine is."""

    def __init__(self, gate):
        self.gate = gate
        self.lock = threading.Lock()
        self.making: set = set()
        self.most = 0
        self.order: list = []
        self.places: dict = {}
        self.errors: dict = {}
        self.threads: list[threading.Thread] = []
        self.gone = 0  # visitors out of the gate again (made, refused or left)

    def visit(self, name, key, size, work=0.2, interrupt=lambda: None):
        def run():
            try:
                with self.gate.admitted(
                    key,
                    lambda: size,
                    lambda place: self.places.setdefault(name, []).append(place),
                    interrupt,
                ):
                    with self.lock:
                        self.order.append(name)
                        self.making.add(name)
                        self.most = max(self.most, len(self.making))
                    time.sleep(work)
                    with self.lock:
                        self.making.discard(name)
            except Exception as err:  # noqa: BLE001 (recorded for the test to look at)
                self.errors[name] = err
            finally:
                with self.lock:
                    self.gone += 1

        thread = threading.Thread(target=run)
        thread.start()
        self.threads.append(thread)
        # Arrived: in the gate (waiting or being made) or gone from it.
        deadline = time.monotonic() + 30
        while self._arrived() < len(self.threads) and time.monotonic() < deadline:
            time.sleep(0.002)
        return thread

    def _arrived(self) -> int:
        # A visitor leaves the gate before it counts itself gone, so with ``gone`` read first
        # none is counted twice (one leaving between the two reads is counted in neither).
        with self.lock:
            gone = self.gone
        status = self.gate.status()
        return gone + status.making + status.waiting

    def join(self):
        for thread in self.threads:
            thread.join(30)


class LettingIn(Budget):
    """A budget that keeps the sizes it reserved, in order: the gate reserves a view's memory
    as it lets the view in, under its lock, so this is the order of admission (two views
    let in at once may start their work in either order)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.let_in: list[int] = []

    def reserve(self, size: int) -> bool:
        if fits := super().reserve(size):
            self.let_in.append(size)
        return fits


def _gate(slots=2, limit=1000 * MB, poll=0.02, place_seconds=0.0):
    from perceptron_lab.app_logic.admission import Gate

    budget = LettingIn(limit=limit, idle_seconds=600)
    return Gate(slots, budget, poll_seconds=poll, place_seconds=place_seconds)


# -- 1. admission: at most K at once, in order, told their place, memory first, one flight --


def test_at_most_k_views_are_made_at_once_and_the_others_follow_in_arrival_order():
    visitors = Visitors(_gate(slots=2))
    for k in range(6):
        visitors.visit(k, ("view", k), (100 + k) * MB)  # a size each, to know them by
    visitors.join()
    assert not visitors.errors
    assert visitors.most == 2
    assert [size // MB - 100 for size in visitors.gate.budget.let_in] == list(range(6))


def test_a_waiting_view_is_told_its_place_as_the_queue_moves():
    visitors = Visitors(_gate(slots=1))
    for k in range(4):
        visitors.visit(k, ("view", k), 100 * MB, work=0.3)
    visitors.join()
    assert 0 not in visitors.places  # let in at once: nothing to wait for
    seen = [place.ahead for place in visitors.places[3]]
    assert seen == [2, 1, 0]  # "2 views ahead of yours", then 1, then next
    assert all(place.making == 1 for place in visitors.places[3])
    assert visitors.places[3][0].sentence().startswith("2 views ahead of yours")


def test_a_waiting_view_is_shown_a_new_place_at_most_once_a_place_interval():
    """A class at once: each view's end moves every view behind it; drawn (and said by a
    screen reader) at each move, that was thousands of page updates."""
    visitors = Visitors(_gate(slots=1, place_seconds=0.6))
    for k in range(6):
        visitors.visit(k, ("view", k), 100 * MB, work=0.12)
    shown = []  # (seconds, views ahead) of a last visitor, behind those still waiting
    start = time.monotonic()
    with visitors.gate.admitted(
        "last", lambda: 100 * MB, lambda p: shown.append((time.monotonic() - start, p.ahead))
    ):
        pass
    visitors.join()
    first = shown[0][1]
    assert first >= 1  # its first place at once
    assert len(shown) < first + 1  # not each of its places: 0.12 s apart, the interval 0.6 s
    gaps = [later[0] - earlier[0] for earlier, later in zip(shown, shown[1:])]
    assert all(gap >= 0.6 for gap in gaps)


def test_a_visitor_who_leaves_is_taken_out_of_the_queue_and_the_next_goes_in():
    gate = _gate(slots=1)
    visitors = Visitors(gate)
    left = threading.Event()

    class Left(Exception):
        """What Streamlit's check raises once the tab is closed."""

    def leaving():
        if left.is_set():
            raise Left()

    visitors.visit("first", ("view", 1), 100 * MB, work=0.5)
    visitors.visit("leaver", ("view", 2), 100 * MB, interrupt=leaving)
    visitors.visit("last", ("view", 3), 100 * MB)
    left.set()
    visitors.join()
    assert isinstance(visitors.errors.pop("leaver"), Left)
    assert not visitors.errors
    assert visitors.order == ["first", "last"]
    assert gate.status().waiting == 0 and gate.status().making == 0


def test_the_queue_is_walked_once_per_change_not_once_per_waiting_view():
    """A view's end wakes every waiting view; only one of them (or the view that ends) may
    walk the queue and ask the views' estimates, or a class of n visitors costs n walks at
    every change (n³ estimates in all)."""
    n = 30
    asked = []
    gate = _gate(slots=1, poll=60)  # no look of their own while the test runs

    def visit(key, work):
        def estimate():
            asked.append(key)
            return 100 * MB

        with gate.admitted(("view", key), estimate):
            time.sleep(work)

    # the first view holds the slot while the others arrive (0.05 s apart), then they pass
    threads = [threading.Thread(target=visit, args=(k, 1.6 if k == 0 else 0)) for k in range(n)]
    for thread in threads:
        thread.start()
        time.sleep(0.05)
    for thread in threads:
        thread.join(30)
    changes = 2 * n  # each view comes once and goes once
    assert len(asked) <= changes * (n + 1) + n, len(asked)  # n + 1 a walk, one more on arrival
    assert gate.status().waiting == 0 and gate.status().making == 0


def test_a_views_end_wakes_only_the_views_it_lets_in():
    """Woken at every view's end, each of a class's waiting threads took the GIL and the
    gate's lock a hundred times to find it was not its turn. A waiting view wakes when it is
    let in, or at its own look (a minute here): each asks its interrupt once before its turn."""
    n = 20
    asked = []
    visitors = Visitors(_gate(slots=1, poll=60))
    visitors.visit(0, ("view", 0), 100 * MB, work=0.5)  # holds the slot while the others come
    for k in range(1, n):
        visitors.visit(k, ("view", k), 100 * MB, work=0.01, interrupt=partial(asked.append, k))
    visitors.join()
    assert not visitors.errors
    assert sorted(asked) == list(range(1, n)), asked
    assert visitors.gate.status().waiting == 0 and visitors.gate.status().making == 0


def test_a_view_another_views_arrival_lets_in_is_woken():
    """A waiting view whose estimate fell fits beside the view being made; the next arrival's
    walk lets it in, and it must go on then, not at its own next look (a minute here)."""
    gate = _gate(slots=2, limit=1000 * MB, poll=60)
    fell, entered, done = threading.Event(), threading.Event(), threading.Event()

    def hold():
        with gate.admitted(("view", "first"), lambda: 600 * MB):
            done.wait(30)

    def falling():
        with gate.admitted(("view", "second"), lambda: 100 * MB if fell.is_set() else 600 * MB):
            entered.set()

    def arrive():
        with gate.admitted(("view", "third"), lambda: 100 * MB):
            pass

    threads = [threading.Thread(target=hold), threading.Thread(target=falling)]
    for thread in threads:
        thread.start()
        time.sleep(0.1)
    assert not entered.is_set()  # 600 MB beside 600 MB is over the 1,000
    fell.set()
    threads.append(threading.Thread(target=arrive))
    threads[-1].start()
    # a liveness bound (the view would otherwise sleep out its 60 s look), not a timing
    assert entered.wait(20)
    done.set()
    for thread in threads:
        thread.join(30)


def test_the_same_view_asked_by_many_is_made_once():
    from perceptron_lab.app_logic.admission import Gate, Place

    budget = Budget(limit=1000 * MB, idle_seconds=600)
    gate = Gate(2, budget, poll_seconds=0.02)
    made = []
    places = []

    def visitor():
        with gate.admitted("the teacher's link", lambda: 50 * MB, places.append):
            budget.cached("runs", "the teacher's link", lambda: made.append(1) or time.sleep(0.3))

    threads = [threading.Thread(target=visitor) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(made) == 1
    assert any(place.same_view for place in places)
    assert Place(0, 1, same_view=True).sentence().startswith("The same view is being made")


def test_a_views_memory_is_counted_before_it_is_made():
    from perceptron_lab.app_logic.admission import Gate

    budget = Budget(limit=300 * MB, idle_seconds=600)
    budget.keep("runs", "old", np.zeros(MB // 8 * 100))  # 100 MB of cached runs
    gate = Gate(3, budget, poll_seconds=0.02)
    visitors = Visitors(gate)
    visitors.visit("a", ("view", "a"), 250 * MB, work=0.4)
    assert budget.held() == 0  # the cached entry made room for the reservation
    assert budget.reserved() == 250 * MB
    visitors.visit("b", ("view", "b"), 250 * MB, work=0.1)  # does not fit beside a: waits
    visitors.join()
    assert visitors.most == 1 and visitors.order == ["a", "b"]
    assert budget.reserved() == 0


def test_a_light_view_is_not_held_behind_a_class_of_heavy_ones():
    visitors = Visitors(_gate(slots=1))
    for k in range(4):
        visitors.visit(k, ("heavy", k), 200 * MB, work=0.6)
    visitors.visit("bystander", "default page", MB, work=0.01)
    visitors.join()
    assert visitors.order.index("bystander") <= 2  # beside a heavy one, not after them all
    assert visitors.most == 2  # the one slot beyond the heavy ones' one


def test_a_view_over_the_whole_budget_is_refused_with_its_size():
    from perceptron_lab.app_logic.admission import Refused

    gate = _gate(limit=100 * MB)
    with pytest.raises(Refused, match="about 200 MB"):
        with gate.admitted("huge", lambda: 200 * MB):
            pass


@pytest.mark.parametrize("text", ["0", "-1", "2.5", "nan", "inf", "many", "1e9"])
def test_views_at_once_that_is_not_a_sensible_number_is_named(text):
    from perceptron_lab.app_logic.admission import gate_from_environment

    with pytest.raises(ValueError, match="PERCEPTRON_LAB_VIEWS_AT_ONCE=.*whole number"):
        gate_from_environment({"PERCEPTRON_LAB_VIEWS_AT_ONCE": text})


def test_the_app_command_refuses_a_wrong_views_at_once_in_one_line():
    import os

    done = subprocess.run(
        [sys.executable, "-m", "perceptron_lab.cli", "app", "--port", "1"],
        capture_output=True,
        text=True,
        env={**os.environ, "PERCEPTRON_LAB_VIEWS_AT_ONCE": "zero"},
        timeout=120,
    )
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "PERCEPTRON_LAB_VIEWS_AT_ONCE" in lines[0], done.stderr


# -- 2. the kernel view's test errors ------------------------------------------------------


def _kernel_run(n=200, epochs=30):
    from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
    from tests.pages import page_run

    request = DataRequest(
        "circles", (("n_samples", n),), "uniform", 0.5, test_fraction=0.5, seed=3
    )
    data = make_dataset(request)
    return page_run("kernel", {}, epochs, 3, data), data


def test_the_kernel_views_test_errors_evaluate_each_support_point_once(monkeypatch):
    from perceptron_core.engine.kernel_cache import KernelSpec
    from perceptron_lab.app_logic.diagnostics import test_mistakes_per_epoch

    run, data = _kernel_run()
    trace = run.timeline.kernel_trace
    support = len(np.unique(trace.rows))
    assert trace.total_updates > 5 * support  # noisy labels: each point updated on many times
    values = []
    matrix = KernelSpec.matrix

    def counted(self, A, B):
        values.append(len(A) * len(B))
        return matrix(self, A, B)

    monkeypatch.setattr(KernelSpec, "matrix", counted)
    errors = test_mistakes_per_epoch(run.timeline, data.X_test, data.y_test)
    assert sum(values) <= support * len(data.X_test)  # not updates x test rows x epochs
    # the same errors as every hypothesis scored from scratch (ties aside: none here)
    ends = np.r_[run.timeline.epoch_starts()[1:], run.timeline.n_events]
    monkeypatch.setattr(KernelSpec, "matrix", matrix)
    reference = [
        int(
            (
                np.where(trace.scores(data.X_test, run.timeline.row(e)) > 0, 1, -1) != data.y_test
            ).sum()
        )
        for e in ends
    ]
    assert errors.tolist() == reference


def test_the_kernel_views_test_errors_stop_when_the_visitor_leaves(monkeypatch):
    from perceptron_lab.app_logic import diagnostics

    run, data = _kernel_run()
    monkeypatch.setattr(diagnostics, "KERNEL_VALUES_PER_CHUNK", 1000)  # many chunks
    asked = []

    def leaving():
        asked.append(1)
        if len(asked) == 3:
            raise KeyboardInterrupt("the tab was closed")

    with pytest.raises(KeyboardInterrupt):
        diagnostics.test_mistakes_per_epoch(run.timeline, data.X_test, data.y_test, leaving)
    assert len(asked) == 3


def test_the_kernel_views_test_errors_are_within_the_views_cpu_meter():
    from perceptron_lab.app_logic.training import fit_run
    from perceptron_lab.app_logic.view_cost import metered, with_cpu_check

    run, data = _kernel_run()
    values = tuple(sorted(run.values.items()))
    with metered(limit=-1.0):  # a view whose CPU is spent: its test errors are not computed
        with pytest.raises(DataError, match="CPU-seconds"):
            fit_run(
                "kernel",
                values,
                30,
                3,
                data.X,
                data.y,
                data.X_test,
                data.y_test,
                interrupt=with_cpu_check(lambda: None),
            )


# -- 3. compare mode: one CPU budget for the whole view -----------------------------------

COMPARE = {
    "data": "separable",
    "separable_n_samples": "300",
    "epochs": "5",
    "learner": "pocket",
    "compare": "pa,relative,thick",
}


def test_compare_modes_learners_share_one_cpu_meter(monkeypatch):
    from streamlit.testing.v1 import AppTest

    from perceptron_lab.app_logic import training, view_cost

    meters = []
    fit = training.fit_run

    def watched(key, *args, **kwargs):
        view = view_cost._VIEW.get()
        meters.append((key, view and view.meter))
        return fit(key, *args, **kwargs)

    monkeypatch.setattr("perceptron_lab.ui.runs.fit_run", watched)
    at = AppTest.from_file(str(ROOT / "router.py"), default_timeout=120)
    at.query_params.update({**COMPARE, "seed": "101"})
    at.run()
    assert not at.exception
    assert [key for key, _ in meters] == ["pocket", "pa", "relative", "thick"]
    assert meters[0][1] is not None and all(meter is meters[0][1] for _, meter in meters)


def test_a_compare_view_over_its_cpu_budget_is_stopped_with_a_message(monkeypatch):
    from streamlit.testing.v1 import AppTest

    from perceptron_lab.app_logic import view_cost

    monkeypatch.setattr(view_cost, "MAX_VIEW_CPU_SECONDS", 0.0)
    at = AppTest.from_file(str(ROOT / "router.py"), default_timeout=120)
    at.query_params.update({**COMPARE, "seed": "102"})
    at.run()
    assert not at.exception
    shown = [e.value.replace("\\", "") for e in at.error]  # Markdown's escapes
    assert any("CPU-seconds (all its learners and its downloads" in text for text in shown), shown


# -- 4. one visitor's stop never touches another's experiment ------------------------------


def test_one_runs_stop_does_not_break_another_run():
    from perceptron_core.experiments.execution import _execute

    errors, finished = [], []

    def steady():
        try:
            got = [i for i, _ in _execute([(i, time.sleep, (0.4,)) for i in range(8)], 2, None)]
            finished.append(sorted(got))
        except Exception as err:  # noqa: BLE001
            errors.append(repr(err))

    thread = threading.Thread(target=steady)
    thread.start()
    time.sleep(1.5)
    leaver = _execute([(i, time.sleep, (0.4,)) for i in range(8)], 2, None)
    next(leaver)
    leaver.close()  # what a closed tab's stop does to the page's loop over the results
    thread.join(120)
    assert errors == [] and finished == [list(range(8))]


def test_experiment_runs_wait_for_their_turn_one_at_a_time():
    from perceptron_lab.app_logic.admission import EXPERIMENTS

    visitors = Visitors(EXPERIMENTS)
    for k in range(3):
        visitors.visit(k, ("run", k), 0, work=0.2)
    visitors.join()
    assert visitors.most == 1 and visitors.order == [0, 1, 2]
    assert [p.ahead for p in visitors.places[2]][0] == 1


# -- 5. a refused upload costs little ------------------------------------------------------


def _empty_columns() -> bytes:
    """2,000 columns x 990 rows of empty cells (the label column holds the only values)."""
    header = ",".join(f"c{j}" for j in range(2000)).encode() + b"\n"
    return header + (b"," * 1999 + b"1\n") * 990


def test_rows_of_empty_cells_are_found_in_a_few_calls(monkeypatch):
    from perceptron_core.datasets import CSVLimits, _csv_rows, load_csv

    calls = []
    matches = _csv_rows._matches
    monkeypatch.setattr(_csv_rows, "_matches", lambda *a: calls.append(1) or matches(*a))
    with pytest.raises(DataError, match="No numeric feature column is left"):
        load_csv(_empty_columns(), task="multiclass", limits=CSVLimits(max_bytes=2_000_000))
    assert len(calls) < 100  # 46,000 before: one call per column of every block


def test_a_refused_upload_is_read_once_whatever_reruns_ask(monkeypatch):
    from perceptron_lab.app_logic import datasource

    reads = []
    load = datasource.load_csv
    monkeypatch.setattr(datasource, "load_csv", lambda *a, **k: reads.append(1) or load(*a, **k))
    data = _empty_columns() + b"\n" * (time.time_ns() % 7)  # a file of this test's own
    for _ in range(3):  # three reruns of the page
        with pytest.raises(DataError, match="No numeric feature column is left"):
            datasource.read_csv(data, "c1999", 2_000_000)
    assert len(reads) == 1


# -- 7. the command line's edges -----------------------------------------------------------


@pytest.mark.parametrize(
    "args, said",
    [
        (("search", "kw:f=5,n=100000000000", "--jobs", "1"), "would need about"),
        (("paum", "imbalanced:n=99999999999", "--jobs", "1"), "would need about"),
        (("generate", "kw", "--n-samples", "100000000000", "-o", "x.npz"), "would need about"),
        (("search", ","), "No data set given"),
        (("curve", "kw:n=100", "--tau", "nan"), "expected finite numbers"),
        (("curve", "kw:n=100", "--tau", "0,inf"), "expected finite numbers"),
        (("curve", "kw:n=100", "--tau", ""), "expected finite numbers"),
        (("curve", "kw:n=100", "--checkpoints", ""), "expected whole numbers"),
        (("curve", "kw:n=100", "--x", "size", "--sizes", ","), "expected whole numbers"),
    ],
)
def test_the_command_line_refuses_its_edges_in_one_line(args, said, tmp_path, monkeypatch, capsys):
    # In this process (a traceback would be an exception here); the console script's own
    # process: tests/test_cli_datasets.py.
    monkeypatch.chdir(tmp_path)
    try:
        status = cli.main(list(args))
    except SystemExit as exit:  # argparse's refusals
        status = exit.code
    assert status not in (0, None)
    stderr = capsys.readouterr().err
    assert said in stderr.strip().splitlines()[-1], stderr
