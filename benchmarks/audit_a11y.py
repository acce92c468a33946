"""axe-core's count of WCAG 2.0/2.1 A and AA violations on every view, by impact.

Serves the app from this checkout (``perceptron-lab app`` on a free port),
opens every view of :func:`tests.accessibility.app_views` and the exported
offline page in Debian's chromium, injects axe-core (``npm ci`` installs
it) into the page and every frame, and prints per view:
the rules that failed and the elements they failed on, by impact; the page's
title; the headings that skip a level. Reported, never asserted: the test is
``tests/browser/test_accessibility_browser.py``.

    python benchmarks/audit_a11y.py                  # the table
    python benchmarks/audit_a11y.py --details        # and every violation, with its frame
    python benchmarks/audit_a11y.py --width 320      # at another window width
    python benchmarks/audit_a11y.py --tall           # each page's window as tall as the page
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright

from tests import accessibility as a11y
from tests.chromium import launch, settle, show_all
from tests.live import free_port, perceptron_lab, stop, wait_for_health


def _row(name: str, page, details: bool) -> None:
    found = a11y.audit(page)
    by_impact = a11y.counts(found)
    cells = "  ".join(f"{rules:>3} /{elements:>4}" for rules, elements in by_impact.values())
    parts = a11y.headings(page)
    jumps = a11y.skipped_levels(parts["main"]) + a11y.skipped_levels(parts["sidebar"], above=1)
    title = page.evaluate("() => document.title")
    print(f"{name:<13} {cells}  {len(jumps):>5}  {title}", flush=True)
    if details:
        for violation in found:
            where = "page" if violation["frame"] == "page" else "frame"
            print(f"    {violation['impact']:<9} {violation['id']} ({where}): {violation['help']}")
            for node in violation["nodes"][:5]:
                print(f"        {node['target']}")
        for jump in jumps:
            print(f"    heading skips: {jump}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--details", action="store_true", help="list every violation")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=720)
    parser.add_argument(
        "--tall", action="store_true", help="then make the window as tall as each page"
    )
    args = parser.parse_args()
    port = free_port()
    server = perceptron_lab(ROOT, ROOT, "app", "--port", str(port), "--address", "127.0.0.1")
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for_health(f"{url}/_stcore/health", server)
        size = f"{args.width}x" + ("page" if args.tall else str(args.height))
        print(f"axe-core, WCAG 2.0/2.1 A+AA, {size}: rules / elements")
        header = "  ".join(f"{impact:>9}" for impact in a11y.IMPACTS)
        print(f"{'view':<13} {header}  jumps  title")
        with sync_playwright() as p, tempfile.TemporaryDirectory() as folder:
            browser = launch(p, full=True)
            viewport = {"width": args.width, "height": args.height}
            for name, path in a11y.app_views().items():
                page = browser.new_page(viewport=viewport)
                page.goto(url + path)
                settle(page)
                if args.tall:
                    show_all(page, args.width)
                _row(name, page, args.details)
                page.close()
            page = browser.new_page(viewport=viewport)
            a11y.open_exported(page, a11y.exported_page(Path(folder)))
            if args.tall:
                show_all(page, args.width)
            _row("exported", page, args.details)
            browser.close()
    finally:
        stop(server)


if __name__ == "__main__":
    main()
