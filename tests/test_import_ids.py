"""An import never chooses an id: every imported row gets a new one, and the seat keys in the
logs follow the players to theirs (issue 15, items 1, 5 and 13).

Every game makes the round trip: export, import into a fresh group, the imported sessions
replay to the same state (with the seats renamed) and keep playing.
"""

import datetime
import json
from unittest import mock

import pytest
from django.contrib.auth.models import User

from scoring import session as core
from scoring.babel_cubes.moves import legal_moves, position_of
from sessions import selectors, services
from sessions.api.filters import MAX_ID
from sessions.games import GAMES
from sessions.importexport.export import group_document
from sessions.importexport.importer import import_group
from sessions.importexport.seats import SEAT_FIELDS, WITHOUT_SEATS, payload_with_new_seats
from sessions.models import GameSession, Group, Player
from tests.test_import_export import babel_on_a_few_turns, seven_wonders_to_the_end, tower_of_babel_to_the_end


def relabelled(document, new_ids):
    """The export with its player ids replaced (``new_ids``: old id → new id), as another instance wrote it."""
    document = json.loads(json.dumps(document))
    keys = {str(old): str(new) for old, new in new_ids.items()}
    for player in document["players"]:
        player["id"] = new_ids[player["id"]]
    for row in document["plain_results"]:
        row["player"] = new_ids[row["player"]]
    for session in document["sessions"]:
        for row in session["seats"] + session["results"]:
            row["player"] = new_ids[row["player"]]
        for event in session["events"]:
            event["payload"] = payload_with_new_seats(event["type"], event["payload"], keys)
    return document


def send(session, kind, payload=None, **fields):
    session.refresh_from_db()
    services.append_event(session_id=session.pk, expected_version=session.version, type=kind, payload=payload or fields)
    session.refresh_from_db()


def scores_only(owner, names):
    group = services.create_group(owner=owner, name="Elsewhere")
    night = services.create_night(group=group, date=datetime.date(2026, 11, 5))
    people = [services.create_player(group=group, name=name) for name in names]
    session = services.create_session(night=night, game="tower-of-babel", players=people, secret="3")
    send(session, "scores.record", scores={str(p.pk): 10 * i for i, p in enumerate(people)})
    send(session, "session.finish")
    return group


def test_a_file_with_the_largest_player_id_leaves_the_ids_of_every_group_alone(owner, outsider):
    document = group_document(scores_only(owner, ["Ada", "Bruno", "Chiara"]))
    ids = [p["id"] for p in document["players"]]
    document = relabelled(document, dict(zip(ids, [MAX_ID, MAX_ID - 1, 7], strict=True)))
    imported = import_group(owner=outsider, document=document)
    assert MAX_ID not in set(imported.players.values_list("pk", flat=True))
    # A player added afterwards, in any group, still has an id the API takes.
    later = services.create_player(group=Group.objects.exclude(pk=imported.pk).first(), name="Later")
    assert later.pk == max(imported.players.values_list("pk", flat=True)) + 1  # the sequence went on
    client_session = imported.sessions.get()
    assert client_session.state == selectors.replayed_state(client_session)
    assert sorted(r.score for r in client_session.results.all()) == [0, 10, 20]


def test_the_same_file_imported_twice_gives_two_groups_with_their_own_ids(owner, outsider):
    document = group_document(scores_only(owner, ["Ada", "Bruno", "Chiara"]))
    first = import_group(owner=outsider, document=document)
    second = import_group(owner=outsider, document=document)
    mine = set(first.players.values_list("pk", flat=True))
    assert mine.isdisjoint(second.players.values_list("pk", flat=True))
    assert mine.isdisjoint(p["id"] for p in document["players"])


def test_every_event_type_of_every_game_is_known_to_the_seat_table():
    every = set().union(*(spec.rules.event_types() for spec in GAMES.values()))
    assert every <= set(SEAT_FIELDS) | WITHOUT_SEATS
    assert not set(SEAT_FIELDS) & WITHOUT_SEATS


def test_an_import_of_several_finished_sessions_enqueues_one_statistics_update(
    owner, outsider, django_capture_on_commit_callbacks
):
    group = scores_only(owner, ["Ada", "Bruno", "Chiara"])
    night = group.nights.get()
    for scores in ([5, 6, 7], [9, 8, 7]):
        again = services.create_session(night=night, game="tower-of-babel", players=list(group.players.all()))
        send(again, "scores.record", scores=dict(zip([s.key for s in again.seats.all()], scores, strict=True)))
        send(again, "session.finish")
    document = group_document(group)
    with (
        mock.patch("sessions.services.enqueue_statistics_update") as enqueue,
        django_capture_on_commit_callbacks(execute=True),
    ):
        imported = import_group(owner=outsider, document=document)
    assert enqueue.call_count == 1
    (session_id,) = enqueue.call_args.args
    assert GameSession.objects.get(pk=session_id).group_id == imported.pk
    assert imported.sessions.filter(status=core.FINISHED).count() == 3


