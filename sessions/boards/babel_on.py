"""The Babel On! table: the set-up, the roll-off, the towers as pictures, the bag, and the
forms of a turn, on the host's page and on the phone of the player whose turn it is. Places
on a tower are posted as ``<floor>-<cell>`` (``3-nw``) and a block on someone's tower as
``<seat>:<floor>:<cell>``; the engine checks every one.

A place is chosen by tapping a cell of a tower picture: each cell that can take a block is a
radio button of the form (so the choice is kept by the browser, with no script and no round
trip), the others are drawn but cannot be chosen."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.http import QueryDict
from django.utils.text import get_text_list
from django.utils.translation import gettext, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.babel_on import engine as bo
from scoring.babel_on.tower import (
    blocks,
    cells,
    floors,
    highest_allowed,
    protected_up_to,
    removable_blocks,
    room,
    suggested_places,
    top_floor,
    value,
)
from scoring.errors import RuleError, gettext_noop
from sessions.boards.turns import check_turn_form
from sessions.data_texts import CELL_NAMES as CELL_NAME_TEXTS
from sessions.data_texts import data_text_lazy
from sessions.games import COLOUR_NAMES
from sessions.models import GameSession
from sessions.numbers import whole, whole_or_text
from sessions.rule_messages import describe

BOARD_TEMPLATE = "boards/babel_on/_board.html"
CONTROLS_TEMPLATE = "boards/babel_on/_controls.html"
# The player whose turn it is calls, rolls, records the blocks and adds bonus blocks from their own phone.
PHONE_TEMPLATE = "boards/babel_on/_phone.html"
PHONE_EVENTS = {"roll": bo.ROLL, "draw": bo.DRAW, "move": bo.MOVE, "bonus": bo.BONUS, "miss": bo.MISS}
# The blocks of a draw, a move or a bonus go to the engine in the order the rules need (the
# lowest place first, the highest block off first), not in the order of the rows: a refusal
# of one of them is said at the top of its form, over the tower pictures.
ERROR_INPUTS = [
    (r"colours\.(\w+)", r"colour_\1"),
    (r"rolls\.(\w+)", r"roll_\1"),
    (r"(blocks|removals|additions)\[\d+\].*", ""),
]
EVENTS = {
    "setup": bo.SETUP,
    "rolloff": bo.ROLLOFF,
    "roll": bo.ROLL,
    "draw": bo.DRAW,
    "move": bo.MOVE,
    "bonus": bo.BONUS,
    "knock": bo.KNOCK,
    "adjust": bo.ADJUST,
    "miss": bo.MISS,
}
CELL_NAMES = {cell: data_text_lazy(CELL_NAME_TEXTS[cell]) for cell in cells()}
OUTCOMES = {
    "draw": ngettext_lazy(
        "draw %(count)s block from the bag and add it to your own tower",
        "draw %(count)s blocks from the bag and add them all to your own tower",
        "count",
    ),
    "move": ngettext_lazy(
        "move %(count)s block between towers: take it off first, then add it",
        "move %(count)s blocks between towers: take them all off first, then add them",
        "count",
    ),
    "miss": _("a miss: the die goes to the left"),
    "miss_open": _("a wrong call: a pass, or what your house rule gives; then the die goes to the left"),
    "miss_draw": _("a miss: one block drawn, as the table agreed; the die goes to the left"),
    "miss_take_off": _("a miss: one block taken off the tower, as your house rule says; the die goes to the left"),
}
CALLS = {"even": _("even"), "odd": _("odd")}
WON_BY = {"perfect": _("a perfect tower"), "last_standing": _("last player standing")}


def _names(session: GameSession) -> dict[str, str]:
    return {seat.key: seat.player.name for seat in session.seats.all()}


def _colour_name(colour: str | None) -> str:
    return str(COLOUR_NAMES[colour]) if colour in COLOUR_NAMES else colour or ""


def _place_label(floor: int, cell: str) -> str:
    return gettext("floor %(floor)s, %(cell)s") % {"floor": floor, "cell": CELL_NAMES[cell]}


def _picture(tower: list[list[str | None]]) -> list[dict[str, Any]]:
    """Floors from the top down, each with its 4 cells, for the tower picture."""
    return [
        {
            "number": number,
            "cells": [
                {
                    "key": f"{number}-{cell}",
                    "colour": colour,
                    "colour_name": _colour_name(colour),
                    "label": _place_label(number, cell),
                }
                for cell, colour in zip(cells(), tower[number - 1], strict=True)
            ],
        }
        for number in range(floors(), 0, -1)
    ]


def _by_colour(tower: list[list[str | None]]) -> list[tuple[str, str, int]]:
    """(colour, its name, blocks) for each colour in a tower, the most blocks first: the
    picture's key in words."""
    counts = Counter(colour for floor in tower for colour in floor if colour is not None)
    return [(colour, _colour_name(colour), count) for colour, count in counts.most_common()]


