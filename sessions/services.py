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
from datetime import date, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef, ProtectedError
from django.utils import timezone

from scoring import session as core
from scoring.errors import RuleError, gettext_noop
from scoring.tower_of_babel import engine as tob
from sessions import names as naming
from sessions import rematch, selectors
from sessions.event_words import Recorded
from sessions.games import TOWER_OF_BABEL, get_game
from sessions.importexport.seats import corresponds, payload_with_new_seats
from sessions.models import (
    GameNight,
    GameSession,
    Group,
    GuestDevice,
    JoinCode,
    Membership,
    PlainResult,
    Player,
    Result,
    Seat,
    SessionEvent,
    StateSnapshot,
    WriteReceipt,
    new_secret,
)
from sessions.selectors import MOVED_FIELDS, moved_fields, player_history
from sessions.statistics.services import lock_statistics
from sessions.table import keys, push

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
    """A group owned by ``owner``, whose name tells it apart from the groups they are in
    already (the home page lists them together)."""
    with transaction.atomic():
        group = Group.objects.create(name=group_name(owner=owner, name=name))
        Membership.objects.create(group=group, user=owner, role=Membership.OWNER)
    return group


GROUP_NAME_LIMIT = Group._meta.get_field("name").max_length or 0
GROUP_TAKEN = gettext_noop("You already have a group called {name}.")
GROUP_LOOKS_ALIKE = gettext_noop(
    "“{value}” looks the same as {name}, a group you already have: choose a name that tells them apart."
)


def group_name(*, owner: User, name: str, field: str = "name") -> str:
    """``name`` as kept (``naming.clean_name``), or RuleError: it cannot be told apart from a
    group ``owner`` is in."""
    name = naming.clean_name(name, field=field, limit=GROUP_NAME_LIMIT)
    found = naming.twin(name, Group.objects.filter(memberships__user=owner).values_list("name", "pk"))
    if found is not None:
        said = GROUP_TAKEN if naming.same_but_case(name, found[0]) else GROUP_LOOKS_ALIKE
        raise RuleError(said, field=field, params={"name": found[0], "value": name})
    return name


def add_member(*, group: Group, user: User) -> Membership:
    membership, _created = Membership.objects.get_or_create(group=group, user=user)
    return membership


def remove_member(*, membership: Membership) -> None:
    if membership.role == Membership.OWNER:
        raise RuleError(gettext_noop("The owner cannot be removed from the group."), field="member")
    membership.delete()


def create_player(*, group: Group, name: str, user: User | None = None) -> Player:
    return Player.objects.create(group=group, name=_player_name(group=group, name=name), user=user)


def create_players(*, group: Group, names: Sequence[str]) -> list[Player]:
    """Several players at once (the first night's table), all or none: names the group has
    already, in any case or written with look-alike characters, refuse the list and are named
    (an archived one is brought back from the archived players instead)."""
    kept = [naming.clean_name(name, field="name", limit=PLAYER_NAME_LIMIT) for name in names]
    given = naming.NameIndex[str]()
    for name in kept:
        earlier = given.find(name)
        if earlier is not None:
            raise RuleError(naming.LOOKS_ALIKE, field="name", params={"value": name, "name": earlier[0]})
        given.add(name, name)
    with transaction.atomic():
        group_players = naming.NameIndex((player.name, player) for player in group.players.only("name", "archived_at"))
        twins = [(name, twin[0], twin[1]) for name in kept if (twin := group_players.find(name)) is not None]
        archived = [player.name for _name, _twin, player in twins if player.archived_at]
        if archived:
            raise RuleError(_named(archived, ARCHIVED_NAMES), field="name", params={"name": ", ".join(archived)})
        alike = [(name, twin) for name, twin, _player in twins if not naming.same_but_case(name, twin)]
        if alike:
            raise RuleError(PLAYER_LOOKS_ALIKE, field="name", params={"value": alike[0][0], "name": alike[0][1]})
        taken = [twin for _name, twin, _player in twins]
        if taken:
            raise RuleError(_named(taken, TAKEN_NAMES), field="name", params={"name": ", ".join(taken)})
        return [Player.objects.create(group=group, name=name) for name in kept]


