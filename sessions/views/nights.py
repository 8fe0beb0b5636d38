"""Game nights and adding a session to one."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from scoring.errors import RuleError
from sessions import selectors, services
from sessions.forms import IdempotentForm, NightForm, SessionForm
from sessions.games import GAMES, Game
from sessions.http import MemberRequest
from sessions.models import GameNight, Player
from sessions.night_summary import night_summary
from sessions.rule_messages import describe


@login_required
@require_POST
def night_new(request: MemberRequest, group_id: int) -> HttpResponse:
    group = selectors.membership(request.user, group_id).group
    form = NightForm(request.POST)
    if not form.is_valid():
        return render(request, "nights/new.html", {"group": group, "form": form}, status=400)
    data = form.cleaned_data

    def create() -> dict[str, str]:
        night = services.create_night(group=group, date=data["date"], place=data["place"], notes=data["notes"])
        return {"redirect": reverse("night", args=[night.pk])}

    try:
        result = services.run_once(user=request.user, key=data["idempotency_key"], action=create)
    except RuleError as error:  # a place like that of the group's other night that day
        form.add_error("place", describe(error))
        return render(request, "nights/new.html", {"group": group, "form": form}, status=400)
    return redirect(result["redirect"])


@login_required
def night(request: MemberRequest, night_id: int) -> HttpResponse:
    night = selectors.night_of_member(request.user, night_id)
    context = {
        "night": night,
        "group": night.group,
        "sessions": selectors.sessions_of_night(night),
        "games": GAMES,
        "summary": night_summary(night.pk),
    }
    return render(request, "nights/detail.html", context)


@login_required
def session_new(request: MemberRequest, night_id: int) -> HttpResponse:
    night = selectors.night_of_member(request.user, night_id)
    slug = request.GET.get("game", "")
    tables = night.group.edition_tables  # a group's table may allow fewer players (TB-1)
    if slug not in GAMES:
        games = [game.for_table(tables.get(game.slug)) for game in GAMES.values()]
        return render(request, "nights/pick_game.html", {"night": night, "games": games})
    game = GAMES[slug].for_table(tables.get(slug))
    players = list(selectors.players_of(night.group))
    initial: dict[str, str] = {}
    if request.method != "POST":  # the night's last table, with each player's colour
        for index, (player_id, colour) in enumerate(_seat_defaults(night, game, players)):
            initial |= {f"seat_{index}": str(player_id), f"colour_{index}": colour}
    form = SessionForm(request.POST or None, game=game, players=players, initial=initial)
    if request.method == "POST" and form.is_valid():
        by_id = {p.pk: p for p in players}
        seats = form.seats()

        def create() -> dict[str, str]:
            session = services.create_session(
                night=night,
                game=game.slug,
                players=[by_id[player_id] for player_id, _colour in seats],
                colours=[colour for _player_id, colour in seats],
                options=form.options(),
            )
            if "start" in request.POST:  # the one tap from the set-up to the board
                services.start_session(session_id=session.pk, expected_version=0, author=request.user)
            return {"redirect": reverse("session", args=[session.pk])}

        try:
            result = services.run_once(user=request.user, key=form.cleaned_data["idempotency_key"], action=create)
        except RuleError as error:
            form.add_error(None, describe(error))
        else:
            return redirect(result["redirect"])
    context = {"night": night, "game": game, "form": form, "has_players": bool(players)}
    return render(request, "nights/new_session.html", context, status=400 if form.errors else 200)


def _seat_defaults(night: GameNight, game: Game, players: list[Player]) -> list[tuple[int, str]]:
    """The night's last table (``selectors.seat_defaults``); for a group's first game, which has
    none, its players in the order listed, as many as the game seats with its default options."""
    defaults = selectors.seat_defaults(night, game)
    if defaults:
        return defaults
    options = game.clean_options({})
    most = min(len(players), game.max_players)
    count = next((n for n in range(most, game.min_players - 1, -1) if game.allows(n, options)), 0)
    first = [player.pk for player in players[:count]]
    return list(zip(first, selectors.seat_colours(night.group_id, game, first), strict=True))


@login_required
@require_POST
def session_rematch(request: MemberRequest, session_id: int) -> HttpResponse:
    """The finished session's game again, started (a repeated key, or a second device, gets the
    first rematch)."""
    session = selectors.session_of_member(request.user, session_id)
    form = IdempotentForm(request.POST)
    form.is_valid()

    def create() -> dict[str, str]:
        rematch = services.rematch_session(session=session, author=request.user).session
        return {"redirect": reverse("session", args=[rematch.pk])}

    try:
        result = services.run_once(user=request.user, key=form.cleaned_data.get("idempotency_key"), action=create)
    except RuleError as error:
        messages.error(request, describe(error))
        return redirect("session", session_id=session.pk)
    return redirect(result["redirect"])
