"""When the web processes were last seen alive: the server's beat.

A server that stops notes its time in each running clock (``stopped``), and
its start gives the side to move the time it was down (:mod:`.clocks`). A
server killed (a crash, ``kill -9``, the machine switched off) notes
nothing: its start gave a flat 20 s, and a crash of minutes lost the side to
move its game on time (operator QA). So the flag watcher notes every
:data:`BEAT_EVERY` seconds that it is alive, in the database, which outlives
the process; a start gives the time since the last beat of any web process
(of a cluster's, the others' beats are fresh: only the usual 20 s).
"""

from __future__ import annotations

from ..models import ServerBeat
from .clocks import now_ms

#: How often the flag watcher notes that the server is alive, in seconds: a
#: crash's start gives at most this much more than the time it was down.
BEAT_EVERY = 5.0


def beat(at: int | None = None) -> None:
    """Note that a web process is alive now, or at ``at`` (ms since the
    epoch)."""
    ServerBeat.objects.update_or_create(
        pk=1, defaults={"at": now_ms() if at is None else at}
    )


def last_beat() -> int | None:
    """When a web process was last seen alive, or None if never."""
    row = ServerBeat.objects.filter(pk=1).first()
    return row.at if row else None
