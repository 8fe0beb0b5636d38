"""Secret offers on each phone (TB-12): nobody sees an offer until every offer is in; then the
active player accepts some and completes the build on their own phone (TB-13)."""

import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring.tower_of_babel import engine as tob
from tests.conftest import ruled, started_tower


@pytest.fixture
def table(session):
    """A started game, the first seat to play, and the night's code for the phones."""
    return started_tower(session)


def phone(code, seat):
    client = Client()
    client.post(f"/j/{code}/seat/", {"seat": seat})
    return client


def choose(member_client, session, *, below=7):
    """The host taps a disc (one demanding fewer than ``below`` cards) and asks the phones."""
    session.refresh_from_db()
    game = session.state["game"]
    disc = next(d for d, disc in game["discs"].items() if max(disc["demand"].values()) < below)
    wonder = game["discs"][disc]["wonder"]
    response = member_client.post(
        f"/s/{session.pk}/play/choose/", {"expected_version": session.version, "wonder": wonder, "disc": disc}
    )
    assert response.status_code == 302
    return disc, game["discs"][disc]["demand"]


def test_a_phone_says_which_player_it_is_and_gets_the_offer_form(member_client, table):
    session, seats, code = table
    assert "Which player are you?" in Client().get(f"/j/{code}/").content.decode()
    choose(member_client, session)
    bruno = phone(code, seats[1])
    page = bruno.get(f"/j/{code}/").content.decode()
    assert 'data-testid="my-offer-form"' in page
    assert "Your secret offer" in page


def test_the_active_player_gets_no_offer_form(member_client, table):
    session, seats, code = table
    choose(member_client, session)
    assert 'data-testid="my-offer-form"' not in phone(code, seats[0]).get(f"/j/{code}/").content.decode()


def test_offers_stay_secret_until_all_are_in_then_show_to_everyone(member, member_client, table):  # TB-12
    session, seats, code = table
    disc, demand = choose(member_client, session)
    kind, number = next(iter(demand.items()))
    bruno, chiara = phone(code, seats[1]), phone(code, seats[2])
    assert bruno.post(f"/j/{code}/act/", {"move": "offer", "disc": disc, f"offer_{kind}": "2"}).status_code == 302

    for page in [chiara.get(f"/j/{code}/").content.decode(), member_client.get(f"/s/{session.pk}/").content.decode()]:
        assert "has offered" in page
        assert f"{kind} 2" not in page.split('data-testid="tob-pending"')[1].split("</div>")[0]
    assert "Your offer is in" in bruno.get(f"/j/{code}/").content.decode()
    api = APIClient()
    api.force_authenticate(member)
    state = api.get(f"/api/v1/sessions/{session.pk}/").json()["state"]
    assert state["game"]["build"]["offers"] == {seats[1]: {"offered": True}}
    offers = [e for e in api.get(f"/api/v1/sessions/{session.pk}/events/").json()["events"] if e["type"] == tob.OFFER]
    assert offers[0]["payload"] == {"seat": seats[1]}

    assert chiara.post(f"/j/{code}/act/", {"move": "offer", "disc": disc}).status_code == 302  # an empty offer
    revealed = chiara.get(f"/j/{code}/").content.decode()
    assert f"{kind} 2" in revealed
    assert "Offers are in: accept and complete" in member_client.get(f"/s/{session.pk}/").content.decode()
    assert api.get(f"/api/v1/sessions/{session.pk}/").json()["state"]["game"]["build"]["offers"][seats[1]]["cards"] == {
        kind: 2
    }

    session.refresh_from_db()
    response = member_client.post(
        f"/s/{session.pk}/play/resolve/",
        {"expected_version": session.version, f"accept_{seats[1]}": "on", f"own_{kind}": str(number - 2)},
    )
    assert response.status_code == 302
    session.refresh_from_db()
    wonder = session.state["game"]["discs"][disc]["wonder"]
    assert session.state["game"]["wonders"][wonder]["parts"] == {seats[0]: number - 2, seats[1]: 2}
    assert session.events.filter(type=tob.OFFER, author_label="Bruno").exists()


def test_a_phone_cannot_offer_twice_or_for_a_build_that_is_over(member_client, table):
    session, seats, code = table
    disc, demand = choose(member_client, session)
    kind = next(iter(demand))
    bruno = phone(code, seats[1])
    bruno.post(f"/j/{code}/act/", {"move": "offer", "disc": disc, f"offer_{kind}": "1"})
    stale = bruno.post(f"/j/{code}/act/", {"move": "offer", "disc": "some-other-disc", f"offer_{kind}": "1"})
    assert stale.status_code == 400
    assert "That build is over" in stale.content.decode()


