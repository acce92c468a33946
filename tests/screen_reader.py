"""Orca, the GNOME screen reader, listening to chromium on a virtual X display: what a screen
reader's user hears, for ``tests/browser/test_screen_reader_browser.py``.

:func:`orca_session` starts, each in a process group of its own and each writing only into a
given folder: Xvfb (a display), a D-Bus session bus, the accessibility bus (AT-SPI, which
chromium and Orca talk over), speech-dispatcher with espeak-ng speaking into ALSA's null
device (there is no sound card; with its default output a speech request blocked, and Orca
with it), and Orca. Orca's customizations (a Python file it loads from its preferences folder)
write each utterance to a log as it is spoken; :func:`chromium_app` opens a page as an app
window (no address bar: the page has the focus, as a reader's would) that Playwright drives
over the DevTools protocol. Every process is ended by its group's id at the end.

Debian's packages: ``apt-get install orca speech-dispatcher speech-dispatcher-espeak-ng
espeak-ng xvfb`` (with ``at-spi2-core`` and ``dbus``, which they bring); ``.ci/run`` installs
them. Without them the test is skipped, and fails under CI (:mod:`tests.programs`).
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from tests.live import free_port
from tests.programs import program

#: The accessibility bus's launcher (at-spi2-core), not on the PATH.
AT_SPI_BUS = Path("/usr/libexec/at-spi-bus-launcher")
#: Orca's customizations: its speech, line by line, into the log ``ORCA_SPEECH_LOG`` names.
CUSTOMIZATIONS = """\
import logging
import os

_handler = logging.FileHandler(os.environ["ORCA_SPEECH_LOG"])
_handler.setFormatter(logging.Formatter("%(message)s"))
logging.getLogger("speech").addHandler(_handler)
logging.getLogger("speech").setLevel(logging.INFO)
"""
#: speech-dispatcher's settings: the system's, speaking through ALSA's null device.
SPEECHD_OVERRIDES = '\nAudioOutputMethod "alsa"\nAudioALSADevice "null"\nDefaultModule espeak-ng\n'


def _start(command: list[str], env: dict, **options) -> subprocess.Popen:
    return subprocess.Popen(command, env=env, start_new_session=True, **options)


def _end(proc: subprocess.Popen) -> None:
    """End ``proc`` and its process group (it was started in a session of its own)."""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(wait)
            return
        except subprocess.TimeoutExpired:
            continue


def _until(check, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if found := check():
            return found
        time.sleep(0.2)
    raise AssertionError(f"{what} within {timeout} s")


class Spoken:
    """What Orca has said, read from its log: ``lines()``, ``wait_for(text)``."""

    def __init__(self, log: Path):
        self.log = log

    def lines(self) -> list[str]:
        if not self.log.exists():
            return []
        prefix = "SPEECH OUTPUT: '"
        return [
            line[len(prefix) : -1]
            for line in self.log.read_text(encoding="utf-8").splitlines()
            if line.startswith(prefix) and line.endswith("'")
        ]

    def wait_for(self, text: str, timeout: float = 60) -> list[str]:
        """Until Orca has said ``text`` (an utterance that contains it); all said so far."""
        return _until(
            lambda: [line for line in self.lines() if text in line] and self.lines(),
            timeout,
            f"Orca did not say {text!r} (it said {self.lines()})",
        )


@contextmanager
def orca_session(folder: Path) -> Iterator[tuple[dict, Spoken]]:
    """Xvfb, the buses, speech-dispatcher and Orca (see the module's docstring), with their files
    in ``folder``; yields the environment a browser needs to be heard, and :class:`Spoken`."""
    for name in ("Xvfb", "dbus-daemon", "orca", "speech-dispatcher", "espeak-ng", "gsettings"):
        program(name)
    if not AT_SPI_BUS.exists():
        program("at-spi-bus-launcher")  # skips (fails under CI) with how to install it
    homes = {name: folder / name for name in ("home", "config", "cache", "data", "runtime")}
    for path in homes.values():
        path.mkdir(parents=True, exist_ok=True)
    homes["runtime"].chmod(0o700)
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(homes["home"]),
        "XDG_CONFIG_HOME": str(homes["config"]),
        "XDG_CACHE_HOME": str(homes["cache"]),
        "XDG_DATA_HOME": str(homes["data"]),
        "XDG_RUNTIME_DIR": str(homes["runtime"]),
        "LANG": "C.UTF-8",
    }
    with ExitStack() as stack:
        read, write = os.pipe()
        xvfb = _start(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            env,
            pass_fds=(write,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        stack.callback(_end, xvfb)
        os.close(write)
        with os.fdopen(read) as display:
            env["DISPLAY"] = f":{display.readline().strip()}"
        bus = _start(
            ["dbus-daemon", "--session", "--nofork", "--print-address"],
            env,
            stdout=subprocess.PIPE,
            text=True,
        )
        stack.callback(_end, bus)
        env["DBUS_SESSION_BUS_ADDRESS"] = bus.stdout.readline().strip()
        stack.callback(_end, _start([str(AT_SPI_BUS), "--launch-immediately"], env))
        for key in ("org.gnome.desktop.interface toolkit-accessibility",):
            subprocess.run(["gsettings", "set", *key.split(), "true"], env=env, check=True)
        speechd = folder / "speechd"
        speechd.mkdir(exist_ok=True)
        system = Path("/etc/speech-dispatcher")
        conf = (system / "speechd.conf").read_text(encoding="utf-8") + SPEECHD_OVERRIDES
        (speechd / "speechd.conf").write_text(conf, encoding="utf-8")
        for part in ("modules", "clients"):
            if not (speechd / part).exists():
                (speechd / part).symlink_to(system / part)
        socket = folder / "speechd.sock"
        env["SPEECHD_ADDRESS"] = f"unix_socket:{socket}"
        stack.callback(
            _end,
            _start(
                ["speech-dispatcher", "-s", "-t", "0", "-C", str(speechd), "-L", str(folder)]
                + ["-c", "unix_socket", "-S", str(socket)],
                env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            ),
        )
        _until(socket.exists, 30, "speech-dispatcher did not open its socket")
        prefs = folder / "orca"
        prefs.mkdir(exist_ok=True)
        (prefs / "orca-customizations.py").write_text(CUSTOMIZATIONS, encoding="utf-8")
        log = folder / "spoken.log"
        orca = _start(
            ["orca", "-u", str(prefs), "--debug-file", str(folder / "orca.debug")],
            {**env, "ORCA_SPEECH_LOG": str(log)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        stack.callback(_end, orca)
        spoken = Spoken(log)
        spoken.wait_for("Screen reader on.", timeout=90)
        yield env, spoken


@contextmanager
def chromium_app(url: str, env: dict, folder: Path) -> Iterator[str]:
    """Debian's chromium with its accessibility on, showing ``url`` as an app window on the
    session's display; yields the address of its DevTools endpoint (for Playwright's
    ``connect_over_cdp``)."""
    port = free_port()
    command = [program("chromium"), "--no-sandbox", "--disable-gpu", "--no-first-run"]
    command += ["--disable-background-networking", "--disable-component-update"]
    command += ["--force-renderer-accessibility", f"--remote-debugging-port={port}"]
    command += [f"--user-data-dir={folder / 'profile'}", f"--app={url}", "--window-size=1200,900"]
    browser = _start(command, env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        endpoint = f"http://127.0.0.1:{port}"
        _until(lambda: _answers(f"{endpoint}/json/version"), 60, "chromium did not answer")
        yield endpoint
    finally:
        _end(browser)


def _answers(url: str) -> bool:
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            return answer.status == 200
    except OSError:
        return False
