"""BG Stats: importing its JSON export into a group (no duplicates on a second import) and the
"push play" link of a finished session."""

import datetime
import json
from urllib.parse import unquote

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from scoring.errors import RuleError
from sessions import services
from sessions.api.tokens import create_api_token
from sessions.importexport.bgstats import PUSH_URL, import_plays, push_play_url
from sessions.models import GameSession, PlainResult, Player, Result
from tests.conftest import finish_with_scores


def score(ref, points, *, seat, winner=False, rank=0):
    return {"playerRefId": ref, "score": points, "winner": winner, "rank": rank, "seatOrder": seat, "newPlayer": False}


def export():
    """A BG Stats export as the app writes it (trimmed to the fields it always has)."""
    return {
        "userInfo": {"meRefId": 1},
        "players": [
            {"id": 1, "name": "ada", "uuid": "P-1", "isAnonymous": False},
            {"id": 2, "name": "Bruno", "uuid": "P-2", "isAnonymous": False},
            {"id": 3, "name": "Chiara", "uuid": "P-3", "isAnonymous": False},
            {"id": 4, "name": "Zoe", "uuid": "P-4", "isAnonymous": False},
        ],
        "locations": [{"id": 1, "name": "Ada's", "uuid": "L-1"}],
        "games": [
            {"id": 10, "name": "Tower of Babel", "uuid": "G-10", "bggId": 0},
            {"id": 11, "name": "Carcassonne", "uuid": "G-11", "bggId": 822},
            {"id": 12, "name": "7 Wonders: Babel", "uuid": "G-12", "bggId": 0},
            {"id": 13, "name": "Babel On!", "uuid": "G-13", "bggId": 0},
        ],
        "plays": [
            {
                "uuid": "PLAY-1",
                "gameRefId": 10,
                "playDate": "2026-10-02 21:15:00",
                "locationRefId": 1,
                "ignored": False,
                "playerScores": [
                    score(2, "80", seat=2),
                    score(1, "92", seat=1, winner=True, rank=1),
                    score(3, "92", seat=3, winner=True, rank=1),
                ],
            },
            {
                "uuid": "PLAY-2",
                "gameRefId": 11,
                "playDate": "2026-10-02 22:30:00",
                "locationRefId": 1,
                "ignored": False,
                "playerScores": [score(1, "31", seat=1, winner=True), score(4, "27", seat=2)],
            },
            {
                "uuid": "PLAY-3",
                "gameRefId": 12,
                "playDate": "2026-10-09 20:00:00",
                "locationRefId": None,
                "ignored": False,
                "playerScores": [score(4, "", seat=1, rank=2), score(2, "", seat=2, rank=1, winner=True)],
            },
            {
                "uuid": "PLAY-4",
                "gameRefId": 10,
                "playDate": "2026-10-09 21:00:00",
                "ignored": False,
                "playerScores": [score(1, "40", seat=1), score(2, "50", seat=2, winner=True)],
            },
            {
                "uuid": "PLAY-5",
                "gameRefId": 13,
                "playDate": "2026-10-10 20:00:00",
                "ignored": True,
                "playerScores": [score(1, "", seat=1, winner=True), score(2, "", seat=2)],
            },
            {
                "uuid": "PLAY-6",
                "gameRefId": 13,
                "playDate": "2026-10-11 20:00:00",
                "ignored": False,
                "playerScores": [score(3, None, seat=1), score(1, None, seat=2, winner=True)],
            },
        ],
    }


@pytest.fixture
def ada(group):
    return services.create_player(group=group, name="Ada")


def results_by_session(group):
    rows = Result.objects.filter(session__group=group).select_related("player", "session")
    found = {}
    for r in rows:
        found.setdefault(r.session.game, set()).add((r.player.name, r.score, r.rank))
    return found


