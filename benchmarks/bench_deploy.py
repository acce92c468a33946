"""A class on one machine: visitors through nginx over two app processes, against one process.

    python benchmarks/bench_deploy.py                 # 20 visitors, this checkout
    python benchmarks/bench_deploy.py --sessions 30 --bin /opt/perceptron-lab/venv/bin

Runs ``docs/nginx-replicas.conf`` itself: the app processes it names are
started with ``perceptron-lab app`` on free loopback ports, and Debian's
nginx runs as this user with its own configuration, logs and temporary
files in a temporary folder (no system service, no root needed). Then the
visitors (browser contexts of one headless chromium, see
``benchmarks/sessions.py``) open the playground through nginx, 0.5 s apart,
and each one steps (in the browser) and changes a setting (the data seed: a
new run from the server), first one visitor at a time, then all at once. The same
visitors then use one app process without a proxy.

Reported for each setup: how many visitors got their first figure, how they
were spread over the replicas (the cookie nginx set, and whether any request
that carried it reached another replica), and p50 / p95 / max in seconds of
the first figure, of a step and of a setting change: until painted, and
until the server's last message before that ("server done"), which tells
the servers' part from the browser's.
``perceptron-lab warm`` runs first, and each app process serves one page
before the visitors come (the teacher's own check), so no number here
includes compiling. The browser shares the machine's cores with the
servers: on a laptop-class machine the browser's own work is a large part
of each number.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path

from playwright.async_api import async_playwright
from sessions import ROOT, Visitor, perceptron_lab, start_app, summary

from tests.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.live import free_port, stop, wait_for_health

RECIPE = ROOT / "docs" / "nginx-replicas.conf"
COOKIE = "perceptron_lab_replica"


#: The main context around the recipe: this user's process, every file in one folder, and a
#: log line per request that says which replica answered and which one the cookie named.
NGINX_MAIN = """{user}worker_processes 1;
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    log_format replicas '$upstream_addr $cookie_{cookie} $status $request_uri';
    access_log {folder}/access.log replicas;
    client_body_temp_path {folder}/client_body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
{recipe}
}}
"""


def nginx_config(recipe: str, folder: Path, listen: int, ports: dict[str, int]) -> str:
    """A complete nginx.conf that runs ``recipe`` on these ports, everything kept in ``folder``.

    ``ports`` maps each port of the recipe ("8501") to the one used here.
    """
    for old, new in ports.items():
        recipe = re.sub(rf"\b{old}\b", str(new), recipe)
    recipe = recipe.replace("listen 80;", f"listen 127.0.0.1:{listen};")
    return NGINX_MAIN.format(
        # As root, nginx's workers would switch to "nobody", who cannot write this folder.
        user="user root;\n" if os.geteuid() == 0 else "",
        folder=folder,
        cookie=COOKIE,
        recipe="\n".join("    " + line for line in recipe.splitlines()),
    )


def recipe_ports(recipe: str) -> list[str]:
    """The app processes' ports that ``recipe`` names, in order.

    Examples
    --------
    >>> recipe_ports("server 127.0.0.1:8502;\\nserver 127.0.0.1:8501;\\nserver 127.0.0.1:8501;")
    ['8501', '8502']
    """
    return sorted(set(re.findall(r"server 127\.0\.0\.1:(\d+);", recipe)))


def misrouted(access_log: Path) -> tuple[int, int]:
    """``(requests that carried the cookie, those answered by another replica than it names)``."""
    pinned = wrong = 0
    for line in access_log.read_text(encoding="utf-8").splitlines():
        upstream, cookie = line.split()[:2]
        if cookie not in ("-", ""):
            pinned += 1
            wrong += not upstream.endswith(f":{cookie}")
    return pinned, wrong


def start_nginx(folder: Path, config: str, port: int) -> subprocess.Popen:
    (folder / "nginx.conf").write_text(config, encoding="utf-8")
    where = ["-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", str(folder / "error.log")]
    subprocess.run(["nginx", "-t", *where], check=True, capture_output=True)
    proc = subprocess.Popen(["nginx", *where], stderr=subprocess.PIPE)
    wait_for_health(f"http://127.0.0.1:{port}/_stcore/health", proc)
    return proc


async def class_session(url: str, sessions: int, stagger: float, warm_urls: list[str]) -> dict:
    """Open ``sessions`` visitors at ``url``; time their first figure, steps, setting changes.

    Each page of ``warm_urls`` is visited once before (the teacher's check of each process).
    """
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for warm in warm_urls:
            visitor, _ = await Visitor.arrive(browser, warm)
            await visitor.leave()

        async def arrive(i):
            await asyncio.sleep(i * stagger)
            try:
                return await Visitor.arrive(browser, url)
            except Exception as err:  # a visitor that never saw a figure is counted, not fatal
                return None, f"{type(err).__name__}: {str(err).splitlines()[0]}"

        arrived = await asyncio.gather(*(arrive(i) for i in range(sessions)))
        visitors = [visitor for visitor, _ in arrived if visitor is not None]
        result = {
            "ok": len(visitors),
            "failures": [error for visitor, error in arrived if visitor is None],
            "spread": Counter(),
            "first figure": [timing for visitor, timing in arrived if visitor is not None],
        }
        for visitor in visitors:
            cookies = {c["name"]: c["value"] for c in await visitor.page.context.cookies()}
            result["spread"][cookies.get(COOKIE, "-")] += 1
        # One visitor at a time (the others idle), then all of them at once.
        result["step, one at a time"] = [await v.step() for v in visitors]
        result["setting, one at a time"] = [await v.change_setting() for v in visitors]
        result["step, all at once"] = await asyncio.gather(*(v.step() for v in visitors))
        result["setting, all at once"] = await asyncio.gather(
            *(v.change_setting() for v in visitors)
        )
        await browser.close()
    return result


MEASURES = (
    "first figure",
    "step, one at a time",
    "setting, one at a time",
    "step, all at once",
    "setting, all at once",
)


def report(name: str, result: dict, sessions: int) -> None:
    print(f"\n{name}: {result['ok']} of {sessions} visitors saw their first figure")
    for error in result["failures"]:
        print(f"  failed: {error}")
    spread = ", ".join(f"{k}: {v}" for k, v in sorted(result["spread"].items()))
    print(f"  spread over processes (cookie value: visitors): {spread}")
    print(f"  {'seconds, p50 / p95 / max':24s} {'painted':>22s}   {'server done':>22s}")
    for key in MEASURES:
        timings = result[key]
        if timings:
            print(
                f"  {key:24s} {summary([t.painted for t in timings])}   "
                f"{summary([t.served for t in timings])}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument(
        "--stagger",
        type=float,
        default=0.5,
        help="seconds between two visitors' arrivals (default 0.5)",
    )
    parser.add_argument(
        "--bin",
        type=Path,
        default=None,
        help="the bin folder of an install (default: this checkout)",
    )
    args = parser.parse_args()
    command = perceptron_lab(args.bin)
    recipe = RECIPE.read_text(encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)} if args.bin is None else None
    start = time.perf_counter()
    subprocess.run([*command, "warm"], check=True, env=env, capture_output=True)
    print(f"perceptron-lab warm: {time.perf_counter() - start:.1f} s")

    with tempfile.TemporaryDirectory(prefix="perceptron-lab-deploy-") as tmp:
        folder = Path(tmp)
        ports = {old: free_port() for old in recipe_ports(recipe)}
        apps = [start_app(command, port, folder / f"app-{port}.log")[0] for port in ports.values()]
        proxy_port = free_port()
        proxy = start_nginx(folder, nginx_config(recipe, folder, proxy_port, ports), proxy_port)
        try:
            result = asyncio.run(
                class_session(
                    f"http://127.0.0.1:{proxy_port}/",
                    args.sessions,
                    args.stagger,
                    [f"http://127.0.0.1:{port}/" for port in ports.values()],
                )
            )
        finally:
            proxy.terminate()
            proxy.wait(timeout=30)
            for app in apps:
                stop(app)
        report(f"nginx over {len(ports)} app processes", result, args.sessions)
        pinned, wrong = misrouted(folder / "access.log")
        print(
            f"  requests with the replica cookie: {pinned}, answered by another replica: {wrong}"
        )

        port = free_port()
        app, _ = start_app(command, port, folder / "app-single.log")
        try:
            url = f"http://127.0.0.1:{port}/"
            result = asyncio.run(class_session(url, args.sessions, args.stagger, [url]))
        finally:
            stop(app)
        report("one app process, no proxy", result, args.sessions)


if __name__ == "__main__":
    main()
