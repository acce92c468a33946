"""A live class of 1 teacher and 100 students, with protocol-level visitors, and its faults.

    python benchmarks/bench_class.py                                   # SQLite, one process
    python benchmarks/bench_class.py --backend postgres --processes 3  # PostgreSQL, three
    python benchmarks/bench_class.py --faults                          # and the faults

Starts the app processes with ``perceptron-lab app`` on loopback ports (after
``perceptron-lab warm``), on a SQLite file or on a PostgreSQL server of its own
(tests/postgres.py: Debian's ``initdb`` and ``postgres``), then drives a class with the
visitors of ``benchmarks/class_visitors.py`` (each student: a Streamlit page session and the
class's websocket, spread over the processes in turn, as nginx's round robin spreads new
visitors):

1. the teacher's page starts a class; the students open the join link, 8 at a time;
2. for ``--minutes``, the teacher steps every 2 s; each student's page reports its view and
   step as the replay does (at most every 2 s) and pings every 25 s. Measured: the teacher's
   step to its arrival on every student's page (p50, p95, max over every step and student);
   the server processes' CPU seconds per student-minute over this phase;
3. the teacher asks the class a question about the next step (``QUESTIONS`` times); every
   student answers once, at a moment drawn (seeded) over ``ANSWER_SECONDS``, as a class
   answers; the teacher reveals, then puts it away. Measured: each answer
   to its count on the teacher's page (the first pooled picture the teacher's socket gets after
   the answer was sent that counts at least as many answers as were sent by then: p50, p95),
   and the teacher's reveal to the results on every student's page;
4. the teacher changes the view (the data seed and 200 epochs: a run of 20,000 visits): every
   following student's replay fetches it from ``/class/view`` as ``classroom.js`` does (or,
   when its process has not shelved it, its page runs its script for it at once), and its
   page runs its script for it 1 to 4 s later (``PAGE_AFTER_VIEW_SECONDS``). Measured: the
   teacher's change to each student's replay having the new run (p50, p95), how many fetched
   it, the change to each page's script run, the processes' CPU seconds for it, and the runs
   trained (``ui/runs.py`` logs each at Streamlit's ``logger.level`` info, which the
   processes are started with);

and throughout, the processes' peak resident memory (sampled every 0.2 s).

Faults (``--faults``), each followed by a teacher's step that must reach every student:
the teacher's page closes and the teacher link opens the class again; 5 students' networks
drop for 30 s (their class socket goes through a relay that holds every byte meanwhile);
with SQLite the server restarts; with several processes one of them is killed (its students'
sockets connect to the next process). Reported: whether every student was back on the
class's step, and the seconds it took.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import random
import signal
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from class_visitors import ClassSocket, PageSession
from sessions import ROOT, perceptron_lab, start_app

from tests.live import free_port

SOCKET_PATH = "class/ws"
STEP_SECONDS = 2.0
JOIN_AT_ONCE = 8
#: A student's page opens a view its replay fetched this long after (classroom.js's
#: PAGE_AFTER_VIEW_MS).
PAGE_AFTER_VIEW_SECONDS = (1.0, 4.0)
#: The students' answers come within this many seconds of the question ...
ANSWER_SECONDS = 10.0
#: ... and the teacher asks this many questions.
QUESTIONS = 3


def percentiles(values: list[float]) -> str:
    values = sorted(v for v in values if not math.isnan(v))
    if not values:
        return "-"
    p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
    return f"{statistics.median(values):.3f} / {p95:.3f} / {values[-1]:.3f}"


class Servers:
    """The app processes: their ports, CPU seconds and peak memory."""

    def __init__(self, count: int, environ: dict, folder: Path):
        self.count, self.environ, self.folder = count, environ, folder
        self.ports = [free_port() for _ in range(count)]
        self.procs: list[subprocess.Popen | None] = [None] * count
        self.peak = [0] * count
        self._sampling = True
        for index in range(count):
            self.start(index)
        threading.Thread(target=self._sample, daemon=True).start()

    def start(self, index: int) -> None:
        log = self.folder / f"app{index}.log"
        self.procs[index], _ = start_app(perceptron_lab(), self.ports[index], log, self.environ)

    @property
    def bases(self) -> list[str]:
        return [f"http://127.0.0.1:{port}" for port in self.ports]

    def cpu(self) -> float:
        """The processes' CPU seconds (user and system) so far."""
        total = 0.0
        for proc in self.procs:
            if proc is None or proc.poll() is not None:
                continue
            fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return total

    def _sample(self) -> None:
        while self._sampling:
            for index, proc in enumerate(self.procs):
                with contextlib.suppress(OSError, AttributeError):
                    for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines():
                        if line.startswith("VmRSS:"):
                            self.peak[index] = max(self.peak[index], int(line.split()[1]) * 1024)
            time.sleep(0.2)

    def kill(self, index: int) -> None:
        self.procs[index].send_signal(signal.SIGKILL)
        self.procs[index].wait()

    def stop(self, index: int) -> None:
        self.procs[index].terminate()
        self.procs[index].wait(timeout=60)

    def close(self) -> None:
        self._sampling = False
        for proc in self.procs:
            if proc is not None and proc.poll() is None:
                proc.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=30)

    def trainings(self) -> int:
        """Runs trained, as the processes' logs say (``ui/runs.py``)."""
        return sum(
            (self.folder / f"app{i}.log").read_text(errors="replace").count("trained a run")
            for i in range(self.count)
        )


