"""A rating's uncertainty band: where the player's skill likely lies.

OpenSkill keeps two numbers a player: ``mu``, its best guess of the skill, and ``sigma``, how
unsure it still is. The displayed rating is the cautious ``mu - 3 sigma`` (``ratings.conservative``);
the band is ``mu ± 2 sigma``, the range the skill lies in about 19 times out of 20 (95 % of
a normal distribution). The rating sits below the band on purpose: it is the figure the skill
is almost surely above, where the band is where it likely is. The band narrows as a player plays.
"""

from __future__ import annotations

from dataclasses import dataclass

from sessions.statistics.ratings import MIN_RATED_PLAYS

BAND_SIGMAS = 2  # mu ± 2 sigma: "likely" (95 %); the rating's 3 sigma is "almost surely"


@dataclass(frozen=True)
class RatingBand:
    low: float
    high: float


def band(mu: float, sigma: float) -> RatingBand:
    return RatingBand(low=round(mu - BAND_SIGMAS * sigma, 2), high=round(mu + BAND_SIGMAS * sigma, 2))


def shown_band(mu: float, sigma: float, plays: int) -> RatingBand | None:
    """The band, shown with the rating: once the player has enough rated plays; else None."""
    return band(mu, sigma) if plays >= MIN_RATED_PLAYS else None