# The conditions of a perfect tower (BO-13) that fail on whole runs of floors, said once for
# all of them: a tall tower would otherwise repeat the same sentence on each floor.
_ON_FLOORS = {
    "colour": _("No block of your colour on floors {floors}."),
    "adjacent": _("No two blocks of your colour side by side (not diagonally) on floors {floors}."),
    "line_up": _("None of your blocks above one of yours on the floor below, on floors {floors}."),
}


def _problems(failures: list[dict[str, Any]]) -> list[str]:
    """Why a tower is not perfect, in words: each floor's missing blocks, then each other
    condition once, with the floors it fails on (its own sentence when on one floor only)."""
    reasons = [gettext(f["template"]).format(**f["params"]) for f in failures if f["condition"] == "complete"]
    for condition, words in _ON_FLOORS.items():
        failing = [f for f in failures if f["condition"] == condition]
        if len(failing) == 1:
            reasons.append(gettext(failing[0]["template"]).format(**failing[0]["params"]))
        elif failing:
            floors = get_text_list([str(f["floor"]) for f in failing], gettext("and"))
            reasons.append(str(words).format(floors=floors))
    return reasons


def board_context(session: GameSession) -> dict[str, Any]:
    state = session.state["game"]
    names = _names(session)
    colours = state["colours"]
    towers = []
    for seat in state["seats"]:
        tower = state["towers"][seat]
        problems = _problems(bo.tower_failures(state, seat)) if colours else []
        # What the tower's drawing shows, in plain values: the templates keep its render under
        # it, since a move changes one tower at most (see "fragments" in settings).
        shown = {
            "seat": seat,
            "name": names[seat],
            "colour": colours.get(seat),
            "eliminated": seat in state["eliminated"],
            "bonus": state["bonus"].get(seat, 0),
            "tower": tower,
            "problems": problems,
            "winner": seat == state["winner"],
            "over": state["phase"] == "over",
            "coloured": bool(colours),
            "colour_name": _colour_name(colours.get(seat)),
            "by_colour": _by_colour(tower),
        }
        towers.append(
            {
                **shown,
                "shown": repr(shown),
                "active": seat == state["active"],
                "blocks": blocks(tower),
                "floors": _picture(tower),
                "perfect": bool(colours) and not problems,
            }
        )
    last = state["last_roll"]
    roll = None
    if last is not None:
        roll = {
            "name": names[last["seat"]],
            "call": CALLS[last["call"]],
            "roll": last["roll"],
            "digital": last["digital"],
            "outcome": last["outcome"],
            "meaning": OUTCOMES[_outcome(state)] % {"count": last["roll"]},
        }
    return {
        "bo": state,
        "bo_towers": towers,
        "bo_bag": [(c, _colour_name(c), n) for c, n in state["bag"].items()],
        "bo_bag_total": sum(state["bag"].values()),
        "bo_active_name": names.get(state["active"] or "", ""),
        "bo_winner_name": names.get(state["winner"] or "", ""),
        "bo_won_by": WON_BY.get(state["won_by"] or ""),
        "bo_roll": roll,
        "bo_rolloff": [
            [(names[seat], rolled) for seat, rolled in rolls.items()] for rolls in state["rolloff"]["rounds"]
        ],
        "bo_extra_name": _colour_name(state["extra"]),
        "bo_last_check": state["checks"][-1] if state["checks"] else None,
        "bo_adjustments": state["adjustments"][-5:],
        "bo_pictures": True,  # the towers drawn (a phone's own move draws them in its panel)
    }


