"""Removing a player (issue 17): one who never played is deleted; one with history is
archived, off every seat list of new games, their results and statistics kept, and can be
brought back."""

from __future__ import annotations

import datetime
import json
import re
from unittest import mock

import pytest
from django.urls import reverse

from scoring.errors import RuleError
from sessions import selectors, services
from sessions.importexport.export import group_document
from sessions.importexport.importer import import_group
from sessions.models import GameSession, Group, PlainResult, Player, PlayerTally, Result, Seat
from tests.conftest import client_for, finish_with_scores
from tests.test_api_resources import api_for
from tests.test_group_player_pages import names_on


@pytest.fixture
def finished(session, eager, django_capture_on_commit_callbacks):
    """The session finished and counted in the statistics."""
    with django_capture_on_commit_callbacks(execute=True):
        finish_with_scores(session, [30, 25, 20])
    return session


def archived_names(page: str) -> list[str]:
    if 'data-testid="archived-players"' not in page:
        return []
    archived = page.split('data-testid="archived-players"')[1].split("</details>")[0]
    return re.findall(r'class="player-name"[^>]*>([^<]+)<', archived)


def remove(client, player, **data):
    key = data.pop("idempotency_key", "remove-key")
    return client.post(reverse("player_remove", args=[player.pk]), {"idempotency_key": key, **data})


# --- services ----------------------------------------------------------------------------------


def test_it_deletes_a_player_who_never_played(group, players, session):
    removal = services.remove_player(player=players[3])
    assert removal.deleted
    assert removal.name == "Dieter"
    assert not Player.objects.filter(name="Dieter").exists()


def test_it_archives_a_player_with_history(finished, players):
    ada = players[0]
    removal = services.remove_player(player=ada)
    assert not removal.deleted
    assert removal.results == 1
    ada.refresh_from_db()
    assert ada.archived
    assert ada.archived_at is not None
    assert Seat.objects.filter(player=ada).count() == 1
    assert Result.objects.get(player=ada).score == 30
    assert PlayerTally.objects.filter(player=ada).exists()


def test_a_seat_in_an_open_game_is_history_too(session, players):
    assert not services.remove_player(player=players[0]).deleted
    assert session.seats.filter(player=players[0]).exists()


def test_a_player_with_only_imported_plays_of_other_games_is_archived(group, players):
    PlainResult.objects.create(
        group=group,
        source="bgstats",
        play="P1",
        game="Carcassonne",
        played_at=datetime.datetime(2026, 10, 1, 20, tzinfo=datetime.UTC),
        player=players[3],
        score=12,
    )
    assert selectors.player_history(players[3]).other_plays == 1
    assert not services.remove_player(player=players[3]).deleted
    assert PlainResult.objects.filter(player=players[3]).count() == 1


def test_removing_an_archived_player_again_changes_nothing(finished, players):
    services.remove_player(player=players[0])
    first = Player.objects.get(pk=players[0].pk).archived_at
    services.remove_player(player=Player.objects.get(pk=players[0].pk))
    assert Player.objects.get(pk=players[0].pk).archived_at == first


def test_an_archived_player_cannot_take_a_seat_until_brought_back(finished, night, players):
    services.remove_player(player=players[0])
    ada = Player.objects.get(pk=players[0].pk)
    with pytest.raises(RuleError) as refused:
        services.create_session(night=night, game="babel-on", players=[ada, players[1]])
    assert refused.value.field == "seats"
    assert "Ada is archived" in refused.value.message
    services.unarchive_player(player=ada)
    assert not Player.objects.get(pk=ada.pk).archived
    assert services.create_session(night=night, game="babel-on", players=[ada, players[1]]).seats.count() == 2


# --- pages -------------------------------------------------------------------------------------


def test_the_remove_page_says_what_removing_will_do(member_client, finished, players):
    page = member_client.get(reverse("player_remove", args=[players[0].pk])).content.decode()
    assert "Ada has 1 result. Removing archives them" in page
    assert "Archive Ada" in page
    page = member_client.get(reverse("player_remove", args=[players[3].pk])).content.decode()
    assert "Dieter never played here: removing deletes them." in page
    assert "Delete Dieter" in page
    assert Player.objects.count() == 4  # a GET changes nothing


