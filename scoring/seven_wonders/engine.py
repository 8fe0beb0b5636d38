"""The 7 Wonders session engine: each player's end-of-game sheet (SW-12..SW-14).

This first slice records the sheets and ranks them; the tile draft, the ages and the Great
Projects' resolution come on top of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scoring.engine import JSON, Standing
from scoring.errors import RuleError, gettext_noop
from scoring.seven_wonders.sheet import rank_sheets, score_sheet

SHEET = "sw.sheet"


class SevenWonders:
    """The engine the session core calls (``scoring.engine.Engine``)."""

    def initial_state(self, *, seats: Sequence[str], options: Mapping[str, JSON], seed: int) -> JSON:
        return {"seats": list(seats), "sheets": {}}

    def event_types(self) -> frozenset[str]:
        return frozenset({SHEET})

    def apply(self, state: JSON, *, type: str, payload: Mapping[str, JSON]) -> JSON:
        if type != SHEET:
            raise RuleError(gettext_noop("Unknown event type {type}."), field="type", params={"type": type})
        seat = payload.get("seat")
        if seat not in state["seats"]:
            raise RuleError(gettext_noop("Choose a player of this session."), field="seat")
        entry = payload.get("sheet")
        if not isinstance(entry, Mapping):
            raise RuleError(gettext_noop("Give the sheet's columns by name."), field="sheet")
        score_sheet({**entry, "name": seat}, field="sheet")  # refuses what is not a number or breaks SW-8
        return {**state, "sheets": {**state["sheets"], seat: dict(entry)}}

    def standings(self, state: JSON) -> list[Standing] | None:
        if set(state["sheets"]) != set(state["seats"]):
            return None
        sheets = [score_sheet({**state["sheets"][seat], "name": seat}) for seat in state["seats"]]
        ranks = rank_sheets(sheets)
        return [
            Standing(
                seat=sheet.name,
                score=sheet.total,
                rank=ranks[sheet.name],
                breakdown={**sheet.columns, "coins": sheet.coins},
            )
            for sheet in sheets
        ]
