"""The Tower of Babel engine, move by move: what mutation testing found untested (issue 40,
point 7). Each test fails on a mutant of ``scoring/tower_of_babel/engine.py`` that survived
the other engine tests and would have changed a score, a legal move or a refusal's rule id."""

import pytest

from scoring.errors import RuleError
from scoring.tower_of_babel import engine as tob
from tests.test_tower_of_babel_engine import ENGINE, SEATS, SHIP5, apply, build, game, refused, with_action_cards

TWO_KIND = {"pyramids": [{"camel": 2, "stonemason": 3}, {"ship": 4}, {"crane": 3}]}


def malformed(state, event_type, field, **payload):
    """Refused as malformed input (no rule broken), naming ``field``."""
    with pytest.raises(RuleError) as error:
        ENGINE.apply(state, type=event_type, payload=payload)
    assert (error.value.rule, error.value.field) == (None, field), error.value.message
    return error.value


def chosen(state, wonder="pyramids", disc=0):
    return apply(state, tob.CHOOSE, wonder=wonder, disc=state["wonders"][wonder]["discs"][disc])


# --- TB-16: a Double turn ---------------------------------------------------------------


def test_a_double_turn_after_a_build_keeps_the_active_player():  # TB-16
    state = build(with_action_cards(game(SHIP5), "red", 1), "pyramids", own={"ship": 5}, double_turn=True)
    assert (state["active"], state["extra_turn"], state["turn"]) == ("red", True, 2)
    assert state["cards"]["red"]["played"] == {"double_turn": 1}
    assert state["discs"]["pyramids-0"]["owner"] == "red"
    after = build(state, "pyramids", own={"ship": 4})  # the second turn, then the next player
    assert (after["active"], after["extra_turn"], after["turn"]) == ("yellow", False, 3)


def test_a_double_turn_after_a_failed_build_keeps_the_active_player():  # TB-15, TB-16
    state = with_action_cards(game(SHIP5), "red", 1)
    state = build(state, "pyramids", offers={"yellow": {"cards": {"ship": 2}}}, fulfilled=False, double_turn=True)
    assert (state["active"], state["extra_turn"]) == ("red", True)
    assert state["points"]["yellow"]["rejected"] == 2


def test_a_double_turn_on_a_build_needs_the_card_in_hand():  # TB-16
    refused(game(SHIP5), tob.BUILD, "TB-16", wonder="pyramids", disc="pyramids-0", own={"ship": 5}, double_turn=True)


def test_a_second_turn_cannot_be_doubled_again_even_with_a_second_card():  # TB-16
    state = apply(with_action_cards(game(SHIP5), "red", 2), tob.PASS, double_turn=True)
    refused(state, tob.BUILD, "TB-16", wonder="pyramids", disc="pyramids-0", own={"ship": 5}, double_turn=True)


def test_a_turn_counts_each_pass_and_each_build():  # TB-11, TB-16
    state = game(SHIP5)
    assert state["turn"] == 1
    state = apply(state, tob.PASS)
    assert state["turn"] == 2
    state = build(state, "pyramids", own={"ship": 5})
    assert (state["turn"], state["active"]) == (3, "green")
    state = apply(state, tob.PASS)
    assert (state["turn"], state["active"]) == (4, "red")


# --- TB-4, TB-12, TB-13: a two-kind disc ------------------------------------------------


def test_a_two_kind_disc_is_paid_with_its_own_split():  # TB-12, TB-13
    state = build(
        game(TWO_KIND),
        "pyramids",
        offers={"yellow": {"cards": {"camel": 2}}, "green": {"cards": {"stonemason": 1}}},
        accepted=["yellow", "green"],
        own={"stonemason": 2},
    )
    assert state["wonders"]["pyramids"]["parts"] == {"red": 2, "yellow": 2, "green": 1}
    assert state["discs"]["pyramids-0"]["owner"] == "red"


def refused_two_kind_build(**payload):
    """Red's build of the two-kind disc (camel 2 + stonemason 3) refused under TB-13."""
    return refused(game(TWO_KIND), tob.BUILD, "TB-13", wonder="pyramids", disc="pyramids-0", **payload)


def test_a_two_kind_disc_refuses_the_right_total_in_the_wrong_split():  # TB-13
    error = refused_two_kind_build(own={"camel": 3})
    assert error.field == "own.camel"
    offers = {"yellow": {"cards": {"camel": 2}}}
    error = refused_two_kind_build(
        offers=offers,
        accepted=["yellow"],
        own={"camel": 1, "stonemason": 2},
    )
    assert error.field == "own.camel"
    error = refused_two_kind_build(own={"camel": 2, "ship": 3})
    assert error.field == "own.ship"


