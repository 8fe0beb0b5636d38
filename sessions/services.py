"""Every write goes through here. Functions take keyword-only arguments.

Session writes are optimistic: the caller names the version it saw, and a write against
any other version is refused with the fresh state (``StaleWrite``). An idempotency key
makes a repeated write (a double tap, a retried request) return the first outcome instead
of recording twice.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring import session as core
from scoring.errors import RuleError, gettext_noop
from sessions.games import get_game
from sessions.models import (
    GameNight,
    GameSession,
    Group,
    JoinCode,
    Membership,
    Player,
    Result,
    Seat,
    SessionEvent,
    WriteReceipt,
)

logger = logging.getLogger(__name__)

JOIN_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford without 0 and 1: no O/0, I/L/1, U/V
JOIN_CODE_LENGTH = 8
MAX_PAYLOAD_KEYS = 200


class StaleWrite(Exception):
    """The session changed since the writer saw it. ``session`` holds the fresh state."""

    def __init__(self, session: GameSession) -> None:
        super().__init__(f"session {session.pk} is at version {session.version}")
        self.session = session


@dataclass(frozen=True)
class EventOutcome:
    session: GameSession
    event: SessionEvent
    created: bool


def run_once(*, user: User, key: str | None, action: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run a write once per idempotency key and user; a repeat gets the first result back."""
    if not key:
        return action()
    with transaction.atomic():
        receipt, created = WriteReceipt.objects.get_or_create(user=user, key=key[:64])
        if not created:
            return receipt.result
        receipt.result = action()
        receipt.save(update_fields=["result"])
        return receipt.result


def create_group(*, owner: User, name: str) -> Group:
    with transaction.atomic():
        group = Group.objects.create(name=name.strip())
        Membership.objects.create(group=group, user=owner, role=Membership.OWNER)
    return group


def add_member(*, group: Group, user: User) -> Membership:
    membership, _created = Membership.objects.get_or_create(group=group, user=user)
    return membership


def remove_member(*, membership: Membership) -> None:
    if membership.role == Membership.OWNER:
        raise RuleError(gettext_noop("The owner cannot be removed from the group."), field="member")
    membership.delete()


def create_player(*, group: Group, name: str, user: User | None = None) -> Player:
    return Player.objects.create(group=group, name=_player_name(group=group, name=name), user=user)


def rename_player(*, player: Player, name: str) -> Player:
    """Renaming keeps every seat and result: history links to the player, not the name."""
    player.name = _player_name(group=player.group, name=name, excluding=player.pk)
    player.save(update_fields=["name"])
    return player


def _player_name(*, group: Group, name: str, excluding: int | None = None) -> str:
    name = name.strip()
    if not name:
        raise RuleError(gettext_noop("Enter a name."), field="name")
    others = group.players.filter(name__iexact=name)
    if excluding is not None:
        others = others.exclude(pk=excluding)
    if others.exists():
        raise RuleError(
            gettext_noop("This group already has a player called {name}."), field="name", params={"name": name}
        )
    return name


def set_edition_table(*, group: Group, game: str, overrides: dict[str, Any]) -> Group:
    """Store a group's values for a game's unverified components, after the engine checks them."""
    spec = get_game(game)
    if spec.edition_table is None:
        raise RuleError(gettext_noop("This game has no edition table."), field="game")
    spec.edition_table(overrides)
    group.edition_tables = {**group.edition_tables, spec.slug: overrides}
    group.save(update_fields=["edition_tables"])
    return group


def create_night(*, group: Group, date: date, place: str = "", notes: str = "") -> GameNight:
    return GameNight.objects.create(group=group, date=date, place=place.strip(), notes=notes.strip())


def create_session(
    *,
    night: GameNight,
    game: str,
    players: Sequence[Player],
    colours: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    seed: int | None = None,
) -> GameSession:
    """A new session in set-up, seated in the given order."""
    spec = get_game(game)
    cleaned = spec.clean_options(options or {})
    spec.check_player_count(len(players), cleaned)
    if len({p.pk for p in players}) != len(players):
        raise RuleError(gettext_noop("Each player can take only one seat."), field="seats")
    if any(p.group_id != night.group_id for p in players):
        raise RuleError(gettext_noop("Every player must belong to this group."), field="seats")
    colours = list(colours) + [""] * (len(players) - len(colours))
    chosen = [c for c in colours if c]
    if len(set(chosen)) != len(chosen):
        raise RuleError(gettext_noop("Two players cannot share a colour."), field="colours")
    if spec.edition_table:  # the session keeps the table it started with
        cleaned["table"] = night.group.edition_tables.get(spec.slug) or None
    seed = secrets.randbits(48) if seed is None else seed
    keys = [str(p.pk) for p in players]
    with transaction.atomic():
        session = GameSession.objects.create(
            night=night,
            group_id=night.group_id,
            game=spec.slug,
            options=cleaned,
            seed=seed,
            state=core.initial_state(spec.rules, seats=keys, options=cleaned, seed=seed),
        )
        Seat.objects.bulk_create(
            Seat(session=session, player=player, order=index, colour=colour)
            for index, (player, colour) in enumerate(zip(players, colours, strict=True))
        )
    return session


