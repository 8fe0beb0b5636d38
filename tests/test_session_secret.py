"""The deal and the app's dice come from a per-session secret that no member reads while the
session is open (issue 15, item 2): the audit rebuilt all three 7 Wonders hands and foresaw 8
of 8 Babel On! rolls from the ``seed`` the API gave every member."""

import json
import random
import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring import session as core
from scoring.errors import RuleError
from scoring.seven_wonders import engine as sw
from sessions import services
from sessions.api.tokens import create_api_token
from sessions.games import get_game
from sessions.importexport.export import group_document
from sessions.importexport.importer import import_group
from sessions.models import GameSession
from tests.conftest import advance, finish_with_scores, seated_phones

DIE_ROLLS = 8


def member_api(member):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_api_token(user=member, name='tests')[1]}")
    return client


def numbers_in(document):
    """Every number a reader could try as a seed: the ints, and the strings read as decimal or hex."""
    found = set()

    def walk(value):
        if isinstance(value, bool):
            return
        if isinstance(value, int):
            found.add(value)
        elif isinstance(value, str):
            for word in re.findall(r"[0-9a-fA-F]+", value):
                found.add(int(word, 16))
                if word.isdigit():
                    found.add(int(word))
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(key)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(document)
    return found


def what_a_member_reads(member, session):
    api = member_api(member)
    return [
        api.get(f"/api/v1/sessions/{session.pk}/").json(),
        api.get(f"/api/v1/sessions/{session.pk}/events/").json(),
        api.get(f"/api/v1/nights/{session.night_id}/sessions/").json(),
    ]


def hands_from(session, seed):
    seats = [seat.key for seat in session.seats.all()]
    return sw.SevenWonders().initial_state(seats=seats, options=session.options, seed=seed)["hands"]


@pytest.fixture
def wonders(night, players):
    return services.create_session(night=night, game="seven-wonders", players=players[:3])


@pytest.fixture
def babel_on(night, players):
    session = services.create_session(night=night, game="babel-on", players=players[:2])
    advance(session, core.START)
    return session


def test_a_member_cannot_rebuild_the_seven_wonders_hands_from_anything_the_api_gives(member, wonders):
    real = wonders.state["game"]["hands"]
    assert hands_from(wonders, wonders.seed) == real  # the way the audit rebuilt them
    for seed in numbers_in(what_a_member_reads(member, wonders)):
        assert hands_from(wonders, seed) != real


def test_a_member_cannot_foresee_the_babel_on_die_from_anything_the_api_gives(member, babel_on):
    def rolls(seed):
        return [random.Random(f"babel-on:{seed}:{n}").randint(1, 6) for n in range(DIE_ROLLS)]

    real = rolls(babel_on.seed)
    for seed in numbers_in(what_a_member_reads(member, babel_on)):
        assert rolls(seed) != real


def test_the_babel_on_state_keeps_the_dies_seed_to_itself(member, babel_on):
    state = member_api(member).get(f"/api/v1/sessions/{babel_on.pk}/").json()["state"]
    assert "seed" not in state["game"]
    assert "seed" in babel_on.state["game"]  # the server still rolls from it


@pytest.mark.parametrize("game", ["tower-of-babel", "seven-wonders", "babel-on", "babel-cubes"])
def test_no_page_or_api_answer_shows_an_open_sessions_secret(member, member_client, night, players, game):
    session = services.create_session(
        night=night, game=game, players=players[:3] if game != "babel-cubes" else players[:2]
    )
    code = services.create_join_code(session=session).code
    phone = next(iter(seated_phones(session, code).values()))
    answers = [json.dumps(answer) for answer in what_a_member_reads(member, session)]
    answers += [
        member_client.get(f"/s/{session.pk}/").content.decode(),
        phone.get(f"/j/{code}/").content.decode(),
        Client().get(f"/j/{code}/").content.decode(),
    ]
    assert member_api(member).get(f"/api/v1/sessions/{session.pk}/").json()["secret"] is None
    for answer in answers:
        assert session.secret not in answer
        assert str(session.seed) not in answer


