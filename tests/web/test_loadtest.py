"""The load command runs its own server, plays, and reports its figures."""

import re

import pytest
from django.core.management import CommandError, call_command


def test_loadtest_reports_rate_latency_and_errors(capsys):
    call_command("loadtest", clients=3, seconds=2.0, pause=0.1)
    out = capsys.readouterr().out
    assert re.search(r"requests \d+ \(\d+\.\d/s\)", out)
    assert re.search(r"non-AI latency p50 \d+\.\d ms, p99 \d+\.\d ms", out)
    assert "errors 0" in out
    done = int(re.search(r"non-AI (\d+)", out).group(1))
    assert done > 10


def test_loadtest_is_bounded_and_stays_on_loopback():
    with pytest.raises(CommandError):
        call_command("loadtest", clients=10_000, seconds=1)
    with pytest.raises(CommandError):
        call_command("loadtest", clients=1, seconds=3600)
    with pytest.raises(CommandError, match="internal"):
        call_command("loadtest", serve=True)
    with pytest.raises(CommandError, match="loopback"):
        call_command("loadtest", clients=1, seconds=1, url="http://example.com:80")


def test_loadtest_hog_option_shows_other_clients_served_in_turn(capsys):
    call_command("loadtest", clients=2, seconds=5.0, pause=0.2, hog=4, hog_think=1.0)
    out = capsys.readouterr().out
    assert "errors 0" in out
    # No player's AI request was deferred, none waited more than the hog's
    # running search plus 2 s.
    assert "deferred (503 + Retry-After, retried) 0" in out, out
    ai_max = float(re.search(r"AI latency \(done\).* max (\d+\.\d) ms", out).group(1))
    assert ai_max < 3000, out
    hog = re.search(r"hog: 4 games x 1 s hints: (\d+) done, (\d+) refused", out)
    assert hog and int(hog.group(1)) >= 1 and int(hog.group(2)) >= 1, out