def test_a_two_kind_disc_takes_offers_per_kind_up_to_that_kinds_number():  # TB-12
    state = chosen(game(TWO_KIND))
    state = apply(state, tob.OFFER, seat="yellow", cards={"camel": 2, "stonemason": 3})
    assert state["build"]["offers"]["yellow"]["cards"] == {"camel": 2, "stonemason": 3}
    error = refused(state, tob.OFFER, "TB-12", seat="green", cards={"camel": 3})
    assert (error.field, error.params) == ("offers.green.cards.camel", {"number": 2})
    error = refused(state, tob.OFFER, "TB-12", seat="green", cards={"ship": 1})
    assert (error.field, error.params) == ("offers.green.cards.ship", {"kind": "ship"})


def test_accepted_offers_of_one_kind_may_not_exceed_that_kinds_number():  # TB-13
    offers = {"yellow": {"cards": {"camel": 2}}, "green": {"cards": {"camel": 1}}}
    error = refused_two_kind_build(
        offers=offers,
        accepted=["yellow", "green"],
        own={"stonemason": 2},
    )
    assert error.field == "accepted"


def test_the_missing_count_is_what_the_disc_still_needs():  # TB-13
    offers = {"yellow": {"cards": {"camel": 2}}}
    error = refused_two_kind_build(
        offers=offers,
        accepted=["yellow"],
        own={"stonemason": 1},
    )
    assert (error.field, error.params) == ("own", {"missing": 2})
    with_joker = with_action_cards(game(TWO_KIND), "red", 1)
    error = refused(with_joker, tob.BUILD, "TB-13", wonder="pyramids", disc="pyramids-0", own={"camel": 2}, jokers=1)
    assert error.params == {"missing": 1}


# --- TB-13, TB-22: action cards in hand and in the deck ------------------------------------


def test_a_joker_needs_a_card_in_hand_that_was_not_played_before():  # TB-13, TB-22
    state = with_action_cards(game(SHIP5), "red", 1)
    state = build(state, "pyramids", own={"ship": 3}, jokers=1)
    state = apply(apply(state, tob.PASS), tob.PASS)  # red's one card is played: none in hand
    error = refused(state, tob.BUILD, "TB-13", wonder="pyramids", disc="pyramids-1", own={"ship": 2}, jokers=1)
    assert error.field == "jokers"


def test_two_jokers_count_as_four_cards():  # TB-13, TB-22
    state = build(with_action_cards(game(SHIP5), "red", 2), "pyramids", own={"ship": 1}, jokers=2)
    assert state["wonders"]["pyramids"]["parts"] == {"red": 5}
    assert state["cards"]["red"]["played"] == {"joker": 2}


def test_no_more_jokers_than_the_deck_holds():  # TB-22
    state = with_action_cards(game(SHIP5), "red", 3)
    error = refused(state, tob.BUILD, "TB-22", wonder="pyramids", disc="pyramids-0", own={}, jokers=3)
    assert (error.field, error.params) == ("jokers", {"low": 0, "high": 2})


def test_a_card_played_by_one_player_is_not_in_the_deck_for_another():  # TB-22
    state = with_action_cards(with_action_cards(game(SHIP5), "red", 2), "yellow", 1)
    state = build(state, "pyramids", own={"ship": 1}, jokers=2)  # both Jokers of the deck
    error = refused(state, tob.BUILD, "TB-22", wonder="pyramids", disc="pyramids-1", own={"ship": 2}, jokers=1)
    assert error.field == "jokers"


def test_a_triple_bonus_needs_a_card_in_hand_when_offered():  # TB-14
    state = chosen(game(SHIP5))
    error = refused(state, tob.OFFER, "TB-14", seat="green", cards={"ship": 2}, triple=True)
    assert error.field == "offers.green.triple"
    state = apply(with_action_cards(state, "green", 1), tob.OFFER, seat="green", cards={"ship": 2}, triple=True)
    assert state["build"]["offers"]["green"] == {"cards": {"ship": 2}, "trading": False, "triple": True}
    assert state["cards"]["green"]["played"] == {}  # played only once rejected


def test_without_action_cards_no_triple_bonus_or_joker_is_played():  # TB-10
    state = with_action_cards(game(SHIP5, action_cards=False), "green", 1)
    refused(chosen(state), tob.OFFER, "TB-10", seat="green", cards={"ship": 2}, triple=True)
    state = with_action_cards(game(SHIP5, action_cards=False), "red", 1)
    refused(state, tob.BUILD, "TB-10", wonder="pyramids", disc="pyramids-0", own={"ship": 3}, jokers=1)


def test_held_cards_cannot_exceed_what_the_deck_holds_across_players():  # TB-20, TB-22
    state = with_action_cards(with_action_cards(game(), "red", 2), "yellow", 2)
    state = {**state, "over": True, "active": None}
    state = apply(state, tob.DECLARE_CARDS, seat="yellow", five_points=2)
    error = refused(state, tob.DECLARE_CARDS, "TB-22", seat="red", five_points=1)
    assert error.field == "five_points"
    # a player declaring again replaces their own declaration
    again = apply(state, tob.DECLARE_CARDS, seat="yellow", five_points=1, building_disc_bonus=1)
    assert again["cards"]["yellow"]["held"] == {"building_disc_bonus": 1, "five_points": 1}
    assert apply(again, tob.DECLARE_CARDS, seat="red", five_points=1)["cards"]["red"]["held"]["five_points"] == 1


