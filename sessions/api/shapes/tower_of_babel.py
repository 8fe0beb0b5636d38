"""Tower of Babel (``scoring/tower_of_babel/engine.py``): the payload of each event type, the
offer as the event list shows it while offers are secret, ``state["game"]`` as
``sessions.boards.tower_of_babel.public_state`` shows it, and a result's breakdown.

Rule ids (TB-n) are those of ``shared/rules/tower-of-babel.md``. The engine reads a seat or a
disc as ``str(value)``: a client may send a seat's key or a disc's id as a string (as the state
shows them) or as the whole number it spells, and the event list shows it as it was sent.
"""

from __future__ import annotations

from scoring.tower_of_babel import engine as tob
from scoring.tower_of_babel.discs import HELD_CARDS
from scoring.tower_of_babel.table import ADDED_ENTRIES, raw_data
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

KINDS: list[str] = list(raw_data()["kinds"]["value"])  # TB-2, verified: no group changes them
WONDERS: list[str] = list(raw_data()["wonders"]["value"])  # TB-3, verified
ACTION_CARDS: list[str] = list(raw_data()["action_cards"]["value"])  # TB-22
PLAYED_CARDS = ["joker", "triple_bonus", "double_turn"]  # the cards a move plays (``engine._use_card``)
ROWS = len(raw_data()["rows"]["value"])  # TB-6: a group corrects a row's values, not their number
DECK = raw_data()["action_card_count"]["value"]  # TB-22: 15 cards, verified
VALUE = 100  # a value of the group's edition table is a whole number from 0 to 100 (``table._check_shape``)
MOST_OFFERED = raw_data()["max_players"]["value"] - 1  # TB-1: every player but the active one

KIND_KEY = f"A building-card kind: {', '.join(KINDS[:-1])} or {KINDS[-1]} (TB-2)."
DISC_KEY = "A disc's id: its number from 1 to 24, as a string."
SEAT_SENT = (
    "A seat's key: its player's id, as a string (the state's seats); the id as a whole number names the same seat."
)


def _seat_sent(description: str) -> Schema:
    """A seat as a payload names it: its key, or the player's id as a number (``engine._seat``)."""
    return {"anyOf": [string(), integer(1)], "description": f"{description} {SEAT_SENT}"}


def _wonder(description: str) -> Schema:
    return one_of(WONDERS, description=f"{description} One of the 8 wonders (TB-3).")


# --- the payloads ---------------------------------------------------------------------

DOUBLE_TURN = boolean(
    description="Plays a Double turn action card (TB-16): the same player then takes a second turn. Needs action "
    "cards in play (TB-10) and one in the player's hand; not on a second turn. Default: false."
)
DISC_SENT: Schema = {
    "anyOf": [string(), integer(1)],
    "description": "The disc: its id (a key of the state's `discs`), as a string or as the whole number it spells. "
    "It must still lie on the wonder (TB-12).",
}
OFFERED_CARDS = keyed(
    integer(0),
    keys=KIND_KEY,
    description="The building cards offered per kind: only kinds the disc demands, each from 0 to the disc's number "
    "of that kind (TB-12; 6 at most with the box's discs, TB-4). Default: none (an empty offer).",
)
TRADING = boolean(
    description="Adds the player's trading card (TB-13: if the offer is accepted, its player takes the disc). Only "
    "with at least one card (TB-23). Default: false."
)
TRIPLE = boolean(
    description="Declares a Triple bonus action card with the offer (TB-14): if the offer is rejected it scores 3 VP "
    "per card and the card is played; if accepted, the card stays in hand. Needs action cards in play (TB-10) "
    "and one in the player's hand. Default: false."
)
OFFER_PROPERTIES: dict[str, Schema] = {"cards": OFFERED_CARDS, "trading": TRADING, "triple": TRIPLE}
COMPLETION: dict[str, Schema] = {
    "accepted": array(
        _seat_sent("A player whose offer is accepted."),
        high=MOST_OFFERED,
        description="The players whose offers the active player accepts, each offer whole (TB-13): each once, only "
        "offers with cards, at most one with a trading card, the accepted cards of a kind not above the disc's "
        "number of it. The others are rejected and score (TB-14). Default: none.",
    ),
    "own": keyed(
        integer(0),
        keys=KIND_KEY,
        description="The active player's own building cards per kind (TB-13), each from 0 to the disc's number of "
        "that kind: with the accepted cards and 2 per Joker they reach the disc's number exactly. Checked even "
        "when the build is not fulfilled. Default: none.",
    ),
    "jokers": integer(
        0,
        DECK,
        description="Joker action cards the active player plays, each counting as 2 cards of choice and earning 2 "
        "parts (TB-13); no more than the deck holds (2 in the box, TB-22). Default: 0.",
    ),
    "fulfilled": boolean(
        description="False when the active player cannot or will not reach the number (TB-15): nothing is built, the "
        "disc stays and every offer scores as rejected. Default: true."
    ),
    "double_turn": DOUBLE_TURN,
}