def test_removing_says_whether_the_player_was_deleted_or_archived(member_client, finished, group, players):
    response = remove(member_client, players[3], idempotency_key="one")
    assert response.status_code == 302
    assert response["Location"] == reverse("group", args=[group.pk])
    page = member_client.get(response["Location"]).content.decode()
    assert "Dieter was deleted." in page
    response = remove(member_client, players[0], idempotency_key="two")
    page = member_client.get(response["Location"]).content.decode()
    assert "Ada was archived: their 1 result is kept." in page


def test_a_second_tap_on_remove_gets_the_same_answer_not_a_404(member_client, group, players):
    first = remove(member_client, players[3], idempotency_key="tap")
    again = remove(member_client, players[3], idempotency_key="tap")
    assert again.status_code == 302
    assert again["Location"] == first["Location"]
    assert "Dieter was deleted." in member_client.get(again["Location"]).content.decode()
    assert remove(member_client, players[3], idempotency_key="other").status_code == 404


def test_an_archived_player_moves_to_the_collapsed_list_and_keeps_their_name_on_results(
    member_client, finished, group, players
):
    remove(member_client, players[0])
    page = member_client.get(reverse("group", args=[group.pk])).content.decode()
    assert names_on(page) == ["Bruno", "Chiara", "Dieter"]
    assert archived_names(page) == ["Ada"]
    assert "<details" in page.split('data-testid="archived-players"')[0][-20:]  # collapsed: no open
    assert "Archived players (1)" in page
    assert "Ada" in member_client.get(reverse("play_log", args=[group.pk])).content.decode()
    assert "Ada" in member_client.get(reverse("session", args=[finished.pk])).content.decode()
    assert member_client.get(reverse("player_statistics", args=[players[0].pk])).status_code == 200


def test_the_group_page_has_no_archived_list_when_none_is_archived(member_client, group, players):
    assert 'data-testid="archived-players"' not in member_client.get(reverse("group", args=[group.pk])).content.decode()


def test_the_new_session_form_offers_no_archived_player_and_refuses_one_sent(member_client, finished, night, players):
    services.remove_player(player=players[0])
    url = reverse("session_new", args=[night.pk]) + "?game=babel-on"
    page = member_client.get(url).content.decode()
    assert f'<option value="{players[0].pk}"' not in page
    assert f'<option value="{players[1].pk}"' in page
    before = GameSession.objects.count()
    response = member_client.post(url, {"seat_0": players[0].pk, "seat_1": players[1].pk, "idempotency_key": "k"})
    assert response.status_code == 400
    assert "A chosen player can no longer take a seat: choose again." in response.content.decode()
    assert GameSession.objects.count() == before


def test_bring_back_puts_the_player_on_the_seat_lists_again(member_client, finished, group, night, players):
    services.remove_player(player=players[0])
    response = member_client.post(reverse("player_unarchive", args=[players[0].pk]))
    assert response.status_code == 302
    page = member_client.get(response["Location"]).content.decode()
    assert "Ada is back on the seat lists." in page
    assert names_on(page) == ["Ada", "Bruno", "Chiara", "Dieter"]
    assert (
        f'<option value="{players[0].pk}"'
        in member_client.get(reverse("session_new", args=[night.pk]) + "?game=babel-on").content.decode()
    )


def test_bring_back_takes_a_post(member_client, finished, players):
    services.remove_player(player=players[0])
    assert member_client.get(reverse("player_unarchive", args=[players[0].pk])).status_code == 405
    assert Player.objects.get(pk=players[0].pk).archived


def test_the_group_page_reads_as_many_queries_with_many_archived_players(
    member_client, group, players, django_assert_max_num_queries
):
    url = reverse("group", args=[group.pk])
    Player.objects.bulk_create(
        Player(group=group, name=f"Gone {n}", archived_at=datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC))
        for n in range(3)
    )
    member_client.get(url)
    with django_assert_max_num_queries(14) as few:
        member_client.get(url)
    Player.objects.bulk_create(
        Player(group=group, name=f"Gone {n}", archived_at=datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC))
        for n in range(3, 200)
    )
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert len(archived_names(member_client.get(url).content.decode())) == 200


