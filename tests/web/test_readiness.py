"""A server's first start: the AI compiles in a process of its own while the
page already works; ``/api/ai/`` tells how far each game is, and an AI move
asked for meanwhile waits for its game and then plays, never an error."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from rest_framework.test import APIClient

from webgame import startup
from webgame.services import treemodels

from .helpers import FAST_AI, HUMAN, create, url

ROOT = Path(__file__).resolve().parents[2]


def _until(condition, seconds=300.0) -> None:
    """Wait for ``condition`` (loading a game may compile it here: a cold cache)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


@pytest.mark.django_db
def test_without_a_warm_up_every_game_is_ready():
    body = APIClient().get("/api/ai/").json()
    assert body["ready"] is True
    assert {name: g["ready"] for name, g in body["games"].items()} == {
        "gomoku": True,
        "reversi": True,
        "loa": True,
    }


@pytest.mark.django_db
def test_the_page_learns_each_games_progress_and_when_it_became_ready(warming):
    readiness, write = warming
    client = APIClient()
    write(gomoku=("compiling", 0.4))
    _until(lambda: client.get("/api/ai/").json()["games"]["gomoku"]["progress"] == 0.4)
    body = client.get("/api/ai/").json()
    assert body["ready"] is False
    assert body["games"]["gomoku"] == {"ready": False, "progress": 0.4, "seconds": None}
    write(gomoku=("compiling", 0.5), loa=("ready", 1.0))
    _until(lambda: readiness.is_ready("loa"))
    loa = client.get("/api/ai/").json()["games"]["loa"]
    assert loa["ready"] is True and loa["progress"] == 1.0 and loa["seconds"] >= 0
    assert not readiness.is_ready("gomoku")


def test_the_log_says_once_when_every_game_is_ready(warming, caplog):
    # First-start walk: a line per game, and none for all of them.
    readiness, write = warming
    caplog.set_level(logging.INFO, logger="webgame.services.readiness")
    write(gomoku=("ready", 1.0), loa=("ready", 1.0), reversi=("ready", 1.0))
    _until(lambda: "every game is ready" in caplog.text, seconds=120)
    assert caplog.text.count("the AI of every game is ready") == 1


@pytest.mark.django_db(transaction=True)
def test_an_ai_move_asked_early_waits_for_its_game_then_plays(warming):
    readiness, write = warming
    client = APIClient()
    game = create(client, "loa", black=FAST_AI, white=HUMAN).json()
    # People play meanwhile: a human game needs only the rules.
    other = create(client, "reversi").json()
    moved = client.post(url("game-moves", other["id"]), {"move": "d3"}, format="json")
    assert moved.status_code == 200, moved.content
    answers = []
    asked = threading.Thread(
        target=lambda: answers.append(
            APIClient().post(url("game-ai-move", game["id"]), format="json")
        )
    )
    asked.start()
    time.sleep(0.5)
    assert asked.is_alive() and not answers  # waiting for Lines of Action's AI
    write(loa=("ready", 1.0))
    asked.join(timeout=60)
    assert answers and answers[0].status_code == 200, answers and answers[0].content
    assert answers[0].json()["game"]["ply"] == 1


@pytest.mark.django_db
def test_the_rules_light_models_are_loaded_once_a_game_is_ready(warming, monkeypatch):
    # AI QA: a first renju game's first AI move waited 4 s for light-renju.
    fresh = treemodels.Preparations()
    monkeypatch.setattr(treemodels, "PREPARATIONS", fresh)
    readiness, write = warming
    write(gomoku=("ready", 1.0))
    _until(lambda: fresh.is_ready("gomoku", "light-renju"), 120)
    assert fresh.is_ready("gomoku", "light")
    assert not fresh.is_ready("reversi", "light")  # not ready yet: not loaded


def _sleeper(launched):
    """A Popen that records its command and starts a sleeping process: a
    warm-up launched again, that the test kills when it likes."""

    start = subprocess.Popen  # the module's own is about to be replaced

    def popen(command, **kwargs):
        launched.append(command)
        return start([sys.executable, "-c", "import time; time.sleep(600)"])

    return popen


