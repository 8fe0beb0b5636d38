"""Final scores or finishing order typed in by the table.

Every game can end this way: the table enters each seat's points (with an optional
tie-break such as 7 Wonders' coins) or just the places. The game engines add their own
play-by-play events on top; this engine is also what they fall back on when a table
played without the app.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring.engine import JSON, Standing
from scoring.errors import RuleError, gettext_noop
from scoring.ranking import competition_ranks, ranks_from_places

RECORD_SCORES = "scores.record"
RECORD_PLACES = "places.record"

SCORE_LIMIT = 100_000


@dataclass(frozen=True)
class ScoreEntry:
    """The engine, configured for one game.

    ``tiebreak`` names the second number that breaks a tie on points (``None``: ties are
    shared); ``rule`` is the rule id that says how ties go, cited in breakdowns.
    """

    tiebreak: str | None = None
    rule: str | None = None

    def initial_state(self, *, seats: Sequence[str], options: Mapping[str, JSON], seed: int) -> JSON:
        return {"seats": list(seats), "scores": None, "tiebreaks": None, "places": None}

    def event_types(self) -> frozenset[str]:
        return frozenset({RECORD_SCORES, RECORD_PLACES})

    def apply(self, state: JSON, *, type: str, payload: Mapping[str, JSON]) -> JSON:
        seats: list[str] = state["seats"]
        if type == RECORD_SCORES:
            scores = _per_seat_ints(payload.get("scores"), seats, field="scores", low=-SCORE_LIMIT)
            tiebreaks = None
            if self.tiebreak is not None and payload.get("tiebreaks") is not None:
                tiebreaks = _per_seat_ints(payload["tiebreaks"], seats, field="tiebreaks", low=0)
            return {**state, "scores": scores, "tiebreaks": tiebreaks, "places": None}
        if type == RECORD_PLACES:
            places = _per_seat_ints(payload.get("places"), seats, field="places", low=1, high=len(seats))
            return {**state, "scores": None, "tiebreaks": None, "places": places}
        raise RuleError(gettext_noop("Unknown event type {type}."), field="type", params={"type": type})

    def standings(self, state: JSON) -> list[Standing] | None:
        if state["scores"] is not None:
            scores: dict[str, int] = state["scores"]
            tiebreaks: dict[str, int] | None = state["tiebreaks"]
            keys = {s: (p, tiebreaks[s]) if tiebreaks else (p,) for s, p in scores.items()}
            ranks = competition_ranks(keys)
            return [
                Standing(seat=s, score=scores[s], rank=ranks[s], breakdown=self._breakdown(s, scores, tiebreaks))
                for s in state["seats"]
            ]
        if state["places"] is not None:
            ranks = ranks_from_places(state["places"])
            return [Standing(seat=s, score=None, rank=ranks[s], breakdown={}) for s in state["seats"]]
        return None

    def _breakdown(self, seat: str, scores: dict[str, int], tiebreaks: dict[str, int] | None) -> dict[str, JSON]:
        breakdown: dict[str, JSON] = {"points": scores[seat]}
        if tiebreaks and self.tiebreak:
            breakdown[self.tiebreak] = tiebreaks[seat]
        return breakdown


def _per_seat_ints(raw: JSON, seats: Sequence[str], *, field: str, low: int, high: int = SCORE_LIMIT) -> dict[str, int]:
    """A value for every seat and nothing else, each a whole number in [low, high]."""
    if not isinstance(raw, Mapping):
        raise RuleError(gettext_noop("Give one number per player."), field=field)
    unknown = sorted(set(raw) - set(seats))
    if unknown:
        raise RuleError(
            gettext_noop("{seat} is not a seat of this session."),
            field=f"{field}.{unknown[0]}",
            params={"seat": unknown[0]},
        )
    values: dict[str, int] = {}
    for seat in seats:
        value = raw.get(seat)
        if value is None:
            raise RuleError(gettext_noop("A number is missing for this player."), field=f"{field}.{seat}")
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleError(gettext_noop("Enter a whole number."), field=f"{field}.{seat}")
        if not low <= value <= high:
            raise RuleError(
                gettext_noop("Enter a number from {low} to {high}."),
                field=f"{field}.{seat}",
                params={"low": low, "high": high},
            )
        values[seat] = value
    return values
