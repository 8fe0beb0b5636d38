"""Groups, players, game nights and sessions with their append-only event log.

A session's state is the replay of its events through the game's rules
(``scoring.session``); ``GameSession.state`` is a cache of that replay, and
``GameSession.version`` is the sequence number of the last event, which every write must
name (optimistic concurrency).
"""

from __future__ import annotations

import json
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from knox.models import AbstractAuthToken

from scoring import session as core
from sessions.games import game_name


class Group(models.Model):
    name = models.CharField(_("name"), max_length=80)
    created_at = models.DateTimeField(default=timezone.now)
    # Per game, the group's values for components the rules digest marks unverified
    # ("our board says ..."). A session copies them when it is created.
    edition_tables = models.JSONField(default=dict, blank=True)
    # Finished sessions may be pending beyond the one an update is queued for (an update that
    # could not be queued, an import): the group's next update counts them all, in order.
    statistics_behind = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("group")
        verbose_name_plural = _("groups")

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    OWNER, MEMBER = "owner", "member"
    ROLES = [(OWNER, _("owner")), (MEMBER, _("member"))]

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=10, choices=ROLES, default=MEMBER)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["group", "user"], name="one_membership_per_user")]

    def __str__(self) -> str:
        return f"{self.user} in {self.group} ({self.role})"


class Player(models.Model):
    """Someone who plays at the group's table. History links by id, so a rename keeps it."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=40)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="players"
    )
    created_at = models.DateTimeField(default=timezone.now)
    # Set when a player with history is removed: off the seat lists, their results kept.
    archived_at = models.DateTimeField(_("archived at"), null=True, blank=True)
    # Privacy (``sessions.privacy``): left out of the leaderboards and of other players'
    # rival and nemesis, their games and results kept as played.
    hidden_from_leaderboards = models.BooleanField(_("hidden from the leaderboards"), default=False)
    # Set once, when the name became a label ("Player 3"): it cannot be undone.
    anonymised_at = models.DateTimeField(_("anonymised at"), null=True, blank=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [models.UniqueConstraint(fields=["group", "name"], name="unique_player_name_in_group")]

    def __str__(self) -> str:
        return self.name

    @property
    def archived(self) -> bool:
        return self.archived_at is not None


class GameNight(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="nights")
    date = models.DateField(_("date"), default=timezone.localdate)
    place = models.CharField(pgettext_lazy("location", "place"), max_length=80, blank=True)
    notes = models.TextField(_("notes"), blank=True, max_length=2000)
    created_at = models.DateTimeField(default=timezone.now)
    # Bumped (with F(), in the same transaction) by every change a phone or the host's page
    # shows that is not a session event: join codes, seat claims and requests. The live
    # regions' ETags include it beside the session's version.
    live_revision = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-date", "-id"]

    def __str__(self) -> str:
        return f"{self.date} {self.place}".strip()


class GameSession(models.Model):
    STATUSES = [
        (core.SETUP, _("setting up")),
        (core.PLAYING, _("playing")),
        (core.SCORING, _("scoring")),
        (core.FINISHED, _("finished")),
        (core.ABANDONED, _("abandoned")),
    ]

    night = models.ForeignKey(GameNight, on_delete=models.CASCADE, related_name="sessions")
    # Denormalised from the night so that every access check is one indexed filter (the
    # index session_group_newest, which begins with it).
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="sessions", db_index=False)
    game = models.CharField(_("game"), max_length=30)
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=STATUSES, default=core.SETUP, db_index=True)
    # What the deal and the app's dice are drawn from (hex). Never sent before the session is
    # finished, so no member can rebuild a hand or foresee a roll; published then.
    secret = models.CharField(max_length=64)
    version = models.PositiveIntegerField(default=0)
    state = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The finished session this one plays again. One to one: two devices tapping "Rematch" at
    # the same moment must land in the same new session (``services.rematch_session``).
    rematch_of = models.OneToOneField("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch")

    class Meta:
        ordering = ["-created_at", "-id"]
        # The play log: a group's finished sessions, newest first (a sort of the whole group without it).
        indexes = [
            models.Index(fields=["group", "status", "-finished_at", "-id"], name="session_play_log"),
            # The API's sessions and results of a group, newest first: read in order, where the
            # group's index alone made PostgreSQL walk every session of the other groups.
            models.Index(fields=["group", "-id"], name="session_group_newest"),
            # A statistics rebuild reads a group's finished sessions in the order of play
            # (``statistics.services.load_matches``): in this order, its first rows come at
            # once and not after a sort of the whole group (0.5 s at 100,000 sessions).
            models.Index(
                F("group"), F("status"), Coalesce("finished_at", "updated_at"), F("id"), name="session_played_order"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.pk}"

    @property
    def is_open(self) -> bool:
        return self.status in core.OPEN_STATUSES

    @property
    def game_name(self) -> str:
        return game_name(self.game)

    @property
    def seed(self) -> int:
        """The engines' random seed: the secret read as a number (the same replay, always)."""
        return int(self.secret, 16)

    @property
    def published_secret(self) -> str | None:
        """The secret once the session is finished, so the table can check the deal; else None.
        Not when abandoned: an undo opens an abandoned session again."""
        return self.secret if self.status == core.FINISHED else None


