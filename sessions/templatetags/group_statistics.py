"""The group page's statistics section (issue 44), as a tag: ``{% group_statistics group %}``.

The group page's view is not the statistics' (sessions/views/groups.py), so the section reads
its own figures: two queries (``overview.group_overview``), whatever the group's size.
"""

from __future__ import annotations

from typing import Any

from django import template

from sessions.games import GAMES
from sessions.models import Group
from sessions.statistics import cards, overview

register = template.Library()


@register.inclusion_tag("statistics/_group_overview.html")
def group_statistics(group: Group) -> dict[str, Any]:
    return {
        "group": group,
        "cards": cards.group_cards(overview.group_overview(group), group_id=group.pk),
        "games": GAMES.values(),
    }