def test_held_cards_count_only_the_cards_still_in_hand():  # TB-20
    state = with_action_cards(game(SHIP5), "red", 2)
    state = build(state, "pyramids", own={"ship": 3}, jokers=1)
    state = {**state, "over": True, "active": None}
    error = refused(state, tob.DECLARE_CARDS, "TB-20", seat="red", five_points=1, building_disc_bonus=1)
    assert (error.field, error.params) == ("building_disc_bonus", {"count": 1})
    assert apply(state, tob.DECLARE_CARDS, seat="red", five_points=1)["cards"]["red"]["held"]["five_points"] == 1
    malformed(state, tob.DECLARE_CARDS, "five_points", seat="red", five_points=-1)
    refused(state, tob.DECLARE_CARDS, "TB-22", seat="red", five_points=3)


# --- seats ------------------------------------------------------------------------------


def test_only_a_seat_of_the_session_can_start_offer_or_be_scored():
    malformed(game(first=None), tob.FIRST_PLAYER, "seat", seat="blue")
    malformed(game(first=None), tob.FIRST_PLAYER, "seat")
    malformed(chosen(game(SHIP5)), tob.OFFER, "seat", seat="blue", cards={"ship": 1})
    malformed(game(SHIP5), tob.BUILD, "seat", wonder="pyramids", disc="pyramids-0", offers={"blue": {}}, own={})
    over = {**game(), "over": True, "active": None}
    malformed(over, tob.ASSIGN, "seat", seat="blue", assignment=[])
    malformed(over, tob.DECLARE_CARDS, "seat", seat="blue")


def test_the_first_player_may_be_any_seat_and_play_goes_on_from_there():  # TB-9, TB-11
    state = game(first="yellow")
    assert state["active"] == "yellow"
    assert apply(state, tob.PASS)["active"] == "green"
    four = game(seats=["a", "b", "c", "d"], first="d")
    assert apply(four, tob.PASS)["active"] == "a"


# --- the start: the group's options ------------------------------------------------------


def started(options, layout=SHIP5):
    """A game started with ``options``, ``layout`` on the first wonders, red first."""
    state = ENGINE.initial_state(seats=SEATS, options=options, seed=11)
    discs, wonders = dict(state["discs"]), dict(state["wonders"])
    for wonder, demands in layout.items():
        for old in wonders[wonder]["discs"]:
            del discs[old]
        ids = [f"{wonder}-{n}" for n in range(len(demands))]
        discs.update(
            {d: {"demand": demand, "wonder": wonder, "owner": None} for d, demand in zip(ids, demands, strict=True)}
        )
        wonders[wonder] = {"discs": ids, "parts": {}, "scored": None}
    return apply({**state, "discs": discs, "wonders": wonders}, tob.FIRST_PLAYER, seat="red")


DECK = {"card_draw": 2, "card_trade": 2, "joker": 3, "building_disc_bonus": 2, "triple_bonus": 2}


def test_the_start_keeps_the_groups_action_deck():  # TB-22
    table = {"action_cards": {**DECK, "double_turn": 2, "five_points": 2}}
    state = with_action_cards(
        started({"table": table}, {"pyramids": [{"ship": 6}, {"camel": 3}, {"crane": 3}]}), "red", 3
    )
    state = apply(state, tob.CHOOSE, wonder="pyramids", disc="pyramids-0")
    state = apply(apply(state, tob.OFFER, seat="yellow"), tob.OFFER, seat="green")
    state = apply(state, tob.RESOLVE, accepted=[], jokers=3, own={})
    assert state["wonders"]["pyramids"]["parts"] == {"red": 6}
    refused(
        with_action_cards(game(SHIP5), "red", 3), tob.BUILD, "TB-22", wonder="pyramids", disc="pyramids-0", jokers=3
    )


def test_a_wonder_scores_on_the_groups_rows():  # TB-6, TB-17
    from tests.test_tower_of_babel_engine import complete_pyramids

    rows = [[8, 4], [11, 6], [12, 6], [14, 7], [16, 8], [18, 9], [20, 10]]
    state = {**started({"table": {"rows": rows}}), "row": 2}
    state = complete_pyramids(state)
    assert state["wonders"]["pyramids"]["scored"]["points"] == {"red": 11, "yellow": 6, "green": 0}
    assert state["wonders"]["pyramids"]["scored"]["row"] == 2
    assert state["row"] == 3


