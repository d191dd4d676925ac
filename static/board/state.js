/*
 * The page's one state object, and the questions the other modules ask of it.
 *
 * Everything about the game comes from the server: `state.game` is the last
 * JSON snapshot of /api/games/<id>/, drawn as it is. The other fields say what
 * this browser is doing with it (a piece picked, a position looked at, a
 * request in flight). Timers live with the module that runs them, not here.
 */

/** A count as the page writes it, in either language: "137,780". */
export const COUNT = new Intl.NumberFormat("en");

/** The two sides, in the order the page lists them. */
export const SIDES = ["black", "white"];

export const state = {
  /** Game name -> its entry of GET /api/games/kinds/ (title, options,
   *  option_specs, levels, models). */
  kinds: {},
  /** The last snapshot from the server (the API's game JSON), or null. */
  game: null,
  /** The last search to show: {search, ply, key, hint}, where `search` is the
   *  API's search result, `ply` and `key` (movesKey) the position it ran in
   *  and `hint` whether a human asked for it. */
  analysis: null,
  /** Lines of Action: the from-square the player picked, or null. */
  selected: null,
  /** Confirm mode: the move waiting for its second tap, or null. */
  pending: null,
  /** The squares tapped while this page's last change was on its way, in
   *  turn: tapped again once the answer is in (actions.js). */
  queuedTaps: [],
  /** The board is drawn from White's side (a1 bottom right). */
  flipped: false,
  /** null: the live position; else the ply being looked at (view only). */
  viewPly: null,
  /** The message about the live position shown as the player stepped away
   *  from it, as {version, call}: it comes back with that position (QA: a
   *  pass's words were gone after stepping back and forward). */
  liveFlash: null,
  /** The game in which the win bar was shown or had its line: it keeps its
   *  line to the game's end and after (panel.js). */
  winBarShownFor: null,
  /** The analysis card once shown in a game: {id, height} (its tallest, in
   *  px); it keeps its place to the game's end (panel.js). */
  analysisCard: null,
  /** The game in which the computer played: its thinking row keeps its place
   *  to the end (panel.js). */
  thinkingRowFor: null,
  /** The board takes the focus when next drawn (a game was just chosen). */
  focusBoard: false,
  /** "id:version" of the game whose boards are being fetched (actions.js). */
  boardsAsked: null,
  /** movesKey -> compact board, the positions this browser has seen. */
  boards: {},
  /** movesKey -> black's forbidden points there, under renju (history.js
   *  forbiddenAt). */
  forbiddenSeen: {},
  /** A request that changes the game is in flight: {id, from: the version
   *  it was sent at, and for a move the move} (game.js changeGame,
   *  actions.js sendMove), or true for a new game's. */
  busy: false,
  /** {xhr, side, hint, seconds} while a search runs, else null. */
  thinking: null,
  /** AI moves are not asked for (Pause, or after an AI request failed). */
  paused: false,
  /** When Resign was first clicked (Date.now()), for its confirming click. */
  resignAsked: 0,
  /** {id, at}: when a search this page abandoned ends on the server (it holds
   *  the game's search slot until then). */
  searchSlotFree: null,
  /** Player settings to send once the running search ends, or null. */
  queuedPlayers: null,
  /** The user typed in the record box since the page filled it. */
  recordEdited: false,
  /** A finished game's ending: {id, winner, reason, squares} (the squares
   *  that won it, lit on the board), or null. */
  ending: null,
  /** The game whose end card this page has shown (it shows once). */
  endShownFor: null,
  /** This browser's seat in a game between two browsers: {id, side, token,
   *  invite} (invite: the link's secret while the other seat is open), or null. */
  seat: null,
  /** The page was opened by a watch link: it shows the game and plays nothing. */
  watching: false,
  /** Who is connected to the game: {black, white, watchers, playing,
   *  paused, gone: {side: seconds}, goneAfter, goneAfterUntimed, at, taken:
   *  {side: bool}}
   *  (playing: the pages playing a game without seats, paused: how many of
   *  them paused their computer; the socket's presence,
   *  `at` when it came, by performance.now(), `taken` the seats taken
   *  then), or null. */
  presence: null,
  /** Whether the live socket is connected (else the page polls). */
  live: false,
  /** The live socket was connected and closed: it is reconnecting. */
  liveLost: false,
  /** performance.now() when the last snapshot came (the clocks run from it). */
  receivedAt: 0,
  /** The game analysis: {id, moves, points: [{ply, black, to_move, best}],
   *  running, xhr} (moves: the game's when it began), or null. */
  review: null,
  /** The opening explorer: {ply, line, asked, ahead, model, data} (data:
   *  the explorer endpoint's answer for the game's first `ply` moves and
   *  then `line`; asked: the line asked for last, its answer perhaps on its
   *  way; ahead: the moves stepped back from, the next one last), or null. */
  explore: null,
};

