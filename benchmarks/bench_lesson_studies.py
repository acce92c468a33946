"""What a visitor of lessons 9 and 10 waits for once the lessons' studies are prepared.

* ``--rerun``: lesson 10 in Streamlit's AppTest with its default settings,
  one run (untimed: it compiles and reads what it needs), then ``--repeat``
  reruns of the same session with nothing changed, as when a visitor
  presses a button or answers a question; median and range of the reruns.
* ``--side``: lesson 9's studies prepared as ``perceptron-lab warm``
  prepares them (:func:`app_logic.lesson_studies.prepare_lessons`, every
  study whose name starts with ``l09_``) into a new temporary cache folder,
  in a process of its own; then, in another new process (a restarted
  server), lesson 9 in AppTest: its first run, then the rerun that picks
  the perceptron's side under **Setting**, timed. ``--repeat`` rounds, each
  with a new folder and new processes.
* ``--every-lesson``: each lesson in AppTest with its default settings, one untimed run,
  then ``--repeat`` reruns with nothing changed; the median CPU seconds of a rerun (this
  process's, every thread: AppTest runs the page in a thread of its own).

``--rerun`` and ``--side`` by default. The lessons' results go to a temporary ``XDG_CACHE_HOME``
(numba's cache is left where it is: compilation is not what is timed here).

    python benchmarks/bench_lesson_studies.py [--rerun] [--side] [--every-lesson] [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ROOT / "lessons"


def _page(stem: str):
    from streamlit.testing.v1 import AppTest

    return AppTest.from_file(str(LESSONS / f"{stem}.py"), default_timeout=600)


def _checked(at) -> None:
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def _reruns(stem: str, repeat: int, clock) -> list[float]:
    """``clock``'s seconds of each rerun of lesson ``stem`` with its default settings and
    nothing changed, after a first run."""
    at = _page(stem)
    at.run()
    _checked(at)
    times = []
    for _ in range(repeat):
        start = clock()
        at.run()
        times.append(clock() - start)
        _checked(at)
    return times


def rerun_times(repeat: int) -> list[float]:
    """Seconds of each rerun of lesson 10 with its default settings, after a first run."""
    return _reruns("10_parallel_perceptrons", repeat, time.perf_counter)


def every_lesson_reruns(repeat: int) -> dict[str, float]:
    """Per lesson (its file's stem), the median CPU seconds of a rerun with nothing changed."""
    return {
        path.stem: statistics.median(_reruns(path.stem, repeat, time.process_time))
        for path in sorted(LESSONS.glob("[0-9]*.py"))
    }


def prepare_lesson_9() -> None:
    """What ``perceptron-lab warm`` prepares for lesson 9 (its studies with their defaults)."""
    from perceptron_lab.app_logic import lesson_studies

    names = [name for name in lesson_studies.STUDIES if name.startswith("l09_")]
    for prepared in lesson_studies.prepare_lessons(names=names):
        assert prepared.error is None, prepared


def side_times() -> dict:
    """Lesson 9 in a new process: its first run, then the switch to the perceptron's side."""
    at = _page("09_winnow")
    start = time.perf_counter()
    at.run()
    first = time.perf_counter() - start
    _checked(at)
    radio = at.radio(key="l09_side")
    radio.set_value(radio.options[1])
    start = time.perf_counter()
    at.run()
    side = time.perf_counter() - start
    _checked(at)
    return {"first run": first, "perceptron's side": side}


def _child(part: str, env: dict, *args: str) -> str:
    """Run ``part`` of this script in a new Python process; its last line of output."""
    done = subprocess.run(
        [sys.executable, __file__, "--part", part, *args],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip().splitlines()[-1]


def _summary(times: list[float]) -> str:
    return (
        f"median {statistics.median(times):.3f} s "
        f"(min {min(times):.3f}, max {max(times):.3f}, {len(times)} runs)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rerun", action="store_true", help="lesson 10's rerun only")
    parser.add_argument("--side", action="store_true", help="lesson 9's perceptron side only")
    parser.add_argument("--every-lesson", action="store_true", help="each lesson's rerun, CPU")
    parser.add_argument("--repeat", type=int, default=5, help="reruns, or rounds of --side")
    parser.add_argument("--part", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.part == "prepare":
        prepare_lesson_9()
        print("prepared")
        return
    if args.part == "side":
        print(json.dumps(side_times()))
        return
    if args.part == "rerun":
        print(json.dumps(rerun_times(args.repeat)))
        return
    if args.part == "every-lesson":
        print(json.dumps(every_lesson_reruns(args.repeat)))
        return
    both = not (args.rerun or args.side or args.every_lesson)
    with tempfile.TemporaryDirectory() as tmp:
        if args.every_lesson:
            env = {"XDG_CACHE_HOME": f"{tmp}/every"}
            medians = json.loads(_child("every-lesson", env, "--repeat", str(args.repeat)))
            for stem, cpu in medians.items():
                print(f"{stem}: a rerun with the default settings, median {cpu:.3f} CPU s")
        if args.rerun or both:
            env = {"XDG_CACHE_HOME": f"{tmp}/rerun"}
            times = json.loads(_child("rerun", env, "--repeat", str(args.repeat)))
            print(f"lesson 10, a rerun with the default settings: {_summary(times)}")
        if args.side or both:
            rounds = []
            for i in range(args.repeat):
                env = {"XDG_CACHE_HOME": f"{tmp}/side{i}"}
                _child("prepare", env)
                rounds.append(json.loads(_child("side", env)))
            for what in ("first run", "perceptron's side"):
                times = [r[what] for r in rounds]
                print(f"lesson 9 after warm, {what}: {_summary(times)}")


if __name__ == "__main__":
    main()
