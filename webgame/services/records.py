"""Game records: export a game as text, and start a game from a record; and
the board after each move, for stepping through a game one did not see
played (an imported one, a link opened in another browser).

Reversi records are Othello transcripts (``f5d6c3``, forced passes left
out); the other games' records are moves separated by spaces (``h8 h9``,
``b1-b3 a2xc4``), under tags that say the game and each of its options, as
a PGN's do (``[game "gomoku"] [size "9"] [row "4"] [rule "renju"]``): a
record comes back as the game it was (QA: a 9x9 game's record came back on
15x15, and a renju one as freestyle, where the forbidden point won). A game
opened by Swap2 adds its opening and the choices made
(``[opening "swap2"] [choices "place2 white"]``): without them the record came
back as a game with no Swap2, and a record cut in the opening skipped the
choice still to make (dark-mode walk). A game that ended off the board adds
how, and who won (``[ending "resignation"] [winner "white"]``): without them
its record came back as a game still to play (records walk); a Reversi
transcript is then headed by its tags too.
"""

from __future__ import annotations

import re
import unicodedata

from django.utils.translation import gettext as _

from mcts import GAMES, Game, IllegalMoveError, InvalidMoveError, State

from ..errors import ServiceError
from ..models import Game as GameRow
from . import openings
from .catalog import NUMBERED_IN_PAIRS, option_specs
from .games import GameId, get_row, position_for_help, result_of, with_forced_passes
from .notation import board_words, parse
from .players import normal_players
from .positions import PASS, board, forbidden_points, replay, snapshot
from .rules import cached_rules, choice_words, list_words, options_key, rules_for
from .sides import side_words

#: Longest record accepted by import (a Gomoku 19x19 game has at most 361).
MAX_RECORD_PLIES = 2000

_MOVE_NUMBER = re.compile(r"^\d+\.+")
#: A tag heading a record: ``[name "value"]``. Its quotes straight or
#: curly (records walk: ［game “gomoku”］ typed on a Chinese keyboard read
#: as no tag; its brackets are read as half-width, :func:`import_record`).
_TAG = re.compile(r'\s*\[\s*(\w+)\s+["“”]([^"“”\]]*)["“”]\s*\]')
_TRANSCRIPT_TOKEN = re.compile(
    r"pass|[a-z][0-9]+|(?:(?!pass|[a-z][0-9]).)+", re.IGNORECASE
)


def game_boards(game_id: GameId) -> dict:
    """Return the game's id, version and the board after each ply from the
    start (``boards[0]`` is the first position): rows of ``x`` (black),
    ``o`` (white) and ``.`` (empty) joined by ``/``, top row first, as the
    snapshot's ``board.cells``; under renju ``forbidden``, black's forbidden
    points after each ply as the snapshot's (else None)."""
    row = get_row(game_id)
    game = cached_rules(row.game, options_key(row.options))
    state = game.initial_state()
    states = [state]
    for text in row.moves:
        state = game.play(state, text)
        states.append(state)
    boards = [_board_text(game, state) for state in states]
    # Under renju, black's forbidden points in each (teacher walk: stepping
    # back through a renju game marked none); the last as the game's own.
    last = len(states) - 1
    finished = row.status == GameRow.Status.FINISHED
    forbidden = [
        forbidden_points(game, state, finished=finished and ply == last)
        for ply, state in enumerate(states)
    ]
    answer = {"id": str(row.id), "version": row.version, "boards": boards}
    return {**answer, "forbidden": forbidden if forbidden[0] is not None else None}


def _board_text(game: Game, state: State) -> str:
    mark = {"black": "x", "white": "o", None: "."}
    cells = board(game, game.state_string(state))["cells"]
    return "/".join("".join(mark[cell] for cell in row) for row in cells)


