"""Page-number pagination for every API list: ``?page=2&page_size=20`` (at most 200).

A ``page_size`` that is not a whole number from 1 to 200 is refused (400 naming it) rather
than quietly replaced by the default.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

from sessions.numbers import whole


class Page(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request: Request) -> int:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        size = whole(raw)
        if size is None or not 1 <= size <= self.max_page_size:
            message = _("Enter a whole number from 1 to %(max)d.") % {"max": self.max_page_size}
            raise ValidationError({self.page_size_query_param: [message]})
        return size

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": self.max_page_size}
            elif parameter["name"] == self.page_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 1}
        return parameters
