"""A turn's move sent from the phone of the player whose turn it is (Babel On!, Tower of Babel)."""

from __future__ import annotations

from django.http import QueryDict

from scoring.errors import RuleError, gettext_noop
from sessions.models import GameSession


def check_turn_form(
    data: QueryDict, session: GameSession, *, seat: str, active: str, active_name: str, rule: str, fresh: bool = True
) -> None:
    """Refuse a move from a seat whose turn it is not (naming ``rule``), and, when ``fresh``,
    a form shown before the table moved on (its ``expected_version`` is old). A double tap
    of a form already recorded goes through, to be found as the repeat it is."""
    if already_recorded(data, session):
        return
    if seat != active:
        raise RuleError(gettext_noop("It is {name}'s turn."), field="seat", rule=rule, params={"name": active_name})
    if fresh:
        check_shown_now(data, session)


def check_shown_now(data: QueryDict, session: GameSession) -> None:
    """Refuse a form shown before the table moved on (its ``expected_version`` is old)."""
    if data.get("expected_version") != str(session.version):
        raise RuleError(
            gettext_noop(
                "Someone else changed this session a moment ago. Here is the latest state: check it and send again."
            ),
            field="expected_version",
        )


def already_recorded(data: QueryDict, session: GameSession) -> bool:
    """The form's idempotency key is the session's already: a repeat, to be found as such."""
    key = (data.get("idempotency_key") or "")[:64]
    return bool(key) and session.events.filter(idempotency_key=key).exists()
