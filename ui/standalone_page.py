"""One web page that replays a run with no server: everything it needs is inside the file.

:func:`page_html` writes the playback's own ES modules (``ui/playback/``, the very files
the app's component loads), its styles, the vendored Plotly.js bundle and the run's payload
into one ``.html`` file. It opens from ``file://`` or any static host, offline, and plays
with the controls of the app's view: steps, play, scrubber, keys, the math panel, the
diagnostics and the figure and JSON downloads (which happen in the browser). The link box
is left out: its address would lead to a server the reader may not reach. The page says
what it shows (learner, data, settings, the date and the version), and its
Content-Security-Policy lets it load nothing from outside itself.

The modules travel as text, dependencies first, with where each one's imports are in its
text (:func:`ui.module_graph.module_graph` reads them); ``ui/playback/standalone.js`` turns
them into modules in the browser, pointing each import at the module it names.
The page is one template (:func:`page_template`) with a few slots (:data:`SLOTS`: the run,
what the page says, how Plotly.js arrives): :func:`page_html` fills them here, and the
notebook widget's host fills the same template in the browser for each replay
(``widget/``, ``ui/playback/notebook.js``), so a notebook carries the template once.
"""

from __future__ import annotations

import base64
import datetime as dt
import html
import json
import re
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from perceptron_lab.app_logic.playback_args import View, component_args
from perceptron_lab.ui.module_graph import Module, module_graph

#: The playback's folder: the modules, the styles and the vendored Plotly.js.
PLAYBACK = Path(__file__).resolve().parent / "playback"
#: The module the page starts (it imports all the others).
ENTRY = "main.js"
#: The host script of this page (a classic script: it loads the modules).
HOST = "standalone.js"
#: Plotly.js's basic bundle (npm plotly.js-basic-dist-min), vendored.
PLOTLY = "vendor/plotly-basic.min.js"
#: Loads nothing from outside the page: scripts and styles inline, the modules from blob
#: URLs the page makes itself (in a notebook, Plotly.js too, from the URL the notebook made
#: once), images (the region, the downloads) from data and blob URLs.
POLICY = (
    "default-src 'none'; script-src 'unsafe-inline' blob:; style-src 'unsafe-inline'; "
    "img-src data: blob:; connect-src data: blob:; base-uri 'none'; form-action 'none'"
)


@cache
def playback_modules() -> tuple[Module, ...]:
    """The modules the page carries: :data:`ENTRY` and every module it reaches, each after the
    modules it imports, compacted (no comments, indentation or blank lines: a third of their
    text, and the page's size has a target), read once per process
    (:func:`ui.module_graph.module_graph`)."""
    return module_graph(PLAYBACK, ENTRY, compact=True)


def module_order() -> tuple[str, ...]:
    """The file names of :func:`playback_modules`, in their order.

    Examples
    --------
    >>> order = module_order()
    >>> order[-1], order.index("dom.js") < order.index("controls.js")
    ('main.js', True)
    """
    return tuple(module.name for module in playback_modules())


def _inline(text: str, what: str) -> str:
    """``text`` for the inside of a <script> or <style> element of the page's template (it
    can neither close the element nor hold a slot, which :func:`fill` would fill)."""
    if re.search(r"</(script|style)", text, re.IGNORECASE):
        raise ValueError(f"{what} contains a closing tag and cannot be written inline.")
    if _SLOT.search(text):
        raise ValueError(f"{what} contains a page slot (<!--slot:...-->).")
    return text


def _json(value) -> str:
    """JSON that can sit inside a <script> element (``<`` escaped)."""
    return json.dumps(value, separators=(",", ":")).replace("<", "\\u003c")


