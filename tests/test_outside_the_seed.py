"""Values from outside the seed (issue 40, point 5): what the rule texts never state but the
publisher's components (or a fan source) give. The app plays with them as the game's values,
and a group's owner corrects them on its edition page like the unverified ones, where the page
says where they come from: TB-1's fewest players, TB-4's range and first two-kind disc, TB-5's
split of the parts, TB-22's count of each action card, SW-7's tiles 1, 2, 6, 13, 15 and 16.
The engine applies a group's correction, so the pages, the phones and the API agree; a stored
session keeps the table it started with, and one stored before these values could be
corrected replays as it did."""

from __future__ import annotations

import copy
import re

import pytest
from rest_framework.test import APIClient

from scoring import session as core
from scoring.errors import RuleError
from scoring.seven_wonders.data import data as seven_wonders_data
from scoring.tower_of_babel import engine as tob
from scoring.tower_of_babel.engine import TowerOfBabel
from scoring.tower_of_babel.table import OUTSIDE_SEED, load_table, markings, outside_seed, raw_data
from sessions import services
from sessions.api.tokens import create_api_token
from sessions.games import TOWER_OF_BABEL, get_game
from sessions.models import GameSession
from tests.conftest import advance, ruled

ENGINE = TowerOfBabel()
SEATS = ["red", "yellow", "green"]
URL = "/g/{}/tables/tower-of-babel/"
SW_URL = "/g/{}/tables/seven-wonders/"
CARDS = {"card_draw": 3, "card_trade": 2, "joker": 2, "building_disc_bonus": 2, "triple_bonus": 2, "double_turn": 2}
THIRD_JOKER = {**CARDS, "card_draw": 2, "joker": 3, "five_points": 2}  # still 15 cards (TB-22)


def game(table=None, layout=None, *, seats=SEATS):
    """A started game on ``table`` (a group's corrections), red first; ``layout`` puts chosen
    discs on the first wonders."""
    state = ENGINE.initial_state(seats=seats, options={"table": table, "action_cards": True}, seed=11)
    discs, wonders = dict(state["discs"]), dict(state["wonders"])
    for wonder, demands in (layout or {}).items():
        for old in wonders[wonder]["discs"]:
            del discs[old]
        ids = [f"{wonder}-{i}" for i in range(len(demands))]
        discs |= {
            disc_id: {"demand": d, "wonder": wonder, "owner": None} for disc_id, d in zip(ids, demands, strict=True)
        }
        wonders[wonder] = {"discs": ids, "parts": {}, "scored": None}
    state = {**state, "discs": discs, "wonders": wonders}
    return ENGINE.apply(state, type=tob.FIRST_PLAYER, payload={"seat": seats[0]})


def drawn(state, seat, count):
    return {**state, "cards": {**state["cards"], seat: {**state["cards"][seat], "drawn": count}}}


def build(state, wonder, **payload):
    disc = state["wonders"][wonder]["discs"][0]
    return ENGINE.apply(state, type=tob.BUILD, payload={"wonder": wonder, "disc": disc, **payload})


def refused(rule, action, *args, **kwargs):
    with pytest.raises(RuleError) as error:
        action(*args, **kwargs)
    assert error.value.rule == rule, error.value.message
    return error.value


def with_parts(state, seat, wonder, value):
    wonders = {**state["wonders"], wonder: {**state["wonders"][wonder], "parts": {seat: value}}}
    return {**state, "wonders": wonders}


# --- the data: a third marking, the numbers in the data file only --------------------------


def test_tb_1_tb_4_tb_5_tb_22_the_values_from_outside_the_seed_are_marked_so_in_the_data():
    assert outside_seed() == ["min_players", "single_disc_range", "two_kind_discs", "parts_per_player", "action_cards"]
    assert markings("two_kind_discs") == [OUTSIDE_SEED, "unverified", "unverified", "unverified"]
    assert markings("rows")[0] == "verified"
    table = load_table()
    assert (table.min_players, table.single_disc_range) == (3, (3, 6))
    assert dict(table.parts_per_player) == {1: 15, 3: 5}
    assert sum(dict(table.action_cards).values()) == raw_data()["action_card_count"]["value"] == 15
    assert sum(dict(table.parts_per_player).values()) == raw_data()["parts_count"]["value"] == 20


