"""The games registry: the one place that lists the four games.

Each entry gives the player counts (with the rule id that sets them), the options a
session can choose, the seat colours on offer, and the rules the session core uses: the
final-score entry every game has, plus the game's own engine from ``scoring/`` once its
play-by-play tracker exists (``engine=None`` until then). A game issue plugs its engine in
here and touches nothing else of the backbone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

from scoring.babel_cubes.engine import BabelCubes
from scoring.babel_cubes.geometry import default_choice as cube_layouts
from scoring.babel_on.engine import BabelOn, check_house_rules
from scoring.engine import Engine
from scoring.errors import RuleError, gettext_noop
from scoring.score_entry import ScoreEntry
from scoring.session import Rules
from scoring.seven_wonders.data import check_corrections
from scoring.seven_wonders.engine import SevenWonders
from scoring.tower_of_babel.engine import TowerOfBabel
from scoring.tower_of_babel.table import load_table, raw_data
from sessions.data_texts import GAME_TITLE, LAYOUT_NAMES, data_text_lazy


@dataclass(frozen=True)
class Option:
    """A session option: a switch (no ``choices``) or one of several values."""

    name: str
    label: StrOrPromise
    default: Any
    choices: tuple[tuple[str, StrOrPromise], ...] = ()

    def clean(self, raw: Any) -> Any:
        if raw is None:
            return self.default
        if not self.choices:
            if not isinstance(raw, bool):
                raise RuleError(gettext_noop("Choose yes or no."), field=f"options.{self.name}")
            return raw
        # Compared by type too: a list or an object (unhashable) or True (== 1) is no choice.
        if not any(type(raw) is type(value) and raw == value for value, _label in self.choices):
            raise RuleError(gettext_noop("Choose one of the listed values."), field=f"options.{self.name}")
        return raw


@dataclass(frozen=True)
class Game:
    slug: str
    # The English title, as the engines' messages, the exports and BG Stats know the game;
    # ``name`` shows the title of the reader's language edition.
    english_name: str
    min_players: int
    max_players: int
    player_rule: str
    entry: ScoreEntry = field(default_factory=ScoreEntry)
    engine: Engine | None = None
    options: tuple[Option, ...] = ()
    colours: tuple[str, ...] = ()
    tiebreak_label: StrOrPromise | None = None
    # Checks a group's overrides of the game's unverified component values (raises
    # RuleError); None for a game without such values.
    edition_table: Callable[[Mapping[str, Any]], object] | None = None
    # The fewest players a group's edition table lets start (TB-1: a group may allow fewer than
    # the box says, a house rule); None where a group cannot change it.
    table_min_players: Callable[[Mapping[str, Any] | None], int] | None = None
    # Whether ``min_players`` is a group's house rule, below the rules' (see ``for_table``).
    house_rule_players: bool = False
    # Rule decisions taken after sessions were stored, as options every new session carries
    # (not chosen by the table): an older session's log, without them, replays as it was played.
    decisions: Mapping[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> StrOrPromise:
        """The title as printed on the reader's language edition (see ``TITLES``)."""
        return TITLES[self.slug]

    @property
    def rules(self) -> Rules:
        return Rules(entry=self.entry, engine=self.engine)

    def clean_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        known = {option.name for option in self.options}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise RuleError(gettext_noop("This game has no such option."), field=f"options.{unknown[0]}")
        return {option.name: option.clean(raw.get(option.name)) for option in self.options}

    def for_table(self, table: Mapping[str, Any] | None) -> Game:
        """The game as a group with this edition table (its stored corrections) plays it: the
        fewest players it allows, marked a house rule when below the rules'."""
        if self.table_min_players is None:
            return self
        fewest = self.table_min_players(table)
        return replace(self, min_players=fewest, house_rule_players=fewest < self.table_min_players(None))

    def allows(self, count: int, options: Mapping[str, Any]) -> bool:
        """Whether ``count`` players may play with these options."""
        try:
            self.check_player_count(count, options)
        except RuleError:
            return False
        return True

    def default_colours(self, remembered: Sequence[str | None], given: Sequence[str] = ()) -> list[str]:
        """A colour per seat: the one given for it (``given`` may stop short of the seats; an
        empty one is no colour), else the one remembered for its player unless a given colour or
        an earlier seat has it, else the first one nobody has (never two seats alike while
        colours last)."""
        fixed = len(given)
        chosen = [*given, *[""] * (len(remembered) - fixed)]
        for index in range(fixed, len(remembered)):
            colour = remembered[index]
            if colour in self.colours and colour not in chosen:
                chosen[index] = colour
        free = iter([c for c in self.colours if c not in chosen])
        return chosen[:fixed] + [colour or next(free, "") for colour in chosen[fixed:]]

    def check_player_count(self, count: int, options: Mapping[str, Any]) -> None:
        """Refuse a count the rules do not allow; with the session's edition table in the
        options (``options["table"]``), the one that table allows (TB-1)."""
        game = self.for_table(options["table"]) if "table" in options else self
        low, high = game.min_players, game.max_players
        if self.slug == SEVEN_WONDERS and not options.get("cities"):
            high -= 1  # SW-1: the eighth player needs the Cities expansion.
        if not low <= count <= high:
            if low == high:
                message = gettext_noop("{game} is played by exactly {low} players.")
            else:
                message = gettext_noop("{game} is played by {low} to {high} players.")
            raise RuleError(
                message,
                field="seats",
                rule=self.player_rule,
                params={"game": self.english_name, "low": low, "high": high},
            )


