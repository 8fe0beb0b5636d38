"""The session core: lifecycle, undo, and replay equals the incremental state."""

from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import session as core
from scoring.errors import RuleError
from scoring.score_entry import ScoreEntry
from scoring.seven_wonders.engine import SevenWonders

RULES = core.Rules(entry=ScoreEntry(tiebreak="coins", rule="SW-14"))
SEATS = ["1", "2", "3"]


def play(*events: tuple[str, dict]) -> dict:
    log = [core.Event(seq=i, type=t, payload=p) for i, (t, p) in enumerate(events, start=1)]
    return core.replay(RULES, seats=SEATS, options={}, seed=1, events=log)


def test_a_new_session_is_in_setup_with_nothing_to_undo():
    state = core.initial_state(RULES, seats=SEATS, options={}, seed=1)
    assert state["status"] == core.SETUP
    with pytest.raises(RuleError, match="nothing to undo"):
        core.check_undo(state)


def test_recording_scores_moves_the_session_to_scoring():
    state = play((core.START, {}), ("scores.record", {"scores": {"1": 5, "2": 9, "3": 5}}))
    assert state["status"] == core.SCORING
    ranks = {s.seat: s.rank for s in core.standings(RULES, state)}
    assert ranks == {"2": 1, "1": 2, "3": 2}


def test_the_coin_tiebreak_decides_between_equal_points():  # SW-14
    state = play(("scores.record", {"scores": {"1": 50, "2": 50, "3": 40}, "tiebreaks": {"1": 3, "2": 8, "3": 0}}))
    ranks = {s.seat: s.rank for s in core.standings(RULES, state)}
    assert ranks == {"2": 1, "1": 2, "3": 3}


def test_a_session_cannot_finish_without_scores_or_places():
    with pytest.raises(RuleError, match="scores or the finishing order"):
        play((core.START, {}), (core.FINISH, {}))


def test_a_finished_session_refuses_any_further_event_and_undo():
    state = play(("places.record", {"places": {"1": 1, "2": 2, "3": 3}}), (core.FINISH, {}))
    assert state["status"] == core.FINISHED
    with pytest.raises(RuleError, match="finished"):
        core.step(RULES, state, core.Event(seq=3, type=core.START))
    with pytest.raises(RuleError, match="cannot be undone"):
        core.check_undo(state)


def test_undo_reverts_the_last_event_still_in_effect():
    state = play(
        (core.START, {}),
        ("scores.record", {"scores": {"1": 1, "2": 2, "3": 3}}),
        ("scores.record", {"scores": {"1": 9, "2": 2, "3": 3}}),
        (core.UNDO, {}),
    )
    assert state["entry"]["scores"] == {"1": 1, "2": 2, "3": 3}
    assert state["in_effect"] == [1, 2]


def test_two_undos_revert_two_events():
    state = play(
        (core.START, {}), ("places.record", {"places": {"1": 1, "2": 1, "3": 3}}), (core.UNDO, {}), (core.UNDO, {})
    )
    assert state["status"] == core.SETUP
    assert state["in_effect"] == []


def test_an_abandoned_session_refuses_play_until_the_abandon_is_undone():
    with pytest.raises(RuleError, match="abandoned"):
        play((core.ABANDON, {}), ("places.record", {"places": {"1": 1, "2": 2, "3": 3}}))
    state = play((core.ABANDON, {}), (core.UNDO, {}), ("places.record", {"places": {"1": 1, "2": 2, "3": 3}}))
    assert state["status"] == core.SCORING


def test_an_unknown_event_type_is_refused_naming_the_field():
    with pytest.raises(RuleError) as refused:
        play(("tower.build", {}))
    assert refused.value.field == "type"


def test_starting_twice_is_refused():
    with pytest.raises(RuleError, match="already started"):
        play((core.START, {}), (core.START, {}))


points = st.dictionaries(st.sampled_from(SEATS), st.integers(-10, 200), min_size=3, max_size=3)
places = st.dictionaries(st.sampled_from(SEATS), st.integers(1, 3), min_size=3, max_size=3)
events = st.lists(
    st.one_of(
        st.just((core.START, {})),
        st.just((core.ABANDON, {})),
        st.just((core.UNDO, {})),
        st.just((core.FINISH, {})),
        points.map(lambda p: ("scores.record", {"scores": p})),
        places.map(lambda p: ("places.record", {"places": p})),
    ),
    max_size=25,
)


@settings(max_examples=200)
@given(events)
def test_replaying_the_accepted_log_equals_the_state_built_step_by_step(attempts):
    """What the server caches (step by step, refusals dropped) is what a replay gives."""
    state = core.initial_state(RULES, seats=SEATS, options={}, seed=1)
    accepted: list[core.Event] = []
    for event_type, payload in attempts:
        event = core.Event(seq=len(accepted) + 1, type=event_type, payload=payload)
        try:
            if event_type == core.UNDO:
                core.check_undo(state)
                state = core.replay(RULES, seats=SEATS, options={}, seed=1, events=[*accepted, event])
            else:
                state = core.step(RULES, state, event)
        except RuleError:
            continue
        accepted.append(event)
    assert core.replay(RULES, seats=SEATS, options={}, seed=1, events=accepted) == state


SW_RULES = core.Rules(entry=ScoreEntry(tiebreak="coins", rule="SW-14"), engine=SevenWonders())


def core_refused(rules, state, event_type, **payload):
    """``step`` refuses the event as malformed for the session (no game rule), naming the type."""
    with pytest.raises(RuleError) as error:
        core.step(rules, state, core.Event(seq=99, type=event_type, payload=payload))
    assert (error.value.field, error.value.rule) == ("type", None), error.value.message
    return error.value


