"""The API as a generated client sees it (issue 42, point 6): a Python client generated from the
published schema by openapi-python-client (installed from the package registry into a virtual
environment of the test's own) plays a whole game, start to results, through its typed calls:
every move is its event type's own model (``TobFirstPlayerEvent`` with a
``TobFirstPlayerPayload``), the session's state comes back as its game's model, a move the rules
refuse comes back as a typed refusal naming the rule, a stale one as a typed 409, and the token
goes as the schema's scheme says (Bearer)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from sessions.api.tokens import create_api_token
from tests.integration.conftest import unavailable

pytestmark = pytest.mark.integration

GENERATOR = "openapi-python-client==0.29.1"
DRIVER = Path(__file__).with_name("generated_client_game.py")


@pytest.fixture(scope="module")
def generator(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtual environment holding the generator (and, through it, what its clients need)."""
    folder = tmp_path_factory.mktemp("generator")
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    installed = subprocess.run(
        [str(folder / "bin" / "pip"), "install", "--quiet", GENERATOR], capture_output=True, text=True, timeout=600
    )
    if installed.returncode != 0:
        unavailable(f"{GENERATOR} could not be installed: {installed.stderr[-500:]}")
    return folder


def test_a_client_generated_from_the_schema_plays_a_whole_game(generator, live_server, member, tmp_path):
    schema, where = tmp_path / "schema.yaml", ["--output-path", str(tmp_path / "babel_client")]
    call_command("spectacular", file=str(schema))
    generated = subprocess.run(
        [str(generator / "bin" / "openapi-python-client"), "generate", "--path", str(schema), "--meta", "none", *where],
        capture_output=True,
        text=True,
        timeout=300,
    )
    # Its post-generation formatting with ruff may be missing from its environment: the code is there.
    assert (tmp_path / "babel_client" / "client.py").exists(), generated.stdout + generated.stderr
    _token, key = create_api_token(user=member, name="generated client")
    environment = {**os.environ, "BASE_URL": live_server.url, "TOKEN": key, "PYTHONPATH": str(tmp_path)}
    played = subprocess.run(
        [str(generator / "bin" / "python"), str(DRIVER)], capture_output=True, text=True, env=environment, timeout=120
    )
    assert played.returncode == 0, played.stdout + played.stderr
    seen = json.loads(played.stdout)
    assert seen["status"] == "setup"
    assert seen["options"] == {"two_kind_discs": False, "action_cards": False, "table": None}
    assert seen["state"] == "playing"
    [(_field, rule, code)] = seen["refused"]  # one refusal, naming the rule
    assert code == "rule"
    assert rule.startswith("TB-")
    assert seen["stale"] == {"version": 1, "codes": ["stale"]}
    assert seen["active_is_the_first_player"] is True
    assert seen["event"][0] == "tob.first_player"
    assert seen["results"] == [
        ["Ada", 31, 2, {"points": 31}],
        ["Bruno", 47, 1, {"points": 47}],
        ["Chiara", 12, 3, {"points": 12}],
    ]
