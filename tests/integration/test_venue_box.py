"""The venue box as ``make venue`` starts it: mkcert's local CA, uvicorn over HTTPS with the
certificate it signed for this machine's LAN addresses, and the CA's certificate offered to
the phones over plain HTTP (``babel_companion.venue``)."""

from __future__ import annotations

import http.client
import os
import shutil
import socket
import ssl
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from babel_companion import venue
from bench.servers import REPO, Server, free_port, stop
from tests.integration.conftest import unavailable, wait_for

pytestmark = pytest.mark.integration

START_SECONDS = 30


@dataclass
class Box:
    server: Server
    directory: Path
    ca_port: int
    https: bool

    @property
    def root(self) -> Path:
        return self.directory / "venue" / "ca" / "rootCA.pem"

    def tls_socket(self, name: str) -> ssl.SSLSocket:
        """A TLS connection to the box on 127.0.0.1 that asks for it as ``name``, trusting the
        box's CA only: the certificate is checked against that name, as a phone that reached
        the box by that name would check it."""
        context = ssl.create_default_context(cafile=self.root)
        raw = socket.create_connection(("127.0.0.1", self.server.port), timeout=5)
        return context.wrap_socket(raw, server_hostname=name)

    def get(self, name: str, path: str) -> http.client.HTTPResponse:
        """GET ``path`` from the box as ``name`` (its Host header too)."""
        connection = http.client.HTTPConnection(name, self.server.port, timeout=5)
        if self.https:
            connection.sock = self.tls_socket(name)
        else:
            connection.sock = socket.create_connection(("127.0.0.1", self.server.port), timeout=5)
        connection.request("GET", path)
        answer = connection.getresponse()
        answer.read()
        connection.close()
        return answer

    def answers(self) -> bool:
        self.server.check_alive()
        try:
            return self.get("127.0.0.1", "/login/").status == 200
        except OSError:  # not listening yet, or mkcert has not made the CA yet
            return False


def start_box(directory: Path, *, https: bool) -> Box:
    port, ca_port = free_port(), free_port()
    # The embedded defaults, as `make venue` runs it: SQLite and no Redis, whatever this run uses.
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in ("DATABASE_URL", "REDIS_URL", "REDIS_CACHE_URL", "REDIS_PUSH_URL")
    }
    env |= {"SQLITE_PATH": str(directory / "db.sqlite3"), "STATE_DIR": str(directory / "state")}
    command = [sys.executable, "-m", "babel_companion.venue", "--bind", "127.0.0.1", "--port", str(port)]
    command += ["--ca-port", str(ca_port), "--dir", str(directory / "venue")]
    log = directory / "venue.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [*command, *([] if https else ["--http"])],
            cwd=REPO,
            env={**env, "PYTHONUNBUFFERED": "1"},
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # stopped with its server, as one session
        )
    return Box(server=Server(process=process, port=port, log=log), directory=directory, ca_port=ca_port, https=https)


@pytest.fixture(scope="module")
def lan() -> list[venue.LanAddress]:
    found = venue.find_lan_addresses()
    if not found:
        unavailable("this machine has no local network address for the venue box to serve on")
    return found


@pytest.fixture(scope="module")
def https_box(lan: list[venue.LanAddress], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Box]:
    if shutil.which("mkcert") is None:
        unavailable("mkcert is not installed (apt-get install mkcert)")
    box = start_box(tmp_path_factory.mktemp("venue-https"), https=True)
    try:
        wait_for(box.answers, timeout=START_SECONDS, what="the venue box to answer over HTTPS")
        yield box
    finally:
        stop(box.server)


def test_the_certificate_names_the_lan_addresses_and_chains_to_the_local_ca(https_box, lan):
    with https_box.tls_socket(lan[0].ip) as tls:
        certificate = tls.getpeercert()
    named = {value for _kind, value in certificate["subjectAltName"]}
    assert {address.ip for address in lan} <= named
    assert {*venue.host_names(socket.gethostname()), "localhost", "127.0.0.1"} <= named


def test_a_phone_opens_the_app_by_each_lan_address_and_host_name(https_box, lan):
    names = [address.ip for address in lan] + venue.host_names(socket.gethostname())
    for name in names:
        answer = https_box.get(name, "/login/")
        assert answer.status == 200, name
        assert "Secure" in answer.headers["Set-Cookie"]
        # No HSTS: the laptop's names stay usable over plain HTTP (make run) afterwards.
        assert answer.headers["Strict-Transport-Security"] is None


def test_a_name_outside_the_certificate_is_refused_by_tls(https_box):
    with pytest.raises(ssl.SSLCertVerificationError):
        https_box.get("elsewhere.example", "/login/")


def test_the_operator_is_told_the_urls_and_where_the_ca_is(https_box, lan):
    output = https_box.server.output()
    assert f"https://{lan[0].ip}:{https_box.server.port}/" in output
    assert str(https_box.root) in output
    assert f"http://{lan[0].ip}:{https_box.ca_port}/" in output


def test_the_phones_can_download_the_ca_certificate_over_plain_http(https_box):
    connection = http.client.HTTPConnection("127.0.0.1", https_box.ca_port, timeout=5)
    connection.request("GET", "/")
    body = connection.getresponse().read()
    connection.close()
    assert body == https_box.root.read_bytes()
    assert b"PRIVATE KEY" not in body


def test_over_plain_http_the_lan_addresses_are_served_without_secure_cookies(lan, tmp_path):
    box = start_box(tmp_path, https=False)
    try:
        wait_for(box.answers, timeout=START_SECONDS, what="the venue box to answer over HTTP")
        answer = box.get(lan[0].ip, "/login/")
        assert answer.status == 200
        assert "Secure" not in answer.headers["Set-Cookie"]
        assert "service worker" in box.server.output()
    finally:
        stop(box.server)