COLOUR_NAMES = {
    "red": _("red"),
    "yellow": _("yellow"),
    "green": _("green"),
    "blue": _("blue"),
    "black": _("black"),
    "purple": _("purple"),
    "orange": _("orange"),
    "light": _("light"),
    "dark": _("dark"),
}


def _layouts(*keys: str) -> tuple[tuple[str, StrOrPromise], ...]:
    """A cube type's layouts to choose from, named as ``sessions/data_texts.py`` marks them."""
    return tuple((key, data_text_lazy(LAYOUT_NAMES[key])) for key in keys)


TOWER_OF_BABEL, BABEL_ON, SEVEN_WONDERS, BABEL_CUBES = "tower-of-babel", "babel-on", "seven-wonders", "babel-cubes"

# Each game's title as printed on its edition in the reader's language; where no edition in
# that language is known, the English title stays (the translations say so case by case):
# - Tower of Babel: German "Der Turmbau zu Babel" (Hans im Glück 2005, the original). The
#   Italian rules (seed 000, a translation of the German rule book) keep that title; no French
#   edition is known, so French keeps "Tower of Babel" (Rio Grande Games' English edition).
# - Babel On!: one English print-on-demand edition (seed 001).
# - 7 Wonders: Babel: Repos Production prints "7 Wonders: Babel" on every edition (the
#   French rule book, seed 002, names its modules "Tour de Babel" and "Grands Projets").
# - babel (cuboro, Matthias Etter): the multilingual sheet (seed 003) says "babel" in every
#   language.
TITLES: dict[str, StrOrPromise] = {
    TOWER_OF_BABEL: pgettext_lazy(GAME_TITLE, "Tower of Babel"),
    BABEL_ON: pgettext_lazy(GAME_TITLE, "Babel On!"),
    SEVEN_WONDERS: pgettext_lazy(GAME_TITLE, "7 Wonders: Babel"),
    BABEL_CUBES: pgettext_lazy(GAME_TITLE, "babel"),
}

GAMES: dict[str, Game] = {
    game.slug: game
    for game in [
        Game(
            slug=TOWER_OF_BABEL,
            english_name="Tower of Babel",
            # TB-1: 3 from the publisher's box (outside the seed), 5 from seed 000's components.
            min_players=raw_data()["min_players"]["value"],
            max_players=raw_data()["max_players"]["value"],
            player_rule="TB-1",
            entry=ScoreEntry(rule="TB-21"),
            engine=TowerOfBabel(),
            edition_table=load_table,
            table_min_players=lambda table: load_table(table, edition_rules=False).min_players,
            options=(
                Option("two_kind_discs", _("Two-kind discs variant"), False),
                Option("action_cards", _("Play with action cards"), True),
            ),
            colours=("red", "yellow", "green", "blue", "black"),
        ),
        Game(
            slug=BABEL_ON,
            english_name="Babel On!",
            min_players=2,
            max_players=6,
            player_rule="BO-1",
            engine=BabelOn(),
            colours=("red", "blue", "green", "yellow", "purple", "orange"),
            # BO-5: a wrong call is a miss and the turn passes, unless the group's house rules
            # (its edition table) give one block drawn or taken off.
            decisions={"wrong_call": "miss"},
            edition_table=check_house_rules,
        ),
        Game(
            slug=SEVEN_WONDERS,
            english_name="7 Wonders: Babel",
            min_players=2,
            max_players=8,
            player_rule="SW-1",
            entry=ScoreEntry(tiebreak="coins", rule="SW-14"),
            engine=SevenWonders(),
            edition_table=check_corrections,
            # SW-9: one participation per player per turn, the age's turns counted from the first.
            decisions={"turns_counted": True},
            tiebreak_label=_("coins"),
            options=(
                Option("tower_tiles", _("Tower of Babel tiles"), True),
                Option("great_projects", _("Great Projects"), True),
                Option("leaders", _("Leaders expansion"), False),
                Option("cities", _("Cities expansion"), False),
            ),
        ),
        Game(
            slug=BABEL_CUBES,
            english_name="babel",
            min_players=2,
            max_players=2,
            player_rule="BC-1",
            engine=BabelCubes(),
            options=(
                Option(
                    "type2",
                    _("Type 2 cube bulges"),
                    cube_layouts()["type2"],
                    choices=_layouts("adjacent", "opposite"),
                ),
                Option(
                    "type3",
                    _("Type 3 cube bulges"),
                    cube_layouts()["type3"],
                    choices=_layouts("corner", "u"),
                ),
            ),
            colours=("light", "dark"),
        ),
    ]
}


def game_name(slug: str) -> str:
    """A game's title in the reader's language; an unknown game (an imported one) as stored."""
    return str(GAMES[slug].name) if slug in GAMES else slug


def get_game(slug: str) -> Game:
    try:
        return GAMES[slug]
    except KeyError:
        raise RuleError(gettext_noop("Unknown game."), field="game") from None
