"""Sessions not finished travel sealed in an export: their secret and log hold hands still in play.

A finished session is exported in clear, its secret published. One not finished (an abandoned
one can be taken up again) carries the secret its deal and dice come from, and a log whose
drafted tiles are still hidden; the owner who downloads the export may be playing it. So it
travels encrypted and authenticated (Fernet, from the maintained ``cryptography`` package)
under a key derived from this server's SECRET_KEY: an import on this server opens it, another
server cannot, and nobody can read it.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from cryptography.fernet import Fernet, InvalidToken
from django.utils.crypto import salted_hmac

PURPOSE = "babel.importexport.sealed-session"


class CannotUnseal(Exception):
    """The sealed text was made by another server (another SECRET_KEY) or was changed."""


def _fernet() -> Fernet:
    key = salted_hmac(PURPOSE, "fernet-key", algorithm="sha256").digest()
    return Fernet(base64.urlsafe_b64encode(key))


def seal(document: dict[str, Any]) -> str:
    return _fernet().encrypt(json.dumps(document, ensure_ascii=False).encode()).decode("ascii")


def unseal(token: str) -> Any:
    try:
        return json.loads(_fernet().decrypt(token.encode("ascii", errors="replace")))
    except (InvalidToken, ValueError) as refused:
        raise CannotUnseal from refused
