"""The babel cube-tower engine, rule by rule (BC-1..BC-9)."""

import copy
import json
import re
from itertools import combinations, permutations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import session as core
from scoring.babel_cubes import geometry
from scoring.babel_cubes.engine import PLACE, BabelCubes, analyse
from scoring.babel_cubes.geometry import (
    CELLS,
    FACES,
    NEIGHBOURS,
    ROTATIONS,
    SQUARE,
    cell_image,
    faces_of,
    hand_of_each,
    inner_faces,
    load_geometry,
    mask_of,
    neighbour,
    permute,
    raw_data,
)
from scoring.babel_cubes.moves import Move, Position, legal_moves, parse_move, position_of, replay, violation
from scoring.errors import RuleError
from scoring.score_entry import ScoreEntry

ENGINE = BabelCubes()
SEATS = ["light", "dark"]
GEOMETRIES = [{"type2": t2, "type3": t3} for t2 in ("adjacent", "opposite") for t3 in ("corner", "u")]
ALL_FACE_SETS = [list(faces) for size in range(7) for faces in combinations(FACES, size)]

# A complete tower under the default geometry (found by a search, checked by replay below).
TOWER = [
    ("nw", 0, []),
    ("ne", 1, ["west"]),
    ("sw", 1, ["north"]),
    ("se", 3, ["up", "north", "west"]),
    ("nw", 1, ["down"]),
    ("ne", 2, ["down", "west"]),
    ("sw", 2, ["down", "north"]),
    ("se", 3, ["up", "north", "west"]),
    ("nw", 1, ["down"]),
    ("ne", 3, ["down", "south", "west"]),
    ("sw", 3, ["down", "north", "east"]),
    ("se", 0, []),
    ("nw", 4, ["up", "down", "south", "east"]),
    ("ne", 1, ["down"]),
    ("se", 4, ["up", "down", "north", "west"]),
    ("sw", 1, ["down"]),
    ("nw", 0, []),
    ("ne", 4, ["up", "down", "south", "west"]),
    ("se", 0, []),
    ("sw", 4, ["up", "down", "north", "east"]),
    ("nw", 3, ["down", "south", "east"]),
    ("ne", 0, []),
    ("se", 3, ["down", "north", "west"]),
    ("sw", 0, []),
]


def move(cell, cube_type, bulges):
    return {"cell": cell, "type": cube_type, "bulges": list(bulges)}


def game(moves=(), **geometry):
    state = ENGINE.initial_state(seats=SEATS, options=geometry, seed=1)
    for played in moves:
        state = ENGINE.apply(state, type=PLACE, payload=move(*played))
    return state


def refused(state, rule, *played):
    with pytest.raises(RuleError) as error:
        ENGINE.apply(state, type=PLACE, payload=move(*played))
    assert error.value.rule == rule, error.value.message
    return error.value


def test_the_set_holds_twenty_four_cubes_and_each_player_gets_half_of_each_type():  # BC-1
    cubes = {cube["type"]: cube["count"] for cube in raw_data()["cubes"]}
    assert cubes == {0: 6, 1: 6, 2: 2, 3: 6, 4: 4}
    assert sum(t * count for t, count in cubes.items()) == 44  # one bulge per inner contact of a 2x2x6 tower
    assert hand_of_each() == (3, 3, 1, 3, 2)
    assert game()["hands"] == {"1": [3, 3, 1, 3, 2], "2": [3, 3, 1, 3, 2]}


def test_a_player_cannot_place_a_type_they_have_used_up():  # BC-1
    state = game([("nw", 0, []), ("ne", 1, ["west"]), ("sw", 2, ["north", "east"]), ("se", 1, ["north"])])
    assert state["hands"] == {"1": [2, 3, 0, 3, 2], "2": [3, 1, 1, 3, 2]}
    assert refused(state, "BC-1", "nw", 2, ["down", "east"]).field == "type"


def test_a_cube_shows_exactly_as_many_bulges_as_its_type():  # BC-1
    assert refused(game(), "BC-1", "nw", 2, ["east"]).field == "bulges"


