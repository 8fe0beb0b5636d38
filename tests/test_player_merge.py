"""Merging two players of a group (two names for one person, issue 17): the dropped player's
seats, results, plays of other games and phones move to the kept one, the logs name the kept
seat, the statistics are rebuilt; two people (who sat in one game) are never merged."""

from __future__ import annotations

import datetime
from unittest import mock

import pytest
from django.urls import reverse

from scoring.errors import RuleError
from sessions import services, tasks
from sessions.models import (
    GameNight,
    GameSession,
    GameStatistics,
    GuestDevice,
    PlainResult,
    Player,
    PlayerMonth,
    PlayerRating,
    PlayerTally,
    RatedSession,
    RatingHistory,
    Result,
    Seat,
    SessionEvent,
)
from sessions.selectors import replayed_state
from tests.conftest import advance, client_for, started_tower, to_the_first_turn
from tests.test_import_export import tower_of_babel_to_the_end
from tests.test_statistics import play

pytestmark = pytest.mark.usefixtures("eager")


@pytest.fixture
def robert(group):
    return services.create_player(group=group, name="Robert")


def merge_page(player):
    return reverse("player_merge", args=[player.pk])


def plain_result(group, player, play="P1"):
    return PlainResult.objects.create(
        group=group,
        source="bgstats",
        play=play,
        game="Carcassonne",
        played_at=datetime.datetime(2026, 10, 1, 20, tzinfo=datetime.UTC),
        player=player,
        score=12,
    )


def whole_history(group):
    """What the group's history says, by name: seats, results and other plays."""
    return {
        "seats": sorted(Seat.objects.filter(session__group=group).values_list("session_id", "order", "player__name")),
        "results": sorted(
            Result.objects.filter(session__group=group).values_list("session_id", "player__name", "score", "rank")
        ),
        "plain": sorted(PlainResult.objects.filter(group=group).values_list("play", "player__name")),
        "players": sorted(Player.objects.filter(group=group).values_list("name", flat=True)),
    }


# --- services ----------------------------------------------------------------------------------


def test_merging_moves_seats_results_and_other_plays_then_deletes_the_dropped_player(
    owner, group, night, players, robert, django_capture_on_commit_callbacks
):
    bruno = players[1]
    game = services.create_session(night=night, game="tower-of-babel", players=[players[0], robert, players[2]])
    with django_capture_on_commit_callbacks(execute=True):
        tower_of_babel_to_the_end(game, owner)
    plain_result(group, robert)
    results_before = sorted(Result.objects.filter(session=game).values_list("score", "rank"))
    with django_capture_on_commit_callbacks(execute=True):
        services.merge_players(keep=bruno, drop=robert)
    assert not Player.objects.filter(pk=robert.pk).exists()
    assert list(game.seats.values_list("player__name", flat=True)) == ["Ada", "Bruno", "Chiara"]
    assert sorted(Result.objects.filter(session=game).values_list("score", "rank")) == results_before
    assert Result.objects.filter(session=game, player=bruno).exists()
    assert PlainResult.objects.get(play="P1").player == bruno
    game.refresh_from_db()
    # The log now names Bruno's seat, and the state is its replay.
    assert game.state == replayed_state(game)
    assert str(robert.pk) not in game.state["entry"]["seats"]
    assert all(str(robert.pk) not in str(event.payload) for event in SessionEvent.objects.filter(session=game))
    assert PlayerRating.objects.filter(player=bruno, game="tower-of-babel").get().plays == 1


def test_an_abandoned_game_taken_up_again_after_a_merge_goes_on_under_the_kept_player(night, players, robert):
    game = services.create_session(night=night, game="tower-of-babel", players=[players[0], robert, players[2]])
    started_tower(game)
    advance(game, "session.abandon")
    services.merge_players(keep=players[1], drop=robert)
    advance(game, "undo")
    assert game.status == "playing"
    assert game.state == replayed_state(game)
    assert str(players[1].pk) in game.state["entry"]["seats"]


def test_a_game_an_earlier_release_stored_without_a_key_added_since_is_merged(night, players, robert):
    # v0.1.0 stored Babel On!'s state without "wrong_call" (issue 43, the upgrade test): the
    # merge compares the log's replays under the old and the new seats, not the stored state.
    game = services.create_session(night=night, game="babel-on", players=[players[0], robert])
    advance(game, "session.start")
    to_the_first_turn(game)
    advance(game, "session.abandon")
    del game.state["game"]["wrong_call"]
    game.save(update_fields=["state"])
    services.merge_players(keep=players[1], drop=robert)
    game.refresh_from_db()
    assert game.state == replayed_state(game)
    assert "wrong_call" in game.state["game"]  # the replay, as today's rules make it
    assert str(players[1].pk) in game.state["entry"]["seats"]


