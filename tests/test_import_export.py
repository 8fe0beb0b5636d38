"""Export a group as JSON and its results as CSV; import the JSON back (round trip)."""

import copy
import csv
import datetime
import io
import json

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from scoring.errors import RuleError
from scoring.seven_wonders import engine as sw
from scoring.seven_wonders.data import markers_for
from scoring.tower_of_babel import engine as tob
from sessions import services
from sessions.importexport.export import group_document, group_json_chunks, results_csv
from sessions.importexport.importer import import_group
from sessions.importexport.sealed import unseal
from sessions.importexport.seats import payload_with_new_seats
from sessions.models import (
    GameNight,
    GameSession,
    Group,
    Membership,
    PlainResult,
    Player,
    PlayerRating,
    Result,
    Seat,
    SessionEvent,
)
from sessions.statistics.services import rebuild_group
from tests.conftest import finish_with_scores


def tower_of_babel_to_the_end(session, user):
    """A whole Tower of Babel game: first player, every disc built alone, then final scoring."""

    def send(type, payload=None):
        session.refresh_from_db()
        services.append_event(
            session_id=session.pk, expected_version=session.version, type=type, payload=payload or {}, author=user
        )

    send("session.start")
    send(tob.FIRST_PLAYER, {"seat": session.seats.first().key})
    session.refresh_from_db()
    while not session.state["game"]["over"]:
        game = session.state["game"]
        wonder = next(w for w, v in game["wonders"].items() if v["discs"])
        disc = game["wonders"][wonder]["discs"][0]
        send(tob.BUILD, {"wonder": wonder, "disc": disc, "own": game["discs"][disc]["demand"]})
        session.refresh_from_db()
    send("session.finish")


def seven_wonders_to_the_end(session):
    """A whole 7 Wonders: Babel game: the tile draft, three ages with Great Projects, the sheets."""

    def send(type, **payload):
        session.refresh_from_db()
        services.append_event(session_id=session.pk, expected_version=session.version, type=type, payload=payload)
        session.refresh_from_db()
        return session.state["game"]

    send("session.start")
    state = session.state["game"]
    seats = state["seats"]
    for _step in (1, 2):
        for seat in seats:
            state = send(sw.DRAFT_PICK, seat=seat, tile=min(state["hands"][seat]))
    for age in (1, 2, 3):
        builder = seats[age % len(seats)]
        built = {tile for _seat, tile in state["built"]}
        state = send(sw.BUILD_TILES, tiles={builder: next(t for t in state["tiles"][builder] if t not in built)})
        for seat in seats[: markers_for(len(seats))]:
            state = send(sw.PARTICIPATE, seat=seat)
        state = send(sw.END_AGE)
    for index, seat in enumerate(seats):
        send(sw.SHEET, seat=seat, sheet={"coins": index, "civilian": 10 + index})
    send("session.finish")


def babel_on_a_few_turns(session):
    """Set-up, a roll-off, a draw and an opponent's tower knocked over: seats in every payload."""
    seats = [seat.key for seat in session.seats.all()]
    a, b, c = seats
    for event_type, payload in [
        ("session.start", {}),
        ("bo.setup", {"colours": {a: "red", b: "blue", c: "green"}}),
        ("bo.rolloff", {"rolls": {a: 6, b: 1, c: 2}}),
        ("bo.roll", {"call": "even", "roll": 2}),
        (
            "bo.draw",
            {"blocks": [{"colour": "red", "floor": 1, "cell": "nw"}, {"colour": "blue", "floor": 1, "cell": "ne"}]},
        ),
        ("bo.knock", {"seat": b, "tower": a}),
    ]:
        session.refresh_from_db()
        services.append_event(session_id=session.pk, expected_version=session.version, type=event_type, payload=payload)


@pytest.fixture
def full_group(owner, group, players, night, session):
    """Every kind of thing a group holds: a played-out Tower of Babel game with its log, a 7
    Wonders session with tie-breaks and options, an open session, an abandoned one, a rename,
    a second night, an edition table and a player who never played."""
    tower_of_babel_to_the_end(session, owner)
    later = services.create_night(group=group, date=datetime.date(2026, 11, 26), place="=Bruno's", notes="bring dice")
    wonders = services.create_session(
        night=later, game="seven-wonders", players=players, options={"leaders": True}, secret="b"
    )
    finish_with_scores(wonders, [61, 58, 61, 49], tiebreaks=[4, 9, 7, 2])
    babel_on_a_few_turns(
        services.create_session(night=later, game="babel-on", players=players[:3], colours=["red", "blue", "green"])
    )
    dropped = services.create_session(night=later, game="babel-cubes", players=players[2:], secret="5")
    services.append_event(session_id=dropped.pk, expected_version=0, type="session.abandon")
    seven_wonders_to_the_end(
        services.create_session(night=later, game="seven-wonders", players=players[:3], secret="4")
    )
    for player, score in [(players[0], 31), (players[1], 27)]:
        PlainResult.objects.create(
            group=group,
            source="bgstats",
            play="PLAY-2",
            game="Carcassonne",
            played_at=datetime.datetime(2026, 10, 1, 20, tzinfo=datetime.UTC),
            player=player,
            score=score,
            rank=1 if score == 31 else 2,
            winner=score == 31,
        )
    services.rename_player(player=players[3], name="Dieter K.")
    services.create_player(group=group, name="Élodie")
    return group