/** How many moves game `g` has had, its passes left out: a Reversi game of
 *  60 discs is 60 moves (Othello QA: it read "64 moves"). */
export function movesPlayed(g) {
  return moveNumber(g, g.moves.length);
}

/** The number of the move that led to the position after `ply` plies, as
 *  players number moves: passes left out, as an Othello game numbers its
 *  discs 1 to 60 (two walks of strong players read "Move 36 of 62"), and a
 *  pass keeps the number of the move before it; Lines of Action's in pairs,
 *  Black's and White's move 12, as its published records number them and
 *  chess does (LOA walk: "3. c3-c1" was Black's second). */
export function moveNumber(g, ply) {
  if (pairsNumbered(g)) return Math.ceil(ply / 2);
  return g.moves.slice(0, ply).filter((move) => move !== "pass").length;
}

/** True if game `g`'s moves are numbered in pairs (moveNumber): the
 *  server's game kinds say which. */
export function pairsNumbered(g) {
  return Boolean(state.kinds[g.game] && state.kinds[g.game].numbered_in_pairs);
}

/** "black" -> "Black". */
export function cap(word) {
  return word ? word.charAt(0).toUpperCase() + word.slice(1) : "";
}

/** The mark that ends a sentence, in either language. */
const SENTENCE_END = /[.。!?！？]$/;

/** `words` as a sentence: with a full stop where they have none (news of
 *  the game said alone; joined with more words, they take none). */
export function endSentence(words) {
  // Translators: a sentence's full stop after how the game ended: "Five in a row."
  return SENTENCE_END.test(words) ? words : interpolate(gettext("%(sentence)s."), { sentence: words }, true);
}

/** `words` without the mark that ends them, to be joined with more. */
export function unendSentence(words) {
  return words.replace(SENTENCE_END, "");
}

/** A side's name as the page shows it: "black" -> "Black" (translated);
 *  "" for none. The API's value ("black", "white") is never translated. */
export function sideName(side) {
  if (side === "black") return gettext("Black");
  if (side === "white") return gettext("White");
  return "";
}

/** The words of a list joined as the page's language writes them ("d3,
 *  empty, legal"; Chinese "d3，空，可下"). `items`: a list of things of one
 *  kind ("b3, d3, h1"; Chinese "b3、d3、h1") if `series`. */
export function joinWords(items, series) {
  // Translators: between the items of a list of things of one kind: ", " (Chinese "、").
  const between = series ? pgettext("list of one kind", ", ") : pgettext("list", ", ");
  return items.join(between);
}

/** A move as the page shows it: the notation as it is, but the API's "pass"
 *  in the player's language. */
export function moveText(move) {
  return move === "pass" ? pgettext("a move", "pass") : move;
}

/** A move as a screen reader says it: Lines of Action's "c1xa3" in words,
 *  "c1 to a3, capturing" (keyboard QA: it was spelt out letter by letter). */
export function spokenMove(move) {
  const loa = /^([a-z]\d+)([-x])([a-z]\d+)$/.exec(move);
  if (!loa) return moveText(move);
  const words = loa[2] === "x" ? gettext("%(from)s to %(to)s, capturing") : gettext("%(from)s to %(to)s");
  return interpolate(words, { from: loa[1], to: loa[3] }, true);
}

/** {black, white}: the discs (stones, pieces) on a board's cells. */
export function discCounts(cells) {
  const counts = { black: 0, white: 0 };
  cells.forEach((row) => row.forEach((c) => c && (counts[c] += 1)));
  return counts;
}

