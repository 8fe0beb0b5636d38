"""A short "how this works" next to the game terms that matter: the trading card and the
Joker (Tower of Babel), the call of even or odd (Babel On!), and "cannot suffer the penalty"
(7 Wonders Babel's Great Projects)."""

import re

from django.template.loader import render_to_string
from django.test import Client

from sessions.forms import VersionedForm
from tests.conftest import ruled, started_tower


def help_of(page: str, testid: str) -> str:
    found = re.search(
        rf'<details class="term-help" data-testid="{testid}"><summary>(.*?)</summary>\s*<p>(.*?)</p>', page, re.S
    )
    assert found, f"no {testid} on the page"
    return found[2]


def test_the_build_form_explains_the_trading_card_the_triple_bonus_and_the_joker(member_client, session):
    session, _seats, _code = started_tower(session)
    game = session.state["game"]
    disc = next(iter(game["discs"]))
    page = member_client.get(f"/s/{session.pk}/?disc={disc}").content.decode()
    assert "you take the disc" in help_of(page, "trading-help")
    assert "2 cards of your choice" in help_of(page, "joker-help")
    assert "3 points per offered card" in help_of(page, "triple-help")


def test_a_phones_offer_form_explains_the_trading_card(member_client, session):
    session, seats, code = started_tower(session)
    game = session.state["game"]
    disc = next(iter(game["discs"]))
    member_client.post(
        f"/s/{session.pk}/play/choose/",
        {"expected_version": session.version, "wonder": game["discs"][disc]["wonder"], "disc": disc},
    )
    phone = Client()
    phone.post(f"/j/{code}/seat/", {"seat": seats[1]})
    assert ruled("(rules TB-12, TB-13)") in help_of(phone.get(f"/j/{code}/").content.decode(), "trading-help")


def test_the_roll_explains_the_call_of_even_or_odd():
    context = {"bo_pending": None, "viewer": "guest", "code": "ABCD", "play_form": VersionedForm()}
    page = render_to_string("boards/babel_on/_turn.html", context)
    assert "Called odd and rolled 1, 3 or 5" in help_of(page, "call-help")


def test_the_end_of_an_age_explains_who_cannot_suffer_the_penalty():
    context = {
        "sw_end_age": True,
        "sw_project": {"name": "x"},
        "sw_seats": [("1", "Ada")],
        "play_form": VersionedForm(),
    }
    page = render_to_string("boards/seven_wonders/_controls.html", context | {"session": {"pk": 1}})
    assert "penalty token of the age" in help_of(page, "penalty-help")