def _outcome(state: dict[str, Any]) -> str:
    """The last roll's meaning, with the wrong call's choice (Decision, BO-5) once known."""
    last = state["last_roll"]
    if last["outcome"] != "miss":
        return str(last["outcome"])
    pending = state["pending"]
    if pending and pending["kind"] == "miss":
        return "miss_open"
    return {"draw": "miss_draw", "take_off": "miss_take_off"}.get(last.get("choice", ""), "miss")


def _own_blocks_off(state: dict[str, Any]) -> list[dict[str, str]]:
    """The blocks the active player may take off their own tower (a wrong call's house rule),
    each with its place ("2-ne") and its words ("floor 2, north-east · green")."""
    seat = state["active"]
    tower = state["towers"][seat]
    return [
        {
            "place": f"{floor}-{cells()[cell]}",
            "label": f"{_place_label(floor, cells()[cell])} · {_colour_name(tower[floor - 1][cell])}",
        }
        for floor, cell in removable_blocks(tower, state["colours"][seat], by_owner=True)
    ]


def _rows(state: dict[str, Any], kind: str) -> int:
    """How many blocks the form of the pending ``kind`` asks for: the roll, or as many as the
    table can draw or move when fewer (Decision, BO-5); one (or none) after a wrong call."""
    pending = state["pending"]
    if state["phase"] != "playing" or not pending or pending["kind"] != kind:
        return 0
    if kind == "draw":
        return bo.draw_limit(state, pending["count"])
    if kind == "move":
        return bo.move_limit(state, pending["count"])
    return bo.draw_limit(state, value("wrong_call_draw"))


def _needed(tower: list[list[str | None]], floor: int, index: int) -> int:
    """How many blocks, this one included, a block at ``floor`` (from 1), cell ``index`` needs
    on the tower: every empty cell two floors below it and lower, since only two floors may be
    partly built (BO-8), and the empty cell under it (BO-7). Any such blocks can go on lowest
    floor first."""
    below = sum(1 for cells_of in tower[: max(floor - 2, 0)] for colour in cells_of if colour is None)
    under = 1 if floor > 1 and tower[floor - 2][index] is None else 0
    return below + under + 1


def _place_picker(tower: list[list[str | None]], count: int) -> list[dict[str, Any]]:
    """The floors of a player's own tower where ``count`` blocks can go, the lowest first:
    every cell with its block, or empty and whether one of the blocks can go there."""
    shown: list[dict[str, Any]] = []
    for number in range(1, floors() + 1):
        row = [
            {
                "key": f"{number}-{cell}",
                "label": _place_label(number, cell),
                "colour": colour,
                "colour_name": _colour_name(colour),
                "open": colour is None and _needed(tower, number, index) <= count,
            }
            for index, (cell, colour) in enumerate(zip(cells(), tower[number - 1], strict=True))
        ]
        if any(c["open"] for c in row):
            shown.append({"number": number, "cells": row})
    return shown


def _move_towers(
    state: dict[str, Any], names: dict[str, str], count: int, draft: list[tuple[str, str]]
) -> list[dict[str, Any]]:
    """Every live tower for a move of ``count`` blocks, the top floor first: the blocks that
    may come off (not on a protected floor, BO-11, nor under more blocks than are moved, BO-7)
    and the empty cells the blocks can go to (BO-7, BO-8). The engine checks the rest (BO-10).
    Each cell says which block of the ``draft`` (the pairs already chosen) comes off it
    (``off``, from 1) and goes onto it (``on``): a block comes off once, a cell takes one
    block, and a block's own cell can take another once it is off."""
    off = {taken: k + 1 for k, (taken, _put) in enumerate(draft)}
    on = {put: k + 1 for k, (_taken, put) in enumerate(draft)}
    towers = []
    for seat in state["seats"]:
        if seat in state["eliminated"]:
            continue
        tower = state["towers"][seat]
        protected = protected_up_to(tower, state["colours"][seat])
        heights = [sum(1 for floor in tower if floor[index] is not None) for index in range(len(cells()))]
        shown: list[dict[str, Any]] = []
        for number in range(highest_allowed(tower), 0, -1):
            row = []
            for index, (cell, colour) in enumerate(zip(cells(), tower[number - 1], strict=True)):
                key = f"{seat}:{number}:{cell}"
                takeable = colour is not None and number > protected and heights[index] - number < count
                is_open = colour is None and _needed(tower, number, index) <= count
                row.append(
                    {
                        "key": key,
                        "place": f"{number}{cell}",
                        "colour": colour,
                        "open": is_open,
                        "off": off.get(key),
                        "on": on.get(key),
                        "take": takeable and key not in off,
                        # A block's own cell can take another once it is off (JavaScript adds its button).
                        "put": (is_open or key in off) and key not in on,
                    }
                )
            if shown or number <= top_floor(tower) or any(c["open"] for c in row):
                shown.append({"number": number, "cells": row})
        towers.append({"seat": seat, "name": names[seat], "colour": state["colours"][seat], "floors": shown})
    return towers


