"""The Tower of Babel turn tracker, rule by rule (TB-9..TB-23)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import session as core
from scoring.errors import RuleError
from scoring.score_entry import ScoreEntry
from scoring.tower_of_babel import engine as tob
from scoring.tower_of_babel.engine import TowerOfBabel

ENGINE = TowerOfBabel()
SEATS = ["red", "yellow", "green"]
WONDERS = ["pyramids", "colossus", "zeus", "gardens", "mausoleum", "lighthouse", "artemis", "babel"]


def game(layout=None, *, seats=SEATS, action_cards=True, first="red"):
    """A started game; ``layout`` puts chosen discs on the first wonders (others keep the deal)."""
    state = ENGINE.initial_state(seats=seats, options={"action_cards": action_cards}, seed=11)
    if layout:
        discs, wonders = dict(state["discs"]), dict(state["wonders"])
        for wonder, demands in layout.items():
            ids = []
            for demand in demands:
                disc_id = f"{wonder}-{len(ids)}"
                discs[disc_id] = {"demand": demand, "wonder": wonder, "owner": None}
                ids.append(disc_id)
            for old in wonders[wonder]["discs"]:
                del discs[old]
            wonders[wonder] = {"discs": ids, "parts": {}, "scored": None}
        state = {**state, "discs": discs, "wonders": wonders}
    return ENGINE.apply(state, type=tob.FIRST_PLAYER, payload={"seat": first}) if first else state


def apply(state, event_type, **payload):
    return ENGINE.apply(state, type=event_type, payload=payload)


def build(state, wonder, disc=0, **payload):
    return apply(state, tob.BUILD, wonder=wonder, disc=state["wonders"][wonder]["discs"][disc], **payload)


def refused(state, event_type, rule, **payload):
    with pytest.raises(RuleError) as error:
        ENGINE.apply(state, type=event_type, payload=payload)
    assert error.value.rule == rule, error.value.message
    return error.value


def with_action_cards(state, seat, count):
    cards = {**state["cards"], seat: {**state["cards"][seat], "drawn": count}}
    return {**state, "cards": cards}


SHIP5 = {"pyramids": [{"ship": 5}, {"ship": 4}, {"camel": 3}]}


def test_the_first_player_is_chosen_once_and_a_random_pick_is_offered():  # TB-9
    state = game(first=None)
    assert state["suggested_first"] in SEATS
    assert state["suggested_first"] == game(first=None)["suggested_first"]
    refused(state, tob.PASS, "TB-9")
    started = apply(state, tob.FIRST_PLAYER, seat="green")
    assert started["active"] == "green"
    refused(started, tob.FIRST_PLAYER, "TB-9", seat="red")


def test_passing_hands_the_turn_to_the_next_player_clockwise():  # TB-11
    state = apply(game(), tob.PASS)
    assert state["active"] == "yellow"
    assert apply(apply(state, tob.PASS), tob.PASS)["active"] == "red"


def test_the_first_seed_example_the_active_player_completes_an_accepted_offer():  # TB-13
    state = build(
        game(SHIP5), "pyramids", offers={"yellow": {"cards": {"ship": 1}}}, accepted=["yellow"], own={"ship": 4}
    )
    assert state["wonders"]["pyramids"]["parts"] == {"red": 4, "yellow": 1}
    assert state["discs"]["pyramids-0"]["owner"] == "red"
    assert state["active"] == "yellow"


def test_the_second_seed_example_a_trading_card_takes_the_disc():  # TB-13
    offers = {"yellow": {"cards": {"ship": 1}}, "green": {"cards": {"ship": 2}, "trading": True}}
    state = build(game(SHIP5), "pyramids", offers=offers, accepted=["yellow", "green"], own={"ship": 2})
    assert state["wonders"]["pyramids"]["parts"] == {"red": 4, "yellow": 1}
    assert state["discs"]["pyramids-0"]["owner"] == "green"


def test_the_active_player_makes_no_offer():  # TB-12
    state = apply(game(SHIP5), tob.CHOOSE, wonder="pyramids", disc="pyramids-0")
    refused(state, tob.OFFER, "TB-12", seat="red", cards={"ship": 1})


def test_an_offer_is_limited_to_the_demanded_kind_and_number():  # TB-12
    state = apply(game(SHIP5), tob.CHOOSE, wonder="pyramids", disc="pyramids-0")
    refused(state, tob.OFFER, "TB-12", seat="yellow", cards={"ship": 6})
    refused(state, tob.OFFER, "TB-12", seat="yellow", cards={"camel": 1})


def test_an_offer_of_exactly_the_discs_number_is_allowed():  # TB-12
    state = apply(game(SHIP5), tob.CHOOSE, wonder="pyramids", disc="pyramids-0")
    state = apply(state, tob.OFFER, seat="yellow", cards={"ship": 5})
    assert state["build"]["offers"]["yellow"]["cards"] == {"ship": 5}


def test_a_player_rejected_twice_keeps_the_points_of_both_rejections():  # TB-14
    first = build(game(SHIP5), "pyramids", offers={"yellow": {"cards": {"ship": 2}}}, accepted=[], own={"ship": 5})
    assert first["points"]["yellow"]["rejected"] == 2
    second = apply(apply(first, tob.PASS), tob.PASS)  # yellow, then green pass: red again
    second = build(second, "pyramids", offers={"yellow": {"cards": {"ship": 3}}}, accepted=[], own={"ship": 4})
    assert second["points"]["yellow"]["rejected"] == 5


def test_a_disc_must_still_be_on_the_chosen_wonder():  # TB-12, TB-3
    state = game(SHIP5)
    refused(state, tob.CHOOSE, "TB-12", wonder="pyramids", disc="colossus-9")
    refused(state, tob.CHOOSE, "TB-3", wonder="hanging-tower", disc="pyramids-0")


def test_offers_are_revealed_once_every_other_player_has_offered():  # TB-12
    state = apply(game(SHIP5), tob.CHOOSE, wonder="pyramids", disc="pyramids-0")
    state = apply(state, tob.OFFER, seat="yellow", cards={"ship": 2})
    assert not tob.offers_revealed(state)
    refused(state, tob.RESOLVE, "TB-12", accepted=[], own={"ship": 5})
    state = apply(state, tob.OFFER, seat="green")
    assert tob.offers_revealed(state)


def test_at_most_one_accepted_offer_may_hold_a_trading_card():  # TB-13
    offers = {"yellow": {"cards": {"ship": 1}, "trading": True}, "green": {"cards": {"ship": 1}, "trading": True}}
    error = refused(
        game(SHIP5),
        tob.BUILD,
        "TB-13",
        wonder="pyramids",
        disc="pyramids-0",
        offers=offers,
        accepted=["yellow", "green"],
        own={"ship": 3},
    )
    assert error.field == "accepted"  # the form's list of accepted offers shows it


def test_accepted_offers_may_not_exceed_the_disc_number():  # TB-13
    offers = {"yellow": {"cards": {"ship": 3}}, "green": {"cards": {"ship": 3}}}
    refused(
        game(SHIP5),
        tob.BUILD,
        "TB-13",
        wonder="pyramids",
        disc="pyramids-0",
        offers=offers,
        accepted=["yellow", "green"],
        own={},
    )


def test_the_cards_must_reach_the_number_exactly():  # TB-13
    error = refused(game(SHIP5), tob.BUILD, "TB-13", wonder="pyramids", disc="pyramids-0", own={"ship": 4})
    assert "1 missing" in error.message
    refused(game(SHIP5), tob.BUILD, "TB-13", wonder="pyramids", disc="pyramids-0", own={"ship": 6})


def test_a_joker_counts_as_two_cards_and_earns_two_parts():  # TB-13, TB-22
    state = with_action_cards(game(SHIP5), "red", 1)
    state = build(state, "pyramids", own={"ship": 3}, jokers=1)
    assert state["wonders"]["pyramids"]["parts"] == {"red": 5}
    assert state["cards"]["red"]["played"] == {"joker": 1}
    refused(game(SHIP5), tob.BUILD, "TB-13", wonder="pyramids", disc="pyramids-0", own={"ship": 3}, jokers=1)


def test_rejected_offers_score_a_point_per_card_and_trading_cards_nothing():  # TB-14
    offers = {"yellow": {"cards": {"ship": 2}, "trading": True}, "green": {"cards": {"ship": 3}}}
    state = build(game(SHIP5), "pyramids", offers=offers, accepted=[], own={"ship": 5})
    assert (state["points"]["yellow"]["rejected"], state["points"]["green"]["rejected"]) == (2, 3)


def test_a_triple_bonus_makes_a_rejected_card_worth_three():  # TB-14
    state = with_action_cards(game(SHIP5), "green", 1)
    state = build(
        state, "pyramids", offers={"green": {"cards": {"ship": 2}, "triple": True}}, accepted=[], own={"ship": 5}
    )
    assert state["points"]["green"]["rejected"] == 6
    refused(
        game(SHIP5),
        tob.BUILD,
        "TB-14",
        wonder="pyramids",
        disc="pyramids-0",
        offers={"green": {"cards": {"ship": 2}, "triple": True}},
        accepted=[],
        own={"ship": 5},
    )


def test_an_unfulfilled_disc_stays_and_every_offer_scores():  # TB-15
    offers = {"yellow": {"cards": {"ship": 1}}, "green": {"cards": {"ship": 2}}}
    state = build(game(SHIP5), "pyramids", offers=offers, accepted=["yellow"], fulfilled=False)
    assert state["wonders"]["pyramids"]["discs"][0] == "pyramids-0"
    assert state["wonders"]["pyramids"]["parts"] == {}
    assert (state["points"]["yellow"]["rejected"], state["points"]["green"]["rejected"]) == (1, 2)
    assert state["active"] == "yellow"


def test_a_double_turn_keeps_the_active_player_once():  # TB-16
    refused(game(), tob.PASS, "TB-16", double_turn=True)
    state = apply(with_action_cards(game(), "red", 2), tob.PASS, double_turn=True)
    assert (state["active"], state["extra_turn"]) == ("red", True)
    refused(state, tob.PASS, "TB-16", double_turn=True)
    assert apply(state, tob.PASS)["active"] == "yellow"


def complete_pyramids(state):
    """Red builds all three discs of the pyramids with yellow's help on the last one."""
    state = build(state, "pyramids", own={"ship": 5})
    state = apply(apply(state, tob.PASS), tob.PASS)
    state = build(state, "pyramids", own={"ship": 4})
    state = apply(apply(state, tob.PASS), tob.PASS)
    return build(state, "pyramids", offers={"yellow": {"cards": {"camel": 2}}}, accepted=["yellow"], own={"camel": 1})


