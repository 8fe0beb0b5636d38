"""A region rendered after a move renders only what the move changed (issue 16, item 3): the
wonders of Tower of Babel, the towers of Babel On!, the lines of the event log and the score
forms are kept rendered under what they show, so a move that leaves them as they were does
not render them again, and one that changes them, or another language, renders them anew."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client
from django.utils import timezone
from django.utils.safestring import mark_safe

from scoring.tower_of_babel import engine as tob
from sessions import services
from sessions.event_words import LogLine
from sessions.templatetags.kept import _event_line, event_lines
from tests.conftest import advance, client_for, offers_in, play, started_tower


def _region(client: Client, session_id: int, language: str = "en") -> tuple[str, list[str]]:
    """The host's region, and the templates rendered for it."""
    answer = client.get(f"/s/{session_id}/live/", headers={"HX-Request": "true", "Accept-Language": language})
    assert answer.status_code == 200
    return answer.content.decode(), [str(template.name) for template in answer.templates]


def _wonder(page: str, name: str) -> str:
    found = re.search(rf"<h3>{name}</h3>.*?</li>", page, re.S)
    assert found is not None, name
    return found[0]


def test_a_pass_renders_none_of_the_wonders_again(owner, session):
    started_tower(session)
    host = client_for(owner)
    first, rendered = _region(host, session.pk)
    assert rendered.count("boards/tower_of_babel/_disc.html") == 24
    advance(session, tob.PASS)
    again, rendered = _region(host, session.pk)
    assert "boards/tower_of_babel/_disc.html" not in rendered
    assert _wonder(again, "Colossus of Rhodes") == _wonder(first, "Colossus of Rhodes")
    assert f'data-version="{session.version}.' in again  # the region itself is new


def test_a_build_renders_the_wonder_it_changed_and_only_that_one(owner, session):
    _session, seats, _code = started_tower(session)
    host = client_for(owner)
    _region(host, session.pk)
    wonder, kind, number = offers_in(session, seats)
    advance(session, tob.RESOLVE, accepted=[], own={kind: number})
    page, rendered = _region(host, session.pk)
    discs_left = len(session.state["game"]["wonders"][wonder]["discs"])
    assert rendered.count("boards/tower_of_babel/_disc.html") == discs_left == 2
    assert rendered.count("boards/tower_of_babel/_parts.html") == 1
    assert 'class="brick' in page


def test_a_kept_wonder_is_never_shown_in_another_language(owner, session):
    started_tower(session)
    host = client_for(owner)
    english, _rendered = _region(host, session.pk)
    assert "Colossus of Rhodes" in english
    advance(session, tob.PASS)
    italian, rendered = _region(host, session.pk, language="it")
    assert rendered.count("boards/tower_of_babel/_disc.html") == 24
    assert "Colosso di Rodi" in italian


def test_a_phone_and_the_host_never_share_a_wonder_with_or_without_the_build_links(owner, session):
    _session, _seats, code = started_tower(session)
    host, _rendered = _region(client_for(owner), session.pk)
    phone = Client()
    phone.get(f"/j/{code}/")
    watched = phone.get(f"/j/{code}/live/", HTTP_HX_REQUEST="true").content.decode()
    assert 'href="?disc=' in host
    assert 'href="?disc=' not in watched
    assert 'data-testid="tob-board"' in watched


@pytest.fixture
def babel_on(night, players):
    session = services.create_session(night=night, game="babel-on", players=players[:2], colours=["blue", ""])
    advance(session, "session.start")
    return session


def test_a_babel_on_move_renders_the_tower_it_changed_and_only_that_one(member_client, babel_on):
    a, b = (seat.key for seat in babel_on.seats.all())
    play(member_client, babel_on, "setup", **{f"colour_{a}": "blue", f"colour_{b}": "red", "extra": "green"})
    play(member_client, babel_on, "rolloff", **{f"roll_{a}": "5", f"roll_{b}": "2"})
    _page, rendered = _region(member_client, babel_on.pk)
    assert rendered.count("boards/babel_on/_tower.html") == 2
    play(member_client, babel_on, "roll", call="even", roll="2", die="typed")
    _page, rendered = _region(member_client, babel_on.pk)
    assert "boards/babel_on/_tower.html" not in rendered  # a roll builds nothing yet
    play(member_client, babel_on, "draw", colour_0="blue", spot_0="1-nw", colour_1="green", spot_1="1-ne")
    page, rendered = _region(member_client, babel_on.pk)
    assert rendered.count("boards/babel_on/_tower.html") == 1
    assert 'colour-blue" title="floor 1, north-west · blue"' in page


