"""``perceptron-lab export-html``: a playground view as one web page that plays with no server.

It takes the same settings as the playground's share link (the whole link or its query
string; none gives the playground's first view), trains that run here and writes the page
:func:`app_logic.standalone_page.page_html` makes: the app's replay, its modules, styles,
Plotly.js and the run inline, opening from ``file://`` offline. Registered with the app's
other commands (:mod:`perceptron_core.app_commands`); like them it loads the app only when
it runs.

Usage::

    perceptron-lab export-html -o run.html
    perceptron-lab export-html "http://localhost:8501/?data=gaussians&learner=kw&t=40" -o kw.html
"""

from __future__ import annotations

import argparse
from pathlib import Path


def export_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("link", nargs="?", default="",
                        help="a playground share link, or its query string "
                        "(data=gaussians&learner=kw&epochs=40&t=120); default: the "
                        "playground's first view")
    parser.add_argument("-o", "--output", type=Path, default=Path("perceptron-run.html"),
                        help="the page to write (default: perceptron-run.html)")


def run_export_html(args: argparse.Namespace) -> int:
    """Train the link's run and write its page."""
    from perceptron_core.app_commands import _app_folder, _load_training

    _load_training(_app_folder())  # the app's folder on sys.path, as for `warm`
    from app_logic.standalone_page import link_page

    page, what = link_page(args.link)
    args.output.write_text(page, encoding="utf-8")
    size = args.output.stat().st_size
    print(f"wrote {args.output} ({size / 1e6:.2f} MB): {what.learner} on {what.data}, "
          f"{what.steps:,} steps; it opens in a browser with no server and no connection")
    return 0