def _move_draft(sent: QueryDict | None, count: int) -> list[tuple[str, str]]:
    """The blocks of a move already chosen when it is sent a part at a time (without
    JavaScript, a block per send; ``static/js/babel_on_move.js`` chooses them all in the page):
    each ``from_<k>`` with its ``to_<k>``, in order, and never the last block (its radio
    buttons stay to tap, or come back as they were tapped)."""
    draft: list[tuple[str, str]] = []
    for k in range(count - 1):
        taken, put = (sent.get(f"from_{k}"), sent.get(f"to_{k}")) if sent is not None else (None, None)
        if not taken or not put:
            break
        draft.append((taken, put))
    return draft


def controls_context(session: GameSession, query: QueryDict) -> dict[str, Any]:
    state = session.state["game"]
    names = _names(session)
    context = _turn_context(state, names, query)
    if state["phase"] == "setup":
        context["bo_setup"] = _setup_form(session, names)
    elif state["phase"] == "rolloff":
        context["bo_contenders"] = [(seat, names[seat]) for seat in state["rolloff"]["contenders"]]
    elif state["phase"] == "playing":
        context.update(_bonus_context(state))
        context["bo_chance"] = _chance(state, names, query)
    return context


def _bonus_context(state: dict[str, Any]) -> dict[str, Any]:
    """A row per bonus block the active player still has, the first on the suggested place (BO-6)."""
    left = state["bonus"][state["active"]]
    tower = state["towers"][state["active"]]
    return {
        "bo_bonus_rows": [str(i) for i in range(left)],
        "bo_bonus_places": suggested_places(tower, left),
        "bo_bonus_floors": _place_picker(tower, left),
    }


