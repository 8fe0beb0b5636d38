"""The babel cube-tower table: the tower picture, the hands, the placement picker, hints and review."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.babel_cubes import solver
from scoring.babel_cubes.engine import PLACE
from scoring.babel_cubes.geometry import CELLS, TYPES, faces_of, hand_of_each, neighbour, raw_data
from scoring.babel_cubes.moves import Move, Position, legal_moves, position_of
from scoring.errors import RuleError, gettext_noop
from sessions.boards.cube_pictures import Placed, cell_icon, pick_ground, placement, tower
from sessions.boards.turns import already_recorded, check_shown_now
from sessions.data_texts import in_a_sentence
from sessions.games import BABEL_CUBES, get_game
from sessions.models import GameSession
from sessions.numbers import whole

BOARD_TEMPLATE = "boards/babel_cubes/_board.html"
CONTROLS_TEMPLATE = "boards/babel_cubes/_controls.html"
# The player to move places a cube from their own phone.
PHONE_TEMPLATE = "boards/babel_cubes/_phone.html"
EVENTS = {"place": PLACE}
ERROR_INPUTS: list[tuple[str, str]] = []  # a placement is one button: its refusal heads the form
PHONE_EVENTS = {"place": PLACE}

COLOUR_NAMES = {
    "grey": gettext_lazy("grey"),
    "white": gettext_lazy("white"),
    "black": gettext_lazy("black"),
    "beige": gettext_lazy("beige"),
    "blue": gettext_lazy("blue"),
}
# Cells as the tower picture shows them: seen from the south-east, north-west is at the back.
CELL_NAMES = {
    "nw": gettext_lazy("back"),
    "ne": gettext_lazy("right"),
    "sw": gettext_lazy("left"),
    "se": gettext_lazy("front"),
}
VALUE_NAMES = {"win": gettext_lazy("wins"), "draw": gettext_lazy("draws"), "loss": gettext_lazy("loses")}
OUTCOME_NAMES = {"win": gettext_lazy("a win"), "draw": gettext_lazy("a draw"), "loss": gettext_lazy("a loss")}


def colour_of(cube_type: int) -> str:
    return str(raw_data()["cubes"][cube_type]["colour"])


def move_key(move: Move) -> str:
    """What the picker posts for a move, and how hints recognise it."""
    return f"{move.cell}:{move.type}:{','.join(faces_of(move.mask))}"


def face_name(cell: str, face: str) -> str:
    """A face as the table sees it: top, bottom, or the side towards a neighbouring cell."""
    if face == "up":
        return _("top")
    if face == "down":
        return _("bottom")
    return _("towards %(cell)s") % {"cell": CELL_NAMES[neighbour(cell, face)]}


def bulges_of(move: Move) -> str:
    return ", ".join(face_name(move.cell, face) for face in faces_of(move.mask)) or _("none")


def describe_move(move: Move) -> str:
    return _("%(cell)s: type %(type)d (%(colour)s), bulges: %(bulges)s") % {
        "cell": CELL_NAMES[move.cell],
        "type": move.type,
        "colour": COLOUR_NAMES[colour_of(move.type)],
        "bulges": bulges_of(move),
    }


def _names(session: GameSession) -> dict[str, str]:
    return {seat.key: seat.player.name for seat in session.seats.all()}


def _tower(position: Position) -> Any:
    placed = [
        Placed(cell=move.cell, level=index // 4 + 1, colour=colour_of(move.type), mask=move.mask)
        for index, move in enumerate(position.moves)
    ]
    description = ngettext(
        "%(cubes)d cube placed; level %(level)d is being built.",
        "%(cubes)d cubes placed; level %(level)d is being built.",
        len(placed),
    ) % {
        "cubes": len(placed),
        "level": position.level,
    }
    return tower(placed, levels=position.level, title=_("The tower"), description=description)


def board_context(session: GameSession) -> dict[str, Any]:
    state = session.state["game"]
    names = _names(session)
    position = position_of(state)
    full_hand = hand_of_each()
    players = [
        {
            "name": names[seat],
            "to_move": state["to_move"] == player,
            "hand": [
                {"type": t, "colour": colour_of(t), "colour_name": COLOUR_NAMES[colour_of(t)], "left": left}
                for t, left in zip(TYPES, state["hands"][str(player)], strict=True)
                if full_hand[t]
            ],
            "left": sum(state["hands"][str(player)]),
        }
        for player, seat in enumerate(state["seats"], start=1)
    ]
    over = state["status"] != "in_progress"
    return {
        "bc": state,
        "bc_tower": _tower(position),
        "bc_players": players,
        "bc_to_move_name": names[state["seats"][state["to_move"] - 1]] if state["to_move"] else "",
        "bc_winner_name": names[state["seats"][state["winner"] - 1]] if state["winner"] else "",
        "bc_review": review(position, state["seats"], names) if over else None,
        "bc_layouts": _layout_names(state["geometry"]),
    }


def _layout_names(geometry: dict[str, str]) -> dict[str, str]:
    """The session's cube layouts as the options name them, inside a sentence ("on adjacent
    faces", ...)."""
    names = {option.name: dict(option.choices) for option in get_game(BABEL_CUBES).options}
    return {key: in_a_sentence(str(names[key].get(value, value))) for key, value in geometry.items()}


