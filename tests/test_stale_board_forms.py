"""Every form of every board, sent after another device moved the session on, answers the
409 page with what was typed kept in that form (never a 500), and changes nothing.

The forms are read from the host's page as a person sees it, in several phases of each
game, filled in the way a person would (a number in every box, every switch ticked, the
last choice of every list) and sent with the version they were shown at, after the table
has moved on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from django.test import Client

from scoring.babel_on import engine as bo
from scoring.seven_wonders import engine as sw
from scoring.tower_of_babel import engine as tob
from sessions import selectors, services
from sessions.models import GameSession
from tests.conftest import advance
from tests.test_tower_of_babel_pages import play_to_the_end

TYPED = "7"


@dataclass
class Form:
    id: str
    action: str
    data: dict[str, list[str]] = field(default_factory=dict)
    typed: list[str] = field(default_factory=list)  # the names of the boxes a person types into
    buttons: list[tuple[str, str]] = field(default_factory=list)  # its named submit buttons: each sends its value


class Forms(HTMLParser):
    """The POST forms of a page that say which form they are, filled in as a person would."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self.current: Form | None = None
        self.select: str | None = None

    def handle_starttag(self, tag: str, raw: list[tuple[str, str | None]]) -> None:
        attrs = {key: value or "" for key, value in raw}
        if tag == "form" and attrs.get("method") == "post" and attrs.get("id"):
            self.current = Form(id=attrs["id"], action=attrs["action"])
            return
        form, name = self.current, attrs.get("name", "")
        if form is None or not name:
            if tag == "option" and form is not None and self.select and attrs.get("value"):
                form.data[self.select] = [attrs["value"]]  # the last non-empty choice
            return
        kind = attrs.get("type", "text")
        if tag == "input" and kind == "hidden":
            form.data.setdefault(name, []).append(attrs.get("value", ""))
        elif tag == "input" and kind in ("text", "number", "tel"):
            form.data[name] = [TYPED]
            form.typed.append(name)
        elif tag == "input" and kind == "checkbox":
            form.data[name] = [attrs.get("value") or "on"]
        elif tag == "input" and kind == "radio":
            form.data.setdefault(name, [attrs.get("value", "")])
        elif tag == "textarea":
            form.data[name] = ["typed at the table"]
        elif tag == "select":
            self.select = name
        # A button is a submit button unless it says otherwise (babel's orientations say nothing).
        elif tag == "button" and attrs.get("type", "submit") == "submit" and name:
            form.buttons.append((name, attrs.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None
        elif tag == "form" and self.current is not None:
            if "form" in self.current.data:
                self.forms.append(self.current)
            self.current = None


def forms_on(html: str) -> list[Form]:
    parser = Forms()
    parser.feed(html)
    return parser.forms


def assert_sent_form_comes_back_as_typed(client: Client, form: Form, session: GameSession) -> None:
    """``form`` sent at the version before the current one answers 409, keeps what was typed
    in that form (marked as being filled in) and changes nothing."""
    session.refresh_from_db()
    before = (session.version, session.state)
    form.data["expected_version"] = [str(session.version - 1)]
    response = client.post(form.action, form.data)
    body = response.content.decode()
    assert response.status_code == 409, (form.id, response.status_code)
    assert "Someone else changed this session a moment ago" in body, form.id
    start = body.index(f' id="{form.id}"')
    kept = body[start : body.index("</form>", start)]
    assert 'data-dirty="true"' in kept[: kept.index(">")], form.id  # the page keeps it while others move
    for name in form.typed:
        assert re.search(f'name="{name}"[^>]*value="{TYPED}"', kept), (form.id, name)
    session.refresh_from_db()
    assert (session.version, session.state) == before, form.id


def assert_every_form_survives_a_stale_send(client: Client, session: GameSession, query: str = "") -> int:
    """Every board form of the page, sent with each of its buttons (babel's picker is one form
    whose buttons are the orientations): how many sends."""
    page = client.get(f"/s/{session.pk}/{query}")
    forms = [f for f in forms_on(page.content.decode()) if f"/s/{session.pk}/play/" in f.action]
    assert forms, "no board form on this page"
    sends = 0
    for form in forms:
        for name, value in form.buttons or [("", "")]:
            pressed = {**form.data, name: [value]} if name else dict(form.data)
            assert_sent_form_comes_back_as_typed(client, Form(form.id, form.action, pressed, form.typed), session)
            sends += 1
    return sends


def start(night: Any, players: Any, game: str, count: int, **options: Any) -> GameSession:
    session = services.create_session(night=night, game=game, players=players[:count], options=options, secret="5")
    advance(session, "session.start")
    return session


def test_every_tower_of_babel_form_survives_a_stale_send(member_client, night, players):
    session = start(night, players, "tower-of-babel", 3)
    seats = [seat.key for seat in session.seats.all()]
    count = assert_every_form_survives_a_stale_send(member_client, session)  # who starts
    advance(session, tob.FIRST_PLAYER, seat=seats[0])
    count += assert_every_form_survives_a_stale_send(member_client, session)  # pass
    disc = next(iter(session.state["game"]["discs"]))
    count += assert_every_form_survives_a_stale_send(member_client, session, f"?disc={disc}")  # build
    wonder = session.state["game"]["discs"][disc]["wonder"]
    advance(session, tob.CHOOSE, wonder=wonder, disc=disc)
    count += assert_every_form_survives_a_stale_send(member_client, session)  # an offer without a phone
    for seat in seats[1:]:
        advance(session, tob.OFFER, seat=seat, cards={}, trading=False, triple=False)
    count += assert_every_form_survives_a_stale_send(member_client, session)  # accept and complete
    assert count >= 5


def test_the_final_scoring_forms_of_tower_of_babel_survive_a_stale_send(member_client, night, players):
    session = start(night, players, "tower-of-babel", 3, two_kind_discs=True)
    play_to_the_end(session)
    assert assert_every_form_survives_a_stale_send(member_client, session) >= 3


def test_every_seven_wonders_form_survives_a_stale_send(member_client, night, players):
    session = start(night, players, "seven-wonders", 3, tower_tiles=True, great_projects=True)
    count = assert_every_form_survives_a_stale_send(member_client, session)  # draft record, sheets, project
    for seat, hand in session.state["game"]["hands"].items():
        advance(session, sw.DRAFT_PICK, seat=seat, tile=hand[0])
    count += assert_every_form_survives_a_stale_send(member_client, session)
    assert count >= 5


def test_every_babel_on_form_survives_a_stale_send(member_client, night, players):
    session = services.create_session(night=night, game="babel-on", players=players[:2], secret="b")
    advance(session, "session.start")
    a, b = [seat.key for seat in session.seats.all()]
    count = assert_every_form_survives_a_stale_send(member_client, session)  # set-up
    advance(session, bo.SETUP, colours={a: "blue", b: "red"}, extra="green")
    count += assert_every_form_survives_a_stale_send(member_client, session)  # roll-off
    advance(session, bo.ROLLOFF, rolls={a: 5, b: 2})
    count += assert_every_form_survives_a_stale_send(member_client, session)  # roll, bonus, knock, adjust
    advance(session, bo.ROLL, call="even", roll=2)
    count += assert_every_form_survives_a_stale_send(member_client, session)  # draw
    advance(
        session,
        bo.DRAW,
        blocks=[{"colour": "blue", "floor": 1, "cell": "nw"}, {"colour": "blue", "floor": 1, "cell": "ne"}],
    )
    advance(session, bo.ROLL, call="odd", roll=1)
    count += assert_every_form_survives_a_stale_send(member_client, session)  # move
    assert count >= 9


def test_every_babel_cubes_form_survives_a_stale_send(member_client, night, players):
    session = start(night, players, "babel-cubes", 2)
    assert assert_every_form_survives_a_stale_send(member_client, session) >= 10
    assert selectors.replayed_state(session) == GameSession.objects.get(pk=session.pk).state


def test_two_forms_of_one_rendering_are_never_taken_for_each_others_repeat(member_client, night, players):
    session = start(night, players, "seven-wonders", 3, tower_tiles=False, great_projects=False)
    seats = [seat.key for seat in session.seats.all()]
    forms = {f.id: f for f in forms_on(member_client.get(f"/s/{session.pk}/").content.decode())}
    first, second = forms[f"sheet-{seats[0]}"], forms[f"sheet-{seats[1]}"]
    assert first.data["idempotency_key"] != second.data["idempotency_key"]
    assert member_client.post(first.action, first.data).status_code == 302
    # The second sheet was filled in on the same page: it is stale now, never a silent repeat.
    response = member_client.post(second.action, second.data)
    assert response.status_code == 409
    session.refresh_from_db()
    assert list(session.state["game"]["sheets"]) == [seats[0]]