def test_a_player_places_only_the_parts_of_the_groups_split():  # TB-5
    table = {"parts_per_player": {"1": 10, "3": 5}}  # 24 in play, one part of 1 marking the score
    state = started({"table": table})

    def with_parts(babel, pyramids):
        wonders = dict(state["wonders"])
        wonders["babel"] = {**wonders["babel"], "parts": {"red": babel, "yellow": 24}}
        wonders["pyramids"] = {**wonders["pyramids"], "parts": {"red": pyramids}}
        return {**state, "wonders": wonders}

    error = refused(with_parts(18, 2), tob.BUILD, "TB-5", wonder="pyramids", disc="pyramids-0", own={"ship": 5})
    assert (error.field, error.params) == ("own", {"supply": 24})
    assert build(with_parts(17, 2), "pyramids", own={"ship": 5})["wonders"]["pyramids"]["parts"] == {"red": 7}


def test_disc_sets_score_on_the_groups_bonus_table():  # TB-7, TB-20
    table = {"set_bonus": [0, 0, 5, 12, 20, 30, 40, 50]}
    state = started({"table": table})
    discs = {
        d: ({**disc, "owner": "red"} if n < 3 else disc)
        for n, (d, disc) in enumerate(
            (d, disc) for d, disc in state["discs"].items() if list(disc["demand"]) == ["ship"]
        )
    }
    state = {**state, "discs": {**state["discs"], **discs}, "over": True, "active": None}
    assert {s.seat: s.breakdown["discs"] for s in ENGINE.standings(state)}["red"] == 12


def test_the_start_deals_the_two_kind_discs_only_when_the_group_plays_the_variant():  # TB-8
    def two_kind(options):
        state = ENGINE.initial_state(seats=SEATS, options=options, seed=5)
        assert len(state["discs"]) == 24
        assert all(len(w["discs"]) == 3 for w in state["wonders"].values())
        return sum(1 for disc in state["discs"].values() if len(disc["demand"]) == 2)

    assert two_kind({"two_kind_discs": True}) == 4
    assert two_kind({}) == 0
    assert two_kind({"two_kind_discs": False}) == 0


def test_the_start_state():  # TB-9, TB-10
    state = ENGINE.initial_state(seats=SEATS, options={}, seed=7)
    assert state["action_cards"] is True
    assert ENGINE.initial_state(seats=SEATS, options={"action_cards": False}, seed=7)["action_cards"] is False
    assert (state["active"], state["extra_turn"], state["build"], state["row"], state["over"], state["turn"]) == (
        None,
        False,
        None,
        1,
        False,
        1,
    )
    assert state["points"] == {seat: dict.fromkeys(tob.SOURCES, 0) for seat in SEATS}
    assert state["cards"]["red"] == {"drawn": 0, "played": {}, "held": {"building_disc_bonus": 0, "five_points": 0}}
    assert state["assignments"] == {}
    assert sorted(state["discs"], key=int) == [str(n) for n in range(1, 25)]
    for wonder, value in state["wonders"].items():
        assert (value["parts"], value["scored"]) == ({}, None)
        assert all(state["discs"][d]["wonder"] == wonder and state["discs"][d]["owner"] is None for d in value["discs"])
    picks = {ENGINE.initial_state(seats=SEATS, options={}, seed=seed)["suggested_first"] for seed in range(30)}
    assert picks == set(SEATS)


def test_the_engine_knows_its_event_types():
    assert ENGINE.event_types() == {
        tob.FIRST_PLAYER,
        tob.PASS,
        tob.CHOOSE,
        tob.OFFER,
        tob.RESOLVE,
        tob.BUILD,
        tob.ASSIGN,
        tob.DECLARE_CARDS,
    }
    malformed(game(), "tob.dance", "type")
    assert ENGINE.standings(game()) is None


# --- TB-12..TB-15: the secret-offer path, step by step ------------------------------------


def test_a_build_chosen_step_by_step_records_the_wonder_and_disc():  # TB-12
    state = chosen(game(SHIP5))
    assert state["build"] == {"wonder": "pyramids", "disc": "pyramids-0", "offers": {}}
    assert state["active"] == "red"
    refused_at(state, tob.CHOOSE, "TB-12", "type", wonder="pyramids", disc="pyramids-1")
    refused_at(state, tob.PASS, "TB-12", "type")


def test_offers_and_resolve_need_a_build_under_way():  # TB-12
    refused(game(SHIP5), tob.OFFER, "TB-12", seat="yellow", cards={"ship": 1})
    refused(game(SHIP5), tob.RESOLVE, "TB-12", accepted=[], own={"ship": 5})


