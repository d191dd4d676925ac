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
