"""The Tower of Babel table: the board picture and the turn forms."""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from scoring.errors import RuleError, gettext_noop
from scoring.tower_of_babel import engine as tob
from scoring.tower_of_babel.discs import HELD_CARDS
from scoring.tower_of_babel.table import raw_data
from sessions.boards.turns import check_turn_form
from sessions.data_texts import WONDER_NAMES as WONDER_NAME_TEXTS
from sessions.data_texts import data_text_lazy
from sessions.models import GameSession
from sessions.numbers import whole

BOARD_TEMPLATE = "boards/tower_of_babel/_board.html"
CONTROLS_TEMPLATE = "boards/tower_of_babel/_controls.html"
# What a player does on their own phone: an offer, in secret until all are in (TB-12).
PHONE_TEMPLATE = "boards/tower_of_babel/_phone.html"
# On their turn a player chooses a disc (the others then offer in secret) or passes, and
# accepts the offers and completes the build, all on their own phone; the others offer there.
# Once the game is over, each player assigns their two-kind discs and says which action cards
# they hold (TB-20) on their own phone.
PHONE_EVENTS = {
    "choose": tob.CHOOSE,
    "pass": tob.PASS,
    "offer": tob.OFFER,
    "resolve": tob.RESOLVE,
    "assign": tob.ASSIGN,
    "cards": tob.DECLARE_CARDS,
}
# The rule that gives each of the active player's moves to the active player alone.
TURN_RULES = {tob.PASS: "TB-11", tob.CHOOSE: "TB-12", tob.RESOLVE: "TB-13"}

KIND_NAMES = {kind: data_text_lazy(kind) for kind in raw_data()["kinds"]["value"]}
WONDER_NAMES = {key: data_text_lazy(WONDER_NAME_TEXTS[key]) for key in raw_data()["wonders"]["value"]}
SOURCE_NAMES = {
    "wonders": _("wonders"),
    "rejected": _("rejected offers"),
    "final_wonders": _("unfinished wonders"),
    "discs": _("disc sets"),
    "action_cards": _("action cards"),
}
# An offer's cards are typed per seat on the host's build form, alone on an offer form.
ERROR_INPUTS = [
    (r"offers\.(\w+)\.cards\.(\w+)", r"offer_\1_\2 offer_\2"),
    (r"offers\.(\w+)\.(trading|triple)", r"\2_\1 \2"),
    (r"own\.(\w+)", r"own_\1"),
    (r"assignment\[(\d+)\]", r"assign_\1"),
]
EVENTS = {
    "first": tob.FIRST_PLAYER,
    "pass": tob.PASS,
    "build": tob.BUILD,
    "choose": tob.CHOOSE,
    "offer": tob.OFFER,
    "resolve": tob.RESOLVE,
    "assign": tob.ASSIGN,
    "cards": tob.DECLARE_CARDS,
}


def _names(session: GameSession) -> dict[str, str]:
    return {seat.key: seat.player.name for seat in session.seats.all()}


def _colours(session: GameSession) -> dict[str, str]:
    return {seat.key: seat.colour for seat in session.seats.all()}


def _disc_label(demand: dict[str, int]) -> list[dict[str, Any]]:
    return [{"kind": kind, "name": KIND_NAMES[kind], "number": number} for kind, number in sorted(demand.items())]


def _discs_on(state: dict[str, Any], wonder: dict[str, Any]) -> list[dict[str, Any]]:
    """The discs still on a wonder, each with its id and what it demands (``shown``: the
    demand in plain values, which the drawing is kept rendered under)."""
    demands = [(d, state["discs"][d]["demand"]) for d in wonder["discs"]]
    return [{"id": d, "demand": _disc_label(demand), "shown": repr(sorted(demand.items()))} for d, demand in demands]