def test_sw_7_the_one_by_one_assignment_of_six_tiles_is_marked_outside_the_seed():
    assert seven_wonders_data()["tiles"]["outside_seed"] == [1, 2, 6, 13, 15, 16]


# --- TB-22: the count of each action card ---------------------------------------------------


def test_tb_22_a_group_that_corrects_the_joker_count_plays_a_third_joker():
    state = drawn(game({"action_cards": THIRD_JOKER}, {"pyramids": [{"ship": 6}, {"camel": 3}]}), "red", 3)
    built = build(state, "pyramids", jokers=3)
    assert built["cards"]["red"]["played"] == {"joker": 3}
    assert built["wonders"]["pyramids"]["parts"] == {"red": 6}
    # The data file's count stays the default: a third Joker is refused there.
    default = drawn(game(None, {"pyramids": [{"ship": 6}, {"camel": 3}]}), "red", 3)
    refused("TB-22", build, default, "pyramids", jokers=3)


def test_tb_22_a_corrected_count_limits_the_cards_held_at_the_end_too():
    corrected = {**CARDS, "card_draw": 2, "five_points": 3}
    state = {**drawn(game({"action_cards": corrected}), "red", 3), "over": True}
    held = ENGINE.apply(state, type=tob.DECLARE_CARDS, payload={"seat": "red", "five_points": 3})
    assert held["cards"]["red"]["held"]["five_points"] == 3
    assert ENGINE.standings(held)[0].breakdown["action_cards"] == 15


def test_tb_22_the_counts_a_group_corrects_still_make_the_deck_of_fifteen():
    error = refused("TB-22", load_table, {"action_cards": {**CARDS, "joker": 3, "five_points": 2}})
    assert error.field == "action_cards"
    assert error.params == {"count": 15}


def test_tb_22_the_owner_corrects_the_joker_count_on_the_edition_page(owner_client, group):
    posted = {"action_cards.joker": "3", "action_cards.card_draw": "2"}
    assert owner_client.post(URL.format(group.pk), posted).status_code == 302
    group.refresh_from_db()
    assert group.edition_tables[TOWER_OF_BABEL] == {"action_cards": THIRD_JOKER}
    page = owner_client.get(URL.format(group.pk)).content.decode()
    assert 'name="action_cards.joker" value="3"' in page


