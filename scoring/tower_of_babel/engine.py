"""The Tower of Babel turn tracker: pure functions over JSON-compatible state.

A turn is a pass (TB-11) or a build (TB-12..TB-16). A build runs in three steps so that
offers can be made secretly on each phone: ``choose`` a wonder and disc, each other
player ``offer``s (revealed together once all have offered), then ``resolve`` with the
accepted offers and the active player's own cards. ``build`` does all three at once for a
table that records on one device. Completed wonders score at once (TB-17, TB-18); the game
ends when a kind runs out (TB-19) and then scores the rest (TB-20).

The companion tracks public state only (hands stay in hands): parts on wonders, discs,
points by source, the scoring row, and action cards drawn and played.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from scoring.engine import JSON, Standing
from scoring.errors import RuleError, gettext_noop
from scoring.ranking import competition_ranks
from scoring.tower_of_babel.discs import HELD_CARDS, deal, score_discs
from scoring.tower_of_babel.table import Table, load_table
from scoring.tower_of_babel.wonders import score_wonder

FIRST_PLAYER, PASS, CHOOSE, OFFER, RESOLVE, BUILD = (
    "tob.first_player",
    "tob.pass",
    "tob.choose",
    "tob.offer",
    "tob.resolve",
    "tob.build",
)
ASSIGN, DECLARE_CARDS = "tob.assign", "tob.declare_cards"
SOURCES = ("wonders", "rejected", "final_wonders", "discs", "action_cards")


def table_of(state: JSON) -> Table:
    """The table the session started with (kept as it was, see ``load_table``)."""
    return load_table(state["table"], edition_rules=False)


class TowerOfBabel:
    """The engine the session core calls (``scoring.engine.Engine``)."""

    def initial_state(self, *, seats: Sequence[str], options: Mapping[str, JSON], seed: int) -> JSON:
        # A group's table is checked when it is saved; a replay starts from the same options, so
        # the start reads it as stored (and the deal refuses what it cannot deal, naming TB-8).
        table = load_table(options.get("table"), edition_rules=False)
        board = deal(table, two_kind_variant=bool(options.get("two_kind_discs")), seed=seed)
        discs: dict[str, JSON] = {}
        wonders: dict[str, JSON] = {}
        for wonder, dealt in board.items():
            ids = []
            for disc in dealt:
                disc_id = str(len(discs) + 1)
                discs[disc_id] = {"demand": disc, "wonder": wonder, "owner": None}
                ids.append(disc_id)
            wonders[wonder] = {"discs": ids, "parts": {}, "scored": None}
        return {
            "seats": list(seats),
            "table": table.as_json(),
            "action_cards": bool(options.get("action_cards", True)),
            "suggested_first": seats[random.Random(seed).randrange(len(seats))],
            "active": None,
            "extra_turn": False,
            "build": None,
            "wonders": wonders,
            "discs": discs,
            "row": 1,
            "points": {seat: dict.fromkeys(SOURCES, 0) for seat in seats},
            "cards": {seat: {"drawn": 0, "played": {}, "held": dict.fromkeys(HELD_CARDS, 0)} for seat in seats},
            "assignments": {},
            "over": False,
            "turn": 1,
        }

    def event_types(self) -> frozenset[str]:
        return frozenset({FIRST_PLAYER, PASS, CHOOSE, OFFER, RESOLVE, BUILD, ASSIGN, DECLARE_CARDS})

    def apply(self, state: JSON, *, type: str, payload: Mapping[str, JSON]) -> JSON:
        if type == ASSIGN:
            return _assign(state, payload)
        if type == DECLARE_CARDS:
            return _declare_cards(state, payload)
        if state["over"]:
            raise RuleError(
                gettext_noop("The game is over: only the final scoring can change."), field="type", rule="TB-19"
            )
        if type == FIRST_PLAYER:
            return _first_player(state, payload)
        if state["active"] is None:
            raise RuleError(gettext_noop("Choose the first player first."), field="type", rule="TB-9")
        if type == PASS:
            return _pass(state, payload)
        if type == CHOOSE:
            return _choose(state, payload)
        if type == OFFER:
            return _offer(state, payload)
        if type == RESOLVE:
            return _resolve(state, payload)
        if type == BUILD:
            built = _choose(state, payload)
            for seat, offer in _mapping(payload.get("offers", {}), "offers").items():
                built = _offer(built, {**_mapping(offer, f"offers.{seat}"), "seat": seat})
            for seat in state["seats"]:  # a player left out offered nothing
                if seat != state["active"] and seat not in built["build"]["offers"]:
                    built = _offer(built, {"seat": seat})
            return _resolve(built, payload)
        raise RuleError(gettext_noop("Unknown event type {type}."), field="type", params={"type": type})

    def standings(self, state: JSON) -> list[Standing] | None:
        if not state["over"]:
            return None
        totals = final_points(state)
        ranks = competition_ranks({seat: (sum(points.values()),) for seat, points in totals.items()})
        return [
            Standing(seat=seat, score=sum(totals[seat].values()), rank=ranks[seat], breakdown=totals[seat])
            for seat in state["seats"]
        ]


def final_points(state: JSON) -> dict[str, dict[str, int]]:
    """Points by source once the game is over: what was scored plus TB-20's three steps."""
    table = table_of(state)
    totals = {seat: dict(points) for seat, points in state["points"].items()}
    for wonder in state["wonders"].values():  # TB-20 step 1: unfinished wonders, final row
        if wonder["scored"] is None:
            parts = {seat: wonder["parts"].get(seat, 0) for seat in state["seats"]}
            for seat, points in score_wonder(parts, table.final_row, table.present_points).items():
                totals[seat]["final_wonders"] += points
    for seat in state["seats"]:  # TB-20 steps 2 and 3
        held = discs_held(state, seat)
        held_cards = state["cards"][seat]["held"]
        result = score_discs(
            table,
            held,
            building_disc_bonus=held_cards["building_disc_bonus"],
            five_points=held_cards["five_points"],
        )
        chosen = state["assignments"].get(seat)
        sets = result.total - result.action_card_points
        if chosen is not None:
            counts = Counter(chosen)
            sets = sum(table.bonus(counts[kind]) for kind in table.kinds)
        totals[seat]["discs"] = sets
        totals[seat]["action_cards"] = result.action_card_points
    return totals


