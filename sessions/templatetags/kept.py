"""Parts of the live regions kept rendered between moves.

``{% kept_with_own_tokens %}`` is Django's ``{% cache %}`` for a part with forms in it.

A part that only changes now and then (the host's join code and phones panel, which follow the
night's revision) is rendered once and kept in the process's "fragments" cache, under the
values it varies on; each device then gets it with its own CSRF token and a new idempotency
key in each form, as a kept render is given (``sessions.table.live.with_own_tokens``). Django's tag
would hand every device the token of the device that rendered it. ``{% event_lines %}``
writes the host's event log, each line once a process.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from django import template
from django.core.cache import caches
from django.core.cache.utils import make_template_fragment_key
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.utils import formats
from django.utils.html import format_html
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.timezone import localtime

from sessions.event_words import LogLine
from sessions.table.live import with_own_tokens

register = template.Library()


class KeptWithOwnTokens(template.Node):
    def __init__(self, nodelist: NodeList, name: str, seconds: FilterExpression, vary_on: list[FilterExpression]):
        self.nodelist, self.name, self.seconds, self.vary_on = nodelist, name, seconds, vary_on

    def render(self, context: template.Context) -> SafeString:
        key = make_template_fragment_key(self.name, [value.resolve(context) for value in self.vary_on])
        fragments = caches["fragments"]
        kept: str | None = fragments.get(key)
        if kept is None:
            rendered = self.nodelist.render(context)
            fragments.set(key, rendered, int(self.seconds.resolve(context)))
            return rendered
        # The render's own token (the context processor's, masked once for every form of the
        # render: masking one costs 32 us); rendered by the template engine, escaped then.
        token = context.get("csrf_token")
        return mark_safe(kept if token is None else with_own_tokens(kept, str(token)))


@register.tag
def kept_with_own_tokens(parser: Parser, token: Token) -> KeptWithOwnTokens:
    """``{% kept_with_own_tokens name seconds value ... %}...{% endkept_with_own_tokens %}``"""
    bits = token.split_contents()
    if len(bits) < 3:
        raise template.TemplateSyntaxError(f"{bits[0]} takes a name, the seconds to keep, and what it varies on")
    nodelist = parser.parse(("endkept_with_own_tokens",))
    parser.delete_first_token()
    return KeptWithOwnTokens(
        nodelist, bits[1], parser.compile_filter(bits[2]), [parser.compile_filter(b) for b in bits[3:]]
    )


@register.simple_tag
def event_lines(events: Sequence[tuple[LogLine, str]]) -> SafeString:
    """The host's event log, a line an event (newest first). A line is a pure function of its
    event and its sentence, so each is written once a process (``_event_line``) rather than
    rendered again after every move: 30 lines through the template and a ``{% cache %}`` each
    took 0.43 ms of the host's region."""
    return mark_safe(
        "".join(_event_line(event, sentence, isinstance(sentence, SafeData)) for event, sentence in events)
    )


@functools.lru_cache(maxsize=4096)
def _event_line(event: LogLine, sentence: str, safe: bool) -> str:
    # ``safe`` keys the escaping: the same words as a SafeString are not escaped again.
    at = formats.time_format(localtime(event.created_at), "H:i:s")  # as the |time filter (USE_TZ)
    return format_html('<li>{} <small class="muted">{} · {}</small></li>', sentence, event.author, at)
