"""The host's "Undo last step", on a phone-sized screen: it asks in words which step it takes
back, in place next to the button, and undoes that step once confirmed; a step another
device made meanwhile is not undone by that answer."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from scoring.tower_of_babel import engine as tob
from sessions import services
from sessions.models import GameSession
from tests.browser.conftest import OpenContext, log_in
from tests.conftest import advance

pytestmark = pytest.mark.browser

PASSWORD = "undo-pass-123"


def a_tower_after_adas_pass() -> GameSession:
    owner = User.objects.create_user("ada", password=PASSWORD)
    group = services.create_group(owner=owner, name="Thursday table")
    players = [services.create_player(group=group, name=name) for name in ("Ada", "Bruno", "Chiara")]
    night = services.create_night(group=group, date=datetime.date(2026, 11, 26))
    session = services.create_session(night=night, game="tower-of-babel", players=players)
    advance(session, "session.start")
    advance(session, tob.FIRST_PLAYER, seat=str(players[0].pk))
    advance(session, tob.PASS)
    return session


def host_page(new_context: OpenContext, session: GameSession) -> Page:
    page = new_context().new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, "ada", PASSWORD)
    page.goto(f"/s/{session.pk}/")
    return page


def test_the_host_reads_which_step_undo_takes_back_and_confirms_it(new_context: OpenContext, screenshots: Path):
    session = a_tower_after_adas_pass()
    page = host_page(new_context, session)
    expect(page.get_by_test_id("tob-board")).to_contain_text("Bruno to play")
    page.get_by_role("button", name="Undo last step").click()
    question = page.get_by_test_id("undo-question")
    expect(question).to_have_text("Undo “Ada passed”?")
    expect(page.get_by_role("button", name="Undo it")).to_be_focused()
    expect(page.get_by_role("button", name="Undo it")).to_be_in_viewport()
    page.screenshot(path=screenshots / "undo-question-phone.png")
    session.refresh_from_db()
    assert session.state["game"]["active"] == session.state["game"]["seats"][1]  # asked, not done
    page.get_by_role("button", name="Undo it").click()
    expect(page.get_by_test_id("tob-board")).to_contain_text("Ada to play")
    expect(question).to_have_count(0)
    expect(page.get_by_role("button", name="Undo last step")).to_be_visible()
    session.refresh_from_db()
    assert session.state["game"]["active"] == session.state["game"]["seats"][0]


def test_keep_it_leaves_the_step_and_closes_the_question(new_context: OpenContext):
    session = a_tower_after_adas_pass()
    page = host_page(new_context, session)
    page.get_by_role("button", name="Undo last step").click()
    page.get_by_role("button", name="Keep it").click()
    expect(page.get_by_test_id("undo-question")).to_have_count(0)
    expect(page.get_by_test_id("tob-board")).to_contain_text("Bruno to play")
    session.refresh_from_db()
    assert session.events.count() == 3  # start, first player, pass: no undo


def test_a_move_made_while_the_host_reads_the_question_is_not_undone(new_context: OpenContext, screenshots: Path):
    session = a_tower_after_adas_pass()
    page = host_page(new_context, session)
    page.get_by_role("button", name="Undo last step").click()
    expect(page.get_by_test_id("undo-question")).to_have_text("Undo “Ada passed”?")
    advance(session, tob.PASS)  # Bruno passes on his phone meanwhile
    expect(page.get_by_test_id("tob-board")).to_contain_text("Chiara to play")
    expect(page.get_by_test_id("undo-question")).to_have_text("Undo “Ada passed”?")  # still there, marked stale
    page.get_by_role("button", name="Undo it").click()
    expect(page.get_by_test_id("undo-notice")).to_have_text(
        "Nothing was undone: the table moved on since you were asked."
    )
    expect(page.get_by_test_id("undo-question")).to_have_text("Undo “Bruno passed”?")
    page.screenshot(path=screenshots / "undo-question-stale-phone.png")
    session.refresh_from_db()
    assert session.state["game"]["active"] == session.state["game"]["seats"][2]
    page.get_by_role("button", name="Undo it").click()
    expect(page.get_by_test_id("tob-board")).to_contain_text("Bruno to play")


def test_without_javascript_the_question_is_a_page_of_its_own(browser, asgi_server: str, transactional_db: None):
    session = a_tower_after_adas_pass()
    context = browser.new_context(
        base_url=asgi_server, java_script_enabled=False, viewport={"width": 390, "height": 844}
    )
    page = context.new_page()
    log_in(page, "ada", PASSWORD)
    page.goto(f"/s/{session.pk}/")
    page.get_by_role("button", name="Undo last step").click()
    expect(page.get_by_test_id("undo-question")).to_have_text("Undo “Ada passed”?")
    page.get_by_role("button", name="Undo it").click()
    expect(page.get_by_test_id("tob-board")).to_contain_text("Ada to play")
    context.close()
