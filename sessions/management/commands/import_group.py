"""Create a group from a JSON export (export_group, or the group page's download)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.errors import RuleError
from sessions.importexport.importer import import_group


class Command(BaseCommand):
    help = "Import a group exported as JSON; the given account becomes its owner."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The JSON export.")
        parser.add_argument("--owner", required=True, help="The username of the new group's owner.")

    def handle(self, *args: Any, **options: Any) -> None:
        owner = get_user_model().objects.filter(username=options["owner"]).first()
        if owner is None:
            raise CommandError(f"No account is called {options['owner']}.")
        try:
            with open(options["file"], encoding="utf-8") as source:
                document = json.load(source)
        except (OSError, ValueError) as unreadable:
            raise CommandError(f"Cannot read {options['file']}: {unreadable}") from unreadable
        try:
            group = import_group(owner=owner, document=document)
        except RuleError as refused:
            raise CommandError(f"{refused.field}: {refused.message}") from refused
        sessions = group.sessions.count()
        self.stdout.write(f"Imported group #{group.pk} '{group.name}' with {sessions} sessions, owned by {owner}.")