def opened(document):
    """The document with its open sessions unsealed (a seal is new each time)."""
    sessions = [unseal(s["sealed"]) if "sealed" in s else s for s in document["sessions"]]
    return {**copy.deepcopy(document), "sessions": copy.deepcopy(sessions)}


def without_ids(document):
    """The document with its ids replaced by their position, so two exports compare."""
    document = opened(document)
    players = {p["id"]: index for index, p in enumerate(document["players"])}
    nights = {n["id"]: index for index, n in enumerate(document["nights"])}
    seat_keys = {str(old): f"P{new}" for old, new in players.items()}
    for p in document["players"]:
        p["id"] = players[p["id"]]
    for n in document["nights"]:
        n["id"] = nights[n["id"]]
    for row in document["plain_results"]:
        row["player"] = players[row["player"]]
    for index, s in enumerate(document["sessions"]):
        s["id"] = index
        s["night"] = nights[s["night"]]
        for row in s["seats"] + s["results"]:
            row["player"] = players[row["player"]]
        for event in s["events"]:
            event["payload"] = payload_with_new_seats(event["type"], event["payload"], seat_keys)
    return document


def wipe():
    for model in [PlainResult, Result, Seat, SessionEvent, GameSession, Player, GameNight, Membership, Group]:
        model.objects.all().delete()


def statistics():
    return sorted(
        (r.player.name, r.session.game, r.session.night.date, r.score, r.rank)
        for r in Result.objects.select_related("player", "session__night")
    )


def test_exporting_then_importing_into_an_empty_instance_gives_the_same_group(full_group, owner):
    exported = json.loads(json.dumps(group_document(full_group)))
    before = statistics()
    wipe()
    imported = import_group(owner=owner, document=exported)
    assert Membership.objects.get(group=imported).user == owner
    again = group_document(imported)
    # New ids even where the old ones are free: an import never chooses an id.
    assert {p["id"] for p in again["players"]}.isdisjoint({p["id"] for p in exported["players"]})
    assert without_ids(again) == without_ids(exported)
    assert statistics() == before
    for session in GameSession.objects.all():
        assert session.state == _replayed(session)


def _replayed(session):
    from sessions.selectors import replayed_state

    return replayed_state(session)


def ratings(group):
    """The group's statistics as the statistics rebuild computes them from its Results."""
    rebuild_group(group_id=group.pk)
    rows = PlayerRating.objects.filter(player__group=group).select_related("player")
    return sorted((r.player.name, r.game, r.mu, r.sigma, r.plays, r.wins, r.last_played) for r in rows)


def test_the_imported_group_has_the_same_statistics(full_group, owner, outsider):
    exported = json.loads(json.dumps(group_document(full_group)))
    before = ratings(full_group)
    assert len(before) > 5
    beside = import_group(owner=outsider, document=exported)
    assert ratings(beside) == before
    wipe()
    assert ratings(import_group(owner=owner, document=exported)) == before


def test_importing_beside_the_original_moves_the_logs_to_new_player_ids(full_group, outsider):
    exported = json.loads(json.dumps(group_document(full_group)))
    imported = import_group(owner=outsider, document=exported)
    again = group_document(imported)
    assert {p["id"] for p in again["players"]}.isdisjoint({p["id"] for p in exported["players"]})
    assert without_ids(again) == without_ids(exported)
    for session in imported.sessions.all():
        assert session.state == _replayed(session)
    originals = {(r.player.name, r.rank, r.score) for r in Result.objects.filter(session__group=full_group)}
    copies = {(r.player.name, r.rank, r.score) for r in Result.objects.filter(session__group=imported)}
    assert originals == copies


def test_an_imported_session_keeps_playing(full_group, outsider):
    imported = import_group(owner=outsider, document=group_document(full_group))
    open_one = imported.sessions.get(game="babel-on")
    outcome = services.append_event(
        session_id=open_one.pk, expected_version=open_one.version, type="bo.roll", payload={"call": "odd", "roll": 2}
    )
    assert outcome.session.version == open_one.version + 1
    assert outcome.session.state["game"]["active"] != open_one.state["game"]["active"]  # a miss: the turn passed


