"""Each seat's chance to win before a game starts (issue 44, point 5): OpenSkill's own
predict_win over the seats' ratings in the game, a newcomer at the model's starting rating,
on the host's set-up only, from one query."""

import re

import pytest
from openskill.models import PlackettLuceRating

from sessions import services
from sessions.models import GameSession, PlayerRating
from sessions.statistics.chances import STARTING_RATING, seat_chances, win_chances
from sessions.statistics.ratings import MIN_RATED_PLAYS, MODEL
from tests.conftest import seated_phones


def rated(player, *, mu, sigma, plays, game="tower-of-babel"):
    PlayerRating.objects.create(player=player, game=game, mu=mu, sigma=sigma, plays=plays, wins=0)


def session_page_session(session):
    """The session as the host's page reads it: its seats and their players with it."""
    return GameSession.objects.prefetch_related("seats__player").get(pk=session.pk)


@pytest.fixture
def rated_table(session, players):
    ada, bruno, chiara, _dieter = players
    rated(ada, mu=31.0, sigma=3.0, plays=12)
    rated(bruno, mu=22.0, sigma=4.0, plays=MIN_RATED_PLAYS)
    rated(chiara, mu=40.0, sigma=2.0, plays=MIN_RATED_PLAYS - 1)  # not rated yet: a newcomer
    rated(ada, mu=5.0, sigma=1.0, plays=50, game="babel-on")  # another game's rating counts for nothing
    return session


def test_it_gives_each_seat_openskills_predicted_chance_from_the_ratings_of_the_game(
    rated_table, django_assert_max_num_queries
):
    session = session_page_session(rated_table)
    with django_assert_max_num_queries(1):
        chances = seat_chances(session)
    expected = MODEL.predict_win(
        [[PlackettLuceRating(31.0, 3.0)], [PlackettLuceRating(22.0, 4.0)], [PlackettLuceRating(MODEL.mu, MODEL.sigma)]]
    )
    assert [seat.name for seat in chances] == ["Ada", "Bruno", "Chiara"]  # in playing order
    assert [seat.chance for seat in chances] == pytest.approx(expected)
    assert sum(seat.chance for seat in chances) == pytest.approx(1)
    assert chances[0].chance > chances[1].chance  # the stronger rating, the better chance


def test_a_player_without_enough_plays_counts_at_the_starting_rating_and_is_called_new(rated_table, players):
    chances = {seat.name: seat for seat in seat_chances(session_page_session(rated_table))}
    assert (chances["Ada"].new, chances["Bruno"].new, chances["Chiara"].new) == (False, False, True)
    # Chiara's high mu of four plays is not used: she counts as a newcomer (mu 25).
    assert chances["Chiara"].chance < chances["Ada"].chance
    assert chances["Chiara"].chance == pytest.approx(
        win_chances([PlackettLuceRating(31.0, 3.0), PlackettLuceRating(22.0, 4.0), None])[2]
    )


def test_a_table_of_newcomers_has_even_chances(session):
    chances = seat_chances(session_page_session(session))
    assert [seat.percent for seat in chances] == [33, 33, 33]
    assert all(seat.new for seat in chances)
    assert win_chances([None, STARTING_RATING]) == pytest.approx([0.5, 0.5])
    assert win_chances([None]) == []  # nobody to beat


def test_the_hosts_set_up_shows_the_chances_with_the_newcomers_named(member_client, rated_table):
    page = member_client.get(f"/s/{rated_table.pk}/").content.decode()
    section = page.split('data-testid="win-chances"', 1)[1].split("</ol>", 1)[0]
    lines = [
        " ".join(re.sub(r"<[^>]+>", " ", item.split("</li>")[0]).split())
        for item in section.split('<li data-testid="chance">')[1:]
    ]
    chances = seat_chances(session_page_session(rated_table))
    shown = [f"{seat.name}{' new: no rating yet' if seat.new else ''} {seat.percent}%" for seat in chances]
    assert lines == shown
    assert shown[2].startswith("Chiara new: no rating yet")


def test_the_chances_go_once_the_game_starts(member_client, rated_table):
    services.append_event(session_id=rated_table.pk, expected_version=0, type="session.start")
    assert 'data-testid="win-chances"' not in member_client.get(f"/s/{rated_table.pk}/").content.decode()


def test_the_phones_and_the_table_display_never_show_the_chances(client, rated_table):
    code = services.create_join_code(session=rated_table).code
    pages = [phone.get(f"/j/{code}/").content.decode() for phone in seated_phones(rated_table, code).values()]
    pages.append(client.get(f"/j/{code}/table/").content.decode())
    assert all("win-chances" not in page and "Chances to win" not in page for page in pages)
