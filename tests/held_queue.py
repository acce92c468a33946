"""Perceptron Lab's server with its view queue held full, for browser tests of the waiting view.

Run: ``python -m tests.held_queue RELEASE_FILE STREAMLIT_ARGS...`` from the repository's root,
with ``PERCEPTRON_LAB_VIEWS_AT_ONCE=1``. Before the server starts, threads of this process
take the views gate's slots (:data:`app_logic.admission.VIEWS`: its one slot and the light
views' one more) and one place in its queue, as other visitors' views being made and waiting
would, and hold them while ``RELEASE_FILE`` exists. So a page opened meanwhile waits behind
one view ("1 view ahead of yours in the queue (2 being made now).") until the test deletes the
file; then the held views end and the page's view is made. The server is Streamlit's own
``streamlit run app.py``, in this process (the gate is the process's).
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

#: How often a held view looks at its file, seconds.
POLL_SECONDS = 0.1


def hold(release: Path, key: str, admitted: threading.Event | None = None) -> None:
    """Take a turn at the views gate as the view ``key`` and keep it while ``release`` exists."""
    from perceptron_lab.app_logic.admission import VIEWS

    with VIEWS.admitted(key, lambda: 0):
        if admitted is not None:
            admitted.set()
        while release.exists():
            time.sleep(POLL_SECONDS)


def main(argv: list[str]) -> None:
    from streamlit.web import cli

    release = Path(argv[0])
    for key in ("held-1", "held-2"):  # the slot and the light views' one more
        admitted = threading.Event()
        threading.Thread(target=hold, args=(release, key, admitted), daemon=True).start()
        admitted.wait()
    # a view waiting ahead of every page opened from now on
    threading.Thread(target=hold, args=(release, "held-waiting"), daemon=True).start()
    from perceptron_lab.app_logic.admission import VIEWS

    while VIEWS.status().waiting < 1:
        time.sleep(POLL_SECONDS)
    sys.argv = ["streamlit", "run", "app.py", *argv[1:]]
    cli.main()


if __name__ == "__main__":
    main(sys.argv[1:])
