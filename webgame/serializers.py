"""Serializers: the shape of every request body, checked before any service
runs, and the shape of every response, for the OpenAPI schema.

Input serializers check types and ranges only; whether a game, option, model
or move exists is the services' business (they ask the rules library).
It is the API's whole contract in one place, read top to bottom beside the
schema it generates.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.functional import lazy
from django.utils.translation import gettext as _
from rest_framework import serializers

from .services import (
    CHAT_MAX_CHARS,
    CHAT_PRESETS,
    CLAIMS,
    FORBIDDEN_KINDS,
    GAME_NAMES,
    MAX_LEVEL,
    MODEL_NAME_PATTERN,
    OFFER_ACTIONS,
    OPENING_CHOICES,
    OPENING_NAMES,
    OPENING_STEPS,
    PROVEN_RESULTS,
    QR_MAX_CHARS,
    clocks,
    describe_options,
    list_think_times,
    list_words,
)
from .services.sides import SIDES as COLORS

PLAYER_KINDS = ("human", "ai")
#: The side a friend's game seats you at.
SEAT_CHOICES = (*COLORS, "random")
GAME_STATUSES = ("playing", "finished")
PROVEN = PROVEN_RESULTS
#: The API's think times: the page's choices bound them (a longer search would
#: hold a worker that other clients wait for).
THINK_MIN, THINK_MAX = float(min(list_think_times())), float(max(list_think_times()))


def lazy_text(message: Callable[[], str]) -> str:
    """Return the text ``message()`` made when it is used, not now: a field's
    error message is set once, at import, and ``message`` then translates it
    (``_``) in the language of the request it refuses."""
    return lazy(message, str)()


class StrictSerializer(serializers.Serializer):
    """A serializer that refuses fields it does not know (a typo such as
    ``thinktime`` should be an error, not silently ignored)."""

    def to_internal_value(self, data):
        if not isinstance(data, dict):
            raise serializers.ValidationError(
                {
                    "non_field_errors": [
                        _("expected a JSON object, got %(type)s")
                        % {"type": type(data).__name__}
                    ]
                }
            )
        unknown = sorted(set(data) - set(self.fields))
        if unknown:
            words = (
                _("unknown field(s) %(unknown)s; accepted: %(accepted)s")
                if self.fields
                else _("unknown field(s) %(unknown)s; send an empty object {}")
            )
            raise serializers.ValidationError(
                {
                    "non_field_errors": [
                        words
                        % {
                            "unknown": ", ".join(map(repr, unknown)),
                            "accepted": ", ".join(self.fields),
                        }
                    ]
                }
            )
        return super().to_internal_value(data)


class JSONCharField(serializers.CharField):
    """A string that must be a JSON string (DRF would turn ``0`` into "0")."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class JSONFloatField(serializers.FloatField):
    """A number that must be a JSON number (DRF would take ``true`` as 1.0
    and ``"2"`` as 2.0)."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        return super().to_internal_value(data)


class JSONIntegerField(serializers.IntegerField):
    """An integer that must be a JSON integer (DRF would take ``"2"``,
    ``2.0`` and ``true``)."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class EmptyBodySerializer(StrictSerializer):
    """The body of an endpoint that takes none: nothing, or ``{}``."""


def _level_field() -> serializers.IntegerField:
    message = lazy_text(
        lambda: _("level must be an integer from 1 to %(max)s") % {"max": MAX_LEVEL}
    )
    return JSONIntegerField(
        min_value=1,
        max_value=MAX_LEVEL,
        required=False,
        allow_null=True,
        help_text=f"strength level 1 (weak) .. {MAX_LEVEL} (strong); "
        "or give think_time",
        error_messages={
            "min_value": message,
            "max_value": message,
            "invalid": message,
        },
    )


