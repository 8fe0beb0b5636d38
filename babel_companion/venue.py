"""The venue box: this machine serves the app to the phones on its local network, with no
internet (``make venue``, ``make venue-http``; docs/hosting.md, "The venue box (no internet)").

Run as ``python -m babel_companion.venue [--http]``. It does not load Django: the host names
the server must accept depend on this machine's addresses, so they are worked out here first
and handed to uvicorn through the environment, like every other setting.

Over HTTPS (the default) the certificate comes from a local certificate authority made by
mkcert, kept in ``.venue/ca`` (git-ignored) so that each phone trusts it once, not once per
night. Phones need a secure context for the service worker (installing the app, reopening
its pages offline); a LAN address over plain HTTP is not one, ``localhost`` is.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import FrameType
from typing import TextIO

import qrcode
from cryptography import x509
from cryptography.hazmat.primitives import hashes

REPO = Path(__file__).resolve().parent.parent
VENUE_DIR = REPO / ".venue"
HTTPS_PORT, HTTP_PORT, CA_PORT = 8443, 8000, 8080
SHUTDOWN_SECONDS = 10
# Container and virtual machine bridges, VPN tunnels: a phone on the venue's Wi-Fi cannot
# reach their addresses, so they are neither offered to it nor written in the certificate.
VIRTUAL_INTERFACES = ("docker", "br-", "veth", "virbr", "vboxnet", "vmnet", "tun", "tap", "wg", "tailscale", "zt")
# The names this machine's own browser may use.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
CA_FILE_NAME = "babel-companion-venue-ca.crt"
MKCERT_MISSING = """mkcert is not installed; the venue box makes its HTTPS certificate with it.
Install it, then run `make venue` again:
    Debian, Ubuntu:  sudo apt-get install mkcert
    macOS:           brew install mkcert
    others:          https://github.com/FiloSottile/mkcert#installation
Or serve over plain HTTP, without the offline pages and the home-screen app: `make venue-http`."""


class VenueError(Exception):
    """Why the venue box cannot start, told to the operator as is."""


@dataclass(frozen=True)
class LanAddress:
    ip: str
    interface: str  # "" when only the resolver named it


def reachable_from_the_lan(ip: str) -> bool:
    address = ipaddress.ip_address(ip)
    return address.version == 4 and not (
        address.is_loopback or address.is_link_local or address.is_multicast or address.is_unspecified
    )


def addresses_from_ip_json(text: str) -> list[LanAddress]:
    """The IPv4 addresses a phone on the same network could reach, from the output of
    ``ip -json -4 address show up`` (iproute2, Linux)."""
    found = []
    for link in json.loads(text):
        name = link.get("ifname", "")
        if name.startswith(VIRTUAL_INTERFACES):
            continue
        for info in link.get("addr_info", []):
            if info.get("family") == "inet" and reachable_from_the_lan(info["local"]):
                found.append(LanAddress(info["local"], name))
    return found


def lan_addresses(*, ip_json: str | None, route: str | None, resolved: Sequence[str]) -> list[LanAddress]:
    """This machine's LAN addresses, the one it would send from to other networks first.

    ``ip_json``: what ``ip`` listed (None where there is no ``ip``, as on macOS: then the
    addresses the host name resolves to, and the routed one, are all there is to go on).
    ``route``: the address of the default route, if there is one (a venue without internet
    often has none)."""
    if ip_json is not None:
        found = addresses_from_ip_json(ip_json)
    else:
        found = [LanAddress(ip, "") for ip in [*([route] if route else []), *resolved] if reachable_from_the_lan(ip)]
    unique = list(dict.fromkeys(found))
    return sorted(unique, key=lambda address: address.ip != route)


def route_address() -> str | None:
    """The address this machine sends from towards other networks, if it has a route there."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # a documentation address; UDP: nothing is sent
        except OSError:
            return None
        return str(probe.getsockname()[0])


