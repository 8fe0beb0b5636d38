"""7 Wonders: Babel (``scoring.seven_wonders``): its events' payloads, its state as the API
shows it (``sessions.boards.seven_wonders.public_state``) and a result's breakdown.

Rule ids (SW-n) are those of ``shared/rules/seven-wonders-babel.md``.
"""

from __future__ import annotations

from scoring.seven_wonders import engine as sw
from scoring.seven_wonders.data import MAX_DEFEAT_TOKENS, data
from sessions.api.shapes.kinds import (
    SEAT_KEY,
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

# --- pieces ------------------------------------------------------------------------------

FIRST_TILE, LAST_TILE = min(sw.TILES), max(sw.TILES)
TILE_KEY = f"a Tower of Babel tile's number, {FIRST_TILE} to {LAST_TILE}, as a string."
PROJECTS = [card["slug"] for card in data()["projects"]["value"]]
PROJECT_KEY = "a Great Project's slug (SW-11)."
OUTCOMES = ["reward", "penalty", "penalty_token", "none"]
# The engine's bounds of a number typed on a sheet (``sheet._number``).
MOST = 999
LEAST_COLUMN = -200
BABEL_TILE_POINTS: list[int] = data()["babel_tile_points"]["value"]


def tile(description: str = "A Tower of Babel tile's number (SW-7).") -> Schema:
    return integer(FIRST_TILE, LAST_TILE, description=description)


def seat_in(description: str = SEAT_KEY) -> Schema:
    """A seat as a payload names it: the engine takes the player's id as a string (the seat's
    key) or as a whole number, and refuses anything else naming the field."""
    return {"anyOf": [seat(), integer(1)], "description": f"{description} A whole number is taken too."}


def seat_list(description: str) -> Schema:
    return array(seat(), description=description)


COLUMN_WORDS = {
    "military": "Military points: victory tokens (+1/+3/+5 by age) minus one per defeat token, Great Project "
    "military tokens included (SW-12).",
    "wonder": "Points of the wonder's stages built (SW-12).",
    "civilian": "Points of the civilian (blue) buildings (SW-12).",
    "commercial": "Points of the commercial (yellow) buildings (SW-12).",
    "guilds": "Points of the guilds (purple cards) (SW-12).",
    "leaders": "Points of the Leaders expansion's leaders (SW-12).",
    "cities": "Points of the Cities expansion, debt included (negative) (SW-12).",
    "great_projects": "Great Project points typed in: penalty tokens (-1/-2/-3, SW-10) and other rewards; the "
    "Smelter and Menagerie tokens below are added to it (SW-12).",
}
SYMBOL_WORDS = {
    "tablet": "Tablets (science symbols) the player has.",
    "compass": "Compasses (science symbols) the player has.",
    "gear": "Gears (science symbols) the player has.",
    "wild": "Wild science symbols (Babylon, the Scientists Guild, ...): each goes where it scores most (SW-13).",
    "archives": "Archives tokens (Great Project reward): each set of three symbols scores 3 more (SW-10, SW-13).",
}
REWARD_WORDS = {
    "smelter": "Smelter tokens held: each scores 1 point per wonder stage built (SW-10, SW-12).",
    "wonder_stages": "Wonder stages the player built, for the Smelter tokens.",
    "menagerie": "Menagerie tokens held: each scores 1 point per guild the player and their two neighbours "
    "have (SW-10, SW-12).",
    "guilds_around": "Guilds the player and their two neighbours have, for the Menagerie tokens.",
}
LEFT_OUT = " A whole number; null or left out counts 0."

SCIENCE = nullable(
    payload(
        {name: nullable(integer(0, MOST, description=words + LEFT_OUT)) for name, words in SYMBOL_WORDS.items()},
        description="The science symbols, by name; the engine places the wild ones for the best score (SW-13). "
        "Null or left out: none.",
    )
)

SHEET = payload(
    {
        "coins": integer(
            0, MOST, description="Coins at the end of the game: 1 point per 3 (SW-12), and the tie-break (SW-14)."
        ),
        **{
            name: nullable(integer(LEAST_COLUMN, MOST, description=words + LEFT_OUT))
            for name, words in COLUMN_WORDS.items()
        },
        "science": SCIENCE,
        "babel_tiles": nullable(
            integer(
                0,
                3,
                description="Tower of Babel tiles the player built: 1, 2, 3 score 2, 5, 10 points (SW-8)." + LEFT_OUT,
            )
        ),
        **{name: nullable(integer(0, MOST, description=words + LEFT_OUT)) for name, words in REWARD_WORDS.items()},
    },
    required=["coins"],
    description="A player's end-of-game score sheet, by column (SW-12): the points typed in, the counts the "
    "engine scores itself (coins, science symbols, tiles built, reward tokens). Treasury, science and tower "
    "tiles are computed, not typed; other keys are kept as sent and ignored.",
)

# --- the events ----------------------------------------------------------------------------

EVENTS: dict[str, Schema] = {
    sw.DRAFT_PICK: payload(
        {
            "seat": seat_in("The player who keeps a tile: their seat's key (their player's id, as a string)."),
            "tile": tile("The tile they keep: one of their hand (SW-2)."),
        },
        required=["seat", "tile"],
        description="In the app's tile draft, a player keeps one tile of their hand, in secret (SW-2); once every "
        "player has picked, the rest of each hand passes to the right-hand neighbour. Only with the Tower of Babel "
        "tiles, while the draft runs.",
    ),
    sw.DRAFT_RECORD: payload(
        {
            "tiles": keyed(
                array(tile(), low=3, high=3, unique=True, description="Three different tiles."),
                description="The three tiles each player holds after the draft, for every player of the session "
                "and no other; no tile twice (SW-2).",
            ),
        },
        required=["tiles"],
        description="Records a tile draft done with the physical tiles: the three tiles each player ended with "
        "(SW-2). It ends the draft; only before the app's draft has begun.",
    ),
    sw.DECLARE_TILE: payload(
        {
            "seat": seat_in("The player who builds a tile: their seat's key (their player's id, as a string)."),
            "tile": nullable(
                tile(
                    "The tile they build this turn: one of their own, not built yet (SW-5). Null or left out takes "
                    "their declaration back."
                )
            ),
        },
        required=["seat"],
        description="A player says in secret, on their own phone, which of their tiles they build this turn "
        "(SW-5); the next sw.build_tiles places it with the others (SW-6). Only once the tile draft is over.",
    ),
    sw.BUILD_TILES: payload(
        {
            "tiles": keyed(
                tile("The tile that player builds: one of their own, not built yet (SW-5)."),
                description="Tiles built this turn besides the declared ones; a seat given here overrides its "
                "declaration. Left out: only the declared tiles.",
            ),
        },
        description="The tiles built in one turn, revealed together: the declared ones (sw.declare_tile) and those "
        "given here, placed in increasing number, the first on the marked space, then clockwise, covering the "
        "oldest (SW-5, SW-6). Refused when no tile is declared or given.",
    ),
    sw.PARTICIPATE: payload(
        {
            "seat": seat_in("The player who joins: their seat's key (their player's id, as a string)."),
            "same_turn_reserve": nullable(
                boolean(
                    description="True asks for a marker from the reserve: no marker is left on the card and the "
                    "player joins in the same turn as the one who took the last (SW-9). False, null or left out: "
                    "not from the reserve."
                )
            ),
        },
        required=["seat"],
        description="A player pays the participation cost of this age's Great Project and takes a marker (SW-9): "
        "at most once per turn (sw.next_turn), from the reserve when none is left on the card and they join in "
        "the same turn as the one who took the last. Only with Great Projects, during the three ages.",
    ),
    sw.NEXT_TURN: payload(
        {
            "turn": nullable(
                integer(
                    1,
                    description="The turn the sender saw end (1 the age's first): a second press for a turn that is "
                    "over is refused. Null or left out: the current turn, unchecked.",
                )
            ),
        },
        description="The table's turn is over: each player may join the Great Project again (SW-9). Only with "
        "Great Projects, during the three ages.",
    ),
    sw.END_AGE: payload(
        {
            "cannot_suffer": seat_list(
                "The players who cannot suffer the project's penalty (their seats' keys): each takes a penalty "
                "token of the age instead (SW-10). Left out: nobody."
            ),
            "tomyris": nullable(
                string(
                    description="The seat's key of the player who plays Tomyris (Leaders), who takes no defeat "
                    "token from a penalty (SW-10); null, empty or left out: nobody. Only in a game with Leaders."
                )
            ),
        },
        description="Ends the age (SW-4), whatever the modules: the tiles' taxes and bonuses follow the age "
        "(SW-7). With Great Projects, the age's project is resolved: a reward per marker on success, the penalty "
        "or a penalty token for the others on failure (SW-10); its markers are put back for the next age (SW-3).",
    ),
    sw.SHEET: payload(
        {
            "seat": seat_in("The player whose sheet it is: their seat's key (their player's id, as a string)."),
            "sheet": SHEET,
        },
        required=["seat", "sheet"],
        description="A player's end-of-game score sheet (SW-12, science SW-13, tiles SW-8), sent again to correct "
        "it; once every player has one the engine counts the score and ranks them, coins breaking ties (SW-14).",
    ),
}

WHO_ONLY = "As the event list shows it: who, never which tile (SW-2, SW-5)."
PUBLIC_EVENTS: dict[str, Schema] = {
    sw.DRAFT_PICK: closed({"seat": seat_in("The player who kept a tile.")}, description=WHO_ONLY),
    sw.DECLARE_TILE: closed({"seat": seat_in("The player who declared (or took back) a tile.")}, description=WHO_ONLY),
    sw.DRAFT_RECORD: closed(
        {}, description="As the event list shows it: nothing, the tiles drafted stay secret (SW-2)."
    ),
}

# --- the state ---------------------------------------------------------------------------------

OUTCOME = closed(
    {
        "seat": seat(),
        "outcome": one_of(
            OUTCOMES,
            description="reward: the project succeeded and the player held markers; penalty: it failed and they "
            "held none; penalty_token: it failed, they held none and could not suffer the penalty; none: nothing "
            "(SW-10).",
        ),
        "times": integer(0, description="Rewards taken (one per marker held), or 1 for a penalty or a token."),
        "vp": nullable(
            integer(
                -3,
                10,
                description="The points of the token taken: a penalty token's (-1/-2/-3 by age), or a military "
                "reward token's after tile 19 (SW-7); null otherwise.",
            )
        ),
        "defeat_tokens": integer(
            0,
            description="Military defeat tokens the penalty gives (the card's, doubled while tile 22 shows, none "
            "for Tomyris) (SW-7, SW-10).",
        ),
    },
    description="What one player got from the project.",
)

RESOLVED = closed(
    {
        "age": integer(1, 3, description="The age that ended."),
        "project": one_of(PROJECTS, description="The age's Great Project (SW-11)."),
        "success": boolean(description="Whether no marker was left on the card (SW-10)."),
        "outcomes": array(OUTCOME, description="Every player's outcome, in seat order."),
    },
    description="A Great Project resolved at the end of an age (SW-10).",
)

CORRECTED = "The group's text, 1 to 200 characters (spaces around it aside)."
CORRECTIONS = closed(
    {
        "tiles": keyed(string(description=CORRECTED), keys=TILE_KEY, description="Tile effects corrected (SW-7)."),
        "projects": keyed(
            closed(
                {
                    "cost": string(description=f"The participation cost. {CORRECTED}"),
                    "penalty": string(description=f"The penalty. {CORRECTED}"),
                    "reward": string(description=f"The reward. {CORRECTED}"),
                    "reward_vp": integer(0, 10, description="A military victory reward's points (SW-10)."),
                    "penalty_defeat_tokens": integer(
                        0, MAX_DEFEAT_TOKENS, description="Defeat tokens the penalty gives (SW-10)."
                    ),
                },
                required=[],
                description="What the group corrected on the card.",
            ),
            keys=PROJECT_KEY,
            description="Great Project cards corrected (SW-11).",
        ),
    },
    description="The group's corrections of the card data (its edition table) as the session started with them "
    "(SW-7, SW-11): empty with the cards' values.",
)

HELD = "Secret (SW-2): only how many."
ALWAYS = ["seats", "sheets", "tiles_on", "projects_on", "age"]
STATE = closed(
    {
        "seats": array(
            seat(),
            unique=True,
            description="The seats' keys, in clockwise order: a hand passes to the previous seat (SW-2).",
        ),
        "sheets": keyed(SHEET, description="The score sheets entered so far (SW-12), as sent."),
        "tiles_on": boolean(description="Played with the Tower of Babel tiles (option tower_tiles)."),
        "projects_on": boolean(description="Played with the Great Projects (option great_projects)."),
        "leaders_on": boolean(
            description="Played with the Leaders expansion (option leaders): Tomyris can be named (SW-10). "
            "Absent from sessions stored before it was kept."
        ),
        "corrections": CORRECTIONS,
        "age": integer(1, 4, description="The age in play, 1 to 3; 4 once the third has ended (SW-4)."),
        # The tiles (option tower_tiles).
        "draft_step": one_of(
            [1, 2, 0], description="The tile draft's step (SW-2): 1 or 2 while it runs, 0 once it is over."
        ),
        "hands": keyed(
            integer(2, 3), description=f"Tiles in each player's hand while the draft runs (empty after it). {HELD}"
        ),
        "kept": keyed(integer(0, 2), description=f"Tiles each player kept in the app's draft so far. {HELD}"),
        "picks": keyed(
            boolean(description="Always true."),
            description="Who has picked at this step of the draft (SW-2); which tile stays secret.",
        ),
        "tiles": keyed(
            integer(3, 3),
            description=f"Tiles each player holds once the draft is over (empty before). {HELD}",
        ),
        "built": array(
            array(
                {"anyOf": [seat(), tile()]},
                low=2,
                high=2,
                description="A tile built: [the builder's seat key, the tile's number].",
            ),
            description="The tiles built, in the order they were placed (SW-5, SW-6): the n-th (from 0) lies on "
            "space n modulo `spaces`, the last ones visible.",
        ),
        "spaces": one_of(
            [2, 3, 4],
            description="The Babel board's active spaces: 2 with 2 players, 3 with 3-4, 4 with 5-8 (SW-1).",
        ),
        "declared": keyed(
            boolean(description="Always true."),
            description="Who has declared a tile to build this turn (SW-5); which tile stays secret.",
        ),
        # The Great Projects (option great_projects).
        "projects": array(
            one_of(PROJECTS),
            low=3,
            high=3,
            unique=True,
            description="The Great Project of each age, drawn at the start (SW-3, SW-11).",
        ),
        "markers_left": integer(
            0, 6, description="Participation markers left on the age's project (SW-3, SW-9); 0 after the third age."
        ),
        "markers": keyed(
            integer(1), description="Participation markers each player took this age (SW-9); empty between ages."
        ),
        "resolved": array(RESOLVED, high=3, description="The projects resolved so far, age by age (SW-10)."),
        "turn": nullable(
            integer(
                1,
                description="The turn of the age (SW-9), counted from 1 by sw.next_turn; null for a session stored "
                "before turns were counted (option turns_counted), until its first new turn.",
            )
        ),
        "joined": seat_list(
            "Who joined the project in this turn (SW-9: once per turn each); every participation when turns "
            "are not counted."
        ),
    },
    required=ALWAYS,
    description="7 Wonders: Babel: the sheets, the age and the modules played; with the tiles the draft and the "
    "Babel board (draft_step ... declared), with Great Projects the projects, markers and turns (projects ... "
    "joined). What a player holds stays secret: counts only.",
)

# --- a result's breakdown ------------------------------------------------------------------

BREAKDOWN = closed(
    {
        "military": integer(LEAST_COLUMN, MOST, description=COLUMN_WORDS["military"]),
        "treasury": integer(0, MOST // 3, description="1 point per 3 coins, rounded down (SW-12)."),
        "wonder": integer(LEAST_COLUMN, MOST, description=COLUMN_WORDS["wonder"]),
        "civilian": integer(LEAST_COLUMN, MOST, description=COLUMN_WORDS["civilian"]),
        "science": integer(
            0,
            description="Science: squares of each symbol's count plus 7 (+3 per Archives token) "
            "per set, the wild symbols placed for the best score (SW-13).",
        ),
        "commercial": integer(LEAST_COLUMN, MOST, description=COLUMN_WORDS["commercial"]),
        "guilds": integer(LEAST_COLUMN, MOST, description=COLUMN_WORDS["guilds"]),
        "leaders": integer(LEAST_COLUMN, MOST, description=COLUMN_WORDS["leaders"]),
        "cities": integer(LEAST_COLUMN, MOST, description=COLUMN_WORDS["cities"]),
        "babel_tiles": one_of(BABEL_TILE_POINTS, description="Points of the tower tiles built (SW-8)."),
        "great_projects": integer(
            LEAST_COLUMN,
            description="Great Project points: those typed in, plus the Smelter and Menagerie tokens' (SW-10, SW-12).",
        ),
        "coins": integer(0, MOST, description="Coins at the end: the tie-break (SW-14)."),
    },
    description="7 Wonders: Babel, counted from the players' score sheets: the points of each column (SW-12), "
    "summing to the score, and the coins that break a tie (SW-14).",
)
