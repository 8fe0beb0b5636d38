"""Babel On!'s JSON (``scoring.babel_on.engine``): each event's payload, the game's state as
the API shows it (``sessions.boards.babel_on.public_state``: the engine's, without the seed of
the app's die) and a result's breakdown when the engine decided the game (``standings``).

Rule ids are those of the rules digest (``shared/rules/babel-on.md``). A place on a tower is
a floor (1 the lowest) and a cell of its 2x2 grid (BO-7); a seat is its player's id, as a
string; the colours and the numbers come from the game's data (``scoring/data/babel_on.json``).
"""

from __future__ import annotations

from scoring.babel_on import engine as bo
from scoring.babel_on.tower import cells, floors, value
from sessions.api.shapes.kinds import (
    Schema,
    array,
    boolean,
    closed,
    integer,
    keyed,
    nullable,
    one_of,
    payload,
    seat,
    string,
)

COLOURS: list[str] = list(value("colours"))
CELLS: list[str] = list(cells())
FLOORS = floors()
FACES: int = value("die_faces")
PER_COLOUR: int = value("blocks_per_colour")
BONUS_BLOCKS: int = value("bonus_blocks")
LOW, HIGH = value("players")
TOWER_BLOCKS = FLOORS * len(CELLS)
# The most blocks a move can take: the highest odd roll (BO-5).
MOST_MOVED = FACES if FACES % 2 else FACES - 1
COLOUR_KEY = "A colour in play: " + ", ".join(COLOURS) + "."


def seat_sent(description: str) -> Schema:
    """A seat as a payload names it: its key, or the player's id as a whole number, which names
    the same seat (``engine._live_seat`` reads ``str(value)``; the import rewrites both)."""
    return {
        "anyOf": [seat(), integer(1)],
        "description": f"{description} A seat's key: its player's id, as a string (the id as a whole number "
        "names the same seat).",
    }


def colour(description: str) -> Schema:
    return one_of(COLOURS, description=description)


def floor_number(description: str = "The floor, 1 the lowest (BO-7).") -> Schema:
    return integer(1, FLOORS, description=description)


def cell(description: str = "The cell of the floor's 2x2 grid: nw, ne, sw or se (BO-7).") -> Schema:
    return one_of(CELLS, description=description)


def die(description: str) -> Schema:
    return integer(1, FACES, description=description)


def place(description: str) -> Schema:
    """A place on the player's own tower."""
    return closed({"floor": floor_number(), "cell": cell()}, description=description)


def on_a_tower(description: str, **more: Schema) -> Schema:
    """A place on any live player's tower (and what else the block says)."""
    return closed(
        {
            "tower": seat_sent("Whose tower: a live player's."),
            "floor": floor_number(),
            "cell": cell(),
            **more,
        },
        required=["tower", "floor", "cell"],
        description=description,
    )


def drawn(description: str) -> Schema:
    """A block drawn from the bag and where it goes on the player's own tower."""
    return closed(
        {
            "colour": colour("The block's colour, as drawn: one the bag still holds."),
            "floor": floor_number(),
            "cell": cell(),
        },
        description=description,
    )