class Student:
    """A student's page: its Streamlit session and its class socket, following the class."""

    def __init__(self, number: int, base: str, bases: list[str]):
        self.number, self.base, self.bases = number, base, bases
        self.page = PageSession(base)
        self.socket: ClassSocket | None = None
        self.view_rev = 0
        # a new view of the class: when the replay had its run (fetched from the class's
        # route, or its page's script run), and when its page had it (the script run)
        self.view_arrivals: list[tuple[int, float, str]] = []
        self.page_arrivals: list[tuple[int, float, str]] = []
        self.rng = random.Random(number)
        self._following: asyncio.Task | None = None
        self._opening: asyncio.Task | None = None

    async def join(self, code: str) -> float:
        seconds = await self.page.open(f"join={code}")
        classroom = self.page.classroom
        assert classroom and classroom["role"] == "student", self.page.state.options.keys()
        preferred = self.bases.index(self.base)
        self.socket = ClassSocket(self.bases, SOCKET_PATH, {"seat": classroom["secret"]})
        self.socket.preferred = preferred
        await self.socket.start()
        while self.socket.latest is None:
            await asyncio.sleep(0.05)
        self.view_rev = self.socket.latest["view_rev"]
        self._following = asyncio.create_task(self._follow())
        return seconds

    async def _follow(self) -> None:
        """classroom.js's part: a new view of the class is asked for; the step is reported."""
        reported = None
        last_report = 0.0
        while True:
            await asyncio.sleep(0.05)
            latest = self.socket.latest
            if latest is None:
                continue
            if latest["mode"] == "follow" and latest["view_rev"] != self.view_rev:
                self.view_rev = latest["view_rev"]
                fetched = await self.socket.fetch_view(self.page.classroom)
                if fetched is not None:  # the replay shows it; its page opens it a moment later
                    self.view_arrivals.append((self.view_rev, time.perf_counter(), fetched))
                    wait = self.rng.uniform(*PAGE_AFTER_VIEW_SECONDS)
                    self._opening = asyncio.create_task(self._open_on_page(latest, wait))
                else:
                    await self._open_on_page(latest, 0.0)
                    arrival = self.page_arrivals[-1][1]
                    self.view_arrivals.append((self.view_rev, arrival, self.page.state.payload_id))
            state = (latest["step"], self.view_rev)
            if state != reported and time.perf_counter() - last_report >= 2.0:
                reported, last_report = state, time.perf_counter()
                params = {k: v for k, v in self.page.state.query.items() if k not in ("t", "seat")}
                await self.socket.send({"type": "state", "params": params, "t": latest["step"]})

    async def _open_on_page(self, latest: dict, wait: float) -> None:
        """The page's script run for the class's view (classroom.js's ``openOnPage``)."""
        await asyncio.sleep(wait)
        await self.page.send_component_value(
            {"action": "class_view", "params": latest["view"], "t": latest["step"], "nonce": "1"}
        )
        self.page_arrivals.append(
            (latest["view_rev"], time.perf_counter(), self.page.state.payload_id)
        )

    async def close(self) -> None:
        for task in (self._following, self._opening):
            if task:
                task.cancel()
        if self.socket:
            await self.socket.stop()
        await self.page.close()