def _turn_context(state: dict[str, Any], names: dict[str, str], sent: QueryDict | None = None) -> dict[str, Any]:
    """What the forms of a turn offer (``_turn.html``, on the host's page and the active
    player's phone): the die, the places, the live towers, and, after a right call, a row
    for each block to draw (with the suggested place), or the towers to tap each block to
    move on, with the blocks of the move ``sent`` so far (``_move_draft``)."""
    live = [seat for seat in state["seats"] if seat not in state["eliminated"]]
    context: dict[str, Any] = {
        "bo_faces": value("die_faces"),
        "bo_floor_numbers": range(1, floors() + 1),
        "bo_cells": list(CELL_NAMES.items()),
        "bo_live_seats": [(seat, names[seat]) for seat in live],
    }
    if state["phase"] != "playing":
        return context
    pending = state["pending"]
    context["bo_pending"] = pending["kind"] if pending else None
    if pending and pending["kind"] == "miss":  # a wrong call under a house rule (BO-5)
        context["bo_wrong_call"] = bo.wrong_call_choices(state)[1]  # what the rule gives besides a pass
        if context["bo_wrong_call"] == "take_off":
            context["bo_take_off"] = _own_blocks_off(state)
    if pending and pending["kind"] in ("draw", "miss"):
        count = _rows(state, pending["kind"])
        tower = state["towers"][state["active"]]
        places = suggested_places(tower, count)
        context["bo_draw"] = [{"index": i, "place": places[i]} for i in range(count)]
        context["bo_draw_floors"] = _place_picker(tower, count)
        if pending["kind"] == "draw" and count < pending["count"]:
            context["bo_short"] = {
                "count": pending["count"],
                "limit": count,
                "lost": pending["count"] - count,
                "left": sum(state["bag"].values()),
                "room": room(state["towers"][state["active"]]),
            }
    if pending and pending["kind"] == "move":
        count = _rows(state, "move")
        towers = _move_towers(state, names, count, [])
        shown = [cell for t in towers for floor in t["floors"] for cell in floor["cells"]]
        takeable = {cell["key"] for cell in shown if cell["take"]}
        draft: list[tuple[str, str]] = []
        for taken, put in _move_draft(sent, count):  # as far as the towers can take it
            puttable = {cell["key"] for cell in shown if cell["open"]} | {t for t, _p in draft}
            if taken not in takeable or put not in puttable or any(taken == t or put == p for t, p in draft):
                break
            draft.append((taken, put))
        context["bo_move"] = list(range(count))
        context["bo_move_step"] = len(draft)
        context["bo_move_draft"] = [{"index": k, "off": taken, "on": put} for k, (taken, put) in enumerate(draft)]
        context["bo_move_towers"] = _move_towers(state, names, count, draft) if draft else towers
        # The words of each button, said once: the step's, the tower's (its legend), the
        # place's and the block's colour, joined by aria-labelledby; only those a button names.
        buttons = [
            cell
            for t in context["bo_move_towers"]
            for floor in t["floors"]
            for cell in floor["cells"]
            if cell["take"] or cell["put"]
        ]
        named = {cell["place"] for cell in buttons}
        context["bo_move_places"] = [
            (place, _place_label(number, cell))
            for number in range(1, floors() + 1)
            for cell in cells()
            if (place := f"{number}{cell}") in named
        ]
        colours = {cell["colour"] for cell in buttons if cell["take"]} - {None}
        context["bo_move_colours"] = [(c, _colour_name(c)) for c in sorted(colours)]
        if count < pending["count"]:
            context["bo_short"] = {"count": pending["count"], "limit": count, "lost": pending["count"] - count}
    return context


def _setup_form(session: GameSession, names: dict[str, str]) -> dict[str, Any]:
    """The seats' colours as chosen when the session was made (a free one where none was),
    the extra colour the app picks for 2-3 players, and what goes into the bag (BO-2)."""
    chosen = {seat.key: seat.colour for seat in session.seats.all()}
    offered = list(value("colours"))
    colours: dict[str, str] = {}
    for seat in session.state["game"]["seats"]:
        colour = chosen.get(seat) or next(c for c in offered if c not in colours.values() and c not in chosen.values())
        colours[seat] = colour
    extra = bo.suggested_extra(list(colours.values())) if bo.needs_extra(len(colours)) else None
    bag, bonus = bo.setup_bag(list(colours.values()), extra)
    return {
        # A colour chosen with the session is its seat's for good (the standings show it).
        "rows": [(seat, names[seat], colours[seat], bool(chosen.get(seat))) for seat in colours],
        "colours": [(c, _colour_name(c)) for c in offered],
        "extra": extra,
        "extras": [(c, _colour_name(c)) for c in offered if c not in colours.values()],
        "bag": [(c, _colour_name(c), n) for c, n in bag.items()],
        "bag_total": sum(bag.values()),
        "bonus": bonus,
    }


def _chance(state: dict[str, Any], names: dict[str, str], query: QueryDict) -> dict[str, Any]:
    """The asked chance: at least k blocks of a player's colour among n drawn (exact)."""
    seat = query.get("chance_seat") or state["active"]
    form: dict[str, Any] = {
        "seat": seat,
        "drawn": query.get("drawn", "4"),
        "at_least": query.get("at_least", "2"),
        "answer": None,
    }
    if "drawn" not in query or seat not in state["colours"]:
        return form
    try:
        drawn, at_least = int(query.get("drawn", "")), int(query.get("at_least", ""))
        chance = bo.chance_for(state, seat, drawn, at_least)
    except ValueError as error:
        form["error"] = describe(error) if isinstance(error, RuleError) else gettext("Enter whole numbers.")
        return form
    form["answer"] = {
        "fraction": f"{chance.numerator}/{chance.denominator}",
        "percent": f"{float(chance) * 100:.1f}",
        "name": names[seat],
        "colour": _colour_name(state["colours"][seat]),
    }
    return form


