"""A player's privacy (issue 44, point 8): hidden from the leaderboards, their data as JSON,
anonymised for good; for the group's owner and the player's own account only."""

from __future__ import annotations

import datetime
import json

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.urls import reverse

from bench.statistics import generate
from scoring.errors import RuleError
from sessions import privacy, services, tasks
from sessions.importexport.export import group_document
from sessions.models import (
    GameNight,
    GuestDevice,
    PlainResult,
    Player,
    PlayerRating,
    Result,
    SessionEvent,
    WriteReceipt,
)
from sessions.statistics import services as statistics
from sessions.statistics.selectors import leaderboard, player_statistics
from tests.conftest import client_for
from tests.test_api_resources import api_for
from tests.test_statistics import play, snapshot


@pytest.fixture
def played(night, players):
    """Six Tower of Babel games of Ada, Bruno and Chiara (Bruno beats Ada five times, Chiara
    loses to both every time), and a Babel On! game of Ada and Dieter, counted."""
    ada, bruno, chiara, dieter = players
    for day in range(6):
        scores = [40, 30, 20] if day == 0 else [30, 40, 20]
        tasks.update_statistics(play(night, [ada, bruno, chiara], scores, days=day).pk)
    tasks.update_statistics(play(night, [ada, dieter], [2, 1], game="babel-on", days=7, places=True).pk)
    return night.group


def names_on_the_leaderboard(group, **filters):
    return [row.name for row in leaderboard(group, **filters)]


def hide(player, *, by, hidden=True):
    return privacy.set_hidden_from_leaderboards(group=player.group, player=player, hidden=hidden, by=by)


def anonymise(player, *, by):
    return privacy.anonymise_player(group=player.group, player=player, by=by)


# --- hidden from the leaderboards --------------------------------------------------------------


def test_a_hidden_player_is_left_out_of_the_leaderboard_for_every_period_and_game(played, players, owner):
    bruno = players[1]
    before = {row.name: row for row in leaderboard(played)}
    hide(bruno, by=owner)
    for filters in ({}, {"period": "year"}, {"game": "tower-of-babel"}, {"order": "win_rate"}):
        assert "Bruno" not in names_on_the_leaderboard(played, **filters)
    after = {row.name: row for row in leaderboard(played)}
    # The others keep their rows as they were: Bruno still played those games.
    assert after == {name: row for name, row in before.items() if name != "Bruno"}
    hide(bruno, by=owner, hidden=False)
    assert "Bruno" in names_on_the_leaderboard(played)


def test_a_hidden_player_is_left_out_of_the_leaderboard_api(played, players, owner, member):
    hide(players[1], by=owner)
    for period in ("all", "year"):
        body = api_for(member).get(f"/api/v1/groups/{played.pk}/leaderboard/?period={period}").json()
        assert "Bruno" not in [row["name"] for row in body["rows"]]
        assert body["players"] == len(body["rows"]) == 3


def test_a_hidden_player_keeps_their_results_and_statistics(played, players, owner):
    bruno = players[1]
    results = sorted(Result.objects.values_list("session_id", "player_id", "rank", "score"))
    ratings = sorted(PlayerRating.objects.values_list("player_id", "game", "mu", "sigma", "plays", "wins"))
    hide(bruno, by=owner)
    assert sorted(Result.objects.values_list("session_id", "player_id", "rank", "score")) == results
    assert sorted(PlayerRating.objects.values_list("player_id", "game", "mu", "sigma", "plays", "wins")) == ratings
    assert player_statistics(bruno).plays == 6


def test_a_hidden_player_is_nobody_s_rival_or_nemesis_but_stays_in_head_to_head(played, players, owner):
    ada, bruno, _chiara, _dieter = players
    shown = player_statistics(ada)
    assert shown.nemesis is not None
    assert shown.nemesis.name == "Bruno"
    assert shown.rival is not None
    hide(bruno, by=owner)
    hidden = player_statistics(ada)
    assert hidden.nemesis is None  # Chiara never beat Ada
    assert hidden.rival is not None
    assert hidden.rival.name == "Chiara"
    assert [o.name for o in hidden.opponents] == [o.name for o in shown.opponents]


def test_a_hidden_player_is_left_out_of_a_game_s_best_players(night, players, owner, member):
    ada, bruno, chiara, _dieter = players
    for day in range(5):  # five plays each: a rating is shown
        tasks.update_statistics(play(night, [ada, bruno, chiara], [30, 40, 20], days=day).pk)
    hide(bruno, by=owner)
    page = client_for(member).get(reverse("game_statistics", args=[night.group_id, "tower-of-babel"]))
    body = api_for(member).get(f"/api/v1/groups/{night.group_id}/games/tower-of-babel/statistics/").json()
    assert "Bruno" not in [row["name"] for row in body["top"]]
    assert "Ada" in [row["name"] for row in body["top"]]
    best_players = page.content.decode().split('<ol class="ranked">')[1].split("</ol>")[0]
    assert reverse("player_statistics", args=[ada.pk]) in best_players
    assert reverse("player_statistics", args=[bruno.pk]) not in best_players