@dataclass(frozen=True)
class About:
    """What a page tells its reader about the run it replays.

    Attributes
    ----------
    learner : str
        The learner's title.
    data : str
        The data set's title (and how it was made).
    settings : dict
        ``{label: value}``: the learner's settings, epochs, seed, noise, ...
    made : str
        The date the page was made (ISO).
    version : str
        Perceptron Lab's version.
    """

    learner: str
    data: str
    settings: dict
    made: str
    version: str

    def title(self) -> str:
        """The page's title.

        Examples
        --------
        >>> About("Perceptron", "Two Gaussians", {}, "2026-01-02", "0.1.0").title()
        'Perceptron on Two Gaussians - Perceptron Lab'
        """
        return f"{self.learner} on {self.data} - Perceptron Lab"

    def html(self, file: bool = True) -> str:
        """The page's header; ``file=False`` leaves out what it says about the file (a
        notebook's replay is not one)."""
        settings = ", ".join(f"{k} {v}" for k, v in self.settings.items())
        lines = [
            f"<h1>{html.escape(self.learner)} on {html.escape(self.data)}</h1>",
            f"<p>{html.escape(settings)}</p>" if settings else "",
            f'<p class="caption">A recorded run replayed in your browser: this file holds '
            f"all of it and needs no connection. Made with Perceptron Lab "
            f"{html.escape(self.version)} on {html.escape(self.made)}.</p>"
            if file
            else "",
        ]
        return "\n".join(line for line in lines if line)


