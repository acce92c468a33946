"""The ``perceptron-lab`` command: the core's subcommands (:mod:`perceptron_core.cli`) and
the app's: ``app`` serves it, ``warm`` prepares it, ``export-html`` writes a playground view
as one web page that plays with no server, ``exercises`` lists the lessons' exercises for a
teacher.

The app's commands live with the app, so the core imports nothing of it; this module
composes the two tables (:func:`main`). It is the app's folder's own module
(``perceptron_lab.cli``: the repository root in a checkout, ``perceptron_lab/`` in an
installed wheel), so the folder it serves is the one it sits in.

``app`` serves the app in this process (Streamlit's own command line, run
here, as ``streamlit run app.py``): before the server listens, ``app.py``
imports the app's modules, and loads the first page's learner when numba's
cache has it; the app compiles the learners and prepares the lessons in the
background after its first page (:mod:`perceptron_lab.app_logic.training`). ``warm`` does
both ahead of time: every learner into numba's cache, then every lesson's
study (:mod:`perceptron_lab.app_logic.lesson_studies`).

Usage::

    perceptron-lab app                                # http://localhost:8501
    perceptron-lab app --port 8601 --address 127.0.0.1
    perceptron-lab app --present                      # prints the link with present=1
    perceptron-lab warm                               # every learner, then every lesson
    perceptron-lab warm --learners perceptron,kernel  # these learners only
    perceptron-lab export-html -o run.html            # the playground's first view
    perceptron-lab export-html "http://localhost:8501/?data=gaussians&learner=kw" -o kw.html
    perceptron-lab exercises                          # every lesson's exercises, as text
    perceptron-lab exercises --lesson 2 --json        # lesson 2's, as JSON

``export-html`` takes the same settings as the playground's share link (the
whole link or its query string), trains that run here and writes the page
:func:`perceptron_lab.ui.standalone_page.link_page` makes: the app's replay, its
modules, styles, Plotly.js and the run inline, opening from ``file://``.

``app`` applies the repository's safe Streamlit settings (the packaged
``.streamlit/config.toml``, see ``docs/deploy.md``) as environment
variables, so the app runs with them from any folder; a variable already
set on the machine (``STREAMLIT_SERVER_MAX_UPLOAD_SIZE=5``) wins.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from perceptron_core import cli

#: The app's folder: ``app.py``, ``router.py``, ``.streamlit/``, ``ui/``, ...
APP_FOLDER = Path(__file__).resolve().parent
#: Streamlit's port when neither ``--port`` nor ``STREAMLIT_SERVER_PORT`` says otherwise.
DEFAULT_PORT = 8501
#: The URL parameter of presentation mode (the playground reads it, see app_pages/playground.py).
PRESENT_QUERY = "present=1"


def streamlit_settings(config_text: str) -> dict[str, str]:
    """The environment variables that give ``streamlit run`` the settings of a config.toml.

    Streamlit reads ``STREAMLIT_<SECTION>_<OPTION>`` (the option's camelCase
    name in capitals with underscores) for every option of ``streamlit run``.

    Examples
    --------
    >>> streamlit_settings('[server]\\nmaxUploadSize = 2\\n[client]\\ntoolbarMode = "viewer"')
    {'STREAMLIT_SERVER_MAX_UPLOAD_SIZE': '2', 'STREAMLIT_CLIENT_TOOLBAR_MODE': 'viewer'}
    >>> streamlit_settings("[runner]\\nmagicEnabled = false")
    {'STREAMLIT_RUNNER_MAGIC_ENABLED': 'false'}
    """
    import tomllib  # here, not at the top: ``perceptron-lab --help`` need not load it

    settings = {}
    for section, options in tomllib.loads(config_text).items():
        for name, value in options.items():
            if not isinstance(value, (bool, int, float, str)):
                raise ValueError(
                    f"The Streamlit setting {section}.{name} = {value!r} cannot be passed on; "
                    "the app's config.toml may hold only numbers, text and true/false."
                )
            snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", f"{section}_{name}")
            text = str(value).lower() if isinstance(value, bool) else str(value)
            settings[f"STREAMLIT_{snake.upper()}"] = text
    return settings


def streamlit_environment(folder: Path, environ: Mapping[str, str]) -> dict[str, str]:
    """``environ`` with the settings of ``folder/.streamlit/config.toml`` added where unset."""
    config = folder / ".streamlit" / "config.toml"
    return {**streamlit_settings(config.read_text(encoding="utf-8")), **environ}


def streamlit_arguments(folder: Path, port: int | None, address: str | None) -> list[str]:
    """The arguments of ``streamlit`` that serve ``folder/app.py`` (on ``port``, ``address``).

    Examples
    --------
    >>> streamlit_arguments(Path("/srv/app"), 8601, None)
    ['run', '/srv/app/app.py', '--server.port', '8601']
    """
    arguments = ["run", str(folder / "app.py")]
    if port is not None:
        arguments += ["--server.port", str(port)]
    if address is not None:
        arguments += ["--server.address", address]
    return arguments


def app_url(
    port: int | None, address: str | None, environ: Mapping[str, str], present: bool = False
) -> str:
    """The link the ``app`` command prints.

    Examples
    --------
    >>> app_url(None, None, {})
    'http://localhost:8501/'
    >>> app_url(8601, "127.0.0.1", {}, present=True)
    'http://127.0.0.1:8601/?present=1'
    """
    host = address or environ.get("STREAMLIT_SERVER_ADDRESS") or "localhost"
    if host in ("0.0.0.0", "::"):
        host = "localhost"
    port = port or environ.get("STREAMLIT_SERVER_PORT") or DEFAULT_PORT
    return f"http://{host}:{port}/" + (f"?{PRESENT_QUERY}" if present else "")


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = 0
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a whole number from 1 to 65535; got {text!r}")
    return port


def _app_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--port",
        type=_port,
        default=None,
        help=f"port to serve on (default: STREAMLIT_SERVER_PORT or {DEFAULT_PORT})",
    )
    parser.add_argument(
        "--address",
        default=None,
        help="address to listen on, e.g. 127.0.0.1 behind a reverse proxy "
        "(default: STREAMLIT_SERVER_ADDRESS, else every interface)",
    )
    parser.add_argument(
        "--present",
        action="store_true",
        help=f"print the link that opens presentation mode ({PRESENT_QUERY} "
        "in the URL): the sidebar closed, larger type, thicker lines, the "
        "figure sized to the window",
    )


def run_app(args: argparse.Namespace) -> int:
    """Serve the app in this process until it is stopped."""
    from perceptron_lab.app_logic.admission import gate_from_environment
    from perceptron_lab.app_logic.live_class.settings import (
        database_from_environment,
        hours_from_environment,
    )
    from perceptron_lab.app_logic.memory import budget_from_environment

    # a wrong budget or gate is one line here, not a server that fails
    gate_from_environment(budget=budget_from_environment())
    database_from_environment()  # likewise the live class's database and hours
    hours_from_environment()
    folder = APP_FOLDER
    os.environ.update(streamlit_environment(folder, os.environ))
    print(
        f"Perceptron Lab from {folder}: preparing the first page (after an install the "
        "learners compile in the background; 'perceptron-lab warm' does it ahead of time), "
        f"then serving it at {app_url(args.port, args.address, os.environ, args.present)}",
        flush=True,
    )
    from streamlit.web import cli as streamlit_cli

    # Streamlit's command line ends the program itself (SystemExit) when the server stops.
    streamlit_cli.main(streamlit_arguments(folder, args.port, args.address), prog_name="streamlit")
    return 0


def _warm_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--learners",
        default=None,
        metavar="KEY,KEY",
        help="only these learners of the app's menu, and no lesson "
        "(default: every learner, then every lesson's study)",
    )


def run_warm(args: argparse.Namespace) -> int:
    """Compile the app's learners one after the other, then prepare every lesson's study
    (:mod:`perceptron_lab.app_logic.lesson_studies`), and say what each cost."""
    from perceptron_lab.app_logic import training
    from perceptron_lab.app_logic.learners import LEARNERS
    from perceptron_lab.app_logic.warmup import Warmup

    keys = (
        list(LEARNERS)
        if args.learners is None
        else [key.strip() for key in args.learners.split(",") if key.strip()]
    )
    unknown = [key for key in keys if key not in LEARNERS]
    if unknown or not keys:
        wrong = f"unknown learner {', '.join(map(repr, unknown))}" if unknown else "no learner"
        raise ValueError(f"--learners: {wrong}; the app's learners are {', '.join(LEARNERS)}.")
    warmup = Warmup(keys, training.compile_learner)
    print(f"{'learner':18s} {'seconds':>8s}", flush=True)
    for key in keys:
        compiled = warmup.ensure(key)
        note = f"  FAILED: {compiled.error}" if compiled.error else ""
        print(f"{key:18s} {compiled.seconds:8.2f}{note}", flush=True)
    status = warmup.status()
    print(
        f"{len(keys) - len(status.failed)} of {len(keys)} learners ready in "
        f"{status.seconds:.1f} s; numba keeps them in its cache for the next process."
    )
    if args.learners is not None:  # a list of learners asks for those only, not the lessons
        return 1 if status.failed else 0
    # Then what the lessons compute: their studies, which also compiles their own code.
    from perceptron_lab.app_logic import lesson_studies

    folder = lesson_studies.cache_folder()
    problem = _cannot_write(folder)
    if problem:  # warm's point is the next process: studies it cannot keep are not worth it
        print(
            f"{cli.PROG}: could not keep the lesson studies: the folder {str(folder)!r} "
            f"{problem}; the server will compute each one when a lesson first needs it "
            "(set XDG_CACHE_HOME to a writable folder).",
            file=sys.stderr,
        )
        return 1
    print(f"{'lesson study':18s} {'seconds':>8s}", flush=True)
    studies = []
    for study in lesson_studies.prepare_lessons():
        studies.append(study)
        note = f"FAILED: {study.error}" if study.error else study.source
        print(f"{study.name:18s} {study.seconds:8.2f}  {note}", flush=True)
    lesson_studies.forget()  # what counts is the disk, where the next process reads them
    lost = [s.name for s in studies if not s.error and lesson_studies.stored(s.name) is None]
    failed = sum(study.error is not None for study in studies)
    ready = len(studies) - failed - len(lost)
    print(
        f"{ready} of {len(studies)} lesson studies ready in "
        f"{sum(study.seconds for study in studies):.1f} s"
        + (f"; kept in {folder}." if ready else ".")
    )
    if lost:
        print(
            f"{cli.PROG}: could not keep the lesson studies {', '.join(lost)} in {folder} "
            "(the log above says why); the server will compute them itself.",
            file=sys.stderr,
        )
    return 1 if status.failed or failed or lost else 0


def _cannot_write(folder: Path) -> str | None:
    """Why ``folder`` cannot keep files (it is created if missing), or None when it can:
    a file is written and removed there (a permission check would pass as root)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as err:
        return f"cannot be written ({(err.strerror or str(err)).lower()})"
    return None


