"""The group's play log (issue 44, point 1): every play newest first, filters in the address,
the count of what they found, cursor pages bound to their filters, and the exports exactly as
filtered."""

from __future__ import annotations

import csv
import datetime
import io
import json
import re
from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from sessions import services
from sessions.models import GameNight, GameSession, Group, PlainResult, Player, Result

pytestmark = pytest.mark.django_db

BASE = timezone.make_aware(datetime.datetime(2026, 3, 1, 20, 0))


def finished(
    night: GameNight, game: str, places: Sequence[tuple[Player, int, int | None]], *, minutes: int
) -> GameSession:
    """A finished session as its results leave it (the log reads nothing else), made directly:
    playing a hundred sessions through the engines would only slow these tests down."""
    when = BASE + datetime.timedelta(minutes=minutes)
    session = GameSession.objects.create(
        night=night, group_id=night.group_id, game=game, status="finished", secret="7", state={}, finished_at=when
    )
    Result.objects.bulk_create(
        Result(session=session, player=player, rank=rank, score=score) for player, rank, score in places
    )
    return session


def imported(group: Group, play: str, game: str, rows: Sequence[tuple[Player, int, bool]], *, minutes: int) -> None:
    when = BASE + datetime.timedelta(minutes=minutes)
    PlainResult.objects.bulk_create(
        PlainResult(
            group=group,
            source="bgstats",
            play=play,
            game=game,
            played_at=when,
            place="Zoe's",
            player=player,
            score=30 - rank,
            rank=rank,
            winner=won,
        )
        for player, rank, won in rows
    )


def log_url(group: Group, **filters: Any) -> str:
    query = "&".join(f"{name}={value}" for name, value in filters.items())
    return reverse("play_log", args=[group.pk]) + (f"?{query}" if query else "")


def shown_sessions(page: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'class="play-game" href="/s/(\d+)/"', page)]


def count_of(page: str) -> str:
    return found(r'data-testid="log-count"><strong>([^<]+)</strong>', page)


def link(page: str, testid: str) -> str:
    return found(rf'href="([^"]+)"[^>]*data-testid="{testid}"', page).replace("&amp;", "&")


def found(pattern: str, page: str) -> str:
    match = re.search(pattern, page)
    assert match is not None, pattern
    return match.group(1)


@pytest.fixture
def table(group: Group, night: GameNight, players: list[Player]) -> dict[str, Any]:
    """Four sessions over two nights and an imported play of another game, between them in time."""
    ada, bruno, chiara, dieter = players
    later = services.create_night(group=group, date=datetime.date(2026, 11, 26), place="Bruno's")
    sessions = [
        finished(night, "tower-of-babel", [(ada, 1, 40), (bruno, 2, 31), (chiara, 3, 20)], minutes=0),
        finished(night, "babel-on", [(bruno, 1, None), (chiara, 2, None)], minutes=10),
        finished(later, "tower-of-babel", [(chiara, 1, 50), (ada, 1, 50), (dieter, 3, 12)], minutes=30),
        finished(later, "seven-wonders", [(dieter, 1, 61), (bruno, 2, 55)], minutes=40),
    ]
    imported(group, "P-1", "Carcassonne", [(ada, 1, True), (dieter, 2, False)], minutes=20)
    return {"sessions": sessions, "later": later, "players": players}


def test_it_lists_every_play_newest_first_with_places_scores_and_winners(member_client, group, table):
    page = member_client.get(log_url(group)).content.decode()
    first, second, third, fourth = table["sessions"]
    assert shown_sessions(page) == [fourth.pk, third.pk, second.pk, first.pk]
    plays = page.split('data-testid="play"')[1:]
    assert [bool(re.search("Carcassonne", play)) for play in plays] == [False, False, True, False, False]
    tied = plays[1]
    assert tied.count("winner</span>") == 2  # both places 1 of a tie won
    assert "Tower of Babel" in tied
    assert "Bruno&#x27;s" in tied
    assert count_of(page) == "5 plays"


