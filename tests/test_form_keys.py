"""The hidden keys of the live regions' forms, written out by ``{% form_keys %}`` instead of
through their widgets' templates: the same inputs, and no element id given to every form."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.template import Context
from django.urls import reverse

from sessions.forms import IdempotentForm, VersionedForm
from sessions.models import GameSession
from sessions.templatetags.forms import form_keys, phone_move_keys, play_keys
from tests.conftest import advance

KEYS_IN = re.compile(r'name="idempotency_key" value="([0-9a-f]{32})"')


def as_widgets_write_them(form, *names):
    return "".join(re.sub(r' id="[^"]*"', "", str(form[name])) for name in names)


@pytest.mark.parametrize(
    "form",
    [
        VersionedForm(initial={"expected_version": 7}),
        VersionedForm(data={"expected_version": "12", "idempotency_key": "k-1"}),
        VersionedForm(data={"expected_version": "x7", "idempotency_key": '"><script>'}),  # refused: as typed
        VersionedForm(data={}),
    ],
)
def test_the_keys_are_the_inputs_their_widgets_write_without_the_ids(form):
    assert form_keys(form) == as_widgets_write_them(form, "expected_version", "idempotency_key")
    assert form_keys(form, "expected_version") == as_widgets_write_them(form, "expected_version")


def test_a_form_without_a_version_gives_its_idempotency_key_alone():
    form = IdempotentForm()
    assert form_keys(form) == as_widgets_write_them(form, "idempotency_key")
    assert 'name="expected_version"' not in form_keys(form)


def test_no_two_elements_of_the_host_page_share_an_id(member_client, session):
    advance(session, "session.start")
    page = member_client.get(reverse("session", args=[session.pk])).content.decode()
    repeated = {element_id: n for element_id, n in Counter(re.findall(r'\sid="([^"]+)"', page)).items() if n > 1}
    assert repeated == {}
    assert page.count('name="expected_version"') >= 4  # the page's forms still carry their keys


def test_a_phones_move_carries_its_move_session_own_key_form_and_the_version_it_was_shown_at():
    session = GameSession(pk=41, version=9)
    fresh = phone_move_keys(Context({"session": session}), "choose", "phone-choose-3", fresh=True)
    assert re.sub(r"[0-9a-f]{32}", "KEY", fresh) == (
        '<input type="hidden" name="move" value="choose"><input type="hidden" name="session" value="41">'
        '<input type="hidden" name="idempotency_key" value="KEY">'
        '<input type="hidden" name="form" value="phone-choose-3">'
        '<input type="hidden" name="expected_version" value="9">'
    )
    kept = phone_move_keys(Context({"session": session}), "offer", '"><b>')
    assert 'name="expected_version"' not in kept  # an offer fits whatever the table shows meanwhile
    assert 'value="&quot;&gt;&lt;b&gt;"' in kept
    assert KEYS_IN.findall(fresh) != KEYS_IN.findall(phone_move_keys(Context({"session": session}), "choose", "x"))


def test_a_host_form_carries_the_version_it_was_shown_at_its_own_key_and_its_form():
    context = Context({"play_form": VersionedForm(initial={"expected_version": 5})})
    keys = play_keys(context, "tob-pass")
    assert re.sub(r"[0-9a-f]{32}", "KEY", keys) == (
        '<input type="hidden" name="expected_version" value="5">'
        '<input type="hidden" name="idempotency_key" value="KEY"><input type="hidden" name="form" value="tob-pass">'
    )
    assert KEYS_IN.findall(keys) != KEYS_IN.findall(play_keys(context, "tob-pass"))
