"""Recompute every statistic (ratings, history, tallies, game totals) from the Results."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from sessions.models import Group, RatedSession
from sessions.statistics import services


class Command(BaseCommand):
    help = "Recompute the statistics of every group (or of the given groups) from the Results."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--group", type=int, action="append", help="only this group's id (repeatable)")

    def handle(self, *args: Any, **options: Any) -> None:
        group_ids = options["group"] or list(Group.objects.order_by("pk").values_list("pk", flat=True))
        start = time.perf_counter()
        for group_id in group_ids:
            services.rebuild_group(group_id=group_id)
        sessions = RatedSession.objects.filter(group_id__in=group_ids).count()
        groups = len(group_ids)
        self.stdout.write(
            f"Rebuilt {groups} group{'s' * (groups != 1)}, {sessions} session{'s' * (sessions != 1)} "
            f"in {time.perf_counter() - start:.1f} s."
        )
