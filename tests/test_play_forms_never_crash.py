"""Whatever a phone posts to a game's controls, the answer is a move or a refusal, never a 500.

Random form fields (the names the board templates use, with a seat key or an index where a
template adds one) and random values go to every move of every game, on the host's page and
on a phone; afterwards the session still replays to its cached state.
"""

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions import selectors, services
from sessions.boards import BOARDS

FIELDS = [
    "accept_",
    "add_colour",
    "add_cell",
    "add_floor",
    "add_tower",
    "assign_",
    "at_least",
    "babel_tiles",
    "bonus_",
    "building_disc_bonus",
    "built_",
    "call",
    "cannot_suffer_",
    "chance_seat",
    "colour_",
    "die",
    "digital",
    "disc",
    "double_turn",
    "drawn",
    "end_turn",
    "extra",
    "five_points",
    "from_",
    "jokers",
    "move",
    "not_fulfilled",
    "note",
    "offer_",
    "own_",
    "placement",
    "remove_cell",
    "remove_floor",
    "remove_tower",
    "roll",
    "roll_",
    "seat",
    "spot_",
    "tile",
    "tile_",
    "to_",
    "tower",
    "trading",
    "trading_",
    "triple",
    "triple_",
    "wonder",
    "military",
    "coins",
    "science_tablet",
    "science_wild",
]
VALUES = st.one_of(
    st.text(max_size=12),
    st.integers(min_value=-(10**12), max_value=10**12).map(str),
    st.sampled_from(["", "0", "1", "2", "6", "even", "odd", "nw", "se", "1:nw", "nw:1:up", "red", "pyramids", "3+4"]),
    # Unicode digits (int() takes "٣", str.isdigit() lets "²" through) and int()'s 4,300-digit limit.
    st.sampled_from(["²", "٣", "\uff11\uff12", "3+²", "9" * 5000, "1+" + "9" * 5000, "nw:²:up", "2-²"]),
)
GAMES = {
    "tower-of-babel": 3,
    "seven-wonders": 3,
    "babel-on": 2,
    "babel-cubes": 2,
}


@pytest.fixture
def tables(night, players):
    sessions = {}
    for game, count in GAMES.items():
        options = {"tower_tiles": True, "great_projects": True} if game == "seven-wonders" else {}
        session = services.create_session(night=night, game=game, players=players[:count], options=options, secret="5")
        services.append_event(session_id=session.pk, expected_version=0, type="session.start")
        sessions[game] = session
    return sessions, services.create_join_code(session=sessions["babel-cubes"]).code


def form(draw, session):
    keys = [seat.key for seat in session.seats.all()]
    names = draw(st.lists(st.sampled_from(FIELDS), max_size=6))
    data = {}
    for name in names:
        suffix = draw(st.sampled_from([*keys, "0", "1", "x"])) if name.endswith("_") else ""
        data[name + suffix] = draw(VALUES)
    return data


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_posts_to_every_move_get_a_move_or_a_refusal(member_client, tables, data):
    sessions, _code = tables
    game = data.draw(st.sampled_from(sorted(GAMES)))
    session = sessions[game]
    session.refresh_from_db()
    event = data.draw(st.sampled_from(sorted(BOARDS[game].EVENTS)))
    body = {"expected_version": session.version, **form(data.draw, session)}
    response = member_client.post(f"/s/{session.pk}/play/{event}/", body)
    assert response.status_code in (200, 302, 400, 409), response.status_code
    session.refresh_from_db()
    assert selectors.replayed_state(session) == session.state


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_posts_from_a_phone_get_a_move_or_a_refusal(tables, data):
    sessions, code = tables
    session = sessions["babel-cubes"]
    phone = Client()
    phone.post(f"/j/{code}/seat/", {"seat": data.draw(st.sampled_from([s.key for s in session.seats.all()]))})
    body = {"move": data.draw(st.sampled_from(["place", "offer", "x"])), **form(data.draw, session)}
    session.refresh_from_db()
    body["expected_version"] = session.version  # the placement form says the table it was shown
    response = phone.post(f"/j/{code}/act/", body)
    assert response.status_code in (200, 302, 400, 404), response.status_code
    session.refresh_from_db()
    assert selectors.replayed_state(session) == session.state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_posts_to_every_move_made_before_the_table_moved_on_are_refused_as_stale(member_client, tables, data):
    """Sent at an older version, any move of any game answers 409 (the page with the form as
    typed), never a 500, and changes nothing."""
    sessions, _code = tables
    game = data.draw(st.sampled_from(sorted(GAMES)))
    session = sessions[game]
    session.refresh_from_db()
    before = (session.version, session.state)
    event = data.draw(st.sampled_from(sorted(BOARDS[game].EVENTS)))
    stale = data.draw(st.integers(min_value=0, max_value=session.version - 1))
    body = {"expected_version": stale, **form(data.draw, session)}
    response = member_client.post(f"/s/{session.pk}/play/{event}/", body)
    assert response.status_code == 409, response.status_code
    session.refresh_from_db()
    assert (session.version, session.state) == before
