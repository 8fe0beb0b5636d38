"""The Babel On! tracker: pure functions over JSON-compatible state.

The table first confirms the set-up (``bo.setup``: each player's colour, the extra colour
for 2-3 players, BO-2), then rolls off for the first player (``bo.rolloff``, BO-3). Each
turn the active player calls even or odd and rolls (``bo.roll``, BO-5): a right call leaves
a draw or a move to record (``bo.draw``, ``bo.move``), a wrong one is a miss. The rule text
is cut at a wrong call ("you may either ..."). Decision: a wrong call is a miss and the die
goes on; a group that plays a house rule for it (``wrong_call`` in the group's edition
table: one block drawn onto the player's own tower, or one taken off it) keeps the turn open
until the player takes it or passes (``bo.miss``). A session stored before this Decision (no
``wrong_call`` in its options) replays as it was played: a roll sent with ``miss_choice``
kept the turn open for a pass or one block drawn. A draw or a move the table cannot complete
(too few blocks in the bag, too little room on the tower, too few blocks that may be taken
off) is made with as many blocks as can be (Decision). Bonus blocks
(``bo.bonus``, BO-6), knocked-over towers (``bo.knock``, BO-12) and a manual adjustment
with a note (``bo.adjust``) can be recorded too. Every placement and removal is checked
against BO-7..BO-11. At the end of each round the towers are checked (BO-13) and a perfect
one wins, the first completed if several (BO-14); so does the last player not eliminated.

Every block of a colour in play is always in exactly one place: the bag, a tower, or
behind its owner's architect (a bonus block).
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from scoring.babel_on.chance import chance_at_least
from scoring.babel_on.tower import (
    blocks,
    cell_index,
    check_add,
    check_on_top,
    check_remove,
    check_supported,
    empty_tower,
    failures,
    floor_number,
    is_perfect,
    most_removable,
    room,
    value,
)
from scoring.engine import JSON, Standing
from scoring.errors import RuleError, gettext_noop

SETUP, ROLLOFF, ROLL, DRAW, MOVE = "bo.setup", "bo.rolloff", "bo.roll", "bo.draw", "bo.move"
BONUS, KNOCK, ADJUST, MISS = "bo.bonus", "bo.knock", "bo.adjust", "bo.miss"
EVEN, ODD = "even", "odd"
NOTE_LIMIT = 500


class BabelOn:
    """The engine the session core calls (``scoring.engine.Engine``)."""

    def initial_state(self, *, seats: Sequence[str], options: Mapping[str, JSON], seed: int) -> JSON:
        low, high = value("players")
        if not low <= len(seats) <= high:
            raise RuleError(
                gettext_noop("Babel On! is played by {low} to {high} players."),
                field="seats",
                rule="BO-1",
                params={"low": low, "high": high},
            )
        return {
            "seats": list(seats),
            "seed": seed,
            "phase": "setup",
            "colours": {},
            "extra": None,
            "bag": {},
            "bonus": {},
            "towers": {seat: empty_tower() for seat in seats},
            "eliminated": [],
            "rolloff": {"contenders": list(seats), "rounds": []},
            "dice": 0,
            "first": None,
            "active": None,
            "pending": None,
            "last_roll": None,
            "round": 1,
            "placements": 0,
            "perfect_since": dict.fromkeys(seats),
            "checks": [],
            "adjustments": [],
            "winner": None,
            "won_by": None,
            # What a wrong call gives (BO-5): "miss", or a group's house rule ("draw", "take_off");
            # None in a session stored before the Decision (see the module's docstring).
            "wrong_call": (options.get("table") or {}).get("wrong_call") or options.get("wrong_call"),
        }

    def event_types(self) -> frozenset[str]:
        return frozenset({SETUP, ROLLOFF, ROLL, DRAW, MOVE, BONUS, KNOCK, ADJUST, MISS})

    def apply(self, state: JSON, *, type: str, payload: Mapping[str, JSON]) -> JSON:
        handlers = {
            SETUP: ("setup", _setup),
            ROLLOFF: ("rolloff", _rolloff),
            ROLL: ("playing", _roll),
            DRAW: ("playing", _draw),
            MOVE: ("playing", _move),
            BONUS: ("playing", _bonus),
            KNOCK: ("playing", _knock),
            ADJUST: ("playing", _adjust),
            MISS: ("playing", _miss),
        }
        if type not in handlers:
            raise RuleError(gettext_noop("Unknown event type {type}."), field="type", params={"type": type})
        phase, handler = handlers[type]
        if state["phase"] == "over":
            raise RuleError(gettext_noop("The game is over."), field="type", rule="BO-14")
        if state["phase"] != phase:
            messages = {
                "setup": gettext_noop("The set-up is already done."),
                "rolloff": gettext_noop("Roll off for the first player after the set-up, once."),
                "playing": gettext_noop("Finish the set-up and the roll for the first player first."),
            }
            rules = {"setup": "BO-2", "rolloff": "BO-3", "playing": "BO-3"}
            raise RuleError(messages[phase], field="type", rule=rules[phase])
        new = _copy(state)  # the handlers change the copy; a refusal leaves ``state`` as it was
        handler(new, payload)
        return new

    def standings(self, state: JSON) -> list[Standing] | None:
        if state["phase"] != "over":
            return None
        return [
            Standing(
                seat=seat,
                score=None,
                rank=1 if seat == state["winner"] else 2,
                breakdown={
                    "won_by": state["won_by"] if seat == state["winner"] else None,
                    "perfect": is_perfect(state["towers"][seat], state["colours"][seat], len(state["seats"])),
                    "blocks": blocks(state["towers"][seat]),
                    "eliminated": seat in state["eliminated"],
                    "rounds": state["round"],
                },
            )
            for seat in state["seats"]
        ]


# The lists that only ever grow: shared between a state and the next, never changed in place
# (a handler rebinds them), so a move copies what it may change and not the whole history,
# and replaying a long game stays linear.
HISTORIES = ("checks", "adjustments")


def _copy(state: JSON) -> dict[str, Any]:
    # A pickle round trip is a deep copy done in C, 5x faster than copy.deepcopy here; the
    # state is the engine's own JSON (dicts, lists, strings, numbers), never outside input.
    rest = {key: value for key, value in state.items() if key not in HISTORIES}
    new: dict[str, Any] = pickle.loads(pickle.dumps(rest, pickle.HIGHEST_PROTOCOL))
    return new | {key: state[key] for key in HISTORIES}


# --- set-up and the first player (BO-2, BO-3) --------------------------------------------


def setup_bag(colours: Sequence[str], extra: str | None) -> tuple[dict[str, int], int]:
    """The bag (blocks by colour) and the bonus blocks each player keeps (BO-2)."""
    per_colour, bonus = value("blocks_per_colour"), value("bonus_blocks")
    bag = dict.fromkeys(colours, per_colour - bonus)
    if extra is not None:
        bag[extra] = per_colour
    return bag, bonus


def suggested_extra(colours: Sequence[str]) -> str:
    """The colour the product picks for a 2-3 player game: the first one nobody plays."""
    return next(c for c in value("colours") if c not in colours)


def needs_extra(players: int) -> bool:
    return players <= value("extra_colour_up_to")


def _setup(s: dict[str, Any], payload: Mapping[str, JSON]) -> None:
    raw = payload.get("colours")
    if not isinstance(raw, Mapping):
        raise RuleError(gettext_noop("Give every player a colour."), field="colours", rule="BO-1")
    colours: dict[str, str] = {}
    for seat in s["seats"]:
        colour = raw.get(seat)
        if colour not in value("colours"):
            raise RuleError(
                gettext_noop("Choose one of the colours: {colours}."),
                field=f"colours.{seat}",
                rule="BO-1",
                params={"colours": ", ".join(value("colours"))},
            )
        if colour in colours.values():
            raise RuleError(gettext_noop("Two players cannot share a colour."), field=f"colours.{seat}", rule="BO-1")
        colours[seat] = str(colour)
    extra = payload.get("extra")
    if needs_extra(len(s["seats"])):
        extra = extra or suggested_extra(list(colours.values()))
        if extra not in value("colours") or extra in colours.values():
            raise RuleError(gettext_noop("The extra colour must be one that nobody plays."), field="extra", rule="BO-2")
    elif extra:
        raise RuleError(gettext_noop("Only a game of 2 or 3 players adds a colour."), field="extra", rule="BO-2")
    bag, bonus = setup_bag(list(colours.values()), extra)
    s |= {
        "colours": colours,
        "extra": extra,
        "bag": bag,
        "bonus": dict.fromkeys(s["seats"], bonus),
        "phase": "rolloff",
    }


def _roll_die(s: dict[str, Any]) -> int:
    """The app's die (BO-4): seeded by the session, so a replay rolls the same numbers."""
    rolled = random.Random(f"babel-on:{s['seed']}:{s['dice']}").randint(1, value("die_faces"))
    s["dice"] += 1
    return rolled


