"""Playing babel on the session page and on the two phones: picker, tower, hints, review."""

import re

import pytest
from django.test import Client

from scoring.babel_cubes import solver
from scoring.babel_cubes.moves import position_of
from sessions import services
from sessions.boards.babel_cubes import move_key
from sessions.table.tickets import TICKET_HEADER
from tests.conftest import play, ruled
from tests.test_babel_cubes_engine import TOWER


@pytest.fixture
def cubes(night, players):
    session = services.create_session(night=night, game="babel-cubes", players=players[:2], secret="3")
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    session.refresh_from_db()
    return session


def place(client, session, placement):
    return play(client, session, "place", placement=placement)


def key(cell, cube_type, bulges):
    return f"{cell}:{cube_type}:{','.join(bulges)}"


def picker_keys(page):
    return set(re.findall(r'name="placement" value="([^"]+)"', page))


def test_the_picker_offers_exactly_the_legal_opening_placements(member_client, cubes):  # BC-4, BC-5, BC-7
    page = member_client.get(f"/s/{cubes.pk}/").content.decode()
    keys = picker_keys(page)
    assert len(keys) == 32
    assert not any(":4:" in k for k in keys)  # BC-4
    assert "Ada to place a cube · level 1 of 6" in page
    assert page.count('data-testid="bc-hand"') == 2
    assert "type 4 (blue) \u00d72" in page  # BC-1: each player's half of the set


def test_the_picker_is_one_form_that_sends_the_orientation_pressed(member_client, cubes):
    page = member_client.get(f"/s/{cubes.pk}/").content.decode()
    picker = re.search(r'<form method="post" action="[^"]+" id="place".*?</form>', page, re.S)
    assert picker is not None
    assert len(picker_keys(picker[0])) == 32  # every orientation a button of this one form
    assert picker[0].count('name="idempotency_key"') == picker[0].count('name="expected_version"') == 1
    keys = dict(re.findall(r'name="(idempotency_key|expected_version|form)" value="([^"]*)"', picker[0]))
    sent = {**keys, "placement": key("nw", 1, ["east"])}
    assert member_client.post(f"/s/{cubes.pk}/play/place/", sent).status_code == 302
    assert member_client.post(f"/s/{cubes.pk}/play/place/", sent).status_code == 302  # a double tap
    cubes.refresh_from_db()
    assert len(cubes.state["game"]["moves"]) == 1


def test_a_placement_is_drawn_and_passes_the_turn(member_client, cubes):  # BC-3, BC-7
    assert place(member_client, cubes, key("nw", 1, ["east"])).status_code == 302
    cubes.refresh_from_db()
    assert cubes.state["game"]["to_move"] == 2
    page = member_client.get(f"/s/{cubes.pk}/").content.decode()
    assert "Bruno to place a cube" in page
    assert "1 cube placed" in page
    keys = picker_keys(page)
    assert keys
    assert not any(k.startswith(("nw:", "se:")) for k in keys)


def test_an_illegal_placement_is_refused_with_its_rule(member_client, cubes):  # BC-5
    response = place(member_client, cubes, key("nw", 1, ["north"]))
    assert response.status_code == 400
    assert ruled("(rule BC-5)") in response.content.decode()
    cubes.refresh_from_db()
    assert cubes.state["game"]["moves"] == []


def test_a_placement_without_a_type_is_refused_naming_the_rule(member_client, cubes):
    response = place(member_client, cubes, "nw::")
    assert response.status_code == 400
    assert "BC-1" in response.content.decode()


def test_hints_are_off_by_default_and_switch_on_for_this_browser_only(member_client, owner_client, cubes):
    page = member_client.get(f"/s/{cubes.pk}/").content.decode()
    assert 'data-testid="bc-hint"' not in page
    member_client.post(f"/s/{cubes.pk}/hints/")
    page = member_client.get(f"/s/{cubes.pk}/").content.decode()
    assert "With perfect play Ada wins." in page
    best = {move_key(m) for m in solver.best_moves(position_of(cubes.state["game"]))}
    marked = set(re.findall(r'value="([^"]+)" class="best"', page))
    assert marked == best
    assert 'data-testid="bc-hint"' not in owner_client.get(f"/s/{cubes.pk}/").content.decode()
    member_client.post(f"/s/{cubes.pk}/hints/")
    assert 'data-testid="bc-hint"' not in member_client.get(f"/s/{cubes.pk}/").content.decode()


def test_outsiders_can_neither_see_nor_switch_hints(outsider_client, cubes):
    assert outsider_client.post(f"/s/{cubes.pk}/hints/").status_code == 404


def phone(code, seat):
    client = Client()
    client.post(f"/j/{code}/seat/", {"seat": seat})
    return client


