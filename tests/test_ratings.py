"""OpenSkill ratings and running totals replayed from matches, without the database."""

import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuceRating

from sessions.statistics.ratings import MODEL, OVERALL, Entry, Match, Replay, conservative, rate_in_place

START = datetime(2026, 1, 5, 20, 0, tzinfo=UTC)


def match(session_id, game, ranks, scores=None, days=0, breakdowns=None):
    entries = tuple(
        Entry(
            player_id=player_id,
            rank=rank,
            score=None if scores is None else scores[index],
            seat=index,
            breakdown=(breakdowns or {}).get(player_id, {}),
        )
        for index, (player_id, rank) in enumerate(ranks.items())
    )
    return Match(session_id=session_id, game=game, played_at=START + timedelta(days=days), entries=entries)


def test_the_winner_gains_and_the_loser_drops_in_the_game_and_overall():
    replay = Replay()
    replay.add(match(1, "tower-of-babel", {1: 1, 2: 2, 3: 3}))
    for game in ("tower-of-babel", OVERALL):
        winner, middle, last = (replay.ratings[(p, game)] for p in (1, 2, 3))
        assert winner.mu > MODEL.mu > last.mu
        assert winner.mu > middle.mu > last.mu
        assert winner.sigma < MODEL.sigma


def test_a_shared_first_place_is_a_win_for_each_and_an_equal_rating():
    replay = Replay()
    replay.add(match(1, "babel-on", {1: 1, 2: 1, 3: 3}))
    first, second = replay.ratings[(1, "babel-on")], replay.ratings[(2, "babel-on")]
    assert (first.wins, second.wins, replay.ratings[(3, "babel-on")].wins) == (1, 1, 0)
    assert first.mu == pytest.approx(second.mu)


def test_the_overall_rating_counts_every_game_and_each_game_only_its_own():
    replay = Replay()
    replay.add(match(1, "tower-of-babel", {1: 1, 2: 2, 3: 3}))
    replay.add(match(2, "babel-cubes", {1: 2, 2: 1}, days=1))
    assert replay.ratings[(1, OVERALL)].plays == 2
    assert replay.ratings[(1, "tower-of-babel")].plays == 1
    assert replay.ratings[(1, "babel-cubes")].wins == 0
    assert replay.ratings[(1, OVERALL)].wins == 1
    assert replay.ratings[(1, OVERALL)].last_played == START + timedelta(days=1)


def test_win_streaks_run_in_the_order_of_play_in_each_game_and_over_all_games():
    replay = Replay()
    plays = [("babel-on", {1: 1, 2: 2}), ("babel-on", {1: 1, 2: 1}), ("babel-cubes", {1: 2, 2: 1})]
    plays += [("babel-on", {1: 1, 2: 2}), ("babel-on", {1: 1, 2: 2})]
    for day, (game, ranks) in enumerate(plays):
        replay.add(match(day, game, ranks, days=day))
    streaks = {key: (r.streak, r.longest_streak) for key, r in replay.ratings.items()}
    assert streaks[(1, "babel-on")] == (4, 4)  # the shared first place is a win; the cube game is another game
    assert streaks[(1, OVERALL)] == (2, 2)  # the lost cube game broke it
    assert streaks[(2, OVERALL)] == (0, 2)
    assert streaks[(2, "babel-cubes")] == (1, 1)


def test_an_update_keeps_best_worst_and_the_sum_of_a_game_s_scores_and_skips_a_play_without_one():
    replay = Replay()
    replay.add(match(1, "tower-of-babel", {1: 1, 2: 2, 3: 3}, scores=[30, 20, -2]))
    replay.add(match(2, "tower-of-babel", {1: 2, 2: 1, 3: 3}, scores=[25, 40, 1], days=1))
    replay.add(match(3, "tower-of-babel", {1: 1, 2: 2, 3: 3}, days=2))  # places only
    ada, chiara = replay.ratings[(1, "tower-of-babel")], replay.ratings[(3, "tower-of-babel")]
    assert (ada.best, ada.worst, ada.score_sum, ada.scored, ada.plays) == (30, 25, 55, 2, 3)
    assert (chiara.best, chiara.worst, chiara.score_sum) == (1, -2, -1)
    assert replay.ratings[(1, OVERALL)].scored == 0  # two games' scores do not add up


GAMES = ("babel-on", "tower-of-babel")
PLAYS = st.lists(
    st.tuples(
        st.sampled_from(GAMES), st.lists(st.tuples(st.integers(1, 3), st.integers(-5, 60)), min_size=2, max_size=2)
    ),
    max_size=25,
)


@given(PLAYS)
def test_the_kept_figures_are_those_of_the_player_s_plays_read_in_order(plays):
    """Streaks, best, worst and sum as a plain reading of each player's plays gives them."""
    replay, seen = Replay(), {}
    for day, (game, (first, second)) in enumerate(plays):
        ranks, scores = {1: first[0], 2: second[0]}, [first[1], second[1]]
        replay.add(match(day, game, ranks, scores=scores, days=day))
        for player, (rank, score) in ((1, first), (2, second)):
            for key in ((player, game), (player, OVERALL)):
                seen.setdefault(key, []).append((rank == 1, score))
    for (player, game), results in seen.items():
        rating, runs, run = replay.ratings[(player, game)], [0], 0
        for won, _score in results:
            run = run + 1 if won else 0
            runs.append(run)
        assert (rating.streak, rating.longest_streak) == (run, max(runs))
        if game != OVERALL:
            scores = [score for _won, score in results]
            assert (rating.best, rating.worst, rating.score_sum, rating.scored) == (
                max(scores),
                min(scores),
                sum(scores),
                len(scores),
            )


