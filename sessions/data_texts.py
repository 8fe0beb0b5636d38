"""The texts of the game data files (``scoring/data/*.json``) that players read, in their language.

``scoring/`` knows no Django and its data stays English: the API serves it as it is. This
module marks every data text a page, a phone or a rule message shows, one line a text, so
that ``makemessages`` extracts it, and ``data_text`` shows one in the reader's language.
A name that could read as something else carries a context. Proper names are marked too:
the translator decides whether they change. ``tests/test_data_texts.py`` walks the data
files and fails on a shown text that is not marked here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_noop, pgettext, pgettext_lazy

# The context of a Great Project's name (7 Wonders Babel, SW-11).
GREAT_PROJECT = "Great Project"
# The context of a game's title (``sessions/games.py``): "Tower of Babel" is also a wonder
# and a 7 Wonders module, each with its own translation.
GAME_TITLE = "game title"

# 7 Wonders Babel: the Tower of Babel tiles' effects (SW-7).
TILE_EFFECTS = (
    gettext_noop("tax on red cards"),
    gettext_noop("red cards ignore resource costs"),
    gettext_noop("double and mixed brown cards unusable"),
    gettext_noop("East/West Trading Post, Marketplace, Caravansery and Forum effects unusable"),
    gettext_noop("bonus for blue cards"),
    gettext_noop("tax on blue cards"),
    gettext_noop("chain from either neighbour's buildings"),
    gettext_noop("blue cards cost coins (1 per resource) instead of resources"),
    gettext_noop("neighbour grey goods -1"),
    gettext_noop("neighbour grey goods +1"),
    gettext_noop("neighbour raw materials -1"),
    gettext_noop("neighbour raw materials +1"),
    gettext_noop("tax on chain builds"),
    gettext_noop("bonus on chain builds"),
    gettext_noop("wonder stages ignore resource costs"),
    gettext_noop("tax on wonder stages"),
    gettext_noop("free wood or stone each turn"),
    gettext_noop("free ore or clay each turn"),
    gettext_noop("military victory tokens drop a step (1->0, 3->1, 5->3)"),
    gettext_noop("single brown cards produce unlimited resource"),
    gettext_noop("free glass, textile or papyrus each turn"),
    gettext_noop("each defeat gives 2 defeat tokens"),
    gettext_noop("guilds cost coins (1 per resource) instead of resources"),
    gettext_noop("+5 coins when building a guild"),
)

# 7 Wonders Babel: the Great Projects' names, costs, penalties and rewards (SW-11).
PROJECT_NAMES = (
    pgettext_lazy("Great Project", "Belvedere"),
    pgettext_lazy("Great Project", "Cranes"),
    pgettext_lazy("Great Project", "Double Walls"),
    pgettext_lazy("Great Project", "Factory"),
    pgettext_lazy("Great Project", "Rampart Road"),
    pgettext_lazy("Great Project", "Obelisk"),
    pgettext_lazy("Great Project", "River Port"),
    pgettext_lazy("Great Project", "Sewer Network"),
    pgettext_lazy("Great Project", "Smelter"),
    pgettext_lazy("Great Project", "War Mirror"),
    pgettext_lazy("Great Project", "Archives"),
    pgettext_lazy("Great Project", "Giant Trebuchet"),
    pgettext_lazy("Great Project", "Grand Bazaar"),
    pgettext_lazy("Great Project", "Menagerie"),
    pgettext_lazy("Great Project", "Triumphal Arches"),
)
PROJECT_TEXTS = (
    gettext_noop("1 coin"),
    gettext_noop("2 coins"),
    gettext_noop("4 coins"),
    gettext_noop("5 coins"),
    gettext_noop("1 coin + clay"),
    gettext_noop("1 coin + stone"),
    gettext_noop("1 coin + papyrus"),
    gettext_noop("1 coin + textile"),
    gettext_noop("2 coins + glass"),
    gettext_noop("5 coins + wood"),
    gettext_noop("4 coins + ore"),
    gettext_noop("discard a red card"),
    gettext_noop("discard a brown card"),
    gettext_noop("discard a grey card"),
    gettext_noop("discard a blue card"),
    gettext_noop("discard a green card"),
    gettext_noop("discard all coins"),
    gettext_noop("lose your wonder's starting resource"),
    gettext_noop("discard 2 victory tokens of your choice"),
    gettext_noop("free wonder stage token"),
    gettext_noop("build a card for free token"),
    gettext_noop("join the next project regardless of colour token"),
    gettext_noop("1 shield token"),
    gettext_noop("double shield token"),
    gettext_noop("+1 VP military victory token"),
    gettext_noop("+3 VP military victory token"),
    gettext_noop("+5 VP military victory token"),
    gettext_noop("6 coins"),
    gettext_noop("12 coins"),
    gettext_noop("+1 VP per wonder stage built, at the end"),
    gettext_noop("+3 VP per set of 3 different science symbols"),
    gettext_noop("+1 VP per guild you and your two neighbours have"),
)

# Colours: of the 7 Wonders cards, of the Babel On! blocks, of the babel cubes.
COLOURS = (
    gettext_noop("red"),
    gettext_noop("blue"),
    gettext_noop("green"),
    gettext_noop("yellow"),
    gettext_noop("purple"),
    gettext_noop("orange"),
    gettext_noop("brown"),
    gettext_noop("grey"),
    gettext_noop("white"),
    gettext_noop("black"),
    gettext_noop("beige"),
)

# Tower of Babel: the card kinds (TB-2) and the wonders, named by their id in the data (TB-3).
KINDS = (
    gettext_noop("camel"),
    gettext_noop("crane"),
    gettext_noop("ship"),
    gettext_noop("stonemason"),
)
WONDER_NAMES = {
    "pyramids": gettext_noop("Pyramids of Giza"),
    "colossus": gettext_noop("Colossus of Rhodes"),
    "zeus": gettext_noop("Statue of Zeus"),
    "gardens": gettext_noop("Hanging Gardens"),
    "mausoleum": gettext_noop("Mausoleum of Halicarnassus"),
    "lighthouse": gettext_noop("Lighthouse of Alexandria"),
    "artemis": gettext_noop("Temple of Artemis"),
    "babel": gettext_noop("Tower of Babel"),
}

# Babel On!: a floor's four cells by their id (BO-7).
CELL_NAMES = {
    "nw": gettext_noop("north-west"),
    "ne": gettext_noop("north-east"),
    "sw": gettext_noop("south-west"),
    "se": gettext_noop("south-east"),
}

# babel (the cube game): a cube's faces (BC-1) and the layouts a session chooses (BC-2).
FACE_NAMES = {
    "up": gettext_noop("top"),
    "down": gettext_noop("bottom"),
    "north": gettext_noop("north"),
    "south": gettext_noop("south"),
    "east": gettext_noop("east"),
    "west": gettext_noop("west"),
}
LAYOUT_NAMES = {
    "fixed": gettext_noop("One layout only"),
    "adjacent": gettext_noop("On adjacent faces"),
    "opposite": gettext_noop("On opposite faces"),
    "corner": gettext_noop("Meeting at one corner"),
    "u": gettext_noop("In a U shape"),
}


def data_text(text: str, context: str = "") -> str:
    """A data text in the reader's language (as it is where no translation exists)."""
    return pgettext(context, text) if context else gettext(text)