def test_the_default_geometry_puts_two_bulges_on_adjacent_faces_and_three_at_a_corner():  # BC-2
    default = load_geometry()
    assert [len(default.orientations[t]) for t in range(5)] == [1, 6, 12, 8, 12]
    variant = load_geometry({"type2": "opposite", "type3": "u"})
    assert [len(variant.orientations[t]) for t in range(5)] == [1, 6, 3, 12, 12]
    on_level_two = game(TOWER[:4])
    assert refused(on_level_two, "BC-2", "ne", 2, ["down", "up"]).field == "bulges"
    assert refused(on_level_two, "BC-2", "ne", 3, ["down", "up", "west"]).field == "bulges"
    assert ENGINE.apply(game(TOWER[:4], type2="opposite"), type=PLACE, payload=move("nw", 2, ["up", "down"]))


def test_the_layouts_are_data_marked_default_or_variant():  # BC-2
    layouts = raw_data()["layouts"]
    assert {name: layout["status"] for name, layout in layouts["type2"].items()} == {
        "adjacent": "default",
        "opposite": "variant",
    }
    assert {name: layout["status"] for name, layout in layouts["type3"].items()} == {
        "corner": "default",
        "u": "variant",
    }
    assert layouts["type4"]["adjacent"]["bulges"] == ["down", "south", "east", "west"]  # indents up and north


def test_a_session_picks_its_geometry_and_an_unknown_layout_is_refused():  # BC-2
    assert game(type2="opposite")["geometry"] == {"type2": "opposite", "type3": "corner"}
    with pytest.raises(RuleError) as error:
        ENGINE.initial_state(seats=SEATS, options={"type3": "spiral"}, seed=1)
    assert (error.value.field, error.value.rule) == ("type3", "BC-2")


def test_players_alternate_and_a_level_is_complete_before_the_next_starts():  # BC-3
    state = game(TOWER[:3])
    assert (state["to_move"], state["level"]) == (2, 1)
    assert refused(state, "BC-3", "nw", 0, []).field == "cell"  # taken: the next level waits
    state = game(TOWER[:4])
    assert (state["to_move"], state["level"]) == (1, 2)


def test_the_tower_has_six_levels_of_four_cubes():  # BC-3
    state = game(TOWER)
    assert (state["level"], len(state["moves"])) == (6, 24)
    assert state["hands"] == {"1": [0, 0, 0, 0, 0], "2": [0, 0, 0, 0, 0]}


def test_a_cell_outside_the_square_is_refused():  # BC-3
    assert refused(game(), "BC-3", "middle", 0, []).field == "cell"


def test_the_first_cube_cannot_be_type_four():  # BC-4
    assert refused(game(), "BC-4", "nw", 4, ["up", "down", "south", "east"]).field == "type"


def test_only_indents_face_outwards():  # BC-5
    assert refused(game(), "BC-5", "nw", 1, ["north"]).field == "bulges"
    assert refused(game(), "BC-5", "se", 1, ["east"]).field == "bulges"


def test_ground_level_bottoms_rest_on_the_table_as_indents():  # BC-5
    assert refused(game(), "BC-5", "nw", 1, ["down"]).field == "bulges"
    assert ENGINE.apply(game(TOWER[:4]), type=PLACE, payload=move("nw", 1, ["down"]))  # level 2: it fills a top


def test_a_side_contact_needs_one_bulge_and_one_indent():  # BC-6
    after_indent = game([("nw", 0, [])])
    error = refused(after_indent, "BC-6", "ne", 0, [])  # a hollow
    assert (error.field, error.params) == ("bulges", {"face": "west"})
    after_bulge = game([("nw", 1, ["east"])])
    refused(after_bulge, "BC-6", "ne", 1, ["west"])  # bulge against bulge
    assert ENGINE.apply(after_bulge, type=PLACE, payload=move("ne", 0, []))


def test_a_face_towards_an_empty_cell_is_checked_only_when_that_cell_is_filled():  # BC-6
    state = game([("nw", 1, ["east"]), ("ne", 0, [])])  # nw's south indent faces the empty sw
    assert refused(state, "BC-6", "sw", 0, []).params == {"face": "north"}
    assert ENGINE.apply(state, type=PLACE, payload=move("sw", 1, ["north"]))


