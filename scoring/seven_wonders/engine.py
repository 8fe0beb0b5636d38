"""The 7 Wonders session engine: tile draft, Babel board, Great Projects, score sheets.

Seats are in clockwise order; a player's right-hand neighbour is the previous seat, so a
draft hand passes to ``seats[i - 1]`` and arrives from ``seats[i + 1]`` (SW-2).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from scoring.engine import JSON, Standing
from scoring.errors import RuleError, gettext_noop
from scoring.seven_wonders.data import check_corrections, data, markers_for
from scoring.seven_wonders.projects import Participant, resolve
from scoring.seven_wonders.sheet import rank_sheets, score_sheet

DRAFT_PICK, DRAFT_RECORD, BUILD_TILES = "sw.draft_pick", "sw.draft_record", "sw.build_tiles"
DECLARE_TILE = "sw.declare_tile"
PARTICIPATE, END_AGE, SHEET = "sw.participate", "sw.end_age", "sw.sheet"
NEXT_TURN = "sw.next_turn"
TILES = range(1, 25)


class SevenWonders:
    """The engine the session core calls (``scoring.engine.Engine``)."""

    def initial_state(self, *, seats: Sequence[str], options: Mapping[str, JSON], seed: int) -> JSON:
        rng = random.Random(seed)
        tiles_on, projects_on = bool(options.get("tower_tiles")), bool(options.get("great_projects"))
        state: dict[str, Any] = {
            "seats": list(seats),
            "sheets": {},
            "tiles_on": tiles_on,
            "projects_on": projects_on,
            "leaders_on": bool(options.get("leaders")),
            # The group's card corrections when the session started (SW-7, SW-11).
            "corrections": check_corrections(options.get("table")),
        }
        if tiles_on:  # SW-2: shuffle the 24 tiles, deal 3 to each player
            deck = list(TILES)
            rng.shuffle(deck)
            state |= {
                "draft_step": 1,
                "hands": {seat: sorted(deck[3 * i : 3 * i + 3]) for i, seat in enumerate(seats)},
                "kept": {seat: [] for seat in seats},
                "picks": {},
                "tiles": {},
                "built": [],
                # SW-1: 3 spaces for 2-4 players (2 active with 2), 4 spaces for 5-8.
                "spaces": 2 if len(seats) == 2 else 3 if len(seats) <= 4 else 4,
            }
        if projects_on:  # SW-3: one project of each age, drawn at random
            cards = data()["projects"]["value"]
            drawn = [rng.choice([c["slug"] for c in cards if c["age"] == age]) for age in (1, 2, 3)]
            state |= {"projects": drawn, "markers_left": markers_for(len(seats)), "markers": {}, "resolved": []}
            # SW-9: the turn of the age the table is at, and who joined in it. Sessions stored
            # before turns were counted from the first (no ``turns_counted``) replay with None
            # until their table said a turn was over.
            state |= {"turn": 1 if options.get("turns_counted") else None, "joined": []}
        state["age"] = 1
        return state

    def event_types(self) -> frozenset[str]:
        return frozenset({DRAFT_PICK, DRAFT_RECORD, DECLARE_TILE, BUILD_TILES, PARTICIPATE, NEXT_TURN, END_AGE, SHEET})

    def apply(self, state: JSON, *, type: str, payload: Mapping[str, JSON]) -> JSON:
        handlers = {
            DRAFT_PICK: _draft_pick,
            DRAFT_RECORD: _draft_record,
            DECLARE_TILE: _declare_tile,
            BUILD_TILES: _build_tiles,
            PARTICIPATE: _participate,
            NEXT_TURN: _next_turn,
            END_AGE: _end_age,
            SHEET: _sheet,
        }
        if type not in handlers:
            raise RuleError(gettext_noop("Unknown event type {type}."), field="type", params={"type": type})
        return handlers[type](state, payload)

    def standings(self, state: JSON) -> list[Standing] | None:
        if set(state["sheets"]) != set(state["seats"]):
            return None
        sheets = [score_sheet({**state["sheets"][seat], "name": seat}) for seat in state["seats"]]
        ranks = rank_sheets(sheets)
        return [
            Standing(seat=s.name, score=s.total, rank=ranks[s.name], breakdown={**s.columns, "coins": s.coins})
            for s in sheets
        ]


# --- the tile draft (SW-2) ---------------------------------------------------------------


def _draft_pick(state: JSON, payload: Mapping[str, JSON]) -> JSON:
    _need_tiles(state)
    step = state["draft_step"]
    if step == 0:
        raise RuleError(gettext_noop("The tile draft is over."), field="type", rule="SW-2")
    seat = _seat(state, payload.get("seat"))
    tile = payload.get("tile")
    if type(tile) is not int or tile not in state["hands"][seat]:  # JSON's true and 9.0 are no tile
        raise RuleError(gettext_noop("Keep one of the tiles in your hand."), field="tile", rule="SW-2")
    picks = {**state["picks"], seat: tile}
    if set(picks) != set(state["seats"]):
        return {**state, "picks": picks}
    seats = state["seats"]
    kept = {seat: [*state["kept"][seat], picks[seat]] for seat in seats}
    rest = {seat: [t for t in state["hands"][seat] if t != picks[seat]] for seat in seats}
    # Each passes the rest to the right-hand neighbour, i.e. receives from the left one.
    received = {seat: rest[seats[(i + 1) % len(seats)]] for i, seat in enumerate(seats)}
    if step == 1:
        return {**state, "kept": kept, "hands": received, "picks": {}, "draft_step": 2}
    tiles = {seat: sorted(kept[seat] + received[seat]) for seat in seats}  # step 3: add the last tile
    return {**state, "kept": kept, "hands": {}, "picks": {}, "draft_step": 0, "tiles": tiles}


def _draft_record(state: JSON, payload: Mapping[str, JSON]) -> JSON:
    """A draft done with the physical tiles: three different tiles per player."""
    _need_tiles(state)
    if state["draft_step"] != 1 or state["picks"]:
        raise RuleError(gettext_noop("The app's draft has already begun; undo it first."), field="type", rule="SW-2")
    raw = payload.get("tiles")
    if not isinstance(raw, Mapping) or set(raw) != set(state["seats"]):
        raise RuleError(gettext_noop("Give three tiles for every player."), field="tiles", rule="SW-2")
    seen: set[int] = set()
    tiles = {}
    for seat in state["seats"]:
        held = raw[seat]
        whole = isinstance(held, list) and all(type(tile) is int for tile in held)
        if not isinstance(held, list) or len(held) != 3 or (whole and len(set(held)) != 3):
            raise RuleError(gettext_noop("Give three different tiles."), field=f"tiles.{seat}", rule="SW-2")
        for tile in held:  # a tile is a whole number: JSON's true and 9.0 equal 1 and 9 in Python
            if type(tile) is not int or tile not in TILES or tile in seen:
                raise RuleError(
                    gettext_noop("Tile {tile} is not a tile or is held twice."),
                    field=f"tiles.{seat}",
                    rule="SW-2",
                    params={"tile": tile},
                )
            seen.add(tile)
        tiles[seat] = sorted(held)
    return {**state, "hands": {}, "kept": {s: [] for s in state["seats"]}, "draft_step": 0, "tiles": tiles}


# --- building tiles (SW-5, SW-6) ------------------------------------------------------------


def _declare_tile(state: JSON, payload: Mapping[str, JSON]) -> JSON:
    """A player says (on their phone, in secret) which of their tiles they build this turn;
    ``tile`` null takes it back. The next ``sw.build_tiles`` places it with the others."""
    _need_built_draft(state)
    seat = _seat(state, payload.get("seat"))
    tile = payload.get("tile")
    declared = {other: t for other, t in state.get("declared", {}).items() if other != seat}
    if tile is not None:
        _check_buildable(state, seat, tile, field="tile")
        declared[seat] = tile
    return {**state, "declared": declared}


def _build_tiles(state: JSON, payload: Mapping[str, JSON]) -> JSON:
    """The tiles built in one turn: the declared ones and those given here (which win for
    their seat), revealed together and placed in increasing number (SW-6)."""
    _need_built_draft(state)
    raw = payload.get("tiles", {})
    if not isinstance(raw, Mapping):
        raise RuleError(gettext_noop("Say who built which tile."), field="tiles", rule="SW-5")
    chosen = {**state.get("declared", {}), **{_seat(state, seat): tile for seat, tile in raw.items()}}
    if not chosen:
        raise RuleError(gettext_noop("Say who built which tile."), field="tiles", rule="SW-5")
    for seat, tile in chosen.items():
        _check_buildable(state, seat, tile, field=f"tiles.{seat}")
    new = sorted(([seat, tile] for seat, tile in chosen.items()), key=lambda pair: pair[1])
    return {**state, "built": state["built"] + new, "declared": {}}


def _need_built_draft(state: JSON) -> None:
    _need_tiles(state)
    if state["draft_step"] != 0:
        raise RuleError(gettext_noop("Finish the tile draft first."), field="type", rule="SW-2")


def _check_buildable(state: JSON, seat: str, tile: Any, *, field: str) -> None:
    built = {t for _owner, t in state["built"]}
    if type(tile) is not int or tile not in state["tiles"][seat] or tile in built:  # true and 9.0 are no tile
        raise RuleError(gettext_noop("Build one of your own tiles that is not built yet."), field=field, rule="SW-5")


def visible_tiles(state: JSON) -> list[int | None]:
    """The tile showing on each active space: the first goes on the marked space, the next
    clockwise, and once all are used a new tile covers the oldest visible one (SW-6)."""
    spaces: list[int | None] = [None] * state["spaces"]
    for index, (_seat, tile) in enumerate(state["built"]):
        spaces[index % state["spaces"]] = tile
    return spaces


def tiles_built(state: JSON, seat: str) -> int:
    return sum(1 for owner, _tile in state.get("built", []) if owner == seat)


# --- Great Projects (SW-9, SW-10) -----------------------------------------------------------


CARD, RESERVE = "card", "reserve"


def joined_this_turn(state: JSON) -> list[str]:
    """Who joined the Great Project in this turn; nobody while the table does not count turns."""
    return list(state.get("joined", [])) if state.get("turn") is not None else []


def participation(state: JSON, seat: str) -> str | None:
    """How ``seat`` may join this age's Great Project now (SW-9): ``CARD`` while markers are
    left on it, ``RESERVE`` when none is left but someone joined in this turn (or the table does
    not count turns), None when the seat joined in this turn or the card was empty before it.
    What ``sw.participate`` accepts, for the forms to offer."""
    joined = joined_this_turn(state)
    if seat in joined:
        return None
    if state["markers_left"] > 0:
        return CARD
    return RESERVE if joined or state.get("turn") is None else None


def _participate(state: JSON, payload: Mapping[str, JSON]) -> JSON:
    """A player takes a participation marker (SW-9). Once the table counts turns
    (``sw.next_turn``), a player joins at most once per turn. With no marker left on the
    card, a player who joins in the same turn as the one who took the last marker takes one
    from the reserve (``same_turn_reserve``)."""
    _need_projects(state)
    _need_age_in_play(state)
    seat = _seat(state, payload.get("seat"))
    counted = state.get("turn") is not None
    joined = list(state.get("joined", []))
    if counted and seat in joined:
        raise RuleError(
            gettext_noop(
                "A player joins the Great Project at most once per turn; once a new turn has begun, say so first."
            ),
            field="seat",
            rule="SW-9",
        )
    reserve = payload.get("same_turn_reserve")
    if reserve is not None and not isinstance(reserve, bool):
        raise RuleError(gettext_noop("Choose yes or no."), field="same_turn_reserve", rule="SW-9")
    if state["markers_left"] == 0:
        if reserve is not True:
            raise RuleError(gettext_noop("No participation marker is left this age."), field="seat", rule="SW-9")
        if counted and not joined:
            raise RuleError(
                gettext_noop(
                    "A marker comes from the reserve only for players who join in the same turn as the one "
                    "who took the last marker."
                ),
                field="same_turn_reserve",
                rule="SW-9",
            )
    markers = {**state["markers"], seat: state["markers"].get(seat, 0) + 1}
    left = max(0, state["markers_left"] - 1)
    return {**state, "markers": markers, "markers_left": left, "joined": [*joined, seat]}


def _next_turn(state: JSON, payload: Mapping[str, JSON]) -> JSON:
    """The table's turn is over (SW-9: one participation per player per turn). ``turn``, if
    given, is the turn the sender saw: a second press for the same turn is refused."""
    _need_projects(state)
    _need_age_in_play(state)
    turn = state.get("turn") or 1
    seen = payload.get("turn")
    if seen is not None:
        if isinstance(seen, bool) or not isinstance(seen, int):
            raise RuleError(gettext_noop("Enter a whole number."), field="turn")
        if seen != turn:
            raise RuleError(
                gettext_noop("Turn {turn} is already over."), field="turn", rule="SW-9", params={"turn": seen}
            )
    return {**state, "turn": turn + 1, "joined": []}


def _end_age(state: JSON, payload: Mapping[str, JSON]) -> JSON:
    """The end of an age, whatever the modules (SW-4, SW-7: the tiles' amounts follow the
    age); with Great Projects, the age's project is resolved (SW-10)."""
    _need_age_in_play(state)
    age = state["age"]
    # Checked whatever the modules (the API's schema types them): refused when wrong, never ignored.
    spared = payload.get("cannot_suffer", [])
    if not isinstance(spared, list) or not all(isinstance(seat, str) and seat in state["seats"] for seat in spared):
        raise RuleError(gettext_noop("List players of this session."), field="cannot_suffer")
    tomyris = _tomyris(state, payload.get("tomyris"))
    if not state["projects_on"]:
        return {**state, "age": age + 1}
    players = [
        Participant(
            seat,
            state["markers"].get(seat, 0),
            can_suffer_penalty=seat not in spared,
            takes_no_defeat_tokens=seat == tomyris,
        )
        for seat in state["seats"]
    ]
    visible = [t for t in visible_tiles(state) if t] if state["tiles_on"] else []
    success, outcomes = resolve(
        state["projects"][age - 1],
        players,
        markers_left=state["markers_left"],
        age=age,
        tiles=visible,
        corrections=state.get("corrections"),
    )
    record = {
        "age": age,
        "project": state["projects"][age - 1],
        "success": success,
        "outcomes": [
            {"seat": o.name, "outcome": o.outcome, "times": o.times, "vp": o.vp, "defeat_tokens": o.defeat_tokens}
            for o in outcomes
        ],
    }
    following = {"markers_left": markers_for(len(state["seats"])), "markers": {}} if age < 3 else {"markers": {}}
    turn = 1 if state.get("turn") is not None else None
    return {
        **state,
        **following,
        "turn": turn,
        "joined": [],
        "age": age + 1,
        "resolved": [*state["resolved"], record],
    }