# --- the round trip of every game ----------------------------------------------------------------


def cubes_moves(session, count):
    for _ in range(count):
        session.refresh_from_db()
        game = session.state["game"]
        if game["status"] != "in_progress":
            return
        send(session, "bc.place", legal_moves(position_of(game))[0].as_json())


def tower_open(session):
    send(session, "session.start")
    send(session, "tob.first_player", seat=session.seats.first().key)


def tower_next(session):
    game = session.state["game"]
    wonder = next(w for w, v in game["wonders"].items() if v["discs"])
    disc = game["wonders"][wonder]["discs"][0]
    send(session, "tob.build", wonder=wonder, disc=disc, own=game["discs"][disc]["demand"])


def wonders_open(session):
    send(session, "session.start")


def wonders_next(session):
    state = session.state["game"]
    seat = state["seats"][0]
    send(session, "sw.draft_pick", seat=seat, tile=min(state["hands"][seat]))


def babel_on_next(session):
    send(session, "bo.roll", call="odd", roll=2)


@pytest.fixture
def every_game(owner):
    """A group whose players have ids 1 and 2 (the ids that look like babel's cube types) and
    more: for each game a finished session and an open one in the middle of play."""
    group = services.create_group(owner=owner, name="Every game")
    night = services.create_night(group=group, date=datetime.date(2026, 11, 5))
    people = [Player.objects.create(pk=pk, group=group, name=name) for pk, name in [(1, "Ada"), (2, "Bruno")]]
    people += [services.create_player(group=group, name=name) for name in ["Chiara", "Dieter"]]
    cubes = services.create_session(night=night, game="babel-cubes", players=people[:2], secret="1")
    send(cubes, "session.start")
    cubes_moves(cubes, 30)
    send(cubes, "session.finish")
    cubes_open = services.create_session(night=night, game="babel-cubes", players=people[1::-1], secret="2")
    send(cubes_open, "session.start")
    cubes_moves(cubes_open, 7)
    tower_of_babel_to_the_end(services.create_session(night=night, game="tower-of-babel", players=people[:3]), owner)
    tower_open(services.create_session(night=night, game="tower-of-babel", players=people[:3], secret="8"))
    seven_wonders_to_the_end(services.create_session(night=night, game="seven-wonders", players=people[:3], secret="4"))
    wonders_open(services.create_session(night=night, game="seven-wonders", players=people[1:], secret="9"))
    babel_on_a_few_turns(
        services.create_session(night=night, game="babel-on", players=people[:3], colours=["red", "blue", "green"])
    )
    return group


NEXT_MOVE = {
    "babel-cubes": lambda session: cubes_moves(session, 1),
    "tower-of-babel": tower_next,
    "seven-wonders": wonders_next,
    "babel-on": babel_on_next,
}


def as_old(state, new_to_old):
    """The state's JSON with every new seat key written as the old one."""
    text = json.dumps(state, sort_keys=True)
    for new, old in new_to_old.items():
        text = text.replace(json.dumps(new), json.dumps(old))
    return json.loads(text)


def test_every_game_makes_the_round_trip_and_keeps_playing(every_game, outsider):
    filler = services.create_group(owner=User.objects.get(username="olga"), name="Filler")
    for index in range(120):  # the new ids cannot be mistaken for cube types, discs or tiles
        services.create_player(group=filler, name=f"P{index}")
    originals = {s.pk: s for s in every_game.sessions.all()}
    exported = json.loads(json.dumps(group_document(every_game)))
    imported = import_group(owner=outsider, document=exported)
    assert {s.game for s in imported.sessions.all()} == {"babel-cubes", "tower-of-babel", "seven-wonders", "babel-on"}
    new_to_old = {
        str(new): str(old)
        for old, new in zip(
            every_game.players.order_by("pk").values_list("pk", flat=True),
            imported.players.order_by("pk").values_list("pk", flat=True),
            strict=True,
        )
    }
    assert all(int(new) > 100 for new in new_to_old)
    pairs = zip(sorted(originals.values(), key=lambda s: s.pk), imported.sessions.order_by("pk"), strict=True)
    for original, copy in pairs:
        assert copy.game == original.game
        assert copy.state == selectors.replayed_state(copy)  # replay equals state
        assert as_old(copy.state, new_to_old) == json.loads(json.dumps(original.state, sort_keys=True))
        if copy.game == "babel-cubes":
            assert set(copy.state["game"]["hands"]) == {"1", "2"}  # cube hands are not seats
        if copy.status in core.OPEN_STATUSES and copy.state["game"].get("status", "in_progress") == "in_progress":
            before = copy.version
            NEXT_MOVE[copy.game](copy)
            NEXT_MOVE[original.game](original)
            assert copy.version == before + 1
            assert as_old(copy.state, new_to_old) == json.loads(json.dumps(original.state, sort_keys=True))
