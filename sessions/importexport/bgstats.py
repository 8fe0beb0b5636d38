"""BG Stats: import the plays of its JSON export, and push a finished session to the app.

The export (BG Stats > Settings > Export data) has top-level ``players``, ``games``,
``locations`` and ``plays``; each play names its game (``gameRefId``), place
(``locationRefId``), date (``playDate``, ``YYYY-MM-DD HH:MM:SS``, the phone's local time),
a ``uuid``, and ``playerScores`` with ``playerRefId``, ``score`` (a string), ``winner``,
``rank`` and ``seatOrder``.

A play of one of our four games becomes a finished session of the group (through the
services, so it is an event log like any other; ``scores.record`` when every score is a
number, else ``places.record`` from the ranks or the winners). Its first event carries the
play's uuid as idempotency key, so a second import of the same file skips it. Players are
matched by name (``sessions.names``: whatever the case, look-alike characters folded) and
created when missing.

BG Stats keeps apart what a name alone does not: its anonymous players (``isAnonymous``,
often several in a file, all called "Anonymous player") take an "Anonymous" seat in each
play ("Anonymous (2)" for a second one at the same table), and two of its players with one
name (two Dans at one table) are "Dan" and "Dan (2)" here, in the file's order, so that a
later import of the same file finds the same players. The report says both.

Plays of other games are read into :class:`PlainPlay` rows; keeping them needs a model this
codebase does not have yet (see the report of the import).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import chain, count
from typing import Any
from urllib.parse import quote

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from rest_framework import serializers

from scoring import session as core
from scoring.errors import RuleError, gettext_noop
from sessions import names as naming
from sessions import services
from sessions.api.errors import flatten
from sessions.games import BABEL_CUBES, BABEL_ON, GAMES, SEVEN_WONDERS, TOWER_OF_BABEL
from sessions.importexport.jsondepth import check_depth
from sessions.models import GameNight, GameSession, Group, PlainResult, Player, SessionEvent
from sessions.rule_messages import describe

SOURCE = "bgstats"
SOURCE_NAME = "Babel Companion"
PUSH_URL = "bgstats://app.bgstatsapp.com/createPlay.html?data="
# BG Stats game names (lower case) that are one of our games.
GAME_NAMES = {
    "tower of babel": TOWER_OF_BABEL,
    "babel on!": BABEL_ON,
    "babel on": BABEL_ON,
    "7 wonders: babel": SEVEN_WONDERS,
    "7 wonders babel": SEVEN_WONDERS,
    "babel (cuboro)": BABEL_CUBES,
    "cuboro babel": BABEL_CUBES,
}


SCORE_LIMIT = 2**31 - 1  # what the database keeps (PostgreSQL's integer)
_WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)
_DIGITS = 12  # sign and digits of a whole number read at all; longer ones are out of range anyway
RANK_LIMIT = 32767  # a rank is a small integer there


class ScoreDoc(serializers.Serializer):
    # The fields keep BG Stats' own (camelCase) names.
    playerRefId = serializers.IntegerField()
    score = serializers.CharField(allow_null=True, allow_blank=True, required=False, default=None)
    winner = serializers.BooleanField(required=False, default=False)
    rank = serializers.IntegerField(required=False, default=0, min_value=0, max_value=RANK_LIMIT)
    seatOrder = serializers.IntegerField(required=False, default=0)

    def validate_score(self, value: str | None) -> str | None:
        """A score that is not a whole number is no score; a whole number must fit the database."""
        text = "" if value is None else value.strip()
        if _WHOLE.fullmatch(text) and (len(text) > _DIGITS or not -SCORE_LIMIT - 1 <= int(text) <= SCORE_LIMIT):
            raise serializers.ValidationError(
                gettext("Enter a number from {low} to {high}.").format(low=-SCORE_LIMIT - 1, high=SCORE_LIMIT)
            )
        return value


class PlayDoc(serializers.Serializer):
    uuid = serializers.CharField(max_length=64)
    gameRefId = serializers.IntegerField()
    playDate = serializers.DateTimeField(input_formats=["%Y-%m-%d %H:%M:%S", "iso-8601"])
    locationRefId = serializers.IntegerField(required=False, allow_null=True, default=None)
    ignored = serializers.BooleanField(required=False, default=False)
    playerScores = ScoreDoc(many=True)


class NamedDoc(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True, max_length=500)


class PlayerDoc(NamedDoc):
    isAnonymous = serializers.BooleanField(required=False, default=False)


class BgStatsDocument(serializers.Serializer):
    players = PlayerDoc(many=True)
    games = NamedDoc(many=True)
    locations = NamedDoc(many=True, required=False, default=list)
    plays = PlayDoc(many=True)


@dataclass(frozen=True)
class PlainScore:
    player: str
    score: int | None
    rank: int | None
    winner: bool


@dataclass(frozen=True)
class PlainPlay:
    """A play of another game, kept as plain results (one ``PlainResult`` per player)."""

    uuid: str
    game: str
    played_at: datetime
    place: str
    scores: tuple[PlainScore, ...]


@dataclass
class ImportReport:
    sessions: list[int] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    already_there: int = 0
    ignored: int = 0
    other_games: list[PlainPlay] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)  # (play uuid, why)
    anonymous: int = 0  # seats of BG Stats' anonymous players, each an "Anonymous" seat
    renamed: list[tuple[str, str]] = field(default_factory=list)  # (name in the file, name here)


NAME_LIMIT = Player._meta.get_field("name").max_length or 0


def checked_document(document: Any) -> dict[str, Any]:
    check_depth(document)
    incoming = BgStatsDocument(data=document if isinstance(document, dict) else {})
    if not incoming.is_valid():
        path, message = flatten(incoming.errors)[0]
        raise RuleError(gettext_noop("{path}: {message}"), field=path, params={"path": path, "message": message})
    data = dict(incoming.validated_data)
    for index, player in enumerate(data["players"]):
        if player["isAnonymous"]:  # no name of theirs is kept: they sit as "Anonymous"
            continue
        written = str(player["name"]).strip()
        if len(written) > NAME_LIMIT:  # refused whole, never cut: the name is the player's key here
            raise RuleError(
                gettext_noop("A player's name has at most {limit} characters: “{value}” has {count}."),
                field=f"players[{index}].name",
                params={"limit": NAME_LIMIT, "value": written, "count": len(written)},
            )
        if written:  # a name left blank in BG Stats is "#<id>" here
            player["name"] = naming.clean_name(written, field=f"players[{index}].name", limit=NAME_LIMIT)
    for index, location in enumerate(data["locations"]):
        location["name"] = naming.clean_name(
            location["name"], field=f"locations[{index}].name", limit=LOCATION_LIMIT, place=True
        )
    return data


LOCATION_LIMIT = 500  # what the document may hold; a night keeps the first 80 characters


def _name(player: dict[str, Any]) -> str:
    return str(player["name"]).strip() or f"#{player['id']}"


@dataclass
class Roster:
    """The file's players as the group's names: each non-anonymous player by id, two that
    cannot be told apart numbered in the file's order; the anonymous ones by id."""

    names: dict[int, str]
    renamed: dict[int, str]  # id -> the name in the file, for the players numbered here
    anonymous: set[int]
    taken: naming.NameIndex[int]

    def seat_names(self, refs: list[int]) -> list[str]:
        """The name of each seat of a play: the k-th anonymous one is the k-th of "Anonymous",
        "Anonymous (2)" ... (names that no player of the file has)."""
        anonymous = self._anonymous_names()
        return [next(anonymous) if ref in self.anonymous else self.names[ref] for ref in refs]

    def _anonymous_names(self) -> Iterator[str]:
        called = gettext("Anonymous")
        for candidate in chain([called], (f"{called} ({number})" for number in count(2))):
            if candidate not in self.taken:
                yield candidate


