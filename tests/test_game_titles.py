"""Each game's title as printed on the edition of the page's language (issue 39, point 10): the
German original "Der Turmbau zu Babel" in German, and in Italian as seed 000 (a translation of
the German rule book) prints it. What the app stores and sends stays English: the slug, the BG
Stats export, the engines' messages."""

from __future__ import annotations

import json
from urllib.parse import unquote

import pytest
from django.test import Client
from django.utils import translation

from scoring.errors import RuleError
from sessions.games import BABEL_CUBES, BABEL_ON, GAMES, SEVEN_WONDERS, TOWER_OF_BABEL
from sessions.importexport.bgstats import PUSH_URL, push_play_url
from sessions.rule_messages import describe
from tests.conftest import finish_with_scores

PRINTED = {
    "it": {TOWER_OF_BABEL: "Der Turmbau zu Babel", BABEL_ON: "Babel On!", SEVEN_WONDERS: "7 Wonders: Babel"},
    # No French edition of Knizia's game is known: its English title stays.
    "fr": {TOWER_OF_BABEL: "Tower of Babel", BABEL_ON: "Babel On!", SEVEN_WONDERS: "7 Wonders: Babel"},
    "de": {TOWER_OF_BABEL: "Der Turmbau zu Babel", BABEL_ON: "Babel On!", SEVEN_WONDERS: "7 Wonders: Babel"},
}


@pytest.mark.parametrize("language", list(PRINTED))
def test_each_game_has_the_title_of_its_edition_in_the_page_language(db, language):
    for game, title in {**PRINTED[language], BABEL_CUBES: "babel"}.items():
        page = Client().get(f"/rules/{game}/", headers={"accept-language": language}).content.decode()
        assert f"<h1>{title}" in page or f"{title}</h1>" in page, (language, game)


def test_english_pages_keep_the_english_titles(db):
    for game in GAMES.values():
        assert f"{game.english_name}" in Client().get(f"/rules/{game.slug}/").content.decode()


def test_the_wonder_and_the_7_wonders_module_keep_their_own_translation():
    with translation.override("it"):
        assert translation.gettext("Tower of Babel") == "Torre di Babele"  # the eighth wonder (TB-3)
        assert str(GAMES[TOWER_OF_BABEL].name) == "Der Turmbau zu Babel"


def test_the_bg_stats_link_names_the_game_in_english_whatever_the_language(session):  # session: Tower of Babel
    finish_with_scores(session, [70, 82, 70])
    with translation.override("de"):
        url = push_play_url(session)
    assert url is not None
    assert json.loads(unquote(url[len(PUSH_URL) :]))["game"]["name"] == "Tower of Babel"


def test_a_refused_player_count_keeps_the_english_title_for_the_api_and_shows_the_reader_s(db):  # TB-1
    with translation.override("de"), pytest.raises(RuleError) as refused:
        GAMES[TOWER_OF_BABEL].check_player_count(2, {})
    assert refused.value.params["game"] == "Tower of Babel"
    with translation.override("de"):
        assert describe(refused.value).startswith("Der Turmbau zu Babel ")
