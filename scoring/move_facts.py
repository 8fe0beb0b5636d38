"""What a finished session's log says beyond its final scores, and the sums of it.

Pure functions, no Django: ``facts`` reads one session (its seats, results, final state and
the events still in effect) into a few JSON-compatible facts; ``fold`` adds those facts to a
game's running figures. Every figure is a count, a sum or a record kept with a strict
comparison, so folding the sessions one at a time in the order of play gives what folding
them all at once would: the statistics' update and their rebuild agree.

Who moved first is what the log says, not the seat order: Tower of Babel's table picks the
first player (``tob.first_player``), Babel On! rolls off for it (``first`` in its state),
and babel's first seat places the first cube. 7 Wonders is played by everyone at once: it
has no first player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring import session as core
from scoring.engine import JSON
from scoring.score_entry import RECORD_PLACES, RECORD_SCORES
from scoring.tower_of_babel import engine as tob

TOWER_OF_BABEL, BABEL_ON, SEVEN_WONDERS, BABEL_CUBES = "tower_of_babel", "babel_on", "seven_wonders", "babel_cubes"
NOT_MOVES = core.LIFECYCLE_EVENTS | {RECORD_SCORES, RECORD_PLACES}
# The cube game solved (``scoring.babel_cubes.solver``, docs/playing.md): with perfect play,
# the player who places the first cube wins, under each of the four layouts. Stated, not
# solved again on each page; tests/test_statistics_from_moves.py asks the solver.
SOLVED_FIRST_PLAYER_WINS = True


@dataclass(frozen=True)
class Logged:
    """One event of a session's log: ``at`` in seconds since the epoch."""

    seq: int
    type: str
    payload: Mapping[str, Any]
    at: float


@dataclass(frozen=True)
class Placed:
    rank: int
    score: int | None = None
    breakdown: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Played:
    """A finished session as its rows keep it. ``seats`` in seat order, as the engines name
    them (player ids as text); ``state`` the session core's final state (``{}`` for a
    session written without one); ``events`` the whole log, undone events included."""

    session_id: int
    rules: str
    played_at: str
    seats: tuple[str, ...]
    results: Mapping[str, Placed]
    state: Mapping[str, Any]
    events: Sequence[Logged] = ()


def in_effect(played: Played) -> list[Logged]:
    """The events the final state is made of: an undone event and its undo are left out."""
    kept = set(played.state.get("in_effect", ()))
    return [event for event in played.events if event.seq in kept]


def facts(played: Played) -> dict[str, JSON]:
    """What this session adds to its game's figures."""
    events = in_effect(played)
    game = played.state.get("game") or {}
    winners = [seat for seat in played.seats if seat in played.results and played.results[seat].rank == 1]
    scored = [(played.results[seat].score, seat) for seat in played.seats if seat in played.results]
    scores = [(score, seat) for score, seat in scored if score is not None]
    best = max((score for score, _seat in scores), default=None)
    out: dict[str, JSON] = {
        "players": len(played.results),
        "first": first_player(played, events),
        "winners": winners,
        "ranked": [seat for seat in played.seats if seat in played.results],
        "top": None if best is None else [best, next(seat for score, seat in scores if score == best)],
        "duration": duration(events) if played_to_the_end(played.rules, game) else None,
    }
    if played.rules == TOWER_OF_BABEL:
        completed = [w for w in (game.get("wonders") or {}).values() if w.get("scored")]
        out |= {"wonders": wonders_won(game), "completed": len(completed), "offers": offers(events)}
    elif played.rules == BABEL_ON:
        out |= perfect_towers(game)
    elif played.rules == SEVEN_WONDERS:
        out |= points_by_source(played) | {"ages": great_projects_by_age(game)}
    return out