def _think_time_field() -> serializers.FloatField:
    message = lazy_text(
        lambda: (
            _("think_time must be a number of seconds from %(min)s to %(max)s")
            % {"min": THINK_MIN, "max": THINK_MAX}
        )
    )
    return JSONFloatField(
        min_value=THINK_MIN,
        max_value=THINK_MAX,
        required=False,
        allow_null=True,
        help_text=f"seconds the AI thinks per move, {THINK_MIN:g} .. {THINK_MAX:g}; "
        "or give level",
        error_messages={
            "min_value": message,
            "max_value": message,
            "invalid": message,
            "max_string_length": message,
            "overflow": message,
        },
    )


class PlayerSerializer(StrictSerializer):
    """One side: ``{"kind": "human"}`` or ``{"kind": "ai", "model": "light" |
    null, "level": 1..6 | "think_time": 0.1..10}``."""

    kind = serializers.ChoiceField(choices=PLAYER_KINDS)
    model = JSONCharField(
        required=False,
        allow_null=True,
        max_length=64,
        help_text="a model on disk (see kinds), or null / 'none' for no model "
        "(the default: the API plays no model unless named); AI sides only",
    )
    level = _level_field()
    think_time = _think_time_field()

    def validate(self, attrs):
        # A human side with AI settings is refused, not silently trimmed: the
        # client meant something the server would not do.
        given = [
            k for k in ("model", "level", "think_time") if attrs.get(k) is not None
        ]
        if attrs["kind"] == "human" and given:
            raise serializers.ValidationError(
                {
                    "kind": [
                        _("a human side takes no %(fields)s")
                        % {"fields": ", ".join(given)}
                    ]
                }
            )
        return attrs


class PlayersSerializer(StrictSerializer):
    """Both sides; a side left out is human (on create) or unchanged (on PATCH)."""

    black = PlayerSerializer(required=False)
    white = PlayerSerializer(required=False)


class OptionsField(serializers.DictField):
    """Game options as a JSON object; the rules library checks the values."""

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("help_text", describe_options())
        super().__init__(**kwargs)


class ClockSerializer(StrictSerializer):
    """A time control: Fischer (``initial`` and ``increment`` seconds) or
    correspondence (``days`` per move)."""

    initial = JSONIntegerField(
        required=False,
        help_text="seconds for each side, {}..{}".format(*clocks.FISCHER_LIMITS),
    )
    increment = JSONIntegerField(
        required=False,
        help_text=f"seconds added a move, 0..{clocks.MAX_INCREMENT}",
    )
    days = JSONIntegerField(
        required=False, help_text=f"days per move, 1..{clocks.MAX_DAYS}"
    )

    def validate(self, attrs):
        if set(attrs) not in ({"initial", "increment"}, {"days"}):
            raise serializers.ValidationError(
                {"non_field_errors": [_("give initial and increment, or days")]}
            )
        return attrs


class FriendSerializer(StrictSerializer):
    """Play a friend: the side you take."""

    side = serializers.ChoiceField(choices=SEAT_CHOICES, default="random")


def game_errors() -> dict:
    """The error messages of a game's name that is none of the games'."""
    return {
        # DRF fills in {input!r}, the game asked for, when it fails.
        "invalid_choice": lazy_text(
            lambda: (
                _("unknown game %(game)s; known games: %(games)s")
                % {"game": "{input!r}", "games": list_words(GAME_NAMES)}
            )
        )
    }


class NewGameSerializer(StrictSerializer):
    """A new game's kind, options and players."""

    game = serializers.ChoiceField(choices=GAME_NAMES, error_messages=game_errors())
    options = OptionsField()
    players = PlayersSerializer(required=False)


class CreateGameSerializer(NewGameSerializer):
    """The body of ``POST /api/games/``."""

    clock = ClockSerializer(
        required=False,
        allow_null=True,
        help_text="a time control; none: untimed",
    )
    friend = FriendSerializer(
        required=False,
        allow_null=True,
        help_text="play a friend: both sides human, you seated at 'side'; the "
        "answer holds your seat's token and the invitation for the other seat",
    )

    opening = serializers.ChoiceField(
        choices=OPENING_NAMES,
        required=False,
        allow_null=True,
        help_text="gomoku: 'swap2' opens by Swap2 (black's side opens: "
        "three stones, then choices); none: black begins",
    )

    def validate(self, attrs):
        if attrs.get("friend") and "players" in attrs:
            raise serializers.ValidationError(
                {
                    "players": [
                        _(
                            "a game with a friend has two human players: leave "
                            "out players"
                        )
                    ]
                }
            )
        return attrs