def payload(event_type: str, data: QueryDict, session: GameSession) -> dict[str, Any]:
    """The engine payload for a posted control form (the engine checks the rules)."""
    state = session.state["game"]
    if event_type == bo.SETUP:
        return {"colours": {seat: data.get(f"colour_{seat}") for seat in state["seats"]}, "extra": data.get("extra")}
    if event_type == bo.ROLLOFF:
        if "digital" in data:
            return {"digital": True}
        return {"rolls": {seat: whole_or_text(data.get(f"roll_{seat}")) for seat in state["rolloff"]["contenders"]}}
    if event_type == bo.ROLL:
        # The forms keep the turn open on a wrong call, for the table's choice (Decision, BO-5).
        roll = None if data.get("die") == "app" else whole_or_text(data.get("roll"))
        return {"call": data.get("call"), "roll": roll, "miss_choice": True}
    if event_type == bo.DRAW:
        return {"blocks": _drawn(data, _rows(state, "draw"))}
    if event_type == bo.MISS:
        choice = data.get("choice")
        if choice == "draw":
            return {"choice": choice, "blocks": _drawn(data, _rows(state, "miss"))}
        if choice == "take_off" and data.get("block"):
            return {"choice": choice, "block": _place(data.get("block"))}
        return {"choice": choice}
    if event_type == bo.MOVE:
        # Each tapped block goes where it was tapped to (``from_<k>`` to ``to_<k>``), whatever
        # the order of the taps: they come off in the order the rules let them (BO-7, BO-8,
        # BO-10) and go on the lowest floor first, so a stack keeps its order.
        count = _rows(state, "move")
        _unless_sent_in_part(data, count)
        taken = [data.get(f"from_{k}") for k in range(count)]
        off = sorted(range(count), key=lambda k: _taking_order(state, taken[k]))
        on = sorted(range(count), key=lambda k: _lowest_first(_block(data.get(f"to_{k}"))))
        return {
            "removals": [_block(taken[k]) for k in off],
            "additions": [{"block": off.index(k), **_block(data.get(f"to_{k}"))} for k in on],
        }
    if event_type == bo.BONUS:
        rows = range(value("bonus_blocks"))
        places = [_place(data.get(f"bonus_{i}")) for i in rows if data.get(f"bonus_{i}")]
        return {"blocks": sorted(places, key=_lowest_first)}
    if event_type == bo.KNOCK:
        return {"seat": data.get("seat"), "tower": data.get("tower")}
    adjusted: dict[str, Any] = {"note": data.get("note", ""), "end_turn": "end_turn" in data, "remove": [], "add": []}
    # A place is a floor and a cell, two short lists rather than one of 24 places.
    if data.get("remove_floor"):
        adjusted["remove"] = [
            {"tower": data.get("remove_tower"), **_place(f"{data.get('remove_floor')}-{data.get('remove_cell')}")}
        ]
    if data.get("add_floor"):
        adjusted["add"] = [
            {
                "tower": data.get("add_tower"),
                "colour": data.get("add_colour"),
                **_place(f"{data.get('add_floor')}-{data.get('add_cell')}"),
            }
        ]
    return adjusted


def _unless_sent_in_part(data: QueryDict, count: int) -> None:
    """A move sent a block at a time (a page without JavaScript): while its first blocks are
    chosen and the others not yet, it comes back with them chosen, to tap the next one
    (``_move_draft``); nothing is recorded until every block is."""
    sent = [bool(data.get(f"from_{k}")) and bool(data.get(f"to_{k}")) for k in range(count)]
    chosen = sent.index(False) if False in sent else count
    if 0 < chosen < count and not any(
        data.get(f"{side}_{k}") for k in range(chosen + 1, count) for side in ("from", "to")
    ):
        raise RuleError(
            gettext_noop("Block {chosen} of {count} is chosen: now tap the next block to move, then its new cell."),
            field="",
            params={"chosen": chosen, "count": count},
        )


def _drawn(data: QueryDict, count: int) -> list[dict[str, Any]]:
    """The drawn blocks, the lowest place first: the places are tapped in any order, and a
    block drawn onto another block of the same draw must come after it (BO-7, BO-8)."""
    rows = [{"colour": data.get(f"colour_{i}"), **_place(data.get(f"spot_{i}"))} for i in range(count)]
    return sorted(rows, key=_lowest_first)