def test_a_tampered_result_refuses_the_whole_file(full_group, outsider):
    exported = group_document(full_group)
    exported["sessions"][1]["results"][0]["score"] += 1
    groups = Group.objects.count()
    with pytest.raises(RuleError) as refused:
        import_group(owner=outsider, document=exported)
    assert refused.value.field == "sessions[1].results"
    assert Group.objects.count() == groups


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(format="something-else"), "format"),
        (lambda d: d["players"].append({"id": d["players"][0]["id"], "name": "Twin"}), "players[5]"),
        (lambda d: d["sessions"][0]["seats"][0].update(player=999_999), "sessions[0].seats[0]"),
        (lambda d: d["sessions"][0].update(game="chess"), "sessions[0].game"),
        (lambda d: d["sessions"][0]["events"].pop(3), "sessions[0].events"),
        (lambda d: d["sessions"][0]["events"][2].update(type="drop_table"), "sessions[0].events"),
        (lambda d: d["nights"][0].update(date="soon"), "nights[0].date"),
    ],
)
def test_a_malformed_file_is_refused_naming_the_field(full_group, outsider, change, field):
    exported = json.loads(json.dumps(group_document(full_group)))
    change(exported)
    with pytest.raises(RuleError) as refused:
        import_group(owner=outsider, document=exported)
    assert refused.value.field == field
    assert not Group.objects.filter(memberships__user=outsider).exists()


def test_the_results_csv_has_one_row_per_player_and_finished_session(full_group):
    rows = list(csv.reader(io.StringIO(results_csv(full_group))))
    assert rows[0] == ["date", "place", "session", "game", "finished_at", "player", "rank", "score"]
    body = rows[1:]
    assert len(body) == 3 + 4 + 3
    by_session = {}
    for row in body:
        by_session.setdefault(row[2], []).append(row)
    assert sorted(len(rows) for rows in by_session.values()) == [3, 3, 4]
    wonders = next(rows for rows in by_session.values() if len(rows) == 4)
    assert [(row[5], row[6], row[7]) for row in wonders] == [
        ("Chiara", "1", "61"),
        ("Ada", "2", "61"),
        ("Bruno", "3", "58"),
        ("Dieter K.", "4", "49"),
    ]
    assert wonders[0][1] == "'=Bruno's"  # a spreadsheet must not run it as a formula


def test_the_streamed_json_is_the_same_document(full_group, group):
    streamed = json.loads("".join(group_json_chunks(full_group)))
    assert opened(streamed) == opened(json.loads(json.dumps(group_document(full_group))))
    empty = services.create_group(owner=User.objects.get(username="olga"), name="Empty")
    assert json.loads("".join(group_json_chunks(empty)))["sessions"] == []


def test_the_commands_export_and_import_a_group(full_group, tmp_path, outsider):
    target = tmp_path / "group.json"
    call_command("export_group", str(full_group.pk), "--output", str(target))
    out = io.StringIO()
    call_command("import_group", str(target), "--owner", outsider.username, stdout=out)
    imported = Group.objects.filter(memberships__user=outsider).get()
    assert f"#{imported.pk}" in out.getvalue()
    assert without_ids(group_document(imported)) == without_ids(json.loads(target.read_text()))


def test_the_import_command_names_the_wrong_field(tmp_path, outsider):
    target = tmp_path / "group.json"
    target.write_text(json.dumps({"format": "babel-companion/group", "version": 1}))
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="group"):
        call_command("import_group", str(target), "--owner", outsider.username)


def test_the_import_command_needs_an_existing_owner(tmp_path, db):
    from django.core.management.base import CommandError

    target = tmp_path / "group.json"
    target.write_text("{}")
    with pytest.raises(CommandError, match="nobody"):
        call_command("import_group", str(target), "--owner", "nobody")
    assert not User.objects.exists()


def test_the_plain_results_of_other_games_travel_with_the_group(full_group, outsider):
    imported = import_group(owner=outsider, document=group_document(full_group))
    rows = imported.plain_results.select_related("player").order_by("rank")
    assert [(r.game, r.player.name, r.score, r.winner) for r in rows] == [
        ("Carcassonne", "Ada", 31, True),
        ("Carcassonne", "Bruno", 27, False),
    ]
    assert {r.player.group_id for r in rows} == {imported.pk}


def test_a_plain_result_for_an_unknown_player_is_refused(full_group, outsider):
    document = group_document(full_group)
    document["plain_results"][0]["player"] = 999_999
    with pytest.raises(RuleError) as refused:
        import_group(owner=outsider, document=document)
    assert refused.value.field == "plain_results[0].player"


def test_an_id_too_large_for_the_database_is_refused_naming_it(full_group, outsider):
    document = group_document(full_group)
    document["players"][0]["id"] = 2**40
    with pytest.raises(RuleError) as refused:
        import_group(owner=outsider, document=document)
    assert refused.value.field == "players[0].id"