class Teacher:
    def __init__(self, base: str, bases: list[str]):
        self.base, self.bases = base, bases
        self.page = PageSession(base)
        self.socket: ClassSocket | None = None
        self.key = ""

    async def start_class(self) -> str:
        await self.page.open("epochs=200")  # a view of 20,000 visits
        await self.page.press("Start a class")
        self.key = self.page.classroom["secret"]
        await self._connect()
        return self.page.classroom["code"]

    async def rejoin(self) -> None:
        self.page = PageSession(self.base)
        await self.page.open(f"teach={self.key}")
        await self._connect()

    async def _connect(self) -> None:
        self.socket = ClassSocket(self.bases, SOCKET_PATH, {"teacher": self.key})
        self.socket.preferred = self.bases.index(self.base)
        await self.socket.start()

    async def step(self, t: int) -> float:
        return await self.socket.send_marked({"type": "step", "t": t})

    async def leave(self) -> None:
        await self.socket.stop()
        await self.page.close()


def counted(message: dict) -> int:
    """How many answers a teacher's picture of the class counts."""
    return (message.get("pool") or {}).get("answered") or 0


def shown(message: dict) -> bool:
    """Whether a picture of the class has its question revealed."""
    return (message.get("question") or {}).get("state") == "revealed"


async def question_round(teacher, students, t: int, rng: random.Random) -> tuple:
    """The teacher asks about step ``t + 1``; every student answers once; the teacher reveals.
    The seconds to each student's page (the question, the reveal) and to the teacher's (each
    answer's count)."""
    question = {"step": t + 1, "lane": 0, "kind": "outcome", "seed": 0, "options": [0, 1]}
    asked = await teacher.socket.send_marked({"type": "ask", "question": question | {"answer": 0}})
    while not all((s.socket.latest or {}).get("question") for s in students):
        await asyncio.sleep(0.02)
    number = students[0].socket.latest["question"]["number"]
    to_students = [
        s.socket.arrival_of(lambda m: (m.get("question") or {}).get("number") == number, asked)
        - asked
        for s in students
    ]
    sent: list[float] = []

    async def answer(student, delay: float, choice: int) -> None:
        await asyncio.sleep(delay)
        sent.append(time.perf_counter())
        await student.socket.send({"type": "answer", "number": number, "choice": choice})

    await asyncio.gather(
        *(answer(s, rng.uniform(0, ANSWER_SECONDS), rng.randrange(2)) for s in students)
    )
    deadline = time.perf_counter() + 60
    while time.perf_counter() < deadline and not teacher.socket.arrival_of(
        lambda m: counted(m) == len(students), sent[-1]
    ):
        await asyncio.sleep(0.05)
    visible = []
    for n, at in enumerate(sorted(sent), start=1):
        arrival = teacher.socket.arrival_of(lambda m, n=n: counted(m) >= n, at)
        visible.append(math.nan if arrival is None else arrival - at)
    revealed = await teacher.socket.send_marked({"type": "reveal"})
    deadline = time.perf_counter() + 60
    while time.perf_counter() < deadline and not all(
        s.socket.arrival_of(shown, revealed) for s in students
    ):
        await asyncio.sleep(0.02)
    reveal = [
        math.nan if (a := s.socket.arrival_of(shown, revealed)) is None else a - revealed
        for s in students
    ]
    await teacher.socket.send({"type": "close"})
    return to_students, visible, reveal


async def questions(teacher, students, t: int, servers) -> int:
    """:data:`QUESTIONS` rounds of :func:`question_round`, reported together; the step after."""
    rng = random.Random(0)
    cpu = servers.cpu()
    asked, answered, revealed = [], [], []
    for _ in range(QUESTIONS):
        to_students, visible, reveal = await question_round(teacher, students, t, rng)
        asked, answered, revealed = asked + to_students, answered + visible, revealed + reveal
        t += 1
        await asyncio.sleep(STEP_SECONDS)
    print(
        f"{QUESTIONS} questions: to the students' pages (s, p50/p95/max) {percentiles(asked)}; "
        f"an answer to its count on the teacher's page (s, p50/p95/max over {len(answered)}): "
        f"{percentiles(answered)}, never counted {sum(math.isnan(v) for v in answered)}; "
        f"the reveal to the results on the students' pages {percentiles(revealed)}; "
        f"CPU {servers.cpu() - cpu:.1f} s"
    )
    return t


