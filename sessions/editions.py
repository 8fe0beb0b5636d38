"""A group's edition page: the values of a game's components it may correct, each marked by
how it is known, and the posted form read back as corrections.

Three markings (``scoring/data``): **verified** (the rule text states it: shown, locked),
**unverified** (the app's best guess) and **outside the seed** (the publisher's components
or rulebook, not in the rule text we have). A group's owner corrects the last two to match
its box; where a value comes from outside the seed, the page says where it comes from (the
play screens never do: players see the group's values as the game's).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from scoring.seven_wonders.data import tiles_outside_seed
from scoring.tower_of_babel.table import CORRECTABLE, OUTSIDE_SEED, UNVERIFIED, load_table, marking_at, raw_data
from sessions.boards import seven_wonders
from sessions.boards.tower_of_babel import KIND_NAMES
from sessions.games import BABEL_ON, SEVEN_WONDERS, TOWER_OF_BABEL
from sessions.numbers import whole_or_text

ENTRY_NAMES = {
    "min_players": _("Players"),
    "single_disc_range": _("Single discs: the fewest and most cards a disc demands"),
    "single_disc_numbers": _("Single discs: cards demanded"),
    "two_kind_discs": _("Two-kind discs: cards demanded"),
    "rows": _("Wonder scoring rows (first / second)"),
    "set_bonus": _("Disc-set bonus by number of discs"),
}
ACTION_CARD_NAMES = {
    "card_draw": _("Card draw"),
    "card_trade": _("Card trade"),
    "joker": _("Joker"),
    "building_disc_bonus": _("Building disc bonus"),
    "triple_bonus": _("Triple bonus"),
    "double_turn": _("Double turn"),
    "five_points": _("5 victory points"),
}
# A scoring row's two values (TB-6): for the most parts on the wonder, and the second most.
ROW_PLACES = [_("Row %(row)s: most parts"), _("Row %(row)s: second most parts")]
# Where a value from outside the seed comes from, said once per entry on the edition page.
FROM_THE_PUBLISHER = _("From the publisher's components, not in the rule text we have.")


# --- Tower of Babel ----------------------------------------------------------------------


def tower_of_babel_rows(overrides: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """Every correctable value as a labelled field, marked verified (locked), unverified or
    outside the seed; an entry with a value from outside the seed says where it comes from."""
    current = load_table(overrides, edition_rules=False).entries()  # a table saved before a check still shows
    default = load_table().entries()
    sections = []
    for name in CORRECTABLE:
        fields = [
            {"path": path, "label": label, "value": leaf, "marking": marking_at(name, index)}
            for index, path, label, leaf in _leaves(name, current[name])
        ]
        section: dict[str, Any] = {"name": _entry_name(name), "rule": raw_data()[name]["rule"], "fields": fields}
        if any(field["marking"] == OUTSIDE_SEED for field in fields):
            section["provenance"] = _provenance(name, default[name])
        if name == "min_players" and current[name] < default[name]:
            fields[0]["house_rule"] = True  # TB-1: fewer players than the box says
        sections.append(section)
    return sections


def tower_of_babel_overrides(data: QueryDict) -> dict[str, Any]:
    """The posted table as corrections of the data file (only entries that differ)."""
    defaults = load_table().entries()
    overrides: dict[str, Any] = {}
    for name in CORRECTABLE:
        value = defaults[name]
        entry: Any
        if isinstance(value, int):
            entry = _typed(data, name, value)
        elif isinstance(value, dict):
            entry = {key: _typed(data, f"{name}.{key}", n) for key, n in value.items()}
        else:
            entry = []
            for index, item in enumerate(value):
                if isinstance(item, dict):
                    entry.append({kind: _typed(data, f"{name}.{index}.{kind}", n) for kind, n in item.items()})
                elif isinstance(item, list):
                    entry.append([_typed(data, f"{name}.{index}.{j}", n) for j, n in enumerate(item)])
                else:
                    entry.append(_typed(data, f"{name}.{index}", item))
        if entry != value:
            overrides[name] = entry
    return overrides


def _typed(data: QueryDict, path: str, default: int) -> int | str:
    """A posted number (the default when the field was not posted: a locked one); what is not
    a number goes to the engine as typed, to be refused there by name."""
    raw = data.get(path)
    if raw is None:
        return default
    return 0 if raw.strip() == "" else whole_or_text(raw)


def _entry_name(name: str) -> str:
    """An entry's heading; the verified totals the corrected numbers add up to (TB-5, TB-22)."""
    if name == "parts_per_player":
        count = raw_data()["parts_count"]["value"]
        return gettext("Building parts of each player, by value (%(count)s in all)") % {"count": count}
    if name == "action_cards":
        count = raw_data()["action_card_count"]["value"]
        return gettext("Action cards in the deck (%(count)s in all)") % {"count": count}
    return str(ENTRY_NAMES[name])


def _provenance(name: str, default: Any) -> str:
    """Where an entry's values from outside the seed come from (TB-1, TB-4, TB-5, TB-22)."""
    if name == "min_players":  # TB-1: fewer is a house rule
        return " ".join(
            [
                gettext("From the publisher's box and rulebook, not in the rule text we have."),
                ngettext(
                    "Fewer than %(count)s player is a house rule.",
                    "Fewer than %(count)s players is a house rule.",
                    default,
                )
                % {"count": default},
            ]
        )
    if name == "two_kind_discs":  # TB-4: only the first is the publisher's
        return gettext(
            "Disc 1 is from the publisher's components, not in the rule text we have; the others are unverified."
        )
    return str(FROM_THE_PUBLISHER)


