"""A stateful fuzz of games between two seats: Hypothesis plays random
sequences of every seat's request (moves, Swap2 choices, resigning,
aborting, offers, claims, chat, time given, rematches, undo, hints, PATCH)
sent with either seat's token, none, a made-up one or the invitation, and
checks after each answer what the API promises a hostile client:

- no answer is a 5xx, and each refusal is the one error shape;
- a refusal changes nothing in the game;
- no answer holds a secret (a seat's token, the invitation) that the request
  did not send, except the answers that hand one out (creation, join, share);
- the version only grows.
"""

from __future__ import annotations

import json
from unittest import mock

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)
from rest_framework.test import APIClient

from mcts import Level
from webgame.services import ai

from .helpers import url

pytestmark = pytest.mark.django_db

#: The games the machine starts: each kind, a Swap2 opening under renju, a
#: Fischer clock, days a move and none.
STARTS = [
    {"game": "reversi", "clock": {"initial": 180, "increment": 2}},
    {"game": "loa"},
    {"game": "gomoku", "options": {"size": 9, "row": 4}, "clock": {"days": 2}},
    {
        "game": "gomoku",
        "opening": "swap2",
        "options": {"rule": "renju"},
        "clock": {"initial": 300, "increment": 3},
    },
]
#: What stays still when a request is refused (the clocks' seconds tick).
STILL = ("version", "moves", "result", "players", "seats", "offers", "opening")
#: Who sends a request: the seat to move, the other seat, a seat by colour,
#: nobody, a made-up token or the invitation.
SENDERS = ["mover", "waiter", "black", "white", "none", "made-up", "invite"]
OFFERS = ["game-draw", "game-takeback", "game-rematch"]
GIVERS = {"game-create", "game-join", "game-share"}


def tiny_budget(setting):
    return Level(simulations=8)


class SeatsMachine(RuleBasedStateMachine):
    """One game between seats, and the requests anyone may send it."""

    def __init__(self):
        super().__init__()
        self.client = APIClient()
        self.tokens: dict[str, str] = {}
        self.invite = ""

    @initialize(
        start=st.sampled_from(STARTS),
        side=st.sampled_from(["black", "white", "random"]),
        join=st.booleans(),
    )
    def start(self, start, side, join):
        made = self.client.post(
            "/api/games/", {**start, "friend": {"side": side}}, format="json"
        )
        assert made.status_code == 201, made.content
        body = made.json()
        self.id = body["id"]
        self.tokens[body["seat"]["side"]] = body["seat"]["token"]
        self.invite = body["invite"]
        self.seen = self.read()
        if join:
            self.send("game-join", "none", {"invite": self.invite})

    def read(self) -> dict:
        answer = self.client.get(url("game-detail", self.id))
        assert answer.status_code == 200
        return answer.json()

    def token(self, sender: str) -> str | None:
        mover = self.seen["to_move"]
        waiter = "white" if mover == "black" else "black"
        return {
            "mover": self.tokens.get(mover),
            "waiter": self.tokens.get(waiter),
            "black": self.tokens.get("black"),
            "white": self.tokens.get("white"),
            "none": None,
            "made-up": "A" * 43,
            "invite": self.invite,
        }[sender]

    def send(self, name: str, sender: str, body, method: str = "post"):
        token = self.token(sender)
        headers = {"HTTP_X_SEAT_TOKEN": token} if token else {}
        before = self.read()
        with mock.patch.object(ai, "_budget", tiny_budget):
            answer = getattr(self.client, method)(
                url(name, self.id), body, format="json", **headers
            )
        assert answer.status_code < 500, (name, answer.status_code, answer.content)
        after = self.read()
        if answer.status_code >= 400:
            error = answer.json()
            assert isinstance(error["error"], str) and isinstance(error["detail"], str)
            assert {k: after[k] for k in STILL} == {k: before[k] for k in STILL}, (
                name,
                sender,
                body,
                error,
            )
        text = answer.content.decode()
        for secret in (*self.tokens.values(), self.invite):
            if secret and secret != token and name not in GIVERS:
                assert secret not in text, (name, sender)
        if name == "game-join" and answer.status_code == 200:
            seat = answer.json()["seat"]
            self.tokens[seat["side"]] = seat["token"]
        assert after["version"] >= self.seen["version"]
        self.seen = after
        if after["rematch"]:
            # An accepted rematch: each token holds its new seat there.
            self.id = after["rematch"]
            self.tokens = {
                ("white" if side == "black" else "black"): token
                for side, token in self.tokens.items()
            }
            self.seen = self.read()
            assert self.seen["seats"] == {"black": True, "white": True}
        return answer

    @rule(pick=st.integers(0, 400))
    def play(self, pick):
        """A legal move by the seat to move: the games get somewhere."""
        self.move("mover", pick, junk=False)

    @rule(sender=st.sampled_from(SENDERS), pick=st.integers(0, 400), junk=st.booleans())
    def move(self, sender, pick, junk):
        legal = self.seen["legal_moves"]
        if junk or not legal:
            move = "z99" if pick % 2 else "a1-a1"
        else:
            move = legal[pick % len(legal)]
        self.send("game-moves", sender, {"move": move, "version": self.seen["version"]})

    @rule(
        sender=st.sampled_from(SENDERS),
        choice=st.sampled_from(["now", "black", "white", "place2", "none"]),
    )
    def choose(self, sender, choice):
        now = (self.seen["opening"] or {}).get("choices_now") or ["none"]
        if choice == "now":
            choice = now[0]
        self.send("game-choice", sender, {"choice": choice})

    @rule(
        sender=st.sampled_from(SENDERS),
        name=st.sampled_from(OFFERS),
        action=st.sampled_from(["offer", "accept", "decline", "maybe"]),
    )
    def offer(self, sender, name, action):
        self.send(name, sender, {"action": action})

    @rule(
        sender=st.sampled_from(SENDERS),
        name=st.sampled_from(
            [
                "game-resign",
                "game-abort",
                "game-give-time",
                "game-undo",
                "game-hint",
                "game-ai-move",
                "game-share",
            ]
        ),
    )
    def act(self, sender, name):
        self.send(name, sender, {})

    @rule(
        sender=st.sampled_from(SENDERS), result=st.sampled_from(["win", "draw", "loss"])
    )
    def claim(self, sender, result):
        self.send("game-claim", sender, {"result": result})

    @rule(
        sender=st.sampled_from(SENDERS),
        body=st.sampled_from(
            [{"text": "gg"}, {"preset": "good_game"}, {"text": ""}, {"preset": "nope"}]
        ),
    )
    def chat(self, sender, body):
        self.send("game-chat", sender, body)

    @rule(sender=st.sampled_from(SENDERS), invite=st.sampled_from(["real", "made-up"]))
    def join(self, sender, invite):
        self.send(
            "game-join",
            sender,
            {"invite": self.invite if invite == "real" else "B" * 43},
        )

    @rule(sender=st.sampled_from(SENDERS), kind=st.sampled_from(["ai", "human"]))
    def patch(self, sender, kind):
        side = {"kind": kind, "level": 1} if kind == "ai" else {"kind": "human"}
        self.send("game-detail", sender, {"players": {"white": side}}, method="patch")

    @invariant()
    def no_secret_in_the_public_game(self):
        if hasattr(self, "seen"):
            text = json.dumps(self.seen)
            assert not any(t in text for t in (*self.tokens.values(), self.invite) if t)


def test_no_request_of_any_sender_breaks_a_game_between_seats():
    run_state_machine_as_test(
        SeatsMachine,
        settings=settings(
            max_examples=40,
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
