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


def test_recorded_scores_give_each_seat_its_score_rank_and_breakdown():
    state = ENTRY.apply(STATE, type=RECORD_SCORES, payload={"scores": {"1": 7, "2": 9}})
    assert (state["scores"], state["tiebreaks"], state["places"]) == ({"1": 7, "2": 9}, None, None)
    standings = ENTRY.standings(state)
    assert [(s.seat, s.score, s.rank, s.breakdown) for s in standings] == [
        ("1", 7, 2, {"points": 7}),
        ("2", 9, 1, {"points": 9}),
    ]


def test_a_tiebreak_breaks_a_tie_on_points_and_shows_in_the_breakdown():  # SW-14
    entry = ScoreEntry(tiebreak="coins", rule="SW-14")
    scores = {"scores": {"1": 9, "2": 9}}
    state = entry.apply(STATE, type=RECORD_SCORES, payload={**scores, "tiebreaks": {"1": 2, "2": 5}})
    assert [(s.score, s.rank, s.breakdown) for s in entry.standings(state)] == [
        (9, 2, {"points": 9, "coins": 2}),
        (9, 1, {"points": 9, "coins": 5}),
    ]
    shared = entry.apply(STATE, type=RECORD_SCORES, payload=scores)
    assert shared["tiebreaks"] is None
    assert [s.rank for s in entry.standings(shared)] == [1, 1]
    with pytest.raises(RuleError) as refused:
        entry.apply(STATE, type=RECORD_SCORES, payload={**scores, "tiebreaks": {"1": 2, "2": -1}})
    assert refused.value.field == "tiebreaks.2"
    ignored = ENTRY.apply(STATE, type=RECORD_SCORES, payload={**scores, "tiebreaks": {"1": 2, "2": 5}})
    assert ignored["tiebreaks"] is None


def test_scores_and_places_replace_each_other():
    entry = ScoreEntry(tiebreak="coins")
    scored = entry.apply(STATE, type=RECORD_SCORES, payload={"scores": {"1": 3, "2": 4}, "tiebreaks": {"1": 1, "2": 1}})
    placed = entry.apply(scored, type=RECORD_PLACES, payload={"places": {"1": 1, "2": 1}})
    assert (placed["scores"], placed["tiebreaks"], placed["places"]) == (None, None, {"1": 1, "2": 1})
    assert [(s.score, s.rank, s.breakdown) for s in entry.standings(placed)] == [(None, 1, {}), (None, 1, {})]
    again = entry.apply(placed, type=RECORD_SCORES, payload={"scores": {"1": 3, "2": 4}})
    assert (again["scores"], again["tiebreaks"], again["places"]) == ({"1": 3, "2": 4}, None, None)
    assert ENTRY.standings(STATE) is None


def test_an_unknown_event_type_is_refused_naming_it():
    with pytest.raises(RuleError) as refused:
        ENTRY.apply(STATE, type="entry.guess", payload={})
    assert (refused.value.field, refused.value.params, refused.value.rule) == ("type", {"type": "entry.guess"}, None)
