from hypothesis import given
from hypothesis import strategies as st

from scoring.ranking import competition_ranks, ranks_from_places

scores = st.dictionaries(st.text(min_size=1, max_size=4), st.integers(-50, 200), min_size=1, max_size=8)


def test_tied_players_share_the_place_and_the_next_place_is_skipped():
    assert competition_ranks({"a": (10,), "b": (12,), "c": (10,), "d": (3,)}) == {"b": 1, "a": 2, "c": 2, "d": 4}


def test_a_tiebreak_separates_equal_points():
    assert competition_ranks({"a": (61, 4), "b": (61, 7)}) == {"b": 1, "a": 2}


def test_typed_places_become_competition_ranks():
    assert ranks_from_places({"a": 1, "b": 1, "c": 2}) == {"a": 1, "b": 1, "c": 3}


@given(scores)
def test_equal_scores_always_get_equal_ranks(values):
    ranks = competition_ranks({k: (v,) for k, v in values.items()})
    for a in values:
        for b in values:
            assert (values[a] == values[b]) == (ranks[a] == ranks[b])
            if values[a] > values[b]:
                assert ranks[a] < ranks[b]


@given(scores)
def test_ranks_do_not_depend_on_the_order_players_are_listed(values):
    forward = competition_ranks({k: (v,) for k, v in values.items()})
    backward = competition_ranks({k: (v,) for k, v in reversed(list(values.items()))})
    assert forward == backward


@given(scores)
def test_a_rank_counts_the_players_strictly_ahead(values):
    ranks = competition_ranks({k: (v,) for k, v in values.items()})
    assert min(ranks.values()) == 1
    for seat, rank in ranks.items():
        assert rank == 1 + sum(1 for v in values.values() if v > values[seat])
