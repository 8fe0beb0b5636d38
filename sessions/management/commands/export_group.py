"""Write a group out as JSON (everything: players, nights, sessions with their logs, results)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sessions.importexport.export import group_json_chunks
from sessions.models import Group


class Command(BaseCommand):
    help = "Export a group as JSON, for import_group on this or another instance."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("group_id", type=int)
        parser.add_argument("--output", "-o", help="The file to write (default: standard output).")

    def handle(self, *args: Any, **options: Any) -> None:
        group = Group.objects.filter(pk=options["group_id"]).first()
        if group is None:
            raise CommandError(f"No group has id {options['group_id']}.")
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as out:
                out.writelines(group_json_chunks(group))
        else:
            for chunk in group_json_chunks(group):
                self.stdout.write(chunk, ending="")