def _leaves(name: str, value: Any) -> list[tuple[int, str, str, int]]:
    """(position, path, label, value) of each value of an entry, labelled in a player's words."""
    if name == "min_players":
        return [(0, name, gettext("Fewest players"), value)]
    if name == "single_disc_range":
        return [
            (0, f"{name}.0", gettext("Fewest cards"), value[0]),
            (1, f"{name}.1", gettext("Most cards"), value[1]),
        ]
    if name == "parts_per_player":
        return [
            (index, f"{name}.{key}", gettext("Parts worth %(value)s") % {"value": key}, count)
            for index, (key, count) in enumerate(value.items())
        ]
    if name == "action_cards":
        return [
            (index, f"{name}.{key}", str(ACTION_CARD_NAMES[key]), count)
            for index, (key, count) in enumerate(value.items())
        ]
    leaves = []
    for index, item in enumerate(value):
        if isinstance(item, dict):  # a two-kind disc: cards of each kind
            label = gettext("Disc %(number)s: %(kind)s")
            leaves += [
                (index, f"{name}.{index}.{kind}", label % {"number": index + 1, "kind": KIND_NAMES[kind]}, n)
                for kind, n in item.items()
            ]
        elif isinstance(item, list):  # a scoring row
            leaves += [
                (index, f"{name}.{index}.{j}", str(ROW_PLACES[j] % {"row": index + 1}), n) for j, n in enumerate(item)
            ]
        elif name == "set_bonus":  # points for a set of ``index`` discs of one kind
            label = ngettext("A set of %(count)s disc", "A set of %(count)s discs", index) % {"count": index}
            leaves.append((index, f"{name}.{index}", label, item))
        else:
            leaves.append((index, f"{name}.{index}", gettext("Disc %(number)s") % {"number": index + 1}, item))
    return leaves


# --- 7 Wonders: Babel ----------------------------------------------------------------------


def seven_wonders_rows(overrides: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The card texts a group may correct (all single-source), the tiles whose one-by-one
    assignment is from outside the seed marked so, with where it comes from (SW-7)."""
    sections = seven_wonders.edition_rows(dict(overrides) if overrides else None)
    outside = {f"tile.{number}" for number in tiles_outside_seed()}
    for section in sections:
        for field in section["fields"]:
            field["marking"] = OUTSIDE_SEED if field["path"] in outside else UNVERIFIED
        if any(field["marking"] == OUTSIDE_SEED for field in section["fields"]):
            numbers = sorted(tiles_outside_seed())
            section["provenance"] = gettext(
                "Tiles %(numbers)s and %(last)s: the rule text we have groups them (taxes; no resource cost) but "
                "does not say which tile is which, so the app follows a fan source. Correct any tile where your "
                "box says otherwise."
            ) % {"numbers": ", ".join(str(n) for n in numbers[:-1]), "last": numbers[-1]}
    return sections


Rows = Callable[[Mapping[str, Any] | None], list[dict[str, Any]]]
Overrides = Callable[[QueryDict], dict[str, Any]]

# --- Babel On!: the group's house rules ----------------------------------------------------

HOUSE_RULE = "house_rule"  # a field's marking: what the table agreed, not a printed value
WRONG_CALL_NAMES = {
    "miss": _("A miss: the die goes to the left (the app's decision)"),
    "draw": _("Draw one block from the bag onto your own tower"),
    "take_off": _("Take one block off your own tower"),
}


def babel_on_rows(overrides: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The house rule for a wrong call (BO-5), whose rule text is cut off."""
    chosen = (overrides or {}).get("wrong_call", "miss")
    return [
        {
            "name": _("A wrong call"),
            "rule": "BO-5",
            "provenance": gettext(
                "The rule book's text for a wrong call is cut off (“If you guessed wrong, you may either …”): "
                "the app counts a wrong call as a miss. If your table plays a house rule for it, choose it here: "
                "after a wrong call, the player's phone then offers it, or a pass."
            ),
            "fields": [
                {
                    "path": "wrong_call",
                    "label": _("A wrong call gives"),
                    "value": chosen,
                    "kind": "choice",
                    "choices": list(WRONG_CALL_NAMES.items()),
                    "marking": HOUSE_RULE,
                }
            ],
        }
    ]


def babel_on_overrides(data: QueryDict) -> dict[str, Any]:
    """The chosen house rule; none for the app's decision (a miss)."""
    rule = data.get("wrong_call", "miss")
    return {} if rule == "miss" else {"wrong_call": rule}


# The edition page of each game that has one: its fields, and the posted form read back.
EDITIONS: dict[str, tuple[Rows, Overrides]] = {
    TOWER_OF_BABEL: (tower_of_babel_rows, tower_of_babel_overrides),
    SEVEN_WONDERS: (seven_wonders_rows, seven_wonders.edition_overrides),
    BABEL_ON: (babel_on_rows, babel_on_overrides),
}