#: A record's longest text: it fits the 64 KiB body limit even when every
#: character is escaped (a surrogate pair: 12 bytes); the longest games need
#: under 2000.
RECORD_MAX_CHARS = 4000


class ImportGameSerializer(NewGameSerializer):
    """The body of ``POST /api/games/import/``: a new game from a record (for
    study: untimed, at one screen)."""

    game = serializers.ChoiceField(
        choices=GAME_NAMES,
        required=False,
        error_messages=game_errors(),
        help_text="the record's game; without it, the record's tags say it, "
        "or the record is read as each game in turn",
    )
    record = JSONCharField(
        allow_blank=True,
        trim_whitespace=True,
        max_length=RECORD_MAX_CHARS,
        error_messages={
            "max_length": lazy_text(
                lambda: (
                    _("too long: at most %(max)s characters")
                    % {"max": RECORD_MAX_CHARS}
                )
            )
        },
        help_text="Reversi: an Othello transcript such as 'f5d6c3d3' (passes may be "
        "left out); others: moves separated by spaces, e.g. 'h8 h9' or 'b1-b3 a2xc4'",
    )


class JoinSerializer(StrictSerializer):
    """The body of ``POST /api/games/{id}/join/``: the invitation of the link."""

    invite = JSONCharField(max_length=64, help_text="the invitation the link holds")


class PlayFromSerializer(StrictSerializer):
    """The body of ``POST /api/games/{id}/play-from/``."""

    ply = JSONIntegerField(
        min_value=0,
        help_text="the moves (plies) of the game kept: 0 is its starting position",
    )


class ShareSerializer(StrictSerializer):
    """The body of ``POST /api/games/{id}/share/``."""

    side = serializers.ChoiceField(choices=SEAT_CHOICES, default="random")
    clock = ClockSerializer(required=False, allow_null=True)


class OfferSerializer(StrictSerializer):
    """The body of ``POST /api/games/{id}/draw/``, ``takeback/`` and
    ``rematch/``."""

    action = serializers.ChoiceField(choices=OFFER_ACTIONS)


class ClaimSerializer(StrictSerializer):
    """The body of ``POST /api/games/{id}/claim/``: the win or a draw."""

    result = serializers.ChoiceField(choices=CLAIMS)


class ChatSaySerializer(StrictSerializer):
    """The body of ``POST /api/games/{id}/chat/``: a line of text or a preset."""

    text = JSONCharField(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        max_length=CHAT_MAX_CHARS,
        help_text="what you say, on one line (runs of spaces and line breaks "
        "become one space)",
    )
    preset = serializers.ChoiceField(
        choices=CHAT_PRESETS,
        required=False,
        help_text="a greeting your friend's page shows in their language",
    )


class QrSerializer(StrictSerializer):
    """The body of ``POST /api/qr/``: the text (a link) to make a QR code of."""

    text = JSONCharField(max_length=QR_MAX_CHARS, help_text="e.g. an invitation link")


class QrOutSerializer(serializers.Serializer):
    """A QR code: its rows of modules, top to bottom, ``1`` dark and ``0``
    light, without the quiet zone (leave four light modules around it)."""

    rows = serializers.ListField(child=serializers.CharField())


class EmptySerializer(StrictSerializer):
    """A body with nothing to say: ``{}`` (or none, sent as JSON)."""


class VersionedSerializer(StrictSerializer):
    """A body that may name the version of the game the client saw: if the game
    has changed since, the request is refused with 409 instead of acting on a
    position the client did not see."""

    version = JSONIntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        help_text="the game's version as last read; 409 if it changed since",
    )