def test_tb_22_the_edition_page_says_why_a_deck_of_sixteen_is_refused(owner_client, group):
    response = owner_client.post(URL.format(group.pk), {"action_cards.joker": "3"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "The action deck holds 15 cards: the numbers must add up to 15." in page
    assert "(rule TB-22)" in page
    assert 'name="action_cards.joker" value="3"' in page  # as typed, to correct another count
    group.refresh_from_db()
    assert group.edition_tables == {}


def test_tb_22_the_host_page_lets_a_third_joker_be_typed(owner, member_client, group, night, players):
    services.set_edition_table(group=group, game=TOWER_OF_BABEL, overrides={"action_cards": THIRD_JOKER})
    session = services.create_session(night=night, game=TOWER_OF_BABEL, players=players[:3], secret="1")
    assert session.state["game"]["table"]["action_cards"]["joker"] == 3
    keys = [seat.key for seat in session.seats.all()]
    advance(session, "session.start")
    advance(session, tob.FIRST_PLAYER, seat=keys[0])
    disc, spec = next((d, v) for d, v in session.state["game"]["discs"].items() if len(v["demand"]) == 1)
    advance(session, tob.CHOOSE, wonder=spec["wonder"], disc=disc)
    for seat in keys[1:]:
        advance(session, tob.OFFER, seat=seat, cards={}, trading=False, triple=False)
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert re.search(r'name="jokers" min="0" max="3"', page)


# --- TB-5: the split of the parts -----------------------------------------------------------


def test_tb_5_a_corrected_split_changes_the_parts_a_player_can_place():
    split = {"parts_per_player": {"1": 14, "3": 6}}  # 14 + 18 - the score marker = 31
    assert load_table(split).parts_in_play == 31
    state = with_parts(game(split, {"pyramids": [{"ship": 5}, {"camel": 3}]}), "red", "babel", 26)
    assert build(state, "pyramids", own={"ship": 5})["wonders"]["pyramids"]["parts"] == {"red": 5}
    default = with_parts(game(None, {"pyramids": [{"ship": 5}, {"camel": 3}]}), "red", "babel", 26)
    assert "29" in refused("TB-5", build, default, "pyramids", own={"ship": 5}).message.format(supply=29)


def test_tb_5_a_split_keeps_the_twenty_parts_and_the_score_marker():
    assert refused("TB-5", load_table, {"parts_per_player": {"1": 15, "3": 6}}).field == "parts_per_player"
    assert refused("TB-5", load_table, {"parts_per_player": {"1": 0, "3": 20}}).field == "parts_per_player.1"


def test_tb_5_the_owner_corrects_the_split_on_the_edition_page(owner_client, group):
    posted = {"parts_per_player.1": "14", "parts_per_player.3": "6"}
    assert owner_client.post(URL.format(group.pk), posted).status_code == 302
    group.refresh_from_db()
    assert group.edition_tables[TOWER_OF_BABEL] == {"parts_per_player": {"1": 14, "3": 6}}


# --- TB-4: the range of a single disc, the first two-kind disc ----------------------------


def test_tb_4_a_corrected_range_changes_what_a_single_disc_may_demand():
    wider = {"single_disc_range": [2, 7], "single_disc_numbers": [2, 4, 4, 5, 5, 7]}
    assert load_table(wider).single_disc_numbers == (2, 4, 4, 5, 5, 7)
    state = game(wider, {"pyramids": [{"ship": 7}, {"camel": 3}]})
    assert build(state, "pyramids", own={"ship": 7})["wonders"]["pyramids"]["parts"] == {"red": 7}
    assert refused("TB-4", load_table, {"single_disc_numbers": [2, 4, 4, 5, 5, 7]}).field == "single_disc_numbers[0]"
    narrower = {"single_disc_range": [3, 5], "single_disc_numbers": [3, 4, 4, 5, 5, 6]}
    error = refused("TB-4", load_table, narrower)
    assert (error.field, error.params) == ("single_disc_numbers[5]", {"low": 3, "high": 5})


def test_tb_4_a_range_starts_at_one_card_and_does_not_end_below_its_start():
    assert refused("TB-4", load_table, {"single_disc_range": [0, 6]}).field == "single_disc_range"
    assert refused("TB-4", load_table, {"single_disc_range": [6, 5]}).field == "single_disc_range"


def test_tb_4_a_two_kind_disc_demands_at_most_the_range_of_each_kind():
    discs = [
        {"camel": 7, "stonemason": 3},
        {"crane": 2, "ship": 3},
        {"ship": 2, "camel": 3},
        {"stonemason": 2, "crane": 3},
    ]
    assert refused("TB-4", load_table, {"two_kind_discs": discs}).field == "two_kind_discs[0].camel"
    assert load_table({"two_kind_discs": discs, "single_disc_range": [3, 7]}).two_kind_discs[0] == (
        ("camel", 7),
        ("stonemason", 3),
    )


def test_tb_4_a_group_corrects_the_first_two_kind_disc():
    discs = [
        {"camel": 3, "stonemason": 2},
        {"crane": 2, "ship": 3},
        {"ship": 2, "camel": 3},
        {"stonemason": 2, "crane": 3},
    ]
    assert load_table({"two_kind_discs": discs}).two_kind_discs[0] == (("camel", 3), ("stonemason", 2))


def test_tb_4_the_owner_corrects_the_range_on_the_edition_page(owner_client, group):
    posted = {"single_disc_range.1": "7", "single_disc_numbers.5": "7", "two_kind_discs.0.camel": "3"}
    assert owner_client.post(URL.format(group.pk), posted).status_code == 302
    group.refresh_from_db()
    table = group.edition_tables[TOWER_OF_BABEL]
    assert table["single_disc_range"] == [3, 7]
    assert table["single_disc_numbers"] == [3, 4, 4, 5, 5, 7]
    assert table["two_kind_discs"][0] == {"camel": 3, "stonemason": 3}


# --- TB-1: the fewest players, a house rule below 3 -------------------------------------------


def test_tb_1_a_group_that_allows_two_players_starts_a_two_player_game(group, night, players):
    refused("TB-1", services.create_session, night=night, game=TOWER_OF_BABEL, players=players[:2])
    services.set_edition_table(group=group, game=TOWER_OF_BABEL, overrides={"min_players": 2})
    session = services.create_session(night=night, game=TOWER_OF_BABEL, players=players[:2], secret="1")
    assert session.options["table"] == {"min_players": 2}
    advance(session, "session.start")
    advance(session, tob.FIRST_PLAYER, seat=session.seats.first().key)
    assert session.state["game"]["active"] is not None


def test_tb_1_a_group_may_allow_two_but_not_one(group):
    error = refused("TB-1", services.set_edition_table, group=group, game=TOWER_OF_BABEL, overrides={"min_players": 1})
    assert (error.field, error.params) == ("min_players", {"low": 2, "high": 5})


def test_tb_1_the_api_starts_a_two_player_game_for_that_group_only(member, group, night, players):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_api_token(user=member, name='tests')[1]}")
    body = {"game": TOWER_OF_BABEL, "players": [p.pk for p in players[:2]]}
    response = client.post(f"/api/v1/nights/{night.pk}/sessions/", body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["rule"] == "TB-1"
    services.set_edition_table(group=group, game=TOWER_OF_BABEL, overrides={"min_players": 2})
    assert client.post(f"/api/v1/nights/{night.pk}/sessions/", body, format="json").status_code == 201


def test_tb_1_the_player_count_says_house_rule_to_that_group(owner_client, member_client, group, night, players):
    assert "house rule" not in member_client.get(f"/n/{night.pk}/sessions/new/").content.decode()
    services.set_edition_table(group=group, game=TOWER_OF_BABEL, overrides={"min_players": 2})
    picker = member_client.get(f"/n/{night.pk}/sessions/new/").content.decode()
    assert "2\N{EN DASH}5 players" in picker
    assert "house rule: from 2 players" in picker
    form = member_client.get(f"/n/{night.pk}/sessions/new/?game={TOWER_OF_BABEL}").content.decode()
    assert "Seats in playing order (2\N{EN DASH}5 players)" in form
    assert "house rule: from 2 players" in form
    edition = owner_client.get(URL.format(group.pk)).content.decode()
    assert "house rule" in edition
    assert "Fewer than 3 players is a house rule." in edition


def test_tb_1_the_night_form_starts_a_two_player_game(member_client, group, night, players):
    services.set_edition_table(group=group, game=TOWER_OF_BABEL, overrides={"min_players": 2})
    posted = {"seat_0": str(players[0].pk), "seat_1": str(players[1].pk), "idempotency_key": "k1"}
    response = member_client.post(f"/n/{night.pk}/sessions/new/?game={TOWER_OF_BABEL}", posted)
    assert response.status_code == 302
    assert GameSession.objects.get().seats.count() == 2


def test_tb_1_only_the_players_range_of_tower_of_babel_follows_a_group_table():
    game = get_game(TOWER_OF_BABEL)
    assert (game.min_players, game.max_players) == (3, 5)
    assert game.for_table({"min_players": 2}).min_players == 2
    assert game.for_table({"min_players": 2}).house_rule_players
    assert not game.for_table(None).house_rule_players
    assert get_game("babel-on").for_table({"min_players": 5}).min_players == 2


# --- the edition page: provenance, permissions ----------------------------------------------


def test_the_edition_page_says_where_the_values_from_outside_the_seed_come_from(member_client, group):
    page = member_client.get(URL.format(group.pk)).content.decode()
    assert "not in the rule text" in page
    assert "From the publisher&#x27;s box and rulebook, not in the rule text we have." in page
    assert "From the publisher&#x27;s components, not in the rule text we have." in page
    assert "Disc 1 is from the publisher&#x27;s components" in page
    for rule in ("(TB-1)", "(TB-4)", "(TB-5)", "(TB-22)"):
        assert ruled(rule) in page


def test_sw_7_the_edition_page_marks_tiles_1_2_6_13_15_16_outside_the_seed(member_client, group):
    page = member_client.get(SW_URL.format(group.pk)).content.decode()
    labels = re.findall(r"<label>(Tile \d+).*?<small class=\"([\w-]+)\">", page, flags=re.S)
    marked = {label: css for label, css in labels}
    assert {n for n in range(1, 25) if marked[f"Tile {n}"] == "outside-seed"} == {1, 2, 6, 13, 15, 16}
    assert marked["Tile 3"] == "unverified"
    assert "Tiles 1, 2, 6, 13, 15 and 16: the rule text we have groups them" in page


def test_sw_7_the_owner_corrects_a_tile_from_outside_the_seed(owner_client, member_client, group):
    assert owner_client.post(SW_URL.format(group.pk), {"tile.2": "tax on red cards"}).status_code == 302
    assert member_client.post(SW_URL.format(group.pk), {"tile.1": "x"}).status_code == 403
    group.refresh_from_db()
    assert group.edition_tables["seven-wonders"] == {"tiles": {"2": "tax on red cards"}}


@pytest.mark.parametrize(("who", "status"), [("owner", 302), ("member", 403), ("outsider", 404)])
def test_only_the_owner_corrects_a_value_from_outside_the_seed(request, group, who, status):
    client = request.getfixturevalue(f"{who}_client")
    assert client.post(URL.format(group.pk), {"min_players": "2"}).status_code == status
    group.refresh_from_db()
    assert group.edition_tables.get(TOWER_OF_BABEL, {}) == ({"min_players": 2} if who == "owner" else {})


def test_a_member_sees_the_values_locked(member_client, group):
    page = member_client.get(URL.format(group.pk)).content.decode()
    assert 'name="action_cards.joker"' not in page
    assert "Save our edition" not in page


# --- stored sessions keep their table; older ones replay as they did --------------------------


def test_tb_22_a_session_keeps_the_joker_count_it_started_with(group, night, players):
    services.set_edition_table(group=group, game=TOWER_OF_BABEL, overrides={"action_cards": THIRD_JOKER})
    before = services.create_session(night=night, game=TOWER_OF_BABEL, players=players[:3], secret="1")
    services.set_edition_table(group=group, game=TOWER_OF_BABEL, overrides={})
    after = services.create_session(night=night, game=TOWER_OF_BABEL, players=players[:3], secret="1")
    assert tob.table_of(GameSession.objects.get(pk=before.pk).state["game"]).action_cards[2] == ("joker", 3)
    assert tob.table_of(GameSession.objects.get(pk=after.pk).state["game"]).action_cards[2] == ("joker", 2)


def test_a_table_on_the_data_files_values_is_stored_as_before():
    assert set(load_table().as_json()) == {"single_disc_numbers", "two_kind_discs", "rows", "set_bonus"}
    assert set(load_table({"min_players": 2}).as_json()) == {
        "min_players",
        "single_disc_numbers",
        "two_kind_discs",
        "rows",
        "set_bonus",
    }


def test_a_session_stored_before_these_values_replays_exactly_as_before():
    """A stored table of the four entries a session had before: the new ones load as the data
    file's, and the log replays to the very same state."""
    old_table = {"set_bonus": [0, 0, 5, 12, 20, 30, 40, 50]}
    rules = get_game(TOWER_OF_BABEL).rules
    options = {"table": old_table, "action_cards": True, "two_kind_discs": False}
    events = [
        core.Event(seq=1, type=core.START),
        core.Event(seq=2, type=tob.FIRST_PLAYER, payload={"seat": "red"}),
        core.Event(seq=3, type=tob.PASS),
        core.Event(seq=4, type=tob.PASS),
    ]
    state = core.replay(rules, seats=SEATS, options=options, seed=5, events=events)
    stored = copy.deepcopy(state)
    assert set(stored["game"]["table"]) == {"single_disc_numbers", "two_kind_discs", "rows", "set_bonus"}
    assert tob.table_of(stored["game"]) == load_table(old_table)
    assert core.replay(rules, seats=SEATS, options=options, seed=5, events=events) == stored


# --- players see the group's values as the game's, without a word about where they come from -


def test_tb_1_tb_22_the_play_screens_of_a_corrected_table_say_nothing_of_its_sources(
    member_client, group, night, players
):
    from tests.test_words_for_players import NOTES, _play_screens

    overrides = {"min_players": 2, "action_cards": THIRD_JOKER}
    services.set_edition_table(group=group, game=TOWER_OF_BABEL, overrides=overrides)
    session = services.create_session(night=night, game=TOWER_OF_BABEL, players=players[:2], secret="3")
    advance(session, "session.start")
    code = services.create_join_code(session=session).code
    for screen, page in _play_screens(member_client, session, code).items():
        for note in (*NOTES, "not in the rule text", "house rule", "publisher", "outside"):
            assert note not in page, f"{screen}: {note!r}"
        assert 'class="outside-seed"' not in page, screen