def new_secret() -> str:
    """256 random bits: far beyond guessing from the hands and rolls a player sees."""
    return secrets.token_hex(32)


class Seat(models.Model):
    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    order = models.PositiveSmallIntegerField()
    colour = models.CharField(_("colour"), max_length=20, blank=True)

    class Meta:
        ordering = ["order"]
        constraints = [
            models.UniqueConstraint(fields=["session", "order"], name="unique_seat_order"),
            models.UniqueConstraint(fields=["session", "player"], name="one_seat_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.order + 1}: {self.player_id}"

    @property
    def key(self) -> str:
        """How the engines name this seat."""
        return str(self.player_id)


class SessionEvent(models.Model):
    """One entry of a session's append-only log. Never updated, never deleted."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=40)
    payload = models.JSONField(default=dict, blank=True)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    # Who wrote it when no account did (a guest joined by code).
    author_label = models.CharField(max_length=40, blank=True)
    # NULL, not "": events without a key must not collide in the unique constraint.
    idempotency_key = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["session", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seq"], name="unique_event_seq"),
            models.UniqueConstraint(fields=["session", "idempotency_key"], name="unique_event_idempotency_key"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.type}"

    def as_core_event(self) -> core.Event:
        return core.Event(seq=self.seq, type=self.type, payload=self.payload)


class StateSnapshot(models.Model):
    """The state after the first ``depth`` events still in effect, kept every
    ``core.CHECKPOINT_EVERY`` of them, so that an undo replays the moves since the nearest one
    and not the whole log. Every row is a prefix of the session's events in effect: an undo
    deletes those past its new depth."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="snapshots")
    depth = models.PositiveIntegerField()
    state = models.JSONField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "depth"], name="unique_snapshot_depth")]

    def __str__(self) -> str:
        return f"{self.session_id} after {self.depth}"


class Result(models.Model):
    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="results")
    score = models.IntegerField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField()
    breakdown = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["rank", "player__name"]
        constraints = [models.UniqueConstraint(fields=["session", "player"], name="one_result_per_player")]

    def __str__(self) -> str:
        return f"{self.rank}. {self.player_id} ({self.score})"


class JoinCode(models.Model):
    """A short code that lets phones without an account follow a game night.

    A phone joins the night once and follows each of its sessions. The code works until it
    is revoked (or replaced), or until ``JOIN_CODE_HOURS_AFTER_LAST_GAME`` hours after the
    night's last session ended with none open.
    """

    night = models.ForeignKey(GameNight, on_delete=models.CASCADE, related_name="join_codes")
    code = models.CharField(max_length=12, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return self.code

    def expires_at(self, last_ended: datetime | None, any_open: bool) -> datetime | None:
        """When the code stops working, given the night's sessions (None: not while one is open)."""
        if any_open:
            return None
        start = max(self.created_at, last_ended) if last_ended is not None else self.created_at
        return start + timedelta(hours=settings.JOIN_CODE_HOURS_AFTER_LAST_GAME)


class GuestDevice(models.Model):
    """A phone (a visitor's Django session) that joined a game night through a join code.

    It may hold one player of the night: the database lets only one device hold a player, so
    two phones never act (or see secrets) for the same seat, even when they claim it at once.
    A device that wants a held player asks for it (``requested``); the host or the holding
    phone lets it take it.
    """

    night = models.ForeignKey(GameNight, on_delete=models.CASCADE, related_name="devices")
    join_code = models.ForeignKey(JoinCode, on_delete=models.CASCADE, related_name="devices")
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    requested = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    last_seen = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["night", "player"],
                condition=models.Q(player__isnull=False),
                name="one_device_per_player_and_night",
            )
        ]

    def __str__(self) -> str:
        return f"device {self.pk} of night {self.night_id}"