class MoveSerializer(VersionedSerializer):
    """The body of ``POST /api/games/{id}/moves/``."""

    move = JSONCharField(
        max_length=16,
        trim_whitespace=True,
        help_text="reversi 'd3' or 'pass'; gomoku 'h8'; loa 'b1-b3' / 'b1xb3'",
    )


class ChoiceSerializer(VersionedSerializer):
    """The body of ``POST /api/games/{id}/choice/``: a Swap2 choice."""

    choice = serializers.ChoiceField(
        choices=OPENING_CHOICES,
        help_text="after the opener's three stones: 'white', 'black' or "
        "'place2' (two more stones, and the opener chooses); after those: "
        "'black' or 'white'",
    )


class HintSerializer(VersionedSerializer):
    """The body of ``POST /api/games/{id}/hint/`` (all optional)."""

    level = _level_field()
    think_time = _think_time_field()

    def validate(self, attrs):
        if attrs.get("level") is not None and attrs.get("think_time") is not None:
            raise serializers.ValidationError(
                {"think_time": [_("give a level or a think_time, not both")]}
            )
        return attrs


class UpdateGameSerializer(VersionedSerializer):
    """The body of ``PATCH /api/games/{id}/``: new settings for one or both
    sides, or none (``{}``: the game as it is)."""

    players = PlayersSerializer(required=False)


# ---- responses (for the schema; the services build the dicts) ---------------------
class _ReadsAsSerializer(serializers.Serializer):
    """The game a record reads as (see ErrorSerializer.reads_as)."""

    game = serializers.CharField(help_text="the game's name, e.g. gomoku")
    options = serializers.DictField(help_text='its options, e.g. {"size": 15}')


class ErrorSerializer(serializers.Serializer):
    """Every 4xx body."""

    error = serializers.CharField(help_text="machine-readable code, e.g. illegal_move")
    detail = serializers.CharField(help_text="what was wrong and what is accepted")
    reads_as = _ReadsAsSerializer(
        required=False,
        help_text="an import's invalid_record only, when already the record's first "
        "move is not one of the game asked for and the whole record reads as "
        "another game: that game and its options (the default ones), to import "
        "it as",
    )
    fields = serializers.DictField(  # type: ignore[assignment]  # the metaclass takes it
        required=False,
        help_text="a body's fields at fault (with invalid_request and the "
        "codes that name a field): each field's messages, nested as the body is",
    )


#: A model's status on its way to play (see webgame.services.treemodels).
MODEL_STATUSES = ("packed", "unpacking", "on_disk", "loading", "ready", "damaged")
_STATUS_HELP = (
    "packed (not unpacked yet), unpacking, on_disk (not loaded yet), loading, "
    "ready (the AI plays with it at once) or damaged"
)


class _ModelProgressSerializer(serializers.Serializer):
    """Where a tree model is on its way to play."""

    status = serializers.ChoiceField(choices=MODEL_STATUSES, help_text=_STATUS_HELP)
    progress = serializers.FloatField(
        allow_null=True, help_text="while unpacking: how far, from 0 to 1"
    )
    detail = serializers.CharField(
        allow_null=True, help_text="why a damaged model cannot be used"
    )


class ModelInfoSerializer(_ModelProgressSerializer):
    """A tree model on disk."""

    name = serializers.CharField()
    nodes = serializers.IntegerField(allow_null=True)
    bytes = serializers.IntegerField()
    built = serializers.JSONField(allow_null=True)
    damaged = serializers.CharField(
        allow_null=True,
        help_text="what is wrong with a damaged model (file and line); null if whole",
    )
    packed = serializers.BooleanField(
        help_text="shipped as NAME.tar.xz and not unpacked yet (bytes: the archive's)"
    )
    options = serializers.DictField(
        allow_null=True,
        help_text="the game options the model was built for (Gomoku: size, row)",
    )
    network = serializers.BooleanField(
        help_text="it carries a policy-value network: the AI searches with it "
        "on the board of `options`, elsewhere as without one"
    )


class ModelStatusSerializer(_ModelProgressSerializer):
    """Where a tree model is on its way to play (``/api/models/GAME/NAME/``)."""

    game = serializers.CharField()
    name = serializers.CharField()