def test_a_hidden_player_leads_no_card_of_the_group_or_the_game_yet_counts_in_them(played, players, owner, member):
    _ada, bruno, _chiara, _dieter = players  # Bruno: most wins and the best score (40)
    hide(bruno, by=owner)
    client = client_for(member)
    for url in (reverse("group", args=[played.pk]), reverse("game_statistics", args=[played.pk, "tower-of-babel"])):
        page = client.get(url).content.decode()
        cards = page.split('class="stat-cards"')[1].split("</ul>")[0]
        assert "Bruno" not in cards, url
        assert reverse("player_statistics", args=[bruno.pk]) not in cards
        assert "Ada" in cards  # the next one leads
    game = client.get(reverse("game_statistics", args=[played.pk, "tower-of-babel"])).content.decode()
    plays = game.split('data-card="plays"')[1].split("</li>")[0]
    assert ">6<" in plays  # Bruno's games still count


def test_a_hidden_player_s_own_page_says_so_and_from_what(played, players, owner, member):
    bruno = players[1]
    url = reverse("player_statistics", args=[bruno.pk])
    assert 'data-testid="hidden-note"' not in client_for(member).get(url).content.decode()
    hide(bruno, by=owner)
    page = client_for(member).get(url).content.decode()
    assert 'data-testid="hidden-note"' in page
    assert "hidden from the leaderboards" in page
    assert "rival and nemesis" in page


def test_the_switch_on_the_privacy_page_hides_and_shows_again(owner_client, players):
    bruno = players[1]
    url = reverse("player_hide", args=[bruno.pk])
    response = owner_client.post(url, {"hidden": "true"})
    assert response.status_code == 302
    assert Player.objects.get(pk=bruno.pk).hidden_from_leaderboards
    page = owner_client.get(response["Location"]).content.decode()
    assert "Bruno is hidden from the leaderboards." in page
    assert 'aria-checked="true"' in page
    owner_client.post(url, {"hidden": "false"})
    assert not Player.objects.get(pk=bruno.pk).hidden_from_leaderboards


