"""The game page's figures from the moves (issue 44, point 6): each one against a plain
recomputation over random small histories, then played games counted by the statistics
task, shown on the page and in the API, with a bounded number of queries."""

from __future__ import annotations

import datetime
import re
from collections import Counter
from typing import Any

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import move_facts
from scoring import session as core
from scoring.babel_cubes import solver
from scoring.babel_cubes.geometry import load_geometry
from scoring.babel_cubes.moves import Position
from scoring.move_facts import Logged, Placed, Played
from sessions import services, tasks
from sessions.management.commands.load_demo import CUBE_MOVES
from sessions.models import MoveStatistics, SessionEvent
from sessions.statistics import from_moves
from sessions.statistics import services as statistics

pytestmark = pytest.mark.usefixtures("eager")

PLAYERS = ["1", "2", "3", "4"]
START = 1_800_000_000.0


# --- random small histories -----------------------------------------------------------------


@st.composite
def histories(draw: Any, rules: str) -> list[Played]:
    """Finished sessions of one game: random tables, places, scores and logs, some of whose
    events an undo took back (left out of ``in_effect``)."""
    played = []
    for number in range(draw(st.integers(0, 8))):
        seats = tuple(draw(st.permutations(PLAYERS))[: draw(st.integers(2, 4))])
        ranks = {seat: draw(st.integers(1, len(seats))) for seat in seats}
        if 1 not in ranks.values():
            ranks[seats[0]] = 1
        scores = {seat: draw(st.none() | st.integers(0, 12)) for seat in seats}  # ties likely
        sheets = draw(st.booleans())
        results = {seat: Placed(ranks[seat], scores[seat], _sheet(draw) if sheets else {}) for seat in seats}
        events, kept, game = _log(draw, rules, seats)
        played.append(
            Played(
                session_id=number + 1,
                rules=rules,
                played_at=f"2026-03-{number + 1:02d}T20:00:00+00:00",
                seats=seats,
                results=results,
                state={"in_effect": kept, "game": game},
                events=events,
            )
        )
    return played


def _sheet(draw: Any) -> dict[str, int]:
    return {"military": draw(st.integers(-6, 18)), "civilian": draw(st.integers(0, 30)), "coins": 4}


def _log(draw: Any, rules: str, seats: tuple[str, ...]) -> tuple[list[Logged], list[int], dict[str, Any]]:
    """A log (each event with its time and whether it is still in effect) and the final state."""
    kinds: list[tuple[str, dict[str, Any]]] = []
    game: dict[str, Any] = {}
    if draw(st.booleans()):
        kinds.append((core.START, {}))
    if rules == move_facts.TOWER_OF_BABEL:
        if draw(st.booleans()):
            kinds.append(("tob.first_player", {"seat": draw(st.sampled_from(seats))}))
        for _ in range(draw(st.integers(0, 4))):
            offerer = draw(st.sampled_from(seats))
            cards = draw(st.sampled_from([{}, {"blue": 1}, {"red": 2, "blue": 0}]))
            kinds.append(("tob.offer", {"seat": offerer, "cards": cards}))
            accepted = [offerer] if cards and draw(st.booleans()) else []
            kinds.append(("tob.resolve", {"accepted": accepted, "fulfilled": draw(st.booleans())}))
        wonders = {}
        for name in ("pyramids", "colossus", "lighthouse")[: draw(st.integers(0, 3))]:
            parts = {seat: draw(st.integers(0, 4)) for seat in seats}
            wonders[name] = {"scored": {"parts": parts} if draw(st.booleans()) else None}
        game = {"wonders": wonders, "over": draw(st.booleans())}
    elif rules == move_facts.BABEL_ON:
        game = {
            "first": draw(st.none() | st.sampled_from(seats)),
            "perfect_since": {seat: draw(st.none() | st.integers(1, 40)) for seat in seats},
            "winner": draw(st.sampled_from(seats)),
            "won_by": draw(st.sampled_from(["perfect", "last_standing"])),
            "phase": draw(st.sampled_from(["over", "playing"])),
        }
        kinds += [("bo.roll", {})] * draw(st.integers(0, 3))
    elif rules == move_facts.SEVEN_WONDERS:
        resolved = []
        for age in range(1, draw(st.integers(1, 4))):
            outcomes = [
                {"outcome": draw(st.sampled_from(["reward", "penalty_token", "none"])), "times": 1, "vp": vp}
                for vp in draw(st.lists(st.integers(-3, 5), max_size=3))
            ]
            resolved.append({"age": age, "success": draw(st.booleans()), "outcomes": outcomes})
        sheets = draw(st.sampled_from([seats, seats[1:]]))
        game = {"resolved": resolved, "seats": list(seats), "sheets": {seat: {} for seat in sheets}}
        kinds += [("sw.end_age", {})] * len(resolved)
    else:
        status = draw(st.sampled_from(["in_progress", "won", "draw"]))
        game = {"seats": list(seats), "moves": [{}] * draw(st.integers(0, 3)), "status": status}
        kinds += [("bc.place", {})] * len(game["moves"])
    events, kept, at = [], [], START
    for seq, (kind, payload) in enumerate(kinds, start=1):
        at += draw(st.sampled_from([0, 60, 300]))  # equal times likely
        events.append(Logged(seq, kind, payload, at))
        if draw(st.integers(0, 5)):  # one in six taken back by an undo
            kept.append(seq)
    return events, kept, game