def discs_held(state: JSON, seat: str) -> list[list[str]]:
    return [sorted(disc["demand"]) for disc in state["discs"].values() if disc["owner"] == seat]


def best_assignment(state: JSON, seat: str) -> list[str]:
    return score_discs(table_of(state), discs_held(state, seat)).assignment


# --- events ---------------------------------------------------------------------------


def _first_player(state: JSON, payload: Mapping[str, JSON]) -> JSON:
    if state["active"] is not None:
        raise RuleError(gettext_noop("The first player is already chosen."), field="seat", rule="TB-9")
    return {**state, "active": _seat(state, payload.get("seat"), "seat")}


def _pass(state: JSON, payload: Mapping[str, JSON]) -> JSON:  # TB-11
    if state["build"] is not None:
        raise RuleError(gettext_noop("Finish or undo the build under way first."), field="type", rule="TB-12")
    return _end_turn(state, double_turn=_flag(payload, "double_turn"))


def _choose(state: JSON, payload: Mapping[str, JSON]) -> JSON:  # TB-12
    if state["build"] is not None:
        raise RuleError(gettext_noop("A build is already under way."), field="type", rule="TB-12")
    wonder = payload.get("wonder")
    if wonder not in state["wonders"]:
        raise RuleError(gettext_noop("Choose one of the eight wonders."), field="wonder", rule="TB-3")
    disc = str(payload.get("disc"))
    if disc not in state["wonders"][wonder]["discs"]:
        raise RuleError(gettext_noop("This disc is not on that wonder any more."), field="disc", rule="TB-12")
    return {**state, "build": {"wonder": wonder, "disc": disc, "offers": {}}}