def game_record(game_id: GameId) -> dict:
    """Return the game's record: for Reversi an Othello transcript (``f5d6c3``,
    passes left out because they are forced), for the others the tags of the
    game and its options, then the moves separated by spaces (``h8 h9``),
    Lines of Action's numbered in pairs (``1. b1-b3 a2xc4``)."""
    row = get_row(game_id)
    ending = _ending_tags(row.ending)
    if row.game == "reversi":
        record = "".join(move for move in row.moves if move != PASS)
        if ending:
            record = _tags(row.game, row.options, None, ending) + "\n" + record
    else:
        tags = _tags(row.game, row.options, row.opening, ending)
        record = tags + "\n" + _move_text(row.game, row.moves)
    return {
        "game": row.game,
        "options": row.options,
        "record": record,
        "moves": list(row.moves),
        "result": row.result,
    }


def _tags(name: str, options: dict, opening: dict | None, ending: dict) -> str:
    """The tags that head a record of game ``name`` with ``options``: the
    game, then each option, in the order of the game's option specs, then
    its ``opening`` rule and the choices made in it, if any, then the
    ``ending`` tags of a game that ended off the board (:func:`_ending_tags`)."""
    tags = {"game": name} | {key: options[key] for key in option_specs(name)}
    if opening:
        tags["opening"] = opening["name"]
        if opening["choices"]:
            tags["choices"] = " ".join(opening["choices"])
    tags |= ending
    return " ".join(f'[{key} "{value}"]' for key, value in tags.items())


#: The tags of a PGN's header (its seven-tag roster; how the game was timed
#: and ended; the players' ratings and titles), which records from other
#: sites carry: read past, as nothing that the game's tags give (records
#: walk: "the record's tag 'black' is not one of Reversi's"). A tag that
#: changes the game, such as a PGN's starting position (FEN), is refused.
PGN_TAGS = (
    "event",
    "site",
    "date",
    "round",
    "black",
    "white",
    "result",
    "timecontrol",
    "termination",
    "time",
    "utcdate",
    "utctime",
    "blackelo",
    "whiteelo",
    "blacktitle",
    "whitetitle",
    "annotator",
    "plycount",
    "eco",
    "variant",
)
#: A PGN's last word, its result ("1-0", a draw, "*" for a game not over):
#: the moves say it.
PGN_RESULTS = ("1-0", "0-1", "1/2-1/2", "½-½", "*")
#: How other programs write a pass in an Othello transcript (GGS's "PA").
PASS_WORDS = ("pass", "pa", "--")
#: The tags of an opening rule, in the records of games that have one.
OPENING_TAGS = ("opening", "choices")
#: The tags of a game that ended off the board, in every game's records.
ENDING_TAGS = ("ending", "winner")
#: How a game ends off the board, its position still open: with a winner
#: (resignation, time, abandonment), or without (agreement, aborted).
WON_OFF_THE_BOARD = ("resignation", "time", "abandonment")
DRAWN_OFF_THE_BOARD = ("agreement", "aborted")


def _ending_tags(ending: dict | None) -> dict:
    """The tags of a game's ``ending`` off the board (its row's), if any."""
    if not ending:
        return {}
    tags = {"ending": ending["reason"]}
    if ending["winner"]:
        tags["winner"] = ending["winner"]
    return tags


def _ending(rules: Game, state: State, plies: int, tags: dict) -> dict | None:
    """Return the result of an imported game that its record's ending
    ``tags`` give, in ``state`` after its ``plies`` moves; None without
    them."""
    if not tags:
        return None
    ending, winner = tags.get("ending"), tags.get("winner")
    if ending is None:
        raise ServiceError(
            "invalid_record",
            _(
                "the record's tag 'winner' needs its ending: a tag such as "
                '[ending "resignation"]'
            ),
        )
    if ending not in WON_OFF_THE_BOARD + DRAWN_OFF_THE_BOARD:
        raise ServiceError(
            "invalid_record",
            _("the record's tag 'ending' is %(value)s; it is one of %(choices)s")
            % {
                "value": repr(ending),
                "choices": choice_words(WON_OFF_THE_BOARD + DRAWN_OFF_THE_BOARD),
            },
        )
    if ending in WON_OFF_THE_BOARD and winner not in ("black", "white"):
        raise ServiceError(
            "invalid_record",
            _(
                "the record's ending %(ending)s needs its winner: "
                '[winner "black"] or [winner "white"]'
            )
            % {"ending": repr(ending)},
        )
    if ending in DRAWN_OFF_THE_BOARD and winner is not None:
        raise ServiceError(
            "invalid_record",
            _(
                "the record's ending %(ending)s has no winner: leave out its tag "
                "'winner'"
            )
            % {"ending": repr(ending)},
        )
    if rules.outcome(state) is not None:
        raise ServiceError(
            "invalid_record",
            _(
                "the record's game ended on the board after its last move; it "
                "cannot also end by its tag 'ending'"
            ),
        )
    if ending in WON_OFF_THE_BOARD and plies < 2:
        # As in play: before each side has moved, a game is aborted
        # (verification walk: a record of no moves was won on time).
        raise ServiceError(
            "invalid_record",
            _(
                "the record's ending %(ending)s needs a move of each side first: "
                'a game that ends before is [ending "aborted"]'
            )
            % {"ending": repr(ending)},
        )
    return {"winner": winner, "reason": ending, "score": None}


