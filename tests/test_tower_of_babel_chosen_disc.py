"""Tower of Babel: while a build is open, the disc chosen for it stands out on the board of
every device, the host's page, the phones and the table display, with words for screen
readers (TB-12); before it, and once the build is gone, no disc does."""

from django.test import Client

from tests import test_tower_of_babel_phone_turn
from tests.test_tower_of_babel_phone_turn import a_disc, form_fields, turn_section
from tests.test_tower_of_babel_secret_offers import phone

start = test_tower_of_babel_phone_turn.start
table = test_tower_of_babel_phone_turn.table  # Ada, Bruno and Chiara; Ada to play

CHOSEN = 'data-testid="tob-chosen-disc"'


def boards(member_client, session, code, bruno):
    """The board as the host, Bruno's phone and the table display show it."""
    pages = [member_client.get(f"/s/{session.pk}/"), bruno.get(f"/j/{code}/"), Client().get(f"/j/{code}/table/")]
    return [page.content.decode() for page in pages]


def test_the_disc_chosen_for_the_build_is_marked_on_every_device_while_the_build_is_open(member_client, table):  # TB-12
    session, seats, code = table
    ada, bruno = phone(code, seats[0]), phone(code, seats[1])
    for html in boards(member_client, session, code, bruno):
        assert CHOSEN not in html
    disc, _wonder = a_disc(session)
    chosen = {**form_fields(turn_section(ada, code), "phone-choose"), "disc": disc}
    assert ada.post(f"/j/{code}/act/", chosen).status_code == 302
    for html in boards(member_client, session, code, bruno):
        assert html.count(CHOSEN) == 1
        assert html.count('class="disc chosen"') == 1
        assert "chosen for this build" in html
    host = boards(member_client, session, code, bruno)[0]
    assert f'class="disc chosen" href="?disc={disc}#build" data-disc="{disc}" aria-current="true"' in host
    session.refresh_from_db()
    member_client.post(f"/s/{session.pk}/do/undo/", {"expected_version": session.version})
    for html in boards(member_client, session, code, bruno):
        assert CHOSEN not in html