def export_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "link",
        nargs="?",
        default="",
        help="a playground share link, or its query string "
        "(data=gaussians&learner=kw&epochs=40&t=120); default: the "
        "playground's first view",
    )
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        default=Path("perceptron-run.html"),
        help="the page to write (default: perceptron-run.html)",
    )


def run_export_html(args: argparse.Namespace) -> int:
    """Train the link's run and write its page (the output path is checked first)."""
    from perceptron_core._output_files import check_file

    check_file(args.output, "--output")
    from perceptron_lab.ui.standalone_page import link_page

    page, what = link_page(args.link)
    args.output.write_text(page, encoding="utf-8")
    size = args.output.stat().st_size
    print(
        f"wrote {args.output} ({size / 1e6:.2f} MB): {what.learner} on {what.data}, "
        f"{what.steps:,} steps; it opens in a browser with no server and no connection"
    )
    return 0


def _exercises_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="write JSON instead of text")
    parser.add_argument(
        "--lesson", type=int, default=None, metavar="N", help="only lesson N's exercises"
    )


def run_exercises(args: argparse.Namespace) -> int:
    """List the lessons' exercises (id, lesson, kind, how answered, prompt), as text or JSON.

    The text groups them by lesson and ends each group with the link's part that opens the
    lesson with that set (``?exercises=...``): a teacher keeps the ids of the homework.
    """
    import json

    from perceptron_lab.app_logic.exercises import KINDS, listing

    rows = listing()
    lessons = sorted({row["lesson"] for row in rows})
    if args.lesson is not None:
        if args.lesson not in lessons:
            raise ValueError(
                f"--lesson: lesson {args.lesson} has no exercises; the lessons with "
                f"exercises are {', '.join(map(str, lessons))}."
            )
        rows = [row for row in rows if row["lesson"] == args.lesson]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    for lesson in sorted({row["lesson"] for row in rows}):
        own = [row for row in rows if row["lesson"] == lesson]
        print(f"Lesson {lesson} ({len(own)} exercises)")
        for row in own:
            print(f"  {row['id']:24s} {row['kind']:8s} {row['prompt']}")
        print(f"  homework link: add ?exercises={','.join(r['id'] for r in own)} to the lesson's")
        print("  address, keeping only the ids you set\n")
    print("Kinds: " + "; ".join(f"{kind}: {what}" for kind, what in KINDS.items()) + ".")
    return 0


