"""Each seat's chance to win, before a game starts, from the ratings in that game.

OpenSkill's own ``predict_win`` (openskill 6.2.0, pinned): it compares every pair of players
(the normal distribution of their difference in skill, widened by both sigmas and the
model's beta) and averages each player's pairwise chances, normalised to sum to 1.

A player with fewer than ``MIN_RATED_PLAYS`` plays in the game counts with the model's
starting rating, as a newcomer: the pages say "no rating yet" for them, and the chances
must agree with what the pages show. The calibration page (``calibration``) replays past
games through this same function, so it measures exactly what the set-up shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuceRating

from scoring import session as core
from sessions.models import GameSession, PlayerRating
from sessions.statistics.ratings import MIN_RATED_PLAYS, MODEL

# The model's starting rating, for a newcomer; predict_win only reads it.
STARTING_RATING = PlackettLuceRating(MODEL.mu, MODEL.sigma)


def counted(skill: PlackettLuceRating | None, plays: int) -> PlackettLuceRating | None:
    """The rating a chance is computed from: None (the starting rating) before enough plays."""
    return skill if skill is not None and plays >= MIN_RATED_PLAYS else None


def win_chances(skills: Sequence[PlackettLuceRating | None]) -> list[float]:
    """Each player's chance to win (fractions that sum to 1), in the order given; None
    stands for a player without a rating yet. Fewer than two players: no contest, no chance."""
    if len(skills) < 2:
        return []
    return MODEL.predict_win([[skill or STARTING_RATING] for skill in skills])


@dataclass(frozen=True)
class SeatChance:
    player_id: int
    name: str
    colour: str
    chance: float  # 0 to 1
    new: bool  # no rating yet in the game: counted with the starting rating

    @property
    def percent(self) -> int:
        return round(100 * self.chance)


def shows_chances(session: GameSession) -> bool:
    """Before the first move only: once the game runs, the board says more than the ratings."""
    return session.status == core.SETUP


def seat_chances(session: GameSession) -> list[SeatChance]:
    """The seated players' chances, in playing order: one query, the seats' ratings in the
    game (the seats and their players come with the session page's session)."""
    seats = list(session.seats.all())
    if len(seats) < 2:
        return []
    rows = PlayerRating.objects.filter(player_id__in=[seat.player_id for seat in seats], game=session.game)
    found = {pk: (mu, sigma, plays) for pk, mu, sigma, plays in rows.values_list("player_id", "mu", "sigma", "plays")}
    skills: list[PlackettLuceRating | None] = []
    for seat in seats:
        mu, sigma, plays = found.get(seat.player_id, (MODEL.mu, MODEL.sigma, 0))
        skills.append(counted(PlackettLuceRating(mu, sigma), plays))
    return [
        SeatChance(seat.player_id, seat.player.name, seat.colour, chance, new=skill is None)
        for seat, skill, chance in zip(seats, skills, win_chances(skills), strict=True)
    ]
