"""What happened, in the players' words: one short sentence for each event of a session's log.

A move's sentence names who made it, and most moves do not say who (the player to move
did): the log is replayed to know, from the state before each event, whose turn it was.
The sentences never say what is secret when they are shown: an offer, a drafted or a
declared tile say only who made them; the die's rolls are told once rolled.

The sentences of one version of a session are the same for every device, so they are kept
in the cache (the host's event log and every phone's last move read them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from django.utils.translation import get_language, gettext, gettext_noop, ngettext_lazy

from scoring import score_entry
from scoring import session as core
from scoring.babel_cubes import engine as bc
from scoring.babel_on import engine as bo
from scoring.errors import RuleError
from scoring.seven_wonders import engine as sw
from scoring.tower_of_babel import engine as tob
from sessions.boards.tower_of_babel import WONDER_NAMES
from sessions.games import get_game
from sessions.models import GameSession, SessionEvent
from sessions.table import keys


@dataclass(frozen=True)
class Moment:
    """One event as the table lived it: its payload, the game's state just before and just
    after it (``None`` for a game without a play-by-play engine) and the players' names."""

    payload: Mapping[str, Any]
    before: Any
    after: Any
    names: Mapping[str, str]

    def name(self, seat: Any) -> str:
        return self.names.get(str(seat), gettext("A player"))

    @property
    def seat(self) -> str:
        """The player the payload names."""
        return self.name(self.payload.get("seat"))

    @property
    def mover(self) -> str:
        """The player whose turn it was."""
        return self.name((self.before or {}).get("active"))


def _wonder(game: Any) -> str:
    build = (game or {}).get("build") or {}
    return str(WONDER_NAMES.get(str(build.get("wonder")), gettext("a wonder")))


def _tob_resolve(m: Moment) -> str:
    words = {"player": m.mover, "wonder": _wonder(m.before)}
    if m.payload.get("fulfilled", True):
        return gettext("%(player)s built on the %(wonder)s") % words
    return gettext("%(player)s could not complete the build on the %(wonder)s") % words


def _bo_roll(m: Moment) -> str:
    last = (m.after or {}).get("last_roll") or {}
    call = gettext("even") if last.get("call") == bo.EVEN else gettext("odd")
    # The board's own words for a roll (templates/boards/babel_on/_board.html): one translation.
    return gettext("%(name)s called %(call)s and rolled %(roll)s") % {
        "name": m.mover,
        "call": call,
        "roll": last.get("roll", "?"),
    }


def _bo_rolloff(m: Moment) -> str:
    first = (m.after or {}).get("first")
    if first is None:
        return gettext("Roll for the first player: a tie, roll again")
    return gettext("%(player)s plays first") % {"player": m.name(first)}


def _count(payload: Mapping[str, Any], key: str) -> int:
    found = payload.get(key)
    return len(found) if isinstance(found, list) else 0


def _blocks(key: str, said: Any) -> Callable[[Moment], str]:
    """The mover and how many blocks the payload's ``key`` lists, in ``said`` (a lazy plural
    chosen by "count")."""

    def tell(m: Moment) -> str:
        return str(said % {"player": m.mover, "count": _count(m.payload, key)})

    return tell


_bo_draw = _blocks(
    "blocks", ngettext_lazy("%(player)s drew %(count)s block", "%(player)s drew %(count)s blocks", "count")
)
_bo_move = _blocks(
    "removals", ngettext_lazy("%(player)s moved %(count)s block", "%(player)s moved %(count)s blocks", "count")
)
_bo_bonus = _blocks(
    "blocks",
    ngettext_lazy("%(player)s placed %(count)s bonus block", "%(player)s placed %(count)s bonus blocks", "count"),
)


def _bo_miss(m: Moment) -> str:
    if m.payload.get("choice") == "draw":
        return gettext("%(player)s drew one block after a wrong call") % {"player": m.mover}
    return gettext("%(player)s passed after a wrong call") % {"player": m.mover}