class GameReadinessSerializer(serializers.Serializer):
    """One game's AI on its way to play after the server's start."""

    ready = serializers.BooleanField(help_text="the AI plays at once")
    progress = serializers.FloatField(help_text="0..1, of the first start's compiling")
    seconds = serializers.FloatField(
        allow_null=True,
        help_text="seconds after the server's start the AI became ready",
    )


class ReadinessSerializer(serializers.Serializer):
    """The AI's readiness, game by game (``/api/ai/``)."""

    ready = serializers.BooleanField(help_text="every game's AI plays at once")
    games = serializers.DictField(child=GameReadinessSerializer())


class LevelSerializer(serializers.Serializer):
    """One rung of the AI's strength ladder."""

    level = serializers.IntegerField()
    description = serializers.CharField(
        help_text='what the level does, e.g. "0.5 s a move" or '
        '"10 simulations, a random move 1 in 2"'
    )
    seconds = serializers.FloatField(
        allow_null=True, help_text="think time a move; null: a simulation budget"
    )


class OpeningOfferSerializer(serializers.Serializer):
    """An opening rule a game may be created with (``opening``)."""

    name = serializers.ChoiceField(choices=OPENING_NAMES)
    min_row = serializers.IntegerField(help_text="the shortest row it opens")


class KindSerializer(serializers.Serializer):
    """A game the server offers."""

    name = serializers.CharField()
    title = serializers.CharField()
    options = serializers.DictField(help_text="the default options")
    option_specs = serializers.DictField(help_text="what each option accepts")
    openings = OpeningOfferSerializer(
        many=True, help_text="the opening rules a game may be created with"
    )
    levels = LevelSerializer(many=True, help_text="the AI's strength ladder")
    models = ModelInfoSerializer(many=True)
    numbered_in_pairs = serializers.BooleanField(
        help_text="moves are numbered in pairs, Black's and White's move 12 (Lines "
        "of Action, as its published records); else each move has its own number"
    )


class BoardSerializer(serializers.Serializer):
    """The board from the top row of the picture down: the square of
    ``cells[r][c]`` is ``files[c] + ranks[r]``."""

    size = serializers.IntegerField()
    files = serializers.ListField(child=serializers.CharField())
    ranks = serializers.ListField(child=serializers.CharField())
    cells = serializers.ListField(
        child=serializers.ListField(
            child=serializers.ChoiceField(choices=COLORS, allow_null=True)
        )
    )


class ResultSerializer(serializers.Serializer):
    """How a finished game ended."""

    winner = serializers.ChoiceField(choices=COLORS, allow_null=True)
    reason = serializers.CharField()
    score = serializers.DictField(child=serializers.IntegerField(), allow_null=True)
    no_first_move = serializers.ChoiceField(
        choices=COLORS,
        required=False,
        help_text="aborted: the side whose first move did not come in time",
    )
    aborted_by = serializers.ChoiceField(
        choices=COLORS,
        required=False,
        help_text="aborted: the seat that aborted the game",
    )


class PlayerOutSerializer(serializers.Serializer):
    """A side's settings as stored."""

    kind = serializers.ChoiceField(choices=PLAYER_KINDS)
    model = serializers.CharField(required=False, allow_null=True)
    level = serializers.IntegerField(required=False, allow_null=True)
    think_time = serializers.FloatField(required=False, allow_null=True)


class PlayersOutSerializer(serializers.Serializer):
    """Both sides' settings."""

    black = PlayerOutSerializer()
    white = PlayerOutSerializer()


class SeatsOutSerializer(serializers.Serializer):
    """Whether each seat is taken."""

    black = serializers.BooleanField()
    white = serializers.BooleanField()


class GivenOutSerializer(serializers.Serializer):
    """The seconds each side was given by their friend, in all."""

    black = serializers.IntegerField(required=False)
    white = serializers.IntegerField(required=False)


