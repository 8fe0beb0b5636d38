"""Page-number pagination for every API list: ``?page=2&page_size=20`` (at most 200)."""

from __future__ import annotations

from rest_framework.pagination import PageNumberPagination


class Page(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