def first_player(played: Played, events: Sequence[Logged]) -> str | None:
    """The seat that moved first, if the log says (see the module's docstring)."""
    if played.rules == TOWER_OF_BABEL:
        chosen = [e.payload.get("seat") for e in events if e.type == tob.FIRST_PLAYER]
        return str(chosen[0]) if chosen else None
    if played.rules == BABEL_ON:
        first = (played.state.get("game") or {}).get("first")
        return None if first is None else str(first)
    if played.rules == BABEL_CUBES:
        game = played.state.get("game") or {}
        return str(game["seats"][0]) if game.get("moves") else None
    return None


def played_to_the_end(rules: str, game: Mapping[str, Any]) -> bool:
    """Whether the moves themselves ended the game (not final scores typed part way)."""
    if rules == TOWER_OF_BABEL:
        return bool(game.get("over"))
    if rules == BABEL_ON:
        return game.get("phase") == "over"
    if rules == SEVEN_WONDERS:
        return bool(game.get("seats")) and set(game.get("sheets") or ()) == set(game["seats"])
    return game.get("status", "in_progress") != "in_progress"


def duration(events: Sequence[Logged]) -> float | None:
    """Seconds from the start to the last move, for a game played on the app to its end
    (``played_to_the_end``): its log has a ``session.start`` and moves after it. A game typed
    in afterwards, or imported from BG Stats (no start), has none; nor has one whose events
    all carry one moment (an import that did not keep their times)."""
    starts = [e.at for e in events if e.type == core.START]
    moves = [e.at for e in events if e.type not in NOT_MOVES]
    if not starts or not moves or moves[-1] <= starts[0]:
        return None
    return round(moves[-1] - starts[0], 3)


def wonders_won(game: Mapping[str, Any]) -> dict[str, int]:
    """Per seat, the wonders completed during the game on which it had the most parts (a tie
    for most: each tied player won it); the final row's scoring (TB-20) is not a completion."""
    won: dict[str, int] = {}
    for wonder in (game.get("wonders") or {}).values():
        record = wonder.get("scored")
        if not record:
            continue
        most = max(record["parts"].values(), default=0)
        for seat, parts in record["parts"].items():
            if most and parts == most:
                won[seat] = won.get(seat, 0) + 1
    return won


def offers(events: Sequence[Logged]) -> dict[str, list[int]]:
    """Per seat, [offers made, offers accepted]: an offer of at least one card (an empty offer
    is a player offering nothing), accepted when the active player took it into a build
    that was fulfilled (TB-13; a failed build rejects every offer, TB-15)."""
    counts: dict[str, list[int]] = {}

    def made(seat: Any, offer: Any) -> None:
        if isinstance(offer, Mapping) and any((offer.get("cards") or {}).values()):
            counts.setdefault(str(seat), [0, 0])[0] += 1

    def accepted(payload: Mapping[str, Any]) -> None:
        if payload.get("fulfilled", True) is not False:
            for seat in payload.get("accepted") or ():
                counts.setdefault(str(seat), [0, 0])[1] += 1

    for event in events:
        if event.type == tob.OFFER:
            made(event.payload.get("seat"), event.payload)
        elif event.type == tob.BUILD:
            for seat, offer in (event.payload.get("offers") or {}).items():
                made(seat, offer)
            accepted(event.payload)
        elif event.type == tob.RESOLVE:
            accepted(event.payload)
    return counts


def perfect_towers(game: Mapping[str, Any]) -> dict[str, JSON]:
    """Babel On!: the towers perfect at the end (BO-13), and the seat that won by one (BO-14)."""
    perfect = [seat for seat, since in (game.get("perfect_since") or {}).items() if since is not None]
    winner = game.get("winner") if game.get("won_by") == "perfect" else None
    return {"perfect": perfect, "perfect_win": winner}


def points_by_source(played: Played) -> dict[str, JSON]:
    """7 Wonders: the score sheets' points summed by column, over the results that have a
    sheet (a game whose totals were typed has none)."""
    sums: dict[str, int] = {}
    sheets = 0
    for placed in played.results.values():
        columns = {k: v for k, v in placed.breakdown.items() if k != "coins" and isinstance(v, int)}
        if "military" not in columns:
            continue
        sheets += 1
        for key, points in columns.items():
            sums[key] = sums.get(key, 0) + points
    return {"sources": sums, "sheets": sheets}


