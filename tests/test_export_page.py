"""The page that plays with no server (ui/standalone_page.py), read as text.

What it holds (each playback module once, the run, what it says about itself), what it
may not hold (a link or a script from outside), its size for the default run, the share
link it is made from on the command line, and the rule that the replay's JavaScript
exists once in the repository. tests/test_export_page_browser.py plays it in chromium.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
import re
from pathlib import Path

import numpy as np
import pytest

from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.payload import build_payload
from perceptron_lab.app_logic.payload.pack import unpack
from perceptron_lab.app_logic.share_link import read_link
from perceptron_lab.app_logic.style import Show
from perceptron_lab.app_logic.training import fit_run
from perceptron_lab.cli import main
from perceptron_lab.ui.module_graph import compacted
from perceptron_lab.ui.standalone_page import ENTRY, HOST, PLAYBACK, module_order, run_page
from tests.pages import page_run
from tests.repository import repository_files

ROOT = Path(__file__).resolve().parents[1]
#: The issue's target for the playground's first view, in bytes.
DEFAULT_PAGE_BYTES = 1_500_000


def _run(request, learner="perceptron", epochs=20):
    data = make_dataset(request)
    run = page_run(learner, {}, epochs, request.seed, data)
    return run, data


@pytest.fixture(scope="module")
def default_page():
    request = DataRequest("separable")
    run, data = _run(request)
    page = run_page(run, data, request, 20, made=dt.date(2026, 3, 4))
    return page, run, data


def _script(page: str, element_id: str) -> str:
    return re.search(rf'<script [^>]*id="{element_id}">(.*?)</script>', page, re.S).group(1)


def test_the_default_run_fits_the_size_target(default_page):
    page, _, _ = default_page
    assert len(page.encode("utf-8")) <= DEFAULT_PAGE_BYTES


def test_every_playback_module_is_inline_once_after_the_modules_it_imports(default_page):
    page, _, _ = default_page
    names = re.findall(r'<script type="text/plain" data-module="([\w-]+\.js)">', page)
    hosts = {HOST, "notebook.js"}  # the page's and the notebook widget's, not replay modules
    modules = sorted(p.name for p in PLAYBACK.glob("*.js") if p.name not in hosts)
    assert sorted(names) == modules  # main.js reaches every module, and each is there once
    assert names == list(module_order()) and names[-1] == ENTRY
    for name in names:
        source = compacted((PLAYBACK / name).read_text(encoding="utf-8"))
        assert page.count(source) == 1
        for dep in re.findall(r'from "\./([\w-]+\.js)"', source):
            assert names.index(dep) < names.index(name)


def test_the_run_inside_is_the_payload(default_page):
    page, run, data = default_page
    args = json.loads(_script(page, "playback-args"))
    blob = base64.b64decode(_script(page, "playback-blob"))
    payload = build_payload(data, [run], 0)
    assert args["payload_id"] == payload.id and blob == payload.blob
    arrays = unpack(args["header"], blob)
    X = arrays[args["meta"]["scene"]["arrays"]["X"]]
    np.testing.assert_allclose(X.reshape(data.X.shape), data.X, rtol=1e-6)
    assert args["options"]["hide"]["link"] and not args["options"]["hide"]["export"]
    assert args["options"]["click"] == "off"
    assert args["options"]["record"]["learner"]["key"] == "perceptron"


def test_the_page_says_what_it_is(default_page):
    page, run, data = default_page
    header = re.search(r'<header class="about">(.*?)</header>', page, re.S).group(1)
    text = re.sub(r"<[^>]+>", " ", header)
    assert f"{run.learner.title} on {data.title}" in text
    assert "epochs 20" in text and "seed 0" in text and "training points 100" in text
    assert "2026-03-04" in text and "Perceptron Lab" in text
    assert f"<title>{run.learner.title} on {data.title} - Perceptron Lab</title>" in page


def test_the_page_links_nowhere_and_loads_nothing_from_outside(default_page):
    page, _, _ = default_page
    outside = page.replace(_script(page, "playback-blob"), "")
    assert not re.search(r"<(a|link|img|iframe)\b[^>]*(href|src)=", outside, re.I)
    assert not re.search(r"<script[^>]*\bsrc=", outside, re.I)
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)
    assert "default-src 'none'" in policy and "http" not in policy


def test_json_in_the_page_cannot_close_its_script_element():
    request = DataRequest("separable")
    run, data = _run(request, epochs=2)
    page = run_page(run, data, request, 2)
    args = _script(page, "playback-args")
    assert "</" not in args and json.loads(args)["options"]["record"]["data"]["title"]


def test_the_replays_javascript_exists_once_in_the_repository():
    """The app's component, the exported page and the notebook widget load the same files:
    no module may be copied (by name or by content) anywhere else."""
    files = [ROOT / name for name in repository_files()]  # not a virtual environment's
    scripts = [p for p in files if p.suffix == ".js" and "vendor" not in p.parts]
    by_name, by_content = {}, {}
    for path in scripts:
        by_name.setdefault(path.name, []).append(path)
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        by_content.setdefault(digest, []).append(path)
    assert len(by_name) >= 18
    assert {k: v for k, v in by_name.items() if len(v) > 1} == {}
    assert {k: v for k, v in by_content.items() if len(v) > 1} == {}
    # and no Python file carries a module's text
    sources = [(PLAYBACK / name).read_text(encoding="utf-8") for name in module_order()]
    for path in (p for p in files if p.suffix == ".py" and p.is_file()):
        text = path.read_text(encoding="utf-8")
        for source in sources:
            assert source.splitlines()[0] not in text, path


def test_a_share_link_gives_the_playgrounds_settings():
    s = read_link(
        "http://host:8501/?data=gaussians&gaussians_n_samples=300&noise=uniform"
        "&noise_rate=0.2&test=0.25&seed=7&learner=kw&kw_tau=0.5&epochs=30"
        "&band=0&show_test=0&t=42&image=svg"
    )
    assert s.request == DataRequest("gaussians", (("n_samples", 300),), "uniform", 0.2, 0.25, 7)
    assert s.learner == "kw" and s.values["tau"] == 0.5 and s.epochs == 30
    assert s.values.keys() == LEARNERS["kw"].defaults().keys()
    assert s.show == Show(band=False, test_points=False)
    assert (s.t, s.image) == (42, "svg")
    assert read_link("").request == DataRequest("separable")


@pytest.mark.parametrize(
    ("link", "message"),
    [
        ("learner=nope", "learner='nope' is not accepted; learner takes one of perceptron"),
        ("data=csv", "an uploaded file, which a link does not carry"),
        ("noise=uniform&noise_rate=0.9", "noise_rate takes a number from 0.0 to 0.5"),
        ("band=yes", "band='yes' is not accepted; band takes 0 or 1"),
        ("seed=x", "seed takes a number from 0 to 1000000"),
    ],
)
def test_a_wrong_link_value_is_named_with_what_is_accepted(link, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        read_link(link)


def test_the_command_line_writes_the_page_of_a_link(tmp_path, capsys):
    out = tmp_path / "kw.html"
    assert main(["export-html", "data=gaussians&learner=kw&epochs=3&t=5", "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    args = json.loads(_script(page, "playback-args"))
    assert args["options"]["initial_t"] == 5
    assert args["meta"]["lanes"][0]["title"] == LEARNERS["kw"].title
    said = capsys.readouterr().out
    assert f"wrote {out}" in said and "no server" in said
    assert "on Overlapping Gaussians (2-D), 600 steps" in said


def test_the_command_line_says_what_was_wrong_with_a_link(capsys):
    assert main(["export-html", "epochs=500", "-o", "unused.html"]) == 1
    assert "epochs takes a number from 1 to 200" in capsys.readouterr().err


def test_the_playground_offers_its_run_as_a_web_page():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "router.py"), default_timeout=120)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    buttons = {b.proto.label: b.proto for b in at.get("download_button")}
    assert "Download as web page" in buttons
    assert "offline and with no server" in buttons["Download as web page"].help


def test_a_lessons_figure_downloads_as_a_web_page_with_its_own_panels():
    """Each lesson's figure offers the same page; a lesson's extra panels travel inside."""
    from streamlit.testing.v1 import AppTest

    from perceptron_lab.app_logic.payload.extras import Panel
    from perceptron_lab.ui.player import DownloadView, _web_page, page_payload

    at = AppTest.from_file(str(ROOT / "lessons" / "02_convergence.py"), default_timeout=300)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Download this figure as a web page" in labels
    request = DataRequest("separable", (("n_samples", 30),))
    data = make_dataset(request)
    run = fit_run("perceptron", (), 5, 0, data.X, data.y, data.X_test, data.y_test)

    def panels(run, data):
        return [Panel("The lesson's own panel")]

    payload = page_payload(request, data, [run], panels, 0)  # as the lesson's figure has it
    view = DownloadView(request, "perceptron", (), 5, Show(), extras=panels.__qualname__)
    page = _web_page(view, data, run)
    assert payload.id in page and "The lesson's own panel" in page


def test_the_command_line_checks_the_page_path_before_training(capsys):
    assert main(["export-html", "-o", "/proc/run.html"]) != 0
    err = capsys.readouterr().err
    assert "--output: cannot write '/proc/run.html'" in err and "Nothing was run" in err
