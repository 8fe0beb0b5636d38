"""The game data's texts (``scoring/data/*.json``) read in the player's language on pages,
phones and rule messages; the API keeps them in English; a group's corrected card text shows
as the group typed it."""

import ast
import datetime
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.html import escape
from rest_framework.test import APIClient

from scoring.errors import RuleError
from sessions import data_texts, services
from sessions.data_texts import GREAT_PROJECT, data_text, shown_params
from sessions.rule_messages import describe
from tests.conftest import seated_phones

DATA = settings.BASE_DIR / "scoring" / "data"
EDITION = "/g/{}/tables/seven-wonders/"


def marked() -> set[tuple[str, str]]:
    """(context, text) of every text ``sessions/data_texts.py`` marks, as makemessages reads them."""
    tree = ast.parse(Path(data_texts.__file__).read_text())
    found: set[tuple[str, str]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            literals = [str(arg.value) for arg in node.args if isinstance(arg, ast.Constant)]
            if node.func.id == "gettext_noop":
                found.add(("", literals[0]))
            elif node.func.id == "pgettext_lazy":
                found.add((literals[0], literals[1]))
    return found


def named(names: dict[str, str], key: str) -> str:
    return names.get(key, f"<{key} has no name in sessions/data_texts.py>")


def shown_texts() -> Iterator[tuple[str, str, str]]:
    """(where in the data, context, English text) of every data text a player reads."""
    sw = json.loads((DATA / "seven_wonders_babel.json").read_text())
    for number, effect in sw["tiles"]["value"].items():
        yield f"seven_wonders_babel tile {number}", "", effect
    for card in sw["projects"]["value"]:
        where = f"seven_wonders_babel project {card['slug']}"
        yield where, GREAT_PROJECT, card["name"]
        for key in ("colour", "cost", "penalty"):
            yield f"{where} {key}", "", card[key]
        yield f"{where} reward", "", card["reward"]["text"]
    tob = json.loads((DATA / "tower_of_babel.json").read_text())
    for kind in tob["kinds"]["value"]:
        yield "tower_of_babel kind", "", kind
    for wonder in tob["wonders"]["value"]:
        yield f"tower_of_babel wonder {wonder}", "", named(data_texts.WONDER_NAMES, wonder)
    bo = json.loads((DATA / "babel_on.json").read_text())
    for colour in bo["colours"]["value"]:
        yield "babel_on colour", "", colour
    for cell in bo["cells"]["value"]:
        yield f"babel_on cell {cell}", "", named(data_texts.CELL_NAMES, cell)
    bc = json.loads((DATA / "babel_cubes.json").read_text())
    for cube in bc["cubes"]:
        yield f"babel_cubes type {cube['type']} colour", "", cube["colour"]
    for face in bc["faces"]:
        yield f"babel_cubes face {face}", "", named(data_texts.FACE_NAMES, face)
    for cube_type, layouts in bc["layouts"].items():
        for layout in layouts if cube_type != "note" else ():
            yield f"babel_cubes {cube_type} layout {layout}", "", named(data_texts.LAYOUT_NAMES, layout)


def test_every_data_text_a_player_reads_is_marked_for_translation():
    texts = marked()
    missing = [f"{where}: {text!r}" for where, context, text in shown_texts() if (context, text) not in texts]
    assert missing == []


def test_the_walk_finds_every_kind_of_data_text():
    """The walk above covers each file (a data file read by no branch would pass unseen)."""
    places = {where.split()[0] for where, _context, _text in shown_texts()}
    assert places == {path.stem for path in DATA.glob("*.json")}
    assert sum(1 for where, *_ in shown_texts() if " tile " in where) == 24


def catalogue(language: str) -> dict[tuple[str, str], str]:
    """(context, msgid) -> msgstr of the language's .po file (plural entries left out)."""
    text = (settings.BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po").read_text()
    found = {}
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        current = ""
        for line in block.splitlines():
            if line.startswith('"'):
                fields[current] += line[1:-1]
            elif line and not line.startswith("#"):
                current, _, rest = line.partition(" ")
                fields[current] = rest[1:-1]
        if "msgid" in fields and "msgstr" in fields:
            found[(fields.get("msgctxt", ""), fields["msgid"])] = fields["msgstr"]
    return found


@pytest.mark.parametrize("language", ["it", "fr", "de"])
def test_every_marked_text_has_its_translation(language):
    translated = catalogue(language)
    missing = [text for text in marked() if not translated.get(text)]
    assert missing == []


@pytest.mark.parametrize(
    ("language", "name"), [("it", "Colosso di Rodi"), ("fr", "Colosse de Rhodes"), ("de", "Koloss von Rhodos")]
)
def test_the_published_editions_names_are_used(language, name):
    with translation.override(language):
        assert data_text("Colossus of Rhodes") == name


@pytest.fixture
def in_a_new_language(monkeypatch):
    """Data texts read «like this», as a language whose catalogue has them would show them."""
    monkeypatch.setattr(data_texts, "gettext", lambda text: f"«{text}»")
    monkeypatch.setattr(data_texts, "pgettext", lambda context, text: f"«{text}»")


def test_a_data_text_is_shown_in_the_readers_language():
    with translation.override("it"):
        assert data_text("camel") == "cammello"
        assert data_text("Pyramids of Giza") == "Piramidi di Giza"
    with translation.override("en"):
        assert data_text("Belvedere", GREAT_PROJECT) == "Belvedere"


def test_a_rule_message_names_the_data_in_the_readers_language():
    refused = RuleError("This disc does not demand {kind}.", field="cards", rule="TB-12", params={"kind": "camel"})
    with translation.override("it"):
        assert describe(refused).startswith("Questo disco non richiede cammello.")
    cells = RuleError("A cell is one of {cells}.", field="cell", rule="BO-7", params={"cells": "nw, ne, sw, se"})
    with translation.override("it"):
        assert "nord-ovest, nord-est, sud-ovest, sud-est" in describe(cells)


def test_a_rule_message_leaves_names_and_typed_values_as_they_are(in_a_new_language):
    turn = shown_params("It is {name}'s turn.", {"name": "Belvedere"})
    assert turn == {"name": "Belvedere"}  # a player's name, even one that reads like a card
    project = shown_params("{name} is a project of age {age}.", {"name": "Belvedere", "age": 1})
    assert project == {"name": "«Belvedere»", "age": 1}
    typed = shown_params("Every contact pairs one bulge with one indent: check the {face} face.", {"face": "up"})
    assert typed == {"face": "«top»"}


def test_every_rule_message_with_data_parameters_is_raised_somewhere():
    # The engines' messages, and the games registry's own (a player count, GAMES).
    engines = [*(settings.BASE_DIR / "scoring").rglob("*.py"), settings.BASE_DIR / "sessions" / "games.py"]
    sources = "".join(path.read_text() for path in engines)
    for template in data_texts.DATA_PARAMS:
        assert f'"{template}"' in sources


def seven_wonders(group, players, **overrides):
    if overrides:
        services.set_edition_table(group=group, game="seven-wonders", overrides=overrides)
    night = services.create_night(group=group, date=datetime.date(2026, 11, 22))
    session = services.create_session(
        night=night,
        game="seven-wonders",
        players=players[:3],
        options={"great_projects": True, "tower_tiles": True},
        secret="1",
    )
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    session.refresh_from_db()
    return session


def test_the_board_shows_the_great_project_in_the_readers_language(in_a_new_language, member_client, group, players):
    session = seven_wonders(group, players)
    cards = json.loads((DATA / "seven_wonders_babel.json").read_text())["projects"]["value"]
    drawn = next(c for c in cards if c["slug"] == session.state["game"]["projects"][0])
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    for text in (drawn["name"], drawn["cost"], drawn["penalty"], drawn["reward"]["text"], drawn["colour"]):
        assert escape(f"«{text}»") in page


def test_a_phone_shows_its_tiles_in_the_readers_language(in_a_new_language, group, players):
    session = seven_wonders(group, players)
    code = services.create_join_code(session=session).code
    seat, phone = next(iter(seated_phones(session, code).items()))
    page = phone.get(f"/j/{code}/").content.decode()
    hand = session.state["game"]["hands"][seat]
    effects = json.loads((DATA / "seven_wonders_babel.json").read_text())["tiles"]["value"]
    assert hand
    assert all(escape(f"«{effects[str(tile)]}»") in page for tile in hand)


def test_a_corrected_card_text_shows_as_the_group_typed_it(in_a_new_language, owner_client, group, players):
    # The group's text is the same as another tile's printed effect: still shown as typed.
    corrections = {"tiles": {"9": "tax on red cards"}, "projects": {"belvedere": {"cost": "7 coins"}}}
    page = owner_client.get(EDITION.format(group.pk)).content.decode()
    assert 'value="«neighbour grey goods -1»"' in page
    services.set_edition_table(group=group, game="seven-wonders", overrides=corrections)
    page = owner_client.get(EDITION.format(group.pk)).content.decode()
    assert 'value="tax on red cards"' in page
    assert 'value="7 coins"' in page
    assert 'value="«tax on red cards»"' in page  # tile 1, printed


def test_posting_the_edition_table_as_shown_corrects_nothing(in_a_new_language, owner_client, group):
    response = owner_client.post(
        EDITION.format(group.pk),
        {"tile.1": "«tax on red cards»", "project.belvedere.cost": "«1 coin + clay»", "tile.9": "our tile nine"},
    )
    assert response.status_code == 302
    group.refresh_from_db()
    assert group.edition_tables["seven-wonders"] == {"tiles": {"9": "our tile nine"}}


def test_the_api_keeps_the_data_in_english(in_a_new_language, db):
    body = {"project": "river-port", "players": [{"name": "Ada", "markers": 1}], "markers_left": 0, "age": 2}
    answer = APIClient().post("/api/v1/calculators/seven-wonders/great-project", body, format="json").json()
    assert answer["project"]["name"] == "River Port"
    assert answer["project"]["cost"] == "1 coin + textile"