def test_the_switch_answers_htmx_with_its_panel_alone(owner_client, players):
    response = owner_client.post(
        reverse("player_hide", args=[players[1].pk]), {"hidden": "true"}, HTTP_HX_REQUEST="true"
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith("<section")
    assert "<html" not in page
    assert 'aria-checked="true"' in page
    assert 'value="false"' in page


def test_the_api_patch_sets_the_switch_and_shows_it(owner, players):
    response = api_for(owner).patch(
        f"/api/v1/players/{players[1].pk}/", {"hidden_from_leaderboards": True}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["hidden_from_leaderboards"] is True
    assert response.json()["anonymised_at"] is None
    assert Player.objects.get(pk=players[1].pk).hidden_from_leaderboards


def test_the_api_refuses_the_switch_to_another_member_and_renames_nobody(member, players):
    response = api_for(member).patch(
        f"/api/v1/players/{players[1].pk}/", {"name": "Bruna", "hidden_from_leaderboards": True}, format="json"
    )
    assert response.status_code == 403
    assert response.json()["errors"][0]["field"] == "hidden_from_leaderboards"
    bruno = Player.objects.get(pk=players[1].pk)
    assert (bruno.name, bruno.hidden_from_leaderboards) == ("Bruno", False)
    # Renaming alone stays every member's.
    assert api_for(member).patch(f"/api/v1/players/{bruno.pk}/", {"name": "Bruna"}, format="json").status_code == 200


def test_the_api_switch_takes_a_json_boolean_only(owner, players):
    for sent in (1, "true", None):
        response = api_for(owner).patch(
            f"/api/v1/players/{players[1].pk}/", {"hidden_from_leaderboards": sent}, format="json"
        )
        assert response.status_code == 400
        assert response.json()["errors"][0]["field"] == "hidden_from_leaderboards"


def test_the_api_hides_nothing_from_an_outsider(outsider, players):
    response = api_for(outsider).patch(
        f"/api/v1/players/{players[1].pk}/", {"hidden_from_leaderboards": True}, format="json"
    )
    assert response.status_code == 404


# --- who may -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "status"), [("owner", 200), ("member", 403), ("own account", 200), ("outsider", 404), ("nobody", 302)]
)
def test_who_may_open_the_privacy_page_and_download_the_data(request, group, players, who, status):
    member = request.getfixturevalue("member")
    milo = services.create_player(group=group, name="Milo", user=member)
    user = {
        "owner": request.getfixturevalue("owner"),
        "member": member,
        "own account": member,
        "outsider": request.getfixturevalue("outsider"),
        "nobody": None,
    }[who]
    player = milo if who == "own account" else players[1]
    client = client_for(user)
    assert client.get(reverse("player_privacy", args=[player.pk])).status_code == status
    assert client.get(reverse("player_export", args=[player.pk])).status_code == status
    posted = client.post(reverse("player_hide", args=[player.pk]), {"hidden": "true"})
    assert posted.status_code == {200: 302}.get(status, status)
    assert Player.objects.get(pk=player.pk).hidden_from_leaderboards is (status == 200)


@pytest.mark.parametrize(("who", "status"), [("owner", 302), ("member", 403), ("outsider", 404)])
def test_who_may_anonymise(request, players, who, status):
    client = client_for(request.getfixturevalue(who))
    data = {"confirm": "Bruno", "idempotency_key": "anonymise-bruno"}
    assert client.post(reverse("player_anonymise", args=[players[1].pk]), data).status_code == status
    assert (Player.objects.get(pk=players[1].pk).name == "Bruno") is (status != 302)


def test_the_services_refuse_a_member_and_a_player_of_another_group(group, players, owner, member):
    with pytest.raises(privacy.NotAllowed):
        anonymise(players[1], by=member)
    with pytest.raises(privacy.NotAllowed):
        hide(players[1], by=member)
    other = services.create_group(owner=owner, name="Friday table")
    with pytest.raises(RuleError) as refused:
        privacy.anonymise_player(group=other, player=players[1], by=owner)
    assert refused.value.field == "player"
    assert refused.value.message == "Bruno is not a player of Friday table."
    with pytest.raises(RuleError):
        privacy.set_hidden_from_leaderboards(group=other, player=players[1], hidden=True, by=owner)
    assert Player.objects.get(pk=players[1].pk).name == "Bruno"
    assert not Player.objects.get(pk=players[1].pk).hidden_from_leaderboards


def test_the_owner_of_another_group_is_refused_by_the_service(group, players, outsider):
    services.create_group(owner=outsider, name="Elsewhere")
    with pytest.raises(privacy.NotAllowed):
        anonymise(players[1], by=outsider)


def test_only_the_owner_or_the_player_s_own_account_sees_the_privacy_link(group, players, owner, member):
    services.create_player(group=group, name="Milo", user=member)
    owner_page = client_for(owner).get(reverse("group", args=[group.pk])).content.decode()
    member_page = client_for(member).get(reverse("group", args=[group.pk])).content.decode()
    assert owner_page.count("/privacy/") == 5
    milo = Player.objects.get(name="Milo")
    assert member_page.count("/privacy/") == 1
    assert reverse("player_privacy", args=[milo.pk]) in member_page


# --- the export --------------------------------------------------------------------------------


def test_the_export_holds_everything_about_the_player_and_nothing_of_the_others(played, players, owner_client):
    ada = players[0]
    response = owner_client.get(reverse("player_export", args=[ada.pk]))
    assert response["Content-Disposition"].startswith('attachment; filename="thursday-table-ada-')
    assert response["Cache-Control"] == "private, no-store"
    document = json.loads(response.content)
    assert document["format"] == "babel-companion/player"
    assert document["player"]["name"] == "Ada"
    assert document["group"]["name"] == "Thursday table"
    assert len(document["results"]) == len(document["seats"]) == 7
    first = document["results"][0]
    assert {"session", "game", "date", "finished_at", "rank", "score", "breakdown"} <= first.keys()
    assert (first["rank"], first["score"], first["date"]) == (1, 40, "2026-11-19")
    assert {row["game"] for row in document["ratings"]} == {"", "tower-of-babel", "babel-on"}
    assert len(document["rating_history"]) == 7
    assert document["rating_history"][0]["session"] == first["session"]
    assert sum(row["plays"] for row in document["months"] if row["game"] == "tower-of-babel") == 6
    for other in ("Bruno", "Chiara", "Dieter"):
        assert other not in response.content.decode()


def test_the_export_names_imported_plays_phones_and_moves(group, night, players, owner):
    ada = players[0]
    services.create_session(night=night, game="tower-of-babel", players=players[:3], secret="1")
    session = night.sessions.get()
    services.append_event(session_id=session.pk, expected_version=0, type="session.abandon", author_label="Ada")
    code = services.create_join_code(night=night)
    GuestDevice.objects.create(night=night, join_code=code, player=ada)
    PlainResult.objects.create(
        group=group,
        source="bgstats",
        play="P1",
        game="Carcassonne",
        played_at=datetime.datetime(2026, 10, 1, 20, tzinfo=datetime.UTC),
        player=ada,
        score=12,
        rank=1,
        winner=True,
    )
    document = privacy.player_document(ada)
    assert document["plain_results"][0]["game"] == "Carcassonne"
    assert document["phones"][0]["night"] == night.pk
    assert document["phone_moves"] == [
        {"session": session.pk, "seq": 1, "type": "session.abandon", "at": document["phone_moves"][0]["at"]}
    ]


@pytest.mark.parametrize(("sessions", "people"), [(20, 4), (300, 12)])
def test_the_export_and_the_privacy_page_read_a_fixed_number_of_queries(
    owner_client, group, sessions, people, django_assert_max_num_queries
):
    """Twelve for the download (the session, the login, the player, then one a kind of row)
    and six for the page, at 20 games as at 300 (2,000 games: the same)."""
    generate(group=group, players=people, sessions=sessions)
    statistics.rebuild_group(group_id=group.pk)
    player = group.players.order_by("pk").first()
    for url, queries in (
        (reverse("player_export", args=[player.pk]), 12),
        (reverse("player_privacy", args=[player.pk]), 6),
    ):
        with django_assert_max_num_queries(queries):
            assert owner_client.get(url).status_code == 200


# --- anonymised --------------------------------------------------------------------------------


def everything_but_names(group):
    """Every result, rank, score, rating and statistic of the group, and the leaderboard's
    order by player id: what anonymising must not change."""
    return {
        "results": sorted(Result.objects.values_list("session_id", "player_id", "rank", "score", "breakdown")),
        "statistics": snapshot(),
        "leaderboards": [
            [(row.player_id, row.plays, row.wins, row.rating) for row in leaderboard(group, **filters)]
            for filters in ({}, {"order": "win_rate"}, {"game": "tower-of-babel"}, {"period": "year"})
        ],
    }


def test_anonymising_changes_no_result_rank_score_rating_or_leaderboard_order(played, players, owner):
    before = everything_but_names(played)
    done = anonymise(players[1], by=owner)
    assert done.label == "Player 1"
    assert everything_but_names(played) == before
    # And a rebuild from the results finds the same figures (nothing hangs on the name).
    statistics.rebuild_group(group_id=played.pk)
    assert everything_but_names(played) == before
    assert "Player 1" in names_on_the_leaderboard(played)
    assert "Bruno" not in names_on_the_leaderboard(played)


def test_anonymising_removes_the_name_from_everything_kept(group, night, players, owner, member):
    bruno = Player.objects.get(pk=players[1].pk)
    Player.objects.filter(pk=bruno.pk).update(user=member)
    session = play(night, players[:3], [30, 40, 20])
    other = services.create_session(night=night, game="tower-of-babel", players=players[:3], secret="2")
    services.append_event(session_id=other.pk, expected_version=0, type="session.abandon", author_label="Bruno")
    by_the_host = SessionEvent.objects.filter(session=other).first()
    code = services.create_join_code(night=night)
    holding = GuestDevice.objects.create(night=night, join_code=code, player=bruno)
    asking = GuestDevice.objects.create(night=night, join_code=code, requested=bruno)
    GameNight.objects.filter(pk=night.pk).update(notes="Bruno brought the cubes; Brunonia did not.")
    WriteReceipt.objects.create(
        user=owner, key="removed", result={"removed": {"name": "Bruno", "group_id": group.pk, "deleted": False}}
    )
    LogEntry.objects.create(
        user=owner,
        content_type=ContentType.objects.get_for_model(Player),
        object_id=str(bruno.pk),
        object_repr="Bruno",
        action_flag=CHANGE,
    )
    anonymise(bruno, by=owner)
    bruno.refresh_from_db()
    assert (bruno.name, bruno.user, bruno.anonymised_at is not None) == ("Player 1", None, True)
    by_the_host.refresh_from_db()
    assert by_the_host.author_label == "Player 1"
    assert GuestDevice.objects.get(pk=holding.pk).player is None
    assert GuestDevice.objects.get(pk=asking.pk).requested is None
    assert GameNight.objects.get(pk=night.pk).notes == "Player 1 brought the cubes; Brunonia did not."
    assert WriteReceipt.objects.get(key="removed").result["removed"]["name"] == "Player 1"
    assert LogEntry.objects.get(object_id=str(bruno.pk)).object_repr == "Player 1"
    assert "Bruno" not in json.dumps(group_document(group)).replace("Brunonia", "")
    client = client_for(member)
    for url in (
        reverse("play_log", args=[group.pk]),
        reverse("session", args=[session.pk]),
        reverse("session", args=[other.pk]),
        reverse("group", args=[group.pk]),
        reverse("night", args=[night.pk]),
    ):
        page = client.get(url).content.decode().replace("Brunonia", "")
        assert "Bruno" not in page, url


def test_the_labels_are_numbered_in_the_group_and_skip_names_it_has(group, players, owner):
    services.create_player(group=group, name="player 2")
    assert anonymise(players[0], by=owner).label == "Player 1"
    assert anonymise(players[1], by=owner).label == "Player 3"  # "player 2" is someone's name
    other = services.create_group(owner=owner, name="Friday table")
    newcomer = services.create_player(group=other, name="Ada")
    assert anonymise(newcomer, by=owner).label == "Player 1"  # another group counts its own


def test_a_player_is_anonymised_once(players, owner):
    anonymise(players[1], by=owner)
    with pytest.raises(RuleError) as refused:
        anonymise(Player.objects.get(pk=players[1].pk), by=owner)
    assert refused.value.message == "Player 1 is anonymised already."


def test_a_player_in_an_open_game_is_not_anonymised(session, players, owner):
    with pytest.raises(RuleError) as refused:
        anonymise(players[0], by=owner)
    assert "Finish or abandon" in refused.value.message
    assert Player.objects.get(pk=players[0].pk).name == "Ada"


def test_the_confirmation_says_it_cannot_be_undone(owner_client, played, players):
    page = owner_client.get(reverse("player_privacy", args=[players[1].pk])).content.decode()
    assert "This cannot be undone." in page
    assert "Bruno becomes “Player 1”" in page
    assert "Their 6 results stay exactly as they were" in page


def test_a_wrong_name_is_refused_and_kept_as_typed(owner_client, players):
    url = reverse("player_anonymise", args=[players[1].pk])
    response = owner_client.post(url, {"confirm": "Brun0", "idempotency_key": "typo"})
    page = response.content.decode()
    assert response.status_code == 400
    assert 'value="Brun0"' in page
    assert "Type “Bruno” as it is written here to confirm." in page
    assert Player.objects.get(pk=players[1].pk).name == "Bruno"


def test_a_refusal_of_the_service_shows_on_the_form_as_typed(owner_client, session, players):
    response = owner_client.post(
        reverse("player_anonymise", args=[players[0].pk]), {"confirm": "ada", "idempotency_key": "open"}
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert 'value="ada"' in page
    assert "Finish or abandon the game Ada is playing first" in page


def test_a_second_tap_answers_as_the_first(owner_client, players):
    url = reverse("player_anonymise", args=[players[1].pk])
    data = {"confirm": "Bruno", "idempotency_key": "twice"}
    first = owner_client.post(url, data)
    second = owner_client.post(url, data)  # the name typed is no longer the player's
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"] == reverse("player_privacy", args=[players[1].pk])
    page = owner_client.get(second["Location"]).content.decode()
    assert "Anonymised: this player is Player 1 now, everywhere." in page
    assert 'data-testid="anonymised"' in page
    assert Player.objects.filter(group=players[1].group, anonymised_at__isnull=False).count() == 1


def test_a_player_who_anonymises_themselves_lands_on_the_group_page(group, member):
    milo = services.create_player(group=group, name="Milo", user=member)
    response = client_for(member).post(
        reverse("player_anonymise", args=[milo.pk]), {"confirm": "Milo", "idempotency_key": "me"}
    )
    assert response["Location"] == reverse("group", args=[group.pk])
    assert Player.objects.get(pk=milo.pk).user is None


def test_every_form_of_the_privacy_page_carries_the_csrf_token(players, owner):
    client = client_for(owner)
    client.handler.enforce_csrf_checks = True
    assert client.post(reverse("player_anonymise", args=[players[1].pk]), {"confirm": "Bruno"}).status_code == 403
    assert client.post(reverse("player_hide", args=[players[1].pk]), {"hidden": "true"}).status_code == 403
    page = client.get(reverse("player_privacy", args=[players[1].pk])).content.decode()
    for action in (reverse("player_hide", args=[players[1].pk]), reverse("player_anonymise", args=[players[1].pk])):
        form = page.split(f'action="{action}')[1].split("</form>")[0]
        assert 'name="csrfmiddlewaretoken"' in form
    assert Player.objects.get(pk=players[1].pk).name == "Bruno"