def test_phones_holding_or_asking_for_the_dropped_player_move_to_the_kept_one(group, players, robert):
    bruno = players[1]
    first = services.create_night(group=group, date=datetime.date(2026, 11, 1))
    second = services.create_night(group=group, date=datetime.date(2026, 11, 2))
    for night in (first, second):
        game = services.create_session(night=night, game="tower-of-babel", players=[players[0], robert, players[2]])
        advance(game, "session.abandon")
    services.create_session(night=second, game="babel-on", players=[bruno, players[3]])
    code_one, code_two = services.create_join_code(night=first), services.create_join_code(night=second)
    on_first = GuestDevice.objects.create(night=first, join_code=code_one, player=robert)
    asking = GuestDevice.objects.create(night=first, join_code=code_one, requested=robert)
    on_second = GuestDevice.objects.create(night=second, join_code=code_two, player=robert)
    holding_bruno = GuestDevice.objects.create(night=second, join_code=code_two, player=bruno)
    revision = GameNight.objects.get(pk=first.pk).live_revision
    services.merge_players(keep=bruno, drop=robert)
    assert GuestDevice.objects.get(pk=on_first.pk).player == bruno
    assert GuestDevice.objects.get(pk=asking.pk).requested == bruno
    assert GuestDevice.objects.get(pk=on_second.pk).player is None  # Bruno's seat there is held already
    assert GuestDevice.objects.get(pk=holding_bruno.pk).player == bruno
    assert GameNight.objects.get(pk=first.pk).live_revision > revision  # the phones look again


def test_the_kept_player_takes_the_dropped_ones_account_if_it_has_none(group, players, member):
    robert = services.create_player(group=group, name="Robert", user=member)
    services.merge_players(keep=players[1], drop=robert)
    assert Player.objects.get(pk=players[1].pk).user == member


def refused(keep, drop):
    with pytest.raises(RuleError) as error:
        services.merge_players(keep=keep, drop=drop)
    assert error.value.field == "into"
    return error.value.message


def test_two_players_who_sat_in_the_same_game_are_two_people(session, group, players):
    before = whole_history(group)
    assert refused(players[0], players[1]) == "Bruno and Ada played in the same game: they are two people."
    assert whole_history(group) == before


def test_two_players_of_the_same_imported_play_are_two_people(group, players):
    plain_result(group, players[0])
    plain_result(group, players[3])
    plain_result(group, players[3], play="P2")
    before = whole_history(group)
    assert "two people" in refused(players[0], players[3])
    assert whole_history(group) == before


def test_a_player_is_not_merged_into_themselves_nor_into_another_group(owner, group, players):
    assert refused(players[0], players[0]) == "Choose another player to merge into."
    other = services.create_player(group=services.create_group(owner=owner, name="Other"), name="Robert")
    assert refused(other, players[0]) == "Both players must belong to the same group."
    assert Player.objects.filter(pk__in=[players[0].pk, other.pk]).count() == 2


def test_a_player_in_an_open_game_is_not_merged(session, group, players):
    before = whole_history(group)
    assert refused(players[3], players[0]) == "Finish or abandon Ada's open game first."
    assert whole_history(group) == before


def test_a_log_that_would_not_move_refuses_the_whole_merge(night, group, owner, players, robert):
    done = services.create_session(night=night, game="tower-of-babel", players=[players[0], robert, players[2]])
    tower_of_babel_to_the_end(done, owner)
    before = whole_history(group)
    with mock.patch("sessions.services.corresponds", return_value=False), pytest.raises(RuleError) as error:
        services.merge_players(keep=players[1], drop=robert)
    assert error.value.field == "into"
    assert error.value.message == "A game of Robert's cannot be moved to Bruno."
    assert whole_history(group) == before


# --- statistics ----------------------------------------------------------------------------------


