"""Engine refusals in the reader's language, naming the field and the rule."""

from __future__ import annotations

from django.utils.translation import gettext

from scoring.errors import RuleError
from sessions.data_texts import shown_params


def describe(error: RuleError) -> str:
    message = gettext(error.template).format(**shown_params(error.template, error.params))
    if error.rule:
        return gettext("%(message)s (rule %(rule)s)") % {"message": message, "rule": error.rule}
    return message


def as_dict(error: RuleError) -> dict[str, str | None]:
    return {"field": error.field, "rule": error.rule, "message": describe(error)}