def test_each_play_leaves_a_history_point_with_both_ratings_to_four_decimals():
    replay = Replay()
    replay.add(match(7, "tower-of-babel", {1: 1, 2: 2, 3: 3}))
    [point] = replay.points((1, START.year))
    rating, overall = replay.ratings[(1, "tower-of-babel")], replay.ratings[(1, OVERALL)]
    assert point[:3] == ["2026-01-05T20:00:00.000000+00:00", 7, "tower-of-babel"]  # UTC, with microseconds
    assert point[3:] == [round(value, 4) for value in (rating.mu, rating.sigma, overall.mu, overall.sigma)]
    assert rating.mu != round(rating.mu, 4)  # the rating itself keeps every digit


def test_the_history_of_each_player_is_kept_a_row_per_year_in_the_order_of_play():
    replay = Replay()
    for session_id, days in ((1, -10), (2, -5), (3, 0)):  # 26 and 31 December 2025, then 5 January
        replay.add(match(session_id, "babel-cubes", {1: 1, 2: 2}, days=days))
    assert sorted(replay.history) == [(1, 2025), (1, 2026), (2, 2025), (2, 2026)]
    assert [point[1] for point in replay.points((1, 2025))] == [1, 2]
    assert [point[1] for point in replay.points((2, 2026))] == [3]


def test_the_conservative_rating_is_mu_minus_three_sigma_and_starts_at_zero():
    assert conservative(30.0, 2.0) == 24.0
    assert conservative(MODEL.mu, MODEL.sigma) == pytest.approx(0.0)


def test_the_totals_keep_winning_scores_the_distribution_seats_and_breakdown_sums():
    replay = Replay()
    breakdowns = {1: {"wonders": 10, "discs": 5}, 2: {"wonders": 4, "discs": 9}, 3: {"wonders": 0, "discs": 2}}
    replay.add(match(1, "tower-of-babel", {1: 1, 2: 2, 3: 3}, scores=[15, 13, 2], breakdowns=breakdowns))
    replay.add(match(2, "tower-of-babel", {1: 2, 2: 1, 3: 2}, scores=[20, 30, 20], days=1))
    totals = replay.totals["tower-of-babel"]
    assert totals.plays == 2
    assert totals.data["winning"] == {"sum": 45, "count": 2, "best": 30}
    assert totals.data["scores"] == {"15": 1, "13": 1, "2": 1, "20": 2, "30": 1}
    assert totals.data["seats"] == {"0": [2, 1], "1": [2, 1], "2": [2, 0]}
    assert totals.data["breakdown"] == {"wonders": [14, 3], "discs": [16, 3]}


def test_booleans_and_text_in_a_breakdown_are_not_summed():
    replay = Replay()
    replay.add(match(1, "babel-cubes", {1: 1, 2: 2}, breakdowns={1: {"level": 3, "flag": True, "note": "x"}}))
    assert replay.totals["babel-cubes"].data["breakdown"] == {"level": [3, 1]}


def test_continuing_a_replay_gives_the_same_numbers_as_one_replay_of_everything():
    matches = [
        match(1, "tower-of-babel", {1: 1, 2: 2, 3: 3}, scores=[9, 5, 1]),
        match(2, "tower-of-babel", {1: 3, 2: 1, 3: 2}, scores=[2, 12, 7], days=1),
        match(3, "babel-on", {1: 1, 2: 1, 3: 3}, days=40),
    ]
    whole = Replay()
    for m in matches:
        whole.add(m)
    first = Replay()
    first.add(matches[0])
    continued = Replay(ratings=first.ratings, months=first.months, totals=first.totals)
    for m in matches[1:]:
        continued.add(m)
    assert continued.ratings == whole.ratings
    assert continued.months == whole.months
    assert {g: (t.plays, t.data) for g, t in continued.totals.items()} == {
        g: (t.plays, t.data) for g, t in whole.totals.items()
    }
    assert len(whole.months) == 3 * 2  # two months (January, February) for three players


@pytest.mark.parametrize("seed", range(5))
def test_the_in_place_update_gives_exactly_what_openskill_rate_gives(seed):
    rng = random.Random(seed)
    for _ in range(200):
        size = rng.randint(2, 8)
        skills = [PlackettLuceRating(rng.uniform(10, 40), rng.uniform(0.5, 8.4)) for _ in range(size)]
        ranks = [rng.randint(1, size) for _ in range(size)]  # ties included, in any order
        expected = MODEL.rate([[PlackettLuceRating(s.mu, s.sigma)] for s in skills], ranks=[float(r) for r in ranks])
        rate_in_place(skills, ranks)
        assert [(s.mu, s.sigma) for s in skills] == [
            (pytest.approx(team[0].mu, rel=1e-12), pytest.approx(team[0].sigma, rel=1e-12)) for team in expected
        ]
