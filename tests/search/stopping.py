"""A helper the search tests share: a long search stopped from another
thread."""

import threading
import time


def stopped_search(searcher, *, after: float):
    """Start a 30 s search of ``searcher`` in a thread, stop it ``after``
    seconds; return (its result, the seconds it took to return once asked)."""
    results = []
    thread = threading.Thread(
        target=lambda: results.append(searcher.search(seconds=30))
    )
    thread.start()
    time.sleep(after)
    asked = time.perf_counter()
    searcher.stop()
    thread.join(timeout=5)
    assert not thread.is_alive()
    return results[0], time.perf_counter() - asked
