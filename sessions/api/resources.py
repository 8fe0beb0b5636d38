"""The group resources of the API: groups, players, game nights, sessions and results.

Reads go through the selectors (only the caller's groups: another group's object answers
404, as on the pages, so ids do not leak); writes go through the services. A POST may send
an ``Idempotency-Key`` header: a repeat answers with the object the first one created.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Model, QuerySet
from django.http import Http404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.errors import RuleError, gettext_noop
from sessions import selectors, services
from sessions.api import filters
from sessions.api import selectors as api_selectors
from sessions.api.pagination import CheckedPageSize, Page, ResultsNewestFirst, SessionsNewestFirst
from sessions.api.serializers import (
    ErrorsOut,
    GroupIn,
    GroupOut,
    NightIn,
    NightOut,
    PlayerIn,
    PlayerOut,
    ResultRowOut,
    SessionIn,
    SessionOut,
    SessionSummaryOut,
)
from sessions.games import get_game
from sessions.models import Group

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="Send the same key again (a retry) to get the first answer instead of a second object.",
)


class ListView(APIView):
    # A view whose GET answers a page of a list: with this, the schema shows the page's shape.
    pagination_class: type[CheckedPageSize] = Page


def paginated(
    request: Request, view: ListView, rows: QuerySet[Any], serializer: type[serializers.BaseSerializer[Any]]
) -> Response:
    page = view.pagination_class()
    found = page.paginate_queryset(rows, request, view=view)
    return page.get_paginated_response(serializer(found, many=True).data)


def checked(serializer: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    incoming = serializer(data=data)
    incoming.is_valid(raise_exception=True)
    return dict(incoming.validated_data)


def account(request: Request) -> User:
    """The caller's account (every view here requires one: IsAuthenticated)."""
    assert isinstance(request.user, User)
    return request.user


def created_once(request: Request, prefix: str, create: Callable[[], Model]) -> int:
    """The new object's id; a repeated Idempotency-Key gives the first one's."""
    key = request.headers.get("Idempotency-Key")
    result = services.run_once(
        user=account(request), key=f"api-{prefix}:{key}" if key else None, action=lambda: {"id": create().pk}
    )
    return int(result["id"])


def member_group(request: Request, group_id: int) -> Group:
    group = api_selectors.group_with_role(request.user, group_id)
    if group is None:
        raise Http404
    return group


class GroupList(ListView):
    @extend_schema(operation_id="groups_list", responses=GroupOut(many=True), tags=["groups"])
    def get(self, request: Request) -> Response:
        return paginated(request, self, api_selectors.groups_with_role(request.user), GroupOut)

    @extend_schema(
        operation_id="groups_create",
        request=GroupIn,
        responses={201: GroupOut, 400: ErrorsOut},
        parameters=[IDEMPOTENCY_KEY],
        tags=["groups"],
    )
    def post(self, request: Request) -> Response:
        data = checked(GroupIn, request.data)
        group_id = created_once(
            request, "group", lambda: services.create_group(owner=account(request), name=data["name"])
        )
        return Response(GroupOut(member_group(request, group_id)).data, status=status.HTTP_201_CREATED)


class GroupDetail(APIView):
    @extend_schema(operation_id="groups_retrieve", responses=GroupOut, tags=["groups"])
    def get(self, request: Request, group_id: int) -> Response:
        return Response(GroupOut(member_group(request, group_id)).data)


class GroupPlayers(ListView):
    @extend_schema(
        operation_id="groups_players_list",
        responses=PlayerOut(many=True),
        description="Every player of the group, archived ones too (their past results name them).",
        tags=["players"],
    )
    def get(self, request: Request, group_id: int) -> Response:
        group = member_group(request, group_id)
        return paginated(request, self, api_selectors.players_of_group(group), PlayerOut)

    @extend_schema(
        operation_id="groups_players_create",
        request=PlayerIn,
        responses={201: PlayerOut, 400: ErrorsOut},
        parameters=[IDEMPOTENCY_KEY],
        tags=["players"],
    )
    def post(self, request: Request, group_id: int) -> Response:
        group = member_group(request, group_id)
        data = checked(PlayerIn, request.data)
        player_id = created_once(request, "player", lambda: services.create_player(group=group, name=data["name"]))
        return Response(
            PlayerOut(selectors.player_of_member(request.user, player_id)).data, status=status.HTTP_201_CREATED
        )


class PlayerDetail(APIView):
    @extend_schema(operation_id="players_retrieve", responses=PlayerOut, tags=["players"])
    def get(self, request: Request, player_id: int) -> Response:
        return Response(PlayerOut(selectors.player_of_member(request.user, player_id)).data)

    @extend_schema(
        operation_id="players_rename",
        request=PlayerIn,
        responses={200: PlayerOut, 400: ErrorsOut},
        description="Rename a player; their seats and results stay theirs.",
        tags=["players"],
    )
    def patch(self, request: Request, player_id: int) -> Response:
        player = selectors.player_of_member(request.user, player_id)
        data = checked(PlayerIn, request.data)
        return Response(PlayerOut(services.rename_player(player=player, name=data["name"])).data)


