"""Rule ids in words a player understands: each id links to its rule's text, on a public rules
page per game in the reader's language (issue 17)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.http import QueryDict
from django.template import Context, Template
from django.test import Client
from django.utils import translation
from django.utils.functional import Promise
from django.utils.html import escape

from sessions import services
from sessions.formstate import keep_typed
from sessions.games import BABEL_CUBES, BABEL_ON, GAMES, SEVEN_WONDERS, TOWER_OF_BABEL
from sessions.rules_reference import GAME_OF_PREFIX, RULE_BY_ID, RULES, link_rule_ids
from tests.conftest import play
from tests.test_babel_on_pages import set_up_and_roll_off
from tests.test_plurals import too_few_to_move

CITED = re.compile(r"\b(?:TB|BO|SW|BC)-\d+\b")


def cited_rule_ids() -> set[str]:
    """Every rule id the engines, their data, the app and the templates cite."""
    roots = [settings.BASE_DIR / "scoring", settings.BASE_DIR / "sessions", settings.BASE_DIR / "templates"]
    sources = [path for root in roots for path in root.rglob("*") if path.suffix in {".py", ".json", ".html"}]
    return {found for path in sources for found in CITED.findall(path.read_text())}


def test_every_rule_id_the_app_cites_has_a_text_for_players():
    cited = cited_rule_ids()
    assert {"TB-12", "BO-5", "SW-10", "BC-6"} <= cited  # the search finds the citations
    assert sorted(cited - RULE_BY_ID.keys()) == []


def test_each_game_lists_its_rules_in_order_with_a_title_and_text_through_gettext():
    assert RULES.keys() == GAMES.keys()
    for game, rules in RULES.items():
        prefix = next(prefix for prefix, slug in GAME_OF_PREFIX.items() if slug == game)
        assert [rule.id for rule in rules] == [f"{prefix}-{n}" for n in range(1, len(rules) + 1)]
        for rule in rules:
            assert isinstance(rule.title, Promise), rule.id
            assert isinstance(rule.text, Promise), rule.id
    assert [len(RULES[game]) for game in (TOWER_OF_BABEL, BABEL_ON, SEVEN_WONDERS, BABEL_CUBES)] == [23, 14, 14, 9]


@pytest.mark.parametrize("game", list(RULES))
def test_the_rules_page_lists_every_rule_with_an_anchor_without_logging_in(db, game):
    response = Client().get(f"/rules/{game}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert str(GAMES[game].name) in page
    for rule in RULES[game]:
        assert f'<dt id="{rule.id}">{escape(rule.title)}' in page
        decision = f'<p class="decision" data-testid="decision"><strong>Decision:</strong> {escape(rule.decision)}</p>'
        assert f"<dd>{escape(rule.text)}{decision if rule.decision else ''}</dd>" in page


def rule_on_its_page(rule_id: str) -> str:
    """The text the rules page gives ``rule_id``, its decision included, as a reader sees it."""
    page = Client().get(f"/rules/{GAME_OF_PREFIX[rule_id[:2]]}/").content.decode()
    html = page.split(f'<dt id="{rule_id}">')[1].split("</dd>")[0]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'")


def test_tb_13_the_rules_page_says_who_places_the_parts_of_an_offer_with_a_trading_card(db):
    rule = rule_on_its_page("TB-13")
    assert "Everyone who gave cards places parts" not in rule
    assert "the active player places the parts for that player's cards" in rule


def test_sw_9_the_rules_page_gives_the_reserve_to_players_joining_in_the_same_turn(db):
    rule = rule_on_its_page("SW-9")
    assert "in the same turn as the one who took the last marker: they take one from the reserve" in rule


def test_bo_12_the_rules_page_sends_the_unplayed_blocks_back_and_ends_the_turn(db):
    rule = rule_on_its_page("BO-12")
    assert "the blocks you have not played yet go back in the bag" in rule
    assert "your turn ends" in rule


@pytest.mark.parametrize(
    ("rule_id", "decided"),
    [
        ("BO-5", "a wrong call is a miss and the turn passes"),
        ("BO-6", "the active player may add 1 or 2 of their bonus blocks"),
        ("BO-7", "sits on a block of the floor below, in the same place"),
        ("BC-9", "the game is a draw"),
        ("TB-14", "its Triple bonus card stays in hand"),
        ("TB-21", "Tied players share the place"),
    ],
)
def test_what_the_rule_book_leaves_open_is_shown_as_a_decision_not_as_the_rule(db, rule_id, decided):
    rule = RULE_BY_ID[rule_id]
    assert decided not in str(rule.text)
    assert decided in str(rule.decision)
    rule_text, shown_decision = rule_on_its_page(rule_id).split("Decision:")
    assert decided not in rule_text
    assert decided in shown_decision


def test_an_unknown_game_has_no_rules_page(db):
    assert Client().get("/rules/chess/").status_code == 404


def test_the_rules_page_speaks_the_readers_language(db, monkeypatch):
    """Shown «like this», as a language whose catalogue has the texts would show them."""
    monkeypatch.setattr(translation._trans, "gettext", lambda text: f"«{text}»")
    page = Client().get("/rules/tower-of-babel/", headers={"accept-language": "it"}).content.decode()
    assert '<html lang="it"' in page
    assert '<dt id="TB-12">«Build»' in page
    assert "<dd>«The active player draws 1 card, then every player, the active one too, draws 1.»</dd>" in page


def test_a_rule_id_becomes_a_link_to_its_text_named_by_its_title():
    shown = link_rule_ids("Offer at most 5 cards. (rule TB-12)")
    assert shown == ('Offer at most 5 cards. (rule <a href="/rules/tower-of-babel/#TB-12" title="Build">TB-12</a>)')
    several = link_rule_ids("(rules BO-7, SW-9, BC-6)")
    for anchor in ("/rules/babel-on/#BO-7", "/rules/seven-wonders/#SW-9", "/rules/babel-cubes/#BC-6"):
        assert f'href="{anchor}"' in several


def test_an_id_without_a_text_stays_plain():
    assert link_rule_ids("TB-99 and XX-1") == "TB-99 and XX-1"


def test_the_filter_keeps_a_players_name_as_text():
    shown = Template("{% load rule_links %}{{ message|rule_links }}").render(
        Context({"message": "It is <b>'s turn. (rule TB-13)"})
    )
    assert shown.startswith("It is &lt;b&gt;&#x27;s turn. (rule <a ")
    assert "<b>" not in shown


def test_a_refilled_forms_message_links_its_rule_and_escapes_the_rest():
    html = '<form id="f"><input name="n"></form>'
    kept = keep_typed(html, form="f", data=QueryDict(), errors={"n": "<b> (rule BO-9)"})
    assert kept is not None
    assert '&lt;b&gt; (rule <a href="/rules/babel-on/#BO-9" title="Order of a move">BO-9</a>)' in kept


def test_a_refused_move_on_the_host_page_links_its_rule(member_client, session):
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    session.refresh_from_db()
    seats = [seat.key for seat in session.seats.all()]
    play(member_client, session, "first", seat=seats[0])
    session.refresh_from_db()
    disc = session.state["game"]["wonders"]["pyramids"]["discs"][0]
    kind, number = next(iter(session.state["game"]["discs"][disc]["demand"].items()))
    response = play(member_client, session, "build", wonder="pyramids", disc=disc, **{f"own_{kind}": str(number - 1)})
    assert response.status_code == 400
    page = response.content.decode()
    assert '(rule <a href="/rules/tower-of-babel/#TB-13" title="Accepting offers">TB-13</a>)' in page
    assert '<dt id="TB-13">' in Client().get("/rules/tower-of-babel/").content.decode()  # the anchor is there


def test_the_host_and_phone_pages_link_to_the_games_rules(member_client, session):
    host = member_client.get(f"/s/{session.pk}/").content.decode()
    assert 'href="/rules/tower-of-babel/" data-testid="rules-link"' in host
    code = services.create_join_code(session=session).code
    phone = Client().get(f"/j/{code}/").content.decode()
    assert 'href="/rules/tower-of-babel/" data-testid="rules-link"' in phone


def test_the_ids_in_a_boards_sentence_link_to_their_rules():
    sentence = too_few_to_move(3)
    for rule in ("BO-7", "BO-8", "BO-10", "BO-11"):
        assert f'href="/rules/babel-on/#{rule}"' in sentence


class RuleIdsInText(HTMLParser):
    """The rule ids a page shows as text outside any link: ids a reader cannot follow."""

    def __init__(self) -> None:
        super().__init__()
        self.links_open = 0
        self.plain: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.links_open += tag == "a"

    def handle_endtag(self, tag: str) -> None:
        self.links_open -= tag == "a"

    def handle_data(self, data: str) -> None:
        if not self.links_open:
            self.plain += CITED.findall(data)


def plain_rule_ids(page: str) -> list[str]:
    parser = RuleIdsInText()
    parser.feed(page)
    return parser.plain


def test_a_rule_id_in_text_outside_a_link_is_found():
    assert plain_rule_ids('<h2>Set-up <small><a href="/rules/babel-on/#BO-2">BO-2</a></small></h2>') == []
    assert plain_rule_ids("<details><summary>Bonus blocks BO-6</summary></details>") == ["BO-6"]


def test_every_rule_id_on_a_babel_on_turn_is_a_link_even_those_of_a_folded_section(member_client, night, players):
    """A link inside a <summary> is a control inside a control, so the ids of the bonus blocks
    (BO-6), a knocked tower (BO-12) and a perfect tower (BO-13) link from the section's body."""
    session = services.create_session(night=night, game=BABEL_ON, players=players[:2], colours=["blue", ""])
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    session.refresh_from_db()
    set_up_page = member_client.get(f"/s/{session.pk}/").content.decode()
    active, _other = set_up_and_roll_off(member_client, session)
    host = member_client.get(f"/s/{session.pk}/").content.decode()
    code = services.create_join_code(session=session).code
    phone = Client()
    phone.post(f"/j/{code}/seat/", {"seat": active})
    active_phone = phone.get(f"/j/{code}/").content.decode()
    for folded in ('data-testid="bo-bonus"', 'data-testid="bo-problems"', "A tower was knocked over"):
        assert folded in host
    assert 'data-testid="bo-bonus"' in active_phone
    for rule in ("BO-6", "BO-12", "BO-13"):
        assert f'href="/rules/babel-on/#{rule}"' in host
    for page in (set_up_page, host, active_phone):
        assert plain_rule_ids(page) == []
