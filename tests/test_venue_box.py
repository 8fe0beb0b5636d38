"""The venue box (``make venue``): the laptop's LAN addresses, the names and settings the
server gets for them, the CA's certificate served to phones, and the clear refusals."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest
from django.test import Client

from babel_companion import venue
from babel_companion.venue import LanAddress, Venue, VenueError

WIFI, ETHERNET = "192.168.1.23", "10.0.0.7"


def link(name: str, *addresses: str, family: str = "inet") -> dict[str, Any]:
    """One interface as ``ip -json -4 address show up`` lists it."""
    return {"ifname": name, "flags": ["UP"], "addr_info": [{"family": family, "local": ip} for ip in addresses]}


def ip_json(*links: dict[str, Any]) -> str:
    return json.dumps(list(links))


def test_it_offers_the_network_addresses_and_not_loopback_link_local_or_container_bridges():
    listing = ip_json(
        link("lo", "127.0.0.1"),
        link("wlp2s0", WIFI, "169.254.10.2"),
        link("docker0", "172.17.0.1"),
        link("br-5f3a", "172.18.0.1"),
        link("wg0", "10.8.0.2"),
        link("enp0s31f6", ETHERNET),
    )
    assert venue.addresses_from_ip_json(listing) == [LanAddress(WIFI, "wlp2s0"), LanAddress(ETHERNET, "enp0s31f6")]


def test_the_address_of_the_default_route_comes_first():
    listing = ip_json(link("enp0s31f6", ETHERNET), link("wlp2s0", WIFI))
    found = venue.lan_addresses(ip_json=listing, route=WIFI, resolved=[])
    assert [address.ip for address in found] == [WIFI, ETHERNET]


def test_with_no_route_at_all_it_still_finds_the_hotspot_address():
    """A laptop's own hotspot without internet: no default route, the address is on the interface."""
    found = venue.lan_addresses(ip_json=ip_json(link("wlp2s0", "10.42.0.1")), route=None, resolved=[])
    assert found == [LanAddress("10.42.0.1", "wlp2s0")]


def test_a_route_through_a_vpn_is_not_offered():
    found = venue.lan_addresses(
        ip_json=ip_json(link("tun0", "10.8.0.6"), link("wlan0", WIFI)), route="10.8.0.6", resolved=[]
    )
    assert found == [LanAddress(WIFI, "wlan0")]


def test_without_the_ip_command_it_takes_the_routed_and_resolved_addresses():
    """macOS has no ``ip``: the routed address and what the host name resolves to, once each."""
    found = venue.lan_addresses(ip_json=None, route=WIFI, resolved=["127.0.1.1", ETHERNET, WIFI])
    assert found == [LanAddress(WIFI, ""), LanAddress(ETHERNET, "")]


def test_the_phones_may_use_the_host_name_and_its_mdns_name():
    assert venue.host_names("Laptop") == ["laptop", "laptop.local"]
    assert venue.host_names("MacBook.local") == ["macbook", "macbook.local"]
    assert venue.host_names("box.home.lan") == ["box", "box.local", "box.home.lan"]
    assert venue.host_names("localhost") == []


def lan_venue(*, https: bool) -> Venue:
    return Venue(addresses=[LanAddress(WIFI, "wlan0")], names=["laptop", "laptop.local"], port=8443, https=https)


def test_over_https_the_server_allows_every_name_in_the_certificate_with_secure_cookies_and_no_hsts():
    box = lan_venue(https=True)
    assert box.certificate_names == [WIFI, "laptop", "laptop.local", "localhost", "127.0.0.1", "::1"]
    assert box.environment() == {
        "ALLOWED_HOSTS": f"{WIFI},laptop,laptop.local,localhost,127.0.0.1,[::1]",
        "SECURE_COOKIES": "true",
        "HSTS_SECONDS": "0",
    }
    assert box.urls == [f"https://{WIFI}:8443/", "https://laptop.local:8443/"]


def test_over_plain_http_the_cookies_are_not_secure_whatever_the_shell_exported():
    box = lan_venue(https=False)
    assert box.environment()["SECURE_COOKIES"] == "false"
    assert box.urls[0] == f"http://{WIFI}:8443/"


def test_a_form_posted_from_a_lan_address_passes_the_csrf_check_without_trusted_origins(db, settings):
    settings.ALLOWED_HOSTS = lan_venue(https=True).allowed_hosts
    settings.CSRF_TRUSTED_ORIGINS = []
    client = Client(enforce_csrf_checks=True)
    host = f"{WIFI}:8443"
    assert client.get("/login/", HTTP_HOST=host, secure=True).status_code == 200
    token = client.cookies["csrftoken"].value
    answer = client.post(
        "/login/",
        {"username": "nobody", "password": "wrong", "csrfmiddlewaretoken": token},
        HTTP_HOST=host,
        HTTP_ORIGIN=f"https://{host}",
        secure=True,
    )
    assert answer.status_code == 200  # the form with its error, not the CSRF failure's 403
    assert client.get("/login/", HTTP_HOST="elsewhere.example", secure=True).status_code == 400


def test_without_mkcert_it_says_how_to_install_it_and_fails(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(venue.shutil, "which", lambda name: None)
    with pytest.raises(VenueError, match="apt-get install mkcert"):
        venue.make_certificate(names=[WIFI], directory=tmp_path)
    assert venue.main(["--address", WIFI, "--dir", str(tmp_path)]) == 1
    error = capsys.readouterr().err
    assert "mkcert is not installed" in error
    assert "make venue-http" in error


def test_an_address_given_by_hand_must_be_an_ipv4_address(capsys):
    assert venue.main(["--http", "--address", "laptop.local"]) == 1
    assert "--address: 'laptop.local' is not an IPv4 address" in capsys.readouterr().err


def test_with_no_network_it_asks_to_join_one(monkeypatch, capsys):
    monkeypatch.setattr(venue, "find_lan_addresses", list)
    assert venue.main(["--http"]) == 1
    assert "No local network address found" in capsys.readouterr().err


def test_the_plain_http_banner_says_what_works_without_a_certificate():
    text = venue.banner(lan_venue(https=False), certificate=None, ca_url=None)
    assert f"http://{WIFI}:8443/" in text
    assert "no service worker" in text
    assert "Ctrl+C" in text


def test_the_phones_download_the_ca_certificate_and_nothing_else(tmp_path):
    root = tmp_path / "rootCA.pem"
    root.write_text("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
    (tmp_path / "rootCA-key.pem").write_text("-----BEGIN PRIVATE KEY-----\n")
    server = venue.serve_root_certificate(root, bind="127.0.0.1", port=0)
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with urllib.request.urlopen(f"{origin}/", timeout=5) as answer:
            assert answer.read() == root.read_bytes()
            assert answer.headers["Content-Type"] == "application/x-x509-ca-cert"
            assert venue.CA_FILE_NAME in answer.headers["Content-Disposition"]
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{origin}/rootCA-key.pem", timeout=5)
        assert refused.value.code == 404
    finally:
        server.shutdown()
        server.server_close()