PLAYER_NAME_LIMIT = Player._meta.get_field("name").max_length or 0
# What refuses a new player's name, said of one name or of several (``{name}`` lists them as
# the group has them).
ARCHIVED_NAMES = (
    gettext_noop("{name} is archived: bring them back from the archived players."),
    gettext_noop("{name} are archived: bring them back from the archived players."),
)
TAKEN_NAMES = (
    gettext_noop("This group already has a player called {name}."),
    gettext_noop("This group already has players called {name}."),
)
PLAYER_LOOKS_ALIKE = gettext_noop(
    "“{value}” looks the same as {name}, already a player of this group: choose a name that tells them apart."
)


def _named(names: Sequence[str], said: tuple[str, str]) -> str:
    return said[0] if len(names) == 1 else said[1]


def rename_player(*, player: Player, name: str) -> Player:
    """Renaming keeps every seat and result: history links to the player, not the name."""
    player.name = _player_name(group=player.group, name=name, excluding=player.pk)
    player.save(update_fields=["name"])
    return player


def _player_name(*, group: Group, name: str, excluding: int | None = None) -> str:
    """``name`` as kept, or RuleError naming the player of the group it cannot be told apart
    from (another case, look-alike characters), archived ones too."""
    name = naming.clean_name(name, field="name", limit=PLAYER_NAME_LIMIT)
    others = group.players.only("name", "archived_at")
    if excluding is not None:
        others = others.exclude(pk=excluding)
    found = naming.twin(name, ((other.name, other) for other in others))
    if found is None:
        return name
    other = found[1]
    if other.archived_at is not None:
        raise RuleError(ARCHIVED_NAMES[0], field="name", params={"name": other.name})
    if naming.same_but_case(name, other.name):
        raise RuleError(TAKEN_NAMES[0], field="name", params={"name": other.name})
    raise RuleError(PLAYER_LOOKS_ALIKE, field="name", params={"value": name, "name": other.name})


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
    """A game night; its place, when it has one, tells it apart from the group's other nights
    of that date (the lists show a night as its date and place)."""
    place = night_place(group=group, date=date, place=place)
    return GameNight.objects.create(group=group, date=date, place=place, notes=notes.strip())


PLACE_LIMIT = GameNight._meta.get_field("place").max_length or 0
NIGHT_TAKEN = gettext_noop("This group already has a game night at {name} on {date}.")
NIGHT_LOOKS_ALIKE = gettext_noop(
    "“{value}” looks the same as {name}, where this group already has a game night on {date}:"
    " choose a place that tells them apart."
)


def night_place(*, group: Group, date: date | str, place: str) -> str:
    """``place`` as kept (blank allowed), or RuleError: the group has a night that date at a
    place that cannot be told apart from it."""
    place = naming.clean_name(place, field="place", limit=PLACE_LIMIT, place=True)
    if place:
        same_day = group.nights.filter(date=date).exclude(place="").values_list("place", "pk")
        found = naming.twin(place, same_day)
        if found is not None:
            said = NIGHT_TAKEN if naming.same_but_case(place, found[0]) else NIGHT_LOOKS_ALIKE
            raise RuleError(said, field="place", params={"name": found[0], "value": place, "date": str(date)})
    return place


def create_session(
    *,
    night: GameNight,
    game: str,
    players: Sequence[Player],
    colours: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    secret: str | None = None,
    rematch_of: GameSession | None = None,
) -> GameSession:
    """A new session in set-up, seated in the given order (a new random secret unless given)."""
    spec = get_game(game)
    cleaned = spec.clean_options(options or {})
    if spec.edition_table:  # the session keeps the table it started with
        cleaned["table"] = night.group.edition_tables.get(spec.slug) or None
    spec.check_player_count(len(players), cleaned)  # as the group's table allows (TB-1)
    if len({p.pk for p in players}) != len(players):
        raise RuleError(gettext_noop("Each player can take only one seat."), field="seats")
    if any(p.group_id != night.group_id for p in players):
        raise RuleError(gettext_noop("Every player must belong to this group."), field="seats")
    archived = next((p for p in players if p.archived_at is not None), None)
    if archived is not None:
        raise RuleError(
            gettext_noop("{name} is archived: bring them back first."), field="seats", params={"name": archived.name}
        )
    if len(colours) > len(players):
        raise RuleError(gettext_noop("Give at most one colour per seat."), field="colours")
    colours = list(colours) + [""] * (len(players) - len(colours))
    chosen = [c for c in colours if c]
    if len(set(chosen)) != len(chosen):
        raise RuleError(gettext_noop("Two players cannot share a colour."), field="colours")
    cleaned |= spec.decisions
    keys = [str(p.pk) for p in players]
    with transaction.atomic():
        session = GameSession(
            night=night,
            group_id=night.group_id,
            game=spec.slug,
            options=cleaned,
            secret=secret or new_secret(),
            rematch_of=rematch_of,
        )
        session.state = core.initial_state(spec.rules, seats=keys, options=cleaned, seed=session.seed)
        session.save()
        Seat.objects.bulk_create(
            Seat(session=session, player=player, order=index, colour=colour)
            for index, (player, colour) in enumerate(zip(players, colours, strict=True))
        )
        _bump_night(night.pk)  # the night's phones may now show this game
    return session


