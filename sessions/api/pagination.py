"""Pagination of the API lists, with ``?page_size=`` (50 by default, at most 200).

The short lists (groups, players, nights) are numbered pages with a ``count``
(``?page=2``). The two that grow with every game played, sessions and results, are cursor
pages (``?cursor=``, followed from the ``next`` and ``previous`` links): a page is read
from an index in order, so the last page of 100,000 sessions costs what the first does,
where an OFFSET read every row before it; they give no ``count`` for the same reason.

A ``page_size`` that is not a whole number from 1 to 200, or a cursor the list did not give,
is refused (400 naming it) rather than quietly replaced.

A cursor carries a hash of the filters of the list that gave it (issue 42, C): sent with
other filters (or none, where it had some), it is refused (400 naming ``cursor``) rather than
walking another list from the middle. The ``next`` and ``previous`` links keep the filters in
their query string; ``next_cursor`` and ``previous_cursor`` give the bare cursors, for clients
that send the filters themselves.
"""

from __future__ import annotations

from base64 import b64decode, b64encode
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from django.utils.translation import gettext as _
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import BasePagination, Cursor, CursorPagination, PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from sessions.cursors import filters_hash
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
    for (the cursor remembers its last value, and ties are counted past), bound to the
    list's filters."""

    FILTERS_TOKEN = "f"
    bound = ""  # the hash of this read's filters

    def bind(self, filters: dict[str, Any]) -> None:
        """The filters of this read: its cursors carry them, and a cursor of others is refused."""
        self.bound = filters_hash(filters)

    def decode_cursor(self, request: Request) -> Cursor | None:
        try:
            cursor: Cursor | None = super().decode_cursor(request)
            if cursor is None:
                return None
            tokens = parse_qs(b64decode(request.query_params[self.cursor_query_param]).decode("ascii"))
        except (NotFound, ValueError):
            raise self._not_ours() from None
        if cursor.position is not None and whole(str(cursor.position)) is None:  # every ordering's first key is an id
            raise self._not_ours()
        if tokens.get(self.FILTERS_TOKEN, [""])[0] != self.bound:
            message = _(
                "This cursor is of the list with other filters: send it with the filters of the page that gave it "
                "(its next and previous links have them), or start again without a cursor."
            )
            raise ValidationError({self.cursor_query_param: [message]})
        return cursor

    def encode_cursor(self, cursor: Cursor) -> str:
        # DRF's, with the filters' hash beside the offset, direction and position.
        tokens: dict[str, str | None] = {
            "o": str(cursor.offset) if cursor.offset else None,
            "r": "1" if cursor.reverse else None,
            "p": None if cursor.position is None else str(cursor.position),
            self.FILTERS_TOKEN: self.bound or None,
        }
        querystring = urlencode({name: value for name, value in tokens.items() if value is not None})
        encoded = b64encode(querystring.encode("ascii")).decode("ascii")
        return replace_query_param(str(self.base_url), self.cursor_query_param, encoded)

    def get_paginated_response(self, data: Any) -> Response:
        next_link, previous_link = self.get_next_link(), self.get_previous_link()
        return Response(
            {
                "next": next_link,
                "previous": previous_link,
                "next_cursor": self._cursor_in(next_link),
                "previous_cursor": self._cursor_in(previous_link),
                "results": data,
            }
        )

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = super().get_paginated_response_schema(schema)
        for name, link in (("next_cursor", "next"), ("previous_cursor", "previous")):
            answer["properties"][name] = {
                "type": "string",
                "nullable": True,
                "description": f"The cursor of the `{link}` link alone: send it as `cursor` with the same filters.",
            }
        return answer

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.cursor_query_param:
                parameter["description"] = (
                    "A page's next_cursor or previous_cursor, sent with the filters of that page "
                    "(a cursor of other filters is a 400)."
                )
        return parameters

    def _cursor_in(self, link: str | None) -> str | None:
        if link is None:
            return None
        return parse_qs(urlsplit(link).query)[self.cursor_query_param][0]

    def _not_ours(self) -> ValidationError:
        message = _("This is not a cursor of this list: follow its next or previous link as given.")
        return ValidationError({self.cursor_query_param: [message]})


class SessionsNewestFirst(NewestFirst):
    ordering = ("-id",)


class ResultsNewestFirst(NewestFirst):
    # Newest session first, then by place: ``session_order`` is the session's id, read from
    # its table's index (``sessions.api.selectors.results_of_user``).
    ordering = ("-session_order", "rank", "id")