#: The app's subcommands, in the order ``--help`` lists them after the core's.
APP_COMMANDS: dict[str, cli.Subcommand] = {
    command.name: command
    for command in (
        cli.Subcommand(
            "app",
            "serve the Perceptron Lab app (Streamlit) with its safe settings",
            _app_arguments,
            run_app,
        ),
        cli.Subcommand(
            "warm",
            "compile every learner of the app into numba's cache and "
            "prepare every lesson's study ahead of time (for deploy scripts and a "
            "service's start step)",
            _warm_arguments,
            run_warm,
        ),
        cli.Subcommand(
            "export-html",
            "write a playground view (a share link's settings) as "
            "one web page that plays offline, with no server",
            export_arguments,
            run_export_html,
        ),
        cli.Subcommand(
            "exercises",
            "list every lesson's exercises (id, lesson, kind, prompt) for a teacher, as "
            "text or JSON; a lesson's link with ?exercises=id1,id2 sets a chosen few",
            _exercises_arguments,
            run_exercises,
        ),
    )
}


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``perceptron-lab`` console script: the core's commands, then the
    app's; returns the exit status.

    Examples
    --------
    >>> from perceptron_lab.cli import main
    >>> main(["datasets", "--kind", "shipped"])  # doctest: +ELLIPSIS
    name ...
    sonar ...
    0
    """
    return cli.main(argv, {**cli.SUBCOMMANDS, **APP_COMMANDS})


if __name__ == "__main__":
    sys.exit(main())