export function isLoa() {
  return Boolean(state.game) && state.game.game === "loa";
}

/** The squares a move touches: "d3" -> [d3]; LOA "b1-b3" / "b1xb3" -> [b1, b3];
 *  "pass" -> []. */
export function squaresOfMove(move) {
  if (!move || move === "pass") return [];
  const parts = move.split(/[-x]/);
  return parts.length === 2 ? parts : [move];
}

/** The key of the position after the first `ply` of `moves`. */
export function movesKey(moves, ply) {
  return moves.slice(0, ply).join(" ");
}

/** This browser may play the side to move: a human's turn, and in a game
 *  between two browsers this browser's seat's (a watcher plays nothing). */
export function humanToMove() {
  const g = state.game;
  if (!g || g.status !== "playing" || !g.to_move || g.players[g.to_move].kind !== "human") return false;
  if (state.watching) return false;
  return !g.seats || mySeat() === g.to_move;
}

/** The side this browser sits at in the game shown, or null. A Swap2
 *  choice that swapped the sides since the seat was taken moved it. */
export function mySeat() {
  const g = state.game;
  if (!(g && state.seat && state.seat.id === g.id)) return null;
  return seatSide(g, state.seat);
}

/** The side that `seat` ({side, swapped}) plays in game `g` now. */
export function seatSide(g, seat) {
  const swapped = Boolean(g.opening && g.opening.swapped) !== Boolean(seat.swapped);
  return swapped ? otherSide(seat.side) : seat.side;
}

/** Whose move it is in game `g` between two seats, in the words of the
 *  player of side `mine`. */
export function turnWords(g, mine) {
  const who = { side: sideName(g.to_move) };
  // The side named by the friend it is (browser walk: "Waiting for your
  // friend to join (Black)" read as if the player were Black).
  // Translators: %(side)s is the friend's colour, "Black" or "White".
  if (mine !== g.to_move && !g.seats[g.to_move]) return interpolate(gettext("Waiting for your friend (%(side)s) to join"), who, true);
  return interpolate(mine === g.to_move ? gettext("Your move (%(side)s)") : gettext("Your friend's move (%(side)s)"), who, true);
}

/** The other side than `side`. */
export function otherSide(side) {
  return side === "black" ? "white" : "black";
}

/** A person plays at least one side. */
export function humanPlays() {
  const g = state.game;
  return g.players.black.kind === "human" || g.players.white.kind === "human";
}

/** A person plays the game at this page: not the computer against itself,
 *  nor a game watched. */
export function personPlaysHere() {
  return humanPlays() && !onlyWatching();
}

/** The game is between two browsers and this one only watches it. */
export function onlyWatching() {
  const g = state.game;
  return state.watching || Boolean(g && g.seats && !mySeat());
}

/** The computer is thinking for this page, its move not yet in (game.js
 *  marks a search whose move the socket brought before its answer). */
export function aiThinking() {
  return Boolean(state.thinking && !state.thinking.moved);
}

/** A click on the board may play now: a human's turn, nothing in flight, live view. */
export function canClick() {
  return humanToMove() && !state.busy && !aiThinking() && state.viewPly === null && !state.explore;
}

/** The side this browser's player looks from: the one human against the AI,
 *  else the side at the bottom of the board (Black unless flipped). */
export function viewerSide() {
  const g = state.game;
  if (mySeat()) return mySeat();
  const humans = SIDES.filter((s) => g && g.players[s].kind === "human");
  if (humans.length === 1) return humans[0];
  return state.flipped ? "white" : "black";
}

/** The side this browser's player plays, when that is clear: its seat in a
 *  game between two browsers, the one human against the AI; else null (at
 *  one screen, or to a watcher: the person watched plays it). */
export function humanSide() {
  const g = state.game;
  if (mySeat()) return mySeat();
  if (!g || state.watching || !humanAgainstAi()) return null;
  return g.players.black.kind === "human" ? "black" : "white";
}

/** Exactly one side is played by the AI and the other by a person. */
export function humanAgainstAi() {
  const g = state.game;
  return Boolean(g) && g.players.black.kind !== g.players.white.kind;
}

