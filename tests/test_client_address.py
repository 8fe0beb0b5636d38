"""One client address for the whole app: the throttles, the join limits and the logs take the
visitor's address the same way, from the proxies docs/hosting.md says are in front (PROXY_COUNT),
so a forged X-Forwarded-For changes nothing (issue 15, item 9)."""

import pytest
from django.test import RequestFactory
from rest_framework.test import APIClient

from sessions.api.calculators import CalculatorThrottle
from sessions.http import client_address

WONDER = "/api/v1/calculators/tower-of-babel/wonder"
BODY = {"parts": {"a": 1}, "row": 1}


@pytest.fixture
def api(monkeypatch):
    monkeypatch.setattr(CalculatorThrottle, "THROTTLE_RATES", {"calculator": "2/minute"})
    return APIClient()


def behind_one_proxy(settings):
    settings.PROXY_COUNT = 1
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}


def test_a_forged_forwarded_for_header_does_not_escape_the_calculator_throttle(api):
    statuses = [api.post(WONDER, BODY, format="json", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}").status_code for n in range(3)]
    assert statuses == [200, 200, 429]


def test_behind_a_proxy_what_the_client_wrote_to_the_left_does_not_escape_it_either(api, settings):
    behind_one_proxy(settings)
    forged = [f"10.0.0.{n}, 203.0.113.9" for n in range(3)]  # the proxy appended the real address
    statuses = [api.post(WONDER, BODY, format="json", HTTP_X_FORWARDED_FOR=header).status_code for header in forged]
    assert statuses == [200, 200, 429]


@pytest.mark.parametrize("proxies", [0, 1, 2])
@pytest.mark.parametrize(
    "forwarded", [None, "198.51.100.7", "10.0.0.1, 198.51.100.7", "1.1.1.1, 10.0.0.1, 198.51.100.7"]
)
def test_the_app_and_the_api_throttles_agree_on_the_client(settings, proxies, forwarded):
    settings.PROXY_COUNT = proxies
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": proxies}
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    request = RequestFactory().get("/", REMOTE_ADDR="192.0.2.1", **headers)
    assert client_address(request) == CalculatorThrottle().get_ident(request)