def _offer(state: JSON, payload: Mapping[str, JSON]) -> JSON:  # TB-12, TB-14, TB-23
    build = state["build"]
    if build is None:
        raise RuleError(gettext_noop("No build is under way."), field="type", rule="TB-12")
    seat = _seat(state, payload.get("seat"), "seat")
    field = f"offers.{seat}"
    if seat == state["active"]:
        raise RuleError(gettext_noop("The active player makes no offer."), field=field, rule="TB-12")
    if offers_revealed(state):  # revealed together: nobody offers again once they are shown
        raise RuleError(
            gettext_noop("The offers are revealed: no offer can be made or changed now."), field=field, rule="TB-12"
        )
    if seat in build["offers"]:
        raise RuleError(gettext_noop("This player has already offered."), field=field, rule="TB-12")
    demand = state["discs"][build["disc"]]["demand"]
    cards = _cards(state, payload.get("cards", {}), f"{field}.cards", rule="TB-12")
    for kind, count in cards.items():
        if kind not in demand:
            raise RuleError(
                gettext_noop("This disc does not demand {kind}."),
                field=f"{field}.cards.{kind}",
                rule="TB-12",
                params={"kind": kind},
            )
        if count > demand[kind]:
            raise RuleError(
                gettext_noop("At most {number} cards of this kind can be offered."),
                field=f"{field}.cards.{kind}",
                rule="TB-12",
                params={"number": demand[kind]},
            )
    trading = _flag(payload, "trading")
    if trading and not cards:
        raise RuleError(
            gettext_noop("A trading card goes only with at least one card."), field=f"{field}.trading", rule="TB-23"
        )
    triple = _flag(payload, "triple")
    # Decision (TB-14): the Triple bonus is declared with the secret offer and revealed with it;
    # it is played only if the offer is rejected (else it stays in hand), but it must be in hand now.
    if triple:
        _use_card(state, seat, "triple_bonus", field=f"{field}.triple", rule="TB-14")
    offers = {**build["offers"], seat: {"cards": cards, "trading": trading, "triple": triple}}
    return {**state, "build": {**build, "offers": offers}}


def offers_revealed(state: JSON) -> bool:
    """All other players have offered (an empty offer counts), so offers are shown to all."""
    build = state["build"]
    return build is not None and set(build["offers"]) >= set(state["seats"]) - {state["active"]}


def _resolve(state: JSON, payload: Mapping[str, JSON]) -> JSON:  # TB-13..TB-17, TB-19
    build = state["build"]
    if build is None:
        raise RuleError(gettext_noop("No build is under way."), field="type", rule="TB-12")
    missing = [seat for seat in state["seats"] if seat != state["active"] and seat not in build["offers"]]
    if missing:
        raise RuleError(
            gettext_noop("Every other player must offer first (an empty offer is fine)."),
            field=f"offers.{missing[0]}",
            rule="TB-12",
        )
    active = state["active"]
    offers = build["offers"]
    demand: dict[str, int] = state["discs"][build["disc"]]["demand"]
    accepted = _accepted(payload.get("accepted", []), offers)
    fulfilled = _flag(payload, "fulfilled", default=True)
    double_turn = _flag(payload, "double_turn")
    # Checked even when the build is not fulfilled (and then not used): the log keeps them as sent.
    own = _cards(state, payload.get("own", {}), "own", rule="TB-13")
    jokers = _count(payload.get("jokers", 0), "jokers", high=_in_deck(state, "joker"), rule="TB-22")
    points = {seat: dict(p) for seat, p in state["points"].items()}
    rejected = [seat for seat in offers if seat not in accepted or not fulfilled]
    for seat in rejected:  # TB-14, TB-15
        per_card = 1
        # Decision (TB-14): an accepted offer was invited, so its Triple bonus does not apply
        # when the build then fails (TB-15): 1 VP per card, and the card stays in hand.
        if offers[seat]["triple"] and seat not in accepted:
            state = _use_card(state, seat, "triple_bonus", field=f"offers.{seat}.triple", rule="TB-14")
            per_card = 3
        points[seat]["rejected"] += per_card * sum(offers[seat]["cards"].values())
    state = {**state, "points": points, "build": None}
    if not fulfilled:  # TB-15: nothing is built, the disc stays
        return _end_turn(state, double_turn=double_turn)

    accepted_cards: Counter[str] = Counter()
    for seat in accepted:
        accepted_cards.update(offers[seat]["cards"])
    for kind, count in accepted_cards.items():
        if count > demand.get(kind, 0):
            raise RuleError(
                gettext_noop("The accepted offers exceed the disc's number."), field="accepted", rule="TB-13"
            )
    for kind, count in own.items():
        if kind not in demand or accepted_cards[kind] + count > demand[kind]:
            raise RuleError(gettext_noop("Too many cards of this kind."), field=f"own.{kind}", rule="TB-13")
    needed = sum(demand.values()) - sum(accepted_cards.values()) - sum(own.values())
    if needed != 2 * jokers:
        raise RuleError(
            gettext_noop("The cards must reach the disc's number exactly ({missing} missing)."),
            field="own",
            rule="TB-13",
            params={"missing": needed - 2 * jokers},
        )
    for _ in range(jokers):
        state = _use_card(state, active, "joker", field="jokers", rule="TB-13")

    # The trading-card offerer takes the disc; the active player places parts for their cards.
    trader = next((seat for seat in accepted if offers[seat]["trading"]), None)
    placed = Counter({active: sum(own.values()) + 2 * jokers})  # Decision: a Joker earns 2 parts
    for seat in accepted:
        placed[active if seat == trader else seat] += sum(offers[seat]["cards"].values())
    state = _place_parts(state, build["wonder"], placed)
    discs = {**state["discs"], build["disc"]: {**state["discs"][build["disc"]], "owner": trader or active}}
    wonder = state["wonders"][build["wonder"]]
    remaining = [d for d in wonder["discs"] if d != build["disc"]]
    wonders = {**state["wonders"], build["wonder"]: {**wonder, "discs": remaining}}
    state = {**state, "discs": discs, "wonders": wonders}
    if not remaining:
        state = _score_wonder(state, build["wonder"])
    if _a_kind_ran_out(state):
        return {**state, "over": True, "active": None, "extra_turn": False}
    return _end_turn(state, double_turn=double_turn)


