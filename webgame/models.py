"""The tables: games, stored as settings plus the list of moves played, and
what the two players of a game with a friend say to each other.

The position is not stored: it is the replay of ``moves`` from the start, so
the move list is the single source of truth and can never disagree with a
board column. ``status`` and ``result`` are kept beside it for listing and
admin; every write recomputes them from the replay.

A chat line is not part of the game: saying something does not change the
game's version, and the game's snapshot, which anyone watching sees, holds
no line.
"""

from __future__ import annotations

import uuid

from django.db import models


class Game(models.Model):
    """One game in progress or finished.

    ``version`` counts the writes: every change is a single
    ``UPDATE ... WHERE id = %s AND version = %s`` that also increments it, so
    of two requests that read the same version only one can write (the other
    gets 409) on SQLite and PostgreSQL alike, without holding locks while the
    AI thinks.
    """

    class Status(models.TextChoices):
        PLAYING = "playing"
        FINISHED = "finished"

    # A random id: there are no accounts, so knowing the id is what lets a
    # client play the game; sequential ids would let anyone move in any game.
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game = models.CharField(max_length=16)
    options = models.JSONField(default=dict)
    players = models.JSONField(default=dict)
    moves = models.JSONField(default=list)
    status = models.CharField(
        max_length=8, choices=Status.choices, default=Status.PLAYING
    )
    result = models.JSONField(null=True, blank=True)
    # A game between two browsers (play a friend): colour -> the SHA-256 of
    # that seat's secret token, or None while the seat waits for its player;
    # empty for the games played at one screen or against the AI, which
    # anyone holding the id plays, as before seats existed. Only hashes are
    # stored: the token itself exists in its holder's browser alone.
    seats = models.JSONField(default=dict, blank=True)
    # The SHA-256 of the invitation that takes the open seat ("" once taken).
    invite = models.CharField(max_length=64, blank=True, default="")
    # The clock (webgame/services/clocks.py): its time control and each
    # side's time left; None for an untimed game.
    clock = models.JSONField(null=True, blank=True)
    # When the side to move runs out of time, while its clock runs: the flag
    # watcher looks for the games past it.
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # Requests waiting for the other player's answer: {"draw": colour,
    # "takeback": colour, "rematch": colour (a finished game)}, each absent
    # when none is pending.
    offers = models.JSONField(default=dict, blank=True)
    # What spaces a player's requests, as lichess does against pestering
    # (webgame/services/spacing.py): the ply of each side's last draw offer,
    # and each side's takeback and rematch requests declined in a row with
    # when it may ask again ({"draw": {"black": 12}, "takeback": {"white":
    # {"declined": 2, "until": ms}}, "rematch": {...}}).
    asked = models.JSONField(default=dict, blank=True)
    # The game that the two seats' accepted rematch started (the same game
    # again, the colours swapped), for both browsers and the watchers to go
    # to; None before.
    rematch = models.UUIDField(null=True, blank=True)
    # How the game ended when it was not on the board: a resignation, a loss
    # on time or a draw agreed ({"winner", "reason", "score"} as ``result``).
    ending = models.JSONField(null=True, blank=True)
    # The opening rule (webgame/services/openings.py): Gomoku's Swap2, its
    # choices so far and whether they swapped the sides; None without one.
    opening = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated"]

    def __str__(self) -> str:
        return f"{self.game} {self.id} ({self.status}, {len(self.moves)} plies)"


#: The longest chat line, in characters (as lichess's).
CHAT_LINE_CHARS = 140


class ChatLine(models.Model):
    """One line said by a player of a game between two seats to the other
    (webgame/services/chat.py). Its id orders the lines and numbers them for
    the browsers."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    # The SHA-256 of the seat token that said it, as the game's ``seats``
    # holds it: the player, whichever colour a Swap2 choice gives them. Never
    # shown: the API says whether a line is the reader's own.
    author = models.CharField(max_length=64)
    # What was said (up to 140 characters), or "" for a preset ...
    text = models.CharField(max_length=CHAT_LINE_CHARS, blank=True, default="")
    # ... one of the preset greetings (shown in each reader's language).
    preset = models.CharField(max_length=16, blank=True, default="")
    said = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["game", "id"])]

    def __str__(self) -> str:
        return f"{self.game_id} #{self.id}: {self.text or self.preset}"


class ServerBeat(models.Model):
    """When a web process was last seen alive (milliseconds since the
    epoch), one row: the flag watcher notes it every few seconds, and a
    start after a crash (no stop noted its time) gives the side to move of
    each running clock the time since (webgame/services/beats.py)."""

    at = models.BigIntegerField()

    def __str__(self) -> str:
        return f"alive at {self.at}"