def _read_tags(game: str | None, options: dict | None, record: str):
    """Return the game and options a record's tags give (those of the body
    without tags; with them, the tagged game with its defaults and the
    tagged options), its opening's tags (:data:`OPENING_TAGS`), its ending's
    (:data:`ENDING_TAGS`) and the record after its tags. Raises ServiceError
    ``invalid_record`` for a tag it does not know. A record headed only by
    another site's tags (:data:`PGN_TAGS`) reads as one without tags; the
    last value says whether the game's own tags head it."""
    tags: dict[str, str] = {}
    written: dict[str, str] = {}  # each tag as the record writes its name
    while match := _TAG.match(record):
        key = match.group(1).lower()
        if key in tags:  # not the last one read as the record's
            raise ServiceError(
                "invalid_record",
                _("the record's tag %(tag)s is given twice")
                % {"tag": repr(match.group(1))},
            )
        tags[key] = match.group(2).strip()
        written[key] = match.group(1)
        record = record[match.end() :]
    for key in PGN_TAGS:  # another site's header: nothing of the game's
        tags.pop(key, None)
    if not tags:
        return game, options, {}, {}, record, False
    name = tags.pop("game", game)
    if name is None:
        raise ServiceError("invalid_record", _unnamed_words())
    opening_tags = OPENING_TAGS if openings.OPENINGS.get(name) else ()
    opening = {key: tags.pop(key) for key in opening_tags if key in tags}
    # Their words in any case, as the tags' names (verification walk:
    # [winner "Black"] "needs its winner").
    ending = {key: tags.pop(key).lower() for key in ENDING_TAGS if key in tags}
    specs = option_specs(name) if name in GAMES else {}
    unknown = sorted(set(tags) - set(specs))
    if unknown:
        raise ServiceError(
            "invalid_record",
            _("the record's tag %(tag)s is not one of %(title)s's: %(known)s")
            % {
                "tag": repr(written[unknown[0]]),
                "title": _(GAMES[name].title) if name in GAMES else repr(name),
                "known": list_words(["game", *specs, *opening_tags, *ENDING_TAGS]),
            },
        )
    tagged = {key: _tag_value(specs[key], value) for key, value in tags.items()}
    for key, value in tagged.items():
        choices = specs[key].get("choices")
        if choices is not None and value not in choices:
            raise ServiceError(
                "invalid_record",
                _("the record's tag %(tag)s is %(value)s; %(title)s's is %(choices)s")
                % {
                    "tag": repr(key),
                    "value": repr(value),
                    "title": _(GAMES[name].title),
                    "choices": choice_words(choices),
                },
            )
    return name, tagged, opening, ending, record, True


def _opening(name: str, options: dict, tags: dict, stones: int) -> dict | None:
    """Return the ``opening`` column of an imported game of ``name`` with
    ``options`` and ``stones`` moves, from its record's opening ``tags``."""
    if not tags:
        return None
    if "opening" not in tags:
        raise ServiceError(
            "invalid_record",
            _(
                "the record's tag 'choices' needs its opening: a tag such as "
                '[opening "swap2"]'
            ),
        )
    opening = openings.new_opening(name, tags["opening"], options)
    if opening is None:
        return None
    return openings.replayed(opening["name"], tags.get("choices", "").split(), stones)


