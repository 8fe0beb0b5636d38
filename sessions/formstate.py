"""A refused or stale form comes back as it was typed, with each message on its field.

The board and phone forms are plain HTML in their templates (their fields depend on the
game's state: a row per seat, per kind, per block), so instead of a Django form class per
move, the page is rendered as usual and then the one form that was sent (found by its
``id``, which every such form also posts as ``form``) gets the posted values back: text
and number inputs their value, checkboxes and radios their ``checked``, selects their
``selected`` option, textareas their text. Hidden inputs keep what the server rendered
(the fresh version and a new idempotency key), so sending again is checked against the
table as it is now. Messages go right after their field (a checkbox's or a radio's after its
whole label, and after the last box of its name, so that a message never comes between a box
and its words), or at the top of the form, their rule ids linked to the rules.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from html.parser import HTMLParser

from django.http import HttpResponse, QueryDict

from sessions.rules_reference import link_rule_ids

# Inputs whose value is not typed by a person (or must stay as the server rendered it).
UNTYPED = {"hidden", "submit", "button", "reset", "image", "file", "password"}


@dataclass(frozen=True)
class Edit:
    start: int
    end: int
    text: str


def form_key(data: QueryDict) -> str:
    """The id of the form that sent ``data`` (its hidden ``form`` field), or ""."""
    return (data.get("form") or "")[:80]


def input_for(patterns: Sequence[tuple[str, str]], field: str) -> str:
    """The input that holds an engine's ``field``: the first pattern that matches it whole,
    expanded (``(r"own\\.(\\w+)", r"own_\\1")``), else the field's own name."""
    for pattern, name in patterns:
        match = re.fullmatch(pattern, field)
        if match:
            return match.expand(name)
    return field


def refill_sent_form(response: HttpResponse, data: QueryDict, *, messages: Sequence[str], field: str = "") -> bool:
    """Refills, in the rendered ``response``, the form that sent ``data`` as it was typed, the
    first message on the input ``field`` holds (all of them at the top of the form when
    ``field`` is ""). False when the page no longer has that form (the table moved on so far
    that it is gone): the caller then says the messages another way."""
    kept = keep_typed(
        response.content.decode(),
        form=form_key(data),
        data=data,
        errors={field: messages[0]} if field else {},
        form_errors=[] if field else messages,
    )
    if kept is None:
        return False
    response.content = kept.encode()
    return True


def keep_typed(
    html: str,
    *,
    form: str,
    data: QueryDict,
    errors: Mapping[str, str] | None = None,
    form_errors: Sequence[str] = (),
) -> str | None:
    """``html`` with the form whose id is ``form`` showing ``data`` and the messages, or
    None when the page has no such form (the table moved on so far that it is gone).

    ``errors`` maps an input's name to its message (or several names, space-separated: the
    message goes to the first that the form has); a message whose inputs the form does not
    have goes at the top of the form, like ``form_errors``. The form is marked
    ``data-dirty`` so that the page keeps it while the table moves on.
    """
    if not form:
        return None
    filler = _Filler(html, form=form, data=data, errors=dict(errors or {}))
    filler.feed(html)
    filler.close()
    if filler.form_start is None:
        return None
    unplaced = [message for names, message in filler.errors.items() if names not in filler.placed]
    top = "".join(f'<p class="msg error" role="alert">{link_rule_ids(m)}</p>' for m in [*form_errors, *unplaced])
    if top:
        filler.edits.append(Edit(filler.form_start, filler.form_start, top))
    return _apply(html, filler.edits)


def _apply(html: str, edits: list[Edit]) -> str:
    pieces, at = [], 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        pieces.append(html[at : edit.start])
        pieces.append(edit.text)
        at = edit.end
    pieces.append(html[at:])
    return "".join(pieces)


def _tag(name: str, attrs: list[tuple[str, str | None]], *, closing: bool = False) -> str:
    parts = [name] + [key if value is None else f'{key}="{escape(value)}"' for key, value in attrs]
    return "<" + " ".join(parts) + (" />" if closing else ">")


def _set(attrs: list[tuple[str, str | None]], key: str, value: str | None, *, on: bool = True) -> None:
    """Sets (in its place, or at the end) or removes the attribute ``key``."""
    keys = [k for k, _v in attrs]
    if not on:
        attrs[:] = [(k, v) for k, v in attrs if k != key]
    elif key in keys:
        attrs[keys.index(key)] = (key, value)
    else:
        attrs.append((key, value))