class ClockOutSerializer(serializers.Serializer):
    """The clock: its control, each side's seconds left, the running side,
    the time left for a first move, the time friends gave, and the times a
    restart gave time."""

    control = serializers.DictField(child=serializers.IntegerField())
    black = serializers.FloatField()
    white = serializers.FloatField()
    running = serializers.ChoiceField(choices=COLORS, allow_null=True)
    first_move = serializers.FloatField(
        allow_null=True,
        help_text="between two seats, before the clocks run: the seconds "
        "left for the side to move to make its first move (the game is "
        "aborted then); else null",
    )
    given = GivenOutSerializer()
    restarts = serializers.IntegerField(
        help_text="how many times the server gave the running Fischer clocks "
        "time as it stopped or started (a restart counts twice, a crash "
        "once) or after an outage of its shared store (Redis); not counted "
        "in given"
    )


class OffersOutSerializer(serializers.Serializer):
    """The side whose draw offer or takeback request waits for an answer (a
    move answers each, but for a draw its mover offered)."""

    draw = serializers.ChoiceField(choices=COLORS, required=False)
    takeback = serializers.ChoiceField(choices=COLORS, required=False)
    rematch = serializers.ChoiceField(choices=COLORS, required=False)


class DrawWaitSerializer(serializers.Serializer):
    moves = serializers.IntegerField(
        min_value=1, help_text="moves (plies) still to play before the next draw offer"
    )


class AskWaitSerializer(serializers.Serializer):
    seconds = serializers.FloatField(
        min_value=0, help_text="seconds before asking again, from this answer"
    )


class DrawWaitsSerializer(serializers.Serializer):
    black = DrawWaitSerializer(required=False)
    white = DrawWaitSerializer(required=False)


class AskWaitsSerializer(serializers.Serializer):
    black = AskWaitSerializer(required=False)
    white = AskWaitSerializer(required=False)


class ChatLineOutSerializer(serializers.Serializer):
    """A line one of the two players said."""

    n = serializers.IntegerField(help_text="the line's number: later lines, larger")
    mine = serializers.BooleanField(help_text="whether the reader said it")
    text = serializers.CharField(allow_blank=True, help_text="'' for a preset")
    preset = serializers.ChoiceField(choices=CHAT_PRESETS, allow_null=True)
    said = serializers.DateTimeField()


class ChatLinesSerializer(serializers.Serializer):
    """What the players said, oldest first (the last 200 lines)."""

    lines = ChatLineOutSerializer(many=True)


class WaitsOutSerializer(serializers.Serializer):
    """What a player waits before asking again (as on lichess): a draw
    offer more than 20 moves (plies) after their last, a takeback request
    10 s, 40 s, 90 s … after declined ones, a rematch offer a minute after a
    declined one; a side that need not wait is absent."""

    draw = DrawWaitsSerializer(required=False)
    takeback = AskWaitsSerializer(required=False)
    rematch = AskWaitsSerializer(required=False)


class OpeningOutSerializer(serializers.Serializer):
    """An opening rule under way or played: Gomoku's Swap2."""

    name = serializers.ChoiceField(choices=OPENING_NAMES)
    choices = serializers.ListField(
        child=serializers.ChoiceField(choices=OPENING_CHOICES)
    )
    swapped = serializers.BooleanField(
        help_text="whether the choices swapped the sides: black's side "
        "(players, seat) was the opener's until then"
    )
    step = serializers.ChoiceField(
        choices=OPENING_STEPS,
        help_text="place3: the opener places black, white, black; choose: the "
        "second player chooses; place2: it places white, black; choose-again: "
        "the opener chooses; done",
    )
    opener = serializers.ChoiceField(choices=COLORS)
    choices_now = serializers.ListField(
        child=serializers.ChoiceField(choices=OPENING_CHOICES),
        help_text="the choices POST choice/ accepts now (none: stones or moves)",
    )