def _roster(players: list[dict[str, Any]]) -> Roster:
    roster = Roster(names={}, renamed={}, anonymous=set(), taken=naming.NameIndex())
    for player in players:
        if player["isAnonymous"]:
            roster.anonymous.add(player["id"])
            continue
        name = _name(player)
        if name in roster.taken:  # two people called Dan: the second is "Dan (2)"
            numbered = naming.numbered(name, taken=roster.taken.__contains__, limit=NAME_LIMIT)
            roster.renamed[player["id"]] = name
            name = numbered
        roster.taken.add(name, player["id"])
        roster.names[player["id"]] = name
    return roster


def _number(raw: str | None) -> int | None:
    """The score as a whole number (ASCII digits), or None: text such as "12.5" is no score."""
    text = "" if raw is None else str(raw).strip()
    return int(text) if _WHOLE.fullmatch(text) and len(text) <= _DIGITS else None


def idempotency_key(uuid: str) -> str:
    return f"{SOURCE}:{uuid}"[:64]


def import_plays(*, group: Group, document: Any, user: User | None = None) -> ImportReport:
    """Add the export's plays to the group; plays already imported are skipped."""
    data = checked_document(document)
    roster = _roster(data["players"])
    games = {g["id"]: g["name"].strip() for g in data["games"]}
    places = {loc["id"]: loc["name"][:80].rstrip() for loc in data["locations"]}
    report = ImportReport()
    seen = set(
        SessionEvent.objects.filter(session__group=group, idempotency_key__startswith=f"{SOURCE}:").values_list(
            "idempotency_key", flat=True
        )
    )
    seen |= {idempotency_key(play) for play in group.plain_results.filter(source=SOURCE).values_list("play", flat=True)}
    with transaction.atomic():
        players = naming.NameIndex((p.name, p) for p in group.players.all())
        for play in sorted(data["plays"], key=lambda p: p["playDate"]):
            if play["ignored"]:
                report.ignored += 1
                continue
            if idempotency_key(play["uuid"]) in seen:
                report.already_there += 1
                continue
            scores = sorted(play["playerScores"], key=lambda s: s["seatOrder"])
            refs = [s["playerRefId"] for s in scores]
            unknown = [ref for ref in refs if ref not in roster.names and ref not in roster.anonymous]
            named = [ref for ref in refs if ref not in roster.anonymous]  # an anonymous one may sit twice
            game_name = games.get(play["gameRefId"], "")
            place = places.get(play["locationRefId"], "") if play["locationRefId"] is not None else ""
            if unknown or len(set(named)) != len(named) or not refs:
                report.refused.append((play["uuid"], gettext("The play's players are missing or named twice.")))
                continue
            seat_names = roster.seat_names(refs)
            slug = GAME_NAMES.get(game_name.casefold())
            if slug is None:
                plain = _plain(play, game_name, place, scores, seat_names)
                _keep(group, plain, [_player(group, players, name, report) for name in seat_names])
                seen.add(idempotency_key(play["uuid"]))
                report.other_games.append(plain)
                _report_seats(report, roster, refs)
                continue
            seated = [_player(group, players, name, report) for name in seat_names]
            try:
                with transaction.atomic():
                    session = _session(group, slug, play, place, seated, scores, user)
            except RuleError as refused:
                report.refused.append((play["uuid"], describe(refused)))
                continue
            seen.add(idempotency_key(play["uuid"]))
            report.sessions.append(session.pk)
            _report_seats(report, roster, refs)
    return report