def _place_parts(state: JSON, wonder_name: str, placed: Counter[str]) -> JSON:
    """Add parts (by value) on a wonder; nobody can place more than their parts hold (the
    table's split, TB-5), less the one that marks their score."""
    supply = table_of(state).parts_in_play
    wonder = state["wonders"][wonder_name]
    parts = dict(wonder["parts"])
    for seat, value in placed.items():
        if value:
            parts[seat] = parts.get(seat, 0) + value
            in_use = sum(w["parts"].get(seat, 0) for name, w in state["wonders"].items() if name != wonder_name)
            if in_use + parts[seat] > supply:
                raise RuleError(
                    gettext_noop("Not enough building parts left: {supply} in all, one part marking the score."),
                    field="own",
                    rule="TB-5",
                    params={"supply": supply},
                )
    return {**state, "wonders": {**state["wonders"], wonder_name: {**wonder, "parts": parts}}}


def _score_wonder(state: JSON, wonder_name: str) -> JSON:  # TB-17
    table = table_of(state)
    wonder = state["wonders"][wonder_name]
    parts = {seat: wonder["parts"].get(seat, 0) for seat in state["seats"]}
    row = state["row"]
    scored = score_wonder(parts, table.row_values(row), table.present_points)
    points = {seat: {**p, "wonders": p["wonders"] + scored[seat]} for seat, p in state["points"].items()}
    record = {"row": row, "points": scored, "parts": parts}
    wonders = {**state["wonders"], wonder_name: {**wonder, "parts": {}, "scored": record}}
    cards = state["cards"]
    if state["action_cards"]:  # the active player draws one even if a trader took the disc
        active = state["active"]
        cards = {**cards, active: {**cards[active], "drawn": cards[active]["drawn"] + 1}}
    return {**state, "wonders": wonders, "points": points, "row": row + 1, "cards": cards}


def _a_kind_ran_out(state: JSON) -> bool:  # TB-19: a two-kind disc counts for both kinds
    on_board: Counter[str] = Counter()
    for wonder in state["wonders"].values():
        for disc_id in wonder["discs"]:
            on_board.update(state["discs"][disc_id]["demand"].keys())
    return any(on_board[kind] == 0 for kind in table_of(state).kinds)


def _end_turn(state: JSON, *, double_turn: bool) -> JSON:  # TB-16
    active = state["active"]
    if double_turn:
        if state["extra_turn"]:
            raise RuleError(gettext_noop("This is already the second turn."), field="double_turn", rule="TB-16")
        state = _use_card(state, active, "double_turn", field="double_turn", rule="TB-16")
        return {**state, "extra_turn": True, "turn": state["turn"] + 1}
    seats = state["seats"]
    following = seats[(seats.index(active) + 1) % len(seats)]
    return {**state, "active": following, "extra_turn": False, "turn": state["turn"] + 1}


def _assign(state: JSON, payload: Mapping[str, JSON]) -> JSON:  # TB-20 step 2, Decision
    if not state["over"]:
        raise RuleError(gettext_noop("Discs are assigned at the end of the game."), field="type", rule="TB-20")
    seat = _seat(state, payload.get("seat"), "seat")
    held = discs_held(state, seat)
    chosen = payload.get("assignment")
    if not isinstance(chosen, list) or len(chosen) != len(held):
        raise RuleError(gettext_noop("Give one kind per disc held."), field="assignment", rule="TB-20")
    for index, (kind, disc) in enumerate(zip(chosen, held, strict=True)):
        if kind not in disc:
            raise RuleError(
                gettext_noop("This disc does not show that kind."), field=f"assignment[{index}]", rule="TB-20"
            )
    return {**state, "assignments": {**state["assignments"], seat: list(chosen)}}


