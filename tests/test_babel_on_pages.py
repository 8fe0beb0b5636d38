"""Playing Babel On! on the session page: set-up, roll-off, turns, refusals with the rule,
the tower pictures, the chance to draw, and finishing with Results."""

import pytest
from django.test import Client

from sessions import selectors, services
from tests.conftest import play, ruled


@pytest.fixture
def started(night, players):
    session = services.create_session(
        night=night, game="babel-on", players=players[:2], colours=["blue", ""], secret="b"
    )
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    session.refresh_from_db()
    return session


def seats(session):
    return [seat.key for seat in session.seats.all()]


def game(session):
    session.refresh_from_db()
    return session.state["game"]


def set_up_and_roll_off(client, session):
    a, b = seats(session)
    assert (
        play(client, session, "setup", **{f"colour_{a}": "blue", f"colour_{b}": "red", "extra": "green"}).status_code
        == 302
    )
    assert play(client, session, "rolloff", **{f"roll_{a}": "5", f"roll_{b}": "2"}).status_code == 302
    return a, b


def test_the_set_up_says_what_goes_into_the_bag_with_the_extra_colour(member_client, started):  # BO-2
    page = member_client.get(f"/s/{started.pk}/").content.decode()
    bag = page.split('data-testid="bo-setup-bag"')[1].split("</div>")[0]
    assert "Into the construction bag (68 blocks)" in bag
    for chip in ("blue 22", "red 22", "green 24"):  # the second seat gets a free colour
        assert chip in bag
    assert "keeps 2 blocks of their colour behind it" in bag
    a, b = seats(started)
    play(member_client, started, "setup", **{f"colour_{a}": "blue", f"colour_{b}": "red", "extra": "orange"})
    state = game(started)
    assert state["bag"] == {"blue": 22, "red": 22, "orange": 24}
    assert "Bag: 68 blocks" in member_client.get(f"/s/{started.pk}/").content.decode()


def test_the_roll_off_takes_typed_rolls_or_the_apps_die(member_client, started):  # BO-3
    a, b = seats(started)
    play(member_client, started, "setup", **{f"colour_{a}": "blue", f"colour_{b}": "red"})
    assert "Who goes first?" in member_client.get(f"/s/{started.pk}/").content.decode()
    play(member_client, started, "rolloff", **{f"roll_{a}": "4", f"roll_{b}": "4"})
    assert game(started)["rolloff"]["contenders"] == [a, b]
    assert "tie, roll again" in member_client.get(f"/s/{started.pk}/").content.decode()
    play(member_client, started, "rolloff", digital="1")
    state = game(started)
    assert state["phase"] == "playing"
    assert state["first"] == max(state["rolloff"]["rounds"][-1], key=state["rolloff"]["rounds"][-1].get)


def test_a_roll_says_what_it_means_and_a_right_even_call_places_the_drawn_blocks(member_client, started):  # BO-5
    a, _b = set_up_and_roll_off(member_client, started)
    play(member_client, started, "roll", call="even", roll="2", die="typed")
    page = member_client.get(f"/s/{started.pk}/").content.decode()
    assert "called even and rolled 2" in page
    assert "draw 2 blocks from the bag and add them all to your own tower" in page
    assert 'name="spot_1"' in page
    response = play(member_client, started, "draw", colour_0="blue", spot_0="1-nw", colour_1="green", spot_1="1-ne")
    assert response.status_code == 302
    state = game(started)
    assert state["towers"][a][0] == ["blue", "green", None, None]
    page = member_client.get(f"/s/{started.pk}/").content.decode()
    assert 'colour-blue" title="floor 1, north-west · blue"' in page
    assert "Bag: 66 blocks" in page


def test_a_placement_that_breaks_a_rule_is_refused_with_the_reason_and_rule(member_client, started):  # BO-7, BO-8
    a, _b = set_up_and_roll_off(member_client, started)
    play(member_client, started, "roll", call="even", roll="2", die="typed")
    response = play(member_client, started, "draw", colour_0="blue", spot_0="1-nw", colour_1="red", spot_1="2-se")
    assert response.status_code == 400
    assert ruled("must sit on a block in the same cell of floor 1. (rule BO-7)") in response.content.decode()
    response = play(member_client, started, "draw", colour_0="blue", spot_0="3-nw", colour_1="red", spot_1="1-se")
    assert ruled("(rule BO-7)") in response.content.decode()
    assert game(started)["towers"][a][0] == [None] * 4


def test_a_wrong_call_is_a_miss_and_a_missing_roll_is_refused(member_client, started):  # BO-4, BO-5
    _a, b = set_up_and_roll_off(member_client, started)
    response = play(member_client, started, "roll", call="odd", roll="", die="typed")
    assert ruled("A die shows 1 to 6. (rule BO-4)") in response.content.decode()
    play(member_client, started, "roll", call="odd", roll="4", die="typed")
    assert game(started)["active"] == b  # the turn passes at once (the Decision, BO-5)
    assert "a miss: the die goes to the left" in member_client.get(f"/s/{started.pk}/").content.decode()


