"""The night's summary (issue 44, point 4): "Tonight: 4 games, Sofia 2 wins", each game's
winners and the night's winner, on the night's page, and on the phones and the table display
once the night's last game is over."""

from __future__ import annotations

import datetime
from collections import Counter

from django.core.cache import cache, caches
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import session as core
from sessions import selectors, services
from sessions.games import GAMES, game_name
from sessions.models import GameNight, GameSession, Player, Result
from sessions.night_summary import night_summary


def played(night: GameNight, players: list[Player], scores: list[int], *, game: str = "tower-of-babel") -> GameSession:
    """A finished game of the night with these final scores, by player."""
    session = services.create_session(night=night, game=game, players=players, secret="1")
    payload = {"scores": {str(p.pk): s for p, s in zip(players, scores, strict=True)}}
    services.append_event(session_id=session.pk, expected_version=0, type="scores.record", payload=payload)
    services.append_event(session_id=session.pk, expected_version=1, type="session.finish")
    session.refresh_from_db()
    return session


def abandoned(night: GameNight, players: list[Player]) -> GameSession:
    session = services.create_session(night=night, game="tower-of-babel", players=players, secret="1")
    services.append_event(session_id=session.pk, expected_version=0, type=core.START)
    services.append_event(session_id=session.pk, expected_version=1, type=core.ABANDON)
    session.refresh_from_db()
    return session


def under_way(night: GameNight, players: list[Player]) -> GameSession:
    session = services.create_session(night=night, game="tower-of-babel", players=players, secret="1")
    services.append_event(session_id=session.pk, expected_version=0, type=core.START)
    session.refresh_from_db()
    return session


def finish(session: GameSession, scores: list[int]) -> None:
    keys = [seat.key for seat in session.seats.all()]
    payload = {"scores": dict(zip(keys, scores, strict=True))}
    services.append_event(
        session_id=session.pk, expected_version=session.version, type="scores.record", payload=payload
    )
    services.append_event(session_id=session.pk, expected_version=session.version + 1, type=core.FINISH)
    session.refresh_from_db()


def summary_html(page: str) -> str:
    assert 'data-testid="night-summary"' in page, "no summary on the page"
    return page.split('data-testid="night-summary"')[1].split("</section>")[0]


def test_it_counts_the_nights_games_and_names_the_player_with_the_most_wins(night, players):
    ada, bruno, chiara, _dieter = players
    sofia = services.create_player(group=night.group, name="Sofia")
    played(night, [sofia, ada, bruno], [50, 40, 30])
    played(night, [sofia, ada, chiara], [20, 40, 30])
    played(night, [sofia, bruno, chiara], [60, 10, 30])
    played(night, [sofia, bruno, chiara], [10, 20, 30])
    summary = night_summary(night.pk)
    assert summary.headline == "Tonight: 4 games, Sofia 2 wins"
    assert summary.winner_words == "Sofia wins the night!"
    assert [(game.name, game.winners) for game in summary.games] == [
        ("Tower of Babel", ("Sofia",)),
        ("Tower of Babel", ("Ada",)),
        ("Tower of Babel", ("Sofia",)),
        ("Tower of Babel", ("Chiara",)),
    ]
    assert summary.over


def test_a_shared_first_place_names_every_winner_and_counts_a_win_for_each(night, players):
    ada, bruno, chiara, _dieter = players
    played(night, [ada, bruno, chiara], [50, 50, 30])  # TB-21: Ada and Bruno share the first place
    summary = night_summary(night.pk)
    assert summary.games[0].winners == ("Ada", "Bruno")
    assert summary.games[0].winner_names == "Ada and Bruno"
    assert summary.headline == "Tonight: 1 game, Ada and Bruno 1 win each"
    assert summary.winner_words == "Ada and Bruno share the night's win: a tie."


def test_a_tie_for_the_most_wins_is_named_as_such(night, players):
    ada, bruno, chiara, dieter = players
    played(night, [ada, bruno, chiara], [50, 40, 30])
    played(night, [bruno, chiara, dieter], [50, 40, 30])
    played(night, [ada, bruno, dieter], [60, 40, 30], game="seven-wonders")
    played(night, [chiara, bruno, dieter], [10, 40, 30], game="seven-wonders")
    summary = night_summary(night.pk)
    assert summary.leaders == ("Ada", "Bruno")
    assert summary.headline == "Tonight: 4 games, Ada and Bruno 2 wins each"
    assert summary.winner_words == "Ada and Bruno share the night's win: a tie."