@dataclass(frozen=True)
class RematchOutcome:
    session: GameSession
    created: bool  # False: the session had its rematch already (another device asked first)


def rematch_session(*, session: GameSession, author: User | None = None) -> RematchOutcome:
    """The same game again in the session's night, started: the same options, players, seats
    and colours, with the next player first (``sessions.rematch``).

    A session has one rematch: asking again, from any device and with any idempotency key,
    gives the one started first.
    """
    with transaction.atomic():
        # Locked so that two devices asking at the same moment queue here and the second one
        # finds the first one's rematch (``rematch_of`` is unique: the data cannot hold two).
        previous = GameSession.objects.select_for_update().get(pk=session.pk)
        if previous.status != core.FINISHED:
            raise RuleError(gettext_noop("Only a finished session can be played again."), field="session")
        existing = GameSession.objects.filter(rematch_of=previous).first()
        if existing is not None:
            return RematchOutcome(session=existing, created=False)
        spec = get_game(previous.game)
        seats = {seat.key: seat for seat in previous.seats.select_related("player")}
        order, opening = rematch.next_seating(spec.slug, list(seats), selectors.chosen_first_player(previous))
        colours = rematch.colours_played({key: seat.colour for key, seat in seats.items()}, previous.state["game"])
        new = create_session(
            night=previous.night,
            game=spec.slug,
            players=[seats[key].player for key in order],
            colours=[colours[key] for key in order],
            options={option.name: previous.options.get(option.name) for option in spec.options},
            rematch_of=previous,
        )
        for version, (type, payload) in enumerate([(core.START, {}), *opening]):
            append_event(session_id=new.pk, expected_version=version, type=type, payload=payload, author=author)
    new.refresh_from_db()
    return RematchOutcome(session=new, created=True)


def start_session(
    *,
    session_id: int,
    expected_version: int,
    author: User | None = None,
    idempotency_key: str | None = None,
) -> EventOutcome:
    """The game started on the pages, and in Tower of Babel its first player named at once:
    the one the app drew (TB-9: "the product offers a random pick"), so the table plays
    without one more tap; the host's page offers another until someone moves
    (``name_first_player``). A repeated key records nothing more."""
    game = GameSession.objects.filter(pk=session_id).values_list("game", flat=True).first()
    draws_first = game == TOWER_OF_BABEL
    with transaction.atomic():
        outcome = append_event(
            session_id=session_id,
            expected_version=expected_version,
            type=core.START,
            author=author,
            idempotency_key=idempotency_key,
        )
        drawn = (outcome.session.state.get("game") or {}).get("suggested_first")
        if outcome.created and draws_first and drawn:
            outcome = append_event(
                session_id=session_id,
                expected_version=outcome.session.version,
                type=tob.FIRST_PLAYER,
                payload={"seat": drawn},
                author=author,
            )
    return outcome


