"""The group resources of the API: groups, players, game nights, sessions and results.

Reads go through the selectors (only the caller's groups: another group's object answers
404, as on the pages, so ids do not leak); writes go through the services. A POST may send
an ``Idempotency-Key`` header: a repeat answers with the object the first one created
(``sessions.api.idempotency``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Model, QuerySet
from django.http import Http404
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.errors import RuleError, gettext_noop
from sessions import privacy, selectors, services
from sessions.api import filters
from sessions.api import selectors as api_selectors
from sessions.api.idempotency import KEY_REUSED, PARAMETER, REPLAYED_HEADER, created_once, replay_headers
from sessions.api.pagination import CheckedPageSize, NewestFirst, Page, ResultsNewestFirst, SessionsNewestFirst
from sessions.api.serializers import (
    ErrorsOut,
    GroupIn,
    GroupOut,
    NightIn,
    NightOut,
    PlayerChangeIn,
    PlayerIn,
    PlayerOut,
    ResultRowOut,
    SessionIn,
    SessionOut,
    SessionSummaryOut,
)
from sessions.games import get_game
from sessions.models import Group

PRIVACY_REFUSED = "hidden_from_leaderboards from a member who is neither the group's owner nor the player's account."


class PrivacyRefused(PermissionDenied):
    """403, naming the switch (``sessions.api.errors``: the field a refusal is about)."""

    field = "hidden_from_leaderboards"


# A POST that creates: its Idempotency-Key and the header marking a replay (KEY_REUSED: its 422).
IDEMPOTENCY_KEY = [PARAMETER, REPLAYED_HEADER]


class ListView(APIView):
    # A view whose GET answers a page of a list: with this, the schema shows the page's shape.
    pagination_class: type[CheckedPageSize] = Page


def paginated(
    request: Request,
    view: ListView,
    rows: QuerySet[Any],
    serializer: type[serializers.BaseSerializer[Any]],
    wanted: dict[str, Any] | None = None,
) -> Response:
    """A page of ``rows``; a cursor page is bound to the filters ``wanted`` (a cursor of
    another filtering is refused)."""
    page = view.pagination_class()
    if isinstance(page, NewestFirst):
        page.bind(wanted or {})
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


def member_group(request: Request, group_id: int) -> Group:
    group = api_selectors.group_with_role(request.user, group_id)
    if group is None:
        raise Http404
    return group


class GroupList(ListView):
    @extend_schema(
        operation_id="groups_list",
        summary="Your groups, with your role in each",
        responses=GroupOut(many=True),
        tags=["groups"],
    )
    def get(self, request: Request) -> Response:
        return paginated(request, self, api_selectors.groups_with_role(request.user), GroupOut)

    @extend_schema(
        operation_id="groups_create",
        summary="Create a group (you own it)",
        request=GroupIn,
        responses={201: GroupOut, 400: ErrorsOut, **KEY_REUSED},
        parameters=IDEMPOTENCY_KEY,
        tags=["groups"],
    )
    def post(self, request: Request) -> Response:
        data = checked(GroupIn, request.data)
        group_id, replayed = created_once(
            request,
            user=account(request),
            scope="group",
            data=data,
            create=lambda: services.create_group(owner=account(request), name=data["name"]),
        )
        body = GroupOut(member_group(request, group_id)).data
        return Response(body, status=status.HTTP_201_CREATED, headers=replay_headers(replayed))


class GroupDetail(APIView):
    @extend_schema(operation_id="groups_retrieve", summary="A group of yours", responses=GroupOut, tags=["groups"])
    def get(self, request: Request, group_id: int) -> Response:
        return Response(GroupOut(member_group(request, group_id)).data)


class GroupPlayers(ListView):
    @extend_schema(
        operation_id="groups_players_list",
        summary="The group's players",
        responses=PlayerOut(many=True),
        description="Every player of the group, archived ones too (their past results name them).",
        tags=["players"],
    )
    def get(self, request: Request, group_id: int) -> Response:
        group = member_group(request, group_id)
        return paginated(request, self, api_selectors.players_of_group(group), PlayerOut)

    @extend_schema(
        operation_id="groups_players_create",
        summary="Add a player to the group",
        request=PlayerIn,
        responses={201: PlayerOut, 400: ErrorsOut, **KEY_REUSED},
        parameters=IDEMPOTENCY_KEY,
        tags=["players"],
    )
    def post(self, request: Request, group_id: int) -> Response:
        group = member_group(request, group_id)
        data = checked(PlayerIn, request.data)
        player_id, replayed = created_once(
            request,
            user=account(request),
            scope="player",
            data=data,
            create=lambda: services.create_player(group=group, name=data["name"]),
        )
        body = PlayerOut(selectors.player_of_member(request.user, player_id)).data
        return Response(body, status=status.HTTP_201_CREATED, headers=replay_headers(replayed))


class PlayerDetail(APIView):
    @extend_schema(
        operation_id="players_retrieve", summary="A player of one of your groups", responses=PlayerOut, tags=["players"]
    )
    def get(self, request: Request, player_id: int) -> Response:
        return Response(PlayerOut(selectors.player_of_member(request.user, player_id)).data)

    @extend_schema(
        operation_id="players_rename",
        summary="Rename a player, or hide them from the leaderboards",
        request=PlayerChangeIn,
        responses={200: PlayerOut, 400: ErrorsOut, 403: OpenApiResponse(ErrorsOut, description=PRIVACY_REFUSED)},
        description="Rename a player (their seats and results stay theirs), and/or set "
        "`hidden_from_leaderboards` (the group's owner or the player's own account only). A refused switch "
        "renames nobody.",
        tags=["players"],
    )
    def patch(self, request: Request, player_id: int) -> Response:
        player = selectors.player_of_member(request.user, player_id)
        data = checked(PlayerChangeIn, request.data)
        with transaction.atomic():
            if "hidden_from_leaderboards" in data:
                hidden = data["hidden_from_leaderboards"]
                try:
                    privacy.set_hidden_from_leaderboards(
                        group=player.group, player=player, hidden=hidden, by=account(request)
                    )
                except privacy.NotAllowed as refused:
                    raise PrivacyRefused(str(refused)) from None
            if "name" in data:
                player = services.rename_player(player=player, name=data["name"])
        return Response(PlayerOut(player).data)


class GroupNights(ListView):
    @extend_schema(
        operation_id="groups_nights_list",
        summary="The group's game nights, newest first",
        parameters=[filters.NightFilter],
        responses={200: NightOut(many=True), 400: ErrorsOut},
        tags=["nights"],
    )
    def get(self, request: Request, group_id: int) -> Response:
        group = member_group(request, group_id)
        wanted = checked(filters.NightFilter, filters.query(request))
        return paginated(request, self, filters.filter_nights(api_selectors.nights_of_group(group), wanted), NightOut)

    @extend_schema(
        operation_id="groups_nights_create",
        summary="Start a game night",
        request=NightIn,
        responses={201: NightOut, 400: ErrorsOut, **KEY_REUSED},
        parameters=IDEMPOTENCY_KEY,
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

        night_id, replayed = created_once(request, user=account(request), scope="night", data=data, create=create)
        night = selectors.night_of_member(request.user, night_id)
        return Response(NightOut(night).data, status=status.HTTP_201_CREATED, headers=replay_headers(replayed))


class NightDetail(APIView):
    @extend_schema(
        operation_id="nights_retrieve",
        summary="A game night of one of your groups",
        responses=NightOut,
        tags=["nights"],
    )
    def get(self, request: Request, night_id: int) -> Response:
        return Response(NightOut(selectors.night_of_member(request.user, night_id)).data)


class NightSessions(APIView):
    @extend_schema(
        operation_id="nights_sessions_create",
        summary="Add a session of a game to the night",
        request=SessionIn,
        responses={201: SessionOut, 400: ErrorsOut, **KEY_REUSED},
        parameters=IDEMPOTENCY_KEY,
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

        session_id, replayed = created_once(request, user=account(request), scope="session", data=data, create=create)
        session = selectors.session_of_member(request.user, session_id)
        return Response(SessionOut(session).data, status=status.HTTP_201_CREATED, headers=replay_headers(replayed))


class SessionList(ListView):
    pagination_class = SessionsNewestFirst

    @extend_schema(
        operation_id="sessions_list",
        summary="The sessions of your groups, newest first (cursor pages)",
        parameters=[filters.SessionFilter],
        responses={200: SessionSummaryOut(many=True), 400: ErrorsOut},
        description="The sessions of your groups, newest first; the full state is on each session's own URL.",
        tags=["sessions"],
    )
    def get(self, request: Request) -> Response:
        wanted = checked(filters.SessionFilter, filters.query(request))
        rows = filters.filter_sessions(api_selectors.sessions_of_user(request.user), wanted)
        return paginated(request, self, rows, SessionSummaryOut, wanted)


class ResultList(ListView):
    pagination_class = ResultsNewestFirst

    @extend_schema(
        operation_id="results_list",
        summary="The results of your groups' finished sessions (cursor pages)",
        parameters=[filters.ResultFilter],
        responses={200: ResultRowOut(many=True), 400: ErrorsOut},
        description="One row per player and finished session of your groups: the newest session first, then by place.",
        tags=["results"],
    )
    def get(self, request: Request) -> Response:
        wanted = checked(filters.ResultFilter, filters.query(request))
        rows = filters.filter_results(api_selectors.results_of_user(request.user), wanted)
        return paginated(request, self, rows, ResultRowOut, wanted)