def folded(played: list[Played]) -> dict[str, Any]:
    figures = move_facts.empty()
    for one in played:
        move_facts.fold(figures, one, move_facts.facts(one))
    return figures


def effective(one: Played) -> list[Logged]:
    kept = set(one.state["in_effect"])
    return [event for event in one.events if event.seq in kept]


def winners(one: Played) -> list[str]:
    return [seat for seat in one.seats if one.results[seat].rank == 1]


RULES = st.sampled_from(
    [move_facts.TOWER_OF_BABEL, move_facts.BABEL_ON, move_facts.SEVEN_WONDERS, move_facts.BABEL_CUBES]
)


# --- each figure against a plain recomputation ------------------------------------------------


def plain_first_player(one: Played) -> str | None:
    game = one.state["game"]
    if one.rules == move_facts.TOWER_OF_BABEL:
        chosen = [e.payload["seat"] for e in effective(one) if e.type == "tob.first_player"]
        return chosen[0] if chosen else None
    if one.rules == move_facts.BABEL_ON:
        return game["first"]
    if one.rules == move_facts.BABEL_CUBES:
        return one.seats[0] if game["moves"] else None
    return None  # 7 Wonders: everyone at once


@settings(max_examples=40, deadline=None)
@given(RULES.flatmap(lambda rules: histories(rules)))
def test_the_first_player_s_wins_and_the_expected_share_count_every_game_whose_log_names_them(played):
    figures = folded(played)
    known = [one for one in played if plain_first_player(one) is not None]
    assert sum(games for games, _wins in figures["first"].values()) == len(known)
    assert sum(wins for _games, wins in figures["first"].values()) == sum(
        plain_first_player(one) in winners(one) for one in known
    )
    expected = sum(1 / len(one.seats) for one in known)
    assert move_facts.expected_first_wins(figures["first"]) == pytest.approx(expected)


@settings(max_examples=40, deadline=None)
@given(RULES.flatmap(lambda rules: histories(rules)))
def test_the_highest_score_is_the_first_game_that_reached_it_and_its_first_seat_with_it(played):
    scored = [(one.results[s].score, n, s, one) for n, one in enumerate(played) for s in one.seats]
    scored = [row for row in scored if row[0] is not None]
    if not scored:
        assert folded(played)["top"] is None
        return
    best = max(row[0] for row in scored)
    _score, _n, seat, one = next(row for row in scored if row[0] == best)
    assert folded(played)["top"] == [best, seat, one.played_at, one.session_id]


@settings(max_examples=40, deadline=None)
@given(RULES.flatmap(lambda rules: histories(rules)))
def test_the_fastest_game_runs_from_a_real_start_to_the_last_move_of_a_game_the_moves_ended(played):
    durations = []
    for one in played:
        game = one.state["game"]
        ended = {
            move_facts.TOWER_OF_BABEL: game.get("over"),
            move_facts.BABEL_ON: game.get("phase") == "over",
            move_facts.SEVEN_WONDERS: set(game.get("sheets", ())) == set(one.seats),
            move_facts.BABEL_CUBES: game.get("status") != "in_progress",
        }[one.rules]
        if not ended:
            continue
        events = effective(one)
        starts = [e.at for e in events if e.type == core.START]
        moves = [e.at for e in events if e.type not in move_facts.NOT_MOVES]
        if starts and moves and moves[-1] > starts[0]:
            durations.append((moves[-1] - starts[0], one))
    figures = folded(played)
    assert figures["timed"] == len(durations)
    if durations:
        seconds, one = min(durations, key=lambda pair: pair[0])  # the first of equals
        assert figures["fastest"] == [seconds, winners(one), one.played_at, one.session_id]
    else:
        assert figures["fastest"] is None


