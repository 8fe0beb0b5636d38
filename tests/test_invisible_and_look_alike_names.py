"""Names that cannot be told apart on a phone are refused (issue 42, point 3): a name with an
invisible or control character, one of invisible characters only, and one that is an existing
name once case and look-alike characters are folded (a Cyrillic A for a Latin one), naming the
existing one. The same rule on the pages' forms, the API and the group import, for players,
groups and the places of game nights (sessions/names.py)."""

import datetime
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from scoring.errors import RuleError
from sessions import services
from sessions.api.tokens import create_api_token
from sessions.importexport.bgstats import import_plays
from sessions.importexport.export import group_document
from sessions.importexport.importer import import_group
from sessions.models import GameNight, Group, Player
from tests.conftest import client_for
from tests.test_bgstats import export as bg_stats_export

CYRILLIC_A = "\u0410"  # looks like a Latin A

# (kind, name typed, what the refusal says); the group has Aldo and Élodie.
BAD_PLAYER_NAMES = [
    ("zero-width space", "Al\u200bdo", "“Al[U+200B]do” has U+200B ZERO WIDTH SPACE"),
    ("control character", "Al\x07do", "“Al[U+0007]do” has U+0007"),
    ("only invisible characters", "\u200b\u200b\u200b", "This name has only invisible characters"),
    ("Cyrillic look-alike", f"{CYRILLIC_A}ldo", f"“{CYRILLIC_A}ldo” looks the same as Aldo, already a player"),
    ("case-folded duplicate", "éLODIE", "This group already has a player called Élodie."),
]
KINDS = [kind for kind, _name, _said in BAD_PLAYER_NAMES]


def api_for(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_api_token(user=user, name='tests')[1]}")
    return client


@pytest.fixture
def named(group):
    """The group's players Aldo, Élodie and Bruno (in this order: the export lists them so)."""
    return [services.create_player(group=group, name=name) for name in ["Aldo", "Élodie", "Bruno"]]


def group_names(group):
    return sorted(group.players.values_list("name", flat=True))


# --- players: the pages' forms -------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "name", "said"), BAD_PLAYER_NAMES, ids=KINDS)
def test_the_add_players_form_refuses_each_kind_of_bad_name(member_client, group, named, kind, name, said):
    response = member_client.post(f"/g/{group.pk}/players/", {"name": f"Zoe, {name}"})
    assert response.status_code == 400
    assert said in response.content.decode()
    assert group_names(group) == ["Aldo", "Bruno", "Élodie"]  # not Zoe either: all or none


@pytest.mark.parametrize(("kind", "name", "said"), BAD_PLAYER_NAMES, ids=KINDS)
def test_the_rename_form_refuses_each_kind_of_bad_name(member_client, named, kind, name, said):
    bruno = named[2]
    response = member_client.post(f"/p/{bruno.pk}/rename/", {"name": name})
    assert said in response.content.decode()
    bruno.refresh_from_db()
    assert bruno.name == "Bruno"


def test_two_look_alike_names_in_one_list_are_refused_as_given_twice(member_client, group):
    response = member_client.post(f"/g/{group.pk}/players/", {"name": f"Aldo, Zoe, {CYRILLIC_A}ldo"})
    assert response.status_code == 400
    assert "This name is given twice: Aldo." in response.content.decode()
    assert group_names(group) == []


# --- players: the API ----------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "name", "said"), BAD_PLAYER_NAMES, ids=KINDS)
def test_the_api_refuses_each_kind_of_bad_player_name_naming_the_field(member, group, named, kind, name, said):
    response = api_for(member).post(f"/api/v1/groups/{group.pk}/players/", {"name": name}, format="json")
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["field"] == "name"
    assert said in error["message"]
    assert group_names(group) == ["Aldo", "Bruno", "Élodie"]