def reward_tokens(state: JSON, seat: str) -> dict[str, int]:
    """End-of-game reward tokens a player won, by project (Smelter, Archives, Menagerie)."""
    tokens: dict[str, int] = {}
    for record in state.get("resolved", []):
        for o in record["outcomes"]:
            if o["seat"] == seat and o["outcome"] == "reward":
                tokens[record["project"]] = tokens.get(record["project"], 0) + o["times"]
    return tokens


def penalty_token_points(state: JSON, seat: str) -> int:
    """What the Great Project penalty tokens a player took are worth (SW-10, SW-12)."""
    return sum(
        o["vp"] or 0
        for record in state.get("resolved", [])
        for o in record["outcomes"]
        if o["seat"] == seat and o["outcome"] == "penalty_token"
    )


# --- the sheet (SW-12..SW-14) -----------------------------------------------------------------


def _sheet(state: JSON, payload: Mapping[str, JSON]) -> JSON:
    seat = _seat(state, payload.get("seat"))
    entry = payload.get("sheet")
    if not isinstance(entry, Mapping):
        raise RuleError(gettext_noop("Give the sheet's columns by name."), field="sheet")
    score_sheet({**entry, "name": seat}, field="sheet")  # refuses what is not a number or breaks SW-8
    return {**state, "sheets": {**state["sheets"], seat: dict(entry)}}


