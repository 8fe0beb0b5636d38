"""Every page speaks English, Italian, French and German."""

import pytest
from django.utils import translation

from scoring.errors import RuleError
from sessions.rule_messages import describe


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "Join a table"),
        ("it", "Unisciti a un tavolo"),
        ("fr", "Rejoindre une table"),
        ("de", "Einem Tisch beitreten"),
    ],
)
def test_the_home_page_follows_the_browser_language(client, db, language, expected):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<html lang="{language}">' in page
    assert expected in page


def test_the_language_switcher_remembers_the_choice(client, db):
    response = client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    assert response.status_code == 302
    assert 'lang="de"' in client.get("/").content.decode()


@pytest.mark.parametrize("language", ["it", "fr", "de"])
def test_engine_refusals_are_translated_and_keep_their_rule_id(language):
    error = RuleError(
        "{game} is played by {low} to {high} players.",
        field="seats",
        rule="TB-1",
        params={"game": "Tower of Babel", "low": 3, "high": 5},
    )
    with translation.override(language):
        message = describe(error)
    assert message != "Tower of Babel is played by 3 to 5 players. (rule TB-1)"
    assert "TB-1" in message
    with translation.override(language):  # the game's title on that language's edition
        assert translation.pgettext("game title", "Tower of Babel") in message


def _entries(po_text):
    """(msgid, msgstrs, is_fuzzy) for each entry of a .po file, header left out."""
    for block in po_text.strip().split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#~")]
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in lines)
        fields: dict[str, str] = {}
        current = None
        for line in lines:
            if line.startswith("#") or not line.strip():
                continue
            if line.startswith('"'):
                fields[current] += line.strip()[1:-1]
            else:
                current, _, rest = line.partition(" ")
                fields[current] = rest.strip()[1:-1]
        if fields.get("msgid"):
            yield fields["msgid"], [v for k, v in fields.items() if k.startswith("msgstr")], fuzzy


@pytest.mark.parametrize("language", ["it", "fr", "de"])
def test_every_message_is_translated(language):
    from django.conf import settings

    po_text = (settings.BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po").read_text()
    entries = list(_entries(po_text))
    assert len(entries) > 100
    missing = [msgid for msgid, msgstrs, fuzzy in entries if fuzzy or not all(msgstrs)]
    assert missing == []


@pytest.mark.parametrize("language", ["it", "fr", "de"])
def test_every_catalogue_compiles_with_matching_placeholders(language, tmp_path):
    import subprocess

    from django.conf import settings

    po = settings.BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po"
    checked = subprocess.run(
        ["msgfmt", "--check-format", "-o", str(tmp_path / "django.mo"), str(po)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr
