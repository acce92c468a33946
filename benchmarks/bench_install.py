"""From a wheel to the first figure: size, install time, warm-up and first figure, cold and warm.

    python benchmarks/bench_install.py

Builds the wheel from this checkout, installs it (with its dependencies, from
pip's configured index) into a fresh virtual environment in a temporary
folder, and then measures, with that install only:

1. the first figure right after the install (numba's cache empty): the page
   compiles its own learner, the others compile in the background; the about
   page's report of that background warm-up;
2. the first figure after a restart (the cache now warm);
3. ``perceptron-lab warm`` on an empty cache and again on a warm one (per
   learner), then the first figure after it and a restart: a deployment's
   start.

"First figure" is a real browser's time from navigation to the
playground's figure being painted (``benchmarks/sessions.py``), in a new
browser context, with the server started just before (after its health
check). The install time depends on the network and pip's cache.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.async_api import async_playwright
from sessions import ROOT, TIMEOUT_MS, Visitor, start_app

from tests.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.live import free_port, stop


def build_wheel(folder: Path) -> Path:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(ROOT),
            "--no-deps",
            "--quiet",
            "--wheel-dir",
            str(folder),
        ],
        check=True,
    )
    (wheel,) = folder.glob("perceptron_lab-*.whl")
    return wheel


def install(wheel: Path, venv: Path) -> float:
    """Seconds to install ``wheel`` and its dependencies into a new venv."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    start = time.perf_counter()
    subprocess.run(
        [str(venv / "bin" / "pip"), "install", "--quiet", str(wheel)],
        check=True,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def empty_numba_cache(venv: Path) -> int:
    """Delete numba's cache files of the installed core; returns how many there were."""
    files = list(venv.glob("lib/python*/site-packages/perceptron_core/**/__pycache__/*.nb[ic]"))
    for path in files:
        path.unlink()
    return len(files)


async def _first_figure(url: str, about: bool) -> tuple[float, float, str | None]:
    """Seconds to the first figure and to the server's last message before it; with
    ``about``, also the about page's sentence on the warm-up."""
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        _, first = await Visitor.arrive(browser, url)
        sentence = None
        if about:
            page = await (await browser.new_context()).new_page()
            deadline = time.monotonic() + TIMEOUT_MS / 1000
            while sentence is None and time.monotonic() < deadline:
                await page.goto(url + "about")
                await page.wait_for_selector("text=Warm-up per learner", timeout=TIMEOUT_MS)
                text = await page.inner_text("body")
                found = re.search(r"prepared the compiled learners in [\d.]+ s", text)
                sentence = found.group(0) if found else None
                if sentence is None:
                    await asyncio.sleep(2)
        await browser.close()
    return first.painted, first.served, sentence


def first_figure(bin_dir: Path, log: Path, about: bool = False) -> tuple:
    """Start the installed app, time its first figure, stop it.

    Returns ``(seconds to healthy, seconds to the first figure, seconds to
    the server's last message before it, the about page's sentence)``.
    """
    port = free_port()
    app, healthy = start_app([str(bin_dir / "perceptron-lab")], port, log)
    try:
        result = asyncio.run(_first_figure(f"http://127.0.0.1:{port}/", about))
    finally:
        stop(app)
    return healthy, *result


def warm(bin_dir: Path) -> str:
    done = subprocess.run(
        [str(bin_dir / "perceptron-lab"), "warm"], check=True, capture_output=True, text=True
    )
    return done.stdout


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="perceptron-lab-install-") as tmp:
        folder = Path(tmp)
        wheel = build_wheel(folder / "dist")
        print(f"wheel: {wheel.name}, {wheel.stat().st_size / 1024:.0f} KiB")
        venv = folder / "venv"
        print(f"install into a fresh venv (with dependencies): {install(wheel, venv):.1f} s")
        bin_dir = venv / "bin"

        def show(what, result):
            healthy, seconds, served, sentence = result
            print(
                f"{what}: server healthy after {healthy:.1f} s; first figure {seconds:.2f} s "
                f"(the server's last message at {served:.2f} s)"
                + (f"; about page: {sentence}" if sentence else "")
            )

        show("1. fresh install", first_figure(bin_dir, folder / "app1.log", about=True))
        show("2. restart (cache warm)", first_figure(bin_dir, folder / "app2.log"))
        print(f"\nemptied numba's cache ({empty_numba_cache(venv)} files)")
        print("3. perceptron-lab warm, empty cache:\n" + warm(bin_dir))
        print("   perceptron-lab warm again, warm cache:\n" + warm(bin_dir))
        show("   after warm, restart", first_figure(bin_dir, folder / "app3.log"))
        show("   and again", first_figure(bin_dir, folder / "app4.log"))


if __name__ == "__main__":
    main()