def _typed_roll(raw: Any, field: str) -> int:
    faces = value("die_faces")
    if isinstance(raw, bool) or not isinstance(raw, int) or not 1 <= raw <= faces:
        raise RuleError(gettext_noop("A die shows 1 to {faces}."), field=field, rule="BO-4", params={"faces": faces})
    return raw


def _rolloff(s: dict[str, Any], payload: Mapping[str, JSON]) -> None:
    """Everyone still in the roll-off rolls; the highest starts, a tie re-rolls among the tied."""
    contenders: list[str] = s["rolloff"]["contenders"]
    rolls: dict[str, int] = {}
    digital = payload.get("digital", False)
    if not isinstance(digital, bool):  # not a typed roll-off by mistake (BO-3)
        raise RuleError(gettext_noop("Choose yes or no."), field="digital", rule="BO-3")
    if digital:
        rolls = {seat: _roll_die(s) for seat in contenders}
    else:
        raw = payload.get("rolls")
        if not isinstance(raw, Mapping):
            raise RuleError(gettext_noop("Give a roll for every player in the roll-off."), field="rolls", rule="BO-3")
        extra = sorted(set(raw) - set(contenders))
        if extra:
            raise RuleError(gettext_noop("This player is not in the roll-off."), field=f"rolls.{extra[0]}", rule="BO-3")
        rolls = {seat: _typed_roll(raw.get(seat), f"rolls.{seat}") for seat in contenders}
    best = max(rolls.values())
    tied = [seat for seat in contenders if rolls[seat] == best]
    s["rolloff"] = {"contenders": tied, "rounds": [*s["rolloff"]["rounds"], rolls]}
    if len(tied) == 1:
        s |= {"first": tied[0], "active": tied[0], "phase": "playing"}


