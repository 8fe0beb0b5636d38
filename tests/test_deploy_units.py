"""The systemd units in deploy/systemd (issue 43, point 7) are units systemd takes, and the probe
they run asks the health endpoints as a load balancer would."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from sessions import health
from tests.integration.conftest import in_ci

REPO = Path(__file__).resolve().parents[1]
UNITS = sorted((REPO / "deploy" / "systemd").iterdir())
PROBE = REPO / "deploy" / "probe"


def test_every_unit_is_one_systemd_takes_as_it_is_written(tmp_path):
    if shutil.which("systemd-analyze") is None:
        if in_ci():
            pytest.fail("systemd-analyze is missing (Debian's systemd package)")
        pytest.skip("systemd-analyze is not installed")
    env = tmp_path / "env"
    env.write_text("SECRET_KEY=x\n")
    installed = []
    for unit in UNITS:  # as installed, with this checkout in /srv/babel-companion's place
        text = unit.read_text().replace("/srv/babel-companion", str(REPO))
        (tmp_path / unit.name).write_text(text.replace("/etc/babel-companion/env", str(env)))
        installed.append(str(tmp_path / unit.name))
    assert {Path(name).suffix for name in installed} == {".service", ".timer"}
    checked = subprocess.run(["systemd-analyze", "verify", *installed], capture_output=True, text=True, check=False)
    assert (checked.returncode, checked.stdout + checked.stderr) == (0, "")


@pytest.mark.django_db(transaction=True)
def test_the_probe_passes_while_the_server_answers_and_fails_when_it_does_not(live_server):
    health.worker_reported()  # as a worker does, where tasks go to one (REDIS_URL set)
    port = live_server.url.rsplit(":", 1)[1]
    env = {"ALLOWED_HOSTS": "localhost,babel.example", "PATH": "/usr/bin:/bin"}
    for kind in ("live", "ready"):
        assert subprocess.run([str(PROBE), kind, port], env=env, check=False).returncode == 0, kind
    unused = subprocess.run([str(PROBE), "live", "9"], env=env, capture_output=True, check=False)
    assert unused.returncode != 0
