"""Import a group exported by ``export.group_document`` (this or another instance).

The file is checked as a whole before anything is written; then, in one transaction, the
group is created with the importing account as its owner, and every session's log is
replayed through its game's rules: the replay must end in the exported status and version
and give the exported results, otherwise nothing is imported.

The ids in the file only link its parts together: every imported row gets a new id from
this database (an import never chooses an id or moves a sequence). Seats are named by
player id inside the event payloads, so each seat key is rewritten to the player's new id,
field by field where the engines read a seat (``seats.SEAT_FIELDS``); the state is the
replay of the rewritten log, and it must be the original replay with the seats renamed,
position by position, or the file is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.core.validators import RegexValidator
from django.db import transaction
from django.utils import timezone
from rest_framework import serializers

from scoring import session as core
from scoring.errors import RuleError, gettext_noop
from sessions import names as naming
from sessions import services
from sessions.api.errors import flatten
from sessions.api.fields import Flag, Text, Whole
from sessions.api.filters import MAX_ID
from sessions.games import GAMES, get_game
from sessions.importexport.export import FORMAT, VERSION
from sessions.importexport.jsondepth import check_depth
from sessions.importexport.sealed import CannotUnseal, unseal
from sessions.importexport.seats import corresponds, payload_with_new_seats
from sessions.models import (
    GameNight,
    GameSession,
    Group,
    Membership,
    PlainResult,
    Player,
    Result,
    Seat,
    SessionEvent,
)


class PlayerDoc(serializers.Serializer):
    id = Whole(min_value=1, max_value=MAX_ID)
    name = Text(max_length=40)
    created_at = serializers.DateTimeField(required=False)
    archived_at = serializers.DateTimeField(required=False, allow_null=True, default=None)


class NightDoc(serializers.Serializer):
    id = Whole(min_value=1, max_value=MAX_ID)
    date = serializers.DateField()
    place = Text(max_length=80, allow_blank=True, default="")
    notes = Text(max_length=2000, allow_blank=True, default="", trim_whitespace=False)
    created_at = serializers.DateTimeField(required=False)


class SeatDoc(serializers.Serializer):
    player = Whole(min_value=1, max_value=MAX_ID)
    order = Whole(min_value=0, max_value=20)
    colour = Text(max_length=20, allow_blank=True, default="")


class EventDoc(serializers.Serializer):
    seq = Whole(min_value=1)
    type = Text(max_length=40)
    payload = serializers.DictField(default=dict)
    by = Text(max_length=150, allow_blank=True, default="")
    created_at = serializers.DateTimeField(required=False)


class ResultDoc(serializers.Serializer):
    player = Whole(min_value=1, max_value=MAX_ID)
    score = Whole(allow_null=True)
    rank = Whole(min_value=1)
    breakdown = serializers.DictField(default=dict)


class SessionDoc(serializers.Serializer):
    id = Whole(min_value=1, max_value=MAX_ID)
    night = Whole(min_value=1, max_value=MAX_ID)
    game = Text(max_length=30)
    options = serializers.DictField(default=dict)
    seed = Whole(min_value=0, max_value=2**62, required=False)  # version 1
    secret = Text(max_length=64, required=False, validators=[RegexValidator(r"^[0-9a-f]{1,64}$")])  # version 2
    status = serializers.ChoiceField(choices=[value for value, _label in GameSession.STATUSES])
    version = Whole(min_value=0)
    created_at = serializers.DateTimeField(required=False)
    updated_at = serializers.DateTimeField(required=False)
    finished_at = serializers.DateTimeField(required=False, allow_null=True)
    seats = SeatDoc(many=True)
    events = EventDoc(many=True)
    results = ResultDoc(many=True)


class PlainResultDoc(serializers.Serializer):
    source = Text(max_length=20)  # type: ignore[assignment]  # the file says "source"; DRF allows it
    play = Text(max_length=64)
    game = Text(max_length=120)
    played_at = serializers.DateTimeField()
    place = Text(max_length=80, allow_blank=True, default="")
    player = Whole(min_value=1, max_value=MAX_ID)
    score = Whole(min_value=-MAX_ID - 1, max_value=MAX_ID, allow_null=True, default=None)
    rank = Whole(min_value=1, max_value=32767, allow_null=True, default=None)
    winner = Flag(default=False)


class GroupInfoDoc(serializers.Serializer):
    name = Text(max_length=80)
    created_at = serializers.DateTimeField(required=False)
    edition_tables = serializers.DictField(default=dict)


class GroupDocument(serializers.Serializer):
    format = serializers.ChoiceField(choices=[FORMAT])
    version = Whole(min_value=1, max_value=VERSION)
    group = GroupInfoDoc()
    players = PlayerDoc(many=True)
    nights = NightDoc(many=True)
    sessions = SessionDoc(many=True)
    plain_results = PlainResultDoc(many=True, default=list)


def _refuse(template: str, field: str, **params: object) -> RuleError:
    return RuleError(template, field=field, params=params)


def checked_document(document: Any) -> dict[str, Any]:
    """The document's data, or RuleError naming the first wrong field."""
    if not isinstance(document, Mapping):
        raise _refuse(gettext_noop("This is not a group export."), "format")
    check_depth(document)
    incoming = GroupDocument(data=_unsealed(document))
    if not incoming.is_valid():
        field, message = flatten(incoming.errors)[0]
        raise _refuse(gettext_noop("{path}: {message}"), field, path=field, message=message)
    data: dict[str, Any] = dict(incoming.validated_data)
    _check_names(data)
    _check_links(data)
    return data