class GameSerializer(serializers.Serializer):
    """A game as the API shows it."""

    id = serializers.UUIDField()
    game = serializers.ChoiceField(choices=GAME_NAMES)
    title = serializers.CharField()
    options = serializers.DictField()
    players = PlayersOutSerializer()
    board = BoardSerializer()
    state = serializers.CharField(help_text="the compact state string")
    to_move = serializers.ChoiceField(choices=COLORS, allow_null=True)
    legal_moves = serializers.ListField(child=serializers.CharField())
    legal_by_from = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        allow_null=True,
        help_text="loa only: the legal moves grouped by from-square",
    )
    forbidden = serializers.DictField(
        child=serializers.ChoiceField(choices=FORBIDDEN_KINDS),
        allow_null=True,
        help_text="gomoku under renju, black to move in a game not finished: "
        "the empty points black may not play and why (double three, double "
        "four, overline)",
    )
    overline = serializers.CharField(
        allow_null=True,
        help_text="gomoku under the standard rule: the last move's point when "
        "it made a line longer than the row, which does not win; else null",
    )
    moves = serializers.ListField(child=serializers.CharField())
    last_move = serializers.CharField(allow_null=True)
    ply = serializers.IntegerField()
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    result = ResultSerializer(allow_null=True)
    version = serializers.IntegerField()
    seats = SeatsOutSerializer(
        allow_null=True,
        help_text="a game between two browsers: which seats are taken; null: "
        "anyone with the id plays",
    )
    clock = ClockOutSerializer(allow_null=True)
    offers = OffersOutSerializer()
    waits = WaitsOutSerializer()
    rematch = serializers.UUIDField(
        allow_null=True,
        help_text="the game the rematch started (the colours swapped; between "
        "two seats, once accepted, each seat's token the same), else null",
    )
    opening = OpeningOutSerializer(
        allow_null=True,
        help_text="gomoku opened by Swap2; during it, to_move is the side that "
        "acts (black's side is the opener's), and legal_moves is empty while "
        "a choice is awaited",
    )
    created = serializers.DateTimeField()
    updated = serializers.DateTimeField()


class SeatOutSerializer(serializers.Serializer):
    """Your seat: its side and its secret token (send it as X-Seat-Token)."""

    side = serializers.ChoiceField(choices=COLORS)
    token = serializers.CharField()


class SeatedGameSerializer(GameSerializer):
    """A game and the seat the request took, if it took one (only its taker
    ever sees the token)."""

    seat = SeatOutSerializer(required=False)
    invite = serializers.CharField(
        required=False, help_text="the invitation that takes the other seat"
    )


class MoveStatsSerializer(serializers.Serializer):
    """The search's statistics of one root move."""

    move = serializers.CharField()
    code = serializers.IntegerField()
    visits = serializers.IntegerField()
    value = serializers.FloatField(
        allow_null=True, help_text="win probability for the side to move"
    )
    proven = serializers.ChoiceField(choices=PROVEN, allow_null=True)
    best = serializers.BooleanField(
        help_text="the move the search chose: its result's move, which heads its "
        "pv (at the weak levels, now and then a move drawn by chance)"
    )


class SearchResultSerializer(serializers.Serializer):
    """What a search found at the root."""

    move = serializers.CharField()
    code = serializers.IntegerField()
    side = serializers.ChoiceField(choices=COLORS)
    moves = MoveStatsSerializer(many=True)
    value = serializers.FloatField(
        help_text="win probability for the side to move, playing `move`: the "
        "position's, unless a weak level drew `move` by chance (then that "
        "move's, which may be lower)"
    )
    proven = serializers.ChoiceField(
        choices=PROVEN,
        allow_null=True,
        help_text="a result proven against every reply, for the side to move "
        "playing `move` (the position's unless `move` was drawn by chance)",
    )
    found = serializers.ChoiceField(
        choices=PROVEN,
        allow_null=True,
        help_text="the position's result as the search found it, which ended "
        "it: proven, or in Gomoku proven against the replies it considered",
    )
    pv = serializers.ListField(child=serializers.CharField())
    simulations = serializers.IntegerField()
    root_visits = serializers.IntegerField()
    elapsed = serializers.FloatField()
    nodes = serializers.IntegerField()