class WriteReceipt(models.Model):
    """Remembers a form or API write by its idempotency key, so a double tap records once."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    key = models.CharField(max_length=64)
    result = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="unique_receipt_key")]

    def __str__(self) -> str:
        return self.key


class PlayerTally(models.Model):
    """Plays and wins per player and game, kept up to date by a Celery task."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="tallies")
    game = models.CharField(max_length=30)
    plays = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "game"], name="one_tally_per_game")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.game}: {self.wins}/{self.plays}"

    @property
    def game_name(self) -> str:
        return game_name(self.game)


# --- statistics (sessions/statistics) --------------------------------------------------------

OVERALL = ""  # the ``game`` of a player's rating over every game


class PlayerRating(models.Model):
    """A player's OpenSkill (Plackett-Luce) rating in one game, or over all games (``game=""``).

    Kept up to date by ``sessions.statistics.services`` after each finished session and
    recomputed from the Results by the rebuild.
    """

    # db_index=False: the unique constraint's index starts with the player (fewer indexes, faster rebuilds).
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings", db_index=False)
    game = models.CharField(max_length=30, blank=True)
    mu = models.FloatField()
    sigma = models.FloatField()
    plays = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    last_played = models.DateTimeField(null=True, blank=True)
    # The player page's figures, kept here so that it reads a row per game, however many
    # times the player has played. Scores only in a game's row (two games' scores do not add
    # up); ``scored`` counts the plays with a score (a game played by places has none).
    best = models.IntegerField(null=True, blank=True)
    worst = models.IntegerField(null=True, blank=True)
    score_sum = models.BigIntegerField(default=0)
    scored = models.PositiveIntegerField(default=0)
    # Wins in a row up to the last play, and the most ever, in the order of play.
    streak = models.PositiveIntegerField(default=0)
    longest_streak = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "game"], name="one_rating_per_game")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.game or '*'}: {self.mu:.1f}±{self.sigma:.1f}"

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: the rating the player is very likely above."""
        return self.mu - 3 * self.sigma


class JSONText(models.TextField):
    """A JSON value stored as its text: read and written whole, never queried inside.

    PostgreSQL's ``jsonb`` (Django's JSONField) parses every value into its binary form, and
    compresses a large one: of a 100,000-session rebuild, writing the 35 MB of rating
    history took 1.0 s as ``jsonb``, 0.2 s as text kept uncompressed (see the migration).
    """

    # For django-stubs: the model attribute is the JSON value, not its text.
    _pyi_private_set_type: Any
    _pyi_private_get_type: Any

    def from_db_value(self, value: str | None, expression: Any, connection: Any) -> Any:
        return None if value is None else json.loads(value)

    def to_python(self, value: Any) -> Any:
        return json.loads(value) if isinstance(value, str) else value

    def get_prep_value(self, value: Any) -> str | None:
        return None if value is None else json.dumps(value, separators=(",", ":"))


class RatingHistory(models.Model):
    """A player's ratings just after each of their rated sessions in one year, oldest first.

    Each point is ``[played at (ISO 8601), session id, game, mu, sigma, overall mu, overall
    sigma]``: the ratings in the session's game and over all games, to four decimals (they
    are shown with two; ``PlayerRating`` keeps every digit). A row per player and
    year, not per result: a rebuild rewrites every row (a group with 100 000 sessions has
    400 000 results, but a thousand players and a few years), an update after one session
    rewrites only this year's rows of its players, and the player page reads a few rows.
    A session deleted in the admin leaves its point until the nightly rebuild.
    """

    # db_index=False: the unique constraint's index starts with the player.
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_history", db_index=False)
    year = models.PositiveSmallIntegerField()  # in the site's time zone, as the monthly tallies
    points = JSONText(default=list)  # the list of points, as JSON text

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "year"], name="one_rating_history_per_year")]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.year}: {len(self.points)} points"


# The statistics' derived rows that a group's first rebuild writes by the hundred thousand (a
# counted session for each session, a player's month for each game played that month) keep no
# foreign key in the database: PostgreSQL checked each new row's keys one at a time at commit,
# 1.5 s of a 4.5 s first rebuild (bench/statistics.py). Django still deletes them with the group,
# session or player they belong to (``on_delete``), and the one service that deletes a player
# with plays (``services.merge_players``) takes the statistics' lock on the group first, so that
# no rebuild writes rows for a player deleted under it. A rebuild replaces any row it would not
# write itself.


class PlayerMonth(models.Model):
    """Plays and wins of a player in one game and calendar month, for the leaderboard's periods."""

    group = models.ForeignKey(
        Group, on_delete=models.CASCADE, related_name="player_months", db_index=False, db_constraint=False
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="months", db_index=False, db_constraint=False
    )
    game = models.CharField(max_length=30)
    month = models.DateField()  # the first day of the month
    plays = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "game", "month"], name="one_player_month_per_game")]
        indexes = [models.Index(fields=["group", "month"], name="player_month_period")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.game} {self.month:%Y-%m}: {self.wins}/{self.plays}"