def _check_names(data: dict[str, Any]) -> None:
    """The group's, players' and places' names as ``sessions.names`` keeps them, refused as the
    pages refuse them; two players that cannot be told apart refuse the file.

    Two nights of one date and place are let in: a night is not renamed once made, and
    instances before this rule made such nights, which the file's ids still tell apart."""
    group = data["group"]
    group["name"] = naming.clean_name(group["name"], field="group.name", limit=services.GROUP_NAME_LIMIT)
    seen = naming.NameIndex[int]()
    for index, player in enumerate(data["players"]):
        field = f"players[{index}].name"
        name = naming.clean_name(player["name"], field=field, limit=services.PLAYER_NAME_LIMIT)
        earlier = seen.find(name)
        if earlier is not None and naming.same_but_case(name, earlier[0]):
            raise _refuse(gettext_noop("Two players are called {value}."), field, value=name)
        if earlier is not None:
            raise _refuse(naming.LOOKS_ALIKE, field, value=name, name=earlier[0])
        seen.add(name, index)
        player["name"] = name
    for index, night in enumerate(data["nights"]):
        night["place"] = naming.clean_name(
            night["place"], field=f"nights[{index}].place", limit=services.PLACE_LIMIT, place=True
        )


def _unsealed(document: Mapping[str, Any]) -> Mapping[str, Any]:
    """The document with each sealed session (not finished) opened; one this server cannot open is refused."""
    sessions = document.get("sessions")
    if not isinstance(sessions, list):
        return document
    opened = []
    for index, session in enumerate(sessions):
        if isinstance(session, Mapping) and isinstance(session.get("sealed"), str):
            try:
                session = unseal(session["sealed"])
            except CannotUnseal:
                raise _refuse(
                    gettext_noop(
                        "This session was not finished when it was exported, so it travels sealed: only the"
                        " server that exported it can open it. Finish it there and export again."
                    ),
                    f"sessions[{index}].sealed",
                ) from None
            check_depth(session)
        opened.append(session)
    return {**document, "sessions": opened}


def _unique(values: list[Any], template: str, field: str) -> None:
    seen: set[Any] = set()
    for index, value in enumerate(values):
        if value in seen:
            raise _refuse(template, f"{field}[{index}]", value=value)
        seen.add(value)