def test_a_cube_on_top_pairs_its_bottom_with_the_top_below():  # BC-6
    state = game(TOWER[:4])  # the se cube of level 1 shows a bulge upwards, the others indents
    assert refused(state, "BC-6", "nw", 0, []).params == {"face": "down"}  # a hollow
    assert refused(state, "BC-6", "se", 1, ["down"]).params == {"face": "down"}  # bulge on bulge
    assert ENGINE.apply(state, type=PLACE, payload=move("se", 0, []))


def test_the_second_ground_cube_must_touch_the_first():  # BC-7
    state = game([("nw", 0, [])])
    assert refused(state, "BC-7", "se", 1, ["north"]).field == "cell"
    assert ENGINE.apply(state, type=PLACE, payload=move("sw", 1, ["north"]))


def test_diagonal_placing_is_allowed_above_the_ground_level():  # BC-7
    state = game([*TOWER[:4], ("nw", 1, ["down"])])
    assert ENGINE.apply(state, type=PLACE, payload=move("se", 0, []))


def test_the_sixth_level_may_show_bulges_upwards():  # BC-8
    state = game(TOWER[:20])
    assert state["level"] == 6
    after = ENGINE.apply(state, type=PLACE, payload=move("ne", 3, ["up", "south", "west"]))
    assert after["status"] == "in_progress"


def test_the_player_who_cannot_place_a_cube_loses():  # BC-9
    # Opposite type 2, U type 3: nothing on the ground holds two inner bulges, so se is dead.
    state = game([("nw", 0, []), ("ne", 1, ["west"]), ("sw", 1, ["north"])], type2="opposite", type3="u")
    assert (state["status"], state["winner"], state["to_move"]) == ("won", 1, None)
    standings = ENGINE.standings(state)
    assert [(s.seat, s.rank) for s in standings] == [("light", 1), ("dark", 2)]
    assert refused(state, "BC-9", "se", 0, []).field == "cell"


def test_a_complete_tower_is_a_draw():  # BC-9
    state = game(TOWER)
    assert (state["status"], state["winner"], state["to_move"]) == ("drawn", None, None)
    assert [(s.seat, s.rank) for s in ENGINE.standings(state)] == [("light", 1), ("dark", 1)]
    assert ENGINE.standings(game(TOWER[:23])) is None


def test_the_default_geometry_has_thirty_two_opening_moves():  # BC-2, BC-4, BC-5
    # On the ground only the top and the two inner sides can bulge (outer sides and the bottom
    # are indents, BC-5), and nothing touches the first cube yet. Per cell: type 0 one way;
    # type 1 three (top or either inner side); type 2, bulges on adjacent faces: any two of
    # the three (the top meets each side, the two inner sides meet at the inner edge), three;
    # type 3, three faces at one corner: top + both inner sides, one; type 4 none (BC-4, and it
    # would need a bulge under it). 1 + 3 + 3 + 1 = 8 per cell, times 4 cells = 32.
    opening = legal_moves(Position(load_geometry()))
    assert len(opening) == 32
    assert {m.cell for m in opening} == {"nw", "ne", "sw", "se"}
    assert sorted(m.type for m in opening if m.cell == "nw") == [0, 1, 1, 1, 2, 2, 2, 3]
    # The variants lose the layouts that need a bulge under the cube: 20, 28 and 16 moves.
    counts = [len(legal_moves(Position(load_geometry(g)))) for g in GEOMETRIES]
    assert counts == [32, 28, 20, 16]


def test_a_replayed_game_names_the_index_of_the_illegal_move():  # BC-7
    with pytest.raises(RuleError) as error:
        replay([move(*TOWER[0]), move(*TOWER[1]), move(*TOWER[2]), move("nw", 0, [])])
    assert (error.value.field, error.value.rule) == ("moves[3].cell", "BC-3")
    with pytest.raises(RuleError) as error:
        analyse([move("nw", 1, ["east"]), move("se", 0, [])])
    assert (error.value.field, error.value.rule) == ("moves[1].cell", "BC-7")