def test_each_player_offers_once_and_nobody_after_the_reveal():  # TB-12
    state = apply(chosen(game(SHIP5, seats=["red", "yellow", "green", "blue"])), tob.OFFER, seat="yellow")
    error = refused(state, tob.OFFER, "TB-12", seat="yellow", cards={"ship": 1})
    assert error.field == "offers.yellow"
    assert not tob.offers_revealed(state)
    state = apply(state, tob.OFFER, seat="green", cards={"ship": 2})
    assert not tob.offers_revealed(state)
    error = refused(state, tob.RESOLVE, "TB-12", accepted=[], own={"ship": 5})
    assert error.field == "offers.blue"
    state = apply(state, tob.OFFER, seat="blue", cards={"ship": 1}, trading=True)
    assert tob.offers_revealed(state)
    error = refused(state, tob.OFFER, "TB-12", seat="red", cards={"ship": 1})  # the active player: no offer
    assert error.field == "offers.red"
    assert not tob.offers_revealed(game(SHIP5))


def test_an_offer_revealed_step_by_step_is_resolved_like_a_one_shot_build():  # TB-12, TB-13, TB-14
    offers = {"yellow": {"cards": {"ship": 2}}, "green": {"cards": {"ship": 1}, "trading": True}}
    state = chosen(game(SHIP5))
    for seat, offer in offers.items():
        state = apply(state, tob.OFFER, seat=seat, **offer)
    assert state["build"]["offers"] == {
        "yellow": {"cards": {"ship": 2}, "trading": False, "triple": False},
        "green": {"cards": {"ship": 1}, "trading": True, "triple": False},
    }
    stepped = apply(state, tob.RESOLVE, accepted=["green"], own={"ship": 4})
    one_shot = build(game(SHIP5), "pyramids", offers=offers, accepted=["green"], own={"ship": 4})
    assert stepped == one_shot
    assert stepped["build"] is None
    assert stepped["wonders"]["pyramids"]["parts"] == {"red": 5}  # red places for green's card
    assert stepped["discs"]["pyramids-0"]["owner"] == "green"
    assert stepped["wonders"]["pyramids"]["discs"] == ["pyramids-1", "pyramids-2"]
    assert stepped["points"]["yellow"]["rejected"] == 2
    assert stepped["points"]["green"]["rejected"] == 0


def test_an_offer_made_of_zero_cards_is_an_empty_offer():  # TB-12
    state = apply(chosen(game(SHIP5)), tob.OFFER, seat="yellow", cards={"ship": 0})
    assert state["build"]["offers"]["yellow"]["cards"] == {}
    refused_at(state, tob.OFFER, "TB-23", "offers.green.trading", seat="green", cards={"ship": 0}, trading=True)
    state = apply(state, tob.OFFER, seat="green")
    error = refused(state, tob.RESOLVE, "TB-13", accepted=["yellow"], own={"ship": 5})
    assert error.field == "accepted[0]"


def test_only_offers_that_were_made_can_be_accepted_and_each_once():  # TB-13
    state = chosen(game(SHIP5))
    state = apply(apply(state, tob.OFFER, seat="yellow", cards={"ship": 1}), tob.OFFER, seat="green", cards={"ship": 1})
    error = refused(state, tob.RESOLVE, "TB-13", accepted=["yellow", "red"], own={"ship": 4})
    assert error.field == "accepted[1]"
    error = refused(state, tob.RESOLVE, "TB-13", accepted=["yellow", "yellow"], own={"ship": 3})
    assert error.field == "accepted"
    malformed(state, tob.RESOLVE, "accepted", accepted="yellow", own={"ship": 4})
    one = apply(state, tob.RESOLVE, accepted=["yellow"], own={"ship": 4})
    assert one["wonders"]["pyramids"]["parts"] == {"red": 4, "yellow": 1}
    assert (one["points"]["yellow"]["rejected"], one["points"]["green"]["rejected"]) == (0, 1)


def test_one_accepted_trading_card_among_other_accepted_offers_is_allowed():  # TB-13
    offers = {"yellow": {"cards": {"ship": 1}, "trading": True}, "green": {"cards": {"ship": 1}}}
    state = build(game(SHIP5), "pyramids", offers=offers, accepted=["yellow", "green"], own={"ship": 3})
    assert state["discs"]["pyramids-0"]["owner"] == "yellow"
    assert state["wonders"]["pyramids"]["parts"] == {"red": 4, "green": 1}


def test_a_failed_build_scores_every_offer_and_refuses_nothing_it_would_need():  # TB-15
    state = chosen(game(SHIP5))
    state = apply(apply(state, tob.OFFER, seat="yellow", cards={"ship": 3}), tob.OFFER, seat="green", cards={"ship": 3})
    failed = apply(state, tob.RESOLVE, accepted=["yellow", "green"], fulfilled=False)
    assert (failed["points"]["yellow"]["rejected"], failed["points"]["green"]["rejected"]) == (3, 3)
    assert (failed["build"], failed["active"], failed["row"]) == (None, "yellow", 1)
    assert failed["wonders"]["pyramids"] == game(SHIP5)["wonders"]["pyramids"]
    assert failed["discs"] == game(SHIP5)["discs"]


