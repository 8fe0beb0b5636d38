"""Template tags for the forms of the live regions."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms, template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag
def fresh_idempotency_key() -> str:
    """A key of its own for each form of a rendering: a form kept while the person fills it
    in must not share its key with one sent meanwhile, or it would be taken for a repeat."""
    return uuid.uuid4().hex


KEYS = ("expected_version", "idempotency_key")


@register.simple_tag
def form_keys(form: forms.Form, *names: str) -> SafeString:
    """The hidden keys of a write form (``names``, by default the version it was shown at and
    its idempotency key), as sent or as first given: what ``{{ form.expected_version }}`` and
    ``{{ form.idempotency_key }}`` render, written out. Through their widgets' templates the
    ten keys of the host's region took about 2 of its 21 ms, and every form on the page had
    the same element ids."""
    shown = [name for name in names or KEYS if name in form.fields]
    return format_html_join(
        "", '<input type="hidden" name="{}"{}>', ((name, _value_attribute(form[name].value())) for name in shown)
    )


def _value_attribute(value: Any) -> str:
    """The value as Django's ``HiddenInput`` writes it: none at all when empty."""
    return "" if value is None or value == "" else format_html(' value="{}"', str(value))


@register.simple_tag(takes_context=True)
def phone_move_keys(context: template.Context, move: str, form_id: str, *, fresh: bool = False) -> SafeString:
    """The hidden fields of a move sent from a phone: which move and for which session, an
    idempotency key of this form's own (one per form and rendering: a double tap records once,
    and a form kept while being filled in is not taken for the repeat of another sent
    meanwhile), which form it is (``form_id``, also the form's id, so that a refusal comes back
    in this form with what was typed) and, for a move that must fit the table as shown
    (``fresh``), the session version it was shown at. A tag, not an included template: a phone
    in its turn has one in each of its forms (up to nine), and an include took 28 us."""
    session = context.get("session")  # (a board's template rendered alone may have none)
    fields = format_html(
        '<input type="hidden" name="move" value="{}"><input type="hidden" name="session" value="{}">{}',
        move,
        getattr(session, "pk", ""),
        _own_keys(form_id),
    )
    if fresh:
        fields += format_html(
            '<input type="hidden" name="expected_version" value="{}">', getattr(session, "version", "")
        )
    return fields


@register.simple_tag(takes_context=True)
def play_keys(context: template.Context, form_id: str) -> SafeString:
    """The hidden fields of a form on the host's controls: the version it was shown at, an
    idempotency key of this form's own (one per form and rendering, as on the phones), and
    which form it is (``form_id``, also the form's id), so that a refused or stale send comes
    back in this form with what was typed."""
    return form_keys(context["play_form"], "expected_version") + _own_keys(form_id)


def _own_keys(form_id: str) -> SafeString:
    """A form's idempotency key of its own and which form it is."""
    return format_html(
        '<input type="hidden" name="idempotency_key" value="{}"><input type="hidden" name="form" value="{}">',
        fresh_idempotency_key(),
        form_id,
    )