def _tag_value(spec: dict, text: str):
    """A tag's text as its option takes it: a number for a number, and a
    choice as the choices write it (``"3"`` for a repetition of 3)."""
    if spec.get("type") == "integer":
        return int(text) if text.lstrip("-").isdigit() else text
    for choice in spec.get("choices", []):
        if str(choice) == text:
            return choice
    return text


def _record_tokens(name: str, record: str) -> list[str]:
    """Return the move texts of a record: a Reversi transcript may run its
    squares together (``f5d6``); any record may separate moves by spaces or
    commas and number them (``1. h8 h9 2. j10``)."""
    # Commas of either width (records walk: "'，' is not a Reversi move"),
    # the full-width ones read as half-width already but for the 、.
    words = re.split(r"[\s,;、]+", record.strip())
    # A move number alone (``1.``) or against its move (``1.f5``, ``2...d3``).
    words = [_MOVE_NUMBER.sub("", w, count=1) for w in words]
    words = [w for w in words if w]
    if words and words[-1] in PGN_RESULTS:
        words.pop()
    if name != "reversi":
        return words
    tokens = []
    for word in words:
        # Squares, passes, and whatever else lies between them whole.
        for token in _TRANSCRIPT_TOKEN.findall(word):
            tokens.append(PASS if token.lower() in PASS_WORDS else token)
    return tokens


#: The games a record is tried as when its first move is not a move of the
#: game chosen (each with its default options), most particular first: any
#: list of distinct squares reads as Gomoku.
READINGS = ("reversi", "loa", "gomoku")


def import_record(
    *, game: str | None, options: dict | None, record: str, players: dict | None
) -> dict:
    """Return the snapshot of a new game holding the moves of ``record``.

    Forced passes left out of the record are put back (an Othello transcript
    never writes them). A record's tags give its game and options, over
    ``game`` and ``options``; with neither, the record is read as each game
    of :data:`READINGS` in turn (:func:`_game_of`). Raises ServiceError
    ``invalid_record`` naming the ply and the move at fault; when already the
    first move is not one of this game and the whole record reads as another
    game (:data:`READINGS`), the error names that game and gives it, with
    its options, as ``reads_as`` (only named, if every move is written as
    this game's); when it reads as another game's up to a later move, it
    names that move.
    """
    # Full-width letters, digits and signs as their half-width selves, as
    # a Chinese or Japanese keyboard writes them (Reversi walk: 'ｆ５').
    record = unicodedata.normalize("NFKC", record)
    game, options, opening_tags, ending_tags, moves_text, tagged = _read_tags(
        game, options, record
    )
    if game is None:
        game = _game_of(options, moves_text)
    rules = rules_for(game, options)
    try:
        moves, state = _read(rules, moves_text)
    except _Unread as unread:
        # A record whose tags say its game is read as that game only.
        read_as = unread.number == 1 and not tagged
        other = _other_reading(rules, moves_text) if read_as else None
        if other is not None and _written_as(rules, moves_text):
            # A mistyped move of this game, not another game's record: its
            # own error, the other game named (study walk: "a1" over
            # Reversi became a game of Gomoku).
            raise ServiceError(
                "invalid_record",
                _(
                    "%(error)s; it reads as a record of %(title)s: choose "
                    "%(title)s to import it"
                )
                % {"error": unread.detail, "title": _(other.title)},
            ) from None
        if other is None:
            partly = _partly_other(rules, moves_text) if read_as else None
            raise ServiceError("invalid_record", partly or unread.detail) from None
        raise ServiceError(
            "invalid_record",
            _other_game(rules, other, unread.detail),
            extra={"reads_as": {"game": other.name, "options": other.options}},
        ) from None
    # A forced pass at the end is played, as it is in play with the move
    # before it (Reversi walk: the page waited on a Pass button).
    moves = with_forced_passes(rules.name, options_key(rules.options), moves)
    state = replay(rules.name, options_key(rules.options), tuple(moves))
    opening = _opening(rules.name, rules.options, opening_tags, len(moves))
    status, result = result_of(rules, state)
    ended = _ending(rules, state, len(moves), ending_tags)
    if ended:
        status, result = GameRow.Status.FINISHED, ended
    row = GameRow.objects.create(
        game=rules.name,
        options=rules.options,
        players=normal_players(rules.name, players, options=rules.options),
        moves=moves,
        status=status,
        result=result,
        ending=ended,
        opening=opening,
    )
    return snapshot(row)