data_text_lazy = lazy(data_text, str)


def in_a_sentence(label: str) -> str:
    """A label ("On adjacent faces") as it reads inside a sentence: its first letter in lower
    case, the rest as it is (German keeps its nouns capitalised: "auf benachbarten Seiten")."""
    return label[:1].lower() + label[1:]


def named(names: Mapping[str, str], key: str) -> str:
    """What the data calls ``key`` (a wonder, a cell, ...) in the reader's language; an
    unknown key as it is."""
    return data_text(names[key]) if key in names else key


# Rule messages whose parameters are data texts, and how to show each (a list is joined
# with ", "). Other parameters (player names, numbers, what was typed) stay as they are.
_SHOWN: dict[str, Callable[[str], str]] = {
    "kind": data_text,
    "colours": data_text,
    "cells": lambda cell: named(CELL_NAMES, cell),
    "face": lambda face: named(FACE_NAMES, face),
    "choices": lambda layout: named(LAYOUT_NAMES, layout),
    "project": lambda name: data_text(name, GREAT_PROJECT),
    "game": lambda title: data_text(title, GAME_TITLE),
}
DATA_PARAMS: dict[str, dict[str, str]] = {
    "This disc does not demand {kind}.": {"kind": "kind"},
    "Choose one of the colours: {colours}.": {"colours": "colours"},
    "A cell is one of {cells}.": {"cells": "cells"},
    "Every contact pairs one bulge with one indent: check the {face} face.": {"face": "face"},
    "Choose one of {choices}.": {"choices": "choices"},
    "{name} is a project of age {age}.": {"name": "project"},
    "{game} is played by exactly {low} players.": {"game": "game"},
    "{game} is played by {low} to {high} players.": {"game": "game"},
}


def shown_params(template: str, params: Mapping[str, object]) -> dict[str, object]:
    """A rule message's parameters, the data texts among them in the reader's language."""
    shown = dict(params)
    for key, how in DATA_PARAMS.get(template, {}).items():
        value = shown.get(key)
        if isinstance(value, str):
            shown[key] = ", ".join(_SHOWN[how](part) for part in value.split(", "))
    return shown
