"""A dropped connection never stops the game (issue 18), in each of the four games: the host's
page and two phones at the table (Ada's and Bruno's) play; Bruno's phone loses its network,
makes a move meanwhile, and the others play on. When it comes back, the move that the others'
moves made invalid is refused on Bruno's phone, listed with its values and the server's
reason, and the phone shows the table as it is: nothing is applied over what the table did.
The event log holds every move once, Bruno's refused one not at all. A move still valid is
taken once when the phone comes back, and a double tap made offline is one move.

In every game a move of Bruno's phone can be made invalid by the others' moves, so the phone
is the device that goes offline in all four; the host's page goes offline in the double tap,
so that its queue (moves that name the version they were made on) is covered too.

The device that goes offline has its network cut as a whole (``Connection``), its push socket
included, once it has opened the table online, so that its service worker serves it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from playwright.sync_api import BrowserContext, Page, WebSocketRoute, expect

from scoring.babel_on import engine as bo
from scoring.tower_of_babel import engine as tob
from sessions import services
from sessions.boards.tower_of_babel import KIND_NAMES
from sessions.models import GameSession
from tests.browser.conftest import a_table, log_in, phone_of, send
from tests.conftest import advance

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "offline-pass-123"
CLOCK = r"\d{1,2}:\d{2}(\s?[AP]M)?"  # a time of day as the page's language, "en", writes it
OFFLINE = re.compile(rf"Offline: the table is as of {CLOCK}\.")
MADE_AT = rf", made at {CLOCK}"
REGION = "[data-version][hx-get]"  # the page's live region: #session on the host's, #guest on a phone


class Connection:
    """A device's network, cut and restored as a whole.

    Chromium's offline emulation (``set_offline``) refuses new requests but keeps an open
    WebSocket open, so the device would still be pushed the table's news; a real drop
    closes the push socket too, as the network does (code 1006, after which htmx's ws
    extension reconnects by itself), and no new one opens until the network is back.
    """

    def __init__(self, context: BrowserContext) -> None:
        self.context = context
        self.up = True
        self.sockets: list[tuple[WebSocketRoute, WebSocketRoute]] = []
        context.route_web_socket("**/ws/**", self._connect)

    def _connect(self, socket: WebSocketRoute) -> None:
        if not self.up:
            socket.close(code=1006)
            return
        self.sockets.append((socket, socket.connect_to_server()))

    def cut(self, page: Page) -> None:
        """Cut the network of the device showing ``page``, once its service worker serves it."""
        served_by_its_worker(page)
        # htmx's reconnection backs off exponentially with each failed attempt (up to a
        # minute); the device would find its push socket again only long after it is back.
        page.evaluate("() => { htmx.config.wsReconnectDelay = () => 200; }")
        self.up = False
        self.context.set_offline(True)
        for socket, server in self.sockets:
            server.close()
            socket.close(code=1006)
        self.sockets.clear()
        expect(page.get_by_test_id("offline-panel")).to_contain_text(OFFLINE)

    def restore(self) -> None:
        self.up = True
        self.context.set_offline(False)


def served_by_its_worker(page: Page) -> None:
    """The page is served by the service worker, reloaded once if need be: the worker takes
    the pages already open when it starts, but not one whose load was under way then (the
    page the phone's "This is me" or the login leads to, often)."""
    page.evaluate("() => navigator.serviceWorker.ready.then(() => null)")
    if not page.evaluate("() => navigator.serviceWorker.controller !== null"):
        page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def caught_up(page: Page) -> None:
    """The device is back: every waiting move is sent and its push socket is open again."""
    expect(page.get_by_test_id("offline-waiting").locator("li")).to_have_count(0)
    expect(page.locator(REGION)).to_have_attribute("data-pushed", "")
    # Offline, the page fell back to the every-second poll (its socket was closed): expected.
    # From now on it must be kept current by push alone, which the new_context fixture checks.
    page.evaluate("window.tablePolls = 0")


def says_waiting(page: Page, move: str) -> None:
    """The page says it is offline, as of when, and lists ``move`` (a pattern) as waiting."""
    expect(page.get_by_test_id("offline-panel")).to_contain_text(OFFLINE)
    expect(page.get_by_test_id("offline-waiting").locator("li")).to_have_count(1)
    expect(page.get_by_test_id("offline-waiting").locator("li")).to_have_text(re.compile(move))


def says_refused(page: Page, move: str, values: str, reason: str) -> None:
    """The page lists ``move`` (a pattern) as not taken, with its ``values`` and the server's
    ``reason``; its region shows the server's answer too."""
    expect(page.get_by_test_id("offline-waiting").locator("li")).to_have_count(0)
    item = page.get_by_test_id("offline-refused").locator("li")
    expect(item).to_have_count(1)
    expect(item.locator("[data-what]")).to_have_text(re.compile(move))
    expect(item.locator("[data-values]")).to_have_text(values)
    expect(item.get_by_role("alert")).to_have_text(reason)
    expect(item.get_by_role("button", name="Drop it")).to_be_visible()
    expect(page.locator(REGION).get_by_role("alert")).to_contain_text(reason)


def last_seq(session: GameSession) -> int:
    return session.events.order_by("-seq").values_list("seq", flat=True).first() or 0


def moves_after(session: GameSession, seq: int) -> list[tuple[str, str]]:
    """The moves in the event log after ``seq``, in order, each by whom: the host's account
    or the name of the player whose phone sent it."""
    events = session.events.filter(seq__gt=seq).select_related("author").order_by("seq")
    return [(event.type, event.author.username if event.author else event.author_label) for event in events]


@dataclass
class Table:
    """The host's page (Ada's account) and Ada's and Bruno's phones, in three contexts; Bruno's
    network can be cut."""

    host: Page
    ada: Page
    bruno: Page
    bruno_network: Connection


def at_the_table(new_context: Callable[[], BrowserContext], session: GameSession) -> Table:
    """Bruno's phone joins first, then Ada's, then the host opens the table: each device once
    the one before has settled (``settled``)."""
    code = services.create_join_code(session=session).code
    bruno_context = new_context()
    bruno_network = Connection(bruno_context)
    bruno = phone_of(bruno_context, code, "Bruno")
    settled(bruno)
    ada = phone_of(new_context(), code, "Ada")
    settled(ada)
    host = new_context().new_page()
    log_in(host, "ada", PASSWORD)
    host.goto(f"/s/{session.pk}/")
    return Table(host, ada, bruno, bruno_network)


def settled(page: Page) -> None:
    """The page is pushed, has fetched its region, and its service worker has kept what it
    keeps at install (the offline page too, which reads the device's session). The test
    database, SQLite in memory, refuses a write to a table while another connection reads it
    ("database table is locked"): a phone that joins while the devices already at the table
    fetch the news of it can be answered 400. So phones join before the host's page opens,
    one at a time, each once the one before is quiet."""
    expect(page.locator(REGION)).to_have_attribute("data-pushed", "")
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    page.evaluate("() => navigator.serviceWorker.ready.then(() => null)")


def ada_to_play(session: GameSession) -> tuple[str, str, int]:
    """Ada to play a Tower of Babel session; a single-kind disc of its board: its id, its kind
    and its number."""
    advance(session, tob.FIRST_PLAYER, seat=session.seats.all()[0].key)
    discs = GameSession.objects.get(pk=session.pk).state["game"]["discs"]
    disc = next(d for d, v in discs.items() if len(v["demand"]) == 1)
    kind, number = next(iter(discs[disc]["demand"].items()))
    return disc, kind, number


def an_offer_waiting_on_bruno_offline(table: Table, session: GameSession, disc: str, kind: str) -> tuple[int, str]:
    """Ada taps a disc on her phone; Bruno's phone gets the offer form, loses the network and
    offers one card, which waits on it. The log's last event then, and the card as listed."""
    table.ada.get_by_test_id("my-turn").locator(f'button[data-disc="{disc}"]').click()
    expect(table.bruno.get_by_test_id("my-offer-form")).to_be_visible()
    before = last_seq(session)
    table.bruno_network.cut(table.bruno)
    card = f"{KIND_NAMES[kind]}: 1"
    table.bruno.locator(f'input[name="offer_{kind}"]').fill("1")
    table.bruno.get_by_role("button", name="Offer in secret").click()
    says_waiting(table.bruno, rf"^Offer in secret{MADE_AT} \({re.escape(card)}\)$")
    return before, card


def host_records_an_empty_offer(host: Page, name: str) -> None:
    """The host opens the form for a player without a phone and records ``name``'s offer of
    nothing, said across the table."""
    host.get_by_text("Enter an offer for a player without a phone").click()
    host.locator('#tob-offer select[name="seat"]').select_option(label=name)
    send(host, host.get_by_role("button", name="Record this offer"))
    expect(host.get_by_test_id("tob-pending")).to_contain_text(f"{name}: has offered")


def test_an_offer_made_offline_for_a_build_the_table_completed_meanwhile_is_refused_on_the_phone(
    new_context: Callable[[], BrowserContext],
) -> None:
    session = a_table("tower-of-babel", password=PASSWORD)
    disc, kind, number = ada_to_play(session)
    table = at_the_table(new_context, session)
    host, ada, bruno = table.host, table.ada, table.bruno
    before, card = an_offer_waiting_on_bruno_offline(table, session, disc, kind)

    # Bruno says "nothing" across the table: the host records it for him, and Chiara's; Ada
    # completes the build on her phone.
    host_records_an_empty_offer(host, "Bruno")
    send(host, host.get_by_role("button", name="Record this offer"))
    resolve = ada.get_by_test_id("my-resolve")
    resolve.locator(f'input[name="own_{kind}"]').fill(str(number))
    send(ada, resolve.get_by_role("button", name="Record the build"))
    expect(host.get_by_test_id("tob-board")).to_contain_text("Bruno to play")

    # Back online: the offer for a build that is over is refused on Bruno's phone, which
    # shows the table as it is: his turn.
    table.bruno_network.restore()
    says_refused(
        bruno, rf"^Offer in secret{MADE_AT}$", card, "That build is over: look at the board again. (rule TB-12)"
    )
    expect(bruno.get_by_test_id("my-turn")).to_contain_text("Your turn")
    expect(bruno.get_by_test_id("tob-board")).to_contain_text("Bruno to play")
    caught_up(bruno)

    session.refresh_from_db()
    assert moves_after(session, before) == [(tob.OFFER, "ada"), (tob.OFFER, "ada"), (tob.RESOLVE, "Ada")]
    bruno_seat = session.seats.get(player__name="Bruno").key
    offers = [e.payload for e in session.events.filter(type=tob.OFFER)]
    assert [o["cards"] for o in offers if o["seat"] == bruno_seat] == [{kind: 0}]  # the table's, not the phone's


def test_a_roll_made_offline_is_refused_once_the_host_rolled_for_that_turn_and_play_came_round(
    new_context: Callable[[], BrowserContext],
) -> None:
    session = a_table("babel-on", password=PASSWORD, names=("Ada", "Bruno"))
    ada_seat, bruno_seat = (seat.key for seat in session.seats.all())
    advance(session, bo.SETUP, colours={ada_seat: "blue", bruno_seat: "red"}, extra="green")
    advance(session, bo.ROLLOFF, rolls={ada_seat: 5, bruno_seat: 2})
    table = at_the_table(new_context, session)
    host, ada, bruno = table.host, table.ada, table.bruno

    def roll_on(page: Page, call: str, roll: int, colour: str) -> None:
        turn = page.locator("#turn") if page is host else page.get_by_test_id("bo-my-turn")
        turn.get_by_label(call, exact=True).check()
        turn.locator('input[name="roll"]').fill(str(roll))
        send(page, turn.get_by_role("button", name="Record this roll"))
        for row in range(roll):
            turn.locator(f'input[name="colour_{row}"][value="{colour}"]').check()
        send(page, turn.get_by_role("button", name="Place the blocks"))

    # Ada's turn on her phone: even, 2, two blue blocks. Bruno's phone offers his turn.
    roll_on(ada, "even", 2, "blue")
    expect(bruno.get_by_test_id("bo-my-turn")).to_be_visible()
    before = last_seq(session)
    table.bruno_network.cut(bruno)

    # Offline, Bruno calls odd and types the 3 he rolled.
    mine = bruno.get_by_test_id("bo-my-turn")
    mine.get_by_label("odd", exact=True).check()
    mine.locator('input[name="roll"]').fill("3")
    mine.get_by_role("button", name="Record this roll").click()
    says_waiting(bruno, rf"^Record this roll{MADE_AT} \(odd, or the real die showed: 3\)$")

    # His phone seems dead: the host records his turn as the table saw it (even, 2, two red
    # blocks), then Ada plays her next turn on her phone. It is Bruno's turn again.
    roll_on(host, "even", 2, "red")
    expect(ada.get_by_test_id("bo-my-turn")).to_be_visible()
    roll_on(ada, "even", 2, "green")
    expect(host.get_by_test_id("bo-status")).to_contain_text("Bruno to play")

    # Back online: the roll Bruno made for the turn the host recorded must not become the roll
    # of his new turn; it is refused, and his phone offers the new turn's roll.
    table.bruno_network.restore()
    expect(bruno.get_by_test_id("offline-waiting").locator("li")).to_have_count(0)
    session.refresh_from_db()
    assert moves_after(session, before) == [
        (bo.ROLL, "ada"),
        (bo.DRAW, "ada"),
        (bo.ROLL, "Ada"),
        (bo.DRAW, "Ada"),
    ], "the roll Bruno's phone made offline for the turn the host recorded was applied as his next turn's roll"
    says_refused(
        bruno,
        rf"^Record this roll{MADE_AT}$",
        "odd, or the real die showed: 3",
        "Someone else changed this session a moment ago. Here is the latest state: check it and send again.",
    )
    expect(bruno.get_by_test_id("bo-my-turn")).to_contain_text("Bruno: call, then roll")
    for colour in ("blue", "green"):
        expect(bruno.get_by_test_id(f"bo-tower-{ada_seat}").locator(f".bo-cell.colour-{colour}")).to_have_count(2)
    caught_up(bruno)


# The holders in the order the database keeps them (PostgreSQL's JSON sorts its keys).
BOTH_HOLD_THE_LAST = re.compile(r"0 markers left · (Chiara 1 · Ada 1|Ada 1 · Chiara 1)")


def test_a_marker_taken_offline_is_refused_when_the_others_took_the_last_ones_meanwhile(
    new_context: Callable[[], BrowserContext],
) -> None:
    session = a_table("seven-wonders", password=PASSWORD, options={"tower_tiles": False, "great_projects": True})
    table = at_the_table(new_context, session)
    host, ada, bruno = table.host, table.ada, table.bruno

    # The age's Great Project has two markers for three players; the host records that
    # Chiara (no phone) takes one.
    send(host, host.get_by_role("button", name="Chiara takes a marker"))
    expect(bruno.get_by_test_id("sw-project")).to_contain_text("1 marker left · Chiara 1")
    before = last_seq(session)
    table.bruno_network.cut(bruno)

    # Offline, Bruno takes the last one on his phone; meanwhile Ada takes it on hers.
    bruno.get_by_test_id("my-markers").get_by_role("button", name="I take a marker").click()
    says_waiting(bruno, rf"^I take a marker{MADE_AT}$")
    send(ada, ada.get_by_test_id("my-markers").get_by_role("button", name="I take a marker"))
    expect(host.get_by_test_id("sw-project")).to_contain_text(BOTH_HOLD_THE_LAST)

    # Back online: Bruno's marker is refused, and his phone shows the empty card.
    table.bruno_network.restore()
    says_refused(bruno, rf"^I take a marker{MADE_AT}$", "", "No participation marker is left this age. (rule SW-9)")
    expect(bruno.get_by_test_id("sw-project")).to_contain_text(BOTH_HOLD_THE_LAST)
    expect(bruno.get_by_test_id("my-markers")).to_contain_text("You have 0 participation markers.")
    caught_up(bruno)

    session.refresh_from_db()
    assert moves_after(session, before) == [("sw.participate", "Ada")]
    assert session.state["game"]["markers"] == {
        session.seats.get(player__name=name).key: 1 for name in ("Ada", "Chiara")
    }


def test_a_cube_placed_offline_is_refused_once_the_host_placed_that_turns_cube_and_play_came_round(
    new_context: Callable[[], BrowserContext],
) -> None:
    session = a_table("babel-cubes", password=PASSWORD, names=("Ada", "Bruno"))
    table = at_the_table(new_context, session)
    host, ada, bruno = table.host, table.ada, table.bruno

    def place(page: Page, cell: str, cube: str, orientation: str) -> None:
        """With the picker of a phone whose turn it is, or of the host's page (for anyone)."""
        picker = page.get_by_test_id("bc-picker")
        picker.locator("details.bc-cell > summary", has_text=cell).click()
        picker.locator("details.bc-cell[open] details.bc-type > summary", has_text=cube).click()
        picker.get_by_role("button", name=orientation, exact=True).click()

    # Ada places the first cube on her phone; Bruno's phone offers his turn.
    place(ada, "back", "type 0 (grey)", "back: type 0 (grey), bulges: none")
    expect(bruno.get_by_test_id("bc-my-turn")).to_be_visible()
    before = last_seq(session)
    table.bruno_network.cut(bruno)

    # Offline, Bruno places a white cube on the right.
    offline_move = "right: type 1 (white), bulges: towards back"
    place(bruno, "right", "type 1 (white)", offline_move)
    says_waiting(bruno, rf"^{re.escape(offline_move)}")

    # The host places Bruno's cube as he put it on the real tower (on the left), then Ada
    # places hers on her phone. It is Bruno's turn again, and the right cell is still free.
    place(host, "left", "type 1 (white)", "left: type 1 (white), bulges: towards back")
    expect(ada.get_by_test_id("bc-my-turn")).to_be_visible()
    place(ada, "front", "type 2 (black)", "front: type 2 (black), bulges: towards right, towards left")
    expect(host.get_by_test_id("bc-status")).to_contain_text("Bruno to place a cube")

    # Back online: the cube Bruno placed for the turn the host recorded must not become the cube
    # of his new turn; it is refused, and his phone offers the new turn.
    table.bruno_network.restore()
    expect(bruno.get_by_test_id("offline-waiting").locator("li")).to_have_count(0)
    session.refresh_from_db()
    assert moves_after(session, before) == [
        ("bc.place", "ada"),
        ("bc.place", "Ada"),
    ], "the cube Bruno's phone placed offline for the turn the host recorded was applied as his next turn's cube"
    says_refused(
        bruno,
        rf"^{re.escape(offline_move)}{MADE_AT}$",
        "",
        "Someone else changed this session a moment ago. Here is the latest state: check it and send again.",
    )
    expect(bruno.get_by_test_id("bc-my-turn")).to_be_visible()
    expect(bruno.locator(".cube-tower").first).to_have_attribute(
        "aria-label", "The tower: 3 cubes placed; level 1 is being built."
    )
    caught_up(bruno)


def test_an_offer_made_offline_that_still_fits_is_taken_once_when_the_phone_is_back(
    new_context: Callable[[], BrowserContext],
) -> None:
    session = a_table("tower-of-babel", password=PASSWORD)
    disc, kind, _number = ada_to_play(session)
    table = at_the_table(new_context, session)
    host, ada, bruno = table.host, table.ada, table.bruno
    before, _card = an_offer_waiting_on_bruno_offline(table, session, disc, kind)

    # Meanwhile the host records Chiara's offer (nothing).
    host_records_an_empty_offer(host, "Chiara")

    # Back online: the offer is sent once, so every offer is in and Ada can accept it.
    table.bruno_network.restore()
    caught_up(bruno)
    expect(bruno.get_by_test_id("offline-panel")).to_be_hidden()
    expect(ada.get_by_test_id("my-resolve")).to_contain_text("Offers are in: accept and complete")
    for page in (host, bruno):
        expect(page.get_by_test_id("tob-pending")).to_contain_text(f"Bruno: {KIND_NAMES[kind]} 1")

    session.refresh_from_db()
    assert moves_after(session, before) == [(tob.OFFER, "ada"), (tob.OFFER, "Bruno")]
    assert session.events.get(type=tob.OFFER, author_label="Bruno").payload["cards"] == {kind: 1}


def test_a_pass_tapped_twice_offline_on_the_hosts_page_is_recorded_once(
    new_context: Callable[[], BrowserContext],
) -> None:
    session = a_table("tower-of-babel", password=PASSWORD)
    ada_to_play(session)
    host_context = new_context()
    host_network = Connection(host_context)
    host = host_context.new_page()
    log_in(host, "ada", PASSWORD)
    host.goto(f"/s/{session.pk}/")
    expect(host.get_by_test_id("tob-board")).to_contain_text("Ada to play")
    before = last_seq(session)
    host_network.cut(host)

    # Offline, the host taps Pass, and again: the button waits with its move, and one move waits.
    pass_button = host.locator("#tob-pass").get_by_role("button", name="Pass")
    pass_button.click()
    says_waiting(host, rf"^Pass{MADE_AT}$")
    expect(pass_button).to_be_disabled()
    pass_button.click(force=True)
    says_waiting(host, rf"^Pass{MADE_AT}$")

    # Back online: one pass is recorded, and the page shows Bruno to play.
    host_network.restore()
    caught_up(host)
    expect(host.get_by_test_id("tob-board")).to_contain_text("Bruno to play")
    expect(host.get_by_test_id("offline-panel")).to_be_hidden()
    session.refresh_from_db()
    assert moves_after(session, before) == [(tob.PASS, "ada")]