def statistics_by_name(group):
    """Every statistics row of the group, by player name and without session ids."""
    of_group = {"player__group": group}
    return {
        "ratings": sorted(
            (r.player.name, r.game, round(r.mu, 9), round(r.sigma, 9), r.plays, r.wins, r.last_played)
            for r in PlayerRating.objects.filter(**of_group).select_related("player")
        ),
        "histories": sorted(
            (h.player.name, h.year, [(p[0], p[2], round(p[3], 9), round(p[6], 9)) for p in h.points])
            for h in RatingHistory.objects.filter(**of_group).select_related("player")
        ),
        "months": sorted(
            PlayerMonth.objects.filter(**of_group).values_list("player__name", "game", "month", "plays", "wins")
        ),
        "tallies": sorted(PlayerTally.objects.filter(**of_group).values_list("player__name", "game", "plays", "wins")),
        "games": sorted(GameStatistics.objects.filter(group=group).values_list("game", "plays", "totals")),
        "rated": RatedSession.objects.filter(group=group).count(),
    }


GAMES = [  # (names by seat, scores, days after the first) — Robert and Bob never at one table
    (["Ada", "Robert", "Chiara"], [30, 25, 12], 0),
    (["Bob", "Chiara", "Dieter"], [18, 22, 40], 3),
    (["Robert", "Ada", "Dieter"], [33, 33, 20], 40),
    (["Chiara", "Ada", "Bob"], [10, 28, 28], 41),
    (["Dieter", "Robert"], [21, 19], 70),
]


def test_the_statistics_after_a_merge_are_those_of_a_group_where_the_kept_player_always_played(
    owner, django_capture_on_commit_callbacks
):
    merged = services.create_group(owner=owner, name="Two names")
    always = services.create_group(owner=owner, name="One name")
    names = ["Ada", "Bob", "Chiara", "Dieter"]
    merged_players = {n: services.create_player(group=merged, name=n) for n in [*names, "Robert"]}
    always_players = {n: services.create_player(group=always, name=n) for n in names}
    nights = [services.create_night(group=g, date=datetime.date(2026, 3, 2)) for g in (merged, always)]
    with django_capture_on_commit_callbacks(execute=True):
        for seated, scores, days in GAMES:
            game = "tower-of-babel" if len(seated) > 2 else "babel-on"
            play(nights[0], [merged_players[n] for n in seated], scores, game=game, days=days)
            as_bob = [always_players["Bob" if n == "Robert" else n] for n in seated]
            play(nights[1], as_bob, scores, game=game, days=days)
    assert statistics_by_name(merged) != statistics_by_name(always)
    with django_capture_on_commit_callbacks(execute=True):
        services.merge_players(keep=merged_players["Bob"], drop=merged_players["Robert"])
    assert statistics_by_name(merged) == statistics_by_name(always)
    assert not PlayerMonth.objects.filter(player_id=merged_players["Robert"].pk).exists()  # no key checks it


def test_the_rebuild_is_enqueued_after_the_merge_commits(
    night, owner, players, robert, django_capture_on_commit_callbacks
):
    game = services.create_session(night=night, game="tower-of-babel", players=[players[0], robert, players[2]])
    tower_of_babel_to_the_end(game, owner)
    with mock.patch.object(tasks.rebuild_group_statistics, "delay") as delay:
        with django_capture_on_commit_callbacks() as hooks:
            services.merge_players(keep=players[1], drop=robert)
        delay.assert_not_called()
        for hook in hooks:
            hook()
        delay.assert_called_once_with(game.group_id)


