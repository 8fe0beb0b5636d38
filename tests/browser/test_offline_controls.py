"""Offline on the controls (issue 39, point 7): a move made without a connection marks its own
form "waiting to send", and the other actions of that turn are disabled until it is sent or
refused; then the controls are the table's again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, expect

from scoring.tower_of_babel import engine as tob
from sessions import services
from tests.browser.conftest import a_table, phone_of
from tests.browser.test_offline_games import (
    MADE_AT,
    PASSWORD,
    Connection,
    ada_to_play,
    caught_up,
    last_seq,
    moves_after,
    says_waiting,
    settled,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_pass_made_offline_says_it_waits_and_holds_the_rest_of_the_turn_until_it_is_sent(
    new_context: Callable[[], BrowserContext], screenshots: Path
) -> None:
    session = a_table("tower-of-babel", password=PASSWORD)
    disc, _kind, _number = ada_to_play(session)
    context = new_context()
    network = Connection(context)
    ada = phone_of(context, services.create_join_code(session=session).code, "Ada")
    settled(ada)
    before = last_seq(session)
    network.cut(ada)

    turn = ada.get_by_test_id("my-turn")
    turn.get_by_role("button", name="Pass", exact=True).click()
    says_waiting(ada, rf"^Pass{MADE_AT}$")
    expect(ada.locator("#phone-pass [data-waiting-note]")).to_have_text(
        "Waiting to send: the other moves of this turn wait for it."
    )
    expect(turn.get_by_role("button", name="Pass", exact=True)).to_be_disabled()
    expect(turn.locator(f'button[data-disc="{disc}"]')).to_be_disabled()
    expect(turn.get_by_label("Double turn card")).to_be_disabled()
    ada.screenshot(path=screenshots / "offline-controls-waiting.png")

    network.restore()
    caught_up(ada)
    expect(ada.get_by_test_id("my-waiting")).to_have_text("Waiting for Bruno")
    expect(ada.locator("[data-waiting-note]")).to_have_count(0)
    expect(ada.locator("[data-held]")).to_have_count(0)
    session.refresh_from_db()
    assert moves_after(session, before) == [(tob.PASS, "Ada")]