# --- a turn (BO-5, BO-6, BO-9) -------------------------------------------------------------


def meaning(call: str, rolled: int) -> str:
    """What a roll means (BO-5): ``draw``, ``move`` or ``miss``."""
    parity = EVEN if rolled % 2 == 0 else ODD
    if parity != call:
        return "miss"
    return "draw" if parity == EVEN else "move"


def _roll(s: dict[str, Any], payload: Mapping[str, JSON]) -> None:
    if s["pending"] is not None:
        if s["pending"]["kind"] == "miss":
            gives = {
                "take_off": gettext_noop(
                    "Record what the wrong call gives first: a pass, or one block taken off your tower."
                ),
                "draw": gettext_noop("Record what the wrong call gives first: a pass, or one block drawn."),
            }
            raise RuleError(gives[wrong_call_choices(s)[1]], field="type", rule="BO-5")
        raise RuleError(gettext_noop("Record the blocks of this roll first."), field="type", rule="BO-5")
    hold = payload.get("miss_choice", False)
    if not isinstance(hold, bool):
        raise RuleError(gettext_noop("Choose yes or no."), field="miss_choice")
    call = payload.get("call")
    if call not in (EVEN, ODD):
        raise RuleError(gettext_noop("Call even or odd before rolling."), field="call", rule="BO-5")
    digital = payload.get("roll") is None
    rolled = _roll_die(s) if digital else _typed_roll(payload.get("roll"), "roll")
    outcome = meaning(call, rolled)
    s["last_roll"] = {
        "seat": s["active"],
        "call": call,
        "roll": rolled,
        "digital": digital,
        "outcome": outcome,
    }
    if outcome == "miss" and not _wrong_call_held(s, hold):
        _end_turn(s)
    else:  # a right call, or a wrong one whose choice the table records in this turn
        s["pending"] = {"kind": outcome, "count": rolled}