def test_the_third_disc_scores_the_wonder_moves_the_marker_and_draws_an_action_card():  # TB-17
    state = complete_pyramids(game(SHIP5))
    pyramids = state["wonders"]["pyramids"]
    assert pyramids["scored"]["points"] == {"red": 8, "yellow": 4, "green": 0}
    assert pyramids["parts"] == {}
    assert state["row"] == 2
    assert state["points"]["red"]["wonders"] == 8
    assert state["cards"]["red"]["drawn"] == 1


def test_without_action_cards_no_card_is_drawn():  # TB-10
    state = complete_pyramids(game(SHIP5, action_cards=False))
    assert state["cards"]["red"]["drawn"] == 0
    refused(state, tob.PASS, "TB-10", double_turn=True)


def test_a_tie_for_most_parts_scores_the_second_value():  # TB-18
    layout = {"pyramids": [{"ship": 4}, {"camel": 3}, {"crane": 4}]}
    state = build(
        game(layout), "pyramids", offers={"yellow": {"cards": {"ship": 2}}}, accepted=["yellow"], own={"ship": 2}
    )
    state = build(state, "pyramids", disc=0, own={"camel": 3})  # yellow builds alone
    # red 2 + 3 = 5, yellow 2 + 3 = 5, green 1
    state = build(
        state, "pyramids", disc=0, offers={"red": {"cards": {"crane": 3}}}, accepted=["red"], own={"crane": 1}
    )
    assert state["wonders"]["pyramids"]["scored"]["points"] == {"red": 4, "yellow": 4, "green": 3}