def test_a_broker_that_is_down_does_not_fail_the_merge(
    night, owner, players, robert, django_capture_on_commit_callbacks
):
    game = services.create_session(night=night, game="tower-of-babel", players=[players[0], robert, players[2]])
    tower_of_babel_to_the_end(game, owner)
    with (
        mock.patch.object(tasks.rebuild_group_statistics, "delay", side_effect=OSError("broker down")),
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.merge_players(keep=players[1], drop=robert)
    assert not Player.objects.filter(pk=robert.pk).exists()


def test_merging_a_player_without_results_rebuilds_nothing(group, players, robert, django_capture_on_commit_callbacks):
    with mock.patch.object(tasks.rebuild_group_statistics, "delay") as delay:
        with django_capture_on_commit_callbacks(execute=True):
            services.merge_players(keep=players[1], drop=robert)
        delay.assert_not_called()


# --- pages -------------------------------------------------------------------------------------


def test_the_rename_page_offers_a_merge_into_the_groups_other_players(member_client, players, robert):
    page = member_client.get(reverse("player_rename", args=[robert.pk])).content.decode()
    assert "Merge into" in page
    assert f'action="{merge_page(robert)}"' in page
    for player in players:
        assert f'<option value="{player.pk}">{player.name}</option>' in page
    assert f'<option value="{robert.pk}">' not in page
    assert reverse("player_remove", args=[robert.pk]) in page


def test_choosing_whom_to_merge_into_asks_for_confirmation_first(member_client, night, owner, players, robert):
    game = services.create_session(night=night, game="tower-of-babel", players=[players[0], robert, players[2]])
    tower_of_babel_to_the_end(game, owner)
    page = member_client.get(merge_page(robert), {"into": players[1].pk}).content.decode()
    assert "All of Robert's games (1 result) move to Bruno, then Robert is deleted." in page
    assert "Merge Robert into Bruno" in page
    assert 'method="post"' in page
    assert Player.objects.filter(pk=robert.pk).exists()


def test_the_merge_page_without_a_choice_shows_the_choice(member_client, robert):
    response = member_client.get(merge_page(robert))
    assert response.status_code == 200
    assert 'name="into"' in response.content.decode()
    bad = member_client.get(merge_page(robert), {"into": robert.pk})
    assert bad.status_code == 400
    assert "Select a valid choice" in bad.content.decode()


def test_the_merge_post_merges_and_a_second_tap_gets_the_same_answer(member_client, group, players, robert):
    data = {"into": players[1].pk, "idempotency_key": "merge-once"}
    first = member_client.post(merge_page(robert), data)
    assert first.status_code == 302
    assert first["Location"] == reverse("group", args=[group.pk])
    assert "Robert was merged into Bruno." in member_client.get(first["Location"]).content.decode()
    assert not Player.objects.filter(pk=robert.pk).exists()
    again = member_client.post(merge_page(robert), data)
    assert again.status_code == 302
    assert again["Location"] == first["Location"]


def test_a_refused_merge_shows_why_beside_the_choice_and_changes_nothing(member_client, session, group, players):
    before = whole_history(group)
    response = member_client.post(merge_page(players[0]), {"into": players[1].pk, "idempotency_key": "no"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Ada and Bruno played in the same game: they are two people." in page
    assert 'name="into"' in page
    assert whole_history(group) == before


@pytest.mark.parametrize("who", ["owner", "member"])
def test_owner_and_member_may_merge(request, who, players, robert):
    client = client_for(request.getfixturevalue(who))
    assert client.get(merge_page(robert), {"into": players[1].pk}).status_code == 200
    assert client.post(merge_page(robert), {"into": players[1].pk, "idempotency_key": who}).status_code == 302
    assert not Player.objects.filter(pk=robert.pk).exists()


def test_an_outsider_cannot_merge(outsider_client, group, players, robert):
    before = whole_history(group)
    assert outsider_client.get(merge_page(robert)).status_code == 404
    assert outsider_client.get(merge_page(robert), {"into": players[1].pk}).status_code == 404
    assert outsider_client.post(merge_page(robert), {"into": players[1].pk, "idempotency_key": "x"}).status_code == 404
    assert whole_history(group) == before


def test_a_member_cannot_merge_into_a_player_of_another_of_their_groups(member_client, member, players, robert):
    other_group = services.create_group(owner=member, name="Other")
    stranger = services.create_player(group=other_group, name="Stranger")
    response = member_client.post(merge_page(robert), {"into": stranger.pk, "idempotency_key": "k"})
    assert response.status_code == 400
    assert Player.objects.filter(pk__in=[robert.pk, stranger.pk]).count() == 2
    assert GameSession.objects.count() == 0


def test_a_key_of_another_form_is_refused_not_a_crash(member_client, group, players, robert):
    member_client.post(reverse("player_add", args=[group.pk]), {"name": "Eve", "idempotency_key": "used"})
    response = member_client.post(merge_page(robert), {"into": players[1].pk, "idempotency_key": "used"})
    assert response.status_code == 400
    assert Player.objects.filter(pk=robert.pk).exists()


def test_a_seat_taken_while_merging_stops_the_merge_with_nothing_written(group, night, players, robert):
    """A session seating the dropped player after the merge read its games (another request
    between its reads) is not rewritten: the merge refuses rather than leave a seat the log
    does not name."""
    before = whole_history(group)
    move_devices = services._move_devices

    def seat_meanwhile(**kwargs):
        services.create_session(night=night, game="babel-on", players=[robert, players[3]])
        move_devices(**kwargs)

    with mock.patch("sessions.services._move_devices", side_effect=seat_meanwhile):
        assert refused(players[1], robert) == "Robert just sat down in a new game: try again."
    assert whole_history(group) == before
