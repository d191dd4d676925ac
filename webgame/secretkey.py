"""The secret key of a deployment that did not set ``SECRET_KEY``: generated
once into an untracked file and read from it on every later start, so that a
fresh clone's ``make run`` needs no configuration and never runs on a key
anyone else knows.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from django.core.management.utils import get_random_secret_key


def secret_key_from_file(path: Path) -> str:
    """Return the key stored in ``path``, creating the file (mode 0600) with a
    new random key first if it does not exist.

    Processes starting at once (uvicorn workers, a test and its server) all
    read the one key: the file is created exclusively and the losers of the
    race read the winner's.
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(get_random_secret_key() + "\n")
    for _attempt in range(50):  # the creator may not have written it yet
        key = path.read_text(encoding="ascii").strip()
        if key:
            return key
        time.sleep(0.01)
    raise RuntimeError(f"the secret key file {path} is empty: delete it")
