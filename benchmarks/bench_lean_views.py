"""What a view costs the live server when a class opens its own views at once.

Run: ``python benchmarks/bench_lean_views.py [--scenario kw,playground] [--repeats N]
[--profile FOLDER] [--no-warm] [--one-at-a-time] [--floor] [--replicas]``.

One server, as ``docs/deploy.md`` runs it: ``perceptron-lab app`` (this checkout's) with
``OMP_NUM_THREADS=1``, after ``perceptron-lab warm`` (numba's cache and the lessons' studies
ready; ``--no-warm`` when they already are). Before the first scenario one visitor opens each
scenario's link once (the first page's imports and first calls, not what a class costs), and
the server is left to settle.

``--replicas``: a class's recipe instead (``docs/deploy.md``, "A class: several processes
behind nginx"): the app processes ``docs/nginx-replicas.conf`` names, each started as above,
behind Debian's nginx running that file (as ``bench_deploy.py`` runs it); the visitors open
nginx's address, and the CPU is that of all the app processes.

Then, per scenario, every visitor at once: a protocol-level visitor
(:func:`sessions.wire_visit`: a websocket session that asks for its link, as a browser's
Streamlit client does, until the page's script run has finished with the replay drawn or a
message shown):

* ``kw``: 30 visitors of ``data=kw&kw_n_features=50&learner=voted&seed=N``, each its own seed;
* ``playground``: 100 visitors of the plain playground, ``seed=N``, each its own seed.

``--one-at-a-time``: the same visitors one after another instead, each when the one before
has its page: what a view costs the server with no other view competing for it (the floor of
the "at once" figures).

Each repeat takes seeds no earlier repeat used (a view the process has kept would cost
nothing). Reported per repeat: the server's CPU seconds over the scenario (user + system,
from the process's own counters, all its threads) divided by the visitors (CPU-s a view), and
the seconds until the last visitor's script run was done (and the median visitor's); then the
least of the repeats. The visitors run in this process, so what the server spends is not mixed
with what they spend; on a shared machine, though, their CPU competes with the server's, and
so does everyone else's: rerun before drawing conclusions from the times.

``--floor``: after the server has stopped, each scenario's visitors (as many, in the same
way) on its floor (:data:`FLOORS`), a bare Streamlit page served by ``streamlit run`` with
the app's settings: for the playground, one component drawing 100 points
(``benchmarks/floor/app.py``), what a session with a component costs this machine before
anything of ours runs; for KW, the link's view made (data, run, payload) and its payload
handed to one component (``benchmarks/floor/kw_view.py``), the least a Streamlit page spends
on that view. Printed beside the scenario's figures as ratios.

After the server has stopped, the KW view is also made in a process of the benchmark's own
(``OMP_NUM_THREADS=1`` too) for 20 of the seeds,
as ``benchmarks/bench_view_cpu.py``'s :func:`whole_view` makes it (the data, the run, the
payload, under one CPU meter): what the server's CPU a view is compared with.

``--profile FOLDER``: ``py-spy`` (``pip install py-spy``) samples the server 100 times a
second during each scenario's last repeat, without pausing it (``--nonblocking``): the stack
of whichever thread holds the GIL (``--gil``; the script runs' threads included), which is
where the process's Python spends its CPU. A sample of every thread that is not asleep would
count, on a loaded machine, the threads that wait for a core or for the GIL as well. The
samples go to ``FOLDER/<scenario>.txt`` (collapsed stacks); printed are the share of the
samples in each part of a view (:data:`PARTS`), with the CPU seconds a view it stands for,
and the functions most samples end in (their own code).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import psutil
from bench_deploy import RECIPE, nginx_config, recipe_ports, start_nginx
from sessions import ROOT, perceptron_lab, start_app, wire_visit

from tests.live import free_port, stop

#: (visitors, the link's query string before its seed) of each scenario.
SCENARIOS = {
    "kw": (30, "data=kw&kw_n_features=50&learner=voted&seed="),
    "playground": (100, "seed="),
}
ENV = {"OMP_NUM_THREADS": "1"}
#: Each scenario's floor: a bare Streamlit page that does only what its link needs. The
#: playground's draws 100 points in one component (``bench_browser.py --first`` opens it);
#: KW's makes the link's view (data, run, payload) and hands the payload to one component.
FLOORS = {
    "playground": ROOT / "benchmarks" / "floor" / "app.py",
    "kw": ROOT / "benchmarks" / "floor" / "kw_view.py",
}


def cpu_seconds(process: psutil.Process) -> float:
    """The CPU seconds ``process`` has used so far (user + system, all its threads)."""
    times = process.cpu_times()
    return times.user + times.system


def settle(process: psutil.Process, quiet: float = 0.05, most: float = 120.0) -> None:
    """Wait until ``process`` uses under ``quiet`` of a core over a second (its warm-up and
    the first page's leftovers done), or ``most`` seconds have passed."""
    deadline = time.monotonic() + most
    while time.monotonic() < deadline:
        before = cpu_seconds(process)
        time.sleep(1.0)
        if cpu_seconds(process) - before < quiet:
            return


async def everyone(base: str, query: str, seeds: range, at_once: bool = True) -> list:
    """Every visitor of ``query`` + seed, one seed each, at once (or one after another: what
    a view costs the server when no other competes with it); their outcomes."""
    if at_once:
        return await asyncio.gather(*(wire_visit(base, f"{query}{seed}") for seed in seeds))
    return [await wire_visit(base, f"{query}{seed}") for seed in seeds]


def scenario(
    processes: list[psutil.Process],
    base: str,
    count: int,
    query: str,
    first_seed: int,
    profile: Path | None = None,
    at_once: bool = True,
) -> dict:
    """``count`` visitors of ``query`` + seed, seeds from ``first_seed``, once; their figures,
    the CPU over all of ``processes`` (the app's). ``profile``: the file for py-spy's samples
    of the first process meanwhile."""
    sampler = None
    if profile is not None:
        sampler = subprocess.Popen(
            [
                shutil.which("py-spy"),
                "record",
                "--pid",
                str(processes[0].pid),
                "--rate",
                "100",
                "--nonblocking",
                "--gil",
                "--threads",
                "--function",
                "--format",
                "raw",
                "--output",
                str(profile),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(1.0)  # py-spy attached
    cpu, start, own = sum(map(cpu_seconds, processes)), time.perf_counter(), time.process_time()
    seeds = range(first_seed, first_seed + count)
    outcomes = asyncio.run(everyone(base, query, seeds, at_once))
    last = time.perf_counter() - start  # the gather ends with the last visitor's run
    spent = sum(map(cpu_seconds, processes)) - cpu
    visitors = time.process_time() - own
    if sampler is not None:
        sampler.send_signal(2)  # SIGINT: py-spy writes its file and exits
        sampler.wait(timeout=60)
    kinds = Counter(outcome.kind for outcome in outcomes)
    done = sorted(outcome.seconds for outcome in outcomes)
    return {
        "cpu_per_view": spent / count,
        "visitors_cpu": visitors,
        "last": last,
        "median": done[len(done) // 2],
        "kinds": dict(kinds),
        "told": sorted({o.text[:90] for o in outcomes if o.kind != "figure" and o.text}),
    }


#: The parts of a view's CPU in a profile: (part, a function its stack passes through). A
#: sample counts in the first part whose function is on its stack, from the top of this list.
PARTS = (
    ("the pages' script", "add_page_assets ("),
    ("waiting at the admission gate", "Gate._wait_for_turn ("),
    ("the data", "make_dataset ("),
    ("the run", "fit_run ("),
    ("the payload", "build_payload ("),
    ("- of it, the snapshot tables", "snapshot_tables ("),
    ("the replay component's element, outside the payload", "_player ("),
    ("the page's other elements (panels, toggles, forms, downloads)", "render ("),
    ("Streamlit's event loop", "BaseEventLoop.run_forever ("),
)


def parts(stacks: Path) -> tuple[dict[str, float], list[tuple[float, str]], int]:
    """Where the samples in ``stacks`` (py-spy's collapsed stacks: ``thread;frame;... count``,
    a frame ``function (file:line)``) go: each part's share (:data:`PARTS`; a sub-part, its name
    starting with ``-``, is a share of all samples too, inside the part above it; ``the rest``
    for samples in none), the 15 functions most samples end in, with their shares, and the
    number of samples."""
    shares: Counter = Counter()
    own: Counter = Counter()
    total = 0
    for line in stacks.read_text().splitlines():
        frames, _, count = line.rpartition(" ")
        if not frames:
            continue
        samples = int(count)
        total += samples
        part = next((p for p, f in PARTS if not p.startswith("-") and f in frames), "the rest")
        shares[part] += samples
        for sub, function in PARTS:
            if sub.startswith("-") and function in frames:
                shares[sub] += samples
        own[frames.rsplit(";", 1)[-1].rsplit(":", 1)[0] + ")"] += samples
    ordered = {p: shares[p] / total for p, _ in (*PARTS, ("the rest", ""))}
    return ordered, [(n / total, f) for f, n in own.most_common(15)], total


@contextmanager
def served(
    command: list[str], replicas: bool, names: list[str]
) -> Iterator[tuple[list[psutil.Process], str]]:
    """The app as ``docs/deploy.md`` runs it: one ``perceptron-lab app`` process, or, with
    ``replicas``, a class's recipe (``docs/nginx-replicas.conf``'s processes behind Debian's
    nginx, as ``bench_deploy.py`` runs it). Yields the app's processes and the address its
    visitors open; each process has served the first page of each scenario in ``names``."""
    folder = Path(tempfile.mkdtemp())
    recipe = RECIPE.read_text(encoding="utf-8")
    named = recipe_ports(recipe) if replicas else [None]  # the recipe's ports, or one app
    ports = [free_port() for _ in named]
    apps, proxy = [], None
    try:
        apps = [start_app(command, port, folder / f"app-{port}.log", ENV)[0] for port in ports]
        base = f"http://127.0.0.1:{ports[0]}"
        if replicas:
            listen = free_port()
            config = nginx_config(recipe, folder, listen, dict(zip(named, ports)))
            proxy, base = start_nginx(folder, config, listen), f"http://127.0.0.1:{listen}"
        processes = [psutil.Process(app.pid) for app in apps]
        for port in ports:  # the first page of each link: imports and first calls
            for name in names:
                query = SCENARIOS[name][1]
                asyncio.run(everyone(f"http://127.0.0.1:{port}", query, range(0, 1)))
        for process in processes:
            settle(process)
        yield processes, base
    finally:
        if proxy is not None:
            proxy.terminate()
            proxy.wait(timeout=30)
        for app in apps:
            stop(app)


def report(what: str, run: dict) -> None:
    """Print one run's figures (:func:`scenario`)."""
    print(
        f"{what}: {run['cpu_per_view']:.3f} CPU-s a view; last done {run['last']:.1f} s, "
        f"median {run['median']:.1f} s; the visitors' own CPU {run['visitors_cpu']:.1f} s; "
        f"load {os.getloadavg()[0]:.1f}; {run['kinds']}"
        + (f"; told {run['told'][:3]}" if run["told"] else ""),
        flush=True,
    )


def report_least(name: str, runs: list[dict]) -> tuple[float, float]:
    """Print and return the least CPU-s a view and the least time until the last visitor."""
    cpu, last = min(r["cpu_per_view"] for r in runs), min(r["last"] for r in runs)
    print(f"{name}: least of {len(runs)}: {cpu:.3f} CPU-s a view, last done {last:.1f} s")
    return cpu, last


def on_the_floor(name: str, repeats: int, at_once: bool = True) -> list[dict]:
    """Scenario ``name``'s visitors on its floor (:data:`FLOORS`), served by ``streamlit run``
    with the app's settings on a server of its own."""
    from bench_browser import Server

    count, query = SCENARIOS[name]
    server = Server(script=FLOORS[name], env=ENV)
    try:
        process = psutil.Process(server.proc.pid)
        asyncio.run(everyone(server.url, query, range(0, 1)))
        settle(process)
        runs = []
        how = "at once" if at_once else "one at a time"
        for repeat in range(repeats):
            runs.append(
                scenario([process], server.url, count, query, 1 + repeat * count, None, at_once)
            )
            settle(process)
            report(f"{name}'s floor, {count} {how}, run {repeat + 1}", runs[-1])
        return runs
    finally:
        server.stop()


def in_process(seeds: range) -> list[float]:
    """The CPU seconds of the KW scenario's view for each of ``seeds``, made in this process
    (data, run, payload: :func:`bench_view_cpu.whole_view`), sorted."""
    from bench_view_cpu import whole_view

    from perceptron_lab.app_logic.datasource import DataRequest
    from perceptron_lab.app_logic.training import compile_learner

    compile_learner("voted")
    request = DataRequest("kw", (("n_features", 50),))
    return sorted(whole_view(replace(request, seed=seed), 20, ("voted",))["cpu"] for seed in seeds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="kw,playground", help="kw, playground or both")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each scenario")
    parser.add_argument("--profile", type=Path, default=None, help="py-spy's stacks, here")
    parser.add_argument("--no-warm", action="store_true", help="skip perceptron-lab warm")
    parser.add_argument(
        "--one-at-a-time", action="store_true", help="the visitors one after another (the floor)"
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="also each scenario's visitors on a bare page that does only what its link needs",
    )
    parser.add_argument(
        "--replicas",
        action="store_true",
        help="a class's recipe: docs/nginx-replicas.conf's app processes behind nginx",
    )
    parser.add_argument("--in-process", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.in_process:
        print(json.dumps(in_process(range(1, 21))))
        return
    names = [name.strip() for name in args.scenario.split(",") if name.strip()]
    unknown = [name for name in names if name not in SCENARIOS]
    if unknown or not names:
        parser.error(f"--scenario: {unknown or 'none'}; the scenarios are {', '.join(SCENARIOS)}")
    if args.profile is not None and args.replicas:
        parser.error("--profile samples one process: leave out --replicas")
    if args.replicas and shutil.which("nginx") is None:
        parser.error("--replicas runs Debian's nginx: apt-get install nginx")
    if args.profile is not None and shutil.which("py-spy") is None:
        parser.error("--profile samples the server with py-spy: pip install py-spy")
    command = perceptron_lab()
    environ = {**os.environ, **ENV, "PYTHONPATH": str(ROOT)}
    if not args.no_warm:
        subprocess.run([*command, "warm"], env=environ, check=True, stdout=subprocess.DEVNULL)
    if args.profile is not None:
        args.profile.mkdir(parents=True, exist_ok=True)
    at_once = not args.one_at_a_time
    with served(command, args.replicas, names) as (processes, base):
        where = f"nginx over {len(processes)} app processes" if args.replicas else "one process"
        print(f"{where}; {os.cpu_count()} cores; OMP_NUM_THREADS=1")
        seed, least = 1, {}
        how = "at once" if at_once else "one at a time"
        for name in names:
            count, query = SCENARIOS[name]
            runs = []
            for repeat in range(args.repeats):
                last_one = args.profile if repeat == args.repeats - 1 else None
                samples = None if last_one is None else last_one / f"{name}.txt"
                runs.append(scenario(processes, base, count, query, seed, samples, at_once))
                seed += count
                for process in processes:
                    settle(process)
                report(f"{name} {count} {how} (?{query}N), run {repeat + 1}", runs[-1])
            least[name] = report_least(name, runs)
            if args.profile is not None and not (args.profile / f"{name}.txt").exists():
                print(f"  py-spy wrote no samples for {name} (may it trace the server?)")
            elif args.profile is not None:
                shares, own, total = parts(args.profile / f"{name}.txt")
                per_view = runs[-1]["cpu_per_view"]
                print(f"  {name}: {total} samples; share, CPU-s a view (share x the last run's):")
                for part, share in shares.items():
                    print(f"  {share:6.1%}  {share * per_view:.3f}  {part}")
                print("  the functions most samples end in:")
                for share, function in own:
                    print(f"  {share:6.1%}  {function}")
    floors = {}
    if args.floor:
        for name in names:
            runs = on_the_floor(name, args.repeats, at_once)
            floors[name] = report_least(f"{name}'s floor", runs)
            if not args.replicas:  # the floor is one process
                cpu, last = least[name]
                floor_cpu, floor_last = floors[name]
                print(
                    f"{name} against its floor: {cpu / floor_cpu:.1f} times its CPU a view, "
                    f"{last / floor_last:.1f} times its time until the last visitor"
                )
    if "kw" in names:  # in a process of its own, with the server's OMP_NUM_THREADS
        done = subprocess.run(
            [sys.executable, __file__, "--in-process"],
            env=environ,
            check=True,
            capture_output=True,
            text=True,
        )
        own = json.loads(done.stdout.splitlines()[-1])
        print(
            f"the KW view made in this process (data, run, payload), 20 seeds: least "
            f"{own[0]:.3f}, median {own[10]:.3f} CPU-s"
        )
        print(f"KW in the server: {least['kw'][0] / own[0]:.1f} times the view's own CPU")
        if "kw" in floors:
            print(f"KW in its floor: {floors['kw'][0] / own[0]:.1f} times the view's own CPU")


if __name__ == "__main__":
    main()
