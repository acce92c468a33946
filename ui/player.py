"""The playback component in a Streamlit page: the run goes to the browser once.

:func:`playback` draws the figure, the playback controls, the math panel,
the diagnostics and the share box of one to four recorded runs, all inside
one custom component (``ui/playback/``, served as it is: our ES modules
and the Plotly.js bundle in ``ui/playback/vendor/``). Stepping, playing and scrubbing
happen in the browser; the server hears from it only when a click on the
plot edits the points. The payload of a page (:func:`app_logic.payload.build_payload`)
is built once per set of runs and kept in the server's memory budget, so a
rerun that changes nothing about the runs sends a message Streamlit's client
already has.

:func:`download_button` offers a view's files (the trace, the points, the web page). Their
bytes are built when asked for, once per view, and kept in the same budget; what the button
hands Streamlit holds only a token (see :func:`download_button` for why).
"""

from __future__ import annotations

import threading
import uuid
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import streamlit as st
import streamlit.components.v1 as components

from perceptron_lab.app_logic.datasource import DataRequest
from perceptron_lab.app_logic.export import events_csv, points_csv
from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.memory import SERVER
from perceptron_lab.app_logic.payload import Payload, build_payload

# View, HIDEABLE and texts are shared with the exported page and the notebook widget; the
# pages import them from here as before.
from perceptron_lab.app_logic.playback_args import HIDEABLE, View, component_args, texts  # noqa: F401
from perceptron_lab.app_logic.predictions import Predict, predict_from_link
from perceptron_lab.app_logic.style import STYLE, Show
from perceptron_lab.app_logic.view_cost import CpuAccount, check_cpu, current_account, metered
from perceptron_lab.ui.runs import get_dataset, train
from perceptron_lab.ui.state import GROUPS

#: The component's folder: its page, scripts, styles and the vendored Plotly.js.
PLAYBACK = Path(__file__).parent / "playback"

#: Rough heights of the parts, for the frame's first size (the browser then reports its own).
CONTROLS_HEIGHT, DIAGNOSTICS_HEIGHT = 130, 470


@st.cache_resource(show_spinner=False)
def _component():
    return components.declare_component("playback", path=str(PLAYBACK))


def _payload_key(request, runs, extras_name: str | None, seed: int) -> tuple:
    return (request, tuple(run.serial for run in runs), extras_name, seed)


def page_payload(request, data, runs, extras: Callable | None = None, seed: int = 0) -> Payload:
    """The payload of ``runs`` on ``data`` (built by ``request``), kept in the server's memory
    budget under the runs' serial numbers (never reused), so it does not keep the runs alive.
    A lesson's ``extras`` are known by their name (a lesson's functions are made anew at
    every run of its page)."""
    key = _payload_key(request, runs, getattr(extras, "__qualname__", None), seed)

    def build() -> Payload:
        return build_payload(data, runs, seed, extras(runs[0], data) if extras else None)

    return SERVER.cached("payloads", key, build)


def url_step(default: int = 0) -> int:
    """The step in the page's URL (``t=...``), or ``default``.

    Only inside a script run: elsewhere (a download's worker thread) Streamlit has no query
    string, so what outlives the run takes the step when the run reads it
    (:class:`DownloadView`).
    """
    try:
        return max(0, int(st.query_params.get("t", default)))
    except ValueError:
        return default


def url_predict(seed: int = 0) -> Predict:
    """Predict mode as the page's URL asks for it (``predict=1&ask=updates``; the replay keeps
    these entries in step), its questions seeded with ``seed``; off when the URL does not ask,
    and off with a message when it asks for something it may not."""
    try:
        return predict_from_link(st.query_params, seed)
    except ValueError as error:
        st.toast(f"{error} Predict mode is off.")
        return Predict(seed=seed)


def step_reported(component_key: str) -> None:
    """Keep the step the component reported (``{"action": "step", "t": ...}``: its step on
    screen, sent while :attr:`View.report_step` asks for it) for :func:`shown_step`, with the
    address's step it was reported over."""
    value = st.session_state.get(component_key)
    if isinstance(value, dict) and value.get("action") == "step":
        t = value.get("t")
        if isinstance(t, int) and not isinstance(t, bool) and t >= 0:
            st.session_state[f"{component_key}_step"] = (t, url_step())