def test_a_right_odd_call_moves_blocks_off_first_then_on(member_client, started):  # BO-9, BO-10
    a, b = set_up_and_roll_off(member_client, started)
    play(member_client, started, "bonus", bonus_0="1-nw", bonus_1="1-ne")
    play(member_client, started, "roll", call="even", roll="3", die="typed")  # a miss: b's turn
    play(member_client, started, "roll", call="odd", roll="1", die="typed")
    page = member_client.get(f"/s/{started.pk}/").content.decode()
    assert "Move 1 block" in page
    # Ada's blue comes off her tower: it is on her top floor, alone with her colour (BO-10).
    response = play(member_client, started, "move", from_0=f"{a}:1:nw", to_0=f"{b}:1:nw")
    assert response.status_code == 302
    state = game(started)
    assert state["towers"][a][0] == [None, "blue", None, None]
    assert state["towers"][b][0] == ["blue", None, None, None]


def test_bonus_blocks_a_knocked_tower_and_a_manual_adjustment_are_recorded(member_client, started):  # BO-6, BO-12
    a, b = set_up_and_roll_off(member_client, started)
    play(member_client, started, "bonus", bonus_0="1-nw")
    assert game(started)["bonus"][a] == 1
    play(member_client, started, "knock", seat=a, tower=a)
    state = game(started)
    assert (state["bonus"][a], state["bag"]["blue"], state["active"]) == (0, 24, b)
    response = play(member_client, started, "adjust", note="", remove="")
    assert response.status_code == 400
    play(
        member_client,
        started,
        "adjust",
        note="Bruno's block slid; put back",
        add_colour="red",
        add_tower=b,
        add_floor="1",
        add_cell="sw",
    )
    assert game(started)["towers"][b][0] == [None, None, "red", None]
    assert "Bruno&#x27;s block slid; put back" in member_client.get(f"/s/{started.pk}/").content.decode()


def test_the_chance_to_draw_is_exact(member_client, started):  # BO-5
    a, _b = set_up_and_roll_off(member_client, started)
    page = member_client.get(f"/s/{started.pk}/?chance_seat={a}&drawn=2&at_least=2").content.decode()
    # 22 of 68 blue: C(22,2)/C(68,2) = 231/2278
    assert "at least 2 blue among 2: 231/2278 ≈ 10.1%" in page
    page = member_client.get(f"/s/{started.pk}/?chance_seat={a}&drawn=99&at_least=1").content.decode()
    assert ruled("(rule BO-5)") in page


def test_knocking_an_opponents_tower_ends_the_game_and_finishing_writes_results(member_client, started):  # BO-12, BO-14
    a, b = set_up_and_roll_off(member_client, started)
    play(member_client, started, "knock", seat=b, tower=a)
    started.refresh_from_db()
    assert started.status == "scoring"
    page = member_client.get(f"/s/{started.pk}/").content.decode()
    assert "wins: last player standing!" in page
    member_client.post(f"/s/{started.pk}/do/finish/", {"expected_version": started.version})
    finished = member_client.get(f"/s/{started.pk}/").content.decode()
    assert 'data-testid="bo-status">\nLast player standing' in finished  # the winner is named once, above
    assert "wins: last player standing!" not in finished
    results = {str(r.player_id): r for r in started.results.all()}
    assert (results[a].rank, results[b].rank) == (1, 2)
    assert results[b].breakdown["eliminated"] is True
    started.refresh_from_db()
    assert selectors.replayed_state(started) == started.state


def test_a_phone_at_the_table_sees_the_towers_and_its_own_chances(member_client, started):  # BO-5
    a, _b = set_up_and_roll_off(member_client, started)
    code = services.create_join_code(session=started).code
    phone = Client()
    assert 'data-testid="bo-tower-' in phone.get(f"/j/{code}/").content.decode()
    phone.post(f"/j/{code}/seat/", {"seat": a})
    page = phone.get(f"/j/{code}/").content.decode()
    assert "Your chances to draw blue" in page
    # Ada's phone records her own turn and bonus blocks (tests/test_babel_on_phones.py); the
    # rest of the controls stay on the members' page.
    assert "Bonus blocks" in page
    for control in ("A tower was knocked over", "Manual adjustment with a note", "Set-up"):
        assert control not in page


def test_undo_takes_a_turn_back(member_client, started):
    a, _b = set_up_and_roll_off(member_client, started)
    play(member_client, started, "roll", call="odd", roll="4", die="typed")
    started.refresh_from_db()
    member_client.post(f"/s/{started.pk}/do/undo/", {"expected_version": started.version})
    assert game(started)["active"] == a
    assert game(started)["last_roll"] is None


def test_the_board_page_keeps_a_flat_query_count(member_client, started, django_assert_max_num_queries):
    set_up_and_roll_off(member_client, started)
    with django_assert_max_num_queries(15):
        member_client.get(f"/s/{started.pk}/")


def test_an_unknown_move_is_a_404(member_client, started):
    assert play(member_client, started, "teleport").status_code == 404


def test_a_colour_chosen_with_the_session_is_kept_at_set_up(member_client, started):  # BO-2
    page = member_client.get(f"/s/{started.pk}/").content.decode()
    first, second = seats(started)
    assert f'<input type="hidden" name="colour_{first}" value="blue">' in page
    assert f'<select name="colour_{second}">' in page