def name_first_player(
    *,
    session_id: int,
    expected_version: int,
    seat: str,
    author: User | None = None,
    idempotency_key: str | None = None,
) -> EventOutcome:
    """Tower of Babel's first player named by the table (TB-9): the first naming, or another
    player before anyone has moved, as an undo of the one named before and this naming (the
    log says both). The player already named again records nothing."""
    key = idempotency_key[:64] if idempotency_key else None
    with transaction.atomic():
        session = GameSession.objects.select_for_update().get(pk=session_id)
        repeat = session.events.filter(idempotency_key=key).first() if key else None
        if repeat is not None:
            return EventOutcome(session=session, event=repeat, created=False)
        if session.version != expected_version:
            raise StaleWrite(session)
        named = (session.state.get("game") or {}).get("active")
        if named is not None:
            last = session.events.filter(seq=(session.state["in_effect"] or [0])[-1]).first()
            if last is None or last.type != tob.FIRST_PLAYER:
                raise RuleError(
                    gettext_noop("Someone has played already: to change who starts, undo back to the start."),
                    field="seat",
                    rule="TB-9",
                )
            if named == seat:
                return EventOutcome(session=session, event=last, created=False)
            append_event(session_id=session_id, expected_version=expected_version, type=core.UNDO, author=author)
            expected_version += 1
        return append_event(
            session_id=session_id,
            expected_version=expected_version,
            type=tob.FIRST_PLAYER,
            payload={"seat": seat},
            author=author,
            idempotency_key=key,
        )


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
    """Record one event after the engine accepts it; finishing writes the Results too. The
    table's devices hear of it as soon as it is committed (``push.announce``)."""
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
            event = _record(
                session,
                type=type,
                payload=payload,
                author=author,
                author_label=author_label,
                key=key,
            )
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
        state = _undone(session, rules)
    else:
        state = core.step(rules, session.state, new_event)
        if len(state["in_effect"]) % core.CHECKPOINT_EVERY == 0:
            StateSnapshot.objects.create(session=session, depth=len(state["in_effect"]), state=state)
    event = SessionEvent.objects.create(
        session=session,
        seq=seq,
        type=type,
        payload=payload,
        author=author,
        author_label=author_label[:40],
        idempotency_key=key,
    )
    was_status = session.status
    was_finished = session.status == core.FINISHED
    session.state, session.version, session.status = state, seq, state["status"]
    if _changes_the_nights_game(session, was_status=was_status, type=type):
        _bump_night(session.night_id)
    session.updated_at = timezone.now()
    if session.status == core.FINISHED and not was_finished:
        session.finished_at = session.updated_at
        _write_results(session, rules)
    session.save(update_fields=list(MOVED_FIELDS))
    keys.version_written(session.pk, seq)
    # Once committed, what the first screen of the version would read again: what the move
    # changed of the session (``selectors.kept_session``) and its event (``event_words``).
    moved, recorded = moved_fields(session), Recorded.of(event)
    night_id, session_id, version = session.night_id, session.pk, session.version

    def committed() -> None:
        # What the devices' fetches read (one round trip), then the news: every device fetches
        # the version, the first of each view rendering it for the others (``live``); nothing
        # is rendered ahead of them.
        keys.session_moved(session_id, version, moved=moved, recorded=recorded)
        push.announce(night_id=night_id, session_id=session_id, version=version)

    transaction.on_commit(committed)
    return event


def _undone(session: GameSession, rules: core.Rules) -> Any:
    """The state without the last event in effect: the nearest snapshot still in effect, then
    the events in effect since it (at most ``CHECKPOINT_EVERY``), not the whole log."""
    kept = session.state["in_effect"][:-1]
    session.snapshots.filter(depth__gt=len(kept)).delete()
    snapshot = session.snapshots.order_by("-depth").first()
    seats = session.state["entry"]["seats"]
    if snapshot is None:
        depth, start = 0, core.initial_state(rules, seats=seats, options=session.options, seed=session.seed)
    else:
        depth, start = snapshot.depth, snapshot.state
    wanted = set(kept[depth:])
    since = kept[depth - 1] if depth else 0
    events = [e.as_core_event() for e in session.events.filter(seq__gt=since).order_by("seq") if e.seq in wanted]
    return core.resume(rules, start, events)


def _write_results(session: GameSession, rules: core.Rules) -> None:
    standings = core.standings(rules, session.state)
    assert standings is not None  # core refuses to finish without them
    Result.objects.bulk_create(
        Result(session=session, player_id=int(s.seat), score=s.score, rank=s.rank, breakdown=dict(s.breakdown))
        for s in standings
    )
    transaction.on_commit(lambda: enqueue_statistics_update(session.pk))


def enqueue_statistics_update(session_id: int, *, whole_group: bool = False) -> None:
    """Queue the statistics update; a broker that is down must not fail the finished game.

    The session then stays pending (finished, no ``RatedSession``) and its group is marked
    behind, so the group's next update counts every pending session (as the catch-up task and
    the nightly rebuild do); ``whole_group`` marks it so at once (an import's one update).
    """
    from sessions.tasks import update_statistics

    if whole_group:
        _mark_statistics_behind(session_id)
    try:
        update_statistics.delay(session_id)
    except Exception:  # the broker's own errors vary by transport
        logger.warning("could not enqueue the statistics update of session %s", session_id, exc_info=True)
        _mark_statistics_behind(session_id)