WRONG_CALL_RULES = ("miss", "draw", "take_off")  # the Decision, then the house rules a group may set


def check_house_rules(table: Mapping[str, Any]) -> None:
    """A group's house rules for Babel On! (its edition table): what a wrong call gives, a
    miss (the Decision, BO-5), one block drawn onto your own tower, or one taken off it."""
    unknown = sorted(set(table) - {"wrong_call"})
    if unknown:
        raise RuleError(gettext_noop("Babel On! has no such house rule."), field=unknown[0])
    if table.get("wrong_call", "miss") not in WRONG_CALL_RULES:
        raise RuleError(gettext_noop("Choose what a wrong call gives."), field="wrong_call", rule="BO-5")


def _wrong_call_held(s: dict[str, Any], miss_choice: bool) -> bool:
    """Whether a wrong call keeps the turn open for its house rule (or, in a session stored
    before the Decision, for the choice its form asked for)."""
    rule = s.get("wrong_call")
    return miss_choice if rule is None else rule != "miss"


def wrong_call_choices(state: JSON) -> tuple[str, ...]:
    """What the player may record after a wrong call (``bo.miss``): a pass, or the house rule."""
    rule = state.get("wrong_call")
    return ("pass", "draw") if rule is None else ("pass", rule)


def _need_pending(s: dict[str, Any], kind: str) -> int:
    pending = s["pending"]
    if pending is None or pending["kind"] != kind:
        message = {
            "draw": gettext_noop("Only a right call of even draws blocks from the bag."),
            "move": gettext_noop("Only a right call of odd moves blocks between towers."),
            "miss": gettext_noop("Only after a wrong call under a house rule does the table record what it gives."),
        }[kind]
        raise RuleError(message, field="type", rule="BO-5")
    count: int = pending["count"]
    return count


def draw_limit(state: JSON, count: int) -> int:
    """How many of ``count`` blocks the active player can draw and place: no more than the bag
    holds or their tower has room for (Decision, BO-5: the rest of the roll is lost)."""
    return min(count, sum(state["bag"].values()), room(state["towers"][state["active"]]))


def move_limit(state: JSON, count: int) -> int:
    """How many of ``count`` blocks can be moved: no more than can be taken off the live towers
    one after another (Decision, BO-5, BO-9). Every block taken off can always go back."""
    live = [seat for seat in state["seats"] if seat not in state["eliminated"]]
    found = 0
    for seat in live:
        found += most_removable(
            state["towers"][seat], state["colours"][seat], by_owner=seat == state["active"], cap=count - found
        )
        if found >= count:
            break
    return found


def _draw(s: dict[str, Any], payload: Mapping[str, JSON]) -> None:
    """The rolled number of blocks from the bag, all onto the player's own tower; as many as
    can be when the bag or the tower runs short (Decision, BO-5)."""
    count = _need_pending(s, "draw")
    _draw_blocks(s, _list(payload.get("blocks"), "blocks"), count)
    _end_turn(s)


def _draw_blocks(s: dict[str, Any], raw: list[Any], count: int) -> None:
    limit = draw_limit(s, count)
    if len(raw) != limit:
        if limit < count:
            raise RuleError(
                gettext_noop(
                    "Only {limit} of the {count} blocks can be drawn ({left} in the bag, room for {room} on "
                    "the tower): draw {limit}."
                ),
                field="blocks",
                rule="BO-5",
                params={
                    "limit": limit,
                    "count": count,
                    "left": sum(s["bag"].values()),
                    "room": room(s["towers"][s["active"]]),
                },
            )
        raise RuleError(
            gettext_noop("Draw exactly {count} blocks and place every one."),
            field="blocks",
            rule="BO-5",
            params={"count": count},
        )
    seat = s["active"]
    for index, block in enumerate(raw):
        field = f"blocks[{index}]"
        colour = _from_bag(s, _mapping(block, field).get("colour"), f"{field}.colour")
        floor, cell = _place(block, field)
        _add(s, seat, floor, cell, colour, field=field)


