"""Counts of action cards above what the deck holds (TB-22) are refused naming the rule: the
held cards at the end (TB-20 step 3) and the Jokers of a build (TB-13)."""

import pytest

from scoring.tower_of_babel import engine as tob
from scoring.tower_of_babel.discs import HELD_CARDS
from tests.conftest import ruled
from tests.test_tower_of_babel_engine import SHIP5, ended, game, refused, with_action_cards
from tests.test_tower_of_babel_final_on_phones import final_of, final_section, form_html, sent
from tests.test_tower_of_babel_secret_offers import phone


@pytest.mark.parametrize("card", HELD_CARDS)
def test_tb_22_more_held_cards_than_the_deck_holds_are_refused_naming_the_rule(card):
    state = with_action_cards(ended(game()), "red", 3)
    error = refused(state, tob.DECLARE_CARDS, "TB-22", seat="red", **{card: 3})
    assert error.field == card


def test_tb_22_more_jokers_than_the_deck_holds_are_refused_naming_the_rule():
    state = with_action_cards(game(SHIP5), "red", 3)
    error = refused(state, tob.BUILD, "TB-22", wonder="pyramids", disc="pyramids-0", own={"ship": 1}, jokers=3)
    assert error.field == "jokers"


def test_tb_22_a_count_that_is_not_a_number_stays_plain_malformed_input():
    state = with_action_cards(ended(game()), "red", 3)
    error = refused(state, tob.DECLARE_CARDS, None, seat="red", five_points="two")
    assert error.field == "five_points"


def test_tb_22_a_phone_that_declares_three_of_a_card_is_told_the_rule(night, players):
    from tests.test_tower_of_babel_final_on_phones import game_over

    _session, seats, code = game_over(night, players)
    client = phone(code, seats[2])
    response = client.post(f"/j/{code}/act/", sent(final_of(client, code), "phone-cards", five_points="3"))
    assert response.status_code == 400
    assert ruled("(rule TB-22)") in form_html(final_section(response.content.decode()), "phone-cards")