@pytest.mark.django_db
def test_a_warm_up_that_dies_is_launched_again_once(warming, monkeypatch):
    # QA: a warm-up killed (out of memory, say) left every game "ready", and
    # the first AI move compiled in the server: every request waited on it.
    # (A warm-up that stops or fails otherwise is not: see below.)
    readiness, _ = warming
    launched = []
    monkeypatch.setattr(startup.subprocess, "Popen", _sleeper(launched))
    status_file = readiness._warm.status_file
    readiness._warm.process.kill()
    _until(lambda: launched, 30)
    assert launched == [startup.warm_command(status_file)]
    time.sleep(0.5)
    assert not readiness.status()["ready"]  # the new one compiles
    readiness._warm.process.kill()  # killed too: no third
    _until(lambda: readiness.status()["ready"], 30)
    assert len(launched) == 1


@pytest.mark.django_db
def test_a_warm_up_stopped_is_not_launched_again(warming, monkeypatch):
    # Ctrl+C stops the server and its warm-up together: no new warm-up may
    # start as the server exits.
    readiness, _ = warming
    launched = []
    monkeypatch.setattr(startup.subprocess, "Popen", _sleeper(launched))
    readiness._warm.process.terminate()
    _until(lambda: readiness.status()["ready"], 30)
    assert launched == []


def test_a_worker_of_several_without_redis_is_told_in_the_log(monkeypatch, caplog):
    # Operator QA: uvicorn --workers 2 without REDIS_URL started without a
    # word, though each worker then keeps its own live updates and AI queue.
    monkeypatch.setattr(startup.multiprocessing, "parent_process", lambda: object())
    startup.warn_about_workers("")
    (said,) = [r for r in caplog.records if r.name == "webgame.startup"]
    assert said.levelname == "ERROR" and "REDIS_URL" in said.getMessage()
    caplog.clear()
    startup.warn_about_workers("redis://localhost:6379/0")  # the scale-out
    monkeypatch.setattr(startup.multiprocessing, "parent_process", lambda: None)
    startup.warn_about_workers("")  # one process: make run
    assert not [r for r in caplog.records if r.name == "webgame.startup"]


def test_a_warm_up_status_in_no_folder_is_refused_at_once(monkeypatch, tmp_path):
    # Operator QA: AI_WARM_STATUS=/nonexistent/warm.json started nothing for
    # 120 s, then served an AI that never came ready, its moves waiting
    # forever without a word in the log.
    def launched(*args, **kwargs):
        raise AssertionError("a warm-up was launched")

    monkeypatch.setenv("AI_WARM_UP", "1")
    monkeypatch.setenv("AI_WARM_STATUS", str(tmp_path / "none" / "warm.json"))
    monkeypatch.setattr(startup.subprocess, "Popen", launched)
    started = time.monotonic()
    with pytest.raises(ImproperlyConfigured, match="^AI_WARM_STATUS=.*make run"):
        startup.launch_warm_up()
    assert time.monotonic() - started < 1


@pytest.mark.parametrize("value", ["0", "off", "OFF", " False ", "No"])
def test_the_warm_up_is_switched_off_in_any_case(monkeypatch, value):
    def launched(*args, **kwargs):
        raise AssertionError(f"AI_WARM_UP={value!r} launched the warm-up")

    monkeypatch.setenv("AI_WARM_UP", value)
    monkeypatch.setattr(startup.subprocess, "Popen", launched)
    assert startup.launch_warm_up() is None


def test_make_runs_no_warm_up_when_it_is_switched_off(tmp_path):
    status = tmp_path / "warm.json"
    done = subprocess.run(
        [sys.executable, "-m", "webgame.startup", str(status)],
        env={**os.environ, "AI_WARM_UP": "Off"},
        cwd=ROOT,
        timeout=30,
    )
    assert done.returncode == 0 and not status.exists()
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    run = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "-m webgame.startup $$status $$$$ &" in run and "mcts warm" not in run


def test_make_runs_status_folder_goes_when_the_warm_up_is_switched_off(tmp_path):
    # Operator QA: each make run with AI_WARM_UP=0 left its empty
    # mcts-warm-XXXXXXXX folder in /tmp (make makes it before the start).
    folder = tmp_path / f"{startup.STATUS_FOLDER}abcdefgh"
    folder.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "webgame.startup", str(folder / "warm.json")],
        env={**os.environ, "AI_WARM_UP": "0"},
        cwd=ROOT,
        timeout=30,
    )
    assert done.returncode == 0 and not folder.exists()