@settings(max_examples=40, deadline=None)
@given(RULES.flatmap(lambda rules: histories(rules)))
def test_the_longest_winning_streak_is_each_player_s_longest_run_of_first_places(played):
    longest = {}
    for player in PLAYERS:
        run = best = 0
        for one in played:
            if player in one.seats:
                run = run + 1 if player in winners(one) else 0
                best = max(best, run)
        if any(player in one.seats for one in played):
            longest[player] = best
    assert {pk: row[1] for pk, row in folded(played)["streaks"].items()} == longest


@settings(max_examples=40, deadline=None)
@given(histories(move_facts.BABEL_ON))
def test_perfect_towers_count_the_towers_perfect_at_the_end_and_the_games_won_by_one(played):
    towers, wins = Counter(), Counter()
    for one in played:
        game = one.state["game"]
        towers.update(seat for seat, since in game["perfect_since"].items() if since is not None)
        if game["won_by"] == "perfect":
            wins[game["winner"]] += 1
    figures = folded(played)
    assert {pk: row[0] for pk, row in figures["perfect"].items() if row[0]} == dict(towers)
    assert {pk: row[1] for pk, row in figures["perfect"].items() if row[1]} == dict(wins)
    assert figures["perfect_games"] == wins.total()


@settings(max_examples=40, deadline=None)
@given(histories(move_facts.SEVEN_WONDERS))
def test_seven_wonders_points_add_up_by_sheet_column_and_great_projects_by_age(played):
    sources, sheets, ages = Counter(), 0, {}
    for one in played:
        for placed in one.results.values():
            if placed.breakdown:
                sheets += 1
                sources.update({k: v for k, v in placed.breakdown.items() if k != "coins"})
        for record in one.state["game"]["resolved"]:
            row = ages.setdefault(str(record["age"]), [0, 0, 0, 0])
            for o in record["outcomes"]:
                row[0] += o["vp"] * o["times"] if o["outcome"] == "reward" else 0
                row[1] += o["vp"] if o["outcome"] == "penalty_token" else 0
            row[2] += 1
            row[3] += record["success"]
    figures = folded(played)
    assert {k: v for k, v in figures["sources"].items() if v} == {k: v for k, v in sources.items() if v}
    assert figures["sheets"] == sheets
    assert figures["ages"] == ages


@settings(max_examples=40, deadline=None)
@given(histories(move_facts.TOWER_OF_BABEL))
def test_tower_of_babel_offers_count_those_with_cards_and_wonders_go_to_the_most_parts(played):
    made, accepted, won, completed = Counter(), Counter(), Counter(), 0
    for one in played:
        for event in effective(one):
            if event.type == "tob.offer" and any(event.payload["cards"].values()):
                made[event.payload["seat"]] += 1
            if event.type == "tob.resolve" and event.payload["fulfilled"]:
                accepted.update(event.payload["accepted"])
        for wonder in one.state["game"]["wonders"].values():
            if wonder["scored"]:
                completed += 1
                parts = wonder["scored"]["parts"]
                won.update(s for s, n in parts.items() if n and n == max(parts.values()))
    figures = folded(played)
    assert {pk: row[0] for pk, row in figures["offers"].items() if row[0]} == dict(made)
    assert {pk: row[1] for pk, row in figures["offers"].items() if row[1]} == dict(accepted)
    assert figures["wonders"] == dict(won)
    assert figures["completed"] == completed


def test_the_cube_game_s_stated_answer_is_the_solver_s():
    assert move_facts.SOLVED_FIRST_PLAYER_WINS is (solver.solve(Position(load_geometry())) == "win")


# --- played games, the task, the page and the API -----------------------------------------------


def send(session, kind, payload=None):
    session.refresh_from_db()
    services.append_event(session_id=session.pk, expected_version=session.version, type=kind, payload=payload or {})


