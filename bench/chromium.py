"""Debian's Chromium as the browser tests and the browser benchmark launch it (headless, as
root, on a machine whose network is closed: without the background-networking switches it
keeps trying to reach Google's hosts). Its tabs share memory through files in /tmp rather than
/dev/shm, which a container may hold to 64 MB: there, a tab that outgrows it crashes."""

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