def _lowest_first(place: dict[str, Any]) -> int:
    """A place's floor to sort by; a floor that is not one is left first, to be refused."""
    floor = place["floor"]
    return floor if isinstance(floor, int) else 0


def _taking_order(state: dict[str, Any], raw: str | None) -> tuple[int, bool]:
    """Blocks come off the highest floor first and, on a floor, the tower owner's colour last:
    the order in which the rules let the most of them come off (BO-7, BO-8, BO-10)."""
    block = _block(raw)
    floor, tower = block["floor"], state["towers"].get(block["tower"])
    if tower is None or not isinstance(floor, int) or not 1 <= floor <= floors() or block["cell"] not in cells():
        return (0, False)
    colour = tower[floor - 1][cells().index(block["cell"])]
    return (-floor, colour is not None and colour == state["colours"].get(block["tower"]))


def _place(raw: str | None) -> dict[str, Any]:
    """``3-nw`` as floor and cell; anything else goes on as it is, to be refused by name."""
    floor, _sep, cell = (raw or "").partition("-")
    number = whole(floor)
    return {"floor": raw if number is None else number, "cell": cell}


def _block(raw: str | None) -> dict[str, Any]:
    seat, _sep, place = (raw or "").partition(":")
    return {"tower": seat, **_place(place.replace(":", "-"))}


def phone_context(session: GameSession, seat: str | None) -> dict[str, Any]:
    """A player's phone: the chance to draw at least 1, 2 or 3 of their colour per even roll
    and, on their turn, the forms of the turn; the other phones wait."""
    state = session.state["game"]
    context: dict[str, Any] = {"my_chances": None, "bo_my_turn": False}
    if seat is None or seat not in state["colours"] or seat in state["eliminated"] or state["phase"] == "over":
        return context
    total = sum(state["bag"].values())
    context["my_chances"] = [
        (drawn, [f"{float(bo.chance_for(state, seat, drawn, k)) * 100:.0f}" for k in (1, 2, 3)])
        for drawn in range(2, value("die_faces") + 1, 2)  # the even rolls
        if drawn <= total
    ]
    context["my_colour"] = _colour_name(state["colours"][seat])
    if state["phase"] == "playing" and seat == state["active"]:
        context.update(_turn_context(state, _names(session)))
        context.update(_bonus_context(state))
        context["bo_my_turn"] = True
        # On a move, the panel at the top of the phone draws every tower with its buttons:
        # the board below names them without drawing them again (a light page, issue 39).
        if "bo_move_towers" in context:
            context["bo_pictures"] = False
            context["board_variant"] = "towers in the move panel"  # not the other phones' board
    return context


def phone_draft(session: GameSession, seat: str | None, sent: QueryDict) -> dict[str, Any]:
    """The active player's turn again with the move ``sent`` so far: the part of it their
    phone sent comes back chosen (``_move_draft``)."""
    state = session.state["game"]
    if state["phase"] != "playing" or seat is None or seat != state["active"]:
        return {}
    return _turn_context(state, _names(session), sent)


def phone_payload(event_type: str, data: QueryDict, *, seat: str, session: GameSession) -> dict[str, Any]:
    """A move from the active player's own phone, parsed as the host's forms are. Another
    seat is refused (BO-5: the die goes round), and so is any form shown before the table
    moved on, the roll included: a roll that waited on a phone offline while the host
    recorded that turn must not become the seat's next turn. A double tap of a recorded form
    goes through to be found as the repeat it is."""
    state = session.state["game"]
    if state["phase"] == "playing":
        check_turn_form(
            data,
            session,
            seat=seat,
            active=state["active"],
            active_name=_names(session)[state["active"]],
            rule="BO-5",
        )
    return payload(event_type, data, session)


def public_state(state: dict[str, Any]) -> dict[str, Any]:
    """Only the rolls to come are secret: the app's die is drawn from the session's seed."""
    game = state.get("game")
    if not game or "seed" not in game:
        return state
    return {**state, "game": {key: value for key, value in game.items() if key != "seed"}}


def public_payloads(state: dict[str, Any], events: list[tuple[int, str, dict[str, Any]]]) -> list[dict[str, Any]]:
    return [payload for _seq, _type, payload in events]