def version() -> str:
    """Perceptron Lab's installed version ("unknown" outside an installation)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("perceptron-lab")
    except PackageNotFoundError:
        return "unknown"


def about_run(
    run, data, epochs: int | None = None, seed: int | None = None, made: dt.date | None = None
) -> About:
    """The :class:`About` of a run of the menu (:class:`app_logic.training.Run`)."""
    settings = {s.label: run.values[s.name] for s in run.learner.settings if s.name in run.values}
    if epochs is not None:
        settings["epochs"] = epochs
    if seed is not None:
        settings["seed"] = seed
    settings["training points"] = len(data.X)
    if len(data.X_test):
        settings["test points"] = len(data.X_test)
    return About(
        run.learner.title, data.title, settings, (made or dt.date.today()).isoformat(), version()
    )


#: The page's own styles, around the playback's (style.css).
PAGE_STYLE = """
.about { font-size: 14px; padding: 8px 4px 4px; }
.about h1 { font-size: 1.35em; margin: 0 0 0.2em; }
.about p { margin: 0.2em 0; }
"""


def page_html(payload, run, data, about: About, view: View = View()) -> str:
    """The page that replays ``payload`` (of ``run`` on ``data``) with ``view``'s settings
    (as :func:`page_args` adapts them to a page with no server).

    Parameters
    ----------
    payload : app_logic.payload.Payload
    run, data
        The first lane's run and the data (for the math panel's texts).
    about : About
        What the page says it shows.
    view : View
        What the replay draws; ``view.share["record"]`` is the JSON download's record.
    """
    args, blob = page_args(payload, run, data, view)
    return fill(
        page_template(),
        generator=html.escape(about.version),
        title=html.escape(about.title()),
        header=about.html(),
        args=_json(args),
        blob=base64.b64encode(blob).decode("ascii"),
        plotly=f"<script>{_inline(playback_file(PLOTLY), PLOTLY)}</script>",
    )


def page_args(payload, run, data, view: View = View()) -> tuple[dict, bytes]:
    """The replay's arguments on a page with no server, and the payload's bytes apart.

    The view's share box keeps its downloads and loses its link; a click on the plot does
    nothing (there is no server to retrain).
    """
    share = {"base": "", "params": {}, "record": (view.share or {}).get("record")}
    view = replace(view, click="off", hide=view.hide | {"link"}, share=share)
    args = component_args(payload, run, data, view)
    return args, args.pop("blob")


#: The page's slots, in the order they appear: what differs from one page to another (the
#: version, the run, and whether Plotly.js is inline or a URL the notebook made once).
SLOTS = ("generator", "title", "plotly", "header", "args", "blob")
_SLOT = re.compile(r"<!--slot:(\w+)-->")


def fill(template: str, **parts: str) -> str:
    """``template`` with the slots named in ``parts`` filled (the others stay).

    The notebook widget's host (``ui/playback/notebook.js``) fills the same slots in the
    browser, with the same pattern.

    Examples
    --------
    >>> fill("<title><!--slot:title--></title><!--slot:args-->", title="Run")
    '<title>Run</title><!--slot:args-->'
    """
    return _SLOT.sub(lambda m: parts.get(m.group(1), m.group(0)), template)


@cache
def page_template() -> str:
    """The self-contained page with its :data:`SLOTS` empty (``<!--slot:NAME-->``).

    Its styles, the playback's modules (as text, dependency order), where each module's
    imports are in its text (``playback-imports``: ``{module: [[imported, start, end], ...]}``,
    JavaScript's string indices) and its host script are in it; :func:`page_html` fills it for
    one run, and the notebook widget sends it to the browser once per notebook and fills it
    there for each replay.
    """
    modules = "\n".join(
        f'<script type="text/plain" data-module="{module.name}">'
        f"{_inline(module.source, module.name)}</script>"
        for module in playback_modules()
    )
    imports = {module.name: [list(i) for i in module.imports] for module in playback_modules()}
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Perceptron Lab <!--slot:generator-->">
<title><!--slot:title--></title>
<style>
{_inline(playback_file("style.css"), "style.css")}
{PAGE_STYLE}</style>
<!-- Plotly.js basic bundle (npm plotly.js-basic-dist-min, MIT licence) -->
<!--slot:plotly-->
</head>
<body>
<header class="about">
<!--slot:header-->
</header>
<div id="app"><p class="loading">Loading the run…</p></div>
<script type="application/json" id="playback-args"><!--slot:args--></script>
<script type="application/octet-stream" id="playback-blob"><!--slot:blob--></script>
<script type="application/json" id="playback-imports">{_json(imports)}</script>
{modules}
<script>{_inline(playback_file(HOST), HOST)}</script>
</body>
</html>
"""


@cache
def playback_file(name: str) -> str:
    """A file of the playback's folder (:data:`PLAYBACK`) as text, read once per process."""
    return (PLAYBACK / name).read_text(encoding="utf-8")


def run_page(
    run,
    data,
    request,
    epochs: int,
    show=None,
    initial_t: int = 0,
    image: str = "png",
    payload=None,
    made: dt.date | None = None,
    predict=None,
) -> str:
    """The page of a run of the menu, as the playground shows it (its share box's record
    included); ``payload`` is built when not given.

    Parameters
    ----------
    run : app_logic.training.Run
    data : app_logic.datasource.Dataset
    request : app_logic.datasource.DataRequest
        How the data were made (for the JSON download and the seed).
    epochs : int
    show : app_logic.style.Show, optional
    initial_t : int
        The step the page opens on.
    image : str
        The figure download's format, "png" or "svg".
    predict : app_logic.predictions.Predict, optional
        Predict mode (off by default; the reader can switch it on in the page).
    """
    from perceptron_lab.app_logic.export import run_record
    from perceptron_lab.app_logic.payload import build_payload
    from perceptron_lab.app_logic.predictions import Predict
    from perceptron_lab.app_logic.style import Show

    payload = payload or build_payload(data, [run], request.seed)
    view = View(
        show=show or Show(),
        initial_t=initial_t,
        image=image,
        share={"record": run_record(run, data, request)},
        predict=predict or Predict(seed=request.seed),
    )
    return page_html(payload, run, data, about_run(run, data, epochs, request.seed, made), view)


def link_page(link: str) -> tuple[str, LinkTitle]:
    """The page of a playground share link (see :func:`app_logic.share_link.read_link`)."""
    from perceptron_lab.app_logic.datasource import make_dataset
    from perceptron_lab.app_logic.share_link import read_link
    from perceptron_lab.app_logic.training import fit_run

    s = read_link(link)
    data = make_dataset(s.request)
    from perceptron_lab.app_logic.learners import LEARNERS

    run = fit_run(
        s.learner,
        tuple(sorted(s.values.items())),
        s.epochs,
        s.request.seed,
        *data.fit_data(LEARNERS[s.learner].learns_classes),
    )
    page = run_page(run, data, s.request, s.epochs, s.show, s.t, s.image, predict=s.predict)
    return page, LinkTitle(run.learner.title, data.title, run.timeline.n_events)


@dataclass(frozen=True)
class LinkTitle:
    """What :func:`link_page` exported: the learner, the data, the number of steps."""

    learner: str
    data: str
    steps: int