def _declare_cards(state: JSON, payload: Mapping[str, JSON]) -> JSON:  # TB-20 step 3
    if not state["over"]:
        raise RuleError(gettext_noop("Held cards are shown at the end of the game."), field="type", rule="TB-20")
    seat = _seat(state, payload.get("seat"), "seat")
    mine = state["cards"][seat]
    held = {name: _count(payload.get(name, 0), name, high=_in_deck(state, name), rule="TB-22") for name in HELD_CARDS}
    unplayed = mine["drawn"] - sum(mine["played"].values())
    if sum(held.values()) > unplayed:
        raise RuleError(
            gettext_noop("This player drew {count} action cards that are still in hand."),
            field=HELD_CARDS[0],
            rule="TB-20",
            params={"count": unplayed},
        )
    for name in HELD_CARDS:
        _check_deck_limit(state, seat, name, held[name], field=name)
    cards = {**state["cards"], seat: {**mine, "held": held}}
    return {**state, "cards": cards}


# --- small checks ---------------------------------------------------------------------


def _use_card(state: JSON, seat: str, name: str, *, field: str, rule: str) -> JSON:
    """Play one of the seat's drawn action cards as ``name``, if the rules allow it."""
    if not state["action_cards"]:
        raise RuleError(gettext_noop("This game is played without action cards."), field=field, rule="TB-10")
    mine = state["cards"][seat]
    if mine["drawn"] - sum(mine["played"].values()) < 1:
        raise RuleError(gettext_noop("This player has no action card in hand."), field=field, rule=rule)
    _check_deck_limit(state, seat, name, 1, field=field)
    played = {**mine["played"], name: mine["played"].get(name, 0) + 1}
    return {**state, "cards": {**state["cards"], seat: {**mine, "played": played}}}


def _check_deck_limit(state: JSON, seat: str, name: str, more: int, *, field: str) -> None:
    used = sum(
        c["played"].get(name, 0) + (c["held"].get(name, 0) if s != seat else 0) for s, c in state["cards"].items()
    )
    table_of(state).check_deck(name, used + more, field=field)


def _seat(state: JSON, raw: Any, field: str) -> str:
    if raw is None or str(raw) not in state["seats"]:
        raise RuleError(gettext_noop("Choose a player of this session."), field=field)
    return str(raw)


def _flag(payload: Mapping[str, JSON], name: str, *, default: bool = False) -> bool:
    value = payload.get(name, default)
    if not isinstance(value, bool):
        raise RuleError(gettext_noop("Choose yes or no."), field=name)
    return value


def _in_deck(state: JSON, card: str) -> int:
    """How many of an action card the deck holds (TB-22)."""
    return dict(table_of(state).action_cards)[card]


def _count(raw: Any, field: str, *, high: int, rule: str) -> int:
    """A count from 0 to ``high``: above it breaks ``rule``; not a count is plain malformed input."""
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= high:
        raise RuleError(
            gettext_noop("Enter a number from {low} to {high}."),
            field=field,
            rule=rule if isinstance(raw, int) and not isinstance(raw, bool) and raw > high else None,
            params={"low": 0, "high": high},
        )
    return raw


def _mapping(raw: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise RuleError(gettext_noop("Give one entry per player."), field=field)
    return raw


def _cards(state: JSON, raw: Any, field: str, *, rule: str) -> dict[str, int]:
    """Cards by kind, zero counts left out; no disc demands more of a kind than the table's
    range allows (TB-4)."""
    most = table_of(state).most_cards
    return {
        kind: count
        for kind, count in _mapping(raw, field).items()
        if _count(count, f"{field}.{kind}", high=most, rule=rule)
    }


def _accepted(raw: Any, offers: Mapping[str, JSON]) -> list[str]:  # TB-13
    if not isinstance(raw, list):
        raise RuleError(gettext_noop("List the accepted players."), field="accepted")
    accepted = [str(seat) for seat in raw]
    for index, seat in enumerate(accepted):
        if seat not in offers or not offers[seat]["cards"]:
            raise RuleError(
                gettext_noop("Only an offer with cards can be accepted."), field=f"accepted[{index}]", rule="TB-13"
            )
    if len(set(accepted)) != len(accepted):
        raise RuleError(gettext_noop("Each offer is accepted once."), field="accepted", rule="TB-13")
    if sum(1 for seat in accepted if offers[seat]["trading"]) > 1:
        raise RuleError(
            gettext_noop("At most one accepted offer may hold a trading card."), field="accepted", rule="TB-13"
        )
    return accepted