def _check_links(data: dict[str, Any]) -> None:
    _unique([p["id"] for p in data["players"]], gettext_noop("Player id {value} appears twice."), "players")
    _unique([n["id"] for n in data["nights"]], gettext_noop("Game night id {value} appears twice."), "nights")
    _unique([s["id"] for s in data["sessions"]], gettext_noop("Session id {value} appears twice."), "sessions")
    players = {p["id"] for p in data["players"]}
    nights = {n["id"] for n in data["nights"]}
    for game, table in data["group"]["edition_tables"].items():
        spec = GAMES.get(game)
        if spec is None or spec.edition_table is None or not isinstance(table, Mapping):
            raise _refuse(gettext_noop("Unknown game {value}."), f"group.edition_tables.{game}", value=game)
        spec.edition_table(table)
    for index, plain in enumerate(data["plain_results"]):
        if plain["player"] not in players:
            raise _refuse(
                gettext_noop("No player has id {value}."), f"plain_results[{index}].player", value=plain["player"]
            )
    _unique(
        [(p["source"], p["play"], p["player"]) for p in data["plain_results"]],
        gettext_noop("A player has two results in play {value}."),
        "plain_results",
    )
    for index, session in enumerate(data["sessions"]):
        field = f"sessions[{index}]"
        if session["game"] not in GAMES:
            raise _refuse(gettext_noop("Unknown game {value}."), f"{field}.game", value=session["game"])
        if session["night"] not in nights:
            raise _refuse(gettext_noop("No game night has id {value}."), f"{field}.night", value=session["night"])
        seated = [seat["player"] for seat in session["seats"]]
        for position, player in enumerate(seated):
            if player not in players:
                raise _refuse(gettext_noop("No player has id {value}."), f"{field}.seats[{position}]", value=player)
        _unique(seated, gettext_noop("Player {value} has two seats."), f"{field}.seats")
        if sorted(seat["order"] for seat in session["seats"]) != list(range(len(seated))):
            raise _refuse(gettext_noop("The seats are not numbered 0, 1, 2 ..."), f"{field}.seats", value="")
        if [event["seq"] for event in session["events"]] != list(range(1, len(session["events"]) + 1)):
            raise _refuse(gettext_noop("The events are not numbered 1, 2, 3 ..."), f"{field}.events", value="")
        if session["version"] != len(session["events"]):
            raise _refuse(gettext_noop("The version is not the number of events."), f"{field}.version", value="")
        session["secret"] = _secret(session, data["version"], field)


def _secret(session: dict[str, Any], version: int, field: str) -> str:
    """Version 1 files carry the seed as a number, later ones the secret in hex."""
    if version == 1 and "seed" in session:
        return format(session.pop("seed"), "x")
    if version > 1 and "secret" in session:
        return str(session["secret"])
    name = "seed" if version == 1 else "secret"
    raise _refuse(gettext_noop("Every session of this file needs its {value}."), f"{field}.{name}", value=name)


def import_group(*, owner: User, document: Any) -> Group:
    """A new group, owned by ``owner``, with everything in the export ``document``. Beside a
    group of theirs that it cannot be told apart from (the original, a copy imported before)
    it is "Name (2)"."""
    data = checked_document(document)
    finished: list[int] = []
    with transaction.atomic():
        info = data["group"]
        groups = Group.objects.filter(memberships__user=owner).values_list("name", flat=True)
        theirs = naming.NameIndex((name, name) for name in groups)
        name = info["name"]
        if name in theirs:
            name = naming.numbered(name, taken=theirs.__contains__, limit=services.GROUP_NAME_LIMIT)
        group = Group.objects.create(
            name=name,
            created_at=info.get("created_at") or timezone.now(),
            edition_tables=info["edition_tables"],
        )
        Membership.objects.create(group=group, user=owner, role=Membership.OWNER)
        player_ids = _import_players(group, data["players"])
        night_ids = {}
        for night in data["nights"]:
            night_ids[night["id"]] = GameNight.objects.create(
                group=group,
                date=night["date"],
                place=night["place"],
                notes=night["notes"],
                created_at=night.get("created_at") or timezone.now(),
            ).pk
        PlainResult.objects.bulk_create(
            PlainResult(
                group=group,
                player_id=player_ids[plain["player"]],
                **{key: value for key, value in plain.items() if key != "player"},
            )
            for plain in data["plain_results"]
        )
        for index, session in enumerate(data["sessions"]):
            created = _import_session(group, session, night_ids, player_ids, field=f"sessions[{index}]")
            if created.status == core.FINISHED:
                finished.append(created.pk)
        if finished:
            # One update counts every finished session of the group still pending.
            last = finished[-1]
            transaction.on_commit(lambda: services.enqueue_statistics_update(last, whole_group=True))
    return group


