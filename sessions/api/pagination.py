"""Pagination of the API lists, with ``?page_size=`` (50 by default, at most 200).

The short lists (groups, players, nights) are numbered pages with a ``count``
(``?page=2``). The two that grow with every game played, sessions and results, are cursor
pages (``?cursor=``, followed from the ``next`` and ``previous`` links): a page is read
from an index in order, so the last page of 100,000 sessions costs what the first does,
where an OFFSET read every row before it; they give no ``count`` for the same reason.

A ``page_size`` that is not a whole number from 1 to 200, or a cursor the list did not give,
is refused (400 naming it) rather than quietly replaced.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import BasePagination, CursorPagination, PageNumberPagination
from rest_framework.request import Request

from sessions.numbers import whole

PAGE_SIZE, MAX_PAGE_SIZE = "page_size", 200


class CheckedPageSize(BasePagination):
    page_size: int | None = 50
    page_size_query_param: str | None = "page_size"
    max_page_size: int | None = MAX_PAGE_SIZE

    def get_page_size(self, request: Request) -> int | None:
        raw = request.query_params.get(PAGE_SIZE)
        if raw is None:
            return self.page_size
        size = whole(raw)
        if size is None or not 1 <= size <= MAX_PAGE_SIZE:
            message = _("Enter a whole number from 1 to %(max)d.") % {"max": MAX_PAGE_SIZE}
            raise ValidationError({PAGE_SIZE: [message]})
        return size

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == PAGE_SIZE:
                parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE}
            elif parameter["name"] == "page":
                parameter["schema"] = {"type": "integer", "minimum": 1}
        return parameters


class Page(CheckedPageSize, PageNumberPagination):
    pass


class NewestFirst(CheckedPageSize, CursorPagination):
    """A cursor page of a list in ``ordering``, whose first key the database has an index
    for (the cursor remembers its last value, and ties are counted past)."""

    def decode_cursor(self, request: Request) -> Any:
        try:
            return super().decode_cursor(request)
        except NotFound:
            message = _("This is not a cursor of this list: follow its next or previous link as given.")
            raise ValidationError({self.cursor_query_param: [message]}) from None


class SessionsNewestFirst(NewestFirst):
    ordering = ("-id",)


class ResultsNewestFirst(NewestFirst):
    # Newest session first, then by place: ``session_order`` is the session's id, read from
    # its table's index (``sessions.api.selectors.results_of_user``).
    ordering = ("-session_order", "rank", "id")
