"""The 7 Wonders table: the score sheet, filled in by the host or on each player's phone."""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.errors import RuleError, gettext_noop
from scoring.seven_wonders import engine as sw
from scoring.seven_wonders.data import PROJECT_TEXTS, check_corrections, project, tile_effects
from scoring.seven_wonders.data import data as card_data
from scoring.seven_wonders.sheet import score_sheet
from sessions.boards.turns import already_recorded
from sessions.data_texts import GREAT_PROJECT, data_text
from sessions.models import GameSession
from sessions.numbers import parse_sum
from sessions.rule_messages import describe

BOARD_TEMPLATE = "boards/seven_wonders/_board.html"
CONTROLS_TEMPLATE = "boards/seven_wonders/_controls.html"
PHONE_TEMPLATE = "boards/seven_wonders/_phone.html"
# On their own phone a player drafts in secret, says which tile they build this turn (in
# secret until the table places the turn's tiles), takes participation markers (from the
# reserve when they join in the same turn as the one who took the last, SW-9), says the
# turn is over and fills in their sheet.
PHONE_EVENTS = {
    "sheet": sw.SHEET,
    "pick": sw.DRAFT_PICK,
    "declare": sw.DECLARE_TILE,
    "place": sw.BUILD_TILES,
    "participate": sw.PARTICIPATE,
    "next-turn": sw.NEXT_TURN,
}
# A sheet's columns are its inputs' names; a player's tiles are typed on the draft or build form.
ERROR_INPUTS = [
    (r"sheet\.science\.(\w+)", r"science_\1"),
    (r"sheet\.(\w+)", r"\1"),
    (r"tiles\.(\w+)", r"built_\1 tile_\1_0"),
]
EVENTS = {
    "sheet": sw.SHEET,
    "draft": sw.DRAFT_RECORD,
    "build": sw.BUILD_TILES,
    "participate": sw.PARTICIPATE,
    "next-turn": sw.NEXT_TURN,
    "end-age": sw.END_AGE,
}
COLUMN_NAMES = {
    "military": _("Military"),
    "treasury": _("Treasury"),
    "wonder": _("Wonder"),
    "civilian": _("Civilian"),
    "science": _("Science"),
    "commercial": _("Commercial"),
    "guilds": _("Guilds"),
    "leaders": _("Leaders"),
    "cities": _("Cities"),
    "babel_tiles": _("Babel tiles"),
    "great_projects": _("Great Projects"),
}
SCIENCE_NAMES = {
    "tablet": _("tablets"),
    "compass": _("compasses"),
    "gear": _("gears"),
    "wild": _("wild symbols"),
    "archives": _("Archives tokens"),
}
REWARD_NAMES = {
    "smelter": _("Smelter tokens"),
    "wonder_stages": _("wonder stages built"),
    "menagerie": _("Menagerie tokens"),
    "guilds_around": _("guilds you and your neighbours have"),
}
OPTIONAL = {"leaders": "leaders", "cities": "cities", "babel_tiles": "tower_tiles", "great_projects": "great_projects"}


def columns_in_play(session: GameSession) -> list[str]:
    """The base columns, then the ones the chosen expansions add (SW-12)."""
    return [c for c in COLUMN_NAMES if c not in OPTIONAL or session.options.get(OPTIONAL[c])]


def _names(session: GameSession) -> dict[str, str]:
    return {seat.key: seat.player.name for seat in session.seats.all()}


def shown_effects(corrections: dict[str, Any] | None) -> dict[str, str]:
    """Each tile's effect in the reader's language; a group's corrected text as typed."""
    fixed = (corrections or {}).get("tiles", {})
    return {number: fixed.get(number) or data_text(text) for number, text in tile_effects().items()}


def shown_project(slug: str, corrections: dict[str, Any] | None) -> dict[str, Any]:
    """A Great Project card in the reader's language; a group's corrected text as typed."""
    card = project(slug, corrections)
    fixed = (corrections or {}).get("projects", {}).get(slug, {})
    texts = {key: fixed.get(key) or data_text(card[key]) for key in ("cost", "penalty")}
    reward = {**card["reward"], "text": fixed.get("reward") or data_text(card["reward"]["text"])}
    return {**card, **texts, "reward": reward, "name": data_text(card["name"], GREAT_PROJECT)}