def play_from(game_id: GameId, ply: int) -> dict:
    """Return the snapshot of a new game from the position after the first
    ``ply`` moves of a game: the same game, options and players, untimed,
    at one screen; a Swap2 opening goes on from there (a choice made at that
    position is to be made again), its players on the sides they had then.
    Refused as the computer's help is (:func:`.games.position_for_help`):
    while two seats play the game, and beyond its moves."""
    row, rules, state = position_for_help(game_id, ply)
    players = row.players
    opening = None
    if row.opening:
        opening = openings.replayed(
            row.opening["name"], row.opening["choices"], ply, made_at_the_end=False
        )
        if opening["swapped"] != row.opening["swapped"]:
            players = {"black": players["white"], "white": players["black"]}
    status, result = result_of(rules, state)
    new = GameRow.objects.create(
        game=row.game,
        options=row.options,
        players=normal_players(row.game, players, options=row.options),
        # The position before a forced pass is on show (the move that
        # forced it): the game played on from there passes, as it did.
        moves=with_forced_passes(row.game, options_key(row.options), row.moves[:ply]),
        status=status,
        result=result,
        opening=opening,
    )
    return snapshot(new)


def _unnamed_words() -> str:
    """How to say a record's game, for a record that does not."""
    return _(
        "the record does not say its game: give its game (reversi, gomoku or "
        'loa), or head it with a tag such as [game "gomoku"]'
    )


def _game_of(options: dict | None, record: str) -> str:
    """Return the game of a record imported without one: the first of
    :data:`READINGS` (default options) as which the whole of it reads (a
    record posted back as ``GET record/`` gave it: a Reversi transcript has
    no tags). Raises ServiceError ``invalid_record`` for options without a
    game, or a record that reads as none."""
    if options:
        raise ServiceError(
            "invalid_record",
            _(
                "options are given but no game: give its game (reversi, gomoku "
                "or loa) with them"
            ),
        )
    found = _other_reading(None, record)
    if found is None:
        raise ServiceError(
            "invalid_record",
            _("the record reads as no game's moves; %(how)s")
            % {"how": _unnamed_words()},
        )
    return found.name


class _Unread(Exception):
    """A record that does not read as a game: what is wrong (the detail of
    an ``invalid_record``), and the number of the move at fault (0: the
    record as a whole)."""

    def __init__(self, detail: str, number: int) -> None:
        super().__init__(detail)
        self.detail = detail
        self.number = number


