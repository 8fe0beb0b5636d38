"""Export and import through the API: the group as JSON, its results as CSV, a JSON export
back into a new group, and a BG Stats export into a group."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.parsers import MultiPartParser
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from sessions import selectors
from sessions.api.parsers import JSONParser  # refuses a body nested deeper than any export
from sessions.api.resources import account, member_group
from sessions.api.serializers import ErrorsOut, GroupOut
from sessions.importexport import bgstats
from sessions.importexport.export import group_document, results_csv
from sessions.importexport.forms import JsonUploadForm
from sessions.importexport.importer import import_group
from sessions.models import Group, Membership
from sessions.views.exports import filename

UPLOAD = {
    "application/json": OpenApiTypes.OBJECT,
    "multipart/form-data": {
        "type": "object",
        "properties": {"file": {"type": "string", "format": "binary", "description": "The JSON file (up to 50 MB)."}},
        "required": ["file"],
    },
}


def uploaded_document(request: Request) -> Any:
    """The JSON body, or the JSON file of a multipart upload (for files above the 2.5 MB body limit)."""
    if request.content_type.startswith("multipart/form-data"):
        form = JsonUploadForm(files=request.FILES)
        if not form.is_valid():
            raise serializers.ValidationError({"file": [str(message) for message in form.errors["file"]]})
        return form.cleaned_data["file"]
    return request.data


class CsvRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> Any:
        return data


def owned_group(request: Request, group_id: int) -> Group:
    """The group if the caller owns it; 404 for an outsider, 403 for a member."""
    membership = selectors.membership(request.user, group_id)
    if membership.role != Membership.OWNER:
        raise PermissionDenied
    return membership.group


class GroupExport(APIView):
    @extend_schema(
        operation_id="groups_export",
        summary="The whole group as JSON (owner only)",
        responses={200: OpenApiTypes.OBJECT, 403: OpenApiResponse(description="Only the group's owner.")},
        description="The whole group as JSON (players, nights, sessions with their event logs, seats, options and "
        "results), for POST /api/v1/groups/import/ here or elsewhere. Owner only: the logs hold secret offers.",
        tags=["import and export"],
    )
    def get(self, request: Request, group_id: int) -> Response:
        return Response(group_document(owned_group(request, group_id)))


class NamedFormatOnly(DefaultContentNegotiation):
    """DRF answers 404 to ``?format=xml`` but ignores an empty ``?format=``, which is no more
    one of the formats the schema lists: 404 too."""

    def select_renderer(self, request: Request, renderers: Any, format_suffix: str | None = None) -> Any:
        if request.query_params.get(self.settings.URL_FORMAT_OVERRIDE) == "":
            raise Http404
        return super().select_renderer(request, renderers, format_suffix)


class GroupResultsCsv(APIView):
    renderer_classes = [JSONRenderer, CsvRenderer]
    content_negotiation_class = NamedFormatOnly

    @extend_schema(
        operation_id="groups_results_csv",
        summary="The group's results as CSV",
        responses={(200, "text/csv"): OpenApiTypes.STR},
        description="One row per player and finished session: date, place, session, game, finished_at, player, "
        "rank, score.",
        tags=["import and export"],
    )
    def get(self, request: Request, group_id: int) -> HttpResponse:
        group = member_group(request, group_id)
        response = HttpResponse(results_csv(group), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{filename(group, "csv")}"'
        return response


class GroupImport(APIView):
    parser_classes = [JSONParser, MultiPartParser]

    @extend_schema(
        operation_id="groups_import",
        summary="A new group from a group export",
        request=UPLOAD,
        responses={201: GroupOut, 400: ErrorsOut},
        description="A new group from a group export (GET /api/v1/groups/{id}/export/); you become its owner. "
        "Every session's log is replayed and must give the exported results, or nothing is imported. "
        "Send the file as the JSON body, or as `file` in a multipart upload when it is larger than 2.5 MB.",
        tags=["import and export"],
    )
    def post(self, request: Request) -> Response:
        group = import_group(owner=account(request), document=uploaded_document(request))
        return Response(GroupOut(member_group(request, group.pk)).data, status=status.HTTP_201_CREATED)


class RefusedPlayOut(serializers.Serializer):
    uuid = serializers.CharField()
    reason = serializers.CharField()


class RenamedPlayerOut(serializers.Serializer):
    name = serializers.CharField(help_text="The name in the file, which another player of the file has too.")
    renamed = serializers.CharField(help_text="The name of this player here: the name numbered, Dan (2).")


class BgStatsReportOut(serializers.Serializer):
    sessions = serializers.ListField(child=serializers.IntegerField(), help_text="The new sessions' ids.")
    players = serializers.ListField(child=serializers.CharField(), help_text="The players added.")
    already_there = serializers.IntegerField(help_text="Plays imported before (skipped).")
    ignored = serializers.IntegerField(help_text="Plays marked ignored in BG Stats.")
    other_games = serializers.IntegerField(help_text="Plays of other games (not kept).")
    refused = RefusedPlayOut(many=True)
    anonymous = serializers.IntegerField(
        help_text="Seats of BG Stats' anonymous players in the plays imported: each is an Anonymous seat"
        " (Anonymous (2) for a second one at the same table)."
    )
    renamed = RenamedPlayerOut(many=True, help_text="Players of the file numbered to tell them apart.")


class GroupImportBgStats(APIView):
    parser_classes = [JSONParser, MultiPartParser]

    @extend_schema(
        operation_id="groups_import_bgstats",
        summary="Import the plays of a BG Stats export into the group (owner only)",
        request=UPLOAD,
        responses={200: BgStatsReportOut, 400: ErrorsOut, 403: OpenApiResponse(description="Only the owner.")},
        description="The plays of a BG Stats JSON export (players, games, locations, plays) into the group; "
        "a second import of the same plays adds nothing.",
        tags=["import and export"],
    )
    def post(self, request: Request, group_id: int) -> Response:
        group = owned_group(request, group_id)
        report = bgstats.import_plays(group=group, document=uploaded_document(request), user=account(request))
        body = {
            "sessions": report.sessions,
            "players": report.players,
            "already_there": report.already_there,
            "ignored": report.ignored,
            "other_games": len(report.other_games),
            "refused": [{"uuid": uuid, "reason": reason} for uuid, reason in report.refused],
            "anonymous": report.anonymous,
            "renamed": [{"name": name, "renamed": renamed} for name, renamed in report.renamed],
        }
        return Response(BgStatsReportOut(body).data)