def test_an_accepted_triple_bonus_offer_scores_one_per_card_when_the_build_fails():  # TB-14, TB-15
    state = with_action_cards(chosen(game(SHIP5)), "yellow", 1)
    state = apply(state, tob.OFFER, seat="yellow", cards={"ship": 2}, triple=True)
    state = apply(state, tob.OFFER, seat="green", cards={"ship": 1})
    failed = apply(state, tob.RESOLVE, accepted=["yellow"], fulfilled=False)
    assert (failed["points"]["yellow"]["rejected"], failed["points"]["green"]["rejected"]) == (2, 1)
    assert failed["cards"]["yellow"]["played"] == {}
    built = apply(state, tob.RESOLVE, accepted=["yellow"], own={"ship": 3})
    assert built["points"]["yellow"]["rejected"] == 0
    assert built["cards"]["yellow"]["played"] == {}


def test_flags_and_counts_must_be_of_their_kind():
    state = chosen(game(SHIP5))
    malformed(state, tob.OFFER, "trading", seat="yellow", cards={"ship": 1}, trading="yes")
    malformed(state, tob.OFFER, "offers.yellow.cards.ship", seat="yellow", cards={"ship": True})
    malformed(state, tob.OFFER, "offers.yellow.cards.ship", seat="yellow", cards={"ship": "2"})
    malformed(state, tob.OFFER, "offers.yellow.cards.ship", seat="yellow", cards={"ship": -1})
    malformed(state, tob.OFFER, "offers.yellow.cards", seat="yellow", cards=[1])
    error = refused(state, tob.OFFER, "TB-12", seat="yellow", cards={"ship": 7})
    assert (error.field, error.params) == ("offers.yellow.cards.ship", {"low": 0, "high": 6})
    malformed(game(SHIP5), tob.BUILD, "offers", wonder="pyramids", disc="pyramids-0", offers=[], own={"ship": 5})
    malformed(game(SHIP5), tob.BUILD, "offers.yellow", wonder="pyramids", disc="pyramids-0", offers={"yellow": 1})
    malformed(game(SHIP5), tob.PASS, "double_turn", double_turn=1)
    error = malformed(game(SHIP5), tob.BUILD, "jokers", wonder="pyramids", disc="pyramids-0", own={}, jokers=True)
    assert error.params == {"low": 0, "high": 2}


# --- TB-17..TB-21: scoring ----------------------------------------------------------------


def test_the_active_player_draws_the_action_card_even_when_a_trader_takes_the_last_disc():  # TB-17
    from tests.test_tower_of_babel_engine import complete_pyramids

    state = complete_pyramids(game(SHIP5))
    assert (state["cards"]["red"]["drawn"], state["cards"]["yellow"]["drawn"]) == (1, 0)
    state = game(SHIP5)
    state = build(state, "pyramids", own={"ship": 5})
    state = apply(apply(state, tob.PASS), tob.PASS)
    state = build(state, "pyramids", own={"ship": 4})
    state = apply(apply(state, tob.PASS), tob.PASS)
    offers = {"yellow": {"cards": {"camel": 2}, "trading": True}}
    state = build(state, "pyramids", offers=offers, accepted=["yellow"], own={"camel": 1})
    assert state["discs"]["pyramids-2"]["owner"] == "yellow"
    assert (state["cards"]["red"]["drawn"], state["cards"]["yellow"]["drawn"]) == (1, 0)
    assert state["wonders"]["pyramids"]["scored"]["parts"] == {"red": 12, "yellow": 0, "green": 0}
    assert state["points"]["red"]["wonders"] == 8


def test_a_second_wonder_scores_on_the_next_row():  # TB-6, TB-17
    from tests.test_tower_of_babel_engine import complete_pyramids

    state = {**game(SHIP5), "row": 2}
    state = complete_pyramids(state)
    assert state["wonders"]["pyramids"]["scored"] == {
        "row": 2,
        "points": {"red": 10, "yellow": 5, "green": 0},
        "parts": {"red": 10, "yellow": 2, "green": 0},
    }
    assert (state["row"], state["points"]["red"]["wonders"], state["points"]["yellow"]["wonders"]) == (3, 10, 5)


def test_the_last_disc_of_a_kind_ends_the_game_even_on_a_double_turn():  # TB-16, TB-19
    layout = {"pyramids": [{"ship": 5}, {"camel": 3}, {"crane": 3}]}
    state = game(layout)
    ships = [d for d, disc in state["discs"].items() if "ship" in disc["demand"] and d != "pyramids-0"]
    state = {
        **state,
        "discs": {d: ({**disc, "owner": "green"} if d in ships else disc) for d, disc in state["discs"].items()},
        "wonders": {w: {**v, "discs": [d for d in v["discs"] if d not in ships]} for w, v in state["wonders"].items()},
    }
    state = build(with_action_cards(state, "red", 1), "pyramids", own={"ship": 5}, double_turn=True)
    assert (state["over"], state["active"], state["extra_turn"]) == (True, None, False)
    assert state["wonders"]["pyramids"]["scored"] is None  # not completed: it scores at the end


