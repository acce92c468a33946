"""The nginx recipe of docs/deploy.md, run by Debian's nginx against two stand-in replicas.

Each replica is a tiny HTTP server on a loopback port that answers with its
port and the upgrade headers it received; nginx runs as this user with the
configuration that ``benchmarks/bench_deploy.py`` builds from
``docs/nginx-replicas.conf``. (The benchmark runs the real app behind it.)
"""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.live import free_port, wait_for_health
from tests.programs import program

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_deploy import COOKIE, RECIPE, nginx_config  # noqa: E402

pytestmark = pytest.mark.slow  # it needs nginx


class _Replica(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - the name http.server calls
        body = json.dumps(
            {
                "port": self.server.server_address[1],
                "upgrade": self.headers.get("Upgrade"),
                "connection": self.headers.get("Connection"),
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def proxy(tmp_path_factory):
    """nginx on a free port in front of two replicas; yields its port and the replicas' ports."""
    nginx = program("nginx")
    folder = tmp_path_factory.mktemp("nginx")
    replicas = [ThreadingHTTPServer(("127.0.0.1", 0), _Replica) for _ in range(2)]
    for server in replicas:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    ports = [server.server_address[1] for server in replicas]
    listen = free_port()
    config = nginx_config(
        RECIPE.read_text(encoding="utf-8"), folder, listen, {"8501": ports[0], "8502": ports[1]}
    )
    (folder / "nginx.conf").write_text(config, encoding="utf-8")
    args = [
        nginx,
        "-p",
        str(folder),
        "-c",
        str(folder / "nginx.conf"),
        "-e",
        str(folder / "error.log"),
    ]
    proc = subprocess.Popen(args, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_health(f"http://127.0.0.1:{listen}/_stcore/health", proc, timeout=30)
        yield listen, ports
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        for server in replicas:
            server.shutdown()


def _get(port: int, headers: dict | None = None, path: str = "/") -> tuple[dict, str | None]:
    """The replica's answer through the proxy, and the cookie the proxy set."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    answer = json.loads(response.read())
    cookie = response.getheader("Set-Cookie")
    connection.close()
    return answer, cookie


def test_new_visitors_take_turns_and_each_gets_a_cookie_naming_its_replica(proxy):
    listen, ports = proxy
    seen = []
    for _ in range(4):
        answer, cookie = _get(listen)
        assert cookie.startswith(f"{COOKIE}={answer['port']};")
        seen.append(answer["port"])
    assert sorted(seen) == sorted(ports * 2)  # round robin: two visitors each


def test_a_visitor_with_the_cookie_always_reaches_the_same_replica(proxy):
    listen, ports = proxy
    for port in ports:
        for _ in range(5):
            answer, cookie = _get(listen, {"Cookie": f"{COOKIE}={port}"})
            assert answer["port"] == port
            assert cookie.startswith(f"{COOKIE}={port};")


def test_an_unknown_cookie_value_is_treated_as_a_new_visitor(proxy):
    listen, ports = proxy
    answer, cookie = _get(listen, {"Cookie": f"{COOKIE}=1"})
    assert answer["port"] in ports and cookie.startswith(f"{COOKIE}={answer['port']};")


def test_the_websocket_upgrade_reaches_the_replica(proxy):
    listen, _ = proxy
    answer, _ = _get(listen, {"Upgrade": "websocket", "Connection": "Upgrade"})
    assert answer["upgrade"] == "websocket" and answer["connection"] == "upgrade"
    plain, _ = _get(listen)
    assert plain["upgrade"] is None and plain["connection"] == "close"


def test_the_live_class_socket_is_not_pinned_and_keeps_its_upgrade(proxy):
    """Any process serves any class: /class/ws takes turns whatever the cookie says, so a
    page whose process stopped reaches another one."""
    listen, ports = proxy
    headers = {"Cookie": f"{COOKIE}={ports[0]}", "Upgrade": "websocket", "Connection": "Upgrade"}
    answers = [_get(listen, headers, path="/class/ws")[0] for _ in range(4)]
    assert sorted(a["port"] for a in answers) == sorted(ports * 2)
    assert all(a["upgrade"] == "websocket" and a["connection"] == "upgrade" for a in answers)