def test_the_analysis_follows_the_api_contract():  # BC-9
    result = analyse([move("nw", 1, ["east"]), move("ne", 0, [])], {"type2": "adjacent", "type3": "corner"}, solve=True)
    assert (result["status"], result["to_move"], result["winner"], result["level"]) == ("in_progress", 1, None, 1)
    assert move("sw", 1, ["north"]) in result["legal_moves"]
    assert result["value"] in ("win", "loss", "draw")
    assert all(best in result["legal_moves"] for best in result["best_moves"])


def test_malformed_moves_are_refused_with_the_field_and_rule():  # BC-1, BC-3
    state = game()
    cases = [
        ({"type": 0, "bulges": []}, "cell", "BC-3"),
        ({"cell": "nw", "type": "grey", "bulges": []}, "type", "BC-1"),
        ({"cell": "nw", "type": True, "bulges": []}, "type", "BC-1"),
        ({"cell": "nw", "type": 1, "bulges": "up"}, "bulges", "BC-1"),
        ({"cell": "nw", "type": 2, "bulges": ["up", "up"]}, "bulges", "BC-1"),
        ({"cell": "nw", "type": 1, "bulges": ["sideways"]}, "bulges", "BC-1"),
    ]
    for payload, field, rule in cases:
        with pytest.raises(RuleError) as error:
            ENGINE.apply(state, type=PLACE, payload=payload)
        assert (error.value.field, error.value.rule) == (field, rule), payload


def test_the_state_is_json_and_is_never_mutated():
    state = game(TOWER[:5])
    before = copy.deepcopy(state)
    after = ENGINE.apply(state, type=PLACE, payload=move(*TOWER[5]))
    assert state == before
    assert json.loads(json.dumps(after)) == after
    assert after["moves"][-1] == move(*TOWER[5])


def test_the_session_core_replays_a_game_to_its_outcome():  # BC-9
    rules = core.Rules(entry=ScoreEntry(), engine=ENGINE)
    events = [core.Event(seq=1, type=core.START)]
    events += [core.Event(seq=i + 2, type=PLACE, payload=move(*played)) for i, played in enumerate(TOWER)]
    state = core.replay(rules, seats=SEATS, options={}, seed=3, events=events)
    assert state["status"] == core.SCORING
    assert [s.rank for s in core.standings(rules, state)] == [1, 1]


def test_an_unknown_event_type_is_refused():
    with pytest.raises(RuleError) as error:
        ENGINE.apply(game(), type="bc.jump", payload={})
    assert error.value.field == "type"


@st.composite
def positions(draw, *, low=0, high=24):
    """The engine state of a random game, cut at a random depth."""
    geometry = draw(st.sampled_from(GEOMETRIES))
    depth = draw(st.integers(low, high))
    state = game(**geometry)
    while len(state["moves"]) < depth and state["status"] == "in_progress":
        chosen = draw(st.sampled_from(legal_moves(position_of(state))))
        state = ENGINE.apply(state, type=PLACE, payload=chosen.as_json())
    return state


@settings(max_examples=40, deadline=None)
@given(positions())
def test_every_legal_move_is_accepted_and_every_other_candidate_is_refused(state):  # BC-1..BC-9
    position = position_of(state)
    legal = {json.dumps(m.as_json()) for m in legal_moves(position)}
    accepted, refusals = set(), []
    for cell in ("nw", "ne", "sw", "se"):
        for cube_type in range(5):
            for faces in ALL_FACE_SETS:
                payload = move(cell, cube_type, faces)
                try:
                    ENGINE.apply(state, type=PLACE, payload=payload)
                except RuleError as error:
                    refusals.append((error.field, error.rule or ""))
                else:
                    accepted.add(json.dumps(payload))
    assert all(field in ("cell", "type", "bulges") and re.fullmatch(r"BC-[1-9]", rule) for field, rule in refusals)
    assert accepted == legal


# --- Geometry, stated independently: cells and faces as vectors --------------------------------