def _seat(state: JSON, raw: Any) -> str:
    if raw is None or str(raw) not in state["seats"]:
        raise RuleError(gettext_noop("Choose a player of this session."), field="seat")
    return str(raw)


def _need_tiles(state: JSON) -> None:
    if not state["tiles_on"]:
        raise RuleError(
            gettext_noop("This game is played without the Tower of Babel tiles."), field="type", rule="SW-2"
        )


def _tomyris(state: JSON, seat: JSON) -> str | None:
    """Who plays Tomyris (Leaders), if anyone: she takes no defeat token from a Great Project
    penalty (SW-10, seed 002)."""
    if seat in (None, ""):
        return None
    if not state.get("leaders_on"):
        raise RuleError(gettext_noop("This game is played without Leaders."), field="tomyris", rule="SW-10")
    if seat not in state["seats"]:
        raise RuleError(gettext_noop("Choose a player of this session."), field="tomyris")
    return str(seat)


def _need_age_in_play(state: JSON) -> None:
    if state["age"] > 3:
        raise RuleError(gettext_noop("All three ages are over."), field="type", rule="SW-10")


def _need_projects(state: JSON) -> None:
    if not state["projects_on"]:
        raise RuleError(gettext_noop("This game is played without Great Projects."), field="type", rule="SW-3")