def test_a_two_kind_disc_keeps_both_its_kinds_on_the_board():  # TB-19
    state = game({"pyramids": [{"ship": 5}, {"camel": 2, "ship": 3}, {"crane": 3}]})
    ships = [
        d for d, disc in state["discs"].items() if "ship" in disc["demand"] and d not in ("pyramids-0", "pyramids-1")
    ]
    state = {
        **state,
        "discs": {d: ({**disc, "owner": "green"} if d in ships else disc) for d, disc in state["discs"].items()},
        "wonders": {w: {**v, "discs": [d for d in v["discs"] if d not in ships]} for w, v in state["wonders"].items()},
    }
    state = build(state, "pyramids", own={"ship": 5})
    assert not state["over"]  # the two-kind disc still demands ships
    state = apply(apply(state, tob.PASS), tob.PASS)
    state = build(state, "pyramids", own={"camel": 2, "ship": 3})
    assert state["over"]


def test_final_scoring_scores_only_unfinished_wonders_with_parts():  # TB-20
    from tests.test_tower_of_babel_engine import complete_pyramids

    state = complete_pyramids(game(SHIP5))  # pyramids scored: red 8, yellow 4
    state = build(state, "colossus", own=dict(state["discs"][state["wonders"]["colossus"]["discs"][0]]["demand"]))
    state = {**state, "over": True, "active": None}
    totals = tob.final_points(state)
    assert totals["red"]["wonders"] == 8
    assert totals["yellow"]["wonders"] == 4
    assert totals["yellow"]["final_wonders"] == 10  # alone on the colossus: the final row's first
    assert totals["red"]["final_wonders"] == 0  # the pyramids scored already
    assert set(totals["green"].values()) == {0}
    standings = {s.seat: s for s in ENGINE.standings(state)}
    assert standings["red"].breakdown == totals["red"]
    assert (totals["red"]["discs"], totals["yellow"]["discs"]) == (5, 0)  # two ship discs; one disc
    assert (standings["red"].score, standings["yellow"].score) == (13, 14)


def test_final_scoring_gives_present_players_their_points():  # TB-18, TB-20
    state = game(SHIP5)
    wonders = {**state["wonders"], "zeus": {**state["wonders"]["zeus"], "parts": {"red": 4, "yellow": 2, "green": 1}}}
    totals = tob.final_points({**state, "wonders": wonders, "over": True, "active": None})
    assert {seat: points["final_wonders"] for seat, points in totals.items()} == {"red": 10, "yellow": 5, "green": 3}


def test_the_building_disc_bonus_pays_per_disc_held():  # TB-20
    state = build(with_action_cards(game(SHIP5), "red", 2), "pyramids", own={"ship": 5})
    state = {**state, "over": True, "active": None}
    state = apply(state, tob.DECLARE_CARDS, seat="red", building_disc_bonus=2)
    assert tob.final_points(state)["red"]["action_cards"] == 2
    assert tob.final_points(state)["red"]["discs"] == 0


def refused_at(state, event_type, rule, field, **payload):
    error = refused(state, event_type, rule, **payload)
    assert error.field == field, error.field
    return error


def test_discs_are_assigned_and_held_cards_declared_only_at_the_end():  # TB-20
    state = with_action_cards(build(game(SHIP5), "pyramids", own={"ship": 5}), "red", 1)
    refused_at(state, tob.ASSIGN, "TB-20", "type", seat="red", assignment=["ship"])
    refused_at(state, tob.DECLARE_CARDS, "TB-20", "type", seat="red", five_points=1)
    over = {**state, "over": True, "active": None}
    assert apply(over, tob.ASSIGN, seat="red", assignment=["ship"])["assignments"] == {"red": ["ship"]}
    refused_at(over, tob.ASSIGN, "TB-20", "assignment", seat="red", assignment={"ship": 1})
    refused_at(over, tob.ASSIGN, "TB-20", "assignment", seat="red", assignment=["ship", "ship"])
    refused_at(over, tob.ASSIGN, "TB-20", "assignment", seat="red", assignment=[])
    refused_at(over, tob.ASSIGN, "TB-20", "assignment[0]", seat="red", assignment=["camel"])
    refused_at(over, tob.PASS, "TB-19", "type")
    refused_at(over, tob.FIRST_PLAYER, "TB-19", "type", seat="red")


def test_an_assignment_lists_a_kind_of_each_disc_in_turn():  # TB-20
    state = game()
    discs = {"1": {"camel": 3}, "2": {"camel": 2, "stonemason": 3}, "3": {"ship": 3}}
    state = {
        **state,
        "discs": {d: {"demand": demand, "wonder": "babel", "owner": "red"} for d, demand in discs.items()},
        "over": True,
        "active": None,
    }
    refused_at(state, tob.ASSIGN, "TB-20", "assignment[2]", seat="red", assignment=["camel", "camel", "camel"])
    refused_at(state, tob.ASSIGN, "TB-20", "assignment[1]", seat="red", assignment=["camel", "ship", "ship"])
    changed = apply(state, tob.ASSIGN, seat="red", assignment=["camel", "stonemason", "ship"])
    assert tob.final_points(changed)["red"]["discs"] == 0
    assert tob.final_points(state)["red"]["discs"] == 5  # the proposed one: two camels
    assert apply(changed, tob.ASSIGN, seat="red", assignment=["camel", "camel", "ship"])["assignments"]["red"] == [
        "camel",
        "camel",
        "ship",
    ]


