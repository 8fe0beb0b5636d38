"""Reads that write a group out: the whole group as JSON, its results as CSV.

The JSON holds everything a group has: its players, game nights, every session with its
options, secret, seats, full event log and results, and the plain results of other games. A
session not finished travels sealed (``sealed``): its secret and log hold hands still in play.
Ids in the file only link its parts together; importing it elsewhere gives new ids. The game
state is not in the file: it is the replay of the log, which the import runs (and checks
against the results).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from datetime import date, datetime
from typing import Any

from django.db.models import Prefetch

from sessions.importexport.sealed import seal
from sessions.models import GameSession, Group, Result, Seat, SessionEvent

FORMAT = "babel-companion/group"
VERSION = 2  # 1 carried every session's seed in clear
CHUNK = 500
CSV_COLUMNS = ["date", "place", "session", "game", "finished_at", "player", "rank", "score"]


def _when(value: datetime | date | None) -> str | None:
    return value.isoformat() if value is not None else None


def _sessions(group: Group) -> Iterator[dict[str, Any]]:
    """The group's sessions, oldest first, read a chunk at a time (four queries per chunk)."""
    sessions = (
        GameSession.objects.filter(group=group)
        .order_by("id")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.order_by("order")),
            Prefetch("events", queryset=SessionEvent.objects.select_related("author").order_by("seq")),
            Prefetch("results", queryset=Result.objects.order_by("rank", "player_id")),
        )
    )
    for session in sessions.iterator(chunk_size=CHUNK):
        yield _session(session)


def group_document(group: Group) -> dict[str, Any]:
    """The group as one JSON-ready document."""
    return {**_head(group), "sessions": list(_sessions(group))}


def group_json_chunks(group: Group) -> Iterator[str]:
    """The same document as JSON text, a session at a time: a large group never sits in memory whole."""
    head = json.dumps(_head(group), ensure_ascii=False)
    yield head[:-1] + ', "sessions": ['
    for index, session in enumerate(_sessions(group)):
        yield ("," if index else "") + "\n" + json.dumps(session, ensure_ascii=False)
    yield "\n]}\n"


def _head(group: Group) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "group": {
            "name": group.name,
            "created_at": _when(group.created_at),
            "edition_tables": group.edition_tables,
        },
        "players": [
            {"id": p.pk, "name": p.name, "created_at": _when(p.created_at), "archived_at": _when(p.archived_at)}
            for p in group.players.order_by("id")
        ],
        "nights": [
            {"id": n.pk, "date": _when(n.date), "place": n.place, "notes": n.notes, "created_at": _when(n.created_at)}
            for n in group.nights.order_by("id")
        ],
        "plain_results": [
            {
                "source": r.source,
                "play": r.play,
                "game": r.game,
                "played_at": _when(r.played_at),
                "place": r.place,
                "player": r.player_id,
                "score": r.score,
                "rank": r.rank,
                "winner": r.winner,
            }
            for r in group.plain_results.order_by("played_at", "play", "player_id")
        ],
    }


def _session(session: GameSession) -> dict[str, Any]:
    whole = _whole_session(session)
    if session.published_secret is not None:
        return whole
    # What a reader may see of a session not finished (an abandoned one can be taken up
    # again); the rest is in the sealed text.
    shown = {key: whole[key] for key in ("id", "night", "game", "status", "created_at")}
    return {**shown, "sealed": seal(whole)}


def _whole_session(session: GameSession) -> dict[str, Any]:
    return {
        "id": session.pk,
        "night": session.night_id,
        "game": session.game,
        "options": session.options,
        "secret": session.secret,
        "status": session.status,
        "version": session.version,
        "created_at": _when(session.created_at),
        "updated_at": _when(session.updated_at),
        "finished_at": _when(session.finished_at),
        "seats": [{"player": s.player_id, "order": s.order, "colour": s.colour} for s in session.seats.all()],
        "events": [
            {
                "seq": e.seq,
                "type": e.type,
                "payload": e.payload,
                # Accounts are not exported: who wrote an event travels as a label.
                "by": e.author.get_username() if e.author else e.author_label,
                "created_at": _when(e.created_at),
            }
            for e in session.events.all()
        ],
        "results": [
            {"player": r.player_id, "score": r.score, "rank": r.rank, "breakdown": r.breakdown}
            for r in session.results.all()
        ],
    }


def result_rows(group: Group) -> Iterator[list[str]]:
    """The CSV rows (with the header): one per player and finished session, oldest first."""
    yield CSV_COLUMNS
    results = (
        Result.objects.filter(session__group=group)
        .select_related("session__night", "player")
        .order_by("session__night__date", "session__finished_at", "session_id", "rank", "player__name")
    )
    for r in results.iterator(chunk_size=2000):
        session = r.session
        yield [
            session.night.date.isoformat(),
            _cell(session.night.place),
            str(session.pk),
            session.game,
            _when(session.finished_at) or "",
            _cell(r.player.name),
            str(r.rank),
            "" if r.score is None else str(r.score),
        ]


def _cell(text: str) -> str:
    """Text a spreadsheet would run as a formula (=, +, -, @) is kept as text."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def results_csv(group: Group) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerows(result_rows(group))
    return out.getvalue()
