"""The table every benchmark plays at: an account, its group of three, a night, and a Tower of
Babel session started with its first player to move."""

from __future__ import annotations

from typing import Any


def started_tower() -> tuple[Any, Any, list[Any]]:
    """(the owner's account, the session, its players in seat order); a new account each call,
    so one process can set up several tables."""
    import datetime

    from django.contrib.auth.models import User

    from scoring.tower_of_babel import engine as tob
    from sessions import services

    owner = User.objects.create_user(f"bench-{User.objects.count() + 1}", password="bench-pass-123")
    group = services.create_group(owner=owner, name="Bench table")
    players = [services.create_player(group=group, name=name) for name in ("Ada", "Bruno", "Chiara")]
    night = services.create_night(group=group, date=datetime.date.today(), place="Bench")
    session = services.create_session(night=night, game="tower-of-babel", players=players)
    services.append_event(session_id=session.pk, expected_version=0, type="session.start")
    first = str(players[0].pk)
    services.append_event(session_id=session.pk, expected_version=1, type=tob.FIRST_PLAYER, payload={"seat": first})
    return owner, session, players
