"""The edition tables label each value in words ("Row 1: most parts", "A set of 2 discs"),
never as bare indexes such as "1 (1)" or "0"."""

import re

from django.utils import translation

from sessions.editions import seven_wonders_rows, tower_of_babel_rows


def labels(sections):
    return [field["label"] for section in sections for field in section["fields"]]


def test_no_edition_label_is_a_bare_number():
    with translation.override("en"):
        every = labels(tower_of_babel_rows(None)) + labels(seven_wonders_rows(None))
    bare = [label for label in every if re.fullmatch(r"[\d\s():]+", str(label))]
    assert not bare


def test_the_tower_of_babel_table_says_what_each_value_is():
    with translation.override("en"):
        found = labels(tower_of_babel_rows(None))
    assert "Disc 1" in found
    assert "Disc 1: camel" in found
    assert "Row 1: most parts" in found
    assert "Row 1: second most parts" in found
    assert "A set of 1 disc" in found
    assert "A set of 2 discs" in found
    assert "Fewest players" in found
    assert "Most cards" in found
    assert "Parts worth 3" in found
    assert "Joker" in found


def test_the_seven_wonders_tiles_are_named_tiles():
    with translation.override("en"):
        assert "Tile 1" in labels(seven_wonders_rows(None))