def test_the_warm_up_runs_as_many_processes_as_asked(monkeypatch, tmp_path):
    monkeypatch.setenv("AI_WARM_JOBS", "3")
    command = startup.warm_command(tmp_path / "warm.json")
    assert command[1:4] == ["-m", "mcts", "warm"]
    assert command[-2:] == ["--jobs", "3"]


def test_a_start_leaves_no_warm_up_status_behind(tmp_path):
    said = tmp_path / "said.txt"
    script = (
        "import sys; from pathlib import Path; from webgame import startup\n"
        "warm = startup.launch_warm_up()\n"
        "Path(sys.argv[1]).write_text(\n"
        "    f'{warm.status_file} {warm.process.pid} {warm.status().get(\"rules\")}')\n"
    )
    subprocess.run(
        [sys.executable, "-c", script, str(said)],
        env={**os.environ, "AI_WARM_UP": "1"},
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=300,
    )
    status, pid, rules = said.read_text().split()
    os.kill(int(pid), 9)  # the warm-up stops with its server; sooner here
    assert rules == "True"
    assert Path(status).parent.name.startswith("mcts-warm-")
    assert not Path(status).parent.exists()


def test_only_a_warm_up_status_folder_is_removed(tmp_path):
    mine = tmp_path / "mine" / "warm.json"
    mine.parent.mkdir()
    mine.write_text("{}")
    startup.remove_status(mine)
    assert mine.exists()
    warm = tmp_path / f"{startup.STATUS_FOLDER}abc" / "warm.json"
    warm.parent.mkdir()
    warm.write_text("{}")
    startup.remove_status(warm)
    assert not warm.parent.exists()
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert f"mktemp -d -t {startup.STATUS_FOLDER}XXXXXXXX" in makefile


def test_a_warm_up_whose_server_is_gone_warms_on_quietly(tmp_path):
    from mcts.play.warmup import write_status

    status = tmp_path / "gone" / "status.json"
    write_status(status, {}, time.time(), rules=True)  # no error
    assert not status.parent.exists()


@pytest.mark.parametrize(
    ("code", "expected"),
    [("import sys; sys.exit(3)", 3), ("import os; os.kill(os.getpid(), 9)", -9)],
)
def test_a_warm_up_started_before_the_server_is_collected_when_it_ends(
    tmp_path, code, expected
):
    # Operator QA: `make run`'s warm-up, the server's child once the shell
    # became the server, stayed a zombie; and its kill could not be told from
    # a failure, so it was never launched again.
    pid = os.spawnv(os.P_NOWAIT, sys.executable, [sys.executable, "-c", code])
    status = tmp_path / "warm.json"
    status.write_text(json.dumps({"pid": pid}))
    warm = startup.WarmUp(None, status, time.monotonic())
    _until(lambda: warm.exit_code() is not None, 30)
    assert warm.exit_code() == expected
    with pytest.raises(ChildProcessError):  # collected: no zombie left
        os.waitpid(pid, os.WNOHANG)


def _stopped(pid: int) -> bool:
    """Whether process ``pid`` is gone (or a zombie nobody collected)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


@pytest.mark.parametrize("wait", [False, True], ids=["at-once", "once-it-wrote"])
def test_a_warm_up_stops_when_the_start_that_launched_it_fails(tmp_path, wait):
    # Operator QA: a `make run` that failed (a bad setting) left its warm-up
    # compiling for a minute, one more at each try, and its status behind.
    status = tmp_path / "mcts-warm-x" / "warm.json"
    status.parent.mkdir()
    shell = (
        f"{sys.executable} -m webgame.startup {status} $$ >/dev/null 2>&1 & "
        + (f"while [ ! -s {status} ]; do sleep 0.05; done; " if wait else "")
        + "echo $!; exit 1"
    )
    done = subprocess.run(
        ["sh", "-c", shell], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    pid = int(done.stdout.split()[-1])
    _until(lambda: _stopped(pid), 30)
    assert not status.parent.exists()