def listed_interfaces() -> str | None:
    try:
        listing = subprocess.run(
            ["ip", "-json", "-4", "address", "show", "up"], capture_output=True, text=True, timeout=5, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return listing.stdout if listing.returncode == 0 else None


def resolved_addresses(hostname: str) -> list[str]:
    try:
        return [str(info[4][0]) for info in socket.getaddrinfo(hostname, None, socket.AF_INET)]
    except OSError:
        return []


def find_lan_addresses() -> list[LanAddress]:
    return lan_addresses(
        ip_json=listed_interfaces(), route=route_address(), resolved=resolved_addresses(socket.gethostname())
    )


def host_names(hostname: str) -> list[str]:
    """The names phones may know this machine by: its host name and its mDNS name
    (``<name>.local``, where the machine publishes it and the phone resolves it)."""
    full = hostname.strip().lower().rstrip(".")
    short = full.split(".")[0]
    if not short or short == "localhost":
        return []
    return list(dict.fromkeys([short, f"{short}.local", full]))


@dataclass(frozen=True)
class Venue:
    addresses: list[LanAddress]
    names: list[str]
    port: int
    https: bool

    @property
    def certificate_names(self) -> list[str]:
        return [*(address.ip for address in self.addresses), *self.names, *LOOPBACK_HOSTS]

    @property
    def allowed_hosts(self) -> list[str]:
        return [f"[{name}]" if ":" in name else name for name in self.certificate_names]

    @property
    def urls(self) -> list[str]:
        """What phones open: the addresses, then the mDNS names (a bare host name resolves
        only where the venue's network has a DNS that knows it)."""
        scheme = "https" if self.https else "http"
        mdns_names = [name for name in self.names if name.endswith(".local")]
        return [f"{scheme}://{host}:{self.port}/" for host in [*(a.ip for a in self.addresses), *mdns_names]]

    def environment(self) -> dict[str, str]:
        """The settings for the server. No CSRF_TRUSTED_ORIGINS: Django accepts a form whose
        origin is the page's own scheme and host, and every host here is allowed."""
        return {
            "ALLOWED_HOSTS": ",".join(self.allowed_hosts),
            # Secure cookies go with HTTPS; HSTS does not: it would bind this machine's names
            # (its .local name, localhost) to HTTPS for a year, and `make run` or
            # `make venue-http` on them would then be refused by the browsers that came here.
            "SECURE_COOKIES": "true" if self.https else "false",
            "HSTS_SECONDS": "0",
        }


@dataclass(frozen=True)
class Certificate:
    root: Path  # the CA's certificate, public: what the phones trust
    certfile: Path
    keyfile: Path
    new_authority: bool

    def fingerprint(self) -> str:
        digest = x509.load_pem_x509_certificate(self.root.read_bytes()).fingerprint(hashes.SHA256())
        return ":".join(f"{byte:02X}" for byte in digest)

    def server_arguments(self) -> list[str]:
        return ["--ssl-keyfile", str(self.keyfile), "--ssl-certfile", str(self.certfile)]


def make_certificate(*, names: Sequence[str], directory: Path) -> Certificate:
    """A certificate for ``names`` signed by the local CA in ``directory/ca``, which mkcert
    creates on first use. The certificate is made anew at every start (it takes a moment), so
    it always names the addresses of tonight's network; the CA stays, and the phones' trust
    with it."""
    mkcert = shutil.which("mkcert")
    if mkcert is None:
        raise VenueError(MKCERT_MISSING)
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    authority = directory / "ca"
    certificate = Certificate(
        root=authority / "rootCA.pem",
        certfile=directory / "cert.pem",
        keyfile=directory / "key.pem",
        new_authority=not (authority / "rootCA.pem").exists(),
    )
    made = subprocess.run(
        [mkcert, "-cert-file", str(certificate.certfile), "-key-file", str(certificate.keyfile), *names],
        env={**os.environ, "CAROOT": str(authority)},
        capture_output=True,
        text=True,
        check=False,
    )
    if made.returncode != 0:
        raise VenueError(f"mkcert failed ({made.returncode}):\n{made.stdout}{made.stderr}")
    return certificate


def serve_root_certificate(root: Path, *, bind: str, port: int) -> ThreadingHTTPServer:
    """The CA's certificate (public; never its key) at ``/`` over plain HTTP, for phones that
    cannot open the HTTPS address until they trust it. Served from a thread until exit."""
    body = root.read_bytes()

    class RootCertificate(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path.split("?")[0] != "/":
                self.send_error(404)
                return
            self.send_response(200)
            # The type iOS offers to install as a profile; the .crt name Android's installer takes.
            self.send_header("Content-Type", "application/x-x509-ca-cert")
            self.send_header("Content-Disposition", f'attachment; filename="{CA_FILE_NAME}"')
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            """Quiet: the server's own log is what the operator watches."""

    server = ThreadingHTTPServer((bind, port), RootCertificate)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def print_qr_code(text: str, out: TextIO) -> None:
    code = qrcode.QRCode(border=2)
    code.add_data(text)
    # On a terminal, explicit colours: dark modules on light whatever the terminal's theme.
    code.print_ascii(out=out, tty=out.isatty(), invert=True)


def banner(venue: Venue, *, certificate: Certificate | None, ca_url: str | None) -> str:
    lines = [f"Babel Companion venue box, over {'HTTPS' if venue.https else 'plain HTTP'}.", ""]
    lines.append("Phones join this machine's Wi-Fi network (or its hotspot), then open:")
    lines += [f"    {url}" for url in venue.urls]
    if any(name.endswith(".local") for name in venue.names):
        lines.append("(a .local name where this machine publishes it over mDNS and the phone looks it up).")
    lines += [
        "Open the first address on this machine too, for the host's pages: the join code's QR code",
        "then sends the phones to it.",
        "",
    ]
    if certificate is None:
        lines += [
            "Without HTTPS everything live works (pages, push, moves kept while a page is open), but",
            "a LAN address over HTTP is no secure context: no service worker, so the app cannot be",
            "installed on a home screen and its pages do not reopen offline. `make venue` has them.",
        ]
    else:
        if certificate.new_authority:
            lines += ["A new local certificate authority was made: every phone must trust it once.", ""]
        lines += [
            f"Trust the local certificate authority once on each phone: {certificate.root}",
            f"(SHA-256 {certificate.fingerprint()})",
        ]
        if ca_url:
            lines.append(f"Download it over plain HTTP: {ca_url} (the QR code below).")
        lines += [
            "    iPhone, iPad: open it in Safari and allow the profile; Settings > General > VPN & Device",
            "      Management: install it; Settings > General > About > Certificate Trust Settings: turn",
            "      on full trust for 'mkcert'.",
            "    Android: Settings > Security (> More security settings) > Encryption & credentials >",
            f"      Install a certificate > CA certificate, then pick {CA_FILE_NAME} from the",
            "      downloads (Chrome trusts it; Firefox only with 'Use third party CA certificates').",
            "    This machine (optional, instead of the browser's warning):",
            f"      CAROOT={certificate.root.parent} mkcert -install",
        ]
    lines += ["", "Stop with Ctrl+C."]
    return "\n".join(lines)


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m babel_companion.venue", description="Serve the app to the phones on this machine's network."
    )
    parser.add_argument("--http", action="store_true", help="plain HTTP, no certificate (no offline pages)")
    parser.add_argument("--port", type=int, help=f"the app's port (default {HTTPS_PORT}, {HTTP_PORT} with --http)")
    parser.add_argument(
        "--ca-port",
        type=int,
        default=CA_PORT,
        help=f"plain HTTP port for the CA's certificate (default {CA_PORT}; 0: off)",
    )
    parser.add_argument(
        "--address", help="the LAN addresses, comma-separated, when the ones found are not the ones phones reach"
    )
    parser.add_argument("--bind", default="0.0.0.0", help="the interface to listen on (default: all)")
    parser.add_argument("--dir", type=Path, default=VENUE_DIR, help="where the CA and certificate are kept")
    return parser.parse_args(argv)


def venue_from(arguments: argparse.Namespace) -> Venue:
    if arguments.address:
        addresses = [LanAddress(ip.strip(), "") for ip in arguments.address.split(",") if ip.strip()]
        for address in addresses:
            try:
                ipaddress.IPv4Address(address.ip)
            except ValueError:
                raise VenueError(f"--address: {address.ip!r} is not an IPv4 address") from None
    else:
        addresses = find_lan_addresses()
    if not addresses:
        raise VenueError(
            "No local network address found: join the venue's Wi-Fi network or start this machine's "
            "hotspot, then start again (or name the address: make venue ADDRESS=192.168.4.1)."
        )
    https = not arguments.http
    port = arguments.port or (HTTPS_PORT if https else HTTP_PORT)
    return Venue(addresses=addresses, names=host_names(socket.gethostname()), port=port, https=https)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    ca_url = None
    try:
        venue = venue_from(arguments)
        certificate = make_certificate(names=venue.certificate_names, directory=arguments.dir) if venue.https else None
        if certificate is not None and arguments.ca_port:
            try:
                serve_root_certificate(certificate.root, bind=arguments.bind, port=arguments.ca_port)
            except OSError as error:
                raise VenueError(f"cannot serve the CA's certificate on port {arguments.ca_port}: {error}") from None
            ca_url = f"http://{venue.addresses[0].ip}:{arguments.ca_port}/"
    except VenueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(banner(venue, certificate=certificate, ca_url=ca_url), flush=True)
    if ca_url:
        print_qr_code(ca_url, sys.stdout)
    command = [sys.executable, "-m", "uvicorn", "babel_companion.asgi:application"]
    command += ["--host", arguments.bind, "--port", str(venue.port)]
    command += certificate.server_arguments() if certificate else []
    server = subprocess.Popen(command, cwd=REPO, env={**os.environ, **venue.environment()})

    def stop_server(number: int, frame: FrameType | None) -> None:
        server.terminate()

    signal.signal(signal.SIGTERM, stop_server)
    try:
        return server.wait()
    except KeyboardInterrupt:
        # From a terminal the server had the same Ctrl+C and is stopping: let it finish.
        try:
            return server.wait(timeout=SHUTDOWN_SECONDS)
        except subprocess.TimeoutExpired:
            server.terminate()
            return server.wait()


if __name__ == "__main__":
    sys.exit(main())