VECTOR = {
    "up": (0, 0, 1),
    "down": (0, 0, -1),
    "north": (0, 1, 0),
    "south": (0, -1, 0),
    "east": (1, 0, 0),
    "west": (-1, 0, 0),
}
OPPOSITE_PAIRS = [("up", "down"), ("north", "south"), ("east", "west")]
CELL_AT = {(-1, 1): "nw", (1, 1): "ne", (-1, -1): "sw", (1, -1): "se"}  # x east, y north
SPOT = {cell: spot for spot, cell in CELL_AT.items()}


def by_index(images):
    """A face permutation as ``geometry.Perm`` from ``{face: image}``."""
    return tuple(FACES.index(images[face]) for face in FACES)


def cube_symmetries():
    """Every relabelling of the faces that keeps opposite faces opposite (48), as ``{face: image}``."""
    found = []
    for images in permutations(FACES):
        image = dict(zip(FACES, images, strict=True))
        if all(VECTOR[image[a]] == tuple(-x for x in VECTOR[image[b]]) for a, b in OPPOSITE_PAIRS):
            found.append(image)
    return found


def handedness(image):
    """+1 for a turn of the cube, -1 for a mirror image (the determinant of the linear map)."""
    (a, b, c), (d, e, f), (g, h, i) = VECTOR[image["east"]], VECTOR[image["north"]], VECTOR[image["up"]]
    return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)


TURNS = [image for image in cube_symmetries() if handedness(image) == 1]
SQUARE_MAPS = [image for image in cube_symmetries() if image["up"] == "up"]


def test_each_cell_touches_its_two_side_neighbours_and_never_the_diagonal_one():  # BC-6, BC-7
    for cell in CELLS:
        x, y = SPOT[cell]
        inner = [face for face in ("north", "south", "east", "west") if VECTOR[face][:2] in ((0, -y), (-x, 0))]
        assert inner_faces(cell) == tuple(inner)
        touching = {face: CELL_AT[(x + 2 * VECTOR[face][0], y + 2 * VECTOR[face][1])] for face in inner}
        assert {face: neighbour(cell, face) for face in inner} == touching == NEIGHBOURS[cell]


def test_a_turned_cube_shows_each_bulge_on_the_face_it_was_turned_to():  # BC-2
    quarter_turn = by_index(
        {"up": "up", "down": "down", "north": "east", "east": "south", "south": "west", "west": "north"}
    )
    assert permute(mask_of(["north", "up"]), quarter_turn) == mask_of(["east", "up"])
    assert permute(mask_of(["down", "south", "east", "west"]), quarter_turn) == mask_of(
        ["down", "west", "south", "north"]
    )
    assert permute(0, quarter_turn) == 0
    for image in cube_symmetries():
        for mask in range(64):
            bulges = {face for face in FACES if mask & 1 << FACES.index(face)}
            shown = {image[face] for face in bulges}
            assert faces_of(permute(mask, by_index(image))) == [face for face in FACES if face in shown]


def test_the_cube_turns_are_generated_by_a_quarter_turn_and_a_roll():  # BC-2
    # ROTATIONS and SQUARE are built when the module loads; the group is rebuilt here so that
    # a mutation tool that switches mutants on after the import sees it too.
    quarter = {"north": "east", "east": "south", "south": "west", "west": "north"}
    roll = {"up": "north", "north": "down", "down": "south", "south": "up"}
    mirror = {"north": "south", "south": "north"}
    assert (len(TURNS), len(SQUARE_MAPS)) == (24, 8)
    assert geometry._perm(quarter) == by_index({"up": "up", "down": "down", **quarter})
    assert geometry._perm(roll) == by_index({"east": "east", "west": "west", **roll})
    turns = geometry._closure([geometry._perm(quarter), geometry._perm(roll)])
    square = geometry._closure([geometry._perm(quarter), geometry._perm(mirror)])
    assert sorted(turns) == sorted(ROTATIONS) == sorted(by_index(image) for image in TURNS)
    assert sorted(square) == sorted(SQUARE) == sorted(by_index(image) for image in SQUARE_MAPS)


