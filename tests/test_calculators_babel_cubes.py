"""The public babel position calculator, as the contract in shared/api/calculators.md says."""

import pytest
from rest_framework.test import APIClient

from tests.test_babel_cubes_engine import TOWER

POSITION = "/api/v1/calculators/babel-cubes/position"
CONTRACT_EXAMPLE = [{"cell": "nw", "type": 1, "bulges": ["east"]}, {"cell": "ne", "type": 0, "bulges": []}]


@pytest.fixture
def api():
    return APIClient()


def post(api, body):
    return api.post(POSITION, body, format="json")


def test_the_contract_example_is_in_progress_with_player_1_to_move(api):  # BC-3
    body = post(api, {"moves": CONTRACT_EXAMPLE, "geometry": {"type2": "adjacent", "type3": "corner"}}).json()
    assert (body["status"], body["to_move"], body["winner"], body["level"]) == ("in_progress", 1, None, 1)
    assert body["legal_moves"]
    assert {move["cell"] for move in body["legal_moves"]} == {"sw", "se"}
    assert "value" not in body


def test_solve_gives_the_value_and_every_move_that_keeps_it(api):  # BC-9
    body = post(api, {"moves": [], "solve": True}).json()
    assert body["value"] == "win"
    assert 0 < len(body["best_moves"]) <= len(body["legal_moves"])
    for best in body["best_moves"]:
        after = post(api, {"moves": [best], "solve": True}).json()
        assert after["value"] == "loss"


def test_the_opening_has_32_legal_moves_and_no_type_4(api):  # BC-4, BC-5
    moves = post(api, {"moves": []}).json()["legal_moves"]
    assert len(moves) == 32
    assert all(move["type"] != 4 and "down" not in move["bulges"] for move in moves)


def test_a_complete_tower_is_a_draw(api):  # BC-9 decision
    moves = [{"cell": c, "type": t, "bulges": b} for c, t, b in TOWER]
    body = post(api, {"moves": moves, "solve": True}).json()
    assert (body["status"], body["to_move"], body["winner"], body["level"]) == ("drawn", None, None, 6)
    assert (body["legal_moves"], body["best_moves"], body["value"]) == ([], [], "draw")


def test_an_illegal_move_is_refused_with_its_index_and_rule(api):  # BC-7
    moves = [{"cell": "nw", "type": 0, "bulges": []}, {"cell": "se", "type": 0, "bulges": []}]
    response = post(api, {"moves": moves})
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["field"], error["rule"]) == ("moves[1].cell", "BC-7")
    assert "diagonal" in error["message"]


def test_a_bulge_facing_outwards_is_refused(api):  # BC-5
    response = post(api, {"moves": [{"cell": "nw", "type": 1, "bulges": ["north"]}]})
    assert response.status_code == 400
    assert response.json()["errors"][0] | {"message": ""} == {
        "field": "moves[0].bulges",
        "rule": "BC-5",
        "code": "rule",
        "message": "",
    }


def test_an_unknown_geometry_is_refused_naming_the_choice(api):  # BC-2
    response = post(api, {"moves": [], "geometry": {"type3": "spiral"}})
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["field"], error["rule"]) == ("geometry.type3", "BC-2")
    assert "corner" in error["message"]


def test_moves_must_be_a_list(api):
    response = post(api, {"moves": "nw"})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "moves"


def test_the_variant_geometry_changes_the_legal_moves(api):  # BC-2
    default = post(api, {"moves": []}).json()["legal_moves"]
    opposite = post(api, {"moves": [], "geometry": {"type2": "opposite"}}).json()["legal_moves"]
    assert len(default) == 32
    assert len(opposite) == 20


def test_a_25th_cube_is_refused_naming_its_index_and_bc_9(api):  # BC-9
    moves = [{"cell": c, "type": t, "bulges": b} for c, t, b in TOWER]
    response = post(api, {"moves": [*moves, moves[0]]})
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["field"], error["rule"]) == ("moves[24].cell", "BC-9")


def test_moves_after_a_finished_game_are_refused_at_the_first_one_however_many_follow(api):  # BC-9
    # Opposite type 2, U type 3: after three cubes the fourth cell is dead and player 1 has won.
    won = [{"cell": "nw", "type": 0, "bulges": []}, {"cell": "ne", "type": 1, "bulges": ["west"]},
           {"cell": "sw", "type": 1, "bulges": ["north"]}]  # fmt: skip
    extra = [{"cell": "se", "type": 0, "bulges": []}] * 100
    response = post(api, {"moves": won + extra, "geometry": {"type2": "opposite", "type3": "u"}})
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["field"], error["rule"]) == ("moves[3].cell", "BC-9")
