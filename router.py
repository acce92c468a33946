"""Perceptron Lab's pages: each page lives in its own file; this one only lists them.

``app.py`` serves this script (``streamlit run app.py``); Streamlit runs it for
every visit and every rerun.

Pages: the playground and the about page (app_pages/), one page per lesson
(lessons/*.py, listed in file-name order) and the experiments page
(app_pages/experiments.py) when those files exist: their issues add them.

The menu is one flat list: Streamlit draws a menu with sections as a list whose
items sit inside ``<div>`` groups, which screen readers cannot announce as a list
(WCAG 1.3.1); a flat menu is a proper ``<ul>`` of ``<li>`` with the current page marked.
Each page sets the browser tab's title to its own name (WCAG 2.4.2).
"""

from pathlib import Path

import streamlit as st

from perceptron_lab.app_logic import training
from perceptron_lab.ui.lesson import document_title, lessons
from perceptron_lab.ui.page_assets import add_page_assets

HERE = Path(__file__).parent

#: The tab's icon, drawn here: a material icon as page_icon is fetched from Google's
#: servers, and the app must work offline. Two classes split by a line, in the figure's colours.
ICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
    '<rect width="32" height="32" rx="6" fill="#ffffff"/>'
    '<line x1="2" y1="25" x2="30" y2="9" stroke="#222222" stroke-width="2.5"/>'
    '<circle cx="8" cy="10" r="3.5" fill="#0072B2"/><circle cx="17" cy="6" r="3.5" '
    'fill="#0072B2"/>'
    '<circle cx="15" cy="26" r="3.5" fill="#E69F00"/><circle cx="25" cy="21" r="3.5" '
    'fill="#E69F00"/>'
    "</svg>"
)

# No page has an icon: Streamlit makes the tab's icon from the page's own, and a material
# icon's is fetched from Google's servers before set_page_config (below, once the page and so
# its title are known) draws ICON.
pages = [st.Page(HERE / "app_pages" / "playground.py", title="Playground", default=True)]
if (HERE / "app_pages" / "experiments.py").exists():
    pages.append(st.Page(HERE / "app_pages" / "experiments.py", title="Experiments"))
pages.append(st.Page(HERE / "app_pages" / "about.py", title="About"))
lesson_pages = [st.Page(path, title=title) for path, title in lessons(HERE / "lessons")]
page = st.navigation(pages + lesson_pages)

# A projector's link (present=1) opens with the sidebar closed: the figure gets the width.
st.set_page_config(
    page_title=document_title(page.title, lesson=page in lesson_pages),
    page_icon=ICON,
    layout="wide",
    initial_sidebar_state="collapsed" if st.query_params.get("present") == "1" else "auto",
)
add_page_assets()
try:
    page.run()
finally:
    # After the page, so the first visitor's figure waits only for its own learner; the
    # other learners then compile in the background, once per server process.
    training.WARMUP.start_background()