def _miss(s: dict[str, Any], payload: Mapping[str, JSON]) -> None:
    """After a wrong call under the group's house rule (BO-5): a pass, or what the house rule
    gives, one block drawn from the bag onto the player's own tower (``blocks``) or one taken
    off it back into the bag (``block``); none if there is none to give or take. Then the die
    goes to the left."""
    _need_pending(s, "miss")
    choice = payload.get("choice")
    if choice not in wrong_call_choices(s):
        raise RuleError(gettext_noop("Choose a pass or what your house rule gives."), field="choice", rule="BO-5")
    if choice == "draw":
        _draw_blocks(s, _list(payload.get("blocks"), "blocks"), value("wrong_call_draw"))
    if choice == "take_off":
        _take_off_own(s, payload.get("block"))
    s["last_roll"]["choice"] = choice
    _end_turn(s)


def _take_off_own(s: dict[str, Any], raw: Any) -> None:
    """One block off the active player's own tower into the bag, as a move takes one (BO-7,
    BO-8, BO-11); none only when none may come off."""
    seat = s["active"]
    tower, colour = s["towers"][seat], s["colours"][seat]
    if raw is None:
        if most_removable(tower, colour, by_owner=True, cap=1):
            raise RuleError(gettext_noop("Choose the block to take off your tower."), field="block", rule="BO-5")
        return
    floor, cell = _place(raw, "block")
    check_remove(tower, floor, cell, owner_colour=colour, by_owner=True, field="block")
    s["bag"][tower[floor - 1][cell]] += 1
    _set(s, seat, floor, cell, None)


def _move(s: dict[str, Any], payload: Mapping[str, JSON]) -> None:
    """The rolled number of blocks: all removals first, then all additions (BO-9); as many as
    can be taken off when fewer can (Decision, BO-5). ``additions[i].block`` says which block
    taken off (by its place in ``removals``, from 0) goes there; without it, the i-th."""
    rolled = _need_pending(s, "move")
    count = move_limit(s, rolled)
    removals = _list(payload.get("removals"), "removals")
    additions = _list(payload.get("additions"), "additions")
    for name, given in (("removals", removals), ("additions", additions)):
        if len(given) != count and count < rolled:
            raise RuleError(
                gettext_noop("Only {count} of the {rolled} blocks can be taken off the towers: move {count}."),
                field=name,
                rule="BO-5",
                params={"count": count, "rolled": rolled},
            )
        if len(given) != count:
            raise RuleError(
                gettext_noop("Move exactly {count} blocks: take them all off, then add them all."),
                field=name,
                rule="BO-5",
                params={"count": count},
            )
    taken: list[str] = []
    for index, removal in enumerate(removals):
        field = f"removals[{index}]"
        seat, floor, cell = _address(s, removal, field)
        tower = s["towers"][seat]
        check_remove(tower, floor, cell, owner_colour=s["colours"][seat], by_owner=seat == s["active"], field=field)
        taken.append(tower[floor - 1][cell])
        _set(s, seat, floor, cell, None)
    order: list[int] = []
    for index, addition in enumerate(additions):
        block = _mapping(addition, f"additions[{index}]").get("block", index)
        if isinstance(block, bool) or not isinstance(block, int) or not 0 <= block < count or block in order:
            raise RuleError(
                gettext_noop("Each block taken off goes back onto a tower once."),
                field=f"additions[{index}].block",
                rule="BO-9",
            )
        order.append(block)
    for index, (addition, block) in enumerate(zip(additions, order, strict=True)):
        field = f"additions[{index}]"
        seat, floor, cell = _address(s, addition, field)
        _add(s, seat, floor, cell, taken[block], field=field)
    _end_turn(s)


def _bonus(s: dict[str, Any], payload: Mapping[str, JSON]) -> None:
    """Decision (BO-6): the active player adds 1 or 2 of their bonus blocks to their tower."""
    seat = s["active"]
    raw = _list(payload.get("blocks"), "blocks")
    left = s["bonus"][seat]
    if not 1 <= len(raw) <= min(value("bonus_blocks"), left):  # 1 or both (BO-6)
        raise RuleError(
            gettext_noop("Use 1 or 2 bonus blocks; {left} left."), field="blocks", rule="BO-6", params={"left": left}
        )
    colour = s["colours"][seat]
    for index, block in enumerate(raw):
        field = f"blocks[{index}]"
        floor, cell = _place(block, field)
        s["bonus"][seat] -= 1
        _add(s, seat, floor, cell, colour, field=field)


