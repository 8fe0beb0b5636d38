"""The sessions and results lists are cursor pages (issue 16, item 5): walked by their links,
every row comes once, newest first, and a page far down is read from the index, not past an
OFFSET of every row before it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from sessions import services
from sessions.models import GameSession, Result
from tests.test_api_resources import api_for, finish


@pytest.fixture
def played(night, players):
    """Seven finished Babel On! sessions of two players, oldest first."""
    return [
        finish(services.create_session(night=night, game="babel-on", players=players[:2], secret=f"{n:x}"), [n, 5])
        for n in range(7)
    ]


def walk(client, url):
    """Every page of a list by its next links: (the rows, the pages' answers)."""
    rows, pages = [], []
    while url:
        page = client.get(url).json()
        pages.append(page)
        rows.extend(page["results"])
        url = page["next"]
    return rows, pages


def test_the_sessions_list_walks_every_session_once_newest_first(member, played):
    rows, pages = walk(api_for(member), "/api/v1/sessions/?page_size=3")
    assert [row["id"] for row in rows] == [session.pk for session in reversed(played)]
    assert len(pages) == 3
    assert "count" not in pages[0]


def test_a_previous_link_gives_the_page_before_again(member, played):
    client = api_for(member)
    first = client.get("/api/v1/sessions/?page_size=3").json()
    second = client.get(first["next"]).json()
    assert client.get(second["previous"]).json()["results"] == first["results"]


def test_results_keep_each_sessions_places_together_across_page_boundaries(member, played):
    rows, _pages = walk(api_for(member), "/api/v1/results/?page_size=3")  # 14 rows, pages end mid-session
    newest_first = Result.objects.order_by("-session_id", "rank", "id").values_list("session_id", "rank", "player")
    assert [(row["session"], row["rank"], row["player"]) for row in rows] == list(newest_first)
    assert len(rows) == 14


def test_a_cursor_the_list_did_not_give_is_a_400_naming_it(member, played):
    response = api_for(member).get("/api/v1/results/", {"cursor": "not-a-cursor"})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "cursor"


def test_the_last_page_of_sessions_is_read_from_the_index_without_an_offset(member, played):
    client = api_for(member)
    _rows, pages = walk(client, "/api/v1/sessions/?page_size=2")
    with CaptureQueriesContext(connection) as captured:
        last = client.get(pages[-2]["next"]).json()
    assert [row["id"] for row in last["results"]] == [played[0].pk]
    table = GameSession._meta.db_table
    listing = next(query["sql"] for query in captured if f'FROM "{table}"' in query["sql"])
    assert "OFFSET" not in listing.upper()
    assert f'"{table}"."id" < {played[1].pk}' in listing


def test_a_page_of_results_is_read_in_the_sessions_order_without_their_states(member, played, group):
    client = api_for(member)
    with CaptureQueriesContext(connection) as captured:
        page = client.get("/api/v1/results/", {"group": group.pk, "page_size": 3}).json()
    assert [row["session"] for row in page["results"]] == [played[-1].pk, played[-1].pk, played[-2].pk]
    table = GameSession._meta.db_table
    listing = next(query["sql"] for query in captured if 'FROM "babel_result"' in query["sql"])
    # SQLite walks the group's sessions from their index only when ordered by the session's own id
    assert f'("{table}"."id") AS "session_order"' in listing
    assert 'ORDER BY "babel_result"."session_id"' not in listing
    assert f'"{table}"."state"' not in listing
