"""The API against its own OpenAPI schema: schemathesis over every operation of /api/schema/,
against a real uvicorn server on PostgreSQL and Redis.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/babel_contract REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python -m bench.api_contract [--examples 10] [--seed 15]

The database named by DATABASE_URL is dropped and created anew (never point it at data you
keep), migrated, and given two accounts, each with an API token, a group, players, a game night
and a session in play: "contract", whom every operation is called as, and "rival", whom
schemathesis asks for contract's objects (``object_level_authorization``: each gets only its
own). The two send their tokens with the two prefixes the API takes, ``Bearer`` and ``Token``
(a Web Fuzzing Commons auth file and a schemathesis.toml naming them peers). Every check
schemathesis has runs but one, on every operation but one (below): server errors, status
codes, content types, headers and bodies against the schema, schema-violating data refused,
authentication enforced, created objects found, one account kept from another's objects, with
a fixed seed and a bounded number of examples per operation; the exit code is schemathesis's
(0: no failure).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import psycopg

from bench import servers

# Checks left out, each with its reason:
# - positive_data_acceptance: schemathesis expects a 2xx for every schema-valid body, but
#   the rules of the games refuse most random moves (a 400 naming the rule is the contract).
EXCLUDED_CHECKS = ("positive_data_acceptance",)
# Operations left out, with their reasons:
# - tokens_destroy: its stateful phase revokes, by an id the token list gives, the very token the
#   run is made with, and every operation after it gets only 401s. tests/test_api_tokens.py
#   covers it (use_after_free then finds nothing to check: the API deletes nothing else).
EXCLUDED_OPERATIONS = ("tokens_destroy",)

# Who the operations are called as, and who must not see that account's objects.
OWNER, PEER = "contract", "rival"


def fresh_database(url: str) -> None:
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if name in ("babel", "test_babel", "postgres", ""):
        raise SystemExit(f"refusing to drop the database {name!r}: name one of its own")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def seed_data() -> dict[str, str]:
    """Two accounts, each with a group and a session in play: their API tokens' keys by name."""
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.utils import timezone

    from sessions import services
    from sessions.api import tokens

    keys = {}
    for name in (OWNER, PEER):
        user = User.objects.create_user(name, password=f"{name}-run-2026")
        group = services.create_group(owner=user, name=name.title())
        players = [services.create_player(group=group, name=player) for player in ("Ada", "Bea", "Cy")]
        night = services.create_night(group=group, date=timezone.localdate(), place="", notes="")
        session = services.create_session(night=night, game="tower-of-babel", players=players, options={}, secret="f")
        services.append_event(session_id=session.pk, expected_version=0, type="session.start")
        _token, keys[name] = tokens.create_api_token(user=user, name=name)
    return keys


def auth_config(scratch: Path, keys: dict[str, str]) -> Path:
    """schemathesis.toml: every operation as OWNER (its token as Bearer), PEER (as Token) kept
    for asking for OWNER's objects."""
    prefixes = {OWNER: "Bearer", PEER: "Token"}
    users = [
        {"name": name, "fixedHeaders": [{"name": "Authorization", "value": f"{prefixes[name]} {key}"}]}
        for name, key in keys.items()
    ]
    (scratch / "auth.json").write_text(json.dumps({"auth": users}))
    config = scratch / "schemathesis.toml"
    settings = {"path": str(scratch / "auth.json"), "user": OWNER, "peers": [OWNER, PEER]}
    # JSON's strings and arrays of them are TOML's too.
    config.write_text("[auth.wfc]\n" + "".join(f"{name} = {json.dumps(value)}\n" for name, value in settings.items()))
    return config


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=10, help="test cases per operation and phase")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--report-dir", type=Path, default=None, help="keep schemathesis's JUnit report here")
    args = parser.parse_args()

    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "babel_companion.settings",
        "DEBUG": "false",
        "SECRET_KEY": os.environ.get("SECRET_KEY", "contract-run-not-secret-" + "x" * 40),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        # The throttle has its own tests; here it would only hide the answers behind 429s.
        "CALCULATOR_ANON_RATE": "0",
    }
    for required in ("DATABASE_URL", "REDIS_URL"):
        if not env.get(required):
            raise SystemExit(f"{required} must name a PostgreSQL database and a Redis database of this run")
    os.environ.update(env)
    fresh_database(env["DATABASE_URL"])
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=servers.REPO, env=env, check=True)
    keys = seed_data()

    with (
        tempfile.TemporaryDirectory(prefix="api-contract-") as scratch,
        servers.running(1, env=env, log_dir=Path(scratch), workers=1) as (server,),
    ):
        command = [
            str(Path(sys.executable).parent / "st"),
            "--no-color",
            "--config-file",
            str(auth_config(Path(scratch), keys)),
            "run",
            f"{server.origin}/api/schema/",
            "--url",
            server.origin,
            "--checks",
            "all",
            "--exclude-checks",
            ",".join(EXCLUDED_CHECKS),
            *(option for operation in EXCLUDED_OPERATIONS for option in ("--exclude-operation-id", operation)),
            "--max-examples",
            str(args.examples),
            "--seed",
            str(args.seed),
            # One worker: with two threads, Python 3.11's ast.parse (which Hypothesis calls to
            # describe a filter) races on its recursion counter and stops the run with a
            # SystemError now and then (CPython gh-106905, fixed in 3.12).
            "--workers",
            "1",
        ]
        if args.report_dir is not None:
            command += ["--report", "junit", "--report-dir", str(args.report_dir)]
        outcome = subprocess.run(command, cwd=scratch, env=env, check=False)  # its cache stays there
        errors = [line[:300] for line in server.output().splitlines() if "Traceback" in line or '" 500 ' in line]
        if errors:
            print(f"the server logged {len(errors)} errors:", *errors, sep="\n")
        return outcome.returncode or (1 if errors else 0)


if __name__ == "__main__":
    sys.exit(main())