def test_a_refusal_names_the_field_a_page_shows_it_on():  # TB-10, TB-12, TB-16
    refused_at(chosen(game(SHIP5)), tob.PASS, "TB-12", "type")
    refused_at(game(), tob.PASS, "TB-16", "double_turn", double_turn=True)
    second = apply(with_action_cards(game(), "red", 2), tob.PASS, double_turn=True)
    refused_at(second, tob.PASS, "TB-16", "double_turn", double_turn=True)
    refused_at(game(action_cards=False), tob.PASS, "TB-10", "double_turn", double_turn=True)
    refused_at(game(SHIP5), tob.OFFER, "TB-12", "type", seat="yellow")
    refused_at(game(SHIP5), tob.RESOLVE, "TB-12", "type", accepted=[])
    refused_at(game(SHIP5), tob.CHOOSE, "TB-3", "wonder", wonder="atlantis", disc="1")
    refused_at(game(SHIP5), tob.CHOOSE, "TB-12", "disc", wonder="pyramids", disc="colossus-0")
    # Two trading cards accepted name 'accepted': tests/test_tower_of_babel_engine.py.


def test_two_triple_bonuses_declared_for_the_decks_last_one_are_refused_when_played():  # TB-14, TB-22
    state = game(SHIP5, seats=["red", "yellow", "green", "blue"])
    cards = {**state["cards"], "blue": {**state["cards"]["blue"], "drawn": 1, "played": {"triple_bonus": 1}}}
    state = with_action_cards(with_action_cards({**state, "cards": cards}, "yellow", 1), "green", 1)
    state = chosen(state)
    state = apply(state, tob.OFFER, seat="yellow", cards={"ship": 1}, triple=True)
    state = apply(state, tob.OFFER, seat="green", cards={"ship": 1}, triple=True)
    state = apply(state, tob.OFFER, seat="blue")
    refused_at(state, tob.RESOLVE, "TB-22", "offers.green.triple", accepted=[], own={"ship": 5})
    one = apply(state, tob.RESOLVE, accepted=["green"], own={"ship": 4})
    assert (one["points"]["yellow"]["rejected"], one["points"]["green"]["rejected"]) == (3, 0)


def test_the_active_players_own_cards_are_counted_up_to_the_most_a_disc_demands():  # TB-4, TB-13
    error = refused_at(
        game(SHIP5), tob.BUILD, "TB-13", "own.ship", wonder="pyramids", disc="pyramids-0", own={"ship": 7}
    )
    assert error.params == {"low": 0, "high": 6}
    malformed(game(SHIP5), tob.BUILD, "own", wonder="pyramids", disc="pyramids-0", own=[5])
    malformed(game(SHIP5), tob.BUILD, "own.ship", wonder="pyramids", disc="pyramids-0", own={"ship": "5"})


def test_a_game_ended_on_the_second_turn_of_a_double_turn_leaves_no_turn_open():  # TB-16, TB-19
    state = game({"pyramids": [{"ship": 5}, {"camel": 3}, {"crane": 3}]})
    ships = [d for d, disc in state["discs"].items() if "ship" in disc["demand"] and d != "pyramids-0"]
    state = {
        **state,
        "discs": {d: ({**disc, "owner": "green"} if d in ships else disc) for d, disc in state["discs"].items()},
        "wonders": {w: {**v, "discs": [d for d in v["discs"] if d not in ships]} for w, v in state["wonders"].items()},
    }
    state = apply(with_action_cards(state, "red", 1), tob.PASS, double_turn=True)
    assert state["extra_turn"] is True
    state = build(state, "pyramids", own={"ship": 5})
    assert (state["over"], state["active"], state["extra_turn"]) == (True, None, False)


def test_nobody_offers_again_once_the_offers_are_revealed():  # TB-12
    state = apply(chosen(game(SHIP5)), tob.OFFER, seat="yellow", cards={"ship": 1})
    state = apply(state, tob.OFFER, seat="green")
    assert tob.offers_revealed(state)
    error = refused_at(state, tob.OFFER, "TB-12", "offers.green", seat="green", cards={"ship": 2})
    assert "revealed" in error.message


def test_the_first_player_refusals_name_their_field():  # TB-9
    refused_at(game(first=None), tob.PASS, "TB-9", "type")
    refused_at(game(), tob.FIRST_PLAYER, "TB-9", "seat", seat="yellow")