# --- knocked-over towers, adjustments (BO-12, BO-5 Decision) ----------------------------------


def _knock(s: dict[str, Any], payload: Mapping[str, JSON]) -> None:
    """``seat`` knocked blocks off ``tower``'s tower.

    Their own: the tower and their unplayed bonus blocks go back into the bag, and their
    turn ends if it was theirs. An opponent's: they are eliminated (their blocks go back
    into the bag); the owner puts the fallen blocks back as they wish, so the opponent's
    tower is recorded as it was (a manual adjustment records a different rebuild).
    """
    seat = _live_seat(s, payload.get("seat"), "seat")
    victim = _live_seat(s, payload.get("tower"), "tower")
    was_active = seat == s["active"]
    _clear(s, seat)
    if seat != victim:
        s["eliminated"].append(seat)
        standing = [p for p in s["seats"] if p not in s["eliminated"]]
        if len(standing) == 1:
            s |= {"phase": "over", "winner": standing[0], "won_by": "last_standing", "active": None, "pending": None}
            return
    if was_active:
        _end_turn(s)


def _clear(s: dict[str, Any], seat: str) -> None:
    for floor in s["towers"][seat]:
        for colour in floor:
            if colour is not None:
                s["bag"][colour] += 1
    s["bag"][s["colours"][seat]] += s["bonus"][seat]
    s["bonus"][seat] = 0
    s["towers"][seat] = empty_tower()
    s["perfect_since"][seat] = None


def _adjust(s: dict[str, Any], payload: Mapping[str, JSON]) -> None:
    """A logged correction with a note, for what the rules do not cover (Decision, BO-5):
    blocks taken off a tower go into the bag, blocks added come from the bag. Only the
    structure is checked (BO-7); the turn can be ended with it."""
    note = payload.get("note")
    if not isinstance(note, str) or not note.strip() or len(note) > NOTE_LIMIT:
        raise RuleError(
            gettext_noop("Write a note (up to {limit} characters) saying what happened."),
            field="note",
            params={"limit": NOTE_LIMIT},
        )
    for index, removal in enumerate(_list(payload.get("remove", []), "remove")):
        field = f"remove[{index}]"
        seat, floor, cell = _address(s, removal, field)
        colour = check_on_top(s["towers"][seat], floor, cell, field=field)
        s["bag"][colour] += 1
        _set(s, seat, floor, cell, None)
    for index, addition in enumerate(_list(payload.get("add", []), "add")):
        field = f"add[{index}]"
        seat, floor, cell = _address(s, addition, field)
        colour = _from_bag(s, _mapping(addition, field).get("colour"), f"{field}.colour")
        check_supported(s["towers"][seat], floor, cell, field=field)
        s["placements"] += 1
        _set(s, seat, floor, cell, colour)
    end_turn = payload.get("end_turn", False)
    if not isinstance(end_turn, bool):
        raise RuleError(gettext_noop("Choose yes or no."), field="end_turn")
    s["adjustments"] = [*s["adjustments"], {"note": note.strip(), "round": s["round"], "active": s["active"]}]
    if end_turn:
        _end_turn(s)


# --- the end of a turn and of a round (BO-13, BO-14) ------------------------------------------


def _end_turn(s: dict[str, Any]) -> None:
    """Hand the die to the left: the next seat not eliminated. Passing the first player's
    place again ends the round, and the round's end checks the towers."""
    seats: list[str] = s["seats"]
    start = seats.index(s["first"])

    def position(seat: str) -> int:
        return (seats.index(seat) - start) % len(seats)

    current = s["active"]
    following = next(
        seats[(seats.index(current) + step) % len(seats)]
        for step in range(1, len(seats) + 1)
        if seats[(seats.index(current) + step) % len(seats)] not in s["eliminated"]
    )
    s["pending"] = None
    s["active"] = following
    if position(following) <= position(current):
        _end_round(s)


