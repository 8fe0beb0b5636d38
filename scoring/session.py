"""The session core: lifecycle, undo and replay around a game's engine.

A session's state is what folding its event log through ``step`` gives. ``undo`` is an
event too: it reverts the last event still in effect, and the log keeps both, so replay
needs the whole log (``replay``) while every other event can be applied to the cached
state alone (``step``). Every session can take the table's final scores or places
(``scoring.score_entry``); a game's own engine adds its play-by-play events.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from scoring.engine import JSON, Engine, Standing
from scoring.errors import RuleError, gettext_noop
from scoring.score_entry import ScoreEntry

SETUP, PLAYING, SCORING, FINISHED, ABANDONED = "setup", "playing", "scoring", "finished", "abandoned"
OPEN_STATUSES = (SETUP, PLAYING, SCORING)

START, FINISH, ABANDON, UNDO = "session.start", "session.finish", "session.abandon", "undo"
LIFECYCLE_EVENTS = frozenset({START, FINISH, ABANDON, UNDO})


@dataclass(frozen=True)
class Event:
    seq: int
    type: str
    payload: Mapping[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True)
class Rules:
    """What the core needs to know of one game."""

    entry: ScoreEntry
    engine: Engine | None = None

    def event_types(self) -> frozenset[str]:
        game_events = self.engine.event_types() if self.engine else frozenset()
        return LIFECYCLE_EVENTS | self.entry.event_types() | game_events


def initial_state(rules: Rules, *, seats: Sequence[str], options: Mapping[str, JSON], seed: int) -> JSON:
    return {
        "status": SETUP,
        "game": rules.engine.initial_state(seats=seats, options=options, seed=seed) if rules.engine else None,
        "entry": rules.entry.initial_state(seats=seats, options=options, seed=seed),
        "in_effect": [],
    }


def standings(rules: Rules, state: JSON) -> list[Standing] | None:
    """The table's own entry wins over the engine's count: it is what they agreed on."""
    entered = rules.entry.standings(state["entry"])
    if entered is not None or rules.engine is None:
        return entered
    return rules.engine.standings(state["game"])


def step(rules: Rules, state: JSON, event: Event) -> JSON:
    """The state after one event that is not an undo."""
    if event.type == UNDO:
        raise ValueError("undo needs the whole log: use replay()")
    status = state["status"]
    if status == FINISHED:
        raise RuleError(gettext_noop("This session is finished; it can no longer change."), field="type")
    new = _apply(rules, state, status, event)
    return {**new, "in_effect": [*state["in_effect"], event.seq]}


# How often (in events in effect) a replay keeps the state, and the database a snapshot, so
# that an undo replays at most this many moves, not the whole log.
CHECKPOINT_EVERY = 32


def replay(
    rules: Rules, *, seats: Sequence[str], options: Mapping[str, JSON], seed: int, events: Iterable[Event]
) -> JSON:
    """The state a whole log gives, undos included: linear in the log's length, as an undo
    starts again from the last checkpoint still in effect."""
    in_effect: list[Event] = []
    checkpoints = {0: initial_state(rules, seats=seats, options=options, seed=seed)}
    state = checkpoints[0]
    for event in events:
        if event.type != UNDO:
            state = step(rules, state, event)
            in_effect.append(event)
            if len(in_effect) % CHECKPOINT_EVERY == 0:
                checkpoints[len(in_effect)] = state
            continue
        check_undo(state)
        in_effect.pop()
        for depth in [depth for depth in checkpoints if depth > len(in_effect)]:
            del checkpoints[depth]
        nearest = max(checkpoints)
        state = resume(rules, checkpoints[nearest], in_effect[nearest:])
    return state


def resume(rules: Rules, state: JSON, events: Iterable[Event]) -> JSON:
    """The state after ``events``, none of them an undo, from ``state``."""
    for event in events:
        state = step(rules, state, event)
    return state


def check_undo(state: JSON) -> None:
    if state["status"] == FINISHED:
        raise RuleError(gettext_noop("A finished session cannot be undone."), field="type")
    if not state["in_effect"]:
        raise RuleError(gettext_noop("There is nothing to undo."), field="type")


def _apply(rules: Rules, state: JSON, status: str, event: Event) -> JSON:
    if event.type == START:
        if status != SETUP:
            raise RuleError(gettext_noop("The session has already started."), field="type")
        return {**state, "status": PLAYING}
    if event.type == ABANDON:
        if status == ABANDONED:
            raise RuleError(gettext_noop("The session is already abandoned."), field="type")
        return {**state, "status": ABANDONED}
    if status == ABANDONED:
        raise RuleError(gettext_noop("This session was abandoned; undo that first."), field="type")
    if event.type == FINISH:
        if standings(rules, state) is None:
            raise RuleError(gettext_noop("Enter the scores or the finishing order first."), field="type")
        return {**state, "status": FINISHED}
    if event.type in rules.entry.event_types():
        entry = rules.entry.apply(state["entry"], type=event.type, payload=event.payload)
        return {**state, "entry": entry, "status": SCORING}
    if rules.engine is not None and event.type in rules.engine.event_types():
        if status not in (PLAYING, SCORING):
            raise RuleError(gettext_noop("Start the session first."), field="type")
        game = rules.engine.apply(state["game"], type=event.type, payload=event.payload)
        ended = rules.engine.standings(game) is not None
        return {**state, "game": game, "status": SCORING if ended else status}
    raise RuleError(gettext_noop("Unknown event type {type}."), field="type", params={"type": event.type})
