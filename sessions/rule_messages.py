"""Engine refusals in the reader's language, naming the field and the rule."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext_lazy

from scoring.errors import RuleError
from sessions.data_texts import shown_params

# The engines' messages that count something, by their English template: the engines know no
# Django, so their plural forms are here, chosen by the parameter each names.
COUNTED: dict[str, Any] = {  # lazy plurals, formatted with the error's params
    "Draw exactly {count} blocks and place every one.": ngettext_lazy(
        "Draw exactly {count} block and place it.", "Draw exactly {count} blocks and place every one.", "count"
    ),
    "Move exactly {count} blocks: take them all off, then add them all.": ngettext_lazy(
        "Move exactly {count} block: take it off, then add it.",
        "Move exactly {count} blocks: take them all off, then add them all.",
        "count",
    ),
    "Only {count} of the {rolled} blocks can be taken off the towers: move {count}.": ngettext_lazy(
        "Only {count} of the {rolled} block can be taken off the towers: move {count}.",
        "Only {count} of the {rolled} blocks can be taken off the towers: move {count}.",
        "rolled",
    ),
    (
        "Only {limit} of the {count} blocks can be drawn ({left} in the bag, room for {room} on "
        "the tower): draw {limit}."
    ): ngettext_lazy(
        "Only {limit} of the {count} block can be drawn ({left} in the bag, room for {room} on the tower): "
        "draw {limit}.",
        "Only {limit} of the {count} blocks can be drawn ({left} in the bag, room for {room} on the tower): "
        "draw {limit}.",
        "count",
    ),
    "This player drew {count} action cards that are still in hand.": ngettext_lazy(
        "This player drew {count} action card that is still in hand.",
        "This player drew {count} action cards that are still in hand.",
        "count",
    ),
}


def describe(error: RuleError) -> str:
    counted = COUNTED.get(error.template)
    template = counted if counted is not None else gettext(error.template)
    message = template.format(**shown_params(error.template, error.params))
    if error.rule:
        return gettext("%(message)s (rule %(rule)s)") % {"message": message, "rule": error.rule}
    return message


def as_dict(error: RuleError) -> dict[str, str | None]:
    return {"field": error.field, "rule": error.rule, "message": describe(error)}
