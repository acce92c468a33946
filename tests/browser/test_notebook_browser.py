"""The notebook widget in a real JupyterLab and Notebook 7, driven by chromium as a researcher
uses it.

Each host is started (tests/jupyter.py) with a notebook whose cells call ``show(...)`` on an
unfitted estimator, on one fitted with its record and on a DataFrame; the test runs the cells
and checks that each replay's figure appears, that Step advances its counter exactly, that
the DataFrame's columns name the axes, and that the step is shared with Python both ways.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from perceptron_lab.app_logic.learners import LEARNERS
from tests.chromium import launch
from tests.jupyter import (
    FRAME,
    HOSTS,
    jupyter,
    open_notebook,
    replay_frame,
    run_cell,
    run_replay_cell,
    save_notebook,
    write_notebook,
)

pytestmark = pytest.mark.browser

SETUP = """
import pandas as pd
from perceptron_core import KWPerceptron, PAUMPerceptron, VotedPerceptron
from perceptron_core.datasets import load
from perceptron_lab.widget import show
X, y, info = load("gaussians", n_samples=120, random_state=1)
names = pd.Series(y).map({-1: "ham", 1: "spam"})
df = pd.DataFrame(X, columns=["height", "weight"])
fitted = VotedPerceptron(epochs=5, random_state=0, record="all").fit(X, names)
"""
#: (cell, steps): an unfitted estimator, a fit with its record, a DataFrame; one cell each.
REPLAYS = [
    (
        "kw = show(KWPerceptron(tau=0.5), X, y)\nseen = []\n"
        "kw.observe(lambda change: seen.append(change['new']), 'step')\nkw",
        120 * 100,
    ),
    ("show(fitted, X, names)", 120 * 5),
    ("show(PAUMPerceptron(tau_neg=0.5, max_epochs=5, random_state=0), df, names)", 120 * 5),
]
STEP_CELLS = [
    "print('reader at', kw.step, 'last seen', seen[-1])",
    "kw.step = int(kw.steps('mistake')[2])\nprint('python set', kw.step)",
]


def _outputs(page) -> list[str]:
    return page.locator(".jp-OutputArea-output").all_inner_texts()


def _step_twice(frame, steps: int, start: int = 0) -> None:
    for t in (start + 1, start + 2):
        frame.locator(".btn-step").click()
        frame.wait_for_function(f"() => window.playback.painted === {t}")
        assert frame.locator(".readout").inner_text() == f"step {t} of {steps:,}"


@pytest.mark.parametrize("host", list(HOSTS))
def test_show_replays_estimators_and_shares_the_step(host, tmp_path):
    cells = [SETUP, *(cell for cell, _ in REPLAYS), *STEP_CELLS]
    write_notebook(tmp_path / "replays.ipynb", *cells)
    with jupyter(tmp_path, host) as server, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        open_notebook(page, server, "replays.ipynb")
        run_cell(page, 1)
        frames = []
        for i, (_, steps) in enumerate(REPLAYS):
            run_cell(page, i + 2)
            frame = replay_frame(page, i)
            frame.wait_for_function("() => window.playback.settled")
            assert frame.evaluate("() => window.playback.lanes[0].E") == steps
            assert frame.evaluate("() => !!document.querySelector('.figure-box .js-plotly-plot')")
            assert frame.locator(".readout").inner_text() == f"step 0 of {steps:,}"
            frames.append(frame)
        axes = frames[2].evaluate("""() => {
            const layout = document.querySelector('.figure-box .js-plotly-plot')._fullLayout;
            return [layout.xaxis.title.text, layout.yaxis.title.text];
        }""")
        assert axes == ["height", "weight"]
        legend = frames[2].evaluate(
            "() => document.querySelector('.figure-box .js-plotly-plot')._fullData"
            ".map((trace) => trace.name)"
        )
        assert any("ham" in name for name in legend) and any("spam" in name for name in legend)
        header = frames[1].locator("header.about").inner_text()
        assert "VotedPerceptron on your data" in header and "fitted by you" in header
        _step_twice(frames[1], REPLAYS[1][1])
        # the reader's step reaches Python, and a step set in Python moves the replay
        kw = frames[0]
        _step_twice(kw, REPLAYS[0][1])
        kw.locator(".btn-step").click()
        kw.wait_for_function("() => window.playback.painted === 3")
        page.wait_for_timeout(1500)  # the widget reports a reader's step once they pause
        run_cell(page, len(REPLAYS) + 2)
        assert _outputs(page)[-1].strip() == "reader at 3 last seen 3"
        run_cell(page, len(REPLAYS) + 3)
        said = int(_outputs(page)[-1].split()[-1])
        kw.wait_for_function(f"() => window.playback.painted === {said}")
        assert kw.locator(".readout").inner_text() == f"step {said} of {REPLAYS[0][1]:,}"
        browser.close()


SAVED = """
from perceptron_core.datasets import load
from perceptron_lab.widget import show
X, y, _ = load("separable", random_state=0)
replay = show("perceptron", X, y)
replay.step = 9
replay
"""


@pytest.mark.parametrize("host", list(HOSTS))
def test_a_saved_notebook_replays_its_run_without_running_a_cell(host, tmp_path):
    """The saved notebook holds the run, and the page's files once: opened again (a new server,
    a new kernel, no cell run), the replay draws from what the file holds, at its step."""
    path = write_notebook(tmp_path / "saved.ipynb", SAVED)
    with sync_playwright() as p:
        browser = launch(p)
        with jupyter(tmp_path, host, save_widget_state=True) as server:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            open_notebook(page, server, "saved.ipynb")
            run_cell(page, 1)
            replay_frame(page)
            book = save_notebook(page, path)
            page.close()
        state = book["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]
        models = [m["model_name"] for m in state["state"].values()]
        assert models.count("AnyModel") == 1 and models.count("WidgetModel") == 1
        with jupyter(tmp_path, host, save_widget_state=True) as server:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            open_notebook(page, server, "saved.ipynb")
            frame = replay_frame(page)
            assert frame.evaluate("() => window.playback.painted") == 9
            assert frame.locator(".readout").inner_text() == "step 9 of 2,000"
        browser.close()


PLAY = """
from perceptron_core.datasets import load
from perceptron_lab.widget import show
X, y, info = load("gaussians", n_samples=120, random_state=1)
show("voted", X, y, epochs=5)
"""


@contextmanager
def lab_page(folder: Path, name: str, *cells: str):
    """A chromium page of JupyterLab with a notebook of ``cells`` open, its kernel idle."""
    write_notebook(folder / name, *cells)
    with jupyter(folder) as server, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        open_notebook(page, server, name)
        yield page
        browser.close()


def test_play_advances_in_jupyterlab(tmp_path):
    with lab_page(tmp_path, "voted.ipynb", PLAY) as page:
        frame, _ = run_replay_cell(page)
        frame.locator(".btn-play").click()
        frame.wait_for_function("() => window.playback.painted > 4", timeout=10_000)
        frame.locator(".btn-play").click()
        assert frame.evaluate("() => window.playback.painted") > 4


MENU_SETUP = """
from perceptron_core.datasets import load
from perceptron_lab.widget import show
X2, y2, _ = load("gaussians", n_samples=60, random_state=1)
Xkw, ykw, _ = load("kw", n_features=50, n_samples=100, random_state=2)
"""
#: (learner, data): every learner of the menu on 2-D data and on a KW set with 50 features.
CASES = [(key, data) for key in LEARNERS for data in ("2-D", "KW 50 features")]
CASE_CELL = {
    "2-D": 'show("{}", X2, y2, epochs=3)',
    "KW 50 features": 'show("{}", Xkw, ykw, epochs=2)',
}


def test_show_replays_every_learner_on_2d_and_on_50_features(tmp_path):
    cells = [CASE_CELL[data].format(key) for key, data in CASES]
    write_notebook(tmp_path / "every.ipynb", MENU_SETUP, *cells)
    seen = []
    with jupyter(Path(tmp_path)) as server, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        open_notebook(page, server, "every.ipynb")
        run_cell(page, 1)
        for i, (key, data) in enumerate(CASES):
            frame, _ = run_replay_cell(page, prompt=i + 2)
            steps = frame.evaluate("() => window.playback.lanes[0].E")
            drawn = frame.evaluate("""() => {
                const lane = window.playback.lanes[0].meta, scene = window.playback.scene;
                const figure = !!document.querySelector('.figure-box .js-plotly-plot');
                const notice = !!document.querySelector('.notice');
                return {view: scene.view, projects: lane.hypotheses === 'projection',
                        figure, notice, title: lane.title};
            }""")
            frame.locator(".btn-step").click()
            frame.wait_for_function("() => window.playback.painted === 1")
            frame.locator(".btn-step").click()
            frame.wait_for_function("() => window.playback.painted === 2")
            counter = frame.locator(".readout").inner_text()
            seen.append((key, data, drawn, counter, steps))
            # done with it: its frame leaves the page (32 replays at once would fill memory)
            page.evaluate(f"() => document.querySelector('{FRAME}').remove()")
        browser.close()
    assert [(key, data) for key, data, *_ in seen] == CASES
    for key, data, drawn, counter, steps in seen:
        assert drawn["title"] == LEARNERS[key].title
        assert counter == f"step 2 of {steps:,}", (key, data)
        if data == "2-D":
            assert drawn["view"] == "plane" and drawn["figure"], (key, drawn)
        elif drawn["projects"]:
            assert drawn["view"] == "projection" and drawn["figure"], (key, drawn)
        else:  # a curved boundary or a committee: the page says to use 2-D data
            assert drawn["notice"] and not drawn["figure"], (key, drawn)
    # every linear learner projects its weight vector
    assert {k for k, d, drawn, *_ in seen if d != "2-D" and drawn["projects"]} == {
        k for k, learner in LEARNERS.items() if learner.boundary == "line"
    }


QUIZ = """
from perceptron_core.datasets import load
from perceptron_lab.widget import show
X, y, _ = load("separable", random_state=0)
quiz = show("perceptron", X, y, epochs=2, predict=True)
quiz
"""
SCORE_CELL = "print('score', *(quiz.score[k] for k in ('asked', 'right', 'skipped', 'marks')))"


def test_predict_modes_score_reaches_python_and_a_new_frame_goes_on_from_it(tmp_path):
    """The widget keeps predict mode's score in Python (``replay.score``): two questions
    answered in the frame (one skipped) reach it, and a frame drawn again starts from it."""
    with lab_page(tmp_path, "quiz.ipynb", QUIZ, SCORE_CELL, "quiz") as page:
        frame, _ = run_replay_cell(page)
        frame.locator(".btn-step").click()
        frame.locator(".question legend").wait_for()
        right = frame.evaluate("() => window.playback.predictor.pending.answer")
        kind = frame.evaluate("() => window.playback.predictor.pending.kind")
        if kind == "where":
            frame.locator(".coord-1").fill(str(right[0]))
            frame.locator(".coord-2").fill(str(right[1]))
        else:
            options = frame.evaluate("() => window.playback.predictor.pending.options")
            frame.get_by_role("radio").nth(options.index(right)).check()
        frame.locator(".btn-check").click()
        frame.wait_for_function("() => window.playback.painted === 1")
        frame.locator(".btn-step").click()
        frame.locator(".btn-skip").click()
        frame.wait_for_function("() => window.playback.painted === 2")
        run_cell(page, 2)
        assert _outputs(page)[-1].strip() == "score 2 1 1 ✓–"
        run_cell(page, 3)  # the same replay drawn again: its frame goes on from Python's score
        again = replay_frame(page, 1)
        again.wait_for_function("() => window.playback.settled")
        assert again.evaluate("() => window.playback.predict.asked") == 2
        assert again.locator(".predict-score").inner_text().startswith("1 of 1 right, 1 skipped")