EVENTS: dict[str, Schema] = {
    tob.FIRST_PLAYER: payload(
        {"seat": _seat_sent("The player who takes the first turn.")},
        required=["seat"],
        description="Names the first player (TB-9), once, before the first turn; the state's `suggested_first` is the "
        "app's random pick. Play then runs in seat order.",
    ),
    tob.PASS: payload(
        {"double_turn": DOUBLE_TURN},
        description="The active player passes (TB-11): they draw a card, then every player draws one, and the next "
        "player is to play, unless a Double turn card is played (TB-16). Not while a build is under way.",
    ),
    tob.CHOOSE: payload(
        {"wonder": _wonder("The wonder to build on."), "disc": DISC_SENT},
        required=["wonder", "disc"],
        description="The active player starts a build (TB-12): a wonder and one disc still on it. Every other player "
        "then offers in secret (tob.offer) and the active player completes it (tob.resolve).",
    ),
    tob.OFFER: payload(
        {"seat": _seat_sent("The player who offers: any player but the active one."), **OFFER_PROPERTIES},
        required=["seat"],
        description="One player's secret offer for the build under way (TB-12): cards of the kinds the disc demands "
        "(none is an offer too), maybe with their trading card (TB-13, TB-23) and a Triple bonus (TB-14). Each other "
        "player offers once; the offers are revealed together once all are in.",
    ),
    tob.RESOLVE: payload(
        COMPLETION,
        description="The active player completes the build under way once every other player has offered (TB-13): "
        "accepts some offers and plays their own cards and Jokers to reach the disc's number exactly, or leaves it "
        "unfulfilled (TB-15). Rejected offers score (TB-14), a completed wonder scores (TB-17), and the game ends "
        "when the last disc of a kind is taken (TB-19).",
    ),
    tob.BUILD: payload(
        {
            "wonder": _wonder("The wonder to build on."),
            "disc": DISC_SENT,
            "offers": keyed(
                payload(OFFER_PROPERTIES, description="One player's offer, as tob.offer gives it (its seat: the key)."),
                keys=SEAT_KEY,
                description="Each other player's offer (TB-12), by seat; a player left out offered nothing. Default: "
                "none.",
            ),
            **COMPLETION,
        },
        required=["wonder", "disc"],
        description="A whole build recorded on one device (TB-12 to TB-17): the wonder and disc, every other player's "
        "offer and the active player's completion at once, as tob.choose, tob.offer and tob.resolve do one by one.",
    ),
    tob.ASSIGN: payload(
        {
            "seat": _seat_sent("The player whose discs these are."),
            "assignment": array(
                one_of(KINDS),
                high=24,
                description="The kind each disc the player holds counts as, one per disc in the order of the state's "
                "`discs` (TB-20 step 2): a kind the disc shows; a two-kind disc counts for one of its two.",
            ),
        },
        required=["seat", "assignment"],
        description="Once the game is over: the kind each of a player's discs counts for in the disc sets (TB-20 step "
        "2, TB-7), in place of the best assignment the app computes. A new one replaces the last.",
    ),
    tob.DECLARE_CARDS: payload(
        {
            "seat": _seat_sent("The player who shows the cards."),
            **{
                name: integer(
                    0,
                    DECK,
                    description=f"{label} cards the player still holds (TB-20 step 3), no more than the deck holds "
                    "(2 in the box, TB-22). Default: 0.",
                )
                for name, label in zip(
                    HELD_CARDS, ["Building disc bonus (+1 VP per disc held)", "5 victory points (+5 VP)"], strict=True
                )
            },
        },
        required=["seat"],
        description="Once the game is over: the action cards that score that a player still holds (TB-20 step 3), no "
        "more than the action cards they drew and did not play. A new declaration replaces the last.",
    ),
}

PUBLIC_EVENTS: dict[str, Schema] = {
    tob.OFFER: payload(
        {"seat": _seat_sent("The player who offered."), **OFFER_PROPERTIES},
        required=["seat"],
        description="An offer as the event list shows it: while the offers of the build under way are secret (TB-12), "
        "only who offered (`seat`); its cards, trading card and Triple bonus once every offer is in.",
    ),
}

