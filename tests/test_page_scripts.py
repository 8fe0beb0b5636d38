"""Each page loads the scripts it uses and no others (issue 39: a phone's main thread, which
Lighthouse counts as total blocking time). htmx, its push socket's extension and idiomorph are
for the pages with a live region or a form sent by htmx; app.js and offline.js are on every page
(the theme switch, the offline panel, the moves waiting on the device)."""

from __future__ import annotations

import pytest
from django.test import Client

from sessions import services
from sessions.models import GameSession

HTMX = "django_htmx/htmx-2"
PUSH = "django_htmx/ext/hx-ws-2"
MORPH = "vendor/idiomorph-0.8.0/idiomorph-ext"
EVERY_PAGE = ("js/app.js", "js/offline.js")


def scripts(page: str) -> dict[str, bool]:
    return {name: f"{name}" in page for name in (HTMX, PUSH, MORPH, *EVERY_PAGE)}


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/join/", "/login/"])
def test_the_public_pages_load_no_htmx(client: Client, path: str) -> None:
    page = client.get(path).content.decode()
    assert scripts(page) == {HTMX: False, PUSH: False, MORPH: False, "js/app.js": True, "js/offline.js": True}


def test_the_leaderboard_loads_htmx_for_its_filters_without_the_socket_or_idiomorph(
    member_client: Client, session: GameSession
) -> None:
    """Its filters apply as they change: htmx swaps the table in (issue 44), and
    live_filters.js, after it, puts the address in the history."""
    page = member_client.get(f"/g/{session.night.group_id}/leaderboard/").content.decode()
    assert scripts(page) == {HTMX: True, PUSH: False, MORPH: False, "js/app.js": True, "js/offline.js": True}
    assert page.index(HTMX) < page.index("js/live_filters.js")


def test_the_group_page_loads_htmx_for_its_players_form_without_the_socket(
    member_client: Client, session: GameSession
) -> None:
    page = member_client.get(f"/g/{session.night.group_id}/").content.decode()
    assert scripts(page) == {HTMX: True, PUSH: False, MORPH: True, "js/app.js": True, "js/offline.js": True}


def test_the_live_pages_load_htmx_the_socket_and_idiomorph_before_app_js(
    member_client: Client, session: GameSession
) -> None:
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    code = services.create_join_code(session=session).code
    for url in (f"/s/{session.pk}/", f"/j/{code}/", f"/j/{code}/table/"):
        page = member_client.get(url).content.decode()
        assert all(scripts(page).values()), url
        # app.js sets idiomorph up as it runs (deferred scripts run in order).
        assert page.index(HTMX) < page.index(MORPH) < page.index("js/app.js"), url