def test_an_offer_above_the_disc_number_is_refused_on_the_phone(member_client, table):  # TB-12
    session, seats, code = table
    disc, demand = choose(member_client, session, below=6)
    kind, number = next(iter(demand.items()))
    response = phone(code, seats[1]).post(
        f"/j/{code}/act/", {"move": "offer", "disc": disc, f"offer_{kind}": str(number + 1)}
    )
    assert response.status_code == 400
    assert ruled("(rule TB-12)") in response.content.decode()


def test_a_phone_must_say_which_player_it_is_before_acting(member_client, table):
    session, _seats, code = table
    disc, _demand = choose(member_client, session)
    response = Client().post(f"/j/{code}/act/", {"move": "offer", "disc": disc})
    assert response.status_code == 400
    assert "Say which player you are first." in response.content.decode()
    assert Client().post(f"/j/{code}/seat/", {"seat": "999999"}).status_code == 400


def test_the_host_can_enter_an_offer_for_a_player_without_a_phone(member_client, table):
    session, seats, _code = table
    disc, demand = choose(member_client, session)
    kind = next(iter(demand))
    session.refresh_from_db()
    data = {"expected_version": session.version, "seat": seats[2], "disc": disc, f"offer_{kind}": "1"}
    assert member_client.post(f"/s/{session.pk}/play/offer/", data).status_code == 302
    session.refresh_from_db()
    assert seats[2] in session.state["game"]["build"]["offers"]


def test_a_phone_with_a_seat_polls_cheaply_too(table, django_assert_max_num_queries):
    _session, seats, code = table
    bruno = phone(code, seats[1])
    etag = bruno.get(f"/j/{code}/live/")["ETag"]
    with django_assert_max_num_queries(3):  # the code and session, the Django session row
        assert bruno.get(f"/j/{code}/live/", HTTP_IF_NONE_MATCH=etag).status_code == 304


HIDDEN = re.compile(r'<input type="hidden" name="(move|idempotency_key|expected_version)" value="([^"]*)"')


def resolve_form(client, code):
    """The hidden fields of the active player's acceptance form on their phone (None: no form)."""
    page = client.get(f"/j/{code}/").content.decode()
    if 'data-testid="my-resolve"' not in page:
        return None
    start = page.index('data-testid="my-resolve"')
    return dict(HIDDEN.findall(page[start : page.index("</section>", start)]))


def all_offered(member_client, session, code, seats):
    """The host taps a disc; Bruno offers 2 cards of its first kind, Chiara nothing."""
    disc, demand = choose(member_client, session)
    kind, number = next(iter(demand.items()))
    phone(code, seats[1]).post(f"/j/{code}/act/", {"move": "offer", "disc": disc, f"offer_{kind}": "2"})
    phone(code, seats[2]).post(f"/j/{code}/act/", {"move": "offer", "disc": disc})
    return disc, kind, number


def test_the_active_player_accepts_and_completes_the_build_on_their_own_phone(member_client, table):  # TB-13
    session, seats, code = table
    ada = phone(code, seats[0])
    disc, demand = choose(member_client, session)
    assert resolve_form(ada, code) is None  # not before every offer is in
    kind, number = next(iter(demand.items()))
    phone(code, seats[1]).post(f"/j/{code}/act/", {"move": "offer", "disc": disc, f"offer_{kind}": "2"})
    phone(code, seats[2]).post(f"/j/{code}/act/", {"move": "offer", "disc": disc})
    fields = resolve_form(ada, code)
    assert fields["move"] == "resolve"
    assert resolve_form(phone(code, seats[1]), code) is None  # only the active player's phone
    entries = {**fields, f"accept_{seats[1]}": "on", f"own_{kind}": str(number - 2)}

    assert ada.post(f"/j/{code}/act/", entries).status_code == 302
    assert ada.post(f"/j/{code}/act/", entries).status_code == 302  # a double tap: recorded once

    session.refresh_from_db()
    game = session.state["game"]
    assert game["wonders"][game["discs"][disc]["wonder"]]["parts"] == {seats[0]: number - 2, seats[1]: 2}
    assert game["build"] is None
    assert session.events.filter(type=tob.RESOLVE, author_label="Ada").count() == 1


def test_an_acceptance_from_another_phone_or_an_old_form_is_refused_and_changes_nothing(member_client, table):
    session, seats, code = table
    ada, bruno = phone(code, seats[0]), phone(code, seats[1])
    _disc, kind, number = all_offered(member_client, session, code, seats)
    session.refresh_from_db()
    entries = {"move": "resolve", "expected_version": session.version, f"own_{kind}": str(number)}
    response = bruno.post(f"/j/{code}/act/", entries)
    assert response.status_code == 400
    assert ruled("It is Ada&#x27;s turn. (rule TB-13)") in response.content.decode()
    response = ada.post(f"/j/{code}/act/", {**entries, "expected_version": session.version - 1})
    assert response.status_code == 409
    assert "Someone else changed this session a moment ago." in response.content.decode()
    version = session.version
    session.refresh_from_db()
    assert session.version == version
    assert session.state["game"]["build"] is not None
