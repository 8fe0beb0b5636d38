"""The Triple bonus action card (TB-14, TB-22), open point decided: it is declared with the
secret offer, shown with the offers once they are revealed (so the active player knows what a
rejection costs), and used only if that offer is rejected: an accepted offer keeps the card in
hand. The offer forms say so next to the card's switch."""

import pytest

from scoring.tower_of_babel import engine as tob
from tests.conftest import advance, ruled, started_tower
from tests.test_tower_of_babel_engine import SHIP5, build, game, with_action_cards
from tests.test_tower_of_babel_secret_offers import choose, phone

HELP = "declared with the secret offer"


@pytest.fixture
def table(session):
    return started_tower(session)


def test_tb_14_a_rejected_offer_uses_the_card_and_an_accepted_one_keeps_it_in_hand():
    state = with_action_cards(game(SHIP5), "yellow", 1)
    offers = {"yellow": {"cards": {"ship": 2}, "triple": True}}
    rejected = build(state, "pyramids", offers=offers, accepted=[], own={"ship": 5})
    assert rejected["points"]["yellow"]["rejected"] == 6
    assert rejected["cards"]["yellow"]["played"] == {"triple_bonus": 1}
    accepted = build(state, "pyramids", offers=offers, accepted=["yellow"], own={"ship": 3})
    assert accepted["points"]["yellow"]["rejected"] == 0
    assert accepted["cards"]["yellow"]["played"] == {}


def test_tb_14_an_accepted_offer_whose_build_fails_scores_one_per_card_and_keeps_the_triple_bonus():
    state = with_action_cards(game(SHIP5), "yellow", 1)
    offers = {"yellow": {"cards": {"ship": 2}, "triple": True}, "green": {"cards": {"ship": 1}}}
    failed = build(state, "pyramids", offers=offers, accepted=["yellow"], fulfilled=False)  # TB-15
    assert failed["points"]["yellow"]["rejected"] == 2  # invited: no Triple bonus (Decision, TB-14)
    assert failed["cards"]["yellow"]["played"] == {}
    assert failed["points"]["green"]["rejected"] == 1


def test_tb_14_the_phone_offer_form_says_when_the_triple_bonus_counts(member_client, table):
    session, seats, code = table
    choose(member_client, session)
    page = phone(code, seats[1]).get(f"/j/{code}/").content.decode()
    assert 'name="triple"' in page
    assert HELP in page
    assert ruled("(rule TB-14)") in page


def test_tb_14_the_hosts_offer_forms_say_when_the_triple_bonus_counts(member_client, table):
    session, _seats, _code = table
    game_state = session.state["game"]
    disc = next(iter(game_state["wonders"]["pyramids"]["discs"]))
    build_form = member_client.get(f"/s/{session.pk}/", {"disc": disc}).content.decode()
    assert 'name="triple_' in build_form
    assert HELP in build_form
    choose(member_client, session)
    offer_form = member_client.get(f"/s/{session.pk}/").content.decode()
    assert 'id="tob-offer"' in offer_form
    assert HELP in offer_form


def test_tb_14_a_revealed_triple_bonus_is_shown_to_the_active_player_and_on_the_board(member_client, table):
    session, seats, code = table
    session.refresh_from_db()
    game_state = session.state["game"]
    bruno = game_state["cards"][seats[1]]
    session.state = {
        **session.state,
        "game": {**game_state, "cards": {**game_state["cards"], seats[1]: {**bruno, "drawn": 1}}},
    }
    session.save(update_fields=["state"])
    _disc, demand = choose(member_client, session)
    kind = next(iter(demand))
    advance(session, tob.OFFER, seat=seats[1], cards={kind: 1}, triple=True)
    advance(session, tob.OFFER, seat=seats[2], cards={})
    active = phone(code, seats[0]).get(f"/j/{code}/").content.decode()
    resolve = active[active.index('data-testid="my-resolve"') :]
    assert "Triple bonus card" in resolve[: resolve.index("</section>")]
    board = member_client.get(f"/s/{session.pk}/").content.decode()
    assert board.count("Triple bonus card") >= 2  # on the board's offers and on the host's accept form