def great_projects_by_age(game: Mapping[str, Any]) -> dict[str, list[int]]:
    """7 Wonders: per age, [points from the reward tokens, points from the penalty tokens,
    1 if the project succeeded] as each ``sw.end_age`` resolved it (SW-10)."""
    ages: dict[str, list[int]] = {}
    for record in game.get("resolved") or ():
        rewards = sum((o["vp"] or 0) * o["times"] for o in record["outcomes"] if o["outcome"] == "reward")
        penalties = sum(o["vp"] or 0 for o in record["outcomes"] if o["outcome"] == "penalty_token")
        ages[str(record["age"])] = [rewards, penalties, 1 if record["success"] else 0]
    return ages


# --- the running figures of one game in one group ---------------------------------------


def empty() -> dict[str, Any]:
    return {
        "sessions": 0,
        "first": {},  # players at the table -> [games whose first player is known, first player won]
        "top": None,  # [score, player, played_at, session]
        "fastest": None,  # [seconds, [winners], played_at, session]
        "timed": 0,
        "streaks": {},  # player -> [current, longest] run of wins in their plays of the game
        "perfect": {},  # player -> [perfect towers at the end, games won by one]
        "perfect_games": 0,
        "sources": {},
        "sheets": 0,
        "ages": {},  # age -> [reward points, penalty points, projects, succeeded]
        "wonders": {},  # player -> wonders won
        "completed": 0,  # wonders completed during the games
        "offers": {},  # player -> [made, accepted]
    }


def fold(figures: dict[str, Any], played: Played, found: Mapping[str, Any]) -> dict[str, Any]:
    """``figures`` with one more session (its ``facts``), sessions folded in the order of play.
    Changes ``figures`` in place and returns it."""
    figures["sessions"] += 1
    winners = found["winners"]
    if found["first"] is not None and found["players"]:
        row = figures["first"].setdefault(str(found["players"]), [0, 0])
        row[0] += 1
        row[1] += found["first"] in winners
    top = found["top"]
    if top is not None and (figures["top"] is None or top[0] > figures["top"][0]):
        figures["top"] = [top[0], top[1], played.played_at, played.session_id]
    seconds = found["duration"]
    if seconds is not None and winners:
        figures["timed"] += 1
        if figures["fastest"] is None or seconds < figures["fastest"][0]:
            figures["fastest"] = [seconds, winners, played.played_at, played.session_id]
    for seat in found["ranked"]:
        streak = figures["streaks"].setdefault(seat, [0, 0])
        streak[0] = streak[0] + 1 if seat in winners else 0
        streak[1] = max(streak[1], streak[0])
    for seat in found.get("perfect", ()):
        figures["perfect"].setdefault(seat, [0, 0])[0] += 1
    if found.get("perfect_win") is not None:
        figures["perfect"].setdefault(found["perfect_win"], [0, 0])[1] += 1
        figures["perfect_games"] += 1
    for key, points in found.get("sources", {}).items():
        figures["sources"][key] = figures["sources"].get(key, 0) + points
    figures["sheets"] += found.get("sheets", 0)
    for age, (rewards, penalties, success) in found.get("ages", {}).items():
        row = figures["ages"].setdefault(age, [0, 0, 0, 0])
        row[0] += rewards
        row[1] += penalties
        row[2] += 1
        row[3] += success
    for seat, count in found.get("wonders", {}).items():
        figures["wonders"][seat] = figures["wonders"].get(seat, 0) + count
    figures["completed"] += found.get("completed", 0)
    for seat, (made, accepted) in found.get("offers", {}).items():
        row = figures["offers"].setdefault(seat, [0, 0])
        row[0] += made
        row[1] += accepted
    return figures


def expected_first_wins(first: Mapping[str, Sequence[int]]) -> float:
    """How many of these games the first player would win if the seat did not matter: 1/n of
    each game of n players."""
    return sum(games / int(players) for players, (games, _wins) in first.items())