def test_a_symmetry_of_the_square_carries_each_cell_with_its_outer_faces():
    for image in SQUARE_MAPS:
        for cell in CELLS:
            x, y = SPOT[cell]
            east, north = VECTOR[image["east"]], VECTOR[image["north"]]
            assert (
                cell_image(cell, by_index(image)) == CELL_AT[(x * east[0] + y * north[0], x * east[1] + y * north[1])]
            )


def adjacent(a, b):
    return a != b and VECTOR[a] != tuple(-x for x in VECTOR[b])


LAYOUTS = {  # BC-2 in words: which sets of faces may carry a type's bulges
    ("type0", "fixed"): lambda faces: not faces,
    ("type1", "fixed"): lambda faces: len(faces) == 1,
    ("type2", "adjacent"): lambda faces: len(faces) == 2 and adjacent(*faces),
    ("type2", "opposite"): lambda faces: len(faces) == 2 and not adjacent(*faces),
    ("type3", "corner"): lambda faces: len(faces) == 3 and all(adjacent(a, b) for a, b in combinations(faces, 2)),
    ("type3", "u"): lambda faces: len(faces) == 3 and not all(adjacent(a, b) for a, b in combinations(faces, 2)),
    ("type4", "adjacent"): lambda faces: len(faces) == 4 and adjacent(*(set(FACES) - set(faces))),
}


@pytest.mark.parametrize("layout", GEOMETRIES)
def test_a_cube_may_show_its_bulges_in_every_turn_of_its_layout_and_in_no_other_way(layout):  # BC-2
    chosen = {"type0": "fixed", "type1": "fixed", "type4": "adjacent", **layout}
    orientations = load_geometry(layout).orientations
    for t in range(5):
        fits = LAYOUTS[(f"type{t}", chosen[f"type{t}"])]
        assert orientations[t] == {
            mask_of(faces) for size in range(7) for faces in combinations(FACES, size) if fits(faces)
        }


# --- Refusals: field, rule and params -------------------------------------------------------------

LOST = [("nw", 0, []), ("ne", 1, ["west"]), ("sw", 1, ["north"])]  # player 2 has no legal move (opposite, U)
VARIANTS = {"type2": "opposite", "type3": "u"}
NOT_A_MAPPING: Any = ["corner"]  # JSON from a client: not the object of layouts the API asks for


def refusal(call, *args, **kwargs):
    with pytest.raises(RuleError) as error:
        call(*args, **kwargs)
    return error.value.field, error.value.rule, error.value.params


@pytest.mark.parametrize("seats", [[], ["light"], ["light", "dark", "grey"]])
def test_babel_seats_exactly_two_players(seats):  # BC-1
    assert refusal(ENGINE.initial_state, seats=seats, options={}, seed=1) == ("seats", "BC-1", {})


@pytest.mark.parametrize(
    ("call", "field", "params"),
    [
        (lambda: ENGINE.initial_state(seats=SEATS, options=NOT_A_MAPPING, seed=1), "options", {}),
        (lambda: ENGINE.initial_state(seats=SEATS, options={"type2": "bent"}, seed=1), "type2", "adjacent, opposite"),
        (lambda: ENGINE.initial_state(seats=SEATS, options={"type3": "spiral"}, seed=1), "type3", "corner, u"),
        (lambda: analyse([], NOT_A_MAPPING), "geometry", {}),
        (lambda: analyse([], {"type2": "bent"}), "geometry.type2", "adjacent, opposite"),
        (lambda: replay([], {"type3": "spiral"}), "geometry.type3", "corner, u"),
    ],
)
def test_a_geometry_must_name_a_layout_of_each_cube_type(call, field, params):  # BC-2
    expected = params if isinstance(params, dict) else {"choices": params}
    assert refusal(call) == (field, "BC-2", expected)


@pytest.mark.parametrize("raw_moves", ["nw", None, 3, {"cell": "nw", "type": 0, "bulges": []}])
def test_a_replay_needs_the_moves_as_a_list(raw_moves):  # BC-3
    assert refusal(replay, raw_moves) == ("moves", "BC-3", {})