def _sw_end_age(m: Moment) -> str:
    return gettext("Age %(age)s is over") % {"age": (m.before or {}).get("age", "?")}


def _bo_knock(m: Moment) -> str:
    """``seat`` knocked blocks off ``tower``'s tower (BO-12)."""
    if str(m.payload.get("tower")) == str(m.payload.get("seat")):
        return gettext("%(player)s knocked over their own tower") % {"player": m.seat}
    return gettext("%(player)s knocked over %(owner)s's tower") % {
        "player": m.seat,
        "owner": m.name(m.payload.get("tower")),
    }


def _player(template: str) -> Callable[[Moment], str]:
    """A sentence about the player the payload names."""
    return lambda m: gettext(template) % {"player": m.seat}


def _mover(template: str) -> Callable[[Moment], str]:
    """A sentence about the player whose turn it was."""
    return lambda m: gettext(template) % {"player": m.mover}


def _table(template: str) -> Callable[[Moment], str]:
    """A sentence about the whole table."""
    return lambda m: gettext(template)


def _bc_place(m: Moment) -> str:
    seats = (m.before or {}).get("seats") or []
    to_move = (m.before or {}).get("to_move") or 1
    return gettext("%(player)s placed a cube") % {"player": m.name(seats[to_move - 1] if seats else None)}


WORDS: dict[str, Callable[[Moment], str]] = {
    core.START: _table(gettext_noop("Game started")),
    core.FINISH: _table(gettext_noop("Results recorded")),
    core.ABANDON: _table(gettext_noop("Session abandoned")),
    core.UNDO: _table(gettext_noop("Undo")),  # said with the move it took back, when there was one
    score_entry.RECORD_SCORES: _table(gettext_noop("Scores entered")),
    score_entry.RECORD_PLACES: _table(gettext_noop("Finishing order entered")),
    # Tower of Babel
    tob.FIRST_PLAYER: _player(gettext_noop("%(player)s plays first")),
    tob.PASS: _mover(gettext_noop("%(player)s passed")),
    tob.CHOOSE: lambda m: (
        gettext("%(player)s chose a disc on the %(wonder)s") % {"player": m.mover, "wonder": _wonder(m.after)}
    ),
    # Only who offered: the offer itself is secret until all are revealed (TB-12).
    tob.OFFER: lambda m: (
        gettext("%(player)s offered for the build on the %(wonder)s") % {"player": m.seat, "wonder": _wonder(m.before)}
    ),
    tob.RESOLVE: _tob_resolve,
    tob.BUILD: lambda m: _tob_resolve(
        Moment(m.payload, {**(m.before or {}), "build": {"wonder": m.payload.get("wonder")}}, m.after, m.names)
    ),
    tob.ASSIGN: _player(gettext_noop("%(player)s chose what their two-kind discs count as")),
    tob.DECLARE_CARDS: _player(gettext_noop("%(player)s told the action cards in their hand")),
    # Babel On!
    bo.SETUP: _table(gettext_noop("Colours chosen")),
    bo.ROLLOFF: _bo_rolloff,
    bo.ROLL: _bo_roll,
    bo.DRAW: _bo_draw,
    bo.MOVE: _bo_move,
    bo.BONUS: _bo_bonus,
    bo.KNOCK: _bo_knock,
    bo.ADJUST: _table(gettext_noop("The towers were corrected by hand")),
    bo.MISS: _bo_miss,
    # 7 Wonders Babel
    sw.DRAFT_PICK: _player(gettext_noop("%(player)s picked a tile")),  # which one stays secret
    sw.DRAFT_RECORD: _table(gettext_noop("Tile draft recorded")),
    sw.DECLARE_TILE: _player(gettext_noop("%(player)s chose a tile to build")),  # which one stays secret
    sw.BUILD_TILES: _table(gettext_noop("Tower tiles placed")),
    sw.PARTICIPATE: _player(gettext_noop("%(player)s joined the Great Project")),
    sw.NEXT_TURN: _table(gettext_noop("Next turn")),
    sw.END_AGE: _sw_end_age,
    sw.SHEET: _player(gettext_noop("%(player)s entered their score sheet")),
    # babel (the cube tower)
    bc.PLACE: _bc_place,
}