/** The think time of a strength (`{level}` or `{think_time}`) in seconds, as
 *  the kinds endpoint's level ladder says; null when unknown (levels that
 *  count simulations). Only sizes the progress bar. */
export function expectedSeconds(game, strength) {
  if (!strength) return null;
  if (strength.think_time) return strength.think_time;
  const levels = (state.kinds[game] && state.kinds[game].levels) || [];
  const level = levels.find((l) => l.level === strength.level);
  return (level && level.seconds) || null;
}

/** How a game ended off the board, in words: with a winner (its name is
 *  `side`) and as a draw. */
const REASONS = {
  time: { win: () => gettext("%(side)s wins on time"), draw: () => gettext("Draw on time") },
  resignation: { win: () => gettext("%(side)s wins by resignation"), draw: () => gettext("Draw by resignation") },
  agreement: { win: () => gettext("%(side)s wins by agreement"), draw: () => gettext("Draw by agreement") },
  // Who left is named: "the opponent" was the reader to the player who left.
  abandonment: { win: () => gettext("%(side)s wins: %(other)s was away too long"), draw: () => gettext("Draw: a player was away too long") },
  // Before each player had moved: no result, neither a win nor a draw.
  aborted: { win: () => gettext("Game aborted"), draw: () => gettext("Game aborted") },
};

/** The game ended off the board: on time, by resignation, agreement or
 *  abandonment, or it was aborted. */
export function endedOffBoard(result) {
  return Boolean(result && REASONS[result.reason]);
}

/** The game's name in the page's language (the kinds endpoint's, fetched by
 *  this page; a snapshot's own title is the library's English, as it is
 *  pushed alike to every watcher). */
export function gameTitle(g) {
  const kind = state.kinds[g.game];
  return kind ? kind.title : g.title;
}

/** The reasons a game ends on the board, as the API words them (the games'
 *  end_reason), marked for the translators; Reversi's disc count is worded
 *  from the score. */
const BOARD_REASONS = [
  gettext_noop("three in a row"),
  gettext_noop("four in a row"),
  gettext_noop("five in a row"),
  gettext_noop("six in a row"),
  gettext_noop("seven in a row"),
  gettext_noop("eight in a row"),
  gettext_noop("nine in a row"),
  gettext_noop("board full"),
  gettext_noop("black has only forbidden points"),
  gettext_noop("connected group"),
  gettext_noop("both sides connected at once"),
  gettext_noop("no legal move"),
  gettext_noop("third repetition"),
  gettext_noop("repetition"),
];

/** Why a game ended on the board, in the page's language: "five in a row",
 *  "disc count 40–24" (the winner's count first, as the end card says it to
 *  a watcher or at one screen; to a player it says theirs first); "" without
 *  a reason. */
export function reasonText(result) {
  if (!result || !result.reason) return "";
  if (result.score) {
    const counts = Object.values(result.score);
    const high = Math.max(...counts);
    const low = Math.min(...counts);
    const words = high === low ? gettext("equal disc count %(high)s\u2013%(low)s") : gettext("disc count %(high)s\u2013%(low)s");
    return interpolate(words, { high: high, low: low }, true);
  }
  if (BOARD_REASONS.indexOf(result.reason) !== -1) return gettext(result.reason);
  // A row past nine is named with its number: "12 in a row".
  const row = /^(\d+) in a row$/.exec(result.reason);
  return row ? interpolate(gettext("%(n)s in a row"), { n: row[1] }, true) : result.reason;
}

/** "Black wins: five in a row", "White wins on time", "Draw by agreement",
 *  or "" while playing. */
export function resultText(result) {
  if (!result) return "";
  const off = REASONS[result.reason];
  if (off) return result.winner ? interpolate(off.win(), { side: sideName(result.winner), other: sideName(otherSide(result.winner)) }, true) : off.draw();
  const why = reasonText(result) || gettext("game over");
  if (result.winner) return interpolate(gettext("%(side)s wins: %(reason)s"), { side: sideName(result.winner), reason: why }, true);
  return interpolate(gettext("Draw: %(reason)s"), { reason: why }, true);
}
