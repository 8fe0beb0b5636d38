"""How well the ratings predict: the chances they gave before each past game, against who won.

The group's finished games are replayed in the order of play through the statistics' own
replay (``ratings.Replay``, the same model and the same updates as the stored ratings).
Before each game, the ratings *at that time* give each player a chance to win, as the
set-up shows it (``chances.win_chances``, newcomers at the starting rating); then the game
is added to the replay. The chances are grouped in bands of ten percent, and each band
counts how often its players won (a shared first place is a win, as everywhere).

The Brier score is the mean of (chance - won)² over every player of every game, 0 for
perfect foresight; beside it, the score of giving each of n players 1/n. The figures are
kept in the cache until the group's statistics change (``keys.statistics_changed``).
"""

from __future__ import annotations

from dataclasses import dataclass

from sessions.statistics import keys
from sessions.statistics.chances import counted, win_chances
from sessions.statistics.ratings import Replay
from sessions.statistics.services import load_matches

BANDS = 10  # 0-10 %, 10-20 %, ..., 90-100 %


def band_of(chance: float) -> int:
    """The band (0 to 9) of a chance; a chance of exactly 1 is in the last one."""
    return min(int(chance * BANDS), BANDS - 1)


@dataclass(frozen=True)
class Band:
    index: int  # 0 = 0-10 %
    predictions: int  # players given a chance in this band, one per game
    predicted_sum: float
    wins: int

    @property
    def low(self) -> int:
        return self.index * 100 // BANDS

    @property
    def high(self) -> int:
        return (self.index + 1) * 100 // BANDS

    @property
    def predicted(self) -> float:
        """The band's average chance (0 to 1)."""
        return self.predicted_sum / self.predictions

    @property
    def win_rate(self) -> float:
        return self.wins / self.predictions

    @property
    def predicted_percent(self) -> int:
        return round(100 * self.predicted)

    @property
    def won_percent(self) -> int:
        return round(100 * self.win_rate)


@dataclass(frozen=True)
class Calibration:
    games: int  # games with two players or more
    predictions: int  # a player of such a game
    bands: list[Band]  # those with predictions, from the lowest chance
    brier_sum: float
    even_brier_sum: float  # the same for 1/n

    @property
    def brier(self) -> float | None:
        return self.brier_sum / self.predictions if self.predictions else None

    @property
    def even_brier(self) -> float | None:
        return self.even_brier_sum / self.predictions if self.predictions else None

    @property
    def better_than_even(self) -> bool:
        return self.brier_sum < self.even_brier_sum


def replayed_calibration(group_id: int) -> Calibration:
    """The calibration replayed from the group's finished games (one query, streamed)."""
    replay = Replay(tally=False)
    ratings = replay.ratings
    counted_in = [0] * BANDS  # predictions in each band
    chance_sums = [0.0] * BANDS
    won_in = [0] * BANDS
    games = predictions = 0
    brier = even = 0.0
    for match in load_matches(group_id=group_id, details=False):
        entries = match.entries
        if len(entries) > 1:
            before = [ratings.get((entry.player_id, match.game)) for entry in entries]
            skills = [None if rating is None else counted(rating.skill, rating.plays) for rating in before]
            uniform = 1 / len(entries)
            for entry, chance in zip(entries, win_chances(skills), strict=True):
                won = entry.rank == 1
                band = band_of(chance)
                counted_in[band] += 1
                chance_sums[band] += chance
                won_in[band] += won
                brier += (chance - won) ** 2
                even += (uniform - won) ** 2
            games += 1
            predictions += len(entries)
        replay.add(match)
        # The replay writes each rating's history too, which the calibration never reads:
        # dropped as it goes rather than held for the whole group.
        replay.history.clear()
    bands = [
        Band(index, counted_in[index], chance_sums[index], won_in[index]) for index in range(BANDS) if counted_in[index]
    ]
    return Calibration(games, predictions, bands, brier, even)


def group_calibration(group_id: int) -> Calibration:
    """The group's calibration, from the cache while the group's statistics stay as they are."""
    kept = keys.kept_calibration(group_id)
    if kept is not None:
        games, predictions, bands, brier, even = kept
        return Calibration(games, predictions, [Band(*band) for band in bands], brier, even)
    figures = replayed_calibration(group_id)
    bands = [(b.index, b.predictions, b.predicted_sum, b.wins) for b in figures.bands]
    # Plain tuples in the cache: a pickled class would tie the kept value to this code's shape.
    keys.keep_calibration(
        group_id, (figures.games, figures.predictions, bands, figures.brier_sum, figures.even_brier_sum)
    )
    return figures