def _report_seats(report: ImportReport, roster: Roster, refs: list[int]) -> None:
    """Count the anonymous seats of a play imported, and name the players numbered in it."""
    report.anonymous += sum(1 for ref in refs if ref in roster.anonymous)
    for ref in refs:
        written = roster.renamed.get(ref)
        if written is not None and (written, roster.names[ref]) not in report.renamed:
            report.renamed.append((written, roster.names[ref]))


def _plain(play: dict[str, Any], game: str, place: str, scores: list[dict[str, Any]], names: list[str]) -> PlainPlay:
    return PlainPlay(
        uuid=play["uuid"],
        game=game,
        played_at=play["playDate"],
        place=place,
        scores=tuple(
            PlainScore(player=name, score=_number(s["score"]), rank=s["rank"] or None, winner=s["winner"])
            for name, s in zip(names, scores, strict=True)
        ),
    )


def _keep(group: Group, plain: PlainPlay, seated: list[Player]) -> None:
    PlainResult.objects.bulk_create(
        [
            PlainResult(
                group=group,
                source=SOURCE,
                play=plain.uuid[:64],
                game=plain.game[:120],
                played_at=plain.played_at,
                place=plain.place,
                player=player,
                score=entry.score,
                rank=entry.rank,
                winner=entry.winner,
            )
            for player, entry in zip(seated, plain.scores, strict=True)
        ]
    )