# --- the state ------------------------------------------------------------------------

_TABLE_SAID = {
    "min_players": "The fewest players the group allows (TB-1: 3 in the box, 2 as a house rule).",
    "single_disc_range": "The fewest and the most cards a single disc demands (TB-4: 3 and 6 in the box).",
    "single_disc_numbers": "The cards each single disc of a kind demands, one number per disc (TB-4).",
    "two_kind_discs": "The two-kind discs (TB-4): each the cards it demands of each of its two kinds.",
    "rows": "The wonder scoring rows 1 to 7 (TB-6): each the first and the second value.",
    "set_bonus": "The disc-set points for 0, 1, 2, ... 7 discs of one kind (TB-7).",
    "parts_per_player": "How many of a player's 20 building parts are worth 1 and how many 3 (TB-5).",
    "action_cards": "How many of each action card the deck of 15 holds (TB-22).",
}
_ADDED = " Only where the group's edition table differs from the box's values."


def _length(name: str) -> int:
    return len(raw_data()[name]["value"])


def _table_said(name: str) -> str:
    return _TABLE_SAID[name] + (_ADDED if name in ADDED_ENTRIES else "")


VALUE_OF_TABLE = integer(0, VALUE)
TABLE = closed(
    {
        "min_players": integer(0, VALUE, description=_table_said("min_players")),
        "single_disc_range": array(VALUE_OF_TABLE, low=2, high=2, description=_table_said("single_disc_range")),
        "single_disc_numbers": array(
            VALUE_OF_TABLE,
            low=_length("single_disc_numbers"),
            high=_length("single_disc_numbers"),
            description=_table_said("single_disc_numbers"),
        ),
        "two_kind_discs": array(
            keyed(VALUE_OF_TABLE, keys=KIND_KEY, description="Two kinds, each with the cards it demands."),
            low=_length("two_kind_discs"),
            high=_length("two_kind_discs"),
            description=_table_said("two_kind_discs"),
        ),
        "rows": array(array(VALUE_OF_TABLE, low=2, high=2), low=ROWS, high=ROWS, description=_table_said("rows")),
        "set_bonus": array(
            VALUE_OF_TABLE,
            low=_length("set_bonus"),
            high=_length("set_bonus"),
            description=_table_said("set_bonus"),
        ),
        "parts_per_player": closed(
            {
                value: integer(0, VALUE, description=f"Parts worth {value}.")
                for value in raw_data()["parts_per_player"]["value"]
            },
            description=_table_said("parts_per_player"),
        ),
        "action_cards": closed(
            {card: integer(0, VALUE) for card in ACTION_CARDS}, description=_table_said("action_cards")
        ),
    },
    required=[name for name in _TABLE_SAID if name not in ADDED_ENTRIES],
    description="The component values the session plays with: the box's, or the group's edition table as the "
    "session started with it (later changes to the group's table do not change it).",
)

