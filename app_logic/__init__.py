"""What the app computes without Streamlit, for the pages in ``ui/`` to show.

The learner menu (:mod:`app_logic.learners`), the data a page asks for and a
person's point edits (:mod:`app_logic.datasource`, :mod:`app_logic.edits`),
the replay of a recorded run (:mod:`app_logic.timeline`), what the browser
is sent (:mod:`app_logic.payload`) and the figures' style
(:mod:`app_logic.style`), the words of the math panel and the diagnostics,
the exports, text from visitors made safe to show, and the learners'
warm-up. Nothing here imports Streamlit (a test holds it to that), so all of
it runs, and is tested, without a page.
"""