@pytest.mark.parametrize(("kind", "name", "said"), BAD_PLAYER_NAMES, ids=KINDS)
def test_the_api_rename_refuses_each_kind_of_bad_player_name(member, named, kind, name, said):
    bruno = named[2]
    response = api_for(member).patch(f"/api/v1/players/{bruno.pk}/", {"name": name}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "name"
    assert said in response.json()["errors"][0]["message"]
    assert Player.objects.get(pk=bruno.pk).name == "Bruno"


def test_a_capital_i_for_a_small_l_is_a_look_alike(group, named):
    with pytest.raises(RuleError) as refused:
        services.create_player(group=group, name="AIdo")
    assert refused.value.params == {"value": "AIdo", "name": "Aldo"}


def test_an_archived_look_alike_points_to_the_archived_players(group, named):
    Player.objects.filter(pk=named[0].pk).update(archived_at=datetime.datetime(2026, 11, 1, tzinfo=datetime.UTC))
    with pytest.raises(RuleError) as refused:
        services.create_player(group=group, name=f"{CYRILLIC_A}LDO")
    assert refused.value.message == "Aldo is archived: bring them back from the archived players."


def test_names_are_kept_in_nfkc_with_one_space_between_words(member, group):
    response = api_for(member).post(
        f"/api/v1/groups/{group.pk}/players/", {"name": "  \uff3aoe \u00a0  Rossi "}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["name"] == "Zoe Rossi"  # a full-width Z, a no-break space


def test_names_that_look_different_are_not_look_alikes(group):
    for name in ["Elise", "Élise", "Dan", "Dam", "Anna", "Ana", "❤️ Ada", "Ada"]:
        services.create_player(group=group, name=name)
    assert len(group_names(group)) == 8


# --- players: the group import -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "name", "said"),
    [
        *BAD_PLAYER_NAMES[:3],
        ("Cyrillic look-alike", f"{CYRILLIC_A}ldo", f"“{CYRILLIC_A}ldo” looks the same as “Aldo”"),
        ("case-folded duplicate", "éLODIE", "Two players are called éLODIE."),
    ],
    ids=KINDS,
)
def test_the_group_import_refuses_each_kind_of_bad_player_name_naming_the_field(
    group, named, outsider, kind, name, said
):
    document = json.loads(json.dumps(group_document(group)))
    assert document["players"][2]["name"] == "Bruno"
    document["players"][2]["name"] = name
    with pytest.raises(RuleError) as refused:
        import_group(owner=outsider, document=document)
    assert refused.value.field == "players[2].name"
    assert said in refused.value.message
    response = api_for(outsider).post("/api/v1/groups/import/", document, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "players[2].name"
    upload = SimpleUploadedFile("group.json", json.dumps(document).encode())
    assert client_for(outsider).post("/groups/import/", {"file": upload}).status_code == 400
    assert not Group.objects.filter(memberships__user=outsider).exists()


@pytest.mark.parametrize(("kind", "name", "said"), BAD_PLAYER_NAMES[:3], ids=KINDS[:3])
def test_the_bg_stats_import_refuses_a_player_name_with_invisible_characters(owner, group, kind, name, said):
    document = bg_stats_export()
    document["players"][2]["name"] = name
    with pytest.raises(RuleError) as refused:
        import_plays(group=group, document=document, user=owner)
    assert refused.value.field == "players[2].name"
    assert said in refused.value.message
    assert not group.players.exists()


def test_the_bg_stats_import_refuses_a_place_with_invisible_characters(owner, group):
    document = bg_stats_export()
    document["locations"][0]["name"] = "Ada\u200b's"
    with pytest.raises(RuleError) as refused:
        import_plays(group=group, document=document, user=owner)
    assert refused.value.field == "locations[0].name"
    assert not group.nights.exists()


def test_the_bg_stats_import_seats_a_look_alike_as_the_groups_player(owner, group, named):
    document = bg_stats_export()
    document["players"][0]["name"] = f"{CYRILLIC_A}LDO"  # ada in the export: here Aldo
    report = import_plays(group=group, document=document, user=owner)
    assert "Aldo" not in report.players
    assert group.players.filter(name="Aldo").get().seats.exists()


def test_a_group_imported_beside_one_of_its_owners_of_that_name_is_numbered(group, named, owner):
    document = group_document(group)
    document["group"]["name"] = "THURSDAY TABLE"
    assert import_group(owner=owner, document=document).name == "THURSDAY TABLE (2)"
    assert import_group(owner=owner, document=document).name == "THURSDAY TABLE (3)"


# --- groups --------------------------------------------------------------------------------------

BAD_GROUP_NAMES = [
    ("zero-width space", "Aldo\u200b table", "has U+200B ZERO WIDTH SPACE"),
    ("control character", "Aldo\x07 table", "has U+0007"),
    ("only invisible characters", "\u200b\u200b", "This name has only invisible characters"),
    ("Cyrillic look-alike", f"{CYRILLIC_A}ldo table", "looks the same as Aldo table, a group you already have"),
    ("case-folded duplicate", "ALDO TABLE", "You already have a group called Aldo table."),
]


@pytest.fixture
def aldo_table(owner):
    return services.create_group(owner=owner, name="Aldo table")


@pytest.mark.parametrize(("kind", "name", "said"), BAD_GROUP_NAMES, ids=KINDS)
def test_the_new_group_form_refuses_each_kind_of_bad_name(owner_client, owner, aldo_table, kind, name, said):
    response = owner_client.post("/groups/new/", {"name": name, "idempotency_key": kind})
    assert response.status_code == 400
    assert said in response.content.decode()
    assert Group.objects.filter(memberships__user=owner).count() == 1


@pytest.mark.parametrize(("kind", "name", "said"), BAD_GROUP_NAMES, ids=KINDS)
def test_the_api_refuses_each_kind_of_bad_group_name(owner, aldo_table, kind, name, said):
    response = api_for(owner).post("/api/v1/groups/", {"name": name}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "name"
    assert said in response.json()["errors"][0]["message"]
    assert Group.objects.filter(memberships__user=owner).count() == 1


def test_another_account_may_have_a_group_of_that_name(aldo_table, outsider):
    assert services.create_group(owner=outsider, name="ALDO TABLE").name == "ALDO TABLE"


# --- the places of game nights --------------------------------------------------------------------

BAD_PLACES = [
    ("zero-width space", "Casa\u200b Aldo", "has U+200B ZERO WIDTH SPACE"),
    ("control character", "Casa\x07Aldo", "has U+0007"),
    ("only invisible characters", "\u200b\u200b", "A place cannot hold invisible or control characters"),
    ("Cyrillic look-alike", f"Casa {CYRILLIC_A}ldo", "looks the same as Casa Aldo, where this group already has"),
    ("case-folded duplicate", "CASA ALDO", "This group already has a game night at Casa Aldo on 2026-11-19."),
]


@pytest.fixture
def casa_aldo(group):
    return services.create_night(group=group, date=datetime.date(2026, 11, 19), place="Casa Aldo")


@pytest.mark.parametrize(("kind", "place", "said"), BAD_PLACES, ids=KINDS)
def test_the_new_night_form_refuses_each_kind_of_bad_place(member_client, group, casa_aldo, kind, place, said):
    response = member_client.post(f"/g/{group.pk}/nights/", {"date": "2026-11-19", "place": place})
    assert response.status_code == 400
    assert said in response.content.decode()
    assert list(GameNight.objects.filter(group=group)) == [casa_aldo]


@pytest.mark.parametrize(("kind", "place", "said"), BAD_PLACES, ids=KINDS)
def test_the_api_refuses_each_kind_of_bad_place(member, group, casa_aldo, kind, place, said):
    response = api_for(member).post(
        f"/api/v1/groups/{group.pk}/nights/", {"date": "2026-11-19", "place": place}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "place"
    assert said in response.json()["errors"][0]["message"]
    assert list(GameNight.objects.filter(group=group)) == [casa_aldo]


def test_the_same_place_another_day_or_no_place_is_another_night(group, casa_aldo):
    services.create_night(group=group, date=datetime.date(2026, 11, 20), place="CASA ALDO")
    services.create_night(group=group, date=datetime.date(2026, 11, 19))
    services.create_night(group=group, date=datetime.date(2026, 11, 19))
    assert group.nights.count() == 4


def test_the_group_import_refuses_a_place_with_invisible_characters(group, casa_aldo, outsider):
    document = group_document(group)
    document["nights"][0]["place"] = "Casa\u200b Aldo"
    with pytest.raises(RuleError) as refused:
        import_group(owner=outsider, document=document)
    assert refused.value.field == "nights[0].place"


# --- the rule itself -----------------------------------------------------------------------------


def test_the_folding_is_unicodes_skeleton_with_case_folded():
    from sessions import names

    def alike(one, other):
        return bool(names.fold_keys(one) & names.fold_keys(other))

    assert alike("Aldo", f"{CYRILLIC_A}ldo")
    assert alike("Aldo", "ALDO")
    assert alike("Straße", "STRASSE")
    assert alike("Aldo", "A\u217cdo")  # SMALL ROMAN NUMERAL FIFTY
    assert not alike("Élise", "Elise")
    assert not alike("Dan", "Dam")


def test_a_name_made_longer_by_nfkc_is_refused_naming_the_limit(group):
    with pytest.raises(RuleError) as refused:
        services.create_player(group=group, name="\ufdfa" * 3)  # one character, 18 once decomposed
    assert refused.value.params["limit"] == 40
    assert refused.value.params["count"] == 54
