"""Words for players only (issue 39, point 8): where the rules come from, which values no printed
source confirms, where a rule text is cut and what the app can count are said on the rules pages
and the group's edition page, under "About these rules", never on a screen used in play."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from sessions import services
from sessions.games import BABEL_CUBES, BABEL_ON, SEVEN_WONDERS, TOWER_OF_BABEL
from sessions.models import GameSession
from sessions.rules_reference import about_these_rules
from tests.conftest import advance, ruled, seated_phones

# What the notes for the people who built the app said on the play screens, in a word or two.
NOTES = (
    "unverified",
    "Not verified",
    "Not checked against",
    "fan source",
    "inferred",
    "counts each age",
    "stops at",
    "does not count",
    "don't cover this case",
    "About these rules",
)
OPTIONS = {
    TOWER_OF_BABEL: {},
    BABEL_ON: {},
    # Great Projects on and the tiles off: the project's turn controls show from the start (SW-9).
    SEVEN_WONDERS: {"great_projects": True, "tower_tiles": False, "leaders": True},
    BABEL_CUBES: {},
}


def _started(night, players, game: str) -> tuple[GameSession, str]:
    seated = players[:2] if game == BABEL_CUBES else players[:3]
    session = services.create_session(night=night, game=game, players=seated, options=OPTIONS[game], secret="3")
    advance(session, "session.start")
    return session, services.create_join_code(session=session).code


def _play_screens(member_client: Client, session: GameSession, code: str) -> dict[str, str]:
    phone = next(iter(seated_phones(session, code).values()))
    return {
        "host": member_client.get(f"/s/{session.pk}/").content.decode(),
        "phone": phone.get(f"/j/{code}/").content.decode(),
        "table display": Client().get(f"/j/{code}/table/").content.decode(),
    }


@pytest.mark.parametrize("game", [TOWER_OF_BABEL, BABEL_ON, SEVEN_WONDERS, BABEL_CUBES])
def test_no_play_screen_speaks_of_sources_verification_cut_texts_or_counting(member_client, night, players, game):
    session, code = _started(night, players, game)
    for screen, page in _play_screens(member_client, session, code).items():
        for note in NOTES:
            assert note not in page, f"{game}, {screen}: {note!r}"
        assert 'class="unverified"' not in page, f"{game}, {screen}"


def test_the_great_project_turn_says_the_rule_not_what_the_app_counts(member_client, night, players):  # SW-9, SW-10
    session, _code = _started(night, players, SEVEN_WONDERS)
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert "Each player takes at most one marker a turn. " + ruled("SW-9") in page
    assert "add those coins yourselves." in page


def test_the_cube_game_names_its_layouts_with_the_rule_linked(member_client, night, players):  # BC-2
    session, _code = _started(night, players, BABEL_CUBES)
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    expected = "type 2 bulges on adjacent faces, type 3 bulges meeting at one corner (" + ruled("BC-2") + ")."
    assert expected in page


@pytest.mark.parametrize("game", [TOWER_OF_BABEL, BABEL_ON, SEVEN_WONDERS, BABEL_CUBES])
def test_the_rules_page_says_it_about_these_rules(client, db, game):
    page = client.get(f"/rules/{game}/").content.decode()
    about = page.split('data-testid="about-rules"')[1].split("</section>")[0]
    assert "About these rules" in about
    notes = about_these_rules(game)
    assert notes
    for note in notes:
        assert ruled(str(note.text).replace("'", "&#x27;").replace('"', "&quot;")) in about


@pytest.mark.parametrize(
    ("game", "said"),
    [
        (TOWER_OF_BABEL, "Values marked unverified: cards demanded by the single discs (3, 4, 4, 5, 5, 6)"),
        (BABEL_ON, "The rule for a wrong call stops at “If you guessed wrong, you may either …”"),
        (SEVEN_WONDERS, "Card texts come from a single fan source."),
        (SEVEN_WONDERS, "turns from the first: a player who joined the Great Project in a turn is refused"),
        (BABEL_CUBES, "Cube layouts are inferred"),
    ],
)
def test_the_notes_taken_off_the_play_screens_are_on_the_rules_pages(client, db, game, said):
    assert said in client.get(f"/rules/{game}/").content.decode()


def test_unverified_values_stay_marked_on_the_rules_page(client, db):  # TB-4, TB-6, TB-7
    about = client.get("/rules/tower-of-babel/").content.decode().split('data-testid="about-rules"')[1]
    assert "3→10" in about
    assert "10/5" in about
    assert '<abbr class="unverified" title="Not verified against a printed board; your group can change it.">' in about


@pytest.mark.parametrize("game", [TOWER_OF_BABEL, SEVEN_WONDERS])
def test_the_edition_page_says_it_about_these_rules_with_its_marks(member_client, group, game):
    page = member_client.get(f"/g/{group.pk}/tables/{game}/").content.decode()
    about = page.split('data-testid="about-rules"')[1].split("</section>")[0]
    assert "About these rules" in about
    assert '<abbr class="unverified"' in about
    assert '<small class="unverified">unverified</small>' in page  # each value no printed source confirms
    assert f'href="/rules/{game}/"' in page


@pytest.mark.parametrize("language", ["it", "fr", "de"])
def test_the_about_notes_follow_the_page_language(client, db, language):
    with translation.override("en"):
        english = [note.text for note in about_these_rules(SEVEN_WONDERS)]
    page = client.get("/rules/seven-wonders/", headers={"accept-language": language}).content.decode()
    about = page.split('data-testid="about-rules"')[1].split("</section>")[0]
    assert re.search(r"<h2[^>]*>About these rules</h2>", about) is None
    for text in english:
        assert text.split(":")[0] not in about


RULE_ID_IN_A_HEADING = re.compile(r"<h[1-6][^>]*>(?:(?!</h[1-6]>).)*\b(?:TB|BO|SW|BC)-\d+", re.DOTALL)


@pytest.mark.parametrize("game", [TOWER_OF_BABEL, BABEL_ON, SEVEN_WONDERS, BABEL_CUBES])
def test_a_rule_id_stands_beside_a_heading_never_in_it(member_client, night, players, game):
    session, code = _started(night, players, game)
    for screen, page in _play_screens(member_client, session, code).items():
        assert RULE_ID_IN_A_HEADING.search(page) is None, f"{game}, {screen}"


def test_the_phone_s_great_project_heading_has_its_rule_linked_beside_it(member_client, night, players):  # SW-9
    session, code = _started(night, players, SEVEN_WONDERS)
    page = _play_screens(member_client, session, code)["phone"]
    assert '<h2>Great Project</h2> <small class="muted rule-ref">' + ruled("SW-9") in page


def test_the_cube_layouts_keep_german_nouns_capitalised_inside_the_sentence(member_client, night, players):  # BC-2
    session, _code = _started(night, players, BABEL_CUBES)
    page = member_client.get(f"/s/{session.pk}/", headers={"accept-language": "de"}).content.decode()
    assert "auf benachbarten Seiten" in page  # the option reads "Auf benachbarten Seiten"