def cube_game(night, players, *, minutes=12):
    """A game of babel played on the app to its end, ``minutes`` from its start to its last move."""
    session = services.create_session(night=night, game="babel-cubes", players=players[:2])
    send(session, core.START)
    for cell, kind, bulges in CUBE_MOVES:
        send(session, "bc.place", {"cell": cell, "type": kind, "bulges": bulges})
    send(session, core.FINISH)
    start = datetime.datetime(2026, 11, 19, 20, 0, tzinfo=datetime.UTC)
    SessionEvent.objects.filter(session=session, type=core.START).update(created_at=start)
    SessionEvent.objects.filter(session=session, type="bc.place").update(
        created_at=start + datetime.timedelta(minutes=minutes)
    )
    return session


def tower_game(night, players, scores):
    """Tower of Babel: Bruno starts, Chiara's offer is accepted into Bruno's build and Ada's
    is turned down; then the table types the final scores."""
    ada, bruno, chiara = players[:3]
    session = services.create_session(night=night, game="tower-of-babel", players=[ada, bruno, chiara], secret="7")
    send(session, core.START)
    send(session, "tob.first_player", {"seat": str(bruno.pk)})
    session.refresh_from_db()
    wonder = "pyramids"
    disc = session.state["game"]["wonders"][wonder]["discs"][0]
    demand = session.state["game"]["discs"][disc]["demand"]
    kind, number = next(iter(demand.items()))
    send(session, "tob.choose", {"wonder": wonder, "disc": disc})
    send(session, "tob.offer", {"seat": str(chiara.pk), "cards": {kind: 1}})
    send(session, "tob.offer", {"seat": str(ada.pk), "cards": {kind: 1}})
    own = {**demand, kind: number - 1}
    send(session, "tob.resolve", {"accepted": [str(chiara.pk)], "own": {k: n for k, n in own.items() if n}})
    send(session, "scores.record", {"scores": {str(p.pk): s for p, s in zip(players[:3], scores, strict=True)}})
    send(session, core.FINISH)
    return session


CARD = re.compile(
    r'<li class="stat-card" data-card="[\w-]+">\s*<span class="stat-label">([^<]+)</span>\s*'
    r'<span class="stat-figure[^"]*">([^<]*)</span>\s*<span class="stat-context">([^<]*)</span>'
)


def figures(page):
    """The cards of the section: {label: (figure, context)}, their texts' spaces collapsed."""
    section = page[page.index('data-testid="from-the-moves"') :]
    return {label: (figure, " ".join(context.split())) for label, figure, context in CARD.findall(section)}


def page_of(client, group, game):
    return client.get(reverse("game_statistics", args=[group.pk, game])).content.decode()


def test_a_cube_game_played_on_the_app_shows_its_first_player_its_time_and_the_solved_answer(
    member_client, night, players
):
    ada, bruno = players[:2]
    session = cube_game(night, players)
    tasks.update_statistics(session.pk)
    page = page_of(member_client, night.group, "babel-cubes")
    assert "From the moves" in page
    first_won = session.results.get(player=ada).rank == 1
    shown = figures(page)
    assert shown["First player's wins"] == (f"{100 * first_won}%", f"{int(first_won)} of 1 game")
    assert shown["If the seat did not matter"] == ("50%", "0.5 wins: one game in as many as there are players")
    assert shown["With perfect play"][0] == "The first player wins"
    assert shown["Fastest game"][0] == "12 min 00 s"
    moves = member_client.get(reverse("api-game-statistics", args=[night.group.pk, "babel-cubes"])).json()[
        "from_the_moves"
    ]
    assert moves["first_player"] == {
        "games": 1,
        "wins": int(first_won),
        "win_rate": float(first_won),
        "expected": 0.5,
        "expected_rate": 0.5,
    }
    assert moves["solved_first_player_wins"] is True
    assert moves["fastest_win"]["figure"] == 720
    winner = ada if first_won else bruno
    assert moves["fastest_win"]["holders"] == [{"player": winner.pk, "name": winner.name}]


