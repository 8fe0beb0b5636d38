"""The final scoring of Tower of Babel on the phones (TB-20): once the game is over, each
player's phone shows that player's own choices, prefilled like the host's forms: the kind
each of their two-kind discs counts as, and, with action cards, the Building disc bonus and
5 victory points cards they hold. A phone acts for its own seat only."""

import re

import pytest
from django.test import Client

from scoring.tower_of_babel import engine as tob
from sessions import services
from tests.conftest import advance, ruled
from tests.test_tower_of_babel_pages import play_to_the_end
from tests.test_tower_of_babel_phone_turn import form_fields
from tests.test_tower_of_babel_secret_offers import phone


def game_over(night, players, **options):
    """Ada, Bruno and Chiara played to the end (seed 7), with the two-kind discs."""
    options = {"two_kind_discs": True, **options}
    session = services.create_session(
        night=night, game="tower-of-babel", players=players[:3], options=options, secret="7"
    )
    advance(session, "session.start")
    play_to_the_end(session)
    seats = [seat.key for seat in session.seats.all()]
    return session, seats, services.create_join_code(session=session).code


@pytest.fixture
def over(night, players):
    return game_over(night, players)


def final_section(page):
    """The phone's "Final scoring" section, or None when it has none."""
    if 'data-testid="my-final"' not in page:
        return None
    start = page.index('data-testid="my-final"')
    return page[start : page.index("</section>", start)]


def final_of(client, code):
    return final_section(client.get(f"/j/{code}/").content.decode())


def form_html(section, form_id):
    start = section.index(f'id="{form_id}"')
    return section[start : section.index("</form>", start)]


def sent(section, form_id, **typed):
    """What a tap on the form's button sends: its hidden fields, its choices as shown, and ``typed``."""
    form = form_html(section, form_id)
    shown = dict(re.findall(r'<input type="number" name="(\w+)"[^>]*value="(\d+)"', form))
    for name, options in re.findall(r'<select name="(\w+)">(.*?)</select>', form):
        shown[name] = re.search(r'value="(\w+)" selected', options).group(1)
    return {**form_fields(section, form_id), **shown, **typed}


def totals(session):
    session.refresh_from_db()
    return tob.final_points(session.state["game"])


def two_kind_holder(session):
    """A seat holding a two-kind disc, and that disc's index among its discs (the deal depends
    on the seed and on the database's order of the state's keys, so it is read, not assumed)."""
    game = session.state["game"]
    for seat in game["seats"]:
        for index, kinds in enumerate(tob.discs_held(game, seat)):
            if len(kinds) == 2:
                return seat, index, kinds
    raise AssertionError("nobody holds a two-kind disc")


def test_a_phone_shows_its_own_assignment_and_held_cards_prefilled_and_not_another_players(over):
    session, _seats, code = over
    game = session.state["game"]
    assert game["over"]
    assert session.status == "scoring"
    seat, index, kinds = two_kind_holder(session)
    section = final_of(phone(code, seat), code)
    assert "Final scoring" in section
    assign = form_html(section, "phone-assign")
    assert 'name="move" value="assign"' in assign
    best = tob.best_assignment(game, seat)[index]
    options = "".join(f'<option value="{kind}"{" selected" if kind == best else ""}>{kind}</option>' for kind in kinds)
    assert f'<select name="assign_{index}">{options}</select>' in assign  # prefilled with the best
    held = len(tob.discs_held(game, seat))
    assert f'name="assign_{held - 1}"' in assign
    assert f'name="assign_{held}"' not in assign  # this seat's discs only
    cards = form_html(section, "phone-cards")
    assert 'name="move" value="cards"' in cards
    assert 'name="building_disc_bonus" min="0" max="2" value="0"' in cards
    assert 'name="five_points" min="0" max="2" value="0"' in cards
    assert 'name="seat"' not in section  # the phone acts for its seat: it never sends one
    assert "expected_version" not in section  # these choices concern this seat alone
    assert "tob-assign-" not in section
    assert "tob-cards-" not in section


def test_a_phone_changes_its_assignment_and_its_held_cards_and_the_final_points_follow(over):  # TB-20
    session, seats, code = over
    seat, index, kinds = two_kind_holder(session)
    player = phone(code, seat)
    before = totals(session)
    game = session.state["game"]
    other = next(kind for kind in kinds if kind != tob.best_assignment(game, seat)[index])
    chosen = list(tob.best_assignment(game, seat))
    chosen[index] = other

    response = player.post(
        f"/j/{code}/act/", sent(final_of(player, code), "phone-assign", **{f"assign_{index}": other})
    )
    assert response.status_code == 302
    session.refresh_from_db()
    assert session.state["game"]["assignments"] == {seat: chosen}
    assert totals(session)[seat]["discs"] == tob.final_points({**game, "assignments": {seat: chosen}})[seat]["discs"]
    assert totals(session)[seat]["discs"] <= before[seat]["discs"]  # the best was prefilled
    assert 'value="' + other + '" selected' in form_html(final_of(player, code), "phone-assign")

    # The player with the most action cards still in hand shows some of them.
    mine = session.state["game"]["cards"]
    holder = max(seats, key=lambda s: mine[s]["drawn"] - sum(mine[s]["played"].values()))
    in_hand = mine[holder]["drawn"] - sum(mine[holder]["played"].values())
    bonus, five = min(2, in_hand), min(1, max(0, in_hand - 2))
    assert bonus, "nobody has an action card in hand"
    cardholder = phone(code, holder)
    before = totals(session)
    fields = sent(final_of(cardholder, code), "phone-cards", building_disc_bonus=str(bonus), five_points=str(five))
    assert cardholder.post(f"/j/{code}/act/", fields).status_code == 302
    after = totals(session)
    discs = len(tob.discs_held(session.state["game"], holder))
    assert after[holder]["action_cards"] == bonus * discs + 5 * five  # +1 per disc held per bonus card, +5
    assert session.state["game"]["cards"][holder]["held"] == {"building_disc_bonus": bonus, "five_points": five}
    assert {s: after[s] for s in seats if s != holder} == {s: before[s] for s in seats if s != holder}
    cards = form_html(final_of(cardholder, code), "phone-cards")
    assert f'name="building_disc_bonus" min="0" max="2" value="{bonus}"' in cards
    assert f'name="five_points" min="0" max="2" value="{five}"' in cards