def board_context(session: GameSession) -> dict[str, Any]:
    state = session.state["game"]
    names, colours = _names(session), _colours(session)
    wonders = []
    for key, wonder in state["wonders"].items():
        parts = [{"name": names[s], "colour": colours[s], "value": v} for s, v in wonder["parts"].items() if v]
        scored = wonder["scored"] and [
            {"name": names[s], "points": p, "colour": colours[s]} for s, p in wonder["scored"]["points"].items() if p
        ]
        scored_row = wonder["scored"] and wonder["scored"]["row"]
        discs = _discs_on(state, wonder)
        wonders.append(
            {
                "key": key,
                # What the wonder's drawing shows, in plain values: the templates keep its render
                # under it, since most wonders do not change in a move (see "fragments" in settings).
                "shown": repr((key, [(d["id"], d["shown"]) for d in discs], parts, scored, scored_row)),
                "name": WONDER_NAMES[key],
                "discs": discs,
                "parts": parts,
                "scored": scored,
                "scored_row": scored_row,
            }
        )
    totals = tob.final_points(state) if state["over"] else state["points"]
    pending = None
    if state["build"] is not None:
        build = state["build"]
        revealed = tob.offers_revealed(state)
        pending = {
            "wonder_name": WONDER_NAMES[build["wonder"]],
            "demand": _disc_label(state["discs"][build["disc"]]["demand"]),
            "revealed": revealed,
            "players": [
                {
                    "name": names[seat],
                    "offered": seat in build["offers"],
                    "offer": _offer_label(build["offers"][seat]) if revealed and seat in build["offers"] else None,
                }
                for seat in state["seats"]
                if seat != state["active"]
            ],
        }
    players = [
        {
            "key": seat,
            "name": names[seat],
            "colour": colours[seat],
            "active": seat == state["active"],
            "total": sum(totals[seat].values()),
            "sources": [(SOURCE_NAMES[source], points) for source, points in totals[seat].items() if points],
            "discs": [_disc_label(d["demand"]) for d in state["discs"].values() if d["owner"] == seat],
            "cards": state["cards"][seat],
        }
        for seat in state["seats"]
    ]
    rows = state["table"]["rows"]
    return {
        "tob": state,
        "tob_wonders": wonders,
        "tob_players": players,
        "tob_row": state["row"],
        "tob_row_values": rows[state["row"] - 1] if state["row"] <= len(rows) else None,
        "tob_active_name": names.get(state["active"] or "", ""),
        "tob_pending": pending,
    }


def _offer_label(offer: dict[str, Any]) -> dict[str, Any]:
    cards = [{"name": KIND_NAMES[kind], "kind": kind, "number": n} for kind, n in sorted(offer["cards"].items())]
    return {"cards": cards, "trading": offer["trading"], "triple": offer["triple"]}


def _offers(build: dict[str, Any], names: dict[str, str], *, revealed: bool) -> list[tuple[str, str, Any]]:
    """(seat, name, offer) for each offer made; the offer only once all are revealed."""
    return [(seat, names[seat], _offer_label(offer) if revealed else None) for seat, offer in build["offers"].items()]


def phone_context(session: GameSession, seat: str | None) -> dict[str, Any]:
    """What a phone that claimed ``seat`` may do now. On its turn, before a build: choose a
    disc (the others then offer in secret) or pass; the other phones wait. During a build:
    offer in secret, or see its offer; for the active player, once every offer is in,
    accept some and complete the build. Once the game is over: its own final-scoring
    choices (TB-20), prefilled like the host's."""
    state = session.state["game"]
    build = state["build"]
    context: dict[str, Any] = dict.fromkeys(
        ["my_turn", "my_waiting", "my_offer_form", "my_offer", "my_resolve", "my_final"]
    )
    if seat is not None and state["over"]:
        final = _final_choices(state, seat, _names(session).get(seat, ""))
        if final["can_choose"] or state["action_cards"]:
            context["my_final"] = final
        return context
    if seat is None or state["active"] is None or state["over"]:
        return context
    if build is None:
        if seat != state["active"]:
            context["my_waiting"] = _names(session).get(state["active"], "")
            return context
        context["my_turn"] = {
            "wonders": [
                {"key": key, "name": WONDER_NAMES[key], "discs": _discs_on(state, wonder)}
                for key, wonder in state["wonders"].items()
                if wonder["discs"]
            ],
            "double_turn": state["action_cards"],
        }
        return context
    demand = state["discs"][build["disc"]]["demand"]
    if seat == state["active"]:
        if tob.offers_revealed(state):
            names = _names(session)
            context["my_resolve"] = {
                "demand": _disc_label(demand),
                "offers": _offers(build, names, revealed=True),
            }
    elif seat in build["offers"]:
        context["my_offer"] = _offer_label(build["offers"][seat])
    else:
        triple = state["action_cards"]
        context["my_offer_form"] = {
            "disc": build["disc"],
            "demand": _disc_label(demand),
            "triple": triple,
        }
    return context