def test_tower_of_babel_offers_the_first_player_and_the_highest_score_come_from_the_log(member_client, night, players):
    tasks.update_statistics(tower_game(night, players, [30, 41, 25]).pk)  # Bruno starts and wins
    tasks.update_statistics(tower_game(night, players, [44, 40, 38]).pk)  # Bruno starts, Ada wins
    moves = from_moves.moves_of_game(night.group, "tower-of-babel")
    assert (moves.first_player.games, moves.first_player.wins) == (2, 1)
    assert [(row.name, row.count, row.accepted) for row in moves.offers] == [("Ada", 2, 0), ("Chiara", 2, 2)]
    assert moves.highest_score.figure == 44
    assert [holder.name for holder in moves.highest_score.holders] == ["Ada"]
    assert moves.longest_streak.figure == 1
    assert moves.wonders_completed == 0
    assert (moves.fastest_win, moves.timed_games) == (None, 0)  # final scores typed part way: not timed
    page = page_of(member_client, night.group, "tower-of-babel")
    shown = figures(page)
    assert shown["First player's wins"] == ("50%", "1 of 2 games")
    assert shown["If the seat did not matter"][0] == "33%"
    assert shown["Highest score"][0] == "44"
    assert shown["Highest score"][1].startswith("Ada · ")  # and the day it was played
    assert '<td>2</td><td>2 <small class="muted">(100%)</small></td>' in page  # Chiara's offers: made, accepted


def test_a_player_hidden_from_the_leaderboards_is_not_named_in_the_figures(member_client, night, players):
    ada = players[0]
    tasks.update_statistics(tower_game(night, players, [50, 40, 30]).pk)
    ada.hidden_from_leaderboards = True
    ada.save(update_fields=["hidden_from_leaderboards"])
    moves = from_moves.moves_of_game(night.group, "tower-of-babel")
    assert moves.highest_score.figure == 50
    assert [holder.name for holder in moves.highest_score.holders] == [None]
    assert "Ada" not in [row.name for row in moves.offers]
    assert moves.longest_streak is None  # only Ada has won
    page = page_of(member_client, night.group, "tower-of-babel")
    assert "a player hidden from the leaderboards" in page


def test_a_game_typed_in_or_imported_has_no_time_and_no_first_player(member_client, night, players):
    session = services.create_session(night=night, game="babel-cubes", players=players[:2])
    send(session, "places.record", {"places": {str(players[0].pk): 1, str(players[1].pk): 2}})
    send(session, core.FINISH)  # no start: as BG Stats imports it
    tasks.update_statistics(session.pk)
    moves = from_moves.moves_of_game(night.group, "babel-cubes")
    assert moves.sessions == 1
    assert moves.first_player is None
    assert moves.fastest_win is None
    assert moves.timed_games == 0
    assert "No game was played on the app from its start to its last move yet" in page_of(
        member_client, night.group, "babel-cubes"
    )


def test_the_update_after_each_game_equals_a_rebuild_and_a_group_counted_before_gets_all_its_games(night, players):
    sessions = [cube_game(night, players, minutes=m) for m in (30, 9, 20)]
    sessions.append(tower_game(night, players, [10, 20, 30]))
    for session in sessions:
        tasks.update_statistics(session.pk)
    updated = dict(MoveStatistics.objects.values_list("game", "figures"))
    statistics.rebuild_group(group_id=night.group.pk)
    assert dict(MoveStatistics.objects.values_list("game", "figures")) == updated
    assert updated["babel-cubes"]["fastest"][0] == 9 * 60
    MoveStatistics.objects.all().delete()  # as before this feature: counted, no figures kept
    tasks.update_statistics(tower_game(night, players, [10, 20, 30]).pk)
    after = dict(MoveStatistics.objects.values_list("game", "figures"))
    assert after["babel-cubes"] == updated["babel-cubes"]
    assert after["tower-of-babel"]["sessions"] == 2


@pytest.mark.parametrize("games", [1, 6])
def test_the_page_and_the_api_read_the_figures_in_two_queries_however_many_games(
    member_client, night, players, games, django_assert_max_num_queries
):
    for index in range(games):
        tasks.update_statistics(cube_game(night, players, minutes=5 + index).pk)
        tasks.update_statistics(tower_game(night, players, [30, 41, 25 + index]).pk)
    with django_assert_max_num_queries(2):
        from_moves.moves_of_game(night.group, "tower-of-babel")
    for url in (
        reverse("game_statistics", args=[night.group.pk, "tower-of-babel"]),
        reverse("api-game-statistics", args=[night.group.pk, "babel-cubes"]),
    ):
        with django_assert_max_num_queries(12):
            assert member_client.get(url).status_code == 200