async def step_latencies(teacher, students, t: int, wait: float = 20.0) -> list[float]:
    """The teacher goes to step ``t``; each student's seconds until it arrived (NaN: never)."""
    sent = await teacher.step(t)
    deadline = time.perf_counter() + wait
    while time.perf_counter() < deadline:
        if all(s.socket.latest and s.socket.latest["step"] == t for s in students):
            break
        await asyncio.sleep(0.02)
    out = []
    for student in students:
        arrival = student.socket.arrival_of(lambda m: m["step"] == t, sent)
        out.append(math.nan if arrival is None else arrival - sent)
    return out


async def run(args) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-class-"))
    database = None
    environ = {"OMP_NUM_THREADS": "1", "STREAMLIT_LOGGER_LEVEL": "info"}
    if args.backend == "postgres":
        from tests.postgres import PostgresServer

        database = PostgresServer()
        database.start()
        environ["PERCEPTRON_LAB_CLASS_DB"] = database.url
    else:
        environ["PERCEPTRON_LAB_CLASS_DB"] = str(folder / "class.sqlite3")
    subprocess.run([*perceptron_lab(), "warm"], check=True, capture_output=True, cwd=ROOT)
    servers = Servers(args.processes, environ, folder)
    print(f"{args.backend}, {args.processes} process(es), {args.students} students; "
          f"load average before: {os.getloadavg()[0]:.1f}")  # fmt: skip
    teacher = Teacher(servers.bases[0], servers.bases)
    students: list[Student] = []
    try:
        code = await teacher.start_class()
        students = [
            Student(i, servers.bases[i % args.processes], servers.bases)
            for i in range(args.students)
        ]
        joins: list[float] = []
        limit = asyncio.Semaphore(JOIN_AT_ONCE)

        async def join(student):
            async with limit:
                joins.append(await student.join(code))

        cpu = servers.cpu()
        await asyncio.gather(*(join(s) for s in students))
        print(f"joined: {len(joins)} pages, seconds per page p50/p95/max {percentiles(joins)}; "
              f"CPU {servers.cpu() - cpu:.1f} s")  # fmt: skip

        # steady: the teacher steps every 2 s
        latencies: list[float] = []
        cpu, started = servers.cpu(), time.perf_counter()
        t = 0
        while time.perf_counter() - started < 60 * args.minutes:
            t += 1
            tick = time.perf_counter()
            latencies += await step_latencies(teacher, students, t)
            await asyncio.sleep(max(0.0, STEP_SECONDS - (time.perf_counter() - tick)))
        minutes = (time.perf_counter() - started) / 60
        used = servers.cpu() - cpu
        print(
            f"step to students' pages (s, p50/p95/max over {len(latencies)}): "
            f"{percentiles(latencies)}; missed {sum(math.isnan(v) for v in latencies)}"
        )
        print(f"CPU: {used:.1f} s over {minutes:.1f} min = "
              f"{used / (args.students * minutes):.4f} CPU-s per student-minute")  # fmt: skip

        t = await questions(teacher, students, t, servers)

        # the teacher's view changes: every page asks for it
        trained = servers.trainings()
        cpu = servers.cpu()
        changed = time.perf_counter()
        own = await teacher.page.set_number("Seed", 5)
        deadline = time.perf_counter() + 300
        while time.perf_counter() < deadline and not all(s.page_arrivals for s in students):
            await asyncio.sleep(0.1)
        views = [s.view_arrivals[-1][1] - changed for s in students if s.view_arrivals]
        pages = [s.page_arrivals[-1][1] - changed for s in students if s.page_arrivals]
        fetched = sum(s.page_arrivals[-1][1] > s.view_arrivals[-1][1] for s in students)
        teachers = teacher.page.state.payload_id
        same = sum(s.view_arrivals[-1][2] == teachers for s in students)
        pages_same = sum(s.page_arrivals[-1][2] == teachers for s in students if s.page_arrivals)
        print(f"view change: the teacher's page ran in {own:.2f} s; to the students' replays "
              f"(s, p50/p95/max): {percentiles(views)}, {fetched} fetched from the class's "
              f"route, {same} of {len(students)} with the teacher's run; to their pages' script "
              f"runs: {percentiles(pages)}, {pages_same} with the teacher's run; "
              f"CPU {servers.cpu() - cpu:.1f} s; runs trained "
              f"{servers.trainings() - trained} for {args.processes} process(es)")  # fmt: skip
        print("peak memory (MiB) per process: "
              + ", ".join(f"{p / 2**20:.0f}" for p in servers.peak))  # fmt: skip
        if args.faults:
            await faults(args, servers, teacher, students, t)
    finally:
        for student in students:
            with contextlib.suppress(Exception):
                await student.close()
        servers.close()
        if database is not None:
            database.stop()
        print(f"load average after: {os.getloadavg()[0]:.1f}")


