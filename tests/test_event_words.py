"""The event log and the live region say what happened in words, naming the players, never
an event's type or number, and never an offer before it is revealed (TB-12)."""

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring import session as core
from scoring.session import Rules
from scoring.tower_of_babel import engine as tob
from sessions import event_words, services
from sessions.event_words import WORDS, Moment, sentence
from sessions.games import GAMES, get_game
from sessions.models import SessionEvent
from sessions.table import keys
from tests.conftest import advance, started_tower

EVERY_TYPE = sorted({(slug, event_type) for slug in GAMES for event_type in get_game(slug).rules.event_types()})


def test_every_event_type_of_every_game_has_words():
    rules: list[Rules] = [get_game(slug).rules for slug in GAMES]
    missing = {event_type for r in rules for event_type in r.event_types()} - set(WORDS)
    assert not missing, f"event types without words: {sorted(missing)}"


@pytest.mark.parametrize(("slug", "event_type"), EVERY_TYPE)
def test_each_event_type_says_something_short_without_its_type(slug, event_type):
    moment = Moment(payload={"seat": "1"}, before={"active": "1", "seats": ["1", "2"]}, after={}, names={"1": "Ada"})
    said = sentence(event_type, moment)
    assert said
    assert len(said) < 80
    assert event_type not in said
    assert "." not in said.rstrip(".")


def log_of(page: str) -> str:
    found = re.search(r'data-testid="event-log">(.*?)</ul>', page, re.S)
    assert found, "the page has an event log"
    return found[1]


def test_the_host_log_names_who_did_what_in_words(member_client, session):
    session, _seats, _code = started_tower(session)
    advance(session, tob.PASS)
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    log = log_of(page)
    assert "Ada passed" in log
    assert "Ada plays first" in log
    assert "Game started" in log
    assert "tob." not in page
    assert "session.start" not in log
    assert "#1" not in log


def test_an_undo_says_which_move_it_took_back(member_client, session):
    session, _seats, _code = started_tower(session)
    advance(session, tob.PASS)
    advance(session, "undo")
    assert "Undone: Ada passed" in log_of(member_client.get(f"/s/{session.pk}/").content.decode())


def test_a_session_with_no_events_shows_no_numbered_list(member_client, session):
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert "Nothing recorded yet." in page
    assert 'data-testid="event-log"' not in page
    assert '<ol class="events"' not in page


def test_the_live_region_shows_the_last_move_not_a_step_number(member_client, session):
    session, seats, code = started_tower(session)
    advance(session, tob.PASS)
    phone = Client()
    phone.post(f"/j/{code}/seat/", {"seat": seats[1]})
    for page in (member_client.get(f"/s/{session.pk}/").content.decode(), phone.get(f"/j/{code}/").content.decode()):
        assert re.search(r'data-testid="last-move">Ada passed<', page)
        assert "step " not in page
        assert 'data-testid="status"' in page


def test_a_secret_offer_shows_who_offered_and_not_what_before_the_reveal(member_client, session):  # TB-12
    session, seats, _code = started_tower(session)
    game = session.state["game"]
    disc = next(d for d, found in game["discs"].items() if len(found["demand"]) == 1)
    wonder = game["discs"][disc]["wonder"]
    advance(session, tob.CHOOSE, wonder=wonder, disc=disc)
    (kind,) = game["discs"][disc]["demand"]
    advance(session, tob.OFFER, seat=seats[1], cards={kind: 4}, trading=True, triple=False)
    log = log_of(member_client.get(f"/s/{session.pk}/").content.decode())
    assert re.search(r"Bruno offered for the build on the [A-Z]", log)
    assert "4" not in re.sub(r"\d\d:\d\d:\d\d", "", log)  # only the times carry digits
    assert kind not in log
    assert "trading" not in log.lower()


def test_babel_on_draws_name_the_player_and_count_the_blocks():
    moment = Moment(payload={"blocks": [{}, {}]}, before={"active": "1"}, after={}, names={"1": "Ada"})
    assert sentence("bo.draw", moment) == "Ada drew 2 blocks"
    one = Moment(payload={"blocks": [{}]}, before={"active": "1"}, after={}, names={"1": "Ada"})
    assert sentence("bo.draw", one) == "Ada drew 1 block"


def test_a_babel_cube_names_the_player_to_move():
    moment = Moment(payload={}, before={"seats": ["1", "2"], "to_move": 2}, after={}, names={"1": "Ada", "2": "Bo"})
    assert sentence("bc.place", moment) == "Bo placed a cube"


def test_a_move_is_told_from_the_version_before_without_replaying_the_log(member_client, session, monkeypatch):
    session, _seats, _code = started_tower(session)
    member_client.get(f"/s/{session.pk}/")  # the version as the host saw it: told and kept

    def replayed(*args, **kwargs):
        raise AssertionError("the whole log was replayed")

    monkeypatch.setattr(event_words, "_replayed", replayed)
    for move in (tob.PASS, tob.PASS, core.UNDO):  # each version seen, as the table's devices see them
        advance(session, move)
        page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert log_of(page).index("Undone: Bruno passed") < log_of(page).index("Ada passed")