# --- who may ---------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["owner", "member"])
def test_owner_and_member_may_remove_and_bring_back(request, who, finished, players):
    client = client_for(request.getfixturevalue(who))
    assert remove(client, players[0]).status_code == 302
    assert Player.objects.get(pk=players[0].pk).archived
    assert client.post(reverse("player_unarchive", args=[players[0].pk])).status_code == 302
    assert not Player.objects.get(pk=players[0].pk).archived
    assert remove(client, players[3], idempotency_key="delete").status_code == 302
    assert not Player.objects.filter(pk=players[3].pk).exists()


def test_an_outsider_cannot_remove_or_bring_back(outsider_client, finished, players):
    services.remove_player(player=players[1])
    assert outsider_client.get(reverse("player_remove", args=[players[0].pk])).status_code == 404
    assert remove(outsider_client, players[0]).status_code == 404
    assert remove(outsider_client, players[3], idempotency_key="x").status_code == 404
    assert outsider_client.post(reverse("player_unarchive", args=[players[1].pk])).status_code == 404
    assert not Player.objects.get(pk=players[0].pk).archived
    assert Player.objects.get(pk=players[1].pk).archived
    assert Player.objects.filter(pk=players[3].pk).exists()


# --- API and import/export -------------------------------------------------------------------


def test_the_api_shows_whether_a_player_is_archived(member, finished, group, players):
    services.remove_player(player=players[0])
    rows = api_for(member).get(f"/api/v1/groups/{group.pk}/players/").json()["results"]
    assert {row["name"]: row["archived"] for row in rows} == {
        "Ada": True,
        "Bruno": False,
        "Chiara": False,
        "Dieter": False,
    }
    assert next(row for row in rows if row["name"] == "Ada")["archived_at"] is not None


def test_the_api_refuses_a_session_that_seats_an_archived_player(member, finished, night, players):
    services.remove_player(player=players[0])
    before = GameSession.objects.count()
    response = api_for(member).post(
        f"/api/v1/nights/{night.pk}/sessions/",
        {"game": "babel-on", "players": [players[1].pk, players[0].pk]},
        format="json",
    )
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["field"] == "players[1]"
    assert "Ada is archived" in error["message"]
    assert GameSession.objects.count() == before


def test_export_and_import_keep_who_is_archived(owner, finished, group, players):
    services.remove_player(player=players[0])
    exported = json.loads(json.dumps(group_document(group)))
    assert [p["archived_at"] is not None for p in exported["players"]] == [True, False, False, False]
    imported = import_group(owner=owner, document=exported)
    assert list(imported.players.filter(archived_at__isnull=False).values_list("name", flat=True)) == ["Ada"]
    assert imported.players.get(name="Ada").archived_at == Player.objects.get(pk=players[0].pk).archived_at


def test_an_import_without_archived_dates_archives_nobody(owner, finished, group):
    exported = json.loads(json.dumps(group_document(group)))
    for player in exported["players"]:
        del player["archived_at"]
    imported = import_group(owner=owner, document=exported)
    assert not imported.players.filter(archived_at__isnull=False).exists()
    assert Group.objects.count() == 2


def test_a_key_of_another_form_is_refused_not_a_crash(member_client, group, players):
    member_client.post(reverse("player_add", args=[group.pk]), {"name": "Eve", "idempotency_key": "used"})
    assert remove(member_client, players[3], idempotency_key="used").status_code == 400
    assert Player.objects.filter(pk=players[3].pk).exists()


def test_a_player_seated_while_being_removed_is_archived_not_deleted(night, players):
    """The history was read empty, then another request seated the player before the delete."""
    counted = selectors.player_history

    def seated_meanwhile(player):
        history = counted(player)
        if not history.any:
            services.create_session(night=night, game="babel-on", players=[player, players[0]])
        return history

    with mock.patch("sessions.services.player_history", side_effect=seated_meanwhile):
        removal = services.remove_player(player=players[3])
    assert not removal.deleted
    assert Player.objects.get(pk=players[3].pk).archived
    assert Seat.objects.filter(player=players[3]).count() == 1


def test_adding_a_player_by_an_archived_name_says_to_bring_them_back(member_client, finished, group, players):
    services.remove_player(player=players[0])
    response = member_client.post(reverse("player_add", args=[group.pk]), {"name": "ada", "idempotency_key": "k"})
    assert response.status_code == 400
    assert "Ada is archived: bring them back from the archived players." in response.content.decode()
    assert group.players.count() == 4