def _read(rules: Game, record: str) -> tuple[list[str], State]:
    """Return the moves of ``record`` under ``rules`` (forced passes put
    back) and the position after them; raise :class:`_Unread` if it does
    not read as such a game."""
    tokens = _record_tokens(rules.name, record)
    if len(tokens) > MAX_RECORD_PLIES:
        raise _Unread(
            _("records are limited to %(max)s moves") % {"max": MAX_RECORD_PLIES}, 0
        )
    state = rules.initial_state()
    moves: list[str] = []
    paired = rules.name in NUMBERED_IN_PAIRS  # as the game's records number
    for number, token in enumerate(tokens, start=1):
        if rules.is_terminal(state):
            raise _Unread(
                _(
                    "the game ended after %(count)s moves but the record goes on "
                    "with %(move)s (move %(number)s)"
                )
                # The record's moves: the passes put back are not its.
                % {
                    "count": (len(moves) + 1) // 2 if paired else number - 1,
                    "move": repr(token),
                    "number": _pair_number(len(moves)) if paired else number,
                },
                number,
            )
        if token.lower() != PASS and rules.legal_moves(state) == [rules.PASS]:
            moves.append(PASS)
            state = rules.play(state, PASS)
        try:
            text = parse(rules, state, token)
        except ServiceError as exc:
            words = {"number": number, "move": repr(token), "error": exc.detail}
            # The move named once: the reason begins with it, mostly.
            named = exc.detail.startswith(repr(token))
            if paired:
                # In pairs, with its side (LOA walk: "move 5" named a
                # record's "3. d3xc4").
                words["number"] = _pair_number(len(moves))
                words["side"] = side_words("black" if len(moves) % 2 == 0 else "white")
                message = (
                    _("move %(number)s (%(side)s): %(error)s")
                    if named
                    else _("move %(number)s (%(side)s, %(move)s): %(error)s")
                ) % words
            elif named:
                message = _("move %(number)s: %(error)s") % words
            else:
                message = _("move %(number)s (%(move)s): %(error)s") % words
            raise _Unread(message, number) from None
        moves.append(text)
        state = rules.play(state, text)
    return moves, state


def _pair_number(ply: int) -> int:
    """Return the number, counted in pairs (Black's and White's move 12), of
    the move played after ``ply`` moves."""
    return ply // 2 + 1


def _move_text(game: str, moves: list[str]) -> str:
    """Return a record's moves: numbered in pairs where the game numbers
    them so, as its published records are written (``1. b1-d3 h3-e3 2.
    g1-g3``), else separated by spaces (``h8 h9``)."""
    if game not in NUMBERED_IN_PAIRS:
        return " ".join(moves)
    return " ".join(
        f"{_pair_number(ply)}. {move}" if ply % 2 == 0 else move
        for ply, move in enumerate(moves)
    )


def _written_as(rules: Game, record: str) -> bool:
    """True if every move of ``record`` is written as ``rules``' moves are,
    legal or not (Reversi's ``a1``, not Gomoku's ``h9``)."""
    state = rules.initial_state()
    for token in _record_tokens(rules.name, record):
        try:
            rules.parse_move(state, token)
        except InvalidMoveError:
            return False
        except IllegalMoveError:
            pass
    return True


def _other_game(rules: Game, other: Game, error: str) -> str:
    """Say that a record of ``rules`` reads as one of ``other`` instead: the
    other game, or the same game on another board (Gomoku's options)."""
    if other.name != rules.name:
        # The titles' msgids are services.catalog.TITLES.
        return _("this is a record of %(title)s, not of %(chosen)s (%(error)s)") % {
            "title": _(other.title),
            "chosen": _(rules.title),
            "error": error,
        }
    return _(
        "this is a record of %(title)s on %(board)s, not on %(chosen)s (%(error)s)"
    ) % {
        "title": _(other.title),
        "board": board_words(other.options),
        "chosen": board_words(rules.options),
        "error": error,
    }


def _partly_other(rules: Game, record: str) -> str | None:
    """Say where a record of another game of :data:`READINGS` than
    ``rules``'s goes wrong, when it reads as one past its first move (QA:
    a Lines of Action record with a wrong second move, imported over
    Reversi, was refused as Reversi's: "'b1' is not legal here"), or None."""
    for name in READINGS:
        other = rules_for(name)
        if other.name == rules.name:
            continue
        try:
            _read(other, record)
        except _Unread as unread:
            if unread.number > 1:
                # The titles' msgids are services.catalog.TITLES.
                return _("this reads as a record of %(title)s, but: %(error)s") % {
                    "title": _(other.title),
                    "error": unread.detail,
                }
    return None


def _other_reading(rules: Game | None, record: str) -> Game | None:
    """The first game of :data:`READINGS` (default options) other than
    ``rules`` (None: any) as which the whole of ``record`` reads, or None."""
    for name in READINGS:
        other = rules_for(name)
        if rules and (other.name, other.options) == (rules.name, rules.options):
            continue
        try:
            _read(other, record)
        except _Unread:
            continue
        return other
    return None