def _mark_statistics_behind(session_id: int) -> None:
    Group.objects.filter(sessions__pk=session_id).update(statistics_behind=True)


# --- join codes and the phones of a night ----------------------------------------------------


def _changes_the_nights_game(session: GameSession, *, was_status: str, type: str) -> bool:
    """Whether an event may change which game the night's phones and table display show
    (``selectors.joined_device``): a start, a finish or their undo, or a rematch's first move.
    A rematch opens started with its first player named, so that move is at most its third
    event (one more bump for another early move only costs each device one full check)."""
    stage = (session.status == core.SETUP, session.is_open)
    if stage != (was_status == core.SETUP, was_status in core.OPEN_STATUSES):
        return True
    opening = selectors.REMATCH_OPENING
    return session.rematch_of_id is not None and type not in opening and session.version <= len(opening) + 1


def _bump_night(night_id: int) -> None:
    """Tell every live region of the night that something it shows changed (call it inside
    the transaction that makes the change)."""
    GameNight.objects.filter(pk=night_id).update(live_revision=F("live_revision") + 1)
    forget_night_revision(night_id)  # now, and again once committed (a read in between may
    transaction.on_commit(lambda: forget_night_revision(night_id))  # have cached the old one)
    transaction.on_commit(lambda: push.announce(night_id=night_id))


def forget_night_revision(night_id: int) -> None:
    """Drop the cached revisions of the night's sessions (``selectors.night_revision``)."""
    keys.night_changed(list(GameSession.objects.filter(night_id=night_id).values_list("pk", flat=True)))


def create_join_code(*, session: GameSession | None = None, night: GameNight | None = None) -> JoinCode:
    """A new code for the night (the session's night when given a session)."""
    if night is None:
        if session is None:
            raise TypeError("create_join_code needs a session or a night")
        if not session.is_open:
            raise RuleError(gettext_noop("A closed session cannot be joined."), field="session")
        night = session.night
    for _attempt in range(5):
        code = "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))
        try:
            with transaction.atomic():
                join_code = JoinCode.objects.create(night=night, code=code)
                _bump_night(night.pk)
                return join_code
        except IntegrityError:
            continue
    raise RuntimeError("could not draw a free join code")


