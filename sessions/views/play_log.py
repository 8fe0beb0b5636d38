"""The group's play log (issue 44): every play, newest first, filtered from the address, in
cursor pages, and its exports as filtered.

The filters live in the query string, so a filtered log can be shared or bookmarked; the form
sends them by htmx as they change (the list alone comes back, and the address is pushed), or
by its button without JavaScript. A bad value is refused naming its field (400), never a 500.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET

from sessions import selectors
from sessions.cursors import CHANGED, OTHER_FILTERS, CursorRefused, read_signed_cursor, signed_cursor
from sessions.http import MemberRequest
from sessions.models import Group
from sessions.play_log import export
from sessions.play_log import selectors as log_reads
from sessions.play_log.filters import FilterForm, Filters, choices

CURSOR = "cursor"
CURSOR_SALT = "sessions.play_log.cursor"  # a cursor of another list never reads as one of this


@login_required
@require_GET
def play_log(request: MemberRequest, group_id: int) -> HttpResponse:
    group = selectors.membership(request.user, group_id).group
    form = FilterForm(request.GET, group=group)
    context: dict[str, Any] = {"group": group, "form": form, "refusals": [], "log": None}
    filters = Filters()
    if not form.is_valid():
        context["refusals"] = form.refusals()
    else:
        filters = form.filters()
        try:
            log = log_reads.page(group, filters, after=_cursor_position(request, filters))
        except CursorRefused as refused:
            context["refusals"] = [_cursor_refusal(refused.reason)]
        except ValueError:  # signed by us, but not a position (a cursor of an older release)
            context["refusals"] = [_cursor_refusal(CHANGED)]
        else:
            context.update(_log_context(group, filters, log, from_cursor=CURSOR in request.GET))
    status = 400 if context["refusals"] else 200
    # htmx's history restore (the back button) asks for the whole page, as a reload would.
    if request.htmx and not request.htmx.history_restore_request:
        response = render(request, "play_log/_results.html", context, status=status)
        # The address pushed is the filters' own, without the empty fields a form sends.
        response["HX-Push-Url"] = request.path + _query(filters.address(), cursor=request.GET.get(CURSOR))
        return response
    context["choices"] = choices(group, filters, request.GET)
    return render(request, "play_log/log.html", context, status=status)


@login_required
@require_GET
def play_log_csv(request: MemberRequest, group_id: int) -> HttpResponse | StreamingHttpResponse:
    group = selectors.membership(request.user, group_id).group
    form = FilterForm(request.GET, group=group)
    if not form.is_valid():
        return _refused(form)
    return _download(export.csv_lines(group, form.filters()), "text/csv; charset=utf-8", _filename(group, "csv"))


@login_required
@require_GET
def play_log_json(request: MemberRequest, group_id: int) -> HttpResponse | StreamingHttpResponse:
    group = selectors.membership(request.user, group_id).group
    form = FilterForm(request.GET, group=group)
    if not form.is_valid():
        return _refused(form)
    filters = form.filters()
    chunks = export.json_chunks(group, filters, found=log_reads.count(group, filters))
    return _download(chunks, "application/json", _filename(group, "json"))


def _cursor_position(request: MemberRequest, filters: Filters) -> dict[str, Any] | None:
    cursor = request.GET.get(CURSOR)
    if not cursor:
        return None
    return read_signed_cursor(cursor, filters=filters.address(), salt=CURSOR_SALT)


def _cursor_refusal(reason: str) -> str:
    if reason == OTHER_FILTERS:
        return _(
            "Older plays: this link was made for other filters. Follow the “Older plays” link "
            "of the list you are looking at, or start again from the newest plays."
        )
    return _("Older plays: this link has been changed or cut short. Start again from the newest plays.")


def _log_context(group: Group, filters: Filters, log: log_reads.LogPage, *, from_cursor: bool) -> dict[str, Any]:
    address = filters.address()
    found = log_reads.count(group, filters, known=log)
    older = None
    if log.after is not None:
        older = _query(address, cursor=signed_cursor(log.after, filters=address, salt=CURSOR_SALT))
    return {
        "log": log,
        "filters": filters,
        "found": found,
        "found_words": ngettext("%(count)s play", "%(count)s plays", found)
        % {"count": number_format(found, force_grouping=True)},
        "query": _query(address),
        "older": older,
        "from_cursor": from_cursor,
    }


def _query(address: dict[str, str], *, cursor: str | None = None) -> str:
    values = {**address, CURSOR: cursor} if cursor else address
    return "?" + urlencode(values) if values else ""


def _refused(form: FilterForm) -> HttpResponse:
    return HttpResponse("\n".join(form.refusals()), status=400, content_type="text/plain; charset=utf-8")


def _download(body: Any, content_type: str, name: str) -> StreamingHttpResponse:
    response = StreamingHttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "private, no-store"
    return response


def _filename(group: Group, suffix: str) -> str:
    return f"{slugify(group.name) or 'group'}-plays-{timezone.localdate().isoformat()}.{suffix}"