EVENTS: dict[str, Schema] = {
    bo.SETUP: payload(
        {
            "colours": keyed(
                colour("The seat's colour."),
                description="Every seat's colour, each a different one (BO-1); keys other than the seats are ignored.",
            ),
            "extra": nullable(
                colour(
                    "For 2 or 3 players, the colour nobody plays whose 24 blocks go into the bag too (BO-2); "
                    "null or left out: the app picks the first one nobody plays. Must be null or left out "
                    "with 4 or more players."
                )
            ),
        },
        required=["colours"],
        description="Confirms the set-up: each player's colour and, for 2 or 3 players, the extra colour; "
        "fills the bag and gives each player their bonus blocks (BO-1, BO-2).",
    ),
    bo.ROLLOFF: payload(
        {
            "digital": boolean(
                description="true: the app's die rolls for everyone still in the roll-off (BO-3, BO-4); "
                "false or left out: the rolls are in `rolls`."
            ),
            "rolls": keyed(
                die("The pips the seat rolled."),
                description="Each seat still in the roll-off with the pips it rolled (BO-3, BO-4); "
                "needed unless `digital` is true, and no seat that is out of the roll-off.",
            ),
        },
        description="A round of the roll for the first player: the highest roll starts, a tie rolls again "
        "among the tied only (BO-3).",
    ),
    bo.ROLL: payload(
        {
            "call": one_of([bo.EVEN, bo.ODD], description="What the active player called before rolling (BO-5)."),
            "roll": nullable(
                die("The pips of a die rolled at the table (BO-4); null or left out: the app's die rolls.")
            ),
            "miss_choice": boolean(
                description="Only for a session stored before the wrong-call Decision (no house rule in its "
                "options): true keeps the turn open after a wrong call for a pass or one block drawn "
                "(bo.miss). Ignored otherwise; default false."
            ),
        },
        required=["call"],
        description="The active player's call of even or odd and their roll (BO-4, BO-5): a right even call "
        "leaves a draw to record (bo.draw), a right odd call a move (bo.move); a wrong call is a miss "
        "that passes the die, or under the group's house rule leaves its choice to record (bo.miss).",
    ),
    bo.DRAW: payload(
        {
            "blocks": array(
                drawn("One block drawn from the bag and its place on the player's own tower."),
                low=0,
                high=FACES,
                description="The blocks drawn, in the order they are placed (BO-5, BO-7, BO-8): exactly the "
                "roll, or as many as the bag holds and the tower has room for when fewer (Decision, BO-5).",
            ),
        },
        required=["blocks"],
        description="After a right call of even: the rolled number of blocks drawn from the bag onto the "
        "player's own tower (BO-5, BO-7, BO-8); then the die goes to the left.",
    ),
    bo.MOVE: payload(
        {
            "removals": array(
                on_a_tower("A block taken off a live tower (BO-7, BO-8, BO-10, BO-11)."),
                low=0,
                high=MOST_MOVED,
                description="The blocks taken off, in order, all before any is added (BO-9): exactly the roll, "
                "or as many as can be taken off when fewer (Decision, BO-5).",
            ),
            "additions": array(
                on_a_tower(
                    "Where a block taken off goes, on a live tower (BO-7, BO-8).",
                    block=integer(
                        0,
                        MOST_MOVED - 1,
                        description="Which block taken off goes there: its place in `removals`, from 0; left "
                        "out: the one at this addition's own place. Each block goes back once (BO-9).",
                    ),
                ),
                low=0,
                high=MOST_MOVED,
                description="Where the blocks taken off go, in the order they are added: as many as `removals`.",
            ),
        },
        required=["removals", "additions"],
        description="After a right call of odd: the rolled number of blocks moved between live towers, all "
        "taken off first, then all added (BO-5, BO-7..BO-11); then the die goes to the left.",
    ),
    bo.BONUS: payload(
        {
            "blocks": array(
                place("Where a bonus block goes on the player's own tower (BO-7, BO-8)."),
                low=1,
                high=BONUS_BLOCKS,
                description="The places of the 1 or 2 bonus blocks used, in order; no more than the player has "
                "left (BO-6).",
            ),
        },
        required=["blocks"],
        description="The active player adds 1 or 2 of their bonus blocks to their own tower, during their turn; "
        "they become normal blocks (BO-6, Decision).",
    ),
    bo.KNOCK: payload(
        {
            "seat": seat_sent("Who knocked the blocks over: a live player."),
            "tower": seat_sent(
                "Whose tower they knocked blocks off: a live player's, the same as `seat` for their own."
            ),
        },
        required=["seat", "tower"],
        description="A player knocked blocks off a tower (BO-12): their own tower, its blocks and their unused "
        "bonus blocks go back into the bag (and their turn ends if it was theirs); an opponent's, they are "
        "eliminated, and the last player standing wins (BO-14).",
    ),
    bo.ADJUST: payload(
        {
            "note": string(
                max_length=bo.NOTE_LIMIT,
                description="What happened, in the table's words: not blank.",
            ),
            "remove": array(
                on_a_tower("A block taken off a tower into the bag: one with nothing on it (BO-7)."),
                description="Blocks taken off towers into the bag, in order (default: none).",
            ),
            "add": array(
                on_a_tower(
                    "A block taken from the bag onto a tower, on a block or the ground (BO-7).",
                    colour=colour("The block's colour: one the bag still holds."),
                ),
                description="Blocks put from the bag onto towers, in order, after the removals (default: none).",
            ),
            "end_turn": boolean(description="true: the die goes to the left after it (default false)."),
        },
        required=["note"],
        description="A correction with a note, for what the rules do not cover (Decision, BO-5): only the "
        "structure is checked (BO-7), blocks come from and go back into the bag.",
    ),
    bo.MISS: payload(
        {
            "choice": one_of(
                ["pass", "draw", "take_off"],
                description="A pass, or what the group's house rule gives: draw (one block drawn onto the "
                "player's own tower) or take_off (one block taken off it); only the session's house rule.",
            ),
            "blocks": array(
                drawn("The block drawn and its place on the player's own tower."),
                low=0,
                high=value("wrong_call_draw"),
                description="With draw: the block drawn (none when the bag is empty or the tower full).",
            ),
            "block": nullable(
                place(
                    "With take_off: the block taken off the player's own tower into the bag (BO-7, BO-8, BO-11); "
                    "null or left out only when none may come off."
                )
            ),
        },
        required=["choice"],
        description="After a wrong call under the group's house rule: a pass, or one block drawn onto the "
        "player's own tower, or one taken off it (BO-5, Decision); then the die goes to the left.",
    ),
}

