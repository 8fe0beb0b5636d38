"""babel (the cube tower, ``scoring.babel_cubes``): its one event, its state and its breakdown.

Rule ids are those of ``shared/rules/babel-cubes.md`` (BC-1..BC-9). A placement is written as
the public calculator writes one (``CubeMoveDoc``, ``CubeGeometryDoc`` in ``sessions.api.schema``):
a cell, a cube type and the faces that carry bulges.
"""

from __future__ import annotations

from scoring.babel_cubes import engine
from scoring.babel_cubes.geometry import CELLS, FACES, LEVELS, TYPES, hand_of_each, options
from scoring.babel_cubes.moves import CUBES
from sessions.api.shapes.kinds import Schema, array, closed, integer, nullable, one_of, payload, seat

PLAYERS = (1, 2)
MOST_BULGES = max(TYPES)
"""A type 4 cube, the one with the most bulges, has 4 (BC-1)."""
CELL = (
    "The cell of the level being built, named by its two outer faces: nw (north-west), ne, sw or se "
    "(BC-3). Diagonal cells never touch."
)
TYPE = "The cube's type, 0 to 4: its number of bulges (BC-1; 0 grey, 1 white, 2 black, 3 beige, 4 blue)."
BULGES = (
    "The bulging faces, each once; left out: none (a type 0 cube). Exactly `type` of them, in a layout "
    "the cube's type allows (BC-1, BC-2); never an outer side, nor the bottom on the ground level (BC-5)."
)
PLAYER = "Player 1 (the first seat, who places the first cube) or player 2 (the second seat)."

EVENTS: dict[str, Schema] = {
    engine.PLACE: payload(
        {
            "cell": one_of(CELLS, description=CELL),
            "type": integer(min(TYPES), max(TYPES), description=f"{TYPE} The first cube may not be a type 4 (BC-4)."),
            "bulges": array(one_of(FACES), high=MOST_BULGES, unique=True, description=BULGES),
        },
        required=["cell", "type"],
        description="The player to move places one of their own cubes on the tower (players alternate, a level "
        "is complete before the next starts, BC-3): every contact pairs one bulge with one indent (BC-6) and the "
        "second ground cube touches the first (BC-7). After it, the player to move who cannot place any cube "
        "loses, and a complete tower of 24 cubes is a draw (BC-9).",
    ),
}

PUBLIC_EVENTS: dict[str, Schema] = {}  # nothing in babel is secret: the event list shows each payload as sent

_MOVE = closed(
    {
        "cell": one_of(CELLS, description=CELL),
        "type": integer(min(TYPES), max(TYPES), description=TYPE),
        "bulges": array(
            one_of(FACES),
            high=MOST_BULGES,
            unique=True,
            description="The bulging faces, each once, as many as the type (none for a type 0 cube).",
        ),
    },
    description="A cube placed: the i-th (from 0) stands on level i // 4 + 1 and is player i % 2 + 1's.",
)

_HAND = array(
    integer(0, max(hand_of_each())),
    low=len(TYPES),
    high=len(TYPES),
    description="How many cubes of each type the player has left, indexed by type (0 to 4); each player "
    f"starts with {list(hand_of_each())} (half of each type, BC-1).",
)

STATE: Schema = closed(
    {
        "seats": array(
            seat(),
            low=len(PLAYERS),
            high=len(PLAYERS),
            description="The two seats' keys (their players' ids, as strings): player 1's, then player 2's (BC-1).",
        ),
        "geometry": closed(
            {
                key: one_of(
                    names,
                    description=f"The layout of the {key.replace('type', 'type ')} cube's bulges (BC-2).",
                )
                for key, names in options().items()
            },
            description="The cube layouts the session plays with (its options type2 and type3; BC-2).",
        ),
        "moves": array(
            _MOVE,
            high=CUBES,
            description=f"The cubes placed, in order (at most {CUBES}: six levels of four, BC-3).",
        ),
        "level": integer(
            1,
            LEVELS,
            description="The level being built (1 the ground level); a complete tower stays at 6 (BC-3).",
        ),
        "to_move": nullable(
            integer(
                min(PLAYERS),
                max(PLAYERS),
                description=f"Who places the next cube: {PLAYER} Null once the game is over.",
            )
        ),
        "hands": closed(
            {str(player): _HAND for player in PLAYERS},
            description='Each player\'s cubes left, keyed by the player\'s number ("1", "2"), not by seat.',
        ),
        "status": one_of(
            ["in_progress", "won", "drawn"],
            description="in_progress; won: the player to move could not place any cube and lost; drawn: the "
            "tower is complete with all 24 cubes (BC-9, a decision).",
        ),
        "winner": nullable(
            integer(
                min(PLAYERS),
                max(PLAYERS),
                description=f"The winner once the game is won: {PLAYER} Null while it goes on and in a draw.",
            )
        ),
    },
    description="babel: the tower as built so far, the cubes each player has left and the outcome. "
    "Nothing in it is secret.",
)

BREAKDOWN: Schema = closed(
    {
        "cubes_placed": integer(
            0, CUBES // len(PLAYERS), description="How many cubes this player placed (at most 12)."
        ),
        "level": integer(1, LEVELS, description="The level the tower reached (6: the tower is complete)."),
    },
    description="babel, as the engine decided it: the winner ranks 1, the loser 2, a draw ranks both 1 (BC-9).",
)