class GroupNights(ListView):
    @extend_schema(
        operation_id="groups_nights_list",
        parameters=[filters.NightFilter],
        responses={200: NightOut(many=True), 400: ErrorsOut},
        tags=["nights"],
    )
    def get(self, request: Request, group_id: int) -> Response:
        group = member_group(request, group_id)
        wanted = checked(filters.NightFilter, request.query_params)
        return paginated(request, self, filters.filter_nights(api_selectors.nights_of_group(group), wanted), NightOut)

    @extend_schema(
        operation_id="groups_nights_create",
        request=NightIn,
        responses={201: NightOut, 400: ErrorsOut},
        parameters=[IDEMPOTENCY_KEY],
        description="Start a game night (the date defaults to today).",
        tags=["nights"],
    )
    def post(self, request: Request, group_id: int) -> Response:
        group = member_group(request, group_id)
        data = checked(NightIn, request.data)

        def create() -> Model:
            return services.create_night(
                group=group,
                date=data.get("date") or timezone.localdate(),
                place=data["place"],
                notes=data["notes"],
            )

        night_id = created_once(request, "night", create)
        night = selectors.night_of_member(request.user, night_id)
        return Response(NightOut(night).data, status=status.HTTP_201_CREATED)


class NightDetail(APIView):
    @extend_schema(operation_id="nights_retrieve", responses=NightOut, tags=["nights"])
    def get(self, request: Request, night_id: int) -> Response:
        return Response(NightOut(selectors.night_of_member(request.user, night_id)).data)


class NightSessions(APIView):
    @extend_schema(
        operation_id="nights_sessions_create",
        request=SessionIn,
        responses={201: SessionOut, 400: ErrorsOut},
        parameters=[IDEMPOTENCY_KEY],
        description="Add a session to the night: the players (ids of the night's group) in seat order, "
        "their colours (a seat without one gets its player's remembered colour, as on the pages) and the "
        "game's options. The player count is checked against the rules.",
        tags=["sessions"],
    )
    def post(self, request: Request, night_id: int) -> Response:
        night = selectors.night_of_member(request.user, night_id)
        data = checked(SessionIn, request.data)
        by_id = {player.pk: player for player in night.group.players.filter(pk__in=data["players"])}
        missing = [index for index, player_id in enumerate(data["players"]) if player_id not in by_id]
        if missing:
            raise RuleError(gettext_noop("Every player must belong to this group."), field=f"players[{missing[0]}]")
        archived = [index for index, player_id in enumerate(data["players"]) if by_id[player_id].archived]
        if archived:
            name = by_id[data["players"][archived[0]]].name
            raise RuleError(
                gettext_noop("{name} is archived: bring them back first."),
                field=f"players[{archived[0]}]",
                params={"name": name},
            )

        def create() -> Model:
            return services.create_session(
                night=night,
                game=data["game"],
                players=[by_id[player_id] for player_id in data["players"]],
                colours=selectors.seat_colours(
                    night.group_id, get_game(data["game"]), data["players"], given=data["colours"]
                ),
                options=data["options"],
            )

        session_id = created_once(request, "session", create)
        session = selectors.session_of_member(request.user, session_id)
        return Response(SessionOut(session).data, status=status.HTTP_201_CREATED)


class SessionList(ListView):
    pagination_class = SessionsNewestFirst

    @extend_schema(
        operation_id="sessions_list",
        parameters=[filters.SessionFilter],
        responses={200: SessionSummaryOut(many=True), 400: ErrorsOut},
        description="The sessions of your groups, newest first; the full state is on each session's own URL.",
        tags=["sessions"],
    )
    def get(self, request: Request) -> Response:
        wanted = checked(filters.SessionFilter, request.query_params)
        rows = filters.filter_sessions(api_selectors.sessions_of_user(request.user), wanted)
        return paginated(request, self, rows, SessionSummaryOut)


class ResultList(ListView):
    pagination_class = ResultsNewestFirst

    @extend_schema(
        operation_id="results_list",
        parameters=[filters.ResultFilter],
        responses={200: ResultRowOut(many=True), 400: ErrorsOut},
        description="One row per player and finished session of your groups: the newest session first, then by place.",
        tags=["results"],
    )
    def get(self, request: Request) -> Response:
        wanted = checked(filters.ResultFilter, request.query_params)
        rows = filters.filter_results(api_selectors.results_of_user(request.user), wanted)
        return paginated(request, self, rows, ResultRowOut)