def test_a_night_of_abandoned_games_only_says_nobody_won_it(night, players):
    abandoned(night, players[:3])
    abandoned(night, players[1:])
    summary = night_summary(night.pk)
    assert summary.headline == "Tonight: no game finished"
    assert summary.winner_words == "No game was finished tonight: nobody won the night."
    assert summary.rest == ["2 games abandoned"]
    assert not summary.over


def test_a_night_still_playing_names_its_leader_so_far_and_what_is_left(night, players):
    ada, bruno, chiara, _dieter = players
    played(night, [ada, bruno, chiara], [50, 40, 30])
    abandoned(night, players[:3])
    under_way(night, players[:3])
    summary = night_summary(night.pk)
    assert summary.headline == "Tonight: 1 game, Ada 1 win"
    assert summary.winner_words == "Ada leads the night so far."
    assert summary.rest == ["1 game abandoned", "1 game still being played"]
    assert not summary.over


def test_the_summary_is_read_in_one_query_however_many_games(night, players, django_assert_num_queries):
    for number in range(6):
        played(night, players[:3], [10 + number, 20, 30 - number])
    abandoned(night, players[:3])
    with django_assert_num_queries(1):
        summary = night_summary(night.pk)
        assert summary.headline  # the sentences read nothing more


def test_the_nights_page_shows_the_summary_with_a_flat_query_count(
    member_client, night, players, django_assert_max_num_queries
):
    played(night, players[:3], [50, 40, 30])
    with django_assert_max_num_queries(30) as few:
        member_client.get(f"/n/{night.pk}/")
    for number in range(5):
        played(night, players[1:], [10, 20 + number, 30])
    with django_assert_max_num_queries(len(few.captured_queries)):
        page = member_client.get(f"/n/{night.pk}/").content.decode()
    summary = summary_html(page)
    assert "Tonight: 6 games, Dieter 5 wins" in summary
    assert "Dieter wins the night!" in summary
    assert summary.count("won by Ada") == 1


def test_the_nights_page_of_a_night_without_games_shows_no_summary(member_client, night):
    assert 'data-testid="night-summary"' not in member_client.get(f"/n/{night.pk}/").content.decode()


def test_names_are_shown_as_stored_and_escaped(member_client, night, players):
    odd = services.create_player(group=night.group, name="<b>Zoë</b> & co")
    played(night, [odd, players[0]], [3, 1], game="babel-on")
    summary = summary_html(member_client.get(f"/n/{night.pk}/").content.decode())
    assert "&lt;b&gt;Zoë&lt;/b&gt; &amp; co 1 win" in summary
    assert "<b>Zoë" not in summary


def test_a_phone_shows_the_game_while_the_night_plays_and_the_summary_after_its_last_game(night, players):
    ada, bruno, chiara, _dieter = players
    played(night, [ada, bruno, chiara], [50, 40, 30])
    last = under_way(night, [ada, bruno, chiara])
    code = services.create_join_code(night=night).code
    phone, table = Client(), Client()
    for device, path in ((phone, f"/j/{code}/"), (table, f"/j/{code}/table/")):
        page = device.get(path).content.decode()
        assert 'data-testid="night-summary"' not in page, path
    before = {
        device: device.get(path)["ETag"]
        for device, path in ((phone, f"/j/{code}/live/"), (table, f"/j/{code}/table/live/"))
    }
    finish(last, [10, 20, 30])
    # The live regions the devices fetch by themselves: a new version, with the summary.
    for device, path in ((phone, f"/j/{code}/live/"), (table, f"/j/{code}/table/live/")):
        answer = device.get(path, HTTP_IF_NONE_MATCH=before[device], HTTP_HX_REQUEST="true")
        assert answer.status_code == 200, path
        summary = summary_html(answer.content.decode())
        assert "Tonight: 2 games, Ada and Chiara 1 win each" in summary, path
        assert "Ada and Chiara share the night&#x27;s win: a tie." in summary, path


def test_a_phone_after_a_night_of_abandoned_games_shows_no_summary(night, players):
    abandoned(night, players[:3])
    code = services.create_join_code(night=night).code
    assert 'data-testid="night-summary"' not in Client().get(f"/j/{code}/").content.decode()