def _player(group: Group, players: naming.NameIndex[Player], name: str, report: ImportReport) -> Player:
    """The group's player who cannot be told apart from ``name`` ("ada" is our Ada), or a new one."""
    found = players.find(name)
    if found is not None:
        return found[1]
    created = services.create_player(group=group, name=name)
    players.add(created.name, created)
    report.players.append(created.name)
    return created


def _night(group: Group, played_at: datetime, place: str) -> GameNight:
    """The group's night of that day at that place (or at one that cannot be told apart from
    it), or a new one."""
    day = timezone.localtime(played_at).date()
    same_day = GameNight.objects.filter(group=group, date=day).order_by("id")
    if not place:
        night = same_day.filter(place="").first()
    else:
        found = naming.twin(place, ((other.place, other) for other in same_day.exclude(place="")))
        night = found[1] if found is not None else None
    return night or services.create_night(group=group, date=day, place=place)


def _session(
    group: Group,
    slug: str,
    play: dict[str, Any],
    place: str,
    seated: list[Player],
    scores: list[dict[str, Any]],
    user: User | None,
) -> GameSession:
    session = services.create_session(night=_night(group, play["playDate"], place), game=slug, players=seated)
    keys = [str(p.pk) for p in seated]
    points = [_number(s["score"]) for s in scores]
    payload: dict[str, Any]
    if all(value is not None for value in points):
        event, payload = "scores.record", {"scores": dict(zip(keys, points, strict=True))}
    elif all(s["rank"] > 0 for s in scores):
        event, payload = "places.record", {"places": {k: s["rank"] for k, s in zip(keys, scores, strict=True)}}
    elif any(s["winner"] for s in scores):
        winners = sum(1 for s in scores if s["winner"])
        places = {k: 1 if s["winner"] else winners + 1 for k, s in zip(keys, scores, strict=True)}
        event, payload = "places.record", {"places": places}
    else:
        raise RuleError(gettext_noop("The play has no scores, ranks or winner."), field="playerScores")
    services.append_event(
        session_id=session.pk,
        expected_version=0,
        type=event,
        payload=payload,
        author=user,
        author_label="BG Stats",
        idempotency_key=idempotency_key(play["uuid"]),
    )
    outcome = services.append_event(
        session_id=session.pk, expected_version=1, type=core.FINISH, author=user, author_label="BG Stats"
    )
    # The session happened when the play did, not when it was imported.
    when = play["playDate"]
    GameSession.objects.filter(pk=session.pk).update(created_at=when, updated_at=when, finished_at=when)
    SessionEvent.objects.filter(session=session).update(created_at=when)
    return outcome.session


def push_play_url(session: GameSession) -> str | None:
    """The link that opens BG Stats with this finished session filled in as a play."""
    if session.status != core.FINISHED or session.finished_at is None:
        return None
    results = {r.player_id: r for r in session.results.all()}
    players = []
    for seat in session.seats.all():
        result = results.get(seat.player_id)
        entry: dict[str, Any] = {
            "name": seat.player.name,
            "sourcePlayerId": f"babel-companion-player-{seat.player_id}",
            "winner": bool(result and result.rank == 1),
        }
        if result is not None:
            entry["rank"] = result.rank
            if result.score is not None:
                entry["score"] = result.score
        players.append(entry)
    data: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": f"babel-companion-session-{session.pk}",
        "playDate": session.finished_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S"),
        "game": {
            "name": GAMES[session.game].english_name if session.game in GAMES else session.game,
            "sourceGameId": f"babel-companion-{session.game}",
            "highestWins": True,
            "noPoints": all(r.score is None for r in results.values()),
        },
        "players": players,
    }
    if session.night.place:
        data["location"] = session.night.place
    started = session.created_at
    minutes = int((session.finished_at - started).total_seconds() // 60)
    if 0 < minutes <= 24 * 60:
        data["durationMin"] = minutes
    return PUSH_URL + quote(json.dumps(data, ensure_ascii=False, separators=(",", ":")), safe="")