def test_the_game_ends_when_the_last_disc_of_a_kind_is_taken_after_scoring_its_wonder():  # TB-19
    state = game(SHIP5)
    ships = [
        d for d, disc in state["discs"].items() if "ship" in disc["demand"] and d not in ("pyramids-0", "pyramids-1")
    ]
    discs = {d: ({**disc, "owner": "green"} if d in ships else disc) for d, disc in state["discs"].items()}
    wonders = {w: {**v, "discs": [d for d in v["discs"] if d not in ships]} for w, v in state["wonders"].items()}
    state = {**state, "discs": discs, "wonders": wonders}
    state = build(state, "pyramids", own={"ship": 5})
    assert not state["over"]
    state = apply(apply(state, tob.PASS), tob.PASS)
    state = build(state, "pyramids", disc=0, own={"ship": 4})
    assert state["over"]
    assert state["active"] is None
    refused(state, tob.PASS, "TB-19")
    assert ENGINE.standings(state) is not None


def ended(state):
    return {**state, "over": True, "active": None}


def test_final_scoring_adds_unfinished_wonders_disc_sets_and_held_cards():  # TB-20, TB-21
    state = build(
        game(SHIP5), "pyramids", offers={"yellow": {"cards": {"ship": 2}}}, accepted=["yellow"], own={"ship": 3}
    )
    state = with_action_cards(ended(state), "yellow", 1)
    state = apply(state, tob.DECLARE_CARDS, seat="yellow", five_points=1)
    standings = {s.seat: s for s in ENGINE.standings(state)}
    assert standings["red"].breakdown["final_wonders"] == 10
    assert standings["yellow"].breakdown["final_wonders"] == 5
    assert standings["yellow"].breakdown["action_cards"] == 5
    assert standings["red"].breakdown["discs"] == 0  # one ship disc: TB-7 gives 0
    assert (standings["red"].score, standings["yellow"].score, standings["green"].score) == (10, 10, 0)
    assert (standings["red"].rank, standings["yellow"].rank, standings["green"].rank) == (1, 1, 3)  # TB-21