def test_an_imported_play_of_another_game_is_marked_and_leads_to_no_session(member_client, group, table):
    page = member_client.get(log_url(group)).content.decode()
    (other,) = [play for play in page.split('data-testid="play"')[1:] if "Carcassonne" in play]
    assert '<span class="badge">other game</span>' in other
    assert "/s/" not in other
    assert "Zoe&#x27;s" in other
    only_others = member_client.get(log_url(group, game="other")).content.decode()
    assert shown_sessions(only_others) == []
    assert count_of(only_others) == "1 play"


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({"game": "tower-of-babel"}, [2, 0]),
        ({"player": "ada"}, [2, 0]),  # and the imported play she sat in
        ({"winner": "bruno"}, [1]),
        ({"player": "bruno", "game": "tower-of-babel"}, [0]),
        ({"night": "later"}, [3, 2]),
        ({"from": "2026-11-20", "to": "2026-11-30"}, [3, 2]),
        ({"to": "2026-11-19"}, [1, 0]),  # and the imported play, in March
    ],
)
def test_each_filter_keeps_only_the_plays_it_names(member_client, group, table, filters, expected):
    ada, bruno, _chiara, _dieter = table["players"]
    named = {"ada": ada.pk, "bruno": bruno.pk, "later": table["later"].pk}
    page = member_client.get(log_url(group, **{k: named.get(v, v) for k, v in filters.items()})).content.decode()
    assert shown_sessions(page) == [table["sessions"][index].pk for index in expected]
    with_others = filters in ({"player": "ada"}, {"to": "2026-11-19"})
    assert ("Carcassonne" in page) == with_others
    found = len(expected) + with_others
    assert count_of(page) == ("1 play" if found == 1 else f"{found} plays")


def test_the_imported_play_follows_the_player_and_the_dates_filters(member_client, group, table):
    _ada, bruno, _chiara, dieter = table["players"]
    assert "Carcassonne" in member_client.get(log_url(group, player=dieter.pk)).content.decode()
    assert "Carcassonne" not in member_client.get(log_url(group, winner=dieter.pk)).content.decode()
    assert "Carcassonne" not in member_client.get(log_url(group, player=bruno.pk)).content.decode()
    assert (
        "Carcassonne"
        in member_client.get(log_url(group, **{"from": "2026-03-01", "to": "2026-03-01"})).content.decode()
    )
    assert "Carcassonne" not in member_client.get(log_url(group, **{"from": "2026-03-02"})).content.decode()


@pytest.fixture
def elsewhere(outsider) -> Player:
    return services.create_player(group=services.create_group(owner=outsider, name="Elsewhere"), name="Eve")


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("game", "chess", "Game: There is no game “chess” in the log."),
        ("player", "another group's", "Player: This group has no such player."),
        ("player", "abc", "Player: This group has no such player."),
        ("winner", "99999999999999999999999", "Winner: This group has no such player."),
        ("night", "-1", "Night: This group has no such game night."),
        ("from", "2026-13-01", "From: Enter a real date, as 2026-03-14."),
        ("to", "yesterday", "To: Enter a real date, as 2026-03-14."),
    ],
)
def test_a_bad_filter_is_refused_naming_its_field(member_client, group, table, elsewhere, field, value, words):
    value = str(elsewhere.pk) if value == "another group's" else value
    for url in (reverse("play_log", args=[group.pk]), reverse("play_log_csv", args=[group.pk])):
        response = member_client.get(url, {field: value})
        assert response.status_code == 400
        assert words in b"".join(response).decode()  # a page, or the CSV link's plain text
    page = member_client.get(log_url(group), {field: value}).content.decode()
    assert 'aria-invalid="true"' in page
    assert shown_sessions(page) == []


def test_a_first_day_after_the_last_is_refused(member_client, group, table):
    response = member_client.get(log_url(group, **{"from": "2026-11-30", "to": "2026-11-01"}))
    assert response.status_code == 400
    assert "To: The last day comes before the first: swap them." in response.content.decode()