@pytest.mark.parametrize("move", ["assign", "cards"])
def test_a_post_that_names_another_seat_acts_for_the_phones_own_seat_only(over, move):
    session, seats, code = over
    chiara = phone(code, seats[2])
    typed = {"assign": {"assign_0": "camel"}, "cards": {"five_points": "2"}}[move]
    fields = sent(final_of(chiara, code), f"phone-{move}", seat=seats[0], **typed)
    assert chiara.post(f"/j/{code}/act/", fields).status_code == 302
    session.refresh_from_db()
    game = session.state["game"]
    if move == "assign":
        assert list(game["assignments"]) == [seats[2]]
    else:
        assert game["cards"][seats[2]]["held"]["five_points"] == 2
        assert game["cards"][seats[0]]["held"]["five_points"] == 0


@pytest.mark.parametrize(
    ("seat", "typed", "kept", "message"),
    [
        (2, {"five_points": "3"}, 'name="five_points" min="0" max="2" value="3"', "Enter a number from 0 to 2."),
        (
            0,
            {"building_disc_bonus": "1"},
            'name="building_disc_bonus" min="0" max="2" value="1"',
            "This player drew 0 action cards that are still in hand. (rule TB-20)",
        ),
    ],
)
def test_refused_held_cards_come_back_as_typed_with_the_reason_and_change_nothing(over, seat, typed, kept, message):
    session, seats, code = over
    version = session.version
    client = phone(code, seats[seat])
    response = client.post(f"/j/{code}/act/", sent(final_of(client, code), "phone-cards", **typed))
    assert response.status_code == 400
    cards = form_html(final_section(response.content.decode()), "phone-cards")
    assert kept in cards
    assert ruled(message) in cards
    session.refresh_from_db()
    assert session.version == version


def test_an_assignment_to_a_kind_the_disc_does_not_show_is_refused_with_the_rule(over):
    session, seats, code = over
    chiara = phone(code, seats[2])
    response = chiara.post(f"/j/{code}/act/", sent(final_of(chiara, code), "phone-assign", assign_0="crane"))
    assert response.status_code == 400
    assert ruled("This disc does not show that kind. (rule TB-20)") in final_section(response.content.decode())
    session.refresh_from_db()
    assert session.state["game"]["assignments"] == {}


@pytest.mark.parametrize("move", ["assign", "cards"])
def test_a_double_tap_records_the_choice_once(over, move):
    session, seats, code = over
    chiara = phone(code, seats[2])
    typed = {"assign": {"assign_0": "camel"}, "cards": {"five_points": "1"}}[move]
    fields = sent(final_of(chiara, code), f"phone-{move}", **typed)
    assert chiara.post(f"/j/{code}/act/", fields).status_code == 302
    assert chiara.post(f"/j/{code}/act/", fields).status_code == 302
    session.refresh_from_db()
    assert session.events.filter(type={"assign": tob.ASSIGN, "cards": tob.DECLARE_CARDS}[move]).count() == 1


def test_the_assignment_and_the_cards_forms_are_two_moves_each_with_its_own_key(over):
    session, seats, code = over
    chiara = phone(code, seats[2])
    section = final_of(chiara, code)
    assign, cards = sent(section, "phone-assign", assign_0="camel"), sent(section, "phone-cards", five_points="1")
    assert assign["idempotency_key"] != cards["idempotency_key"]
    assert chiara.post(f"/j/{code}/act/", assign).status_code == 302
    assert chiara.post(f"/j/{code}/act/", cards).status_code == 302  # sent from the page shown before
    session.refresh_from_db()
    assert session.state["game"]["cards"][seats[2]]["held"]["five_points"] == 1


def test_without_action_cards_a_phone_has_no_held_cards_form(night, players):  # TB-10
    _session, seats, code = game_over(night, players, action_cards=False)
    section = final_of(phone(code, seats[2]), code)
    assert 'id="phone-assign"' in section
    assert 'id="phone-cards"' not in section


def test_the_host_keeps_a_form_per_player_with_its_ids(member_client, over):
    session, seats, _code = over
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    for seat in seats:
        assert f'id="tob-cards-{seat}"' in page
        assert f'<input type="hidden" name="seat" value="{seat}">' in form_html(page, f"tob-cards-{seat}")
    assert f'id="tob-assign-{seats[0]}"' in page
    assert f'id="tob-assign-{seats[2]}"' in page
    assert 'name="move"' not in form_html(page, f"tob-cards-{seats[0]}")


def test_a_phone_that_holds_no_seat_shows_no_final_scoring(over):
    _session, _seats, code = over
    assert final_of(Client(), code) is None
