"""The 7 Wonders table: the score sheet, filled in by the host or on each player's phone."""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from scoring.errors import RuleError
from scoring.seven_wonders import engine as sw
from scoring.seven_wonders.sheet import score_sheet
from sessions.forms import parse_sum
from sessions.models import GameSession
from sessions.rule_messages import describe

BOARD_TEMPLATE = "boards/seven_wonders/_board.html"
CONTROLS_TEMPLATE = "boards/seven_wonders/_controls.html"
PHONE_TEMPLATE = "boards/seven_wonders/_phone.html"
PHONE_EVENT = sw.SHEET
EVENTS = {"sheet": sw.SHEET}

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
OPTIONAL = {"leaders": "leaders", "cities": "cities", "babel_tiles": "tower_tiles", "great_projects": "great_projects"}


def columns_in_play(session: GameSession) -> list[str]:
    """The base columns, then the ones the chosen expansions add (SW-12)."""
    return [c for c in COLUMN_NAMES if c not in OPTIONAL or session.options.get(OPTIONAL[c])]


def _names(session: GameSession) -> dict[str, str]:
    return {seat.key: seat.player.name for seat in session.seats.all()}


def board_context(session: GameSession) -> dict[str, Any]:
    state = session.state["game"]
    names = _names(session)
    scored = {seat: score_sheet({**entry, "name": seat}) for seat, entry in state["sheets"].items()}
    rows = [
        {"name": COLUMN_NAMES[c], "cells": [scored[s].columns[c] if s in scored else None for s in state["seats"]]}
        for c in columns_in_play(session)
    ]
    return {
        "sw_players": [{"name": names[s], "done": s in scored} for s in state["seats"]],
        "sw_rows": rows,
        "sw_totals": [scored[s].total if s in scored else None for s in state["seats"]],
        "sw_coins": [scored[s].coins if s in scored else None for s in state["seats"]],
    }


def _form(session: GameSession, seat: str, data: QueryDict | None = None) -> dict[str, Any]:
    """The sheet's input fields for one seat, filled with what was entered before."""
    entry = session.state["game"]["sheets"].get(seat, {})
    science = entry.get("science", {})
    typed = [c for c in columns_in_play(session) if c not in ("treasury", "science", "babel_tiles")]
    fields = [("coins", _("Coins"), entry.get("coins", ""))] + [(c, COLUMN_NAMES[c], entry.get(c, "")) for c in typed]
    symbols = [s for s in SCIENCE_NAMES if s != "archives" or session.options.get("great_projects")]
    return {
        "seat": seat,
        "fields": [(name, label, data.get(name, value) if data else value) for name, label, value in fields],
        "science": [(f"science_{s}", SCIENCE_NAMES[s], science.get(s, "")) for s in symbols],
        "tiles": session.options.get("tower_tiles") and entry.get("babel_tiles", 0),
    }


def controls_context(session: GameSession, query: QueryDict) -> dict[str, Any]:
    names = _names(session)
    return {"sw_forms": [{"name": names[s], **_form(session, s)} for s in session.state["game"]["seats"]]}


def phone_context(session: GameSession, seat: str | None) -> dict[str, Any]:
    if seat is None:
        return {"my_sheet": None}
    return {"my_sheet": _form(session, seat)}


def phone_payload(data: QueryDict, *, seat: str, session: GameSession) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    for name in ["coins", *[c for c in columns_in_play(session) if c not in ("treasury", "science", "babel_tiles")]]:
        entry[name] = _number(data.get(name))
    entry["science"] = {s: _number(data.get(f"science_{s}")) for s in SCIENCE_NAMES}
    if session.options.get("tower_tiles"):
        entry["babel_tiles"] = _number(data.get("babel_tiles"))
    return {"seat": seat, "sheet": entry}


def payload(event_type: str, data: QueryDict, session: GameSession) -> dict[str, Any]:
    return phone_payload(data, seat=data.get("seat", ""), session=session)


def preview(data: QueryDict, session: GameSession) -> dict[str, Any]:
    """The sheet's columns and total for what is typed so far, without saving anything."""
    entry = phone_payload(data, seat="", session=session)["sheet"]
    try:
        sheet = score_sheet({**entry, "name": ""}, field="sheet")
    except RuleError as error:
        return {"preview_error": describe(error)}
    columns = [(COLUMN_NAMES[c], sheet.columns[c]) for c in columns_in_play(session)]
    return {"preview_columns": columns, "preview_total": sheet.total, "preview_science": sheet.science}


def public_state(state: dict[str, Any]) -> dict[str, Any]:
    return state


def public_payloads(state: dict[str, Any], events: list[tuple[int, str, dict[str, Any]]]) -> list[dict[str, Any]]:
    return [payload for _seq, _type, payload in events]


def _number(raw: str | None) -> int | str:
    """A typed number or small sum; anything else goes on to be refused, naming its field."""
    if raw is None or raw.strip() == "":
        return 0
    total = parse_sum(raw)
    return raw if total is None else total