def test_every_session_gets_a_secret_of_its_own_of_256_bits(night, players):
    secrets = {services.create_session(night=night, game="babel-cubes", players=players[:2]).secret for _ in range(20)}
    assert len(secrets) == 20
    assert all(re.fullmatch(r"[0-9a-f]{64}", secret) for secret in secrets)


def test_the_secret_is_published_once_the_session_is_finished_and_checks_the_deal(member, wonders):
    finish_with_scores(wonders, [40, 35, 30])
    published = member_api(member).get(f"/api/v1/sessions/{wonders.pk}/").json()["secret"]
    assert published == wonders.secret
    log = [event.as_core_event() for event in wonders.events.all()]
    seats = [seat.key for seat in wonders.seats.all()]
    rules = get_game("seven-wonders").rules
    replayed = core.replay(rules, seats=seats, options=wonders.options, seed=int(published, 16), events=log)
    assert replayed == wonders.state


def test_an_abandoned_session_keeps_its_secret_since_an_undo_takes_it_up_again(member, owner, group, wonders):
    advance(wonders, core.START)
    advance(wonders, core.ABANDON)
    api = member_api(member)
    assert api.get(f"/api/v1/sessions/{wonders.pk}/").json()["secret"] is None
    assert wonders.secret not in json.dumps(group_document(group))
    advance(wonders, core.UNDO)
    assert wonders.status == core.PLAYING


def test_an_export_carries_an_open_sessions_secret_and_log_sealed(owner, group, wonders, players):
    ended = services.create_session(night=wonders.night, game="babel-cubes", players=players[:2])
    finish_with_scores(ended, [1, 2])
    advance(wonders, core.START)
    first = wonders.seats.first().key
    picked = min(wonders.state["game"]["hands"][first])
    advance(wonders, sw.DRAFT_PICK, seat=first, tile=picked)
    text = json.dumps(group_document(group))
    assert wonders.secret not in text
    assert str(wonders.seed) not in text
    assert sw.DRAFT_PICK not in text  # nor the log, whose picks are still hidden
    assert ended.secret in text  # a finished session's secret is published


def test_an_open_session_comes_back_whole_on_the_server_that_exported_it(owner, group, wonders):
    advance(wonders, core.START)
    document = json.loads(json.dumps(group_document(group)))
    imported = import_group(owner=owner, document=document)
    copy = GameSession.objects.get(group=imported)
    assert copy.secret == wonders.secret
    assert copy.state["game"]["hands"] != {}
    assert sorted(copy.state["game"]["hands"].values()) == sorted(wonders.state["game"]["hands"].values())


def test_another_server_refuses_a_sealed_session_naming_it(owner, group, wonders, settings):
    document = json.loads(json.dumps(group_document(group)))
    settings.SECRET_KEY = "another server's key, long enough to be a real one: 0123456789abcdef"
    with pytest.raises(RuleError) as refused:
        import_group(owner=owner, document=document)
    assert refused.value.field == "sessions[0].sealed"
    assert "only the server that exported it can open it" in refused.value.message


def test_a_file_of_version_1_with_its_seeds_in_clear_still_imports(owner, group, night, players):
    old_seed = 2**47 + 12345  # version 1 seeds had 48 bits
    session = services.create_session(night=night, game="tower-of-babel", players=players[:3], secret=f"{old_seed:x}")
    finish_with_scores(session, [20, 18, 12])
    document = json.loads(json.dumps(group_document(group)))
    document["version"] = 1
    for row in document["sessions"]:
        row["seed"] = int(row.pop("secret"), 16)
    imported = import_group(owner=owner, document=document)
    copy = GameSession.objects.get(group=imported)
    assert copy.secret == session.secret

    def deal(state):
        return {disc: (row["wonder"], row["demand"]) for disc, row in state["game"]["discs"].items()}

    assert deal(copy.state) == deal(session.state)
