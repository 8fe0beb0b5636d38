"""The hidden keys of the live regions' forms, written out by ``{% form_keys %}`` instead of
through their widgets' templates: the same inputs, and no element id given to every form."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.urls import reverse

from sessions.forms import IdempotentForm, VersionedForm
from sessions.templatetags.forms import form_keys
from tests.conftest import advance


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
