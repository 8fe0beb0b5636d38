"""The ratings held to account: how well their chances before each game foretold who won."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render

from sessions import selectors
from sessions.http import MemberRequest
from sessions.statistics.calibration import group_calibration
from sessions.statistics.ratings import MIN_RATED_PLAYS


@login_required
def calibration(request: MemberRequest, group_id: int) -> HttpResponse:
    group = selectors.membership(request.user, group_id).group
    context = {"group": group, "calibration": group_calibration(group.pk), "min_rated_plays": MIN_RATED_PLAYS}
    return render(request, "statistics/calibration.html", context)