def append_event(
    *,
    session_id: int,
    expected_version: int,
    type: str,
    payload: Mapping[str, Any] | None = None,
    author: User | None = None,
    author_label: str = "",
    idempotency_key: str | None = None,
) -> EventOutcome:
    """Record one event after the engine accepts it; finishing writes the Results too."""
    payload = dict(payload or {})
    if len(payload) > MAX_PAYLOAD_KEYS:
        raise RuleError(gettext_noop("Too much data in one event."), field="payload")
    key = idempotency_key[:64] if idempotency_key else None
    try:
        with transaction.atomic():
            session = GameSession.objects.select_for_update().get(pk=session_id)
            if key:
                repeat = session.events.filter(idempotency_key=key).first()
                if repeat is not None:
                    return EventOutcome(session=session, event=repeat, created=False)
            if session.version != expected_version:
                raise StaleWrite(session)
            event = _record(session, type=type, payload=payload, author=author, author_label=author_label, key=key)
    except IntegrityError:
        # Another writer took this sequence number (or key) between our read and write.
        fresh = GameSession.objects.get(pk=session_id)
        repeat = fresh.events.filter(idempotency_key=key).first() if key else None
        if repeat is not None:
            return EventOutcome(session=fresh, event=repeat, created=False)
        raise StaleWrite(fresh) from None
    return EventOutcome(session=session, event=event, created=True)


def _record(
    session: GameSession,
    *,
    type: str,
    payload: dict[str, Any],
    author: User | None,
    author_label: str,
    key: str | None,
) -> SessionEvent:
    rules = get_game(session.game).rules
    if type not in rules.event_types():
        raise RuleError(gettext_noop("Unknown event type {type}."), field="type", params={"type": type})
    seq = session.version + 1
    new_event = core.Event(seq=seq, type=type, payload=payload)
    if type == core.UNDO:
        core.check_undo(session.state)
        log = [e.as_core_event() for e in session.events.all()]
        state = core.replay(
            rules,
            seats=session.state["entry"]["seats"],
            options=session.options,
            seed=session.seed,
            events=[*log, new_event],
        )
    else:
        state = core.step(rules, session.state, new_event)
    event = SessionEvent.objects.create(
        session=session,
        seq=seq,
        type=type,
        payload=payload,
        author=author,
        author_label=author_label[:40],
        idempotency_key=key,
    )
    was_finished = session.status == core.FINISHED
    session.state, session.version, session.status = state, seq, state["status"]
    session.updated_at = timezone.now()
    if session.status == core.FINISHED and not was_finished:
        session.finished_at = session.updated_at
        _write_results(session, rules)
    session.save(update_fields=["state", "version", "status", "updated_at", "finished_at"])
    return event


def _write_results(session: GameSession, rules: core.Rules) -> None:
    standings = core.standings(rules, session.state)
    assert standings is not None  # core refuses to finish without them
    Result.objects.bulk_create(
        Result(session=session, player_id=int(s.seat), score=s.score, rank=s.rank, breakdown=dict(s.breakdown))
        for s in standings
    )
    transaction.on_commit(lambda: enqueue_statistics_update(session.pk))


def enqueue_statistics_update(session_id: int) -> None:
    """Queue the statistics update; a broker that is down must not fail the finished game.

    The session then stays pending (finished, no ``RatedSession``): the next update of its
    group, the catch-up task and the nightly rebuild count it.
    """
    from sessions.tasks import update_statistics

    try:
        update_statistics.delay(session_id)
    except Exception:  # the broker's own errors vary by transport
        logger.warning("could not enqueue the statistics update of session %s", session_id, exc_info=True)


def create_join_code(*, session: GameSession) -> JoinCode:
    if not session.is_open:
        raise RuleError(gettext_noop("A closed session cannot be joined."), field="session")
    for _attempt in range(5):
        code = "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))
        try:
            with transaction.atomic():
                return JoinCode.objects.create(session=session, code=code)
        except IntegrityError:
            continue
    raise RuntimeError("could not draw a free join code")


def revoke_join_code(*, join_code: JoinCode) -> None:
    if join_code.revoked_at is None:
        join_code.revoked_at = timezone.now()
        join_code.save(update_fields=["revoked_at"])