def test_a_move_that_is_not_an_object_is_refused_naming_its_place():  # BC-3
    assert refusal(ENGINE.apply, game(), type=PLACE, payload="nw") == ("cell", "BC-3", {})
    assert refusal(replay, [move(*TOWER[0]), ["ne", 1, ["west"]]]) == ("moves[1]", "BC-3", {})


def test_a_cube_type_is_a_whole_number_not_true_nor_one_point_zero():  # BC-1
    for cube_type in (True, 1.0, "1"):
        payload = {"cell": "nw", "type": cube_type, "bulges": ["west"]}
        assert refusal(ENGINE.apply, game(), type=PLACE, payload=payload) == ("type", "BC-1", {})


def test_a_cube_without_bulges_may_leave_the_list_out():  # BC-1
    state = ENGINE.apply(game(), type=PLACE, payload={"cell": "nw", "type": 0})
    assert state["moves"] == [move("nw", 0, [])]
    assert refusal(ENGINE.apply, game(), type=PLACE, payload={"cell": "nw", "type": 1}) == (
        "bulges",
        "BC-1",
        {"type": 1},
    )


@pytest.mark.parametrize(
    ("moves", "layout", "field"),
    [([*LOST, ("se", 0, [])], VARIANTS, "moves[3].cell"), ([*TOWER, ("nw", 0, [])], {}, "moves[24].cell")],
)
def test_a_replay_refuses_a_move_after_the_game_has_ended(moves, layout, field):  # BC-9
    assert refusal(replay, [move(*played) for played in moves], layout) == (field, "BC-9", {})


def test_a_twenty_fifth_cube_is_refused_naming_the_draw():  # BC-9
    tower = replay([move(*played) for played in TOWER])
    assert legal_moves(tower) == []
    error = violation(tower, Move("nw", 0, 0))
    assert error is not None
    assert (error.field, error.rule, error.params) == ("cell", "BC-9", {})
    assert refusal(parse_move, tower, move("nw", 0, [])) == ("cell", "BC-9", {})
    assert refusal(parse_move, tower, move("se", 1, ["up"]), "moves[24].") == ("moves[24].cell", "BC-9", {})


def test_a_refusal_names_the_bare_field_when_no_prefix_is_given():  # BC-4
    error = violation(Position(load_geometry()), Move("nw", 4, mask_of(["up", "down", "south", "east"])))
    assert error is not None
    assert (error.field, error.rule) == ("type", "BC-4")


# --- Outcome, analysis and standings ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("moves", "layout", "expected"),
    [
        (LOST, VARIANTS, {"status": "won", "to_move": None, "winner": 1, "level": 1, "legal_moves": []}),
        (TOWER, None, {"status": "drawn", "to_move": None, "winner": None, "level": 6, "legal_moves": []}),
    ],
)
def test_the_analysis_of_a_finished_game_names_no_player_to_move(moves, layout, expected):  # BC-9
    assert analyse([move(*played) for played in moves], layout) == expected


def test_the_analysis_plays_in_the_chosen_geometry():  # BC-2
    result = analyse([move(*played) for played in LOST[:1]], VARIANTS)
    assert (result["status"], result["to_move"], result["level"]) == ("in_progress", 2, 1)
    # Opposite type 2 and U type 3 cannot stand on the ground: next to nw, only type 0 and 1 fit.
    assert sorted({(m["cell"], m["type"]) for m in result["legal_moves"]}) == [("ne", 1), ("sw", 1)]
    assert len(analyse([], VARIANTS)["legal_moves"]) == 16


@pytest.mark.parametrize(
    ("moves", "layout", "expected"),
    [
        (LOST, VARIANTS, [("light", 1, {"cubes_placed": 2, "level": 1}), ("dark", 2, {"cubes_placed": 1, "level": 1})]),
        (TOWER, {}, [("light", 1, {"cubes_placed": 12, "level": 6}), ("dark", 1, {"cubes_placed": 12, "level": 6})]),
    ],
)
def test_the_standings_count_each_players_cubes_and_the_level_reached(moves, layout, expected):  # BC-9
    standings = ENGINE.standings(game(moves, **layout))
    assert [(s.seat, s.rank, s.breakdown) for s in standings] == expected
