"""A real BG Stats export is imported, not refused (issue 42, point 4): its anonymous players
(``isAnonymous``, several per file, all "Anonymous player") take an "Anonymous" seat in each
play, two of its players with one name are "Dan" and "Dan (2)", and the report says both. What
is really broken is still refused.

tests/fixtures/bgstats_anonymous_and_namesakes.json is such an export: three anonymous players,
two Dans (both at the first table), two anonymous players at one table, and one anonymous
player entered twice at another.
"""

import copy
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from scoring.errors import RuleError
from sessions import services
from sessions.importexport.bgstats import import_plays
from sessions.models import GameSession, PlainResult, Player
from tests.test_bgstats import api_for

EXPORT = json.loads((Path(__file__).parent / "fixtures" / "bgstats_anonymous_and_namesakes.json").read_text())


def document():
    return copy.deepcopy(EXPORT)


def tables(group):
    """Each session's seats in order, as (name, score, rank)."""
    found = []
    for session in GameSession.objects.filter(group=group).order_by("created_at"):
        results = {r.player_id: r for r in session.results.all()}
        found.append(
            [(s.player.name, results[s.player_id].score, results[s.player_id].rank) for s in session.seats.all()]
        )
    return found


def test_the_export_with_anonymous_players_and_two_dans_is_imported(group, owner):
    report = import_plays(group=group, document=document(), user=owner)
    assert report.refused == []
    assert len(report.sessions) == 3
    assert [plain.game for plain in report.other_games] == ["Carcassonne"]
    assert report.players == ["Ada", "Dan", "Dan (2)", "Anonymous", "Anonymous (2)", "Chiara"]
    assert report.renamed == [("Dan", "Dan (2)")]
    assert report.anonymous == 6  # 1 + 2 at the towers, 1 at Carcassonne, 2 at 7 Wonders
    assert tables(group) == [
        [("Ada", 81, 2), ("Dan", 95, 1), ("Dan (2)", 77, 3), ("Anonymous", 60, 4)],
        [("Dan (2)", 102, 1), ("Anonymous", 88, 2), ("Anonymous (2)", 70, 3)],
        # The same anonymous player entered twice: two seats, ranked as the file ranks them.
        [("Chiara", None, 1), ("Anonymous", None, 2), ("Anonymous (2)", None, 3), ("Dan", None, 4)],
    ]
    kept = PlainResult.objects.filter(group=group).order_by("-score")
    assert [(r.player.name, r.score) for r in kept] == [("Ada", 31), ("Anonymous", 27), ("Dan", 22)]


def test_importing_it_again_finds_the_same_players_and_adds_nothing(group, owner):
    import_plays(group=group, document=document(), user=owner)
    players = sorted(group.players.values_list("name", flat=True))
    again = import_plays(group=group, document=document(), user=owner)
    assert (again.sessions, again.players, again.renamed, again.anonymous) == ([], [], [], 0)
    assert again.already_there == 4
    assert sorted(group.players.values_list("name", flat=True)) == players


def test_a_later_play_of_the_second_dan_seats_the_same_dan_2(group, owner):
    import_plays(group=group, document=document(), user=owner)
    later = document()
    later["plays"].append({**copy.deepcopy(later["plays"][1]), "uuid": "later", "playDate": "2026-10-02 20:00:00"})
    report = import_plays(group=group, document=later, user=owner)
    assert report.players == []
    assert report.renamed == [("Dan", "Dan (2)")]
    assert tables(group)[-1][0] == ("Dan (2)", 102, 1)


def test_the_groups_dan_is_the_first_dan_of_the_file(group, owner):
    dan = services.create_player(group=group, name="DAN")
    report = import_plays(group=group, document=document(), user=owner)
    assert "DAN" not in report.players
    assert "Dan (2)" in report.players
    assert tables(group)[0][1] == ("DAN", 95, 1)
    assert Player.objects.filter(group=group, name__iexact="dan").get() == dan


def test_names_equal_in_case_or_look_alike_are_kept_apart_too(group, owner):
    changed = document()
    changed["players"][5]["name"] = "ADA"  # Chiara's entry: another Ada
    changed["players"][3]["name"] = "D\u0430n"  # the second Dan, with a Cyrillic a
    report = import_plays(group=group, document=changed, user=owner)
    assert report.renamed == [("D\u0430n", "D\u0430n (2)"), ("ADA", "ADA (2)")]
    assert "ADA (2)" in report.players
    assert report.refused == []


def test_a_player_of_the_file_called_anonymous_keeps_the_name(group, owner):
    changed = document()
    changed["players"][5]["name"] = "Anonymous"  # Chiara
    import_plays(group=group, document=changed, user=owner)
    assert tables(group)[2][:3] == [("Anonymous", None, 1), ("Anonymous (2)", None, 2), ("Anonymous (3)", None, 3)]


def test_the_page_and_the_api_report_the_anonymous_seats_and_the_numbered_names(owner, owner_client, group):
    upload = SimpleUploadedFile("BGStatsExport.json", json.dumps(document()).encode())
    page = owner_client.post(f"/g/{group.pk}/import/bgstats/", {"file": upload}).content.decode()
    assert "6 seats of anonymous players are “Anonymous” seats" in page
    assert "Two players of the file are called Dan: the second one is Dan (2) here" in page
    changed = document()
    for play in changed["plays"]:
        play["uuid"] += "-api"
    body = api_for(owner).post(f"/api/v1/groups/{group.pk}/import/bgstats/", changed, format="json").json()
    assert body["anonymous"] == 6
    assert body["renamed"] == [{"name": "Dan", "renamed": "Dan (2)"}]


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda d: d["plays"][0]["playerScores"][1].update(playerRefId=99), "unknown player"),
        (lambda d: d["plays"][0]["playerScores"][1].update(playerRefId=1), "Ada seated twice"),
        (lambda d: d["plays"][0].update(playerScores=[]), "no players"),
    ],
)
def test_a_broken_play_is_still_refused_and_the_rest_imported(group, owner, change, why):
    changed = document()
    change(changed)
    report = import_plays(group=group, document=changed, user=owner)
    assert report.refused == [(EXPORT["plays"][0]["uuid"], "The play's players are missing or named twice.")]
    assert len(report.sessions) == 2


def test_a_file_that_is_not_a_bg_stats_export_is_still_refused(group, owner):
    changed = document()
    del changed["plays"]
    with pytest.raises(RuleError) as refused:
        import_plays(group=group, document=changed, user=owner)
    assert refused.value.field == "plays"
    assert not group.players.exists()
