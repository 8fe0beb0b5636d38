"""Tower of Babel's JSON in the published schema (``sessions/api/shapes/tower_of_babel.py``):
every event type with its typed payload, the offer as the event list shows it while secret,
the session's state at every step and a result's breakdown, checked against whole games
played through the services (``tests/shapes.py``), with both options on and off, the group's
edition table, an undo, and games the engine counted to their end."""

from collections import Counter

import pytest

from scoring import session as core
from scoring.errors import RuleError
from scoring.tower_of_babel import engine as tob
from scoring.tower_of_babel.engine import TowerOfBabel
from sessions import services
from sessions.api.shapes import event_payloads
from sessions.api.shapes import tower_of_babel as shapes
from sessions.boards import tower_of_babel as board
from sessions.games import GAMES, TOWER_OF_BABEL
from tests.conftest import advance, finish_with_scores, offers_in, started_tower
from tests.shapes import check_the_shapes_of, problems
from tests.test_tower_of_babel_engine import SHIP5, build, game, with_action_cards
from tests.test_tower_of_babel_final_on_phones import game_over, two_kind_holder

EVERY_EVENT_TYPE = TowerOfBabel().event_types()


# --- playing ----------------------------------------------------------------------------


def created(night, players, **options):
    """A Tower of Babel session for ``players`` (seed 7), started with its first seat to play."""
    session = services.create_session(night=night, game=TOWER_OF_BABEL, players=players, options=options, secret="7")
    session, seats, _code = started_tower(session)
    return session, seats


def in_hand(game, seat):
    """The action cards a player drew and did not play."""
    cards = game["cards"][seat]
    return cards["drawn"] - sum(cards["played"].values())


def kinds_on_the_board(game, leaving=()):
    """The discs still on the board per kind (a two-kind disc counts for both, TB-19), but
    those in ``leaving``."""
    left = Counter()
    for wonder in game["wonders"].values():
        for disc in wonder["discs"]:
            if disc not in leaving:
                left.update(game["discs"][disc]["demand"].keys())
    return left


def safest_wonder(game):
    """The wonder whose discs can all be taken leaving the most of every kind on the board (so the
    game does not end, TB-19), the one closest to completion among those."""
    started = [name for name, wonder in game["wonders"].items() if wonder["discs"]]

    def fewest_left(name):
        left = kinds_on_the_board(game, leaving=game["wonders"][name]["discs"])
        return min(left[kind] for kind in shapes.KINDS)

    return max(started, key=lambda name: (fewest_left(name), -len(game["wonders"][name]["discs"])))


def a_disc(game, *, at_least=1):
    """A single-kind disc of the safest wonder demanding at least ``at_least`` cards, with its kind
    and number (else of another wonder)."""
    wonders = [safest_wonder(game), *game["wonders"]]
    for wonder in wonders:
        for disc in game["wonders"][wonder]["discs"]:
            demand = game["discs"][disc]["demand"]
            if len(demand) == 1 and next(iter(demand.values())) >= at_least:
                kind, number = next(iter(demand.items()))
                return wonder, disc, kind, number
    raise AssertionError("no such disc on the board")


def builds_alone(session):
    """The active player builds the first disc of the safest wonder with their own cards."""
    game = session.state["game"]
    wonder = safest_wonder(game)
    disc = game["wonders"][wonder]["discs"][0]
    advance(session, tob.BUILD, wonder=wonder, disc=disc, own=game["discs"][disc]["demand"])


def holding_an_action_card(session, seat):
    """``seat`` completes wonders alone, the others passing, until it holds an action card on its
    turn (TB-17: the active player draws one when a wonder scores)."""
    game = session.state["game"]
    while not (game["active"] == seat and in_hand(game, seat)):
        if game["active"] == seat:
            builds_alone(session)
        else:
            advance(session, tob.PASS)
        game = session.state["game"]
        assert not game["over"], "the game ended before the action card was drawn"