def test_the_best_disc_assignment_is_proposed_and_the_owner_may_change_it():  # TB-20
    state = game()
    discs = {
        "1": {"camel": 3},
        "2": {"camel": 4},
        "3": {"camel": 5},
        "4": {"camel": 2, "stonemason": 3},
        "5": {"ship": 3},
        "6": {"ship": 4},
        "7": {"crane": 4},
    }
    state = {
        **state,
        "discs": {d: {"demand": demand, "wonder": "babel", "owner": "red"} for d, demand in discs.items()},
    }
    state = ended(state)
    assert tob.best_assignment(state, "red") == ["camel", "camel", "camel", "camel", "ship", "ship", "crane"]
    assert {s.seat: s.breakdown["discs"] for s in ENGINE.standings(state)}["red"] == 25  # the seed example
    changed = apply(
        state, tob.ASSIGN, seat="red", assignment=["camel", "camel", "camel", "stonemason", "ship", "ship", "crane"]
    )
    assert {s.seat: s.breakdown["discs"] for s in ENGINE.standings(changed)}["red"] == 10 + 5
    refused(state, tob.ASSIGN, "TB-20", seat="red", assignment=["ship"] * 7)


def test_held_cards_cannot_exceed_the_cards_drawn():  # TB-20, TB-22
    state = ended(game())
    refused(state, tob.DECLARE_CARDS, "TB-20", seat="red", five_points=1)
    refused(game(), tob.DECLARE_CARDS, "TB-20", seat="red", five_points=0)


def test_a_trading_card_goes_only_with_at_least_one_card():  # TB-23
    state = apply(game(SHIP5), tob.CHOOSE, wonder="pyramids", disc="pyramids-0")
    refused(state, tob.OFFER, "TB-23", seat="yellow", cards={}, trading=True)


def test_nobody_places_more_than_their_twenty_parts_hold():  # TB-5
    state = game(SHIP5)
    wonders = {**state["wonders"], "babel": {**state["wonders"]["babel"], "parts": {"red": 28}}}
    refused({**state, "wonders": wonders}, tob.BUILD, "TB-5", wonder="pyramids", disc="pyramids-0", own={"ship": 5})


def random_turn(state, rnd):
    """A plausible turn: mostly legal, sometimes not (the engine must refuse those cleanly)."""
    if rnd.random() < 0.15:
        return tob.PASS, {}
    wonder = rnd.choice([w for w, v in state["wonders"].items() if v["discs"]])
    disc = rnd.choice(state["wonders"][wonder]["discs"])
    demand = state["discs"][disc]["demand"]
    offers = {}
    for seat in state["seats"]:
        if seat != state["active"] and rnd.random() < 0.6:
            kind = rnd.choice(list(demand))
            offers[seat] = {"cards": {kind: rnd.randint(1, demand[kind])}, "trading": rnd.random() < 0.2}
    accepted = [s for s in offers if rnd.random() < 0.5]
    own = dict(demand)
    for seat in accepted:
        for kind, n in offers[seat]["cards"].items():
            own[kind] -= n
    fulfilled = rnd.random() < 0.9
    return tob.BUILD, {
        "wonder": wonder,
        "disc": disc,
        "offers": offers,
        "accepted": accepted,
        "own": own,
        "fulfilled": fulfilled,
    }


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(3, 5))
def test_random_games_keep_their_invariants_and_replay_to_the_same_state(seed, players):
    seats = [str(n) for n in range(players)]
    rules = core.Rules(entry=ScoreEntry(), engine=ENGINE)
    state = core.initial_state(rules, seats=seats, options={"two_kind_discs": seed % 2 == 0}, seed=seed)
    log = []

    def record(event_type, payload):
        nonlocal state
        event = core.Event(seq=len(log) + 1, type=event_type, payload=payload)
        try:
            state = core.step(rules, state, event)
        except RuleError:
            return
        log.append(event)

    record(core.START, {})
    record(tob.FIRST_PLAYER, {"seat": state["game"]["suggested_first"]})
    rnd = random.Random(seed)
    for _ in range(200):
        if state["game"]["over"]:
            break
        record(*random_turn(state["game"], rnd))
    game_state = state["game"]
    assert len(game_state["discs"]) == 24
    on_board = sum(len(w["discs"]) for w in game_state["wonders"].values())
    assert on_board + sum(1 for d in game_state["discs"].values() if d["owner"]) == 24
    assert all(value >= 0 for points in game_state["points"].values() for value in points.values())
    assert core.replay(rules, seats=seats, options={"two_kind_discs": seed % 2 == 0}, seed=seed, events=log) == state
    if game_state["over"]:
        standings = ENGINE.standings(game_state)
        assert sorted(s.rank for s in standings)[0] == 1
        assert all(s.score >= 0 for s in standings)