def board_context(session: GameSession) -> dict[str, Any]:
    state = session.state["game"]
    names = _names(session)
    scored = {seat: score_sheet({**entry, "name": seat}) for seat, entry in state["sheets"].items()}
    rows = [
        {"name": COLUMN_NAMES[c], "cells": [scored[s].columns[c] if s in scored else None for s in state["seats"]]}
        for c in columns_in_play(session)
    ]
    return {
        **_tiles_context(state, names),
        **_project_context(state, names),
        "sw_players": [{"name": names[s], "done": s in scored} for s in state["seats"]],
        "sw_rows": rows,
        "sw_totals": [scored[s].total if s in scored else None for s in state["seats"]],
        "sw_coins": [scored[s].coins if s in scored else None for s in state["seats"]],
        "sw_age": state["age"],
    }


def _tiles_context(state: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    if not state["tiles_on"]:
        return {}
    if state["draft_step"]:
        picked = [(names[s], s in state["picks"]) for s in state["seats"]]
        return {"sw_draft": {"step": state["draft_step"], "picked": picked}}
    effects = shown_effects(state.get("corrections"))
    # The age's amount goes with the data file's text of a tile: a tile the group corrected
    # (tiles 1 and 2 swapped, say) shows its own text only, never another effect's amount.
    corrected = {int(number) for number in (state.get("corrections") or {}).get("tiles", {})}
    with_amount = set(card_data()["tiles"]["age_amount"]) - corrected
    age = min(state["age"], 3)
    visible = [
        {"space": i + 1, "tile": t, "effect": effects[str(t)], "amount": age if t in with_amount else None}
        for i, t in enumerate(sw.visible_tiles(state))
        if t
    ]
    built = [(names[s], sw.tiles_built(state, s)) for s in state["seats"]]
    declared = [names[s] for s in state["seats"] if s in state.get("declared", {})]  # who, never which
    return {"sw_tiles": {"visible": visible, "built": built, "spaces": state["spaces"], "declared": declared}}


def _project_context(state: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    if not state["projects_on"]:
        return {}
    current = None
    if state["age"] <= 3:
        card = shown_project(state["projects"][state["age"] - 1], state.get("corrections"))
        current = {
            **card,
            "colour_name": data_text(card["colour"]),
            "markers_left": state["markers_left"],
            "markers": [(names[s], n) for s, n in state["markers"].items()],
            # SW-9: the turn, once the table counts turns, and who joined in it.
            "turn": state.get("turn"),
            "joined": [names[s] for s in state.get("joined", [])] if state.get("turn") is not None else [],
        }
    resolved = [
        {
            "age": r["age"],
            "name": shown_project(r["project"], state.get("corrections"))["name"],
            "success": r["success"],
            "outcomes": [
                (names[o["seat"]], o["outcome"], o["times"], o["vp"], o.get("defeat_tokens", 0)) for o in r["outcomes"]
            ],
        }
        for r in state["resolved"]
    ]
    return {"sw_project": current, "sw_resolved": resolved}


def _form(session: GameSession, seat: str, data: QueryDict | None = None) -> dict[str, Any]:
    """The sheet's input fields for one seat, filled with what was entered before."""
    state = session.state["game"]
    # A new sheet starts from what the app already knows: tiles built, penalty tokens.
    tokens = sw.reward_tokens(state, seat)
    known = {
        "babel_tiles": sw.tiles_built(state, seat),
        "great_projects": sw.penalty_token_points(state, seat) or "",
        "smelter": tokens.get("smelter", ""),
        "menagerie": tokens.get("menagerie", ""),
        "science": {"archives": tokens.get("archives", "")},
    }
    entry = state["sheets"].get(seat, known)
    science = entry.get("science", {})
    typed = [c for c in columns_in_play(session) if c not in ("treasury", "science", "babel_tiles")]
    fields = [("coins", _("Coins"), entry.get("coins", ""))] + [(c, COLUMN_NAMES[c], entry.get(c, "")) for c in typed]
    if session.options.get("great_projects"):
        fields += [(name, REWARD_NAMES[name], entry.get(name, "")) for name in REWARD_NAMES]
    symbols = [s for s in SCIENCE_NAMES if s != "archives" or session.options.get("great_projects")]
    return {
        "seat": seat,
        "fields": [(name, label, data.get(name, value) if data else value) for name, label, value in fields],
        "science": [(f"science_{s}", SCIENCE_NAMES[s], science.get(s, "")) for s in symbols],
        "tiles": session.options.get("tower_tiles") and entry.get("babel_tiles", 0),
    }


def controls_context(session: GameSession, query: QueryDict) -> dict[str, Any]:
    state = session.state["game"]
    names = _names(session)
    built = {tile for _seat, tile in state.get("built", [])}
    return {
        "sw_forms": [{"name": names[s], **_form(session, s)} for s in state["seats"]],
        "sw_seats": [(s, names[s]) for s in state["seats"]],
        "sw_unbuilt": [t for t in range(1, 25) if t not in built],
        "sw_participants": _participants(state, names) if state["projects_on"] and state["age"] <= 3 else [],
        "sw_turn": (state.get("turn") or 1) if state["projects_on"] else None,
        # SW-4, SW-7: every table ends its ages, whatever the modules (the tiles' amounts follow).
        "sw_end_age": (state["tiles_on"] or state["projects_on"]) and state["age"] <= 3,
        "sw_leaders": bool(state.get("leaders_on")),
        "sw_age": state["age"],
    }


def _participants(state: dict[str, Any], names: dict[str, str]) -> list[dict[str, Any]]:
    """Who the host can record a participation for (SW-9): with markers left, everyone who
    has not joined in this turn (when the table counts turns); with none left, those who join
    in the same turn as the one who took the last take one from the reserve."""
    ways = {s: sw.participation(state, s) for s in state["seats"]}
    return [{"seat": s, "name": names[s], "reserve": way == sw.RESERVE} for s, way in ways.items() if way]


def phone_context(session: GameSession, seat: str | None) -> dict[str, Any]:
    """A player's own phone: their draft hand (secret), their tiles, their participation
    markers in this age's Great Project, their sheet."""
    if seat is None:
        return {"my_sheet": None}
    state = session.state["game"]
    context: dict[str, Any] = {"my_sheet": _form(session, seat), "for_turn": turn_shown(state)}
    if state["projects_on"] and state["age"] <= 3:
        context["my_markers"] = {
            "mine": state["markers"].get(seat, 0),
            "left": state["markers_left"],
            # SW-9: at most once per turn (once the table counts turns); with no marker left,
            # a player who joins in the same turn as the one who took the last takes one from
            # the reserve.
            "joined": seat in sw.joined_this_turn(state),
            "reserve": sw.participation(state, seat) == sw.RESERVE,
            "turn": state.get("turn") or 1,
        }
    if state["tiles_on"] and state["draft_step"]:
        effects = shown_effects(state.get("corrections"))
        context["my_draft"] = {
            "step": state["draft_step"],
            "hand": [(t, effects[str(t)]) for t in state["hands"][seat]],
            "kept": [(t, effects[str(t)]) for t in state["kept"][seat]],
            "picked": state["picks"].get(seat),
        }
    elif state["tiles_on"]:
        built = {tile for _owner, tile in state["built"]}
        effects = shown_effects(state.get("corrections"))
        context["my_tiles"] = [(t, effects[str(t)], t in built) for t in state["tiles"][seat]]
        context["my_build"] = {
            "declared": state.get("declared", {}).get(seat),
            "choices": [t for t in state["tiles"][seat] if t not in built],
            "anyone": bool(state.get("declared")),
        }
    return context


# A phone's moves that belong to the turn they were shown in (SW-5, SW-9).
MOVES_OF_A_TURN = (sw.DECLARE_TILE, sw.BUILD_TILES, sw.PARTICIPATE)


def turn_shown(state: dict[str, Any]) -> str:
    """The age and turn a phone's form is shown in, sent back with it as ``for_turn``."""
    return f"{state['age']}.{state.get('turn') or 1}"


def phone_payload(event_type: str, data: QueryDict, *, seat: str, session: GameSession) -> dict[str, Any]:
    """A move from a player's own phone. One of a turn (a tile declared or placed, a marker
    taken) is refused once that turn is over: one that waited on a phone offline must not
    be made in a later turn. A double tap of a recorded form goes through, as its repeat."""
    shown = data.get("for_turn")
    state = session.state["game"]
    if event_type in MOVES_OF_A_TURN and shown and shown != turn_shown(state) and not already_recorded(data, session):
        age, _dot, turn = shown.partition(".")
        raise RuleError(
            gettext_noop("Turn {turn} of age {age} is already over: look at the table again."),
            field="for_turn",
            rule="SW-9" if event_type == sw.PARTICIPATE else "SW-5",
            params={"turn": turn, "age": age},
        )
    if event_type == sw.DRAFT_PICK:
        return {"seat": seat, "tile": _number(data.get("tile"))}
    if event_type == sw.PARTICIPATE:
        return {"seat": seat, "same_turn_reserve": "same_turn_reserve" in data}
    if event_type == sw.NEXT_TURN:
        return _turn_payload(data)
    if event_type == sw.DECLARE_TILE:
        return {"seat": seat, "tile": _number(data.get("tile")) if data.get("tile") else None}
    if event_type == sw.BUILD_TILES:
        return {}  # the declared tiles
    return _sheet_payload(data, seat=seat, session=session)


def _sheet_payload(data: QueryDict, *, seat: str, session: GameSession) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    for name in ["coins", *[c for c in columns_in_play(session) if c not in ("treasury", "science", "babel_tiles")]]:
        entry[name] = _number(data.get(name))
    entry["science"] = {s: _number(data.get(f"science_{s}")) for s in SCIENCE_NAMES}
    if session.options.get("great_projects"):
        entry |= {name: _number(data.get(name)) for name in REWARD_NAMES}
    if session.options.get("tower_tiles"):
        entry["babel_tiles"] = _number(data.get("babel_tiles"))
    return {"seat": seat, "sheet": entry}


def payload(event_type: str, data: QueryDict, session: GameSession) -> dict[str, Any]:
    seats = session.state["game"]["seats"]
    if event_type == sw.DRAFT_RECORD:
        return {"tiles": {s: [_number(data.get(f"tile_{s}_{i}")) for i in range(3)] for s in seats}}
    if event_type == sw.BUILD_TILES:
        return {"tiles": {s: _number(data.get(f"built_{s}")) for s in seats if data.get(f"built_{s}")}}
    if event_type == sw.PARTICIPATE:
        return {"seat": data.get("seat"), "same_turn_reserve": "same_turn_reserve" in data}
    if event_type == sw.NEXT_TURN:
        return _turn_payload(data)
    if event_type == sw.END_AGE:
        return {"cannot_suffer": [s for s in seats if f"cannot_suffer_{s}" in data], "tomyris": data.get("tomyris")}
    return _sheet_payload(data, seat=data.get("seat", ""), session=session)


def _turn_payload(data: QueryDict) -> dict[str, Any]:
    """The turn the sender saw end, so that a second press for it is refused (SW-9)."""
    return {"turn": _number(data.get("turn"))} if data.get("turn") else {}


def preview(data: QueryDict, session: GameSession) -> dict[str, Any]:
    """The sheet's columns and total for what is typed so far, without saving anything."""
    entry = _sheet_payload(data, seat="", session=session)["sheet"]
    try:
        sheet = score_sheet({**entry, "name": ""}, field="sheet")
    except RuleError as error:
        return {"preview_error": describe(error)}
    columns = [(COLUMN_NAMES[c], sheet.columns[c]) for c in columns_in_play(session)]
    symbols = [(SCIENCE_NAMES[s], n) for s, n in sheet.science.items()]
    return {"preview_columns": columns, "preview_total": sheet.total, "preview_science": symbols}


def public_state(state: dict[str, Any]) -> dict[str, Any]:
    """Drafted and held tiles are secret (SW-2); only built tiles are public."""
    game = state.get("game")
    if not game or not game.get("tiles_on"):
        return state
    hidden = {
        "hands": {seat: len(hand) for seat, hand in game["hands"].items()},
        "kept": {seat: len(kept) for seat, kept in game["kept"].items()},
        "picks": {seat: True for seat in game["picks"]},
        "tiles": {seat: len(tiles) for seat, tiles in game["tiles"].items()},
        "declared": {seat: True for seat in game.get("declared", {})},
    }
    return {**state, "game": {**game, **hidden}}


def public_payloads(state: dict[str, Any], events: list[tuple[int, str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """A draft pick or a declared build shows who, a recorded draft nothing: the tiles stay
    secret (a built tile shows in the state once placed)."""
    secret = {
        sw.DRAFT_PICK: lambda p: {"seat": p.get("seat")},
        sw.DECLARE_TILE: lambda p: {"seat": p.get("seat")},
        sw.DRAFT_RECORD: lambda p: {},
    }
    return [secret[kind](payload) if kind in secret else payload for _seq, kind, payload in events]


def _number(raw: str | None) -> int | str:
    """A typed number or small sum; anything else goes on to be refused, naming its field."""
    if raw is None or raw.strip() == "":
        return 0
    total = parse_sum(raw)
    return raw if total is None else total


# --- the group's card corrections ("our cards say ...", SW-7, SW-11) -------------------

PROJECT_FIELD_NAMES = {"cost": _("cost"), "penalty": _("penalty"), "reward": _("reward")}


def edition_rows(overrides: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Every tile effect and Great Project text as a field (the card data is single-source),
    in the reader's language; a text the group corrected as they typed it."""
    corrections = check_corrections(overrides)
    effects = shown_effects(corrections)
    tiles = [
        {
            "path": f"tile.{number}",
            "label": gettext("Tile %(number)s") % {"number": number},
            "value": effects[str(number)],
            "verified": False,
            "kind": "text",
        }
        for number in sw.TILES
    ]
    sections = [{"name": _("Tower of Babel tiles"), "rule": "SW-7", "fields": tiles}]
    for card in card_data()["projects"]["value"]:
        fixed = shown_project(card["slug"], corrections)
        fields = [
            {
                "path": f"project.{card['slug']}.{key}",
                "label": PROJECT_FIELD_NAMES[key],
                "value": fixed["reward"]["text"] if key == "reward" else fixed[key],
                "verified": False,
                "kind": "text",
            }
            for key in PROJECT_TEXTS
        ]
        if card["reward"]["kind"] == "military_victory":
            fields.append(
                {
                    "path": f"project.{card['slug']}.reward_vp",
                    "label": _("victory points of the reward token"),
                    "value": fixed["reward"]["vp"],
                    "verified": False,
                }
            )
        # SW-10: defeat tokens of the penalty, which tile 22 multiplies (none in the fan data).
        fields.append(
            {
                "path": f"project.{card['slug']}.penalty_defeat_tokens",
                "label": _("defeat tokens the penalty gives"),
                "value": fixed["penalty_defeat_tokens"],
                "verified": False,
            }
        )
        name = _("%(name)s (age %(age)d)") % {"name": fixed["name"], "age": card["age"]}
        sections.append({"name": name, "rule": "SW-11", "fields": fields})
    return sections


def edition_overrides(data: QueryDict) -> dict[str, Any]:
    """The posted cards as corrections of the data file (only what differs from the printed
    text, in English or as the form showed it in the reader's language)."""
    defaults = tile_effects()
    tiles = {
        key: text
        for key in defaults
        if not _as_printed(text := data.get(f"tile.{key}", defaults[key]).strip(), defaults[key])
    }
    projects: dict[str, dict[str, Any]] = {}
    for card in card_data()["projects"]["value"]:
        slug, fixed = card["slug"], {}
        printed = {"cost": card["cost"], "penalty": card["penalty"], "reward": card["reward"]["text"]}
        for key in PROJECT_TEXTS:
            text = data.get(f"project.{slug}.{key}", printed[key]).strip()
            if not _as_printed(text, printed[key]):
                fixed[key] = text
        if card["reward"]["kind"] == "military_victory":
            vp = _number(data.get(f"project.{slug}.reward_vp", str(card["reward"]["vp"])))
            if vp != card["reward"]["vp"]:
                fixed["reward_vp"] = vp
        printed_tokens = card["penalty_defeat_tokens"]
        tokens = _number(data.get(f"project.{slug}.penalty_defeat_tokens", str(printed_tokens)))
        if tokens != printed_tokens:
            fixed["penalty_defeat_tokens"] = tokens
        if fixed:
            projects[slug] = fixed
    return {key: value for key, value in (("tiles", tiles), ("projects", projects)) if value}


def _as_printed(typed: str, printed: str) -> bool:
    return typed in (printed, data_text(printed))
