"""The rules of the four games as a player reads them at the table, one short text per rule id.

The engines and the pages cite rules by id ("TB-12"); a player cannot read an id, so every id
links to its text here, on the game's rules page. The texts restate the digests in
``/work/shared/rules/`` for players: no developer notes, and where a printed value is not
known for sure the text says so instead of stating a default as fact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.urls import reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.babel_cubes.geometry import default_choice as cube_layouts
from scoring.tower_of_babel.table import load_table, unverified
from sessions.data_texts import LAYOUT_NAMES, data_text, in_a_sentence
from sessions.games import BABEL_CUBES, BABEL_ON, SEVEN_WONDERS, TOWER_OF_BABEL

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


@dataclass(frozen=True)
class Rule:
    """A rule as the rule book gives it, and ``decision``: what the app does where the rule
    book is silent or cut off, shown as a decision, never as part of the rule."""

    id: str
    title: StrOrPromise
    text: StrOrPromise
    decision: StrOrPromise | None = None


# The id's prefix names the game.
GAME_OF_PREFIX = {"TB": TOWER_OF_BABEL, "BO": BABEL_ON, "SW": SEVEN_WONDERS, "BC": BABEL_CUBES}

RULES: dict[str, tuple[Rule, ...]] = {
    TOWER_OF_BABEL: (
        Rule("TB-1", _("Players"), _("3 to 5 players.")),
        Rule(
            "TB-2",
            _("Building cards"),
            _("There are four kinds of building cards, 25 of each: camel, crane, ship and stonemason."),
        ),
        Rule(
            "TB-3",
            _("The wonders"),
            _(
                "Eight wonders, each with 3 disc spaces: the Pyramids of Giza, the Colossus of Rhodes, the Statue "
                "of Zeus, the Hanging Gardens, the Mausoleum of Halicarnassus, the Lighthouse of Alexandria, the "
                "Temple of Artemis and the Tower of Babel."
            ),
        ),
        Rule(
            "TB-4",
            _("Discs"),
            _(
                "24 discs of one kind, 6 of each kind, each demanding 3 to 6 cards of its kind. 4 discs demand "
                "cards of two kinds, for example 2 camels and 3 stonemasons."
            ),
        ),
        Rule(
            "TB-5",
            _("Pieces"),
            _(
                "Each player has 20 building parts (15 worth 1, 5 worth 3; one part marks the score), a column "
                "and a trading card. There are 15 action cards."
            ),
        ),
        Rule(
            "TB-6",
            _("Wonder scoring rows"),
            _(
                "A marker starts on the first row (8 points for the most parts, 4 for second) and moves down one "
                "row each time a wonder is scored; the values rise row by row (your edition may differ). "
                "Unfinished wonders score 10 and 5 at the end. Every other player with a part there scores 3."
            ),
        ),
        Rule(
            "TB-7",
            _("Disc sets"),
            _(
                "Discs of one kind score as a set: 1 disc scores nothing, 2 score 5, 4 score 20; the other "
                "values are on your scoring track (your edition may differ)."
            ),
        ),
        Rule(
            "TB-8",
            _("Dealing the discs"),
            _(
                "Shuffle the 24 discs of one kind and put 3 face up on each wonder. With the two-kind discs, "
                "first take out one disc worth 5 of each kind and add the 4 two-kind discs."
            ),
        ),
        Rule(
            "TB-9",
            _("Set-up"),
            _(
                "Each player takes 4 building cards, a trading card, a column and 20 parts. Shuffle both decks, "
                "put the scoring marker on the first row and choose a first player. Play goes clockwise."
            ),
        ),
        Rule("TB-10", _("Without action cards"), _("Knizia's variant: play without action cards.")),
        Rule("TB-11", _("Pass"), _("The active player draws 1 card, then every player, the active one too, draws 1.")),
        Rule(
            "TB-12",
            _("Build"),
            _(
                "The active player picks a disc on a wonder. Every other player secretly offers 0 up to as many "
                "cards of the demanded kind as the disc's number, and may add their trading card; all offers are "
                "shown at once. The active player makes no offer."
            ),
        ),
        Rule(
            "TB-13",
            _("Accepting offers"),
            _(
                "The active player accepts any offers, each whole, at most one with a trading card, and never "
                "more cards than the disc's number; then plays cards from hand to reach the number exactly (a "
                "Joker counts as 2 cards). The active player and each accepted player place one part per card "
                "they played, and the active player takes the disc. If an accepted offer had a trading card, "
                "that player takes the disc instead, and the active player places the parts for that player's "
                "cards."
            ),
            _("A Joker earns 2 parts, like the 2 cards it stands for."),
        ),
        Rule(
            "TB-14",
            _("Rejected offers"),
            _(
                "A player whose offer was not accepted scores 1 point per offered card (3 with a Triple bonus "
                "card) and takes the cards back. A trading card scores nothing."
            ),
            _(
                "An accepted offer was invited: if the build then fails, it scores 1 point per card, and its "
                "Triple bonus card stays in hand."
            ),
        ),
        Rule(
            "TB-15",
            _("Not fulfilled"),
            _(
                "If the active player cannot or will not reach the number, nothing is built, the disc stays, "
                "every offerer scores as for a rejected offer and every player draws 1 card."
            ),
        ),
        Rule(
            "TB-16",
            _("Double turn"),
            _("With this action card the active player takes a second turn; the draws of the first turn are skipped."),
        ),
        Rule(
            "TB-17",
            _("Scoring a wonder"),
            _(
                "When a wonder's third disc is fulfilled, it scores on the current row: most parts the first "
                "value, second most the second value, anyone else with a part 3. The marker moves down a row, "
                "the active player draws an action card and the parts go back to their owners."
            ),
        ),
        Rule(
            "TB-18",
            _("Ties"),
            _(
                "Tied for most parts: each tied player scores the second value, everyone else present 3. Tied "
                "for second: the leader scores the first value, everyone else present 3."
            ),
        ),
        Rule(
            "TB-19",
            _("End of the game"),
            _(
                "The game ends at once when the last disc of any kind is taken from the board. If that disc "
                "completed a wonder, the wonder scores first."
            ),
        ),
        Rule(
            "TB-20",
            _("Final scoring"),
            _(
                "Unfinished wonders score 10 and 5. Then each player scores their disc sets (a two-kind disc "
                "counts for one of its kinds, of its owner's choice), then their Building disc bonus and "
                "5 victory points cards."
            ),
        ),
        Rule("TB-21", _("Winner"), _("Most points wins."), _("Tied players share the place.")),
        Rule(
            "TB-22",
            _("Action cards"),
            _(
                "Card draw (draw 3), Card trade (swap up to 5 cards), Joker (2 cards of your choice), Building "
                "disc bonus (+1 point per disc), Triple bonus, Double turn and 5 victory points."
            ),
        ),
        Rule(
            "TB-23",
            _("Open points"),
            _("The rule book does not say what happens when the deck runs out, nor whether hands have a limit."),
            _(
                "When the deck runs out, shuffle the discards into a new deck. There is no hand limit. A trading "
                "card is only offered together with at least one card."
            ),
        ),
    ),
    BABEL_ON: (
        Rule(
            "BO-1",
            _("Players"),
            _("2 to 6 players. Each has a colour with 24 blocks and an architect."),
        ),
        Rule(
            "BO-2",
            _("Set-up"),
            _(
                "Put 2 blocks of your colour behind your architect (your bonus blocks) and your other 22 in the "
                "bag. With 2 or 3 players, also put the 24 blocks of one unused colour in the bag."
            ),
        ),
        Rule(
            "BO-3",
            _("Who goes first"),
            _("Everyone rolls; the highest goes first, and only the tied roll again. Play goes clockwise."),
        ),
        Rule(
            "BO-4",
            _("The die"),
            _("The rules speak of even and odd rolls."),
            _("An ordinary six-sided die."),
        ),
        Rule(
            "BO-5",
            _("A turn"),
            _(
                "Call even or odd, then roll. Even and right: draw that many blocks from the bag onto your "
                "tower. Odd and right: move that many blocks between towers, all off first, then all on. Then "
                "hand the die to the left."
            ),
            _(
                "The rule for a wrong call is cut off in the rule book: a wrong call is a miss and the turn "
                "passes. When the bag or the towers hold fewer blocks or places than the roll, as many as can "
                "be drawn or moved are, and the rest of the roll is lost."
            ),
        ),
        Rule(
            "BO-6",
            _("Bonus blocks"),
            _("You may use 1 or both of your bonus blocks on the same turn; a used bonus block is a normal block."),
            _(
                "The conditions for using them are cut off in the rule book: the active player may add 1 or 2 "
                "of their bonus blocks to their own tower during their turn."
            ),
        ),
        Rule(
            "BO-7",
            _("Tower structure"),
            _("Each floor is 2 by 2 blocks and a tower has 6 floors."),
            _("A block above the first floor sits on a block of the floor below, in the same place."),
        ),
        Rule(
            "BO-8",
            _("Safety"),
            _("At most 2 floors may be unfinished: add blocks only to the lowest unfinished floor and the one above."),
        ),
        Rule("BO-9", _("Order of a move"), _("In a move, take every block off before adding any.")),
        Rule(
            "BO-10",
            _("National colour"),
            _(
                "You may take a block of an opponent's colour from their tower only from its top floor, and only "
                "if that floor has no block of another colour."
            ),
        ),
        Rule(
            "BO-11",
            _("Protected floor"),
            _("A floor of 4 blocks of the tower owner's colour, and every floor below it, cannot lose blocks."),
        ),
        Rule(
            "BO-12",
            _("Knocking over"),
            _(
                "Knock a block off your own tower: your tower is destroyed, its blocks and the blocks you have "
                "not played yet go back in the bag, and if it is your turn, your turn ends. Knock a block off "
                "an opponent's tower: you are out, and your tower's blocks and your unplayed blocks go back in "
                "the bag. If someone knocks blocks off your tower, you put them back as you wish."
            ),
        ),
        Rule(
            "BO-13",
            _("Perfect tower"),
            _(
                "Complete (6 floors of 4) and: with 5 or 6 players, every floor has a block of your colour; with "
                "2 to 4, every floor has 2 of your blocks side by side. From floor 2 up, each floor has a block "
                "of your colour right above one of yours."
            ),
        ),
        Rule(
            "BO-14",
            _("Winning"),
            _(
                "At the end of a round, a player with a complete, perfect tower wins; if several, the first to "
                "finish. The last player not knocked out also wins."
            ),
        ),
    ),
    SEVEN_WONDERS: (
        Rule(
            "SW-1",
            _("Players"),
            _(
                "2 to 7 players, 8 with Cities. The board has a side for 2 to 4 players (3 tile spaces) and one "
                "for 5 to 8 (4 spaces). With 2 players only 2 tiles are used and the Free City takes no part."
            ),
        ),
        Rule(
            "SW-2",
            _("Tile draft"),
            _(
                "Deal 3 tiles to each player. Keep 1 and pass 2 to the right; keep 1 of the 2 you receive and "
                "pass the other; add the one you receive. Everyone holds 3 tiles."
            ),
        ),
        Rule(
            "SW-3",
            _("Great Project of the age"),
            _(
                "At the start of each age, draw a Great Project of that age and put markers on it: one fewer "
                "than the number of players, except 2 markers with 2 players and 6 with 8."
            ),
        ),
        Rule(
            "SW-4",
            _("Order"),
            _(
                "At the start of each age: leaders, then the Great Project, then the cards. At the end of each "
                "age: the Great Project first, then military conflicts."
            ),
        ),
        Rule(
            "SW-5",
            _("Building a tile"),
            _(
                "Discard the card you chose this turn to build a tile from your hand. Built tiles are revealed "
                "after everyone's action, in increasing number."
            ),
        ),
        Rule(
            "SW-6",
            _("Placing tiles"),
            _(
                "Tiles go clockwise from the marked space; when every space is used, a new tile covers the "
                "oldest one. A visible tile applies to everybody."
            ),
        ),
        Rule(
            "SW-7",
            _("Tile effects"),
            _(
                "Each tile changes a rule for everybody while it is visible: taxes, bonuses, cheaper or blocked "
                "cards, free resources, military tokens. Taxes and bonuses equal the age: 1, 2 or 3 coins. A "
                "price never goes below 0."
            ),
        ),
        Rule("SW-8", _("Tile points"), _("At the end, tiles you built score: 1 tile 2 points, 2 tiles 5, 3 tiles 10.")),
        Rule(
            "SW-9",
            _("Joining a Great Project"),
            _(
                "When you build a card of the project's colour (for free too), you may pay its participation "
                "cost as well and take a marker: once per turn at most, never with a wonder stage or a leader. "
                "When no marker is left on the card, nobody can join for the rest of the age, except players "
                "who join in the same turn as the one who took the last marker: they take one from the reserve."
            ),
        ),
        Rule(
            "SW-10",
            _("Great Project result"),
            _(
                "At the end of the age: if no marker is left, each participant gets the reward once per marker. "
                "Otherwise every player without a marker suffers the penalty; one who cannot takes a penalty "
                "token of the age: 1, 2 or 3 points off."
            ),
        ),
        Rule(
            "SW-11",
            _("The Great Projects"),
            _(
                "15 cards, 5 per age, each with a colour, a cost, a penalty and a reward (check them against "
                "your cards: your edition may differ)."
            ),
        ),
        Rule(
            "SW-12",
            _("Final scoring"),
            _(
                "Military, treasury (1 point per 3 coins), wonder, civilian, science, commercial and guilds, "
                "then the expansions you play: Leaders, Cities, Babel tiles and Great Projects."
            ),
        ),
        Rule(
            "SW-13",
            _("Science"),
            _(
                "Each symbol scores its count squared, plus 7 per set of three different symbols. Wild symbols "
                "count as whichever symbol scores most."
            ),
        ),
        Rule("SW-14", _("Winner"), _("Most points wins; if tied, most coins; if still tied, the place is shared.")),
    ),
    BABEL_CUBES: (
        Rule(
            "BC-1",
            _("Players and cubes"),
            _(
                "Two players. Each face of a cube has a bulge or an indent; a cube's type is its number of "
                "bulges, 0 to 4. Each player gets half of the 24 cubes."
            ),
        ),
        Rule(
            "BC-2",
            _("Cube shapes"),
            _(
                "On a type 2 cube the two bulges are side by side, on a type 3 they meet at a corner, on a "
                "type 4 the two indents are side by side (your set may differ)."
            ),
        ),
        Rule(
            "BC-3",
            _("Building"),
            _(
                "Players take turns, each placing one of their own cubes. Each level is 2 by 2 and must be "
                "complete before the next starts; at most 6 levels."
            ),
        ),
        Rule("BC-4", _("First cube"), _("The first cube may be any type except type 4.")),
        Rule(
            "BC-5",
            _("Outside"),
            _("Only indents may face outward: the outer sides, and the bottoms of the first level."),
        ),
        Rule(
            "BC-6",
            _("Inside"),
            _("Where two cubes touch, one bulge meets one indent: never two indents, never two bulges."),
        ),
        Rule(
            "BC-7",
            _("Second cube"),
            _("On the first level the second cube must touch the first, not sit diagonal to it."),
        ),
        Rule("BC-8", _("Top level"), _("On level 6 the upward faces may be bulges or indents.")),
        Rule(
            "BC-9",
            _("End"),
            _("A player who cannot place any of their cubes loses."),
            _("The rules do not say what happens when all 24 cubes are placed: the game is a draw."),
        ),
    ),
}

RULE_BY_ID = {rule.id: rule for rules in RULES.values() for rule in rules}

RULE_ID = re.compile(r"\b(TB|BO|SW|BC)-\d+\b")


def rule_link(rule_id: str) -> SafeString | None:
    """A link to the rule's text on its game's rules page, named by its title; None for an id
    that has no text."""
    rule = RULE_BY_ID.get(rule_id)
    if rule is None:
        return None
    url = reverse("rules", args=[GAME_OF_PREFIX[rule_id[:2]]])
    return format_html('<a href="{}#{}" title="{}">{}</a>', url, rule_id, rule.title, rule_id)


def link_rule_ids(message: object) -> SafeString:
    """``message`` escaped (unless already safe), with every rule id in it a link to its text."""
    escaped = str(conditional_escape(message if isinstance(message, SafeData) else str(message)))
    # An id holds no character that escaping changes, so it reads the same in the escaped text.
    return mark_safe(RULE_ID.sub(lambda m: rule_link(m.group(0)) or m.group(0), escaped))


@dataclass(frozen=True)
class Note:
    """A line of "About these rules": where the rules come from, what they leave open and what
    the app does about it, said once here rather than on the players' screens. ``unverified``
    explains the mark of values no printed source confirms (None for a note without one)."""

    text: str
    unverified: str | None = None


def about_these_rules(game: str) -> list[Note]:
    """The notes of a game's rules page and of its group edition page, in the reader's language."""
    if game == TOWER_OF_BABEL:
        return [
            Note(
                gettext(
                    "These rules follow an Italian translation of the German rule book (Der Turmbau zu Babel, "
                    "Hans im Glück 2005), checked against the English rules."
                )
            ),
            Note(
                gettext(
                    "Some printed values were not available, so the app uses its best guess. A group's owner "
                    "can enter the values of the group's own box on the group's edition page."
                )
            ),
            Note(
                gettext("Values marked unverified: %(values)s.") % {"values": "; ".join(tower_values_unverified())},
                unverified=gettext("Not verified against a printed board; your group can change it."),
            ),
        ]
    if game == BABEL_ON:
        return [
            Note(gettext("These rules come from the game's store page, whose text is cut in two places.")),
            Note(
                gettext(
                    "The rule for a wrong call stops at “If you guessed wrong, you may either …” (BO-5), and the "
                    "conditions for using bonus blocks are cut too (BO-6): the app's decisions are with those rules."
                )
            ),
        ]
    if game == SEVEN_WONDERS:
        return [
            Note(
                gettext("These rules follow the expansion's French rule book, checked against the English rule book.")
            ),
            Note(
                gettext(
                    "Card texts come from a single fan source. A group's owner can correct a card on its "
                    "edition page (SW-7, SW-11)."
                ),
                unverified=gettext("Not checked against the printed cards; your group can correct a card."),
            ),
            Note(
                gettext(
                    "The app counts each age's turns from the first: a player who joined the Great Project "
                    "in a turn is refused a second marker until someone says the turn is over."
                )
                + " (SW-9)"
            ),
            Note(
                gettext(
                    "The app does not count coins: the table adds Bérénice's gain on the rewards of Babel tiles "
                    "and Great Projects (SW-10)."
                )
            ),
        ]
    if game == BABEL_CUBES:
        layouts = {key: in_a_sentence(data_text(LAYOUT_NAMES[value])) for key, value in cube_layouts().items()}
        return [
            Note(
                gettext(
                    "Cube layouts are inferred, as the rule sheet's figures are missing (BC-2): type 2 bulges "
                    "%(type2)s, type 3 bulges %(type3)s."
                )
                % {"type2": layouts["type2"], "type3": layouts["type3"]}
                + " "
                + gettext("A session can choose the other layouts when it is set up."),
                unverified=gettext("Inferred from the rules, not seen on a real cube."),
            )
        ]
    return []


def tower_values_unverified() -> list[str]:
    """Tower of Babel's values no rule book confirms, with the app's defaults (TB-4, TB-6, TB-7)."""
    table = load_table().as_json()
    marks = unverified()
    notes = []
    if marks["single_disc_numbers"]:
        numbers = ", ".join(str(n) for n in table["single_disc_numbers"])
        notes.append(gettext("cards demanded by the single discs (%(numbers)s)") % {"numbers": numbers})
    bonus = marks["set_bonus"]
    if isinstance(bonus, list) and bonus:
        values = ", ".join(f"{count}→{table['set_bonus'][count]}" for count in bonus)
        notes.append(gettext("disc-set bonus for %(values)s") % {"values": values})
    rows = marks["rows"]
    if isinstance(rows, list) and rows:
        values = ", ".join(f"{table['rows'][i][0]}/{table['rows'][i][1]}" for i in rows)
        notes.append(
            gettext("scoring rows %(first)d to %(last)d (%(values)s)")
            % {"first": rows[0] + 1, "last": rows[-1] + 1, "values": values}
        )
    if marks["two_kind_discs"]:
        notes.append(gettext("three of the four two-kind discs"))
    return notes
