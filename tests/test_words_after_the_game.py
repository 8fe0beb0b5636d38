"""After the game every device says who won, in words, and no instruction of the last turn
is left on screen."""

from django.utils import translation

from scoring.engine import Standing
from sessions import services
from sessions.winners import winner_words
from tests.conftest import advance, finish_with_scores, seated_phones

NAMES = {"a": "Ada", "b": "Bruno", "c": "Chiara"}


def standing(seat, rank, score):
    return Standing(seat=seat, score=score, rank=rank, breakdown={})


def test_one_winner_with_points():
    with translation.override("en"):
        said = winner_words([standing("a", 1, 87), standing("b", 2, 60)], NAMES)
    assert said == "Ada wins with 87 points"


def test_a_shared_win_names_everyone_who_shares_it():
    with translation.override("en"):
        two = winner_words([standing("a", 1, 87), standing("b", 1, 87), standing("c", 3, 2)], NAMES)
        three = winner_words([standing(seat, 1, 1) for seat in "abc"], NAMES)
    assert two == "Ada and Bruno share the win with 87 points"
    assert three == "Ada, Bruno and Chiara share the win with 1 point"


def test_a_game_decided_by_places_says_who_won_without_points():
    with translation.override("en"):
        assert winner_words([standing("b", 1, None), standing("a", 2, None)], NAMES) == "Bruno wins"
        assert winner_words([standing("b", 1, None), standing("a", 1, None)], NAMES) == "Bruno and Ada share the win"


def test_nothing_is_said_before_there_are_standings():
    assert winner_words([], NAMES) == ""


def test_the_host_and_every_phone_say_who_won(member_client, session):
    advance(session, "session.start")
    code = services.create_join_code(session=session).code
    phones = seated_phones(session, code)
    finish_with_scores(session, [30, 20, 30])
    pages = [member_client.get(f"/s/{session.pk}/").content.decode()]
    pages += [phone.get(f"/j/{code}/").content.decode() for phone in phones.values()]
    for page in pages:
        assert 'data-testid="winner"><strong>Ada and Chiara share the win with 30 points</strong>' in page


def test_an_open_session_says_no_winner_yet(member_client, session):
    advance(session, "session.start")
    assert 'data-testid="winner"' not in member_client.get(f"/s/{session.pk}/").content.decode()


def test_a_finished_babel_on_game_says_who_won_and_not_what_the_last_roll_asked(member_client, night, players):
    session = services.create_session(night=night, game="babel-on", players=players[:2], secret="b")
    ada, bruno = (seat.key for seat in session.seats.all())
    advance(session, "session.start")
    advance(session, "bo.setup", colours={ada: "blue", bruno: "red"}, extra="green")
    advance(session, "bo.rolloff", rolls={ada: 5, bruno: 2})
    advance(session, "bo.roll", call="even", roll=1)  # a miss: the die goes on to Bruno
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert 'data-testid="bo-roll"' in page  # while the game goes on, the roll says what it means
    advance(session, "bo.knock", seat=bruno, tower=ada)  # Bruno knocks Ada's tower over: Ada wins (BO-12)
    advance(session, "session.finish")
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert 'data-testid="winner"><strong>Ada wins</strong>' in page
    assert 'data-testid="bo-roll"' not in page
    assert "to play" not in page