def built_to_the_end(session):
    """Every turn the active player builds the first disc left, alone, until a kind runs out
    (``play_to_the_end`` once the game is under way)."""
    while not session.state["game"]["over"]:
        game = session.state["game"]
        wonder = next(w for w, v in game["wonders"].items() if v["discs"])
        disc = game["wonders"][wonder]["discs"][0]
        advance(session, tob.BUILD, wonder=wonder, disc=disc, own=game["discs"][disc]["demand"])


def final_choices(session):
    """Once the game is over: a player assigns their discs (a two-kind disc to its other kind
    if anyone holds one, TB-20 step 2) and the players show the action cards they hold."""
    game = session.state["game"]
    try:
        seat, index, kinds = two_kind_holder(session)
        assignment = tob.best_assignment(game, seat)
        assignment[index] = next(kind for kind in kinds if kind != assignment[index])
    except AssertionError:
        seat = next(seat for seat in game["seats"] if tob.discs_held(game, seat))
        assignment = tob.best_assignment(game, seat)
    advance(session, tob.ASSIGN, seat=seat, assignment=assignment)
    for seat in game["seats"]:
        held = min(in_hand(game, seat), 1) if game["action_cards"] else 0
        advance(session, tob.DECLARE_CARDS, seat=seat, building_disc_bonus=held, five_points=0)


def event_types(session):
    return {event.type for event in session.events.all()}


def states_of(session):
    """The session's public state after each event of its log, as the API shows it."""
    rules = GAMES[session.game].rules
    seats = [seat.key for seat in session.seats.all()]
    replay = {"seats": seats, "options": session.options, "seed": session.seed}
    events = [event.as_core_event() for event in session.events.order_by("seq")]
    state = core.initial_state(rules, **replay)
    shown = [board.public_state(state)]
    for done, event in enumerate(events, 1):
        if event.type == core.UNDO:
            state = core.replay(rules, events=events[:done], **replay)
        else:
            state = core.step(rules, state, event)
        shown.append(board.public_state(state))
    return shown


def assert_fits_its_shapes(session):
    """Every event, listed event, state and breakdown of ``session`` fits the published schema;
    every state fits Tower of Babel's own (``SessionState`` takes any game's)."""
    found = check_the_shapes_of(session)
    for seq, state in enumerate(states_of(session)):
        found += [f"after {seq}: {p}" for p in problems(state["game"], "TowerOfBabelState")]
    assert found == [], "\n".join(found)


@pytest.fixture
def every_move(night, players):
    """Ada, Bruno and Chiara play with two-kind discs and action cards, every kind of move: a
    build with secret offers and a trading card, passes and an undo, a Double turn, a Joker and a
    rejected Triple bonus, a build left unfulfilled as the host's form sends it, then to the end
    of the game, the final choices and Finish."""
    session, (ada, bruno, chiara) = created(night, players[:3], two_kind_discs=True, action_cards=True)
    wonder, disc, kind, number = a_disc(session.state["game"], at_least=2)
    advance(session, tob.CHOOSE, wonder=wonder, disc=disc)
    advance(session, tob.OFFER, seat=bruno, cards={kind: 1}, trading=True, triple=False)
    advance(session, tob.OFFER, seat=chiara, cards={kind: 1}, trading=False, triple=False)
    advance(session, tob.RESOLVE, accepted=[bruno], own={kind: number - 1}, jokers=0, fulfilled=True)
    assert session.state["game"]["discs"][disc]["owner"] == bruno  # TB-13: the trading card takes it
    advance(session, tob.PASS, double_turn=False)
    advance(session, tob.PASS)
    advance(session, core.UNDO)
    advance(session, tob.PASS)

    holding_an_action_card(session, ada)
    advance(session, tob.PASS, double_turn=True)  # TB-16: Ada's second turn
    holding_an_action_card(session, ada)
    holding_an_action_card(session, bruno)
    while session.state["game"]["active"] != ada:
        advance(session, tob.PASS)
    wonder, disc, kind, number = a_disc(session.state["game"], at_least=3)
    advance(session, tob.CHOOSE, wonder=wonder, disc=disc)
    advance(session, tob.OFFER, seat=bruno, cards={kind: 2}, triple=True)
    advance(session, tob.OFFER, seat=chiara, cards={kind: 1})
    advance(session, tob.RESOLVE, accepted=[chiara], own={kind: number - 3}, jokers=1)
    game = session.state["game"]
    assert game["cards"][ada]["played"] == {"double_turn": 1, "joker": 1}
    assert game["cards"][bruno]["played"] == {"triple_bonus": 1}  # TB-14: rejected, 3 VP a card

    active = game["active"]
    others = [seat for seat in game["seats"] if seat != active]
    wonder, disc, kind, _number = a_disc(game)
    offers = {others[0]: {"cards": {kind: 1}, "trading": False, "triple": False}}
    offers[others[1]] = {"cards": {kind: 0}, "trading": False, "triple": False}
    advance(
        session,
        tob.BUILD,
        wonder=wonder,
        disc=disc,
        offers=offers,
        accepted=[others[0]],
        own={kind: 0},
        jokers=0,
        fulfilled=False,  # TB-15: the disc stays
        double_turn=False,
    )
    assert session.state["game"]["discs"][disc]["owner"] is None

    built_to_the_end(session)
    final_choices(session)
    advance(session, core.FINISH)
    return session