def _end_round(s: dict[str, Any]) -> None:
    players = len(s["seats"])
    perfect = [
        seat
        for seat in s["seats"]
        if seat not in s["eliminated"] and is_perfect(s["towers"][seat], s["colours"][seat], players)
    ]
    s["checks"] = [*s["checks"], {"round": s["round"], "perfect": perfect}]
    if perfect:  # several: the tower completed first wins
        winner = min(perfect, key=lambda seat: s["perfect_since"][seat])
        s |= {"phase": "over", "winner": winner, "won_by": "perfect", "active": None}
        return
    s["round"] += 1


# --- placing and taking blocks ----------------------------------------------------------------


def _add(s: dict[str, Any], seat: str, floor: int, cell: int, colour: str, *, field: str) -> None:
    check_add(s["towers"][seat], floor, cell, field=field)
    s["placements"] += 1
    _set(s, seat, floor, cell, colour)


def _set(s: dict[str, Any], seat: str, floor: int, cell: int, colour: str | None) -> None:
    """Change one cell and keep when the tower became perfect (BO-14's tie-break)."""
    s["towers"][seat][floor - 1][cell] = colour
    if not is_perfect(s["towers"][seat], s["colours"][seat], len(s["seats"])):
        s["perfect_since"][seat] = None
    elif s["perfect_since"][seat] is None:
        s["perfect_since"][seat] = s["placements"]


def _from_bag(s: dict[str, Any], colour: Any, field: str) -> str:
    if colour not in s["bag"]:
        raise RuleError(gettext_noop("This colour is not in the bag of this game."), field=field, rule="BO-2")
    if s["bag"][colour] == 0:
        raise RuleError(gettext_noop("The bag holds no more blocks of this colour."), field=field, rule="BO-5")
    s["bag"][colour] -= 1
    return str(colour)


def _place(raw: Any, field: str) -> tuple[int, int]:
    block = _mapping(raw, field)
    floor = floor_number(block.get("floor"), field=f"{field}.floor")
    return floor, cell_index(block.get("cell"), field=f"{field}.cell")


def _address(s: dict[str, Any], raw: Any, field: str) -> tuple[str, int, int]:
    seat = _live_seat(s, _mapping(raw, field).get("tower"), f"{field}.tower")
    floor, cell = _place(raw, field)
    return seat, floor, cell


def _live_seat(s: dict[str, Any], raw: Any, field: str) -> str:
    if raw is None or str(raw) not in s["seats"]:
        raise RuleError(gettext_noop("Choose a player of this session."), field=field)
    if str(raw) in s["eliminated"]:
        raise RuleError(gettext_noop("This player is out of the game."), field=field, rule="BO-12")
    return str(raw)


def _list(raw: Any, field: str) -> list[Any]:
    if not isinstance(raw, list):
        raise RuleError(gettext_noop("Give a list of blocks."), field=field)
    return raw


def _mapping(raw: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise RuleError(gettext_noop("Give the block's tower, floor and cell."), field=field)
    return raw


# --- what the board shows ------------------------------------------------------------------


def tower_failures(state: JSON, seat: str) -> list[dict[str, Any]]:
    """Why ``seat``'s tower is not perfect yet (BO-13), floor by floor."""
    return [
        {"floor": f.floor, "condition": f.condition, "template": f.template, "params": f.params}
        for f in failures(state["towers"][seat], state["colours"][seat], len(state["seats"]))
    ]


def chance_for(state: JSON, seat: str, drawn: int, at_least: int) -> Fraction:
    """The chance that ``seat`` draws at least ``at_least`` of their colour among ``drawn``."""
    return chance_at_least(sum(state["bag"].values()), state["bag"][state["colours"][seat]], drawn, at_least)


def blocks_by_colour(state: JSON) -> dict[str, int]:
    """Every block of each colour in play, wherever it is: always 24 (BO-1)."""
    counts = dict(state["bag"])
    for seat, tower in state["towers"].items():
        for floor in tower:
            for colour in floor:
                if colour is not None:
                    counts[colour] += 1
        if seat in state["colours"]:
            counts[state["colours"][seat]] += state["bonus"][seat]
    return counts