def review(final: Position, seats: list[str], names: dict[str, str]) -> list[dict[str, Any]]:
    """Each move with the value it had for its player before and after: where a win (or a
    draw) was thrown away, with perfect play assumed from then on."""
    rows = []
    position = Position(final.geometry)
    for number, move in enumerate(final.moves, start=1):
        before = solver.solve(position)
        after_position = position.play(move)
        after = {"win": "loss", "loss": "win", "draw": "draw"}[solver.solve(after_position)]
        rows.append(
            {
                "number": number,
                "name": names[seats[position.to_move - 1]],
                "move": describe_move(move),
                "before": OUTCOME_NAMES[before],
                "after": OUTCOME_NAMES[after],
                "threw_win": before == "win" and after != "win",
                "threw_draw": before == "draw" and after == "loss",
                "picture": _tower(after_position),
            }
        )
        position = after_position
    return rows


def picker(session: GameSession) -> dict[str, Any]:
    """The legal placements only, by cell then cube type, each with its picture (BC-5..BC-8),
    and the level that every picture shows them on (``bc_pick_ground``)."""
    position = position_of(session.state["game"])
    options: dict[str, dict[int, list[Move]]] = defaultdict(lambda: defaultdict(list))
    for move in legal_moves(position):
        options[move.cell][move.type].append(move)
    here = {cell: colour_of(move.type) for cell, move in position.cells.items()}
    cells = []
    for cell in CELLS:
        types = []
        for cube_type, moves in sorted(options[cell].items()):
            orientations = []
            for move in moves:
                label = describe_move(move)
                orientations.append(
                    {
                        "key": move_key(move),
                        "label": label,
                        "bulges": bulges_of(move),
                        "picture": placement(cell, colour_of(cube_type), move.mask),
                    }
                )
            types.append(
                {
                    "type": cube_type,
                    "colour": colour_of(cube_type),
                    "colour_name": COLOUR_NAMES[colour_of(cube_type)],
                    "orientations": orientations,
                }
            )
        cells.append(
            {"cell": cell, "name": CELL_NAMES[cell], "icon": cell_icon(cell), "taken": cell in here, "types": types}
        )
    offered = [cell for cell in CELLS if options[cell]]
    return {"bc_picker": cells, "bc_pick_ground": pick_ground(here, offered)}


def warm_hints(session: GameSession) -> None:
    """Solve every position reachable from this one (once per process and geometry: about
    0.6 s from the opening with the default layouts), so each later hint is a lookup."""
    position = position_of(session.state["game"])
    solver.solver_for(position.geometry).warm(*solver.compact(position))


def hint_context(session: GameSession) -> dict[str, Any]:
    """The exact value for the player to move and the moves that keep it (the hint switch)."""
    state = session.state["game"]
    if state["status"] != "in_progress":
        return {}
    values = solver.move_values(position_of(state))
    best = max(value for _move, value in values)
    keep = [move for move, value in values if value == best]
    return {
        "bc_hint": {
            "value": solver.VALUES[best],
            "value_name": VALUE_NAMES[solver.VALUES[best]],
            "moves": [describe_move(move) for move in keep],
            "keys": {move_key(move) for move in keep},
            "total": len(values),
        }
    }


def controls_context(session: GameSession, query: QueryDict) -> dict[str, Any]:
    state = session.state["game"]
    if state["status"] != "in_progress":
        return {"bc_picker": None}
    return picker(session)


def phone_context(session: GameSession, seat: str | None) -> dict[str, Any]:
    """The picker on the phone of the player to move; the other phone waits."""
    state = session.state["game"]
    mine = state["status"] == "in_progress" and seat == state["seats"][state["to_move"] - 1]
    return {"bc_my_turn": mine, **(picker(session) if mine else {"bc_picker": None})}


def payload(event_type: str, data: QueryDict, session: GameSession) -> dict[str, Any]:
    """A placement posted by the picker as ``placement=cell:type:face,face``."""
    cell, _sep, rest = data.get("placement", "").partition(":")
    raw_type, _sep, bulges = rest.partition(":")
    cube_type = whole(raw_type)
    if cube_type is None:
        raise RuleError(gettext_noop("Choose a cube type."), field="type", rule="BC-1")
    return {"cell": cell, "type": cube_type, "bulges": [face for face in bulges.split(",") if face]}


def phone_payload(event_type: str, data: QueryDict, *, seat: str, session: GameSession) -> dict[str, Any]:
    """A cube placed from the phone whose turn it is, on the table as the phone showed it: a
    placement shown before the table moved on (one that waited on a phone offline while the
    host placed that turn's cube) is refused, never placed on the seat's next turn."""
    state = session.state["game"]
    if state["status"] != "in_progress" or seat != state["seats"][state["to_move"] - 1]:
        raise RuleError(gettext_noop("It is the other player's turn."), field="seat", rule="BC-3")
    if not already_recorded(data, session):  # a double tap goes through, to be found as the repeat it is
        check_shown_now(data, session)
    return payload(event_type, data, session)


def public_state(state: dict[str, Any]) -> dict[str, Any]:
    return state  # nothing in babel is secret


def public_payloads(state: dict[str, Any], events: list[tuple[int, str, dict[str, Any]]]) -> list[dict[str, Any]]:
    return [event_payload for _seq, _type, event_payload in events]