@pytest.fixture
def long_log(group: Group, night: GameNight, players: list[Player]) -> list[GameSession]:
    """120 sessions, three at each moment (ties the cursor must count past), and 9 imported plays."""
    ada, bruno, chiara, _dieter = players
    sessions = [
        finished(night, "babel-on", [(ada if index % 2 else bruno, 1, index), (chiara, 2, 0)], minutes=index // 3)
        for index in range(120)
    ]
    for index in range(9):
        imported(group, f"P-{index}", "Azul", [(ada, 1, True), (bruno, 2, False)], minutes=index * 4)
    return sessions


def walk(client: Client, url: str) -> tuple[list[str], list[str]]:
    """Every page from ``url`` by its "Older plays" link: the plays' keys, and each page's address."""
    keys: list[str] = []
    addresses = [url]
    while True:
        page = client.get(addresses[-1]).content.decode()
        for play in page.split('data-testid="play"')[1:]:
            session = re.search(r'href="/s/(\d+)/"', play)
            keys.append(session.group(1) if session else found(r"(Azul)", play) + str(len(keys)))
        if 'data-testid="log-older"' not in page:
            return keys, addresses
        addresses.append(link(page, "log-older"))


def test_older_plays_walk_the_whole_log_once_each_newest_first(member_client, group, long_log):
    keys, addresses = walk(member_client, log_url(group))
    assert len(addresses) == 3  # 129 plays, 50 a page
    sessions = [int(key) for key in keys if key.isdigit()]
    assert sessions == sorted(
        (s.pk for s in long_log), key=lambda pk: (long_log[pk - long_log[0].pk].finished_at, pk), reverse=True
    )
    assert len(keys) == 129


def test_the_older_link_carries_the_filters_and_a_cursor_bound_to_them(member_client, group, long_log, players):
    ada = players[0]
    keys, addresses = walk(member_client, log_url(group, player=ada.pk))
    assert len(keys) == 60 + 9
    assert all(parse_qs(urlsplit(address).query)["player"] == [str(ada.pk)] for address in addresses)
    cursor = parse_qs(urlsplit(addresses[1]).query)["cursor"][0]
    response = member_client.get(log_url(group), {"player": players[1].pk, "cursor": cursor})
    assert response.status_code == 400
    assert "Older plays: this link was made for other filters." in response.content.decode()


@pytest.mark.parametrize("cursor", ["nonsense", "eyJwIjogMX0", "CHANGED"])
def test_a_changed_cursor_is_refused_by_name(member_client, group, long_log, cursor):
    if cursor == "CHANGED":
        given = parse_qs(urlsplit(walk(member_client, log_url(group))[1][1]).query)["cursor"][0]
        cursor = given[:10] + ("A" if given[10] != "A" else "B") + given[11:]
    response = member_client.get(log_url(group), {"cursor": cursor})
    assert response.status_code == 400
    assert "Older plays: this link has been changed or cut short." in response.content.decode()


def test_the_exports_hold_exactly_the_filtered_plays(member_client, group, table):
    ada = table["players"][0]
    page = member_client.get(log_url(group, player=ada.pk)).content.decode()
    csv_url, json_url = link(page, "log-csv"), link(page, "log-json")
    assert parse_qs(urlsplit(csv_url).query) == parse_qs(urlsplit(json_url).query) == {"player": [str(ada.pk)]}
    response = member_client.get(csv_url)
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    third, first = table["sessions"][2], table["sessions"][0]
    assert [(r["session"], r["game"], r["player"], r["rank"], r["winner"]) for r in rows] == [
        (str(third.pk), "tower-of-babel", "Ada", "1", "1"),
        (str(third.pk), "tower-of-babel", "Chiara", "1", "1"),
        (str(third.pk), "tower-of-babel", "Dieter", "3", ""),
        ("", "Carcassonne", "Ada", "1", "1"),
        ("", "Carcassonne", "Dieter", "2", ""),
        (str(first.pk), "tower-of-babel", "Ada", "1", "1"),
        (str(first.pk), "tower-of-babel", "Bruno", "2", ""),
        (str(first.pk), "tower-of-babel", "Chiara", "3", ""),
    ]
    assert rows[3]["other_game"] == "1"
    document = json.loads(b"".join(member_client.get(json_url).streaming_content))
    assert document["count"] == len(document["plays"]) == 3
    assert document["filters"] == {"player": str(ada.pk)}
    assert [p["session"] for p in document["plays"]] == [third.pk, None, first.pk]
    assert document["plays"][1]["other_game"] is True


def test_the_csv_keeps_a_name_a_spreadsheet_would_run_as_text(member_client, group, night):
    sly = services.create_player(group=group, name="=HYPERLINK(1)")
    finished(night, "babel-cubes", [(sly, 1, None)], minutes=0)
    body = b"".join(member_client.get(reverse("play_log_csv", args=[group.pk])).streaming_content).decode()
    assert "'=HYPERLINK(1)" in body


def test_htmx_gets_the_list_alone_and_the_address_to_push_without_empty_fields(member_client, group, table):
    ada = table["players"][0]
    response = member_client.get(
        log_url(group),
        {"game": "", "player": ada.pk, "night": "", "from": "", "to": "", "winner": ""},
        HTTP_HX_REQUEST="true",
    )
    page = response.content.decode()
    assert "<html" not in page
    assert page.count('id="play-log"') == 1
    assert count_of(page) == "3 plays"
    assert response["HX-Push-Url"] == f"/g/{group.pk}/log/?player={ada.pk}"


def test_the_back_button_gets_the_whole_page(member_client, group, table):
    page = member_client.get(
        log_url(group), HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true"
    ).content.decode()
    assert "<html" in page
    assert 'data-testid="log-filters"' in page


def test_the_form_shows_the_filters_of_its_address(member_client, group, table):
    ada = table["players"][0]
    later = table["later"]
    page = member_client.get(log_url(group, player=ada.pk, night=later.pk, **{"from": "2026-11-01"})).content.decode()
    assert f'<option value="{ada.pk}" selected>Ada</option>' in page
    assert re.search(rf'<option value="{later.pk}" selected>[^<]+Bruno', page)
    assert 'name="from" value="2026-11-01"' in page


def test_an_outsider_sees_neither_the_log_nor_its_exports(outsider_client, group, table):
    for name in ("play_log", "play_log_csv", "play_log_json"):
        assert outsider_client.get(reverse(name, args=[group.pk])).status_code == 404


def test_a_page_of_fifty_plays_costs_as_many_queries_at_any_length(
    member_client, group, night, players, django_assert_max_num_queries
):
    ada, bruno, *_others = players

    def grow(to: int) -> None:
        for index in range(GameSession.objects.count(), to):
            finished(night, "babel-on", [(ada, 1, index), (bruno, 2, 0)], minutes=index)
        for index in range(PlainResult.objects.count() // 2, to // 10):
            imported(group, f"P-{index}", "Azul", [(ada, 1, True), (bruno, 2, False)], minutes=index * 10)

    for size in (60, 240):
        grow(size)
        for filters in ({}, {"player": ada.pk}, {"game": "babel-on"}):
            with django_assert_max_num_queries(12):
                page = member_client.get(log_url(group, **filters)).content.decode()
            assert page.count('data-testid="play"') == 50
        with django_assert_max_num_queries(12):
            older = member_client.get(link(page, "log-older")).content.decode()
        assert older.count('data-testid="play"') == min(50, size - 50)  # the game filter's second page


def test_the_group_page_and_each_player_page_lead_to_the_log(member_client, group, players):
    assert f'href="/g/{group.pk}/log/"' in member_client.get(reverse("group", args=[group.pk])).content.decode()
    page = member_client.get(reverse("player_statistics", args=[players[0].pk])).content.decode()
    assert f'href="/g/{group.pk}/log/?player={players[0].pk}"' in page