def test_a_phone_reads_the_last_move_alone_not_the_whole_log_in_words(member_client, session, monkeypatch):
    session, seats, code = started_tower(session)
    phone = Client()
    phone.post(f"/j/{code}/seat/", {"seat": seats[1]})
    advance(session, tob.PASS)
    member_client.get(f"/s/{session.pk}/")  # the host's page told the version and kept it
    read = []
    kept_many = keys.kept_many

    def asked(keys):
        keys = list(keys)
        read.extend(keys)
        return kept_many(keys)

    monkeypatch.setattr(keys, "kept_many", asked)
    page = phone.get(f"/j/{code}/live/", HTTP_HX_REQUEST="true").content.decode()
    assert "Ada passed" in page
    assert [key for key in read if key.startswith("last-move:")]  # the last move was read as kept
    assert not [key for key in read if key.startswith("told-log:")]  # the log in words grows with the game


def test_a_version_the_cache_lost_is_told_by_replaying_the_log(member_client, session):
    session, _seats, _code = started_tower(session)
    advance(session, tob.PASS)
    advance(session, tob.PASS)  # no device saw the version before
    assert "Bruno passed" in log_of(member_client.get(f"/s/{session.pk}/").content.decode())


def test_a_knocked_over_tower_names_who_knocked_it_and_whose_it_was():  # BO-12
    names = {"1": "Ada", "2": "Bruno"}
    assert sentence("bo.knock", Moment({"seat": "1", "tower": "2"}, None, None, names)) == (
        "Ada knocked over Bruno's tower"
    )
    assert sentence("bo.knock", Moment({"seat": "2", "tower": "2"}, None, None, names)) == (
        "Bruno knocked over their own tower"
    )


def test_the_log_in_words_keeps_the_newest_sentences_and_still_tells_an_undo(member_client, session):
    session, _seats, _code = started_tower(session)
    for _ in range(event_words.TOLD_KEPT + 10):
        advance(session, tob.PASS)
    advance(session, core.UNDO)
    said = event_words.sentences(session)
    assert len(said) == event_words.TOLD_KEPT  # not the whole game's words at every version
    assert max(said) == session.version
    log = log_of(member_client.get(f"/s/{session.pk}/").content.decode())
    assert log.count("<li>") == event_words.LOG_SHOWN <= event_words.TOLD_KEPT
    assert log.index("Undone:") < log.index("passed")
    assert "A move was recorded" not in log


def test_the_host_log_names_who_sent_each_move_reading_no_event(
    member_client, member, session, django_capture_on_commit_callbacks
):
    session, _seats, _code = started_tower(session)
    services.append_event(session_id=session.pk, expected_version=session.version, type=tob.PASS, author=member)
    member_client.get(f"/s/{session.pk}/")  # the host saw this version: told and kept
    session.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):  # the move keeps its event once committed
        services.append_event(
            session_id=session.pk, expected_version=session.version, type=tob.PASS, author_label="Bruno"
        )
    events_read = []
    with CaptureQueriesContext(connection) as after_the_move:
        page = member_client.get(f"/s/{session.pk}/").content.decode()
    events_read.append([q for q in after_the_move if SessionEvent._meta.db_table in q["sql"]])
    with CaptureQueriesContext(connection) as told_already:
        member_client.get(f"/s/{session.pk}/")
    events_read.append([q for q in told_already if SessionEvent._meta.db_table in q["sql"]])
    lines = re.findall(r"<li>(.*?)</li>", log_of(page), re.S)
    assert re.match(r"Bruno passed <small[^>]*>Bruno ·", lines[0])  # a phone's move: its label
    assert re.match(r"Ada passed <small[^>]*>milo ·", lines[1])  # an account's: its name
    assert [len(read) for read in events_read] == [0, 0]  # the move kept its event for the screens


def test_a_new_event_the_cache_does_not_have_is_read_alone(member_client, session):
    session, _seats, _code = started_tower(session)
    advance(session, tob.PASS)
    member_client.get(f"/s/{session.pk}/")  # the host saw this version: told and kept
    services.append_event(session_id=session.pk, expected_version=session.version, type=tob.PASS, author_label="Bruno")
    assert cache.get(keys.recorded_event(session.pk, session.version + 1)) is None  # not committed
    with CaptureQueriesContext(connection) as after_the_move:
        page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert len([q for q in after_the_move if SessionEvent._meta.db_table in q["sql"]]) == 1
    assert re.match(r"Bruno passed <small[^>]*>Bruno ·", re.findall(r"<li>(.*?)</li>", log_of(page), re.S)[0])