PUBLIC_EVENTS: dict[str, Schema] = {}  # the event list shows every payload as it was sent

SEAT_OR_NONE = "A seat's key (its player's id, as a string), or null"

STATE: Schema = closed(
    {
        "seats": array(seat(), low=LOW, high=HIGH, description="The seats' keys, in seat order (BO-1)."),
        "phase": one_of(
            ["setup", "rolloff", "playing", "over"],
            description="setup until bo.setup, rolloff until a first player is found (BO-3), playing, over once "
            "the engine has a winner (BO-14).",
        ),
        "colours": keyed(colour("The seat's colour."), description="Each seat's colour (BO-1); empty in setup."),
        "extra": nullable(
            colour("The extra colour whose 24 blocks are in play for 2 or 3 players (BO-2); null otherwise.")
        ),
        "bag": keyed(
            integer(0, PER_COLOUR, description="Blocks of that colour in the bag."),
            keys=COLOUR_KEY,
            description="The construction bag's blocks by colour, every colour in play (BO-2); empty in setup.",
        ),
        "bonus": keyed(
            integer(0, BONUS_BLOCKS, description="Bonus blocks the seat has not used."),
            description="Each seat's bonus blocks left behind their architect (BO-2, BO-6); empty in setup.",
        ),
        "towers": keyed(
            array(
                array(
                    nullable(colour("The block's colour; null: an empty cell.")),
                    low=len(CELLS),
                    high=len(CELLS),
                    description="A floor's cells in the order " + ", ".join(CELLS) + " (BO-7).",
                ),
                low=FLOORS,
                high=FLOORS,
                description="The tower's floors, the lowest first (floor 1 is item 0).",
            ),
            description="Each seat's tower (BO-7).",
        ),
        "eliminated": array(
            seat(), description="The seats out of the game for knocking over an opponent's tower (BO-12)."
        ),
        "rolloff": closed(
            {
                "contenders": array(seat(), description="The seats still rolling for the first player (BO-3)."),
                "rounds": array(
                    keyed(die("The pips rolled."), description="One round of the roll-off: each contender's roll."),
                    description="The roll-off's rounds so far, the first first.",
                ),
            },
            description="The roll for the first player (BO-3).",
        ),
        "dice": integer(0, description="How many times the app's die has rolled in this game."),
        "first": nullable(seat(description=f"{SEAT_OR_NONE} before the roll-off is won: the first player (BO-3).")),
        "active": nullable(
            seat(description=f"{SEAT_OR_NONE} outside play: whose turn it is (the die goes to the left, BO-5).")
        ),
        "pending": nullable(
            closed(
                {
                    "kind": one_of(
                        ["draw", "move", "miss"],
                        description="draw or move: a right call's blocks to record (bo.draw, bo.move); miss: a "
                        "wrong call's choice under the house rule (bo.miss).",
                    ),
                    "count": die("The pips of the roll."),
                },
                description="What the active player's roll leaves to record (BO-5); null when nothing is.",
            )
        ),
        "last_roll": nullable(
            closed(
                {
                    "seat": seat(description="Who rolled: a seat's key."),
                    "call": one_of([bo.EVEN, bo.ODD], description="What they called (BO-5)."),
                    "roll": die("The pips rolled (BO-4)."),
                    "digital": boolean(description="true: the app's die rolled; false: a roll typed in."),
                    "outcome": one_of(["draw", "move", "miss"], description="What the roll means (BO-5)."),
                    "choice": one_of(
                        ["pass", "draw", "take_off"],
                        description="After a wrong call under a house rule, what the player chose (bo.miss); "
                        "absent until then.",
                    ),
                },
                required=["seat", "call", "roll", "digital", "outcome"],
                description="The last roll of a turn; null before the first.",
            )
        ),
        "round": integer(1, description="The round being played, from 1 (BO-14: the towers are checked at its end)."),
        "placements": integer(0, description="Blocks placed on towers so far in the game (a running count)."),
        "perfect_since": keyed(
            nullable(
                integer(
                    1,
                    description="The placement count when the tower became perfect; null: it is not (BO-13, "
                    "BO-14's tie-break: the first completed wins).",
                )
            ),
            description="Since when each seat's tower is perfect.",
        ),
        "checks": array(
            closed(
                {
                    "round": integer(1, description="The round that ended."),
                    "perfect": array(seat(), description="The seats whose towers were perfect then (BO-13)."),
                }
            ),
            description="The towers checked at the end of each round so far (BO-13, BO-14).",
        ),
        "adjustments": array(
            closed(
                {
                    "note": string(max_length=bo.NOTE_LIMIT, description="The note, as written."),
                    "round": integer(1, description="The round it was made in."),
                    "active": seat(description="Whose turn it was: a seat's key."),
                }
            ),
            description="The manual corrections so far (bo.adjust), the first first.",
        ),
        "winner": nullable(seat(description=f"{SEAT_OR_NONE} until the game is over: who won (BO-14).")),
        "won_by": nullable(
            one_of(
                ["perfect", "last_standing"],
                description="How the winner won: a perfect tower (BO-13, BO-14) or as the last player not "
                "eliminated (BO-12, BO-14); null until the game is over.",
            )
        ),
        "wrong_call": nullable(
            one_of(
                list(bo.WRONG_CALL_RULES),
                description="What a wrong call gives (BO-5): miss (the Decision), or the group's house rule, draw "
                "(one block drawn onto the player's own tower) or take_off (one taken off it); null in a "
                "session stored before the Decision.",
            )
        ),
    },
    description="Babel On!: the game as the table sees it, from the set-up to the winner (the app's die seed "
    "left out).",
)

BREAKDOWN: Schema = closed(
    {
        "won_by": nullable(
            one_of(
                ["perfect", "last_standing"],
                description="The winner's way to win: a perfect tower (BO-13, BO-14) or the last player not "
                "eliminated (BO-12, BO-14); null for the others.",
            )
        ),
        "perfect": boolean(description="Whether the seat's tower was perfect at the end (BO-13)."),
        "blocks": integer(0, TOWER_BLOCKS, description="Blocks on the seat's tower at the end."),
        "eliminated": boolean(description="Whether the seat was eliminated (BO-12)."),
        "rounds": integer(1, description="The rounds played, the last one included."),
    },
    description="Babel On!: how the game ended for the seat (the winner ranks 1, everyone else 2).",
)