DEMAND = keyed(
    VALUE_OF_TABLE,
    keys=KIND_KEY,
    description="The building cards the disc demands, per kind: one kind, or two for a two-kind disc (TB-4).",
)
WONDER = closed(
    {
        "discs": array(
            string(description=DISC_KEY),
            high=3,
            description="The discs still on the wonder (3 when dealt, TB-3, TB-8); the wonder scores when the last is "
            "taken (TB-17).",
        ),
        "parts": keyed(
            integer(1),
            description="Each player's building parts on the wonder, by value (TB-13); a player with none is left out. "
            "Empty once the wonder scored (the parts went back).",
        ),
        "scored": nullable(
            closed(
                {
                    "row": integer(1, ROWS, description="The scoring row it scored on (TB-6)."),
                    "points": keyed(integer(0), description="Each player's points for the wonder (TB-17, TB-18)."),
                    "parts": keyed(integer(0), description="Each player's parts on it when it scored, by value."),
                },
                description="How the wonder scored when completed (TB-17).",
            )
        ),
    },
    description="One wonder: its discs, the parts on it, and its score once completed (null until then).",
)
OFFER_SHOWN = closed(
    {
        "cards": keyed(
            integer(1),
            keys=KIND_KEY,
            description="The cards offered per kind (kinds with none left out; empty: an empty offer).",
        ),
        "trading": boolean(description="With the player's trading card (TB-13)."),
        "triple": boolean(description="With a Triple bonus (TB-14)."),
    },
    description="A revealed offer (TB-12).",
)
OFFER_HIDDEN = closed(
    {"offered": boolean(description="Always true: the player has offered.")},
    description="An offer still secret: only that it was made (TB-12).",
)
BUILD = closed(
    {
        "wonder": _wonder("The wonder built on."),
        "disc": string(description=f"The disc chosen. {DISC_KEY}"),
        "offers": keyed(
            {
                "oneOf": [OFFER_HIDDEN, OFFER_SHOWN],
                "description": "The offer: secret until every other player has offered, then revealed to all.",
            },
            description="The offers made so far, by seat (the active player makes none).",
        ),
    },
    description="The build under way (TB-12): chosen, offers coming in, not yet completed.",
)
CARDS = closed(
    {
        "drawn": integer(
            0,
            ROWS,
            description="Action cards the player drew: one per wonder completed on their turn (TB-17).",
        ),
        "played": closed(
            {
                card: integer(1, DECK, description=f"How many {card.replace('_', ' ')} cards were played.")
                for card in PLAYED_CARDS
            },
            required=[],
            description="Action cards the player played, by card (a card not played is left out).",
        ),
        "held": closed(
            {card: integer(0, DECK) for card in HELD_CARDS},
            description="Action cards the player declared held at the end (TB-20 step 3; tob.declare_cards).",
        ),
    },
    description="A player's action cards (TB-22).",
)
POINTS = closed(
    {
        "wonders": integer(0, description="Points for completed wonders (TB-17)."),
        "rejected": integer(0, description="Points for rejected offers (TB-14)."),
        "final_wonders": integer(0, description="Points for unfinished wonders at the end (TB-20 step 1): 0 here."),
        "discs": integer(0, description="Disc-set points (TB-20 step 2): 0 here, counted at the end."),
        "action_cards": integer(0, description="Points for action cards held (TB-20 step 3): 0 here."),
    },
    description="A player's points by source as scored during play; the final scoring adds the rest (see a result's "
    "breakdown).",
)

STATE: Schema = closed(
    {
        "seats": array(seat(), low=1, description="The seats' keys, in turn order (TB-9)."),
        "table": TABLE,
        "action_cards": boolean(description="Whether the game is played with action cards (false: TB-10's variant)."),
        "suggested_first": seat(description="The app's random pick for the first player (TB-9). " + SEAT_KEY),
        "active": nullable(
            seat(
                description="The player to play. " + SEAT_KEY + " Null before the first player is named and once the "
                "game is over."
            )
        ),
        "extra_turn": boolean(
            description="Whether the active player is taking the second turn of a Double turn (TB-16)."
        ),
        "build": nullable(BUILD),
        "wonders": closed(
            {name: WONDER for name in WONDERS}, description="The 8 wonders (TB-3), by name, with their discs and parts."
        ),
        "discs": keyed(
            closed(
                {
                    "demand": DEMAND,
                    "wonder": _wonder("The wonder it was dealt on."),
                    "owner": nullable(
                        seat(description="Who took it (TB-13). " + SEAT_KEY + " Null while on the board.")
                    ),
                },
                description="A disc.",
            ),
            keys=DISC_KEY,
            description="The 24 discs dealt (TB-8), by id.",
        ),
        "row": integer(
            1,
            ROWS + 1,
            description="The scoring row the next completed wonder scores on (TB-6): 1 at the start, one down per "
            f"wonder scored ({ROWS + 1} once {ROWS} have).",
        ),
        "points": keyed(POINTS, description="Each player's points by source."),
        "cards": keyed(CARDS, description="Each player's action cards."),
        "assignments": keyed(
            array(one_of(KINDS), high=24),
            description="Once the game is over, the kind each player's discs count as, where they chose one (TB-20 "
            "step 2; tob.assign), in the order of `discs`. A player left out gets the best assignment.",
        ),
        "over": boolean(description="Whether the game has ended (TB-19): only the final scoring's choices remain."),
        "turn": integer(1, description="The turn under way, counting from 1: each pass and each build is one (TB-16)."),
    },
    description="Tower of Babel: the public board (hands stay secret, as do offers until all are in).",
)

BREAKDOWN: Schema = closed(
    {
        "wonders": integer(0, description="Points for wonders completed during play (TB-17, TB-18)."),
        "rejected": integer(0, description="Points for rejected offers (TB-14)."),
        "final_wonders": integer(0, description="Points for unfinished wonders on the final row (TB-20 step 1)."),
        "discs": integer(0, description="Disc-set points (TB-7, TB-20 step 2)."),
        "action_cards": integer(
            0, description="Points for Building disc bonus and 5 victory points cards (TB-20 step 3)."
        ),
    },
    description="Tower of Babel: a player's points by source, as the engine counted them (TB-20); the score is "
    "their sum.",
)