class _Filler(HTMLParser):
    def __init__(self, html: str, *, form: str, data: QueryDict, errors: dict[str, str]) -> None:
        super().__init__(convert_charrefs=True)
        self.form, self.data, self.errors = form, data, errors
        self.line_starts = [0]
        for index, char in enumerate(html):
            if char == "\n":
                self.line_starts.append(index + 1)
        self.edits: list[Edit] = []
        self.form_start: int | None = None  # just after the form's start tag
        self.inside = False
        self.select: str | None = None  # the name of the select being read
        self.textarea: tuple[str, int] | None = None  # its name and where its text starts
        self.pending_error: str | None = None  # a select's message, placed after </select>
        # A box's message and its name, until the box's label and the boxes of its name end.
        self.held: tuple[str, str] | None = None
        self.labels = 0  # how many labels the parser is inside
        self.seen: Counter[str] = Counter()  # the boxes of each name read so far
        self.placed: set[str] = set()  # the keys of ``errors`` already shown
        self.present, self.counts = self._inputs_named(html, form)

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def _replace_tag(self, tag: str, attrs: list[tuple[str, str | None]], closing: bool) -> tuple[int, int]:
        start = self._offset()
        end = start + len(self.get_starttag_text() or "")
        self.edits.append(Edit(start, end, _tag(tag, attrs, closing=closing)))
        return start, end

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, closing=True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, closing=False)

    def _start(self, tag: str, raw: list[tuple[str, str | None]], *, closing: bool) -> None:
        attrs = list(raw)
        found = dict(attrs)
        if tag == "form" and found.get("id") == self.form:
            self.inside = True
            _set(attrs, "data-dirty", "true")
            _start, end = self._replace_tag(tag, attrs, closing)
            self.form_start = end
            return
        if not self.inside:
            return
        name = found.get("name") or ""
        if tag == "label":
            self.labels += 1
        elif tag == "input" and name and (found.get("type") or "text").lower() not in UNTYPED:
            kind = (found.get("type") or "text").lower()
            box = kind in ("checkbox", "radio")
            if box:
                _set(attrs, "checked", None, on=(found.get("value") or "on") in self.data.getlist(name))
            else:
                _set(attrs, "value", self.data.get(name, ""))
            message = self._error_attrs(attrs, name)
            _start, end = self._replace_tag(tag, attrs, closing)
            if box:
                self.seen[name] += 1
                self.held = (name, message) if message else self.held
                self._release(end)
            elif message:
                self.edits.append(Edit(end, end, message))
        elif tag == "select" and name:
            self.select = name
            self.pending_error = self._error_attrs(attrs, name)
            self._replace_tag(tag, attrs, closing)
        elif tag == "option" and self.select and "value" in found:
            _set(attrs, "selected", None, on=found["value"] in self.data.getlist(self.select))
            self._replace_tag(tag, attrs, closing)
        elif tag == "textarea" and name:
            self.pending_error = self._error_attrs(attrs, name)
            _start, end = self._replace_tag(tag, attrs, closing)
            self.textarea = (name, end)

    def _release(self, at: int) -> None:
        """Places a box's waiting message at ``at`` once the label around the box and the
        other boxes of its name are behind."""
        if self.held is None or self.labels:
            return
        name, message = self.held
        if self.seen[name] >= self.counts[name]:
            self.edits.append(Edit(at, at, message))
            self.held = None

    @staticmethod
    def _inputs_named(html: str, form: str) -> tuple[set[str], Counter[str]]:
        """The names of the form's fields, and how many a person fills in have each name (a
        first pass, so that a message whose first candidate is missing goes to the next, and
        one of a box goes after the last box of its name)."""
        names = _Names(form)
        names.feed(html)
        names.close()
        return names.found, names.typed

    def _error_attrs(self, attrs: list[tuple[str, str | None]], name: str) -> str:
        """Marks the field invalid and returns its message's markup ("" when it has none)."""
        for names, message in self.errors.items():
            first = next((n for n in names.split() if n in self.present), None)
            if first != name or names in self.placed:
                continue
            self.placed.add(names)
            ident = f"{self.form}-{name}-error"
            _set(attrs, "aria-invalid", "true")
            _set(attrs, "aria-describedby", ident)
            return f'<span class="error" role="alert" id="{escape(ident)}">{link_rule_ids(message)}</span>'
        return ""

    def handle_endtag(self, tag: str) -> None:
        if not self.inside:
            return
        at = self._offset()
        if tag == "textarea" and self.textarea is not None:
            name, start = self.textarea
            self.edits.append(Edit(start, at, escape(self.data.get(name, ""), quote=False)))
            self.textarea = None
        if tag in ("select", "textarea") and self.pending_error:
            end = at + len(f"</{tag}>")
            self.edits.append(Edit(end, end, self.pending_error))
            self.pending_error = None
        if tag == "select":
            self.select = None
        if tag == "label":
            self.labels = max(self.labels - 1, 0)
            self._release(at + len("</label>"))
        if tag == "form":
            if self.held is not None:  # a label the form never closed: its message ends the form
                self.edits.append(Edit(at, at, self.held[1]))
                self.held = None
            self.inside = False


class _Names(HTMLParser):
    def __init__(self, form: str) -> None:
        super().__init__(convert_charrefs=True)
        self.form, self.inside = form, False
        self.found: set[str] = set()
        self.typed: Counter[str] = Counter()  # the fields a person fills in, by name

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "form":
            self.inside = found.get("id") == self.form
        elif self.inside and tag in ("input", "select", "textarea") and found.get("name"):
            self.found.add(found["name"] or "")
            self.typed[found["name"] or ""] += tag != "input" or (found.get("type") or "text").lower() not in UNTYPED

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