def public_state(state: dict[str, Any]) -> dict[str, Any]:
    """The session state as anyone may see it: offers stay secret until all are in."""
    game = state.get("game")
    if not game or game.get("build") is None or tob.offers_revealed(game):
        return state
    hidden = {seat: {"offered": True} for seat in game["build"]["offers"]}
    return {**state, "game": {**game, "build": {**game["build"], "offers": hidden}}}


def public_payloads(state: dict[str, Any], events: list[tuple[int, str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """Event payloads as anyone may see them.

    While the offers of the build under way are secret, the offers made since it was chosen
    show only who made them.
    """
    game = state.get("game")
    if not game or game.get("build") is None or tob.offers_revealed(game):
        return [payload for _seq, _type, payload in events]
    chosen = max((seq for seq, event_type, _payload in events if event_type == tob.CHOOSE), default=0)
    return [
        {"seat": payload.get("seat")} if event_type == tob.OFFER and seq > chosen else payload
        for seq, event_type, payload in events
    ]


def controls_context(session: GameSession, query: QueryDict) -> dict[str, Any]:
    state = session.state["game"]
    names = _names(session)
    context: dict[str, Any] = {
        "tob_seats": [(seat, names[seat]) for seat in state["seats"]],
        "tob_suggested": state["suggested_first"],
        "tob_build": None,
    }
    build = state["build"]
    if build is not None:
        revealed = tob.offers_revealed(state)
        context["tob_under_way"] = {
            "disc": build["disc"],
            "demand": _disc_label(state["discs"][build["disc"]]["demand"]),
            "revealed": revealed,
            "offers": _offers(build, names, revealed=revealed),
            "waiting": [(s, names[s]) for s in state["seats"] if s != state["active"] and s not in build["offers"]],
        }
        return context
    disc = query.get("disc")
    if disc in state["discs"] and state["discs"][disc]["owner"] is None and state["active"] and not state["over"]:
        demand = state["discs"][disc]["demand"]
        context["tob_build"] = {
            "disc": disc,
            "wonder": state["discs"][disc]["wonder"],
            "wonder_name": WONDER_NAMES[state["discs"][disc]["wonder"]],
            "demand": _disc_label(demand),
            "others": [(seat, names[seat]) for seat in state["seats"] if seat != state["active"]],
        }
    if state["over"]:
        context["tob_final"] = [_final_choices(state, seat, names[seat]) for seat in state["seats"]]
    return context


def _final_choices(state: dict[str, Any], seat: str, name: str) -> dict[str, Any]:
    """One player's final-scoring choices (TB-20), prefilled: each held disc with the kind it
    counts as (the player's assignment, else the best one), and the held action cards."""
    held = tob.discs_held(state, seat)
    chosen = state["assignments"].get(seat) or tob.best_assignment(state, seat)
    return {
        "seat": seat,
        "name": name,
        "discs": [
            {"index": i, "kinds": [(k, KIND_NAMES[k]) for k in disc], "chosen": kind}
            for i, (disc, kind) in enumerate(zip(held, chosen, strict=True))
        ],
        "held": state["cards"][seat]["held"],
        "can_choose": any(len(disc) > 1 for disc in held),
    }


def payload(event_type: str, data: QueryDict, session: GameSession) -> dict[str, Any]:
    """The engine payload for a posted control form (the engine checks the rules)."""
    state = session.state["game"]
    if event_type == tob.FIRST_PLAYER:
        return {"seat": data.get("seat")}
    if event_type == tob.PASS:
        return {"double_turn": "double_turn" in data}
    if event_type == tob.CHOOSE:
        # A phone's disc buttons share one form and carry the disc alone: its wonder is the one
        # it lies on (the engine still checks that it does).
        disc = data.get("disc")
        lying_on = next((key for key, wonder in state["wonders"].items() if disc in wonder["discs"]), None)
        return {"wonder": data.get("wonder") or lying_on, "disc": disc}
    if event_type == tob.OFFER:
        return phone_payload(event_type, data, seat=data.get("seat", ""), session=session)
    if event_type == tob.RESOLVE:
        build = state["build"] or {"offers": {}, "disc": ""}
        demand = state["discs"].get(build["disc"], {}).get("demand", {})
        return {
            "accepted": [seat for seat in build["offers"] if f"accept_{seat}" in data],
            "own": {kind: _int(data.get(f"own_{kind}")) for kind in demand},
            "jokers": _int(data.get("jokers")),
            "fulfilled": "not_fulfilled" not in data,
            "double_turn": "double_turn" in data,
        }
    if event_type == tob.BUILD:
        disc = data.get("disc", "")
        demand = state["discs"].get(disc, {}).get("demand", {})
        offers = {}
        for seat in state["seats"]:
            if seat == state["active"]:
                continue
            offers[seat] = {
                "cards": {kind: _int(data.get(f"offer_{seat}_{kind}")) for kind in demand},
                "trading": f"trading_{seat}" in data,
                "triple": f"triple_{seat}" in data,
            }
        return {
            "wonder": data.get("wonder"),
            "disc": disc,
            "offers": offers,
            "accepted": [seat for seat in offers if f"accept_{seat}" in data],
            "own": {kind: _int(data.get(f"own_{kind}")) for kind in demand},
            "jokers": _int(data.get("jokers")),
            "fulfilled": "not_fulfilled" not in data,
            "double_turn": "double_turn" in data,
        }
    return _final_payload(event_type, data, seat=data.get("seat", ""), state=state)


def _final_payload(event_type: str, data: QueryDict, *, seat: str, state: dict[str, Any]) -> dict[str, Any]:
    """One player's final-scoring choice (TB-20) for ``seat``: the kind each held disc counts
    as (``assign_<index>``), or the held action cards (a count per card)."""
    if event_type == tob.ASSIGN:
        return {"seat": seat, "assignment": [data.get(f"assign_{i}") for i in range(len(tob.discs_held(state, seat)))]}
    if event_type == tob.DECLARE_CARDS:
        return {name: _int(data.get(name)) for name in HELD_CARDS} | {"seat": seat}
    return {}


def phone_payload(event_type: str, data: QueryDict, *, seat: str, session: GameSession) -> dict[str, Any]:
    """A phone's move: the active player's choice of a disc, pass, or acceptance and
    completion (refused from another seat, naming the rule, or from a form shown before the
    table moved on), one player's offer, from a form with ``offer_<kind>`` counts and
    two switches, or, once the game is over, the phone's own final-scoring choice (always
    for ``seat``, whatever seat the form names). A turn's move before the first player is
    chosen or once the game is over: the engine says why nobody plays."""
    state = session.state["game"]
    if event_type in (tob.ASSIGN, tob.DECLARE_CARDS):
        return _final_payload(event_type, data, seat=seat, state=state)
    if event_type in TURN_RULES:
        active = state["active"]
        if active is not None:
            name = _names(session).get(active, "")
            check_turn_form(data, session, seat=seat, active=active, active_name=name, rule=TURN_RULES[event_type])
        return payload(event_type, data, session)
    build = state["build"]
    if build is None or data.get("disc") != build["disc"]:
        raise RuleError(gettext_noop("That build is over: look at the board again."), field="disc", rule="TB-12")
    demand = state["discs"][build["disc"]]["demand"]
    return {
        "seat": seat,
        "cards": {kind: _int(data.get(f"offer_{kind}")) for kind in demand},
        "trading": "trading" in data,
        "triple": "triple" in data,
    }


def _int(raw: str | None) -> int | str:
    """A typed count; what is not a number goes to the engine as it is, to be refused there."""
    if raw is None or raw.strip() == "":
        return 0
    number = whole(raw)
    return raw if number is None else number
