"""The API's JSON parser: DRF's, refusing documents nested deeper than any real request.

Python's JSON decoder raises RecursionError (a 500) on a document nested about 1,000 deep,
and a document a little shallower than that still reaches serializers, copies and the
database's JSON encoder, which recurse too. Every body is parsed here first: a document
deeper than ``jsondepth.MAX_DEPTH`` is a ParseError, which ``sessions.api.errors`` answers with the
uniform 400 naming the field ``body``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from scoring.errors import RuleError
from sessions.importexport.jsondepth import MAX_DEPTH, check_depth


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None) -> Any:
        too_deep = ParseError(_("The JSON document is nested more than %(depth)d levels deep.") % {"depth": MAX_DEPTH})
        try:
            document = super().parse(stream, media_type, parser_context)
        except RecursionError as error:
            raise too_deep from error
        try:
            check_depth(document)
        except RuleError as error:
            raise too_deep from error
        return document