class GameStatistics(models.Model):
    """A group's running totals for one game: the game page reads this one row.

    ``totals`` holds sums, not averages, so one more session is added without reading the
    others: ``winning`` (sum, count, best of the winning scores), ``scores`` (how many
    results had each score), ``seats`` (plays and wins per seat, 0 = the first player) and
    ``breakdown`` (sum and count per key of ``Result.breakdown``).
    """

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="game_statistics")
    game = models.CharField(max_length=30)
    plays = models.PositiveIntegerField(default=0)
    totals = models.JSONField(default=dict)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["group", "game"], name="one_statistics_row_per_game")]

    def __str__(self) -> str:
        return f"{self.group_id} {self.game}: {self.plays} plays"


class MoveStatistics(models.Model):
    """A group's figures for one game that only the sessions' logs know (who moved first,
    offers, perfect towers, records): ``scoring.move_facts`` sums them, the statistics task
    keeps them, the game page reads this one row (``sessions.statistics.from_moves``)."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="move_statistics")
    game = models.CharField(max_length=30)
    figures = models.JSONField(default=dict)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["group", "game"], name="one_move_statistics_row_per_game")]

    def __str__(self) -> str:
        return f"{self.group_id} {self.game}: from the moves"


class RatedSession(models.Model):
    """Marks a finished session as counted in the statistics (what makes the update idempotent).

    A finished session without one is pending: its task was lost (the broker was down) or
    has not run yet; the next update of its group, the catch-up task and the nightly
    rebuild count it.
    """

    session = models.OneToOneField(
        GameSession, on_delete=models.CASCADE, primary_key=True, related_name="rated", db_constraint=False
    )
    group = models.ForeignKey(
        Group, on_delete=models.CASCADE, related_name="rated_sessions", db_index=False, db_constraint=False
    )
    finished_at = models.DateTimeField()
    rated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["group", "finished_at"], name="rated_session_order")]

    def __str__(self) -> str:
        return f"rated {self.session_id}"


class PlainResult(models.Model):
    """A player's result in a play of a game this app does not track, kept as imported
    (a BG Stats play of another game): it shows in the play log, not in the statistics."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="plain_results")
    source = models.CharField(max_length=20)
    play = models.CharField(max_length=64, help_text="The source's id of the play.")
    game = models.CharField(_("game"), max_length=120)
    played_at = models.DateTimeField()
    place = models.CharField(max_length=80, blank=True)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="plain_results")
    score = models.IntegerField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    winner = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["group", "source", "play", "player"], name="one_plain_result_per_player")
        ]
        ordering = ["-played_at", "play", "rank"]

    def __str__(self) -> str:
        return f"{self.game} {self.play}: {self.player_id}"


class ApiToken(AbstractAuthToken):
    """An API token of django-rest-knox (``KNOX_TOKEN_MODEL``): only a SHA-512 digest of the key
    is stored, with the key's first characters to find it; each has a name and an expiry, and
    an account may hold several (``sessions.api.tokens``)."""

    name = models.CharField(_("name"), max_length=60)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.name} ({self.user_id})"