async def reconnected(sockets, before: list[int], seconds: float = 120.0) -> float:
    """Seconds until every socket connected again (NaN if not all did in time)."""
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if all(s.connections > n and s.socket is not None for s, n in zip(sockets, before)):
            return time.perf_counter() - start
        await asyncio.sleep(0.05)
    return math.nan


async def back_on_step(teacher, students, t: int, label: str, since: float) -> None:
    latencies = await step_latencies(teacher, students, t, wait=60.0)
    missed = sum(math.isnan(v) for v in latencies)
    print(
        f"{label}: {len(students) - missed} of {len(students)} students got the next step "
        f"(p95 {percentiles(latencies)}); {time.perf_counter() - since:.1f} s after the fault"
    )


async def faults(args, servers, teacher, students, t: int) -> None:
    # the teacher's tab closes; the class goes on; the teacher link opens it again
    await teacher.leave()
    await asyncio.sleep(5)
    alive = sum(s.socket.socket is not None for s in students)
    start = time.perf_counter()
    await teacher.rejoin()
    print(
        f"teacher's tab closed: {alive} of {len(students)} students still connected; "
        f"teacher link rejoined in {time.perf_counter() - start:.2f} s"
    )
    t += 1
    await back_on_step(teacher, students, t, "after the teacher rejoined", start)

    # 5 students' networks drop for 30 s: their sockets break, and reconnecting fails until
    # the network is back; meanwhile the teacher moves on
    dropped = students[:5]
    for student in dropped:
        await student.socket.drop(30.0)
    start = time.perf_counter()
    for _ in range(3):
        t += 1
        await teacher.step(t)
        await asyncio.sleep(10)
    back_at = start + 30.0
    deadline = time.perf_counter() + 60
    while time.perf_counter() < deadline and not all(
        s.socket.arrival_of(lambda m: m["step"] == t, back_at) for s in dropped
    ):
        await asyncio.sleep(0.1)
    back = [s.socket.arrival_of(lambda m: m["step"] == t, back_at) for s in dropped]
    delays = [b - back_at for b in back if b is not None]
    print(
        f"network dropped 30 s: {len(delays)} of 5 back on the teacher's step {t}, "
        f"{max(delays, default=math.nan):.2f} s at most after the network returned"
    )
    t += 1
    await back_on_step(teacher, students, t, "after the drop", start)

    if args.processes == 1:  # the server restarts: the class goes on from the store
        sockets = [teacher.socket] + [s.socket for s in students]
        before = [s.connections for s in sockets]
        start = time.perf_counter()
        servers.stop(0)
        servers.start(0)
        restarted = time.perf_counter() - start
        back = await reconnected(sockets, before)
        print(
            f"server restarted in {restarted:.1f} s (stopped, started, health check); every "
            f"page's class socket connected again {back:.1f} s after it answered"
        )
        t += 1
        await back_on_step(teacher, students, t, "after the server restarted", start)
    else:  # one of the processes is killed: its students connect to another one
        victims = [s for s in students if s.base == servers.bases[1]]
        before = [s.socket.connections for s in victims]
        start = time.perf_counter()
        servers.kill(1)
        back = await reconnected([s.socket for s in victims], before)
        print(
            f"one of {args.processes} processes killed: its {len(victims)} students' class "
            f"sockets connected to another process within {back:.1f} s"
        )
        t += 1
        await back_on_step(teacher, students, t, "after one process was killed", start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--students", type=int, default=100)
    parser.add_argument("--minutes", type=float, default=2.0)
    parser.add_argument("--faults", action="store_true")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