def revoke_join_code(*, join_code: JoinCode) -> None:
    """Stop the code at once: every device that joined through it is refused from its next
    request on. Their seats stay theirs until another phone with a working code claims one
    (a phone that re-joins with the new code keeps its player)."""
    with transaction.atomic():
        revoked = JoinCode.objects.filter(pk=join_code.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
        if revoked:
            GuestDevice.objects.filter(join_code=join_code).update(requested=None)
            _bump_night(join_code.night_id)
    join_code.refresh_from_db(fields=["revoked_at"])


def join_night(*, join_code: JoinCode, device_id: int | None = None) -> GuestDevice:
    """A phone joins the code's night; a phone that joined it before (through a code since
    replaced) keeps its row and now goes through this code."""
    with transaction.atomic():
        device = None
        if device_id is not None:
            device = GuestDevice.objects.select_for_update().filter(pk=device_id, night_id=join_code.night_id).first()
        if device is None:
            device = GuestDevice.objects.create(night_id=join_code.night_id, join_code=join_code)
        elif device.join_code_id != join_code.pk:
            device.join_code = join_code
            device.save(update_fields=["join_code"])
        _bump_night(join_code.night_id)
    return device


def _lock_night(night_id: int) -> None:
    """Serialise the seat changes of one night (the unique constraint is the last guard)."""
    GameNight.objects.select_for_update().filter(pk=night_id).values_list("pk").first()


def _player_of_night(night_id: int, player_id: int) -> Player:
    player = Player.objects.filter(pk=player_id, seats__session__night_id=night_id).distinct().first()
    if player is None:
        raise RuleError(gettext_noop("Choose a player of this game night."), field="seat")
    return player


def claim_seat(*, device: GuestDevice, player_id: int) -> GuestDevice:
    """The phone plays ``player_id`` from now on, if no other phone does (else it asks for it)."""
    try:
        with transaction.atomic():
            _lock_night(device.night_id)
            player = _player_of_night(device.night_id, player_id)
            fresh = GuestDevice.objects.select_for_update().get(pk=device.pk)
            holder = (
                GuestDevice.objects.select_related("join_code")
                .filter(night_id=device.night_id, player=player)
                .exclude(pk=device.pk)
                .first()
            )
            if holder is not None and holder.join_code.revoked_at is not None:  # a stopped phone
                holder.player = None
                holder.save(update_fields=["player"])
            elif holder is not None:
                fresh.requested = player
                fresh.save(update_fields=["requested"])
            else:
                fresh.player, fresh.requested = player, None
                fresh.save(update_fields=["player", "requested"])
            _bump_night(device.night_id)
    except IntegrityError:
        raise RuleError(gettext_noop("Another phone took this player a moment ago."), field="seat") from None
    return fresh


def cancel_seat_request(*, device: GuestDevice) -> None:
    with transaction.atomic():
        if GuestDevice.objects.filter(pk=device.pk).exclude(requested=None).update(requested=None):
            _bump_night(device.night_id)


def leave_seat(*, device: GuestDevice) -> None:
    """The phone stops playing its player (the seat is free for another phone)."""
    with transaction.atomic():
        if GuestDevice.objects.filter(pk=device.pk).exclude(player=None).update(player=None):
            _bump_night(device.night_id)


def free_seat(*, night: GameNight, player_id: int) -> None:
    """The host frees a player's seat: the phone that held it no longer acts or sees secrets for it."""
    with transaction.atomic():
        if GuestDevice.objects.filter(night=night, player_id=player_id).update(player=None):
            _bump_night(night.pk)


def answer_seat_request(*, night: GameNight, requester_id: int, allow: bool, holder: GuestDevice | None = None) -> None:
    """Let a phone that asked for a seat take it (from the phone holding it), or refuse.

    The host answers for any seat of the night; a phone (``holder``) only for its own player.
    """
    with transaction.atomic():
        _lock_night(night.pk)
        asking = GuestDevice.objects.select_for_update().filter(pk=requester_id, night=night).first()
        if asking is None or asking.requested_id is None:
            raise RuleError(gettext_noop("That request is no longer pending."), field="request")
        player_id = asking.requested_id
        if holder is not None and GuestDevice.objects.filter(pk=holder.pk, player_id=player_id).count() == 0:
            raise RuleError(gettext_noop("Only the phone playing this player can hand it over."), field="request")
        if allow:
            GuestDevice.objects.filter(night=night, player_id=player_id).update(player=None)
            asking.player = asking.requested
        asking.requested = None
        asking.save(update_fields=["player", "requested"])
        _bump_night(night.pk)


def touch_device(*, device: GuestDevice) -> None:
    """Remember when the phone was last seen (once a minute at most, to keep polls cheap)."""
    now = timezone.now()
    if device.last_seen < now - timedelta(minutes=1):
        GuestDevice.objects.filter(pk=device.pk).update(last_seen=now)


# --- removing and merging players ------------------------------------------------------------


@dataclass(frozen=True)
class Removal:
    """What removing a player did: deleted (no history) or archived (``results`` kept)."""

    name: str
    group_id: int
    deleted: bool
    results: int


def remove_player(*, player: Player) -> Removal:
    """Delete a player who never sat at a table, else archive them: off the seat lists, their
    seats, results and statistics kept. Removing an archived player again changes nothing."""
    with transaction.atomic():
        history = player_history(player)
        if not history.any:
            try:
                with transaction.atomic():
                    player.delete()
                return Removal(name=player.name, group_id=player.group_id, deleted=True, results=0)
            except ProtectedError:  # seated a moment ago: archived like any player with history
                history = player_history(player)
        if player.archived_at is None:
            player.archived_at = timezone.now()
            player.save(update_fields=["archived_at"])
    return Removal(name=player.name, group_id=player.group_id, deleted=False, results=history.results)


def unarchive_player(*, player: Player) -> Player:
    """Bring an archived player back onto the seat lists."""
    if player.archived_at is not None:
        player.archived_at = None
        player.save(update_fields=["archived_at"])
    return player


def merge_players(*, keep: Player, drop: Player) -> Player:
    """Two names for one person: ``drop``'s seats, results, plays of other games and phones
    move to ``keep``, then ``drop`` is deleted and the group's statistics are rebuilt.

    Refused, with nothing written, when they are the same player, of different groups, or
    sat in the same game (two people), or while ``drop`` sits in an open game (the phones
    at the table hold its seat).
    """
    if keep.pk == drop.pk:
        raise RuleError(gettext_noop("Choose another player to merge into."), field="into")
    if keep.group_id != drop.group_id:
        raise RuleError(gettext_noop("Both players must belong to the same group."), field="into")
    names = {"drop": drop.name, "keep": keep.name}
    with transaction.atomic():
        seated = Seat.objects.filter(player=drop).values("session_id")
        sessions = list(GameSession.objects.select_for_update().filter(pk__in=seated).order_by("pk"))
        same_play = PlainResult.objects.filter(player=drop, source=OuterRef("source"), play=OuterRef("play"))
        if (
            Seat.objects.filter(session__in=sessions, player=keep).exists()
            or PlainResult.objects.filter(Exists(same_play), player=keep).exists()
        ):
            raise RuleError(
                gettext_noop("{drop} and {keep} played in the same game: they are two people."),
                field="into",
                params=names,
            )
        if any(session.is_open for session in sessions):
            raise RuleError(gettext_noop("Finish or abandon {drop}'s open game first."), field="into", params=names)
        keys = {str(drop.pk): str(keep.pk)}
        for session in sessions:
            _move_seat_keys(session, keys, names)
        # Only the sessions locked and rewritten above: a seat taken since stops the delete below.
        Seat.objects.filter(player=drop, session__in=sessions).update(player=keep)
        moved = Result.objects.filter(player=drop, session__in=sessions).update(player=keep)
        PlainResult.objects.filter(player=drop).update(player=keep)
        _move_devices(drop=drop, keep=keep)
        if keep.user_id is None and drop.user_id is not None:
            keep.user_id = drop.user_id
            keep.save(update_fields=["user"])
        lock_statistics(drop.group_id)  # a rebuild under way ends first, with ``drop``'s rows
        try:
            drop.delete()  # its statistics rows go with it; the rebuild gives them to ``keep``
        except ProtectedError:
            raise RuleError(
                gettext_noop("{drop} just sat down in a new game: try again."), field="into", params=names
            ) from None
        for night_id in {session.night_id for session in sessions}:
            _bump_night(night_id)
        if moved:
            group_id = keep.group_id
            transaction.on_commit(lambda: enqueue_statistics_rebuild(group_id))
    return keep


def _move_seat_keys(session: GameSession, keys: dict[str, str], names: dict[str, str]) -> None:
    """Rename a seat in the session's log and replay it (the state is the log's replay, as an
    import does); a log the rename would change otherwise refuses the merge. The replay is
    compared with the log's replay under the old seats, not with the stored state: a state an
    earlier release stored may lack a key today's rules add (Babel On!'s ``wrong_call``)."""
    rules = get_game(session.game).rules
    seats = [str(pk) for pk in session.seats.order_by("order").values_list("player_id", flat=True)]
    events = list(session.events.order_by("seq"))
    replay = {"options": session.options, "seed": session.seed}
    before = core.replay(rules, seats=seats, events=[event.as_core_event() for event in events], **replay)
    for event in events:
        event.payload = payload_with_new_seats(event.type, event.payload, keys)
    state = core.replay(
        rules, seats=[keys.get(pk, pk) for pk in seats], events=[event.as_core_event() for event in events], **replay
    )
    if not corresponds(before, state, keys):
        raise RuleError(gettext_noop("A game of {drop}'s cannot be moved to {keep}."), field="into", params=names)
    SessionEvent.objects.bulk_update(events, ["payload"])
    session.snapshots.all().delete()  # states under the old key; an undo replays from the start
    session.state = state
    session.save(update_fields=["state"])


def _move_devices(*, drop: Player, keep: Player) -> None:
    """Phones holding or asking for ``drop`` now hold or ask for ``keep`` (not where a phone
    of the same night holds ``keep`` already: one phone per player and night)."""
    held = GuestDevice.objects.filter(player=keep).values("night_id")
    GuestDevice.objects.filter(player=drop, night_id__in=held).update(player=None)
    GuestDevice.objects.filter(player=drop).update(player=keep)
    GuestDevice.objects.filter(requested=drop).exclude(player=keep).update(requested=keep)


def enqueue_statistics_rebuild(group_id: int) -> None:
    """Queue a rebuild of the group's statistics (results changed players); a broker that is
    down leaves them to the nightly rebuild."""
    from sessions.tasks import rebuild_group_statistics

    try:
        rebuild_group_statistics.delay(group_id)
    except Exception:  # the broker's own errors vary by transport
        logger.warning("could not enqueue the statistics rebuild of group %s", group_id, exc_info=True)
