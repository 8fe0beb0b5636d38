import pytest

from scoring.errors import RuleError
from scoring.score_entry import RECORD_PLACES, RECORD_SCORES, ScoreEntry

ENTRY = ScoreEntry()
STATE = ENTRY.initial_state(seats=["1", "2"], options={}, seed=0)


@pytest.mark.parametrize(
    ("payload", "field", "message"),
    [
        ({}, "scores", "one number per player"),
        ({"scores": {"1": 3}}, "scores.2", "missing"),
        ({"scores": {"1": 3, "2": "x"}}, "scores.2", "whole number"),
        ({"scores": {"1": 3, "2": True}}, "scores.2", "whole number"),
        ({"scores": {"1": 3, "2": 4, "9": 1}}, "scores.9", "not a seat"),
        ({"scores": {"1": 3, "2": 10**9}}, "scores.2", "from"),
    ],
)
def test_bad_scores_are_refused_naming_the_field(payload, field, message):
    with pytest.raises(RuleError, match=message) as refused:
        ENTRY.apply(STATE, type=RECORD_SCORES, payload=payload)
    assert refused.value.field == field


def test_a_place_beyond_the_number_of_players_is_refused():
    with pytest.raises(RuleError) as refused:
        ENTRY.apply(STATE, type=RECORD_PLACES, payload={"places": {"1": 1, "2": 3}})
    assert refused.value.field == "places.2"


def test_negative_points_are_allowed_for_games_with_penalties():
    state = ENTRY.apply(STATE, type=RECORD_SCORES, payload={"scores": {"1": -4, "2": 0}})
    assert [(s.seat, s.rank) for s in ENTRY.standings(state)] == [("1", 2), ("2", 1)]


def test_places_replace_scores_entered_before():
    state = ENTRY.apply(STATE, type=RECORD_SCORES, payload={"scores": {"1": 5, "2": 0}})
    state = ENTRY.apply(state, type=RECORD_PLACES, payload={"places": {"1": 2, "2": 1}})
    assert [(s.seat, s.score, s.rank) for s in ENTRY.standings(state)] == [("1", None, 2), ("2", None, 1)]


def test_nothing_recorded_means_no_standings_yet():
    assert ENTRY.standings(STATE) is None


def test_the_engine_never_changes_the_state_it_was_given():
    before = {**STATE}
    ENTRY.apply(STATE, type=RECORD_SCORES, payload={"scores": {"1": 5, "2": 0}})
    assert before == STATE
