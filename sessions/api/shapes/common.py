"""The events every session takes (``scoring.session``: its lifecycle and undo;
``scoring.score_entry``: the table's scores or places) and the state around a game's."""

from __future__ import annotations

from scoring import score_entry
from scoring import session as core
from sessions.api.shapes.kinds import Schema, array, closed, integer, keyed, nullable, one_of, payload, ref
from sessions.games import GAMES

NOTHING = "Its payload is empty: any key in it is ignored."

EVENTS: dict[str, Schema] = {
    core.START: payload(
        {},
        description="Starts play: a new session takes it first, before any move of its game. " + NOTHING,
    ),
    core.FINISH: payload(
        {},
        description="Ends the session with its results: the engine's count, or the scores or places entered. "
        + NOTHING,
    ),
    core.ABANDON: payload({}, description="Leaves the session unfinished (an undo takes it up again). " + NOTHING),
    core.UNDO: payload({}, description="Takes back the last event still in effect. " + NOTHING),
    score_entry.RECORD_SCORES: payload(
        {
            "scores": keyed(
                integer(-score_entry.SCORE_LIMIT, score_entry.SCORE_LIMIT),
                description="Every seat's points, and no other key.",
            ),
            "tiebreaks": nullable(
                keyed(
                    integer(0, score_entry.SCORE_LIMIT),
                    description="Every seat's tie-break (7 Wonders' coins, SW-14), where the game has one; "
                    "ignored elsewhere.",
                )
            ),
        },
        required=["scores"],
        description="The table's final points per seat (ends play: the session is then scored).",
    ),
    score_entry.RECORD_PLACES: payload(
        {"places": keyed(integer(1, 8), description="Every seat's place, 1 the winner (ties share a place).")},
        required=["places"],
        description="The table's finishing order, when nobody counts points.",
    ),
}

ENTRY_STATE = closed(
    {
        "seats": array({"type": "string"}, description="The seats' keys, in seat order."),
        "scores": nullable(keyed(integer(), description="The points entered (scores.record).")),
        "tiebreaks": nullable(keyed(integer(0), description="The tie-breaks entered.")),
        "places": nullable(keyed(integer(1), description="The places entered (places.record).")),
    },
    description="What the table entered at the end, if anything.",
)


def entry_breakdown() -> Schema:
    """A result whose score the table entered: its points, and the game's tie-break if any."""
    tiebreaks = sorted({game.entry.tiebreak for game in GAMES.values() if game.entry.tiebreak})
    properties = {"points": integer(description="The points entered.")}
    properties.update({name: integer(0, description="The tie-break entered.") for name in tiebreaks})
    return closed(properties, required=[], description="Scores entered by the table (empty for places).")


def session_state(game_states: list[Schema]) -> Schema:
    return closed(
        {
            "status": one_of(
                [core.SETUP, core.PLAYING, core.SCORING, core.FINISHED, core.ABANDONED],
                description="Where the session is: setup until session.start, scoring once play has ended.",
            ),
            "game": {"anyOf": game_states, "description": "The game's own state (see the session's `game`)."},
            "entry": ref("ScoreEntryState"),
            "in_effect": array(integer(1), description="The sequence numbers of the events in effect (not undone)."),
        }
    )