def _import_players(group: Group, players: list[dict[str, Any]]) -> dict[int, int]:
    """Old id → new id: the database gives every player a new id, in the file's order."""
    rows = [
        Player.objects.create(
            group=group,
            name=p["name"],
            created_at=p.get("created_at") or timezone.now(),
            archived_at=p["archived_at"],
        )
        for p in players
    ]
    return {p["id"]: row.pk for p, row in zip(players, rows, strict=True)}


def _import_session(
    group: Group, doc: dict[str, Any], night_ids: dict[int, int], player_ids: dict[int, int], *, field: str
) -> GameSession:
    rules = get_game(doc["game"]).rules
    seats = sorted(doc["seats"], key=lambda seat: seat["order"])
    old_keys = [str(seat["player"]) for seat in seats]
    keys = {key: str(player_ids[int(key)]) for key in old_keys}
    original = [core.Event(seq=e["seq"], type=e["type"], payload=e["payload"]) for e in doc["events"]]
    events = [
        core.Event(seq=e.seq, type=e.type, payload=payload_with_new_seats(e.type, e.payload, keys)) for e in original
    ]
    replay = {"options": doc["options"], "seed": int(doc["secret"], 16)}
    try:
        exported = core.replay(rules, seats=old_keys, events=original, **replay)
    except RuleError as refused:
        raise _refuse(
            gettext_noop("The log does not replay: {message}"), f"{field}.events", message=refused.message
        ) from refused
    try:
        state = core.replay(rules, seats=[keys[key] for key in old_keys], events=events, **replay)
        moved = corresponds(exported, state, keys)
    except RuleError:
        moved = False
    if not moved:
        raise _refuse(gettext_noop("This session's log cannot be moved to the new player ids."), f"{field}.events")
    if state["status"] != doc["status"]:
        raise _refuse(
            gettext_noop("Replaying the log does not give the status {value}."), f"{field}.status", value=doc["status"]
        )
    standings = core.standings(rules, state) if state["status"] == core.FINISHED else None
    expected = sorted((str(player_ids[r["player"]]), r["score"], r["rank"]) for r in doc["results"])
    got = sorted((s.seat, s.score, s.rank) for s in standings or [])
    if got != expected:
        raise _refuse(gettext_noop("Replaying the log does not give the exported results."), f"{field}.results")
    now = timezone.now()
    session = GameSession.objects.create(
        night_id=night_ids[doc["night"]],
        group=group,
        game=doc["game"],
        options=doc["options"],
        status=state["status"],
        secret=doc["secret"],
        version=doc["version"],
        state=state,
        created_at=doc.get("created_at") or now,
        updated_at=doc.get("updated_at") or now,
        finished_at=doc.get("finished_at"),
    )
    Seat.objects.bulk_create(
        Seat(session=session, player_id=player_ids[seat["player"]], order=seat["order"], colour=seat["colour"])
        for seat in seats
    )
    SessionEvent.objects.bulk_create(
        SessionEvent(
            session=session,
            seq=event.seq,
            type=event.type,
            payload=event.payload,
            author_label=source["by"][:40],
            created_at=source.get("created_at") or now,
        )
        for event, source in zip(events, doc["events"], strict=True)
    )
    Result.objects.bulk_create(
        Result(session=session, player_id=int(s.seat), score=s.score, rank=s.rank, breakdown=dict(s.breakdown))
        for s in standings or []
    )
    return session