def test_a_new_game_takes_the_summary_off_the_phones_until_it_is_over(night, players):
    ada, bruno, chiara, _dieter = players
    played(night, [ada, bruno, chiara], [50, 40, 30])
    code = services.create_join_code(night=night).code
    phone = Client()
    assert "Tonight: 1 game, Ada 1 win" in summary_html(phone.get(f"/j/{code}/").content.decode())
    services.create_session(night=night, game="babel-on", players=[ada, bruno], secret="1")
    page = phone.get(f"/j/{code}/").content.decode()
    assert 'data-testid="night-summary"' not in page
    assert 'data-testid="next-game"' in page  # the finished game stays, the next waits


def test_a_phone_fetch_of_a_night_over_keeps_a_flat_query_count(night, players, django_assert_max_num_queries):
    ada, bruno, chiara, _dieter = players
    played(night, [ada, bruno, chiara], [50, 40, 30])
    code = services.create_join_code(night=night).code
    phone = Client()
    phone.get(f"/j/{code}/")

    def fetched() -> str:
        forget_what_the_live_table_keeps()  # each fetch reads what a first one does
        return phone.get(f"/j/{code}/live/").content.decode()

    with django_assert_max_num_queries(30) as one_game:
        fetched()
    for _game in range(5):
        played(night, [ada, bruno, chiara], [50, 40, 30])
    with django_assert_max_num_queries(len(one_game.captured_queries)):
        page = fetched()
    assert "Tonight: 6 games, Ada 6 wins" in summary_html(page)


def forget_what_the_live_table_keeps() -> None:
    cache.clear()
    caches["fragments"].clear()
    caches["here"].clear()
    selectors.forget_shown_sessions()


# --- against a plain recomputation --------------------------------------------------------


class RolledBack(Exception):
    """Ends a hypothesis example's transaction: each example starts from the same players."""


STATUSES = [core.FINISHED, core.FINISHED, core.ABANDONED, core.PLAYING, core.SETUP]
# A game: its slug, its status, and the players' scores (a competition ranking of them, ties shared).
GAME = st.tuples(
    st.sampled_from(sorted(GAMES)),
    st.sampled_from(STATUSES),
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=4, unique_by=lambda seat: seat[0]),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(GAME, max_size=7))
def test_the_summary_is_what_a_plain_reading_of_the_results_gives(night, players, games):
    """Random nights of finished, abandoned and open games with random ranks (ties included),
    stored as Results, against the winners and wins counted one result at a time."""
    try:
        with transaction.atomic():
            for number, (game, status, seats) in enumerate(games):
                session = GameSession.objects.create(
                    night=night,
                    group=night.group,
                    game=game,
                    status=status,
                    secret="1",
                    state={},
                    created_at=datetime.datetime(2026, 11, 19, 20, number, tzinfo=datetime.UTC),
                )
                if status in (core.FINISHED, core.ABANDONED):  # a finished game abandoned keeps its Results
                    for index, score in seats:
                        rank = 1 + sum(other > score for _i, other in seats)
                        Result.objects.create(session=session, player=players[index], score=score, rank=rank)
            expected_games, wins = [], Counter()
            for session in GameSession.objects.filter(night=night).order_by("created_at", "id"):
                first = []
                for result in Result.objects.filter(session=session):
                    if result.rank == 1 and session.status == core.FINISHED:
                        first.append(result.player.name)
                        wins[result.player.name] += 1
                expected_games.append((game_name(session.game), session.status, sorted(first)))
            most = max(wins.values(), default=0)

            summary = night_summary(night.pk)
            assert [(g.name, g.status, list(g.winners)) for g in summary.games] == expected_games
            assert sorted(summary.leaders) == sorted(name for name, count in wins.items() if count == most)
            assert summary.most_wins == most
            finished = sum(status == core.FINISHED for _name, status, _w in expected_games)
            still_open = sum(status in core.OPEN_STATUSES for _name, status, _w in expected_games)
            assert summary.over == (finished > 0 and still_open == 0)
            if finished:
                assert summary.headline.startswith(f"Tonight: {finished} game")
                assert all(name in summary.headline for name in summary.leaders)
            else:
                assert summary.headline == "Tonight: no game finished"
            raise RolledBack
    except RolledBack:
        pass