def shown_step(component_key: str) -> int:
    """The step on screen: as the component last reported it, else the address's
    (:func:`url_step`). Streamlit's reruns send the address the server last wrote, not the one
    the component keeps in step, so only a report says where the visitor has moved to; once
    the server's address itself moves (a link, a live class's view), the report is stale."""
    reported = st.session_state.get(f"{component_key}_step")
    address = url_step()
    if reported is not None and reported[1] == address:
        return reported[0]
    return address


@dataclass(frozen=True)
class DownloadView:
    """What a view's downloads are made from: how its data and run were asked for (not the
    data and the run themselves), what its figure shows, and the step it opened at.

    Attributes
    ----------
    request : DataRequest
    learner_key : str
    values : tuple
        The learner's settings as sorted pairs (the key ``ui.runs.train`` caches under).
    epochs : int
    show : Show
    step : int
        The step the web page opens at: the page's, read during its run (:func:`url_step`).
    image : str
        The page's figure download format.
    extras : str, optional
        The name of a lesson's panels function (see :func:`page_payload`): its page is
        the payload the lesson drew, while the server's budget keeps it (the function
        itself belongs to one run of the lesson's page, and would keep that run's
        variables alive).
    predict : Predict
        Predict mode as the page opened it.
    """

    request: DataRequest
    learner_key: str
    values: tuple
    epochs: int
    show: Show = Show()
    step: int = 0
    image: str = "png"
    extras: str | None = None
    predict: Predict = Predict()

    @classmethod
    def of(cls, request, run, **shown) -> DownloadView:
        """The view of ``run`` (trained on ``request``'s data); ``shown``: the other fields."""
        values = tuple(sorted(run.values.items()))
        return cls(request, run.learner_key, values, run.epochs, **shown)

    def made(self) -> tuple:
        """``(data, run)``, through the server's budget: kept, or made again (the same)."""
        data = get_dataset(self.request)
        run = train(
            self.learner_key,
            self.values,
            self.epochs,
            self.request.seed,
            *data.fit_data(LEARNERS[self.learner_key].learns_classes),
        )
        return data, run


#: Why a download could not be built: its view is no longer in the server's memory.
EXPIRED = (
    "The view of this download is no longer in the server's memory (its page was closed, or "
    "a lesson's figure went unused); reloading the page offers it again."
)


def _web_page(view: DownloadView, data, run) -> str:
    # imported here: a page loads the page builder only when a reader asks for a page
    from perceptron_lab.ui import standalone_page

    seed = view.request.seed
    if view.extras is None:
        payload = page_payload(view.request, data, [run], seed=seed)
    else:  # a lesson's panels: only its own page run can compute them
        payload = SERVER.peek("payloads", _payload_key(view.request, [run], view.extras, seed))
        if payload is None:
            raise LookupError(EXPIRED)
    return standalone_page.run_page(
        run,
        data,
        view.request,
        view.epochs,
        view.show,
        view.step,
        view.image,
        payload,
        predict=view.predict,
    )


#: What each kind of download is: its file type, and how it is written from the view.
DOWNLOADS: dict[str, tuple[str, Callable]] = {
    "trace": ("text/csv", lambda view, data, run: events_csv(run)),
    "points": ("text/csv", lambda view, data, run: points_csv(data)),
    "page": ("text/html", _web_page),
}


@dataclass(eq=False)
class _Found:
    """What a download button's token finds: its view, and the CPU account of the view's
    making, which its downloads are counted in (:class:`app_logic.view_cost.CpuAccount`)."""

    view: DownloadView
    account: CpuAccount


#: ``{token: what it finds}`` of the download buttons on pages now: each is held by its
#: session's state (beside the button's key), so it lives as long as the session does.
_VIEWS: weakref.WeakValueDictionary[str, _Found] = weakref.WeakValueDictionary()
_VIEWS_LOCK = threading.Lock()


def _downloaded(kind: str, token: str) -> bytes:
    """The file of ``kind`` for the view behind ``token``: built once per view, whoever asks
    and however often, and kept in the server's memory budget like the run it comes from
    (so Streamlit, which stores what it serves by content, stores it once). Its CPU is the
    view's: metered in the view's account, it is refused, or stopped between its parts, once
    the view and its downloads have used the view's CPU budget (docs/deploy.md)."""
    with _VIEWS_LOCK:
        found = _VIEWS.get(token)
    if found is None:
        raise LookupError(EXPIRED)
    view = found.view

    def build() -> bytes:
        with metered(account=found.account):
            check_cpu()  # a view that has spent its budget builds nothing more
            data, run = view.made()
            check_cpu()
            return DOWNLOADS[kind][1](view, data, run).encode("utf-8")

    return SERVER.cached("downloads", (kind, view), build)