def test_plays_of_our_games_become_finished_sessions_with_their_scores_and_ranks(group, ada, owner):
    report = import_plays(group=group, document=export(), user=owner)
    assert len(report.sessions) == 3
    assert sorted(report.players) == ["Bruno", "Chiara", "Zoe"]  # "ada" is our Ada
    assert results_by_session(group) == {
        "tower-of-babel": {("Ada", 92, 1), ("Chiara", 92, 1), ("Bruno", 80, 3)},
        "seven-wonders": {("Zoe", None, 2), ("Bruno", None, 1)},  # no scores: the ranks
        "babel-on": {("Chiara", None, 2), ("Ada", None, 1)},  # no scores or ranks: the winner
    }
    tower = GameSession.objects.get(group=group, game="tower-of-babel")
    assert [seat.player.name for seat in tower.seats.all()] == ["Ada", "Bruno", "Chiara"]  # seatOrder
    assert tower.status == "finished"
    assert tower.finished_at == datetime.datetime(2026, 10, 2, 21, 15, tzinfo=datetime.UTC)
    assert (tower.night.date, tower.night.place) == (datetime.date(2026, 10, 2), "Ada's")
    assert tower.events.first().author_label == "BG Stats"


def test_importing_the_same_export_again_adds_nothing(group, ada, owner):
    import_plays(group=group, document=export(), user=owner)
    sessions, players, results = GameSession.objects.count(), Player.objects.count(), Result.objects.count()
    again = import_plays(group=group, document=export(), user=owner)
    assert again.sessions == []
    assert again.players == []
    assert again.already_there == 4  # three sessions and the play of another game
    assert (GameSession.objects.count(), Player.objects.count(), Result.objects.count()) == (
        sessions,
        players,
        results,
    )


def test_a_later_export_adds_only_the_new_plays(group, owner):
    import_plays(group=group, document=export(), user=owner)
    later = export()
    later["plays"].append({**later["plays"][0], "uuid": "PLAY-7", "playDate": "2026-11-01 20:00:00"})
    report = import_plays(group=group, document=later, user=owner)
    assert len(report.sessions) == 1
    assert GameSession.objects.filter(group=group, game="tower-of-babel").count() == 2


def test_plays_of_other_games_are_kept_as_plain_results_and_not_made_sessions(group, owner):
    report = import_plays(group=group, document=export(), user=owner)
    assert [(p.uuid, p.game) for p in report.other_games] == [("PLAY-2", "Carcassonne")]
    plain = report.other_games[0]
    assert [(s.player, s.score, s.winner) for s in plain.scores] == [("ada", 31, True), ("Zoe", 27, False)]
    assert not GameSession.objects.filter(game="carcassonne").exists()
    kept = PlainResult.objects.filter(group=group).select_related("player").order_by("-winner")
    assert [(r.game, r.player.name, r.score, r.winner) for r in kept] == [
        ("Carcassonne", "ada", 31, True),
        ("Carcassonne", "Zoe", 27, False),
    ]
    again = import_plays(group=group, document=export(), user=owner)
    assert (again.other_games, again.already_there) == ([], 4)
    assert PlainResult.objects.filter(group=group).count() == 2


def test_a_play_against_our_rules_is_reported_and_the_rest_imported(group, owner):
    report = import_plays(group=group, document=export(), user=owner)
    assert report.refused == [("PLAY-4", "Tower of Babel is played by 3 to 5 players. (rule TB-1)")]
    assert report.ignored == 1


def test_a_file_that_is_not_a_bg_stats_export_is_refused(group, owner):
    with pytest.raises(RuleError) as refused:
        import_plays(group=group, document={"players": []}, user=owner)
    assert refused.value.field == "games"
    assert not GameSession.objects.exists()


def test_a_name_over_the_limit_is_refused_naming_it_never_cut(group, owner):
    document = export()
    long_name = "Bartholomew Alexander Fitzgerald-Montgomery"  # 43 characters
    document["players"][1]["name"] = long_name
    with pytest.raises(RuleError) as refused:
        import_plays(group=group, document=document, user=owner)
    assert refused.value.field == "players[1].name"
    assert refused.value.params == {"limit": 40, "value": long_name, "count": 43}
    assert not Player.objects.filter(name__startswith="Bartholomew").exists()
    assert not GameSession.objects.exists()