def sentence(event_type: str, moment: Moment) -> str:
    """The event in words; a type this module does not know yet says only that something
    was recorded (tests/test_event_words.py fails for it)."""
    describe = WORDS.get(event_type)
    return describe(moment) if describe else gettext("A move was recorded")


# A version's sentences never change. Each version's are kept with what the next version
# needs to tell its one new event (the state it leaves, the moves an undo can take back), so
# a move tells one event, not the whole log again (``keys.SENTENCES_SECONDS``).
# The newest sentences and moves in effect a version keeps: the host shows the latest
# LOG_SHOWN, and keeping every one would copy and store the whole game's words again at every
# version. An undo past them is told as an undo, without the move it took back.
TOLD_KEPT = 64
LOG_SHOWN = 30  # the host's event log shows the latest moves


class LogLine(NamedTuple):
    """An event as the host's log lists it: who sent it and when (its words are in ``Told.said``).
    A tuple: every version's Told keeps LOG_SHOWN of them, read and written through the cache."""

    pk: int
    seq: int
    type: str
    created_at: datetime
    author: str  # the account's name, else the phone's or the import's label

    @classmethod
    def of(cls, event: SessionEvent) -> LogLine:
        author = event.author.get_username() if event.author else event.author_label
        return cls(pk=event.pk, seq=event.seq, type=event.type, created_at=event.created_at, author=author)


class Recorded(NamedTuple):
    """An event as the log is told from it: its line and its payload. The move that records it
    keeps it in the cache (``keys.recorded_event``) for the first screen that tells its version, which
    then reads no event from the database."""

    line: LogLine
    payload: dict[str, Any]

    @classmethod
    def of(cls, event: SessionEvent) -> Recorded:
        return cls(line=LogLine.of(event), payload=event.payload)


@dataclass
class Told:
    """A session's log told up to a version: its newest events in words by their number and the
    newest moves in effect (last: what an undo takes back), TOLD_KEPT of each; its newest
    LOG_SHOWN events as the log lists them (newest last); and the state the version left."""

    said: dict[int, str]
    in_effect: list[str]
    lines: list[LogLine]
    state: Any


def sentences(session: GameSession, *, untold: bool = False) -> dict[int, str]:
    """The session's newest events in words, by their number (see ``told_with_latest``);
    ``untold``: the caller found the version not kept, which need not be asked again."""
    return _told_now(session, untold=untold).said


def told_with_latest(session: GameSession) -> tuple[dict[int, str], list[LogLine]]:
    """The log in words, and its LOG_SHOWN newest events (newest first, with their authors):
    no query when the version was told already, one row when the version before was."""
    told = _told_now(session)
    return told.said, told.lines[::-1]


def _told_now(session: GameSession, *, untold: bool = False) -> Told:
    """The log told up to the session's version: from the cache (unless ``untold``); else from
    the version before when the cache still has it (one event to read and tell); else by
    replaying the whole log. Told once a version and a language, then kept."""
    key, before_key = _told_key(session.pk, session.version), _told_key(session.pk, session.version - 1)
    new_key = keys.recorded_event(session.pk, session.version)
    asked = [*([] if untold else [key]), *([before_key, new_key] if session.version else [])]
    kept = keys.kept_many(asked)
    if key in kept:
        told: Told = kept[key]
        return told
    events = session.events.select_related("author")
    before: Told | None = kept.get(before_key)
    new: Recorded | None = None
    if before is not None:
        new = kept.get(new_key) or _recorded(events.filter(seq=session.version).first())
    if before is not None and new is not None:
        told = _tell(before, new, after=session.state, names=_names(session))
    else:  # the whole log
        told = _replayed(session, list(events.order_by("seq")))
    _keep(session, told)
    return told