# --- the tests --------------------------------------------------------------------------


def test_every_tower_of_babel_event_type_has_a_typed_payload():
    assert set(shapes.EVENTS) == EVERY_EVENT_TYPE
    assert set(shapes.EVENTS) == GAMES[TOWER_OF_BABEL].rules.engine.event_types()
    for kind in EVERY_EVENT_TYPE:
        payload = event_payloads(TOWER_OF_BABEL)[kind]
        assert payload["description"], kind
        assert all(schema.get("description") for schema in payload["properties"].values()), kind
    assert set(shapes.PUBLIC_EVENTS) <= EVERY_EVENT_TYPE
    assert set(shapes.BREAKDOWN["properties"]) == set(tob.SOURCES)


def test_a_tower_of_babel_game_with_every_move_fits_its_published_shapes(every_move):
    session = every_move
    assert event_types(session) >= EVERY_EVENT_TYPE | {core.UNDO, core.FINISH}
    assert session.status == core.FINISHED
    assert {result.player_id for result in session.results.all()} == {seat.player_id for seat in session.seats.all()}
    assert all(set(result.breakdown) == set(tob.SOURCES) for result in session.results.all())
    assert_fits_its_shapes(session)


def test_a_game_without_two_kind_discs_or_action_cards_counted_to_its_end_fits(night, players):  # TB-10
    session, seats = created(night, players, two_kind_discs=False, action_cards=False)
    _wonder, _kind, _number = offers_in(session, seats)  # every other player offers the whole demand
    advance(session, tob.RESOLVE, accepted=[seats[1]], own={}, fulfilled=True, double_turn=False)
    advance(session, tob.PASS)
    built_to_the_end(session)
    final_choices(session)
    advance(session, core.FINISH)
    assert session.status == core.FINISHED
    assert all(len(disc["demand"]) == 1 for disc in session.state["game"]["discs"].values())
    assert_fits_its_shapes(session)


def test_a_game_on_the_groups_edition_table_with_scores_typed_in_fits(group, night, players):  # TB-1, TB-5, TB-22
    overrides = {
        "min_players": 2,
        "single_disc_range": [3, 7],
        "parts_per_player": {"1": 14, "3": 6},
        "action_cards": {
            "card_draw": 2,
            "card_trade": 2,
            "joker": 3,
            "building_disc_bonus": 2,
            "triple_bonus": 2,
            "double_turn": 2,
            "five_points": 2,
        },
        "set_bonus": [0, 0, 5, 12, 20, 30, 40, 50],
    }
    services.set_edition_table(group=group, game=TOWER_OF_BABEL, overrides=overrides)
    session, (_ada, bruno) = created(night, players[:2], two_kind_discs=True)
    assert set(session.state["game"]["table"]) >= set(overrides)
    wonder, disc, kind, number = a_disc(session.state["game"], at_least=2)
    advance(session, tob.CHOOSE, wonder=wonder, disc=disc)
    assert board.public_state(session.state)["game"]["build"]["offers"] == {}
    advance(session, tob.OFFER, seat=bruno, cards={kind: number}, trading=True)
    advance(session, tob.RESOLVE, accepted=[bruno])
    advance(session, tob.PASS)
    finish_with_scores(session, [30, 41])
    assert session.status == core.FINISHED
    assert_fits_its_shapes(session)


