"""Undo and replay stay linear in the log (issue 16, item 1): a replay starts an undo again
from its last checkpoint, the server from its last snapshot still in effect; both give
exactly the state of replaying the whole log from the start after every undo."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import session as core
from scoring.babel_on import engine as bo
from scoring.errors import RuleError
from sessions import services
from sessions.games import get_game
from sessions.models import StateSnapshot

RULES = get_game("babel-on").rules
SEATS = ["1", "2"]
OPENING = [
    (core.START, {}),
    (bo.SETUP, {"colours": {"1": "red", "2": "blue"}}),
    (bo.ROLLOFF, {"rolls": {"1": 6, "2": 1}}),
]
# Moves that are always legal once the game is on: a wrong call (the turn passes) and a note.
MOVES = [
    (bo.ROLL, {"call": "even", "roll": 1}),
    (bo.ROLL, {"call": "odd", "roll": 4}),
    (bo.ADJUST, {"note": "The cat walked on the table."}),
]
actions = st.lists(st.one_of(st.just("undo"), st.sampled_from(range(len(MOVES)))), min_size=1, max_size=160)


def restarting_replay(events):
    """The old replay, the reference: after every undo, the whole log in effect from the start."""
    start = core.initial_state(RULES, seats=SEATS, options={}, seed=1)
    in_effect, state = [], start
    for event in events:
        if event.type == core.UNDO:
            core.check_undo(state)
            in_effect.pop()
            state = core.resume(RULES, start, in_effect)
        else:
            state = core.step(RULES, state, event)
            in_effect.append(event)
    return state


def accepted_log(choices):
    """The opening, then each chosen move or undo the rules accept (a refused one is dropped),
    and the state the reference replay gives, kept as the log grows."""
    log = [core.Event(seq=n, type=t, payload=p) for n, (t, p) in enumerate(OPENING, start=1)]
    state = restarting_replay(log)
    start = core.initial_state(RULES, seats=SEATS, options={}, seed=1)
    in_effect = list(log)
    for choice in choices:
        kind, payload = (core.UNDO, {}) if choice == "undo" else MOVES[choice]
        event = core.Event(seq=len(log) + 1, type=kind, payload=payload)
        try:
            if kind == core.UNDO:
                core.check_undo(state)
                state = core.resume(RULES, start, in_effect[:-1])
                in_effect.pop()
            else:
                state = core.step(RULES, state, event)
                in_effect.append(event)
        except RuleError:
            continue
        log.append(event)
    assert restarting_replay(log) == state
    return log, state


@settings(max_examples=60, deadline=None)
@given(actions)
def test_the_checkpointed_replay_equals_the_replay_from_the_start_after_every_undo(choices):
    log, state = accepted_log(choices)
    assert core.replay(RULES, seats=SEATS, options={}, seed=1, events=log) == state


def test_a_long_babel_on_game_copies_neither_its_history_nor_its_log():
    """2,000 events with an undo every 20: the old replay restarted from the beginning each time."""
    log, state = accepted_log([*([0, 1] * 10 + ["undo"]) * 100])
    assert len(log) > 2000
    assert core.replay(RULES, seats=SEATS, options={}, seed=1, events=log) == state
    after = bo.BabelOn().apply(state["game"], type=bo.ADJUST, payload={"note": "n"})
    assert after["checks"] is state["game"]["checks"]  # shared, not copied: it only grows
    assert len(after["adjustments"]) == len(state["game"]["adjustments"]) + 1


@pytest.fixture
def babel_on(night, players):
    session = services.create_session(night=night, game="babel-on", players=players[:2])
    for kind, payload in OPENING:
        send(session, kind, payload)
    return session


def send(session, kind, payload=None):
    session.refresh_from_db()
    keys = {"1": session.seats.all()[0].key, "2": session.seats.all()[1].key}
    if kind == bo.SETUP:
        payload = {"colours": {keys["1"]: "red", keys["2"]: "blue"}}
    if kind == bo.ROLLOFF:
        payload = {"rolls": {keys["1"]: 6, keys["2"]: 1}}
    services.append_event(session_id=session.pk, expected_version=session.version, type=kind, payload=payload or {})
    session.refresh_from_db()


def replayed(session):
    from sessions.selectors import replayed_state

    return replayed_state(session)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(choices=actions)
def test_undos_on_the_server_give_the_replay_of_the_log_and_keep_only_snapshots_in_effect(babel_on, choices):
    for choice in choices:
        kind, payload = (core.UNDO, {}) if choice == "undo" else MOVES[choice]
        try:
            send(babel_on, kind, payload)
        except RuleError:
            continue
        assert babel_on.state == replayed(babel_on)
    in_effect = babel_on.state["in_effect"]
    for snapshot in StateSnapshot.objects.filter(session=babel_on):
        assert snapshot.state["in_effect"] == in_effect[: snapshot.depth]
        assert snapshot.depth % core.CHECKPOINT_EVERY == 0


@pytest.mark.parametrize("moves", [40, 400])
def test_an_undo_costs_the_same_queries_however_long_the_log(babel_on, moves, django_assert_max_num_queries):
    for index in range(moves):
        send(babel_on, *MOVES[index % 2])
    babel_on.refresh_from_db()
    # savepoint, lock and read, the snapshots (delete, nearest), the events since it, the event,
    # the session, release: the same for 40 moves as for 400
    with django_assert_max_num_queries(9):
        services.append_event(session_id=babel_on.pk, expected_version=babel_on.version, type=core.UNDO)
    babel_on.refresh_from_db()
    assert babel_on.state == replayed(babel_on)
