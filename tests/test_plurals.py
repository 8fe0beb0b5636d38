"""A count says its noun in the right form, for 1 and for more, in every language (the
session, phone and board pages, and the engines' refusals)."""

import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from scoring.errors import RuleError
from sessions.boards import babel_cubes, babel_on
from sessions.forms import VersionedForm
from sessions.rule_messages import COUNTED, describe

LANGUAGES = ["en", "fr"]


def same_but_the_count(one: str, two: str) -> bool:
    """Whether two renders differ in nothing but the count: the noun did not follow it."""
    return re.sub(r"\b1\b", "N", one) == re.sub(r"\b2\b", "N", two)


def bag_and_tower(count: int) -> str:
    tower = {"seat": "1", "name": "Ada", "blocks": count, "floors": []}
    context = {"bo": {"phase": "playing", "bag": {"red": count}}, "bo_bag_total": count, "bo_towers": [tower]}
    return render_to_string("boards/babel_on/_board.html", context)


def set_up(count: int) -> str:
    return render_to_string(
        "boards/babel_on/_controls.html",
        {
            "bo_setup": {"bag_total": count, "bonus": 2},
            "session": {"pk": 1},
            "play_form": VersionedForm(),
        },
    )


def short_roll(kind: str, *, rolled: int, limit: int) -> str:
    """The words under a draw or a move that the bag, the tower or the rules cut short."""
    context = {
        "bo_pending": kind,
        "bo_draw": [],
        "bo_move": [],
        "bo_short": {"count": rolled, "limit": limit, "lost": rolled - limit, "left": limit, "room": 4},
        "viewer": "guest",
        "code": "ABCD",
    }
    html = render_to_string("boards/babel_on/_turn.html", context)
    found = re.search(r'data-testid="bo-short">(.*?)</p>', html, re.S)
    assert found
    return " ".join(found[1].split())


def too_few_to_draw(count: int) -> str:
    return short_roll("draw", rolled=count, limit=0)


def too_few_to_move(count: int) -> str:
    return short_roll("move", rolled=count, limit=0)


def cube_tower(count: int) -> str:
    from scoring.babel_cubes.geometry import load_geometry
    from scoring.babel_cubes.moves import Position, legal_moves

    position = Position(load_geometry({}, field=""))
    for _ in range(count):
        position = position.play(legal_moves(position)[0])
    return str(babel_cubes._tower(position))


RENDERS = [bag_and_tower, set_up, too_few_to_draw, too_few_to_move, cube_tower]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("render", RENDERS, ids=lambda render: render.__name__)
def test_the_noun_follows_the_count_on_the_boards(language, render):
    with translation.override(language):
        one, two = render(1), render(2)
    assert not same_but_the_count(one, two)


@pytest.mark.parametrize("render", RENDERS, ids=lambda render: render.__name__)
def test_one_is_said_in_the_singular_in_english(render):
    with translation.override("en"):
        one = render(1)
    assert not re.search(r"\b1 (blocks|cubes)\b", one)
    assert re.search(r"\b1 (block|cube)\b", one)


@pytest.mark.parametrize("kind", ["draw", "move"])
def test_a_short_roll_says_how_many_blocks_are_lost_in_the_singular_and_the_plural(kind):
    with translation.override("en"):
        one, two = short_roll(kind, rolled=3, limit=2), short_roll(kind, rolled=4, limit=2)
    verb = {"draw": "Draw", "move": "Move"}[kind]
    assert f"{verb} 2 of the 3 rolled" in one
    assert one.endswith("the other 1 is lost.")
    assert f"{verb} 2 of the 4 rolled" in two
    assert two.endswith("the other 2 are lost.")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_roll_says_how_many_blocks_it_moves(language):
    with translation.override(language):
        one, two = (str(babel_on.OUTCOMES[kind] % {"count": n}) for kind, n in (("move", 1), ("move", 2)))
    assert not same_but_the_count(one, two)
    if language == "en":
        assert one.startswith("move 1 block between")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("template", sorted(COUNTED))
def test_an_engine_refusal_counts_in_the_singular_and_the_plural(language, template):
    params = {"count": 1, "rolled": 1, "limit": 0, "left": 0, "room": 0}
    with translation.override(language):
        one = describe(RuleError(template, field="x", params=params))
        two = describe(RuleError(template, field="x", params={name: 2 if n else 0 for name, n in params.items()}))
    assert not same_but_the_count(one, two)


def test_the_counted_refusals_are_the_engines_own_messages():
    """A template changed in an engine must change here too, or its plural is lost."""
    from pathlib import Path

    sources = "".join(path.read_text() for path in Path("scoring").rglob("*.py"))
    flat = re.sub(r'"\s*\n\s*"', "", sources)  # implicitly joined literals
    for template in COUNTED:
        assert template in flat, template


def test_english_refusals_say_one_block():
    with translation.override("en"):
        said = describe(
            RuleError(
                "Move exactly {count} blocks: take them all off, then add them all.", field="x", params={"count": 1}
            )
        )
    assert said == "Move exactly 1 block: take it off, then add it."


def test_a_game_for_exactly_two_says_two_players_not_a_range(member_client, night):
    with translation.override("en"):
        cubes = member_client.get(f"/n/{night.pk}/sessions/new/?game=babel-cubes").content.decode()
        tower = member_client.get(f"/n/{night.pk}/sessions/new/?game=tower-of-babel").content.decode()
    assert "Seats in playing order (2 players)" in cubes
    assert "Seats in playing order (3\u20135 players)" in tower