@pytest.mark.parametrize(("who", "status"), [("owner_client", 200), ("member_client", 403), ("outsider_client", 404)])
def test_the_import_page_is_for_the_owner(request, group, who, status):
    assert request.getfixturevalue(who).get(f"/g/{group.pk}/import/bgstats/").status_code == status


def test_the_import_page_reports_what_it_did(owner_client, group):
    upload = SimpleUploadedFile("BGStatsExport.json", json.dumps(export()).encode())
    page = owner_client.post(f"/g/{group.pk}/import/bgstats/", {"file": upload}).content.decode()
    assert "3 new sessions" in page
    assert "1 play of another game is not kept yet" in page
    assert "1 play could not be recorded" in page


def api_for(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_api_token(user=user, name='tests')[1]}")
    return client


@pytest.mark.parametrize(("who", "status"), [("owner", 200), ("member", 403), ("outsider", 404)])
def test_the_api_import_is_for_the_owner(request, group, who, status):
    response = api_for(request.getfixturevalue(who)).post(
        f"/api/v1/groups/{group.pk}/import/bgstats/", export(), format="json"
    )
    assert response.status_code == status
    assert GameSession.objects.exists() is (status == 200)
    if status == 200:
        assert response.json()["other_games"] == 1
        assert response.json()["refused"] == [
            {"uuid": "PLAY-4", "reason": "Tower of Babel is played by 3 to 5 players. (rule TB-1)"}
        ]


@pytest.fixture
def finished(session):
    finish_with_scores(session, [70, 82, 70])
    return session


def pushed(url):
    assert url.startswith(PUSH_URL)
    return json.loads(unquote(url[len(PUSH_URL) :]))


def test_the_push_play_link_carries_the_game_players_scores_and_winner(finished):
    data = pushed(push_play_url(finished))
    assert data["sourceName"] == "Babel Companion"
    assert data["sourcePlayId"] == f"babel-companion-session-{finished.pk}"
    assert data["game"]["name"] == "Tower of Babel"
    assert data["game"]["noPoints"] is False
    assert data["location"] == "Ada's"
    assert data["playDate"] == finished.finished_at.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S")
    assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in data["players"]] == [
        ("Ada", 70, 2, False),
        ("Bruno", 82, 1, True),
        ("Chiara", 70, 2, False),
    ]


def test_the_finished_session_page_offers_the_push_play_link(member_client, finished):
    page = member_client.get(f"/s/{finished.pk}/").content.decode()
    assert 'href="bgstats://app.bgstatsapp.com/createPlay.html?data=' in page
    assert "Add this play to BG Stats" in page


def test_an_open_session_has_no_push_play_link(member_client, session):
    assert push_play_url(session) is None
    assert "bgstats://" not in member_client.get(f"/s/{session.pk}/").content.decode()


def test_finishing_with_htmx_shows_the_push_play_link_at_once(member_client, session):
    keys = [seat.key for seat in session.seats.all()]
    services.append_event(
        session_id=session.pk, expected_version=0, type="scores.record", payload={"scores": dict.fromkeys(keys, 5)}
    )
    response = member_client.post(f"/s/{session.pk}/do/finish/", {"expected_version": 1}, HTTP_HX_REQUEST="true")
    assert "<html" not in response.content.decode()  # the session region alone
    assert "Add this play to BG Stats" in response.content.decode()


def test_the_play_log_marks_the_plays_of_other_games(member_client, group, owner, django_assert_max_num_queries):
    import_plays(group=group, document=export(), user=owner)
    with django_assert_max_num_queries(10):
        page = member_client.get(f"/g/{group.pk}/log/").content.decode()
    plays = page.split('data-testid="play"')[1:]
    (other,) = [play for play in plays if "Carcassonne" in play]
    assert "other game" in other
    assert "31" in other
    tracked = [play for play in plays if "Tower of Babel" in play]
    assert tracked
    assert all("other game" not in play for play in tracked)
