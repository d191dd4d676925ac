"""The embedded database (SQLite) under writes from several threads, as the
flag watcher's beat and a player's move are in one web process."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from webgame.models import ServerBeat
from webgame.services import beats

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_write_after_a_read_waits_for_another_writer_instead_of_failing():
    # Study walk: "the flag watcher failed … database is locked" beside a
    # move. A transaction that read, then wrote after another connection
    # had written, failed at once: SQLite does not wait to turn a stale
    # reader into a writer. Each transaction now takes the write lock first.
    beats.beat(1)
    read = threading.Event()
    errors = []

    def reader_then_writer():
        try:
            with transaction.atomic():
                ServerBeat.objects.get(pk=1)
                read.set()
                threading.Event().wait(0.5)  # the other writes meanwhile, or waits
                ServerBeat.objects.filter(pk=1).update(at=2)
        except Exception as exc:  # noqa: BLE001 - the failure is the finding
            errors.append(exc)
        finally:
            connection.close()

    def writer():
        try:
            read.wait(5)
            with transaction.atomic():
                ServerBeat.objects.filter(pk=1).update(at=3)
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=f) for f in (reader_then_writer, writer)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    assert beats.last_beat() in (2, 3)  # both applied, one after the other