class GameAndSearchSerializer(serializers.Serializer):
    """The game (after the AI's move, for ai-move) and the search behind it."""

    game = GameSerializer()
    search = SearchResultSerializer(
        allow_null=True,
        help_text="null for the AI's turn of a Swap2 opening (its stones, its "
        "choice or both: several searches, or one for each stone)",
    )


class RecordSerializer(serializers.Serializer):
    """A game's record."""

    game = serializers.ChoiceField(choices=GAME_NAMES)
    options = serializers.DictField()
    record = serializers.CharField(
        help_text="Othello transcript for reversi (no passes), else spaced moves"
    )
    moves = serializers.ListField(child=serializers.CharField())
    result = ResultSerializer(allow_null=True)


class BoardsSerializer(serializers.Serializer):
    """The board after each move of a game, from the first position."""

    id = serializers.UUIDField()
    version = serializers.IntegerField()
    boards = serializers.ListField(
        child=serializers.CharField(),
        help_text="boards[n] is the board after n moves: rows from the top "
        "(as board.cells) of x (black), o (white), . (empty), joined by /",
    )
    forbidden = serializers.ListField(
        child=serializers.DictField(
            child=serializers.ChoiceField(choices=FORBIDDEN_KINDS)
        ),
        allow_null=True,
        help_text="gomoku under renju: forbidden[n] is black's forbidden "
        "points after n moves, as a game's forbidden; null in other games",
    )


class StopSerializer(serializers.Serializer):
    """Output of stop: whether a search was running and was told to stop."""

    stopped = serializers.BooleanField()


# ---- looking back at a game: analysis, ending, explorer ---------------------------
class AnalysisRequestSerializer(StrictSerializer):
    """The body of ``POST /api/games/{id}/analysis/``."""

    ply = JSONIntegerField(
        min_value=0, help_text="the position after this many moves (0: the start)"
    )


class AnalysisSerializer(serializers.Serializer):
    """What the AI thinks of one position of a game."""

    ply = serializers.IntegerField()
    to_move = serializers.ChoiceField(choices=COLORS, allow_null=True)
    black = serializers.FloatField(help_text="Black's win probability, 0..1")
    best = serializers.CharField(allow_null=True)
    pv = serializers.ListField(child=serializers.CharField())
    proven = serializers.ChoiceField(choices=PROVEN, allow_null=True)


class EndingSerializer(serializers.Serializer):
    """How a game ended and the squares that won it."""

    winner = serializers.ChoiceField(choices=COLORS, allow_null=True)
    reason = serializers.CharField(allow_null=True)
    squares = serializers.ListField(
        child=serializers.CharField(),
        help_text="gomoku: the winning row; loa: the winner's group; "
        "reversi: the winner's discs",
    )


class ExplorerQuerySerializer(StrictSerializer):
    """The query of ``GET /api/games/{id}/explorer/``."""

    ply = serializers.IntegerField(
        min_value=0, help_text="start from the position after this many moves"
    )
    line = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=2000,
        help_text="moves stepped into from there, separated by spaces",
    )
    model = serializers.RegexField(
        rf"^{MODEL_NAME_PATTERN}$",
        required=False,
        help_text="a model of the game (see kinds); default light, or under a "
        "rule light did not learn, that rule's (light-renju)",
    )


class ExplorerMoveSerializer(serializers.Serializer):
    """One of the model's moves in the explored position."""

    move = serializers.CharField()
    visits = serializers.IntegerField()
    value = serializers.FloatField(
        allow_null=True, help_text="win probability for the side to move"
    )
    proven = serializers.ChoiceField(choices=PROVEN, allow_null=True)


class ExplorerSerializer(serializers.Serializer):
    """A tree model's knowledge of a position."""

    model = serializers.CharField()
    ply = serializers.IntegerField()
    line = serializers.ListField(child=serializers.CharField())
    to_move = serializers.ChoiceField(choices=COLORS, allow_null=True)
    board = BoardSerializer()
    known = serializers.BooleanField(help_text="the model has studied the position")
    moves = ExplorerMoveSerializer(many=True)