def _told_key(session_id: int, version: int) -> str:
    return keys.told_log(session_id, version, get_language())


def _last_move_key(session_id: int, version: int) -> str:
    return keys.last_move(session_id, version, get_language())


def _keep(session: GameSession, told: Told) -> None:
    """The log told at the session's version, kept; and its last move apart, for the phones,
    which show only that: the whole log in words grows with the game."""
    last = told.said.get(session.version, "")
    kept = {_told_key(session.pk, session.version): told, _last_move_key(session.pk, session.version): last}
    keys.keep_many(kept)


def _names(session: GameSession) -> dict[str, str]:
    return {seat.key: seat.player.name for seat in session.seats.all()}


def _recorded(event: SessionEvent | None) -> Recorded | None:
    return None if event is None else Recorded.of(event)


def _tell(told: Told, event: Recorded, *, after: Any, names: Mapping[str, str]) -> Told:
    """``told`` and one more event, which left the state ``after`` (an undo says which move
    it took back)."""
    seq, event_type, payload = event.line.seq, event.line.type, event.payload
    said, in_effect = {**told.said}, list(told.in_effect)
    if event_type == core.UNDO:
        said[seq] = (
            gettext("Undone: %(move)s") % {"move": in_effect.pop()}
            if in_effect
            else sentence(core.UNDO, Moment(payload, None, None, names))
        )
    else:
        said[seq] = sentence(event_type, Moment(payload, told.state["game"], after["game"], names))
        in_effect.append(said[seq])
    if len(said) > TOLD_KEPT:  # one more than kept: the oldest goes (the dict is in the log's order)
        del said[next(iter(said))]
    del in_effect[:-TOLD_KEPT]
    lines = [*told.lines[1 - LOG_SHOWN :], event.line]
    return Told(said=said, in_effect=in_effect, lines=lines, state=after)


def _replayed(session: GameSession, log: list[SessionEvent]) -> Told:
    """The whole log (its events with their authors) told, replaying it from the start."""
    names = _names(session)
    rules = get_game(session.game).rules
    seats = [seat.key for seat in session.seats.all()]
    states = [core.initial_state(rules, seats=seats, options=session.options, seed=session.seed)]
    told = Told(said={}, in_effect=[], lines=[], state=states[0])
    for event in log:
        if event.type == core.UNDO:
            if len(states) > 1:
                states.pop()
            after = states[-1]
        else:
            try:
                after = core.step(rules, states[-1], event.as_core_event())
            except RuleError:  # a log the rules no longer accept: it still says what was sent
                after = states[-1]
            states.append(after)
        told = _tell(told, Recorded.of(event), after=after, names=names)
    return told


def last_move(session: GameSession, said: dict[int, str] | None = None) -> str:
    """The last event in words (from ``said``, the log in words, when the caller has it), or
    nothing before the first."""
    if not session.version:
        return ""
    if said is None:
        kept: str | None = keys.kept(_last_move_key(session.pk, session.version))
        if kept is not None:
            return kept
        said = sentences(session, untold=True)  # kept with its last move: not kept either
    return said.get(session.version, "")


def undo_question(session: GameSession) -> str:
    """What the host is asked before an undo: the move it takes back, in the log's words
    (which never tell a secret: an offer, a drafted or a declared tile say only who made
    them); the last step without words when that move is older than the words kept."""
    in_effect = _told_now(session).in_effect
    if in_effect:
        return gettext("Undo “%(move)s”?") % {"move": in_effect[-1]}
    return gettext("Undo the last step?")


def described(latest: Sequence[LogLine], said: dict[int, str]) -> list[tuple[LogLine, str]]:
    """The ``latest`` events of a session (newest first), each with its sentence (from ``said``,
    ``sentences(session)``)."""
    return [(event, said.get(event.seq, gettext("A move was recorded"))) for event in latest]