def download_button(
    where, kind: str, view: DownloadView, label: str, file_name: str, *, key: str, **button
) -> None:
    """A button that downloads the file of ``kind`` (:data:`DOWNLOADS`) of ``view``.

    Streamlit calls a button's ``data`` in a worker thread when the browser asks (any
    client can ask, as often as it likes), and keeps the callable for as long as it keeps
    the session's references: after the visitor left too, and for a session it never
    shuts down (one closed long ago, whose reconnection time ran out), for good. So the
    callable holds only the kind and a token. The view (how its data and run were asked
    for, a few hundred bytes, or an upload's bytes the session holds anyway) is held by the
    session's state and found from the token while the session lives; the data and the run
    come from the server's memory budget (made again if it dropped them), and the file's
    bytes are kept there too, under the view (:func:`_downloaded`): counted, built once,
    dropped with the rest of the view. Its CPU is counted with the view's: drawn while a
    view is made (:func:`app_logic.view_cost.metered`), the button keeps that view's account.

    Parameters
    ----------
    where : Streamlit container
    kind : str
        A key of :data:`DOWNLOADS`.
    view : DownloadView
    label, file_name : str
    key : str
        The button's key; the session keeps its view's token beside it.
    **button
        More arguments of ``st.download_button`` (``help``, ``icon``, ``width``...).
    """
    slot = f"{key}_view"
    kept = st.session_state.get(slot)
    if kept is None or kept[0] != view:
        found = _Found(view, current_account() or CpuAccount())
        kept = st.session_state[slot] = (view, uuid.uuid4().hex, found)
        with _VIEWS_LOCK:
            _VIEWS[kept[1]] = found
    where.download_button(
        label,
        partial(_downloaded, kind, kept[1]),
        file_name=file_name,
        mime=DOWNLOADS[kind][0],
        key=key,
        on_click="ignore",
        **button,
    )


def forget_served_files() -> None:
    """Let Streamlit drop the downloads it served that no session refers to any more.

    Streamlit stores a file it served until two of its clean-ups later, which run when a
    page's script ends: on a server whose visitors have left, never. Run after each sweep
    of the memory budget, so a download the budget dropped leaves memory too.
    """
    from streamlit import runtime

    if runtime.exists():
        runtime.get_instance().media_file_mgr.remove_orphaned_files()


SERVER.after_sweep.append(forget_served_files)


def rule_box(run, key: str) -> None:
    """The run's update rule, only the terms its settings use (the step's numbers are in the
    component's panel)."""
    with st.container(border=True, key=key):
        st.markdown(f"**{run.learner.title}**")
        st.latex(r"\begin{gathered}" + run.learner.rule_of(run.estimator) + r"\end{gathered}")


def playback(
    key: str, payload: Payload, run, data, view: View = View(), on_click: Callable | None = None
):
    """Draw the component; returns the last click it sent (``{"action", "x", "y", "nonce"}``).

    Parameters
    ----------
    key : str
        The component's key: the same key keeps the browser's state (the
        step, play/pause) across reruns.
    payload : Payload
    run, data
        The first lane's run and the data (for the texts).
    view : View
        What is drawn and how.
    on_click : callable, optional
        Called (with no arguments) before the rerun that a click causes;
        the click is then in ``st.session_state[key]``.
    """
    style = view.style or STYLE
    figure = view.height or style["figure"]["height"]
    frame = figure + CONTROLS_HEIGHT
    frame += DIAGNOSTICS_HEIGHT if view.diagnostics and "diagnostics" not in view.hide else 0
    return _component()(
        key=key,
        **component_args(payload, run, data, view, GROUPS),
        height=frame,
        default=None,
        on_change=on_click,
    )


def clicked_point(value) -> tuple[str, tuple[float, float]] | None:
    """``(action, (x, y))`` from the component's value, or None when it is not a click.

    Examples
    --------
    >>> clicked_point({"action": "+1", "x": 0.5, "y": -1, "nonce": "1"})
    ('+1', (0.5, -1.0))
    >>> clicked_point({"action": "+1", "x": "a", "y": 0}) is None
    True
    """
    if not isinstance(value, dict) or value.get("action") not in ("+1", "-1", "remove"):
        return None
    x, y = value.get("x"), value.get("y")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (x, y)):
        return None
    if not np.isfinite([x, y]).all():
        return None
    return value["action"], (float(x), float(y))