def test_the_core_takes_its_own_events_the_entrys_and_the_games():
    entry = {"scores.record", "places.record"}
    assert RULES.event_types() == {"session.start", "session.finish", "session.abandon", "undo", *entry}
    assert SW_RULES.event_types() == {"session.start", "session.finish", "session.abandon", "undo", *entry} | set(
        SevenWonders().event_types()
    )


def test_each_lifecycle_refusal_names_the_event_type():
    new = core.initial_state(RULES, seats=SEATS, options={}, seed=1)
    with pytest.raises(RuleError) as error:
        core.check_undo(new)
    assert (error.value.field, error.value.rule) == ("type", None)
    core_refused(RULES, new, core.FINISH)
    core_refused(RULES, play((core.START, {})), core.START)
    abandoned = play((core.ABANDON, {}))
    core_refused(RULES, abandoned, core.ABANDON)
    core_refused(RULES, abandoned, "scores.record", scores={"1": 1, "2": 2, "3": 3})
    core_refused(RULES, abandoned, core.FINISH)
    finished = play(("places.record", {"places": {"1": 1, "2": 2, "3": 3}}), (core.FINISH, {}))
    core_refused(RULES, finished, core.ABANDON)
    with pytest.raises(RuleError) as error:
        core.check_undo(finished)
    assert (error.value.field, error.value.rule) == ("type", None)
    error = core_refused(RULES, new, "sw.sheet", seat="1", sheet={"coins": 1})
    assert error.params == {"type": "sw.sheet"}


def test_an_undo_is_never_a_step():
    with pytest.raises(ValueError) as error:  # noqa: PT011 - the type is the point: a caller's mistake, not a refusal
        core.step(RULES, core.initial_state(RULES, seats=SEATS, options={}, seed=1), core.Event(seq=1, type=core.UNDO))
    assert type(error.value) is ValueError


def test_an_undo_after_more_events_than_a_checkpoint_holds_reverts_the_last_one():
    moves = [(core.START, {})] + [("scores.record", {"scores": {"1": n, "2": 0, "3": 0}}) for n in range(1, 40)]
    for undos in (1, 7, 8, 9, 20):
        state = play(*moves, *[(core.UNDO, {})] * undos)
        kept = len(moves) - undos
        assert state["in_effect"] == list(range(1, kept + 1))
        assert state["entry"]["scores"] == {"1": kept - 1, "2": 0, "3": 0}
    state = play(*moves, (core.UNDO, {}), ("scores.record", {"scores": {"1": 99, "2": 0, "3": 0}}), (core.UNDO, {}))
    assert state["entry"]["scores"] == {"1": 38, "2": 0, "3": 0}


def sw_play(*events: tuple[str, dict]) -> dict:
    log = [core.Event(seq=i, type=t, payload=p) for i, (t, p) in enumerate(events, start=1)]
    return core.replay(SW_RULES, seats=["a", "b"], options={}, seed=1, events=log)


def test_a_games_own_events_wait_for_the_start_and_its_last_sheet_moves_the_session_to_scoring():  # SW-12, SW-14
    setup = core.initial_state(SW_RULES, seats=["a", "b"], options={}, seed=1)
    assert setup["game"] == SevenWonders().initial_state(seats=["a", "b"], options={}, seed=1)
    core_refused(SW_RULES, setup, "sw.sheet", seat="a", sheet={"coins": 3})
    state = sw_play((core.START, {}), ("sw.sheet", {"seat": "a", "sheet": {"coins": 3, "civilian": 5}}))
    assert state["status"] == core.PLAYING
    assert core.standings(SW_RULES, state) is None
    state = sw_play(
        (core.START, {}),
        ("sw.sheet", {"seat": "a", "sheet": {"coins": 3, "civilian": 5}}),
        ("sw.sheet", {"seat": "b", "sheet": {"coins": 0, "civilian": 9}}),
    )
    assert state["status"] == core.SCORING
    assert [(s.seat, s.score, s.rank) for s in core.standings(SW_RULES, state)] == [("a", 6, 2), ("b", 9, 1)]
    state = core.step(SW_RULES, state, core.Event(seq=4, type="sw.sheet", payload={"seat": "a", "sheet": {"coins": 0}}))
    assert state["status"] == core.SCORING
    entered = core.step(SW_RULES, state, core.Event(seq=5, type="places.record", payload={"places": {"a": 1, "b": 2}}))
    assert [(s.seat, s.rank) for s in core.standings(SW_RULES, entered)] == [("a", 1), ("b", 2)]


@dataclass(frozen=True)
class CountingEntry(ScoreEntry):
    """The table's score entry, noting every event it is asked to apply."""

    applied: list[object] = field(default_factory=list)

    def apply(self, state, *, type, payload):
        self.applied.append(payload)
        return super().apply(state, type=type, payload=payload)


def test_an_undo_in_a_long_log_replays_only_the_events_since_the_last_checkpoint():
    """A replay stays linear in the log: each undo starts again from the nearest checkpoint,
    so it re-applies at most ``CHECKPOINT_EVERY`` events, never the whole log."""
    entry = CountingEntry(tiebreak="coins", rule="SW-14")
    rules = core.Rules(entry=entry)
    moves = [
        core.Event(seq=n, type="scores.record", payload={"scores": {"1": n, "2": 0, "3": 0}}) for n in range(1, 101)
    ]
    undos = [core.Event(seq=100 + n, type=core.UNDO) for n in range(1, 4)]
    state = core.replay(rules, seats=SEATS, options={}, seed=1, events=[*moves, *undos])
    assert state["entry"]["scores"] == {"1": 97, "2": 0, "3": 0}
    assert state["in_effect"] == list(range(1, 98))
    assert len(entry.applied) <= len(moves) + len(undos) * core.CHECKPOINT_EVERY