def test_a_game_the_table_builds_to_its_end_fits_its_shapes(night, players):  # TB-19, TB-20
    session, _seats, _code = game_over(night, players)
    final_choices(session)
    advance(session, core.FINISH)
    assert_fits_its_shapes(session)


def test_a_secret_offer_is_listed_with_its_seat_only_and_fits_its_public_shape(session):  # TB-12
    session, seats, _code = started_tower(session)
    wonder, disc, kind, _number = a_disc(session.state["game"])
    advance(session, tob.CHOOSE, wonder=wonder, disc=disc)
    advance(session, tob.OFFER, seat=seats[1], cards={kind: 1}, trading=False, triple=False)
    state = board.public_state(session.state)
    assert state["game"]["build"]["offers"] == {seats[1]: {"offered": True}}
    assert problems(state["game"], "TowerOfBabelState") == []
    [shown] = board.public_payloads(session.state, [(4, tob.OFFER, {"seat": seats[1], "cards": {kind: 1}})])
    assert shown == {"seat": seats[1]}
    listed = {"seq": 4, "type": tob.OFFER, "payload": shown, "author": None, "author_label": ""}
    assert problems({**listed, "created_at": "2026-11-27T20:00:00Z"}, "EventOut") == []
    assert_fits_its_shapes(session)


@pytest.mark.parametrize(
    ("field", "broken"),
    [
        ("row", "1"),
        ("active", 7),
        ("over", None),
        ("turn", 0),
        ("wonders", {"pyramids": {"discs": [], "parts": {}, "scored": None}}),
        ("build", {"wonder": "pyramids", "disc": "1", "offers": {"1": {"offered": True, "cards": {}}}}),
        ("colour", "red"),
    ],
)
def test_a_state_with_a_field_broken_does_not_fit(session, field, broken):
    session, _seats, _code = started_tower(session)
    state = board.public_state(session.state)
    assert problems(state["game"], "TowerOfBabelState") == []
    assert problems({**state["game"], field: broken}, "TowerOfBabelState") != []


def test_an_event_or_a_breakdown_of_the_wrong_shape_does_not_fit():
    assert problems({"type": tob.OFFER, "payload": {"seat": "1", "cards": "x"}, "expected_version": 3}, "EventIn")
    assert problems({"type": tob.CHOOSE, "payload": {"wonder": "pyramids"}, "expected_version": 3}, "EventIn")
    assert problems(
        {"type": tob.ASSIGN, "payload": {"seat": "1", "assignment": ["gold"]}, "expected_version": 3}, "EventIn"
    )
    assert problems(dict.fromkeys(tob.SOURCES[1:], 0), "TowerOfBabelBreakdown")
    assert problems({**dict.fromkeys(tob.SOURCES, 0), "total": 0}, "TowerOfBabelBreakdown")


# --- the engine refuses what the schema refuses, naming the payload's field ---------------


@pytest.mark.parametrize(("field", "value"), [("own", "x"), ("own", {"ship": -1}), ("jokers", "1"), ("jokers", 3)])
def test_an_unfulfilled_build_refuses_own_cards_or_jokers_of_the_wrong_shape(field, value):  # TB-13, TB-15
    state = with_action_cards(game(SHIP5), "red", 1)
    with pytest.raises(RuleError) as error:
        build(state, "pyramids", offers={"yellow": {"cards": {"ship": 2}}}, fulfilled=False, **{field: value})
    assert error.value.field.startswith(field)
    failed = build(state, "pyramids", offers={"yellow": {"cards": {"ship": 2}}}, fulfilled=False, own={"ship": 0})
    assert failed["points"]["yellow"]["rejected"] == 2  # TB-15: what it takes stays as it was