def test_a_pass_renders_the_log_line_it_added_and_keeps_the_rest(owner, session, monkeypatch):
    started_tower(session)
    host = client_for(owner)
    _region(host, session.pk)
    fragments, rendered = caches["fragments"], []
    kept_set = fragments.set

    def counted_set(key: str, *args: Any, **kwargs: Any) -> None:
        rendered.append(key)
        kept_set(key, *args, **kwargs)

    monkeypatch.setattr(fragments, "set", counted_set)
    advance(session, tob.PASS)
    lines_before = _event_line.cache_info()
    page, _templates = _region(host, session.pk)
    lines_after = _event_line.cache_info()
    assert rendered == []  # no wonder, form or panel either
    assert (lines_after.misses - lines_before.misses, lines_after.hits - lines_before.hits) == (1, 2)
    log = page[page.index('data-testid="event-log"') :]
    assert log.count("<li>") == 3  # the start, the first player, the pass
    assert log.index("passed") < log.index("plays first") < log.index("started")


def test_a_log_line_is_the_sentence_escaped_its_author_and_its_local_time(settings):
    settings.TIME_ZONE = "Europe/Rome"
    moment = datetime.datetime(2026, 11, 25, 20, 5, 9, tzinfo=datetime.UTC)
    line = LogLine(pk=1, seq=3, type="tob.pass", created_at=moment, author="<b>olga</b>")
    with timezone.override("Europe/Rome"):
        assert event_lines([(line, "Ada & Bruno <passed>")]) == (
            '<li>Ada &amp; Bruno &lt;passed&gt; <small class="muted">&lt;b&gt;olga&lt;/b&gt; · 21:05:09</small></li>'
        )
        assert "<em>" in event_lines([(line, mark_safe("<em>Ada</em> passed"))])  # words already safe


def test_a_refused_score_entry_comes_back_as_typed_after_the_form_was_kept_empty(owner, session):
    started_tower(session)
    host = client_for(owner)
    _region(host, session.pk)  # the empty form is kept
    typed = {f"score_{seat.key}": value for seat, value in zip(session.seats.all(), ["3+x", "12", "5"], strict=True)}
    answer = host.post(f"/s/{session.pk}/scores/", {"expected_version": session.version, **typed})
    assert answer.status_code == 400
    page = answer.content.decode()
    for name, value in typed.items():
        assert re.search(rf'name="{name}" value="{re.escape(value)}"', page), name
    again, _templates = _region(host, session.pk)  # and the empty form again after it
    assert 'value="3+x"' not in again


def test_a_kept_log_line_follows_the_name_of_who_sent_it(owner, session):
    started_tower(session)
    services.append_event(session_id=session.pk, expected_version=session.version, type=tob.PASS, author=owner)
    host = client_for(owner)
    page, _templates = _region(host, session.pk)
    assert f"{owner.username} ·" in page
    owner.username = "olga-renamed"
    owner.save()
    caches["default"].clear()  # the log is told again (its lifetime over, here and in Redis),
    caches["here"].clear()  # from the accounts as they are now
    page, _templates = _region(host, session.pk)
    log = page[page.index('data-testid="event-log"') :]
    assert "olga-renamed ·" in log


CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
KEYS = re.compile(r'name="idempotency_key" value="([0-9a-f]{32})"')


def _phones_panel(page: str) -> str:
    found = re.search(r'<section class="panel" id="join">.*?</section>', page, re.S)
    assert found is not None
    return found[0]


def test_the_phones_panel_is_rendered_once_a_night_revision_and_given_each_device_with_its_own_tokens(
    owner, member, session
):
    session, seats, code = started_tower(session)
    host = client_for(owner)
    _page, rendered = _region(host, session.pk)
    assert "sessions/_phones.html" in rendered
    advance(session, tob.PASS)
    second = client_for(member)
    second.get(f"/s/{session.pk}/")  # its CSRF cookie, as the page gives it
    page, rendered = _region(second, session.pk)
    assert "sessions/_phones.html" not in rendered  # the night is as it was
    assert "sessions/_join_code.html" not in rendered
    panel = _phones_panel(page)
    assert set(CSRF.findall(panel)) == {CSRF.findall(page)[-1]}  # this device's, as in its other forms
    host_panel = _phones_panel(_region(host, session.pk)[0])
    assert set(KEYS.findall(panel)).isdisjoint(KEYS.findall(host_panel))
    Client().post(f"/j/{code}/seat/", {"seat": seats[1]})  # a phone takes Bruno's seat: a new revision
    page, rendered = _region(host, session.pk)
    assert "sessions/_phones.html" in rendered
    assert "Free Bruno's seat" in _phones_panel(page)