def test_each_phone_gets_the_picker_only_on_its_own_turn(cubes):  # BC-3
    code = services.create_join_code(session=cubes).code
    first, second = (phone(code, seat.key) for seat in cubes.seats.all())
    assert 'data-testid="bc-my-turn"' in first.get(f"/j/{code}/").content.decode()
    assert 'data-testid="bc-waiting"' in second.get(f"/j/{code}/").content.decode()
    assert second.post(f"/j/{code}/act/", {"move": "place", "placement": "nw:0:"}).status_code == 400
    placed = {"move": "place", "placement": "nw:0:", "idempotency_key": "k1", "expected_version": cubes.version}
    assert first.post(f"/j/{code}/act/", placed).status_code == 302
    # A double tap sends the same key again: one cube is placed.
    first.post(f"/j/{code}/act/", placed)
    cubes.refresh_from_db()
    assert len(cubes.state["game"]["moves"]) == 1
    assert 'data-testid="bc-my-turn"' in second.get(f"/j/{code}/").content.decode()


def test_a_phone_hint_switch_spoils_only_that_phone(cubes):
    code = services.create_join_code(session=cubes).code
    first, second = (phone(code, seat.key) for seat in cubes.seats.all())
    first.post(f"/j/{code}/hints/")
    assert 'data-testid="bc-hint"' in first.get(f"/j/{code}/live/").content.decode()
    assert 'data-testid="bc-hint"' not in second.get(f"/j/{code}/live/").content.decode()


def test_a_complete_tower_ends_in_a_draw_and_finishing_writes_results(member_client, cubes):  # BC-9
    for cell, cube_type, bulges in TOWER:
        assert place(member_client, cubes, key(cell, cube_type, bulges)).status_code == 302
    cubes.refresh_from_db()
    assert cubes.status == "scoring"
    page = member_client.get(f"/s/{cubes.pk}/").content.decode()
    assert "The tower is complete: a draw." in page
    assert page.count("<li class=") >= 24
    assert 'data-testid="bc-review"' in page
    member_client.post(f"/s/{cubes.pk}/do/finish/", {"expected_version": cubes.version})
    cubes.refresh_from_db()
    assert cubes.status == "finished"
    assert sorted(r.rank for r in cubes.results.all()) == [1, 1]


def test_the_review_marks_a_move_that_threw_away_the_win(member_client, cubes):  # BC-9
    opening = position_of(cubes.state["game"])
    losing = next(m for m, value in solver.move_values(opening) if value != 1)
    place(member_client, cubes, move_key(losing))
    # Play on with the best moves until the game ends.
    while True:
        cubes.refresh_from_db()
        state = cubes.state["game"]
        if state["status"] != "in_progress":
            break
        place(member_client, cubes, move_key(solver.best_moves(position_of(state))[0]))
    assert state["status"] == "won"
    assert state["winner"] == 2
    page = member_client.get(f"/s/{cubes.pk}/").content.decode()
    assert "Bruno wins: the other player cannot place a cube." in page
    review = page[page.index('data-testid="bc-review"') :]
    first = review[: review.index("</li>")]
    assert 'data-testid="threw-win"' in first
    assert review.count('data-testid="threw-win"') == 1
    cubes.refresh_from_db()
    member_client.post(f"/s/{cubes.pk}/do/finish/", {"expected_version": cubes.version})
    finished = member_client.get(f"/s/{cubes.pk}/").content.decode()
    assert "The other player could not place a cube." in finished  # Bruno is named once, above it
    assert "Bruno wins: the other player" not in finished


def test_the_board_page_keeps_a_flat_query_count(member_client, cubes, django_assert_max_num_queries):
    for cell, cube_type, bulges in TOWER[:6]:
        place(member_client, cubes, key(cell, cube_type, bulges))
    with django_assert_max_num_queries(12):
        member_client.get(f"/s/{cubes.pk}/")


def test_switching_hints_on_readies_the_whole_game_so_every_hint_is_a_lookup(member_client, cubes):
    solver.forget()
    member_client.post(f"/s/{cubes.pk}/hints/")
    geometry = position_of(cubes.state["game"]).geometry
    engine = solver.solver_for(geometry)
    # every position of the default game: in this process's memo, or in the machine's table
    solved = engine.table.count if engine.table is not None else len(engine.memo)
    assert solved >= 100_000


def test_hints_stay_as_each_browser_chose_on_a_new_version_fetched_with_a_ticket(member_client, owner_client, cubes):
    code = services.create_join_code(session=cubes).code
    first, second = (phone(code, seat.key) for seat in cubes.seats.all())
    first.post(f"/j/{code}/hints/")
    member_client.post(f"/s/{cubes.pk}/hints/")
    regions = {first: f"/j/{code}/live/", second: f"/j/{code}/live/"}
    regions |= {member_client: f"/s/{cubes.pk}/live/", owner_client: f"/s/{cubes.pk}/live/"}
    htmx = {"HX-Request": "true"}
    tickets = {client: client.get(url, headers=htmx)[TICKET_HEADER] for client, url in regions.items()}
    opening = position_of(cubes.state["game"])
    place(owner_client, cubes, move_key(next(move for move, _value in solver.move_values(opening))))
    switched = {}
    for client, url in regions.items():
        page = client.get(url, headers={**htmx, TICKET_HEADER: tickets[client]}).content.decode()
        assert 'data-version="2.' in page  # the new version, rendered on the ticket
        switched[client] = 'data-testid="bc-hint-switch"' in page and 'aria-checked="true"' in page
    assert switched == {first: True, second: False, member_client: True, owner_client: False}
