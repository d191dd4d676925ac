/*
 * What a player can do: each exported function is one button, key or click.
 * It sends a request (api.js), hands the answer to game.js (setGame, which
 * redraws and lets the AI move), or only redraws (render.js) for what is the
 * browser's own business: a picked piece, a viewed move, the flip. No rule is
 * decided here: a move is played if it is in the legal list the server sent.
 */
import * as api from "./api.js";
import { grey, greyed } from "./buttons.js";
import { chooseOptions, chosenGame, fillModels, limitOptions, newGameBody, optionsText, playerSpec, strengthOf } from "./controls.js";
import { askNewGame, changeGame, maybeRunAi, passWords, reload, sendPlayers, setGame, slotWait, stopThinking, think, whenGameDrawn } from "./game.js";
import { tellPause } from "./live.js";
import { joinFromLink, makeOffer } from "./friends.js";
import { cellsAt, forbiddenAt, forgetAddress, gameInAddress, gameToReopen, inviteInAddress, lastGame, learnBoards, rememberPause, stepTarget, watchesFromAddress } from "./history.js";
import { announce, clearFlash, clearPositionFlash, clearRecordNote, copyField, flash, hasUndo, noHintReason, noUndoReason, noteRecord, positionFlash, sayStatus } from "./panel.js";
import { lookAheadWords, provenText, shownValue, treeBestOver } from "./overlays.js";
import { aiReady, checkReadiness, whenAiReady } from "./readiness.js";
import { exploreBack, exploreForward, exploreSquare } from "./review.js";
import { render } from "./render.js";
import { loaWhyNot, pickedWords } from "./rules.js";
import { aiThinking, canClick, expectedSeconds, gameTitle, humanToMove, isLoa, joinWords, moveNumber, moveText, movesKey, movesPlayed, mySeat, onlyWatching, otherSide, resultText, sideName, spokenMove, squaresOfMove, state } from "./state.js";

// ---- the page starts -----------------------------------------------------------

/** Load the game kinds, then reopen the game of the address or of last time,
 *  else offer a new one (the first-minute dialog: the computer or two players). */
export function start(offerNewGame) {
  checkReadiness();
  api.untilAnswered(api.getKinds, sayStatus)
    .done(function (kinds) {
      kinds.forEach((k) => (state.kinds[k.name] = k));
      limitOptions();
      fillModels(chosenGame());
      const id = gameToReopen();
      if (!id) return firstVisit(offerNewGame);
      state.watching = watchesFromAddress(id);
      const invite = inviteInAddress();
      // An old or foreign id: start afresh, saying so if a link brought it.
      // A bad link does not lose the game this browser played last: it is
      // on the board behind the dialog, which closes back to it.
      const missing = function () {
        const fromLink = Boolean(gameInAddress());
        forgetAddress();
        const last = lastGame();
        if (!fromLink || !last || last === id) return firstVisit(offerNewGame, fromLink);
        state.watching = false;
        api
          .getGame(last)
          .done(function (g) {
            setGame(g);
            offerNewGame();
            $("#start-missing").prop("hidden", false);
          })
          .fail(() => firstVisit(offerNewGame, true));
      };
      if (invite && gameInAddress()) return joinFromLink(id, invite, missing);
      api
        .untilAnswered(() => api.getGame(id), sayStatus)
        .done(setGame)
        .fail(missing);
    })
    .fail((xhr) => sayStatus(api.errorText(xhr)));
}

function firstVisit(offerNewGame, missing) {
  sayStatus(gettext("Choose a game to start"));
  offerNewGame();
  $("#start-missing").prop("hidden", !missing);
}

/** Back / Forward in the browser, or a new fragment: show the game of the
 *  address, or take the seat its invitation offers. */
export function followAddress() {
  const id = gameInAddress();
  if (!id) return;
  // An invitation opened over the game's own address changes only the
  // fragment, and the page does not load again (friends QA: the friend
  // stayed a watcher). joinFromLink takes it out of the address at once.
  const invite = inviteInAddress();
  if (invite) return joinFromLink(id, invite, () => openGame(id, true));
  if (state.game && state.game.id === id) return;
  // The move looked at when "Play from here" left this game (records walk:
  // Back showed the game's last move instead).
  const looked = history.state && history.state.viewPly;
  openGame(id, watchesFromAddress(id), Number.isInteger(looked) ? looked : null);
}

/** How many games openGame() asked for: the last one's answer is shown. */
let gamesAsked = 0;

/** Show game `id`: to watch it, or as this browser's own (with its seat,
 *  if it holds one); at move `ply` if given, and the game still has it. */
export function openGame(id, watching = false, ply = null) {
  stopThinking();
  const asked = ++gamesAsked;
  api
    .getGame(id)
    .done(function (g) {
      // Only the game asked for last: Back pressed twice quickly, the first
      // answer came last and took its game's address back over the later
      // games (links QA: Forward did nothing, a game out of reach).
      if (asked !== gamesAsked) return;
      state.watching = watching;
      setGame(g);
      if (ply !== null && ply < g.ply) viewPly(ply);
    })
    .fail((xhr) => asked === gamesAsked && flash(api.errorText(xhr)));
}

// ---- moves ---------------------------------------------------------------------

/** A Swap2 choice of this browser's player ("white", "black", "place2"). */
export function chooseOpening(choice) {
  // "Choose first" and any refusal before it are answered by the choice.
  clearFlash();
  changeGame(api.choose(state.game.id, choice, state.game.version));
  render();
}

function sendMove(move) {
  // "Tap again to play" and any refusal before it are answered by the move.
  clearFlash();
  state.selected = null;
  state.pending = null;
  changeGame(api.playMove(state.game.id, move, state.game.version));
  // Drawn as a proposed move is until the answer brings it: on a slow link
  // the square stayed empty meanwhile, a proposed stone gone as if undone.
  state.busy.move = move;
  render();
}

/** Why black may not play `square` under renju, in a sentence. */
function forbiddenText(square, why) {
  const words = {
    "double three": () => gettext("%(square)s is forbidden to Black: it makes two threes at once (renju)."),
    "double four": () => gettext("%(square)s is forbidden to Black: it makes two fours at once (renju)."),
    overline: () => gettext("%(square)s is forbidden to Black: it makes six or more in a row (renju)."),
  }[why];
  return interpolate(words ? words() : gettext("%(square)s is forbidden to Black (renju)."), { square: square }, true);
}

/** Whether a stone or a disc is on `square` ("h8"). */
function taken(g, square) {
  const file = g.board.files.indexOf(square.charAt(0));
  const rank = g.board.ranks.indexOf(square.slice(1));
  return file >= 0 && rank >= 0 && g.board.cells[rank][file] !== null;
}

function tryMove(move) {
  // On touch screens a second tap confirms, so a slip of the finger costs nothing.
  if ($("#confirm-moves").prop("checked") && state.pending !== move) {
    state.pending = move;
    render();
    const square = squaresOfMove(move).slice(-1)[0];
    // A stone's move is its point: named once. A piece's names where it goes from.
    const words = moveText(move) === square ? gettext("Tap %(square)s again to play there") : gettext("Tap %(square)s again to play %(move)s");
    flash(interpolate(words, { square: square, move: moveText(move) }, true), "info");
    return;
  }
  sendMove(move);
}

/** Why a watcher's click or key plays nothing: a game between two seats is
 *  played by its two players, any other by the page that plays it (the
 *  computer against itself too: spectators QA, "only its two players"). */
function watchingWords(g) {
  return g.seats ? gettext("You are watching this game: only its two players move.") : gettext("You are watching this game: only the page playing it moves.");
}

/** Why this page's player cannot play now (nor ask for a hint), as flash's
 *  arguments; null if they can. With `pastBusy`, as if the change this page
 *  sent were already in (whether a tap may wait for it). The other side's
 *  turn is a word about the position, not an error: it goes when their move
 *  lands (it stayed some seconds, in red, beside "Your turn": QA). */
function whyNotNow(pastBusy) {
  const g = state.game;
  if (state.viewPly !== null) return [gettext("You are looking at an earlier position: \u201cBack to the game\u201d returns to it."), "position"];
  // An aborted game is not "over: Game aborted" (friends QA: 对局已结束：对局已中止).
  if (g.status === "finished" && g.result && g.result.reason === "aborted") return [gettext("The game was aborted: no move can be played in it.")];
  if (g.status === "finished") return [interpolate(gettext("The game is over: %(result)s"), { result: resultText(g.result) }, true)];
  if (onlyWatching()) return [watchingWords(g), "info"];
  if (aiThinking()) return [gettext("Wait: the AI is thinking."), "position"];
  if (state.busy && !pastBusy) return [gettext("Wait: your last change is still on its way to the server."), "info"];
  if (g.seats && !humanToMove()) return [gettext("It is your friend's turn."), "position"];
  if (!humanToMove()) return [g.to_move === "black" ? gettext("It is the AI's turn (Black).") : gettext("It is the AI's turn (White)."), "position"];
  return null;
}

/** A click on a square: play it if legal, else say why not. Lines of Action:
 *  a piece first, then one of its destinations; a click elsewhere cancels. */
export function clickSquare(square) {
  const g = state.game;
  if (!g) return;
  if (state.explore) return exploreSquare(square);
  // A change to this game on its way (not a new game's: busy is true then).
  if (state.busy && state.busy.id === g.id && !whyNotNow(true)) return queueTap(square);
  const why = whyNotNow();
  if (why) return flash(...why);
  if (g.opening && g.opening.choices_now.length) return flash(gettext("Swap2: choose first, with the buttons above the board."), "info");
  if (!isLoa()) {
    if (g.legal_moves.indexOf(square) >= 0) tryMove(square);
    else if (g.forbidden && g.forbidden[square]) flash(forbiddenText(square, g.forbidden[square]));
    else if (taken(g, square)) flash(interpolate(gettext("%(square)s is taken."), { square: square }, true));
    // In Reversi an empty square is refused only for flipping nothing:
    // said, with the rule (family QA: a child read only "not legal").
    else if (g.game === "reversi") flash(interpolate(gettext("%(square)s flips no %(side)s disc: a move must trap at least one."), { square: square, side: sideName(otherSide(g.to_move)) }, true));
    else flash(interpolate(gettext("%(square)s is not a legal move."), { square: square }, true));
    return;
  }
  const byFrom = g.legal_by_from || {};
  if (state.selected) {
    const move = (byFrom[state.selected] || []).find((m) => squaresOfMove(m)[1] === square);
    if (move) return tryMove(move);
    // Another movable piece is picked instead; a click elsewhere cancels,
    // and says why where the piece cannot go (a newcomer's tap).
    const dropped = state.selected;
    state.selected = square !== state.selected && byFrom[square] ? square : null;
    state.pending = null;
    render();
    if (state.selected) return pick(square, byFrom[square]);
    if (square === dropped) {
      clearFlash();
      return sayPutDown(dropped);
    }
    // One's own piece that cannot move was meant to be picked, not reached.
    if ($('#board [data-square="' + square + '"] .piece').hasClass(g.to_move)) return flash(interpolate(gettext("%(square)s: this piece cannot move."), { square: square }, true));
    return flash(loaWhyNot(g, dropped, square));
  }
  if (byFrom[square]) {
    state.selected = square;
    render();
    return pick(square, byFrom[square]);
  }
  const piece = $('#board [data-square="' + square + '"] .piece');
  // "Your pieces" to one person playing the computer or a friend (Chinese
  // phone QA: "pick one of Black's pieces" read as someone else's).
  const yours = Boolean(mySeat()) || g.players[otherSide(g.to_move)].kind === "ai";
  const words = piece.hasClass(g.to_move) ? gettext("%(square)s: this piece cannot move.") : yours ? gettext("%(square)s: pick one of your pieces.") : gettext("%(square)s: pick one of %(side)s's pieces.");
  flash(interpolate(words, { square: square, side: sideName(g.to_move) }, true));
}

/** A tap made while this page's last move (or change) is on its way: kept
 *  in turn, marked, and made once the answer is in (tapTheQueued), so that
 *  quick taps (a Swap2 opening's three stones, two people at one screen, a
 *  piece and its square in Lines of Action, a distant server) are not
 *  refused. The last square tapped again takes it back (with Confirm moves,
 *  it is the confirming tap). */
function queueTap(square) {
  const taps = state.queuedTaps;
  if (taps[taps.length - 1] === square && !$("#confirm-moves").prop("checked")) {
    taps.pop();
    return render();
  }
  taps.push(square);
  render();
  announce(interpolate(gettext("%(square)s: tapped, played once the last move is in"), { square: square }, true));
}

/** The taps kept while a change was on its way, now that it is in: each made
 *  as it would have been then, until one sends a change (the rest wait for
 *  it in turn). If it is no longer this page's turn (after one's own move
 *  against the computer or a friend), or the first is a second tap on the
 *  square just played, they are dropped. */
function tapTheQueued() {
  const g = state.game;
  if (!state.queuedTaps.length || state.busy || !g) return;
  const first = state.queuedTaps[0];
  const justPlayed = g.last_move && squaresOfMove(g.last_move).slice(-1)[0] === first;
  if (whyNotNow() || justPlayed) {
    state.queuedTaps = [];
    return render();
  }
  while (state.queuedTaps.length && !state.busy) clickSquare(state.queuedTaps.shift());
  render();
}

whenGameDrawn(() => setTimeout(tapTheQueued, 0));

/** A piece picked on `square`: what was said before (a refusal, a move
 *  waiting for its second tap) no longer holds. */
function pick(square, moves) {
  clearFlash();
  const words = pickedWords(square);
  // Shown, not said: sayPicked says where it can go (keyboard walk: heard
  // twice, "an orange dot" too).
  if (words) flash(words, "info", true);
  sayPicked(square, moves);
}

/** Say, for a screen reader, where the piece picked on `square` can go
 *  (its `moves`): the board shows it, each destination's label says it. */
function sayPicked(square, moves) {
  const squares = moves.map((m) => squaresOfMove(m)[1]).sort();
  // Translators: "b1 picked up: it can go to b3, d3, h1" (Lines of Action).
  announce(interpolate(gettext("%(square)s picked up: it can go to %(squares)s"), { square: square, squares: joinWords(squares, true) }, true));
}

function sayPutDown(square) {
  announce(interpolate(gettext("%(square)s put down"), { square: square }, true));
}

/** Escape: put down the piece picked (Lines of Action) or the move waiting
 *  for its confirming tap. */
export function cancelPick() {
  if (!state.selected && !state.pending && !state.queuedTaps.length) return;
  state.queuedTaps = [];
  if (state.selected) sayPutDown(state.selected);
  state.selected = null;
  state.pending = null;
  clearFlash();
  render();
}

export function pass() {
  if (canClick()) tryMove("pass");
}

export function undo() {
  const g = state.game;
  if (!g || state.busy) return;
  // Between two browsers a move is taken back when the other player agrees.
  if (g.seats) {
    if (!mySeat()) return flash(gettext("Only the players can ask to take a move back."), "info");
    if (g.status !== "playing") return flash(gettext("The game is over"), "info");
    // As its button: greyed, it says why (seated.js: no friend yet, before
    // each has moved, an offer waiting, a wait before asking again).
    const ask = document.getElementById("ask-takeback");
    return greyed(ask) ? flash(ask.title, "info") : makeOffer("takeback");
  }
  // A watcher's u key (the button is hidden) takes back nothing (keyboard
  // QA: it took back the player's move and the computer's reply).
  if (onlyWatching()) return flash(watchingWords(g), "info");
  // The u key too says why nothing is taken back (the button is off then).
  if (!hasUndo(g)) return flash(noUndoReason(g), "info");
  stopThinking();
  // With both sides on AI, undo would be replayed at once: pause instead.
  if (g.players.black.kind === "ai" && g.players.white.kind === "ai") {
    state.paused = true;
    rememberPause(g.id, true);
    tellPause();
  }
  // Looking back, what goes is the game's last move, not the one on show:
  // said (family QA: the board jumped to the game, a move fewer, unsaid).
  const lookingBack = state.viewPly !== null;
  state.viewPly = null;
  changeGame(api.undoMove(g.id), function (next) {
    const taken = g.moves.slice(next.moves.length).map(moveText);
    if (!taken.length) return announce(gettext("Move taken back"));
    // Which moves went (keyboard walk: "Move taken back" said not how
    // many), as the moves were said ("c8 to c6", not "c8-c6").
    const heard = g.moves.slice(next.moves.length).map(spokenMove);
    if (!lookingBack) return announce(interpolate(gettext("%(moves)s taken back"), { moves: joinWords(heard, true) }, true));
    const words = ngettext("The game's last move, %(moves)s, is taken back", "The game's last moves, %(moves)s, are taken back", taken.length);
    flash(interpolate(words, { moves: joinWords(taken, true) }, true), "info");
  });
}

// ---- the AI: hint, stop, pause --------------------------------------------------------

/** How long a person's hint thinks (the API's default for a hint). */
const HINT_SECONDS = 1;

/** Search the position of the side to move (a person's for a second, the
 *  computer's side at its own strength) and show what the AI thinks. */
export function hint() {
  const g = state.game;
  // The h key too says why nothing comes (the button is off then).
  const why = g && !state.explore && whyNotNow();
  if (why) return flash(...why);
  if (!canClick()) return;
  // The button's own reason (Gomoku QA: the h key asked for a hint during
  // the Swap2 opening, whose button was off).
  const off = noHintReason(g);
  if (off) return flash(off, "info");
  if (g.seats) return flash(gettext("No hints while two people play: the computer helps once the game is over."), "info");
  if (slotWait() > 0) return flash(gettext("The AI is finishing an abandoned search: ask again in a moment."), "info");
  if (!aiReady(g.game)) return whenAiReady(g.game).done(hint);
  // The computer's side hints at its own strength; a person's thinks a
  // second (at their side's unused setting, Club, it searched 0.05 s and
  // told Reversi's four equal first moves apart by noise).
  const side = g.players[g.to_move].kind === "ai" ? strengthOf(g.to_move) : { think_time: HINT_SECONDS };
  const body = $.extend({ version: g.version }, side);
  const ply = g.ply,
    key = movesKey(g.moves, g.ply);
  const xhr = api.askHint(g.id, body);
  const wanted = think(xhr, g.to_move, true, expectedSeconds(g.game, body));
  xhr
    .done(function (resp) {
      if (!wanted()) return;
      state.analysis = { search: resp.search, ply: ply, key: key, hint: true };
      // The hinted move's own figure (a proven move may have fewer visits);
      // none for the look-ahead's choice, which the tree rated lower.
      const best = (resp.search.moves || []).find((m) => m.move === resp.search.move);
      const move = moveText(resp.search.move);
      const words = treeBestOver(resp.search)
        ? interpolate(gettext("Hint: %(move)s (%(why)s)"), { move: move, why: lookAheadWords() }, true)
        : best && best.proven
          ? interpolate(gettext("Hint: %(move)s (%(why)s)"), { move: move, why: provenText(best.proven, best.margin) }, true)
          : best && shownValue(best) !== null
          ? interpolate(gettext("Hint: %(move)s (win %(pct)s%)"), { move: move, pct: Math.round(shownValue(best) * 100) }, true)
          : interpolate(gettext("Hint: %(move)s"), { move: move }, true);
      flash(words, "position"); // a live region: heard too
      setGame(resp.game);
    })
    .fail(function (x) {
      if (!wanted()) return;
      flash(api.errorText(x));
      reload();
    });
}

/** Stop: the server ends the running search, whose request then answers
 *  with the best move found so far. */
export function playBestNow() {
  if (!state.thinking || !state.game) return;
  api.stopSearch(state.game.id).fail((xhr) => flash(api.errorText(xhr)));
}

export function togglePause() {
  state.paused = !state.paused;
  if (!state.paused) clearFlash(); // why it paused itself, if it did
  if (state.game) rememberPause(state.game.id, state.paused);
  tellPause();
  render();
  if (!state.paused) maybeRunAi();
}

// ---- players -------------------------------------------------------------------

/** A side's AI switch, model or strength changed: send its settings (a
 *  human side's model and strength are only remembered for later). */
export function changeSide(side, isSwitch) {
  if (!isSwitch && !$("#" + side + "-ai").prop("checked")) return;
  const g = state.game;
  if (!g) return;
  const players = { [side]: playerSpec(side) };
  const thinkingSide = state.thinking && !state.thinking.hint ? state.thinking.side : null;
  if (thinkingSide && players[thinkingSide] && players[thinkingSide].kind === "human") {
    // The thinking side becomes human: hand it over at once. The server drops
    // the running search's move because the game's version changes.
    stopThinking();
  } else if (state.thinking) {
    state.queuedPlayers = $.extend(state.queuedPlayers || {}, players);
    return;
  }
  sendPlayers(g.id, players);
}

// ---- new game, record ---------------------------------------------------------------

/** Start a game as the controls say (the first-minute dialog set them), or
 *  with the request `body` given (a rematch); returns the request. */
export function newGame(body) {
  stopThinking();
  state.paused = false;
  return askNewGame(api.createGame(body || newGameBody()))
    .done(function (g) {
      state.watching = false; // a page that watched another game plays its own
      setGame(g);
      announce(interpolate(gettext("New game of %(title)s"), { title: gameTitle(g) }, true));
    })
    .fail(function (xhr) {
      flash(api.errorText(xhr));
      render();
    });
}

/** Another game chosen (the selector or the first-minute dialog): its
 *  models and its options. */
export function chooseGame(name) {
  $("#game-select").val(name);
  fillModels(name);
}

/** Start a new game of the chosen kind from the record typed in the box. */
export function importRecord() {
  const record = $("#record").val();
  // An empty box would import an empty game: no game was meant.
  if (!record.trim()) return noteRecord(gettext("Paste a game record in the box first."), "info");
  const body = $.extend(newGameBody(), { record: record });
  // A record holds its moves, the opening's stones too: no opening rule
  // (Gomoku QA: Swap2 chosen, every import was refused for its field).
  delete body.opening;
  stopThinking();
  state.paused = false;
  // One import at a time: a double click made two games (QA, a slow network).
  grey($("#import-record"), true).attr("aria-busy", "true");
  // What the last import said under the board goes: this one answers here
  // (records QA: "Imported a game of Gomoku" stood beside the refusal).
  if (importSaid && $("#flash").text() === importSaid) clearFlash();
  noteRecord(gettext("Importing…"), "info");
  sendImport(body, true);
}

/** A new game from the position looked at: the same game and options, its
 *  players, the moves up to there (study walk: another move could only be
 *  tried by cutting the record by hand and importing it). The game looked
 *  at stays as it is, a step back in the browser's history. */
export function playFromHere() {
  if (state.viewPly !== null) playFrom(state.viewPly, state.viewPly);
}

/** A new game from the position after `ply` moves, as playFromHere; Back
 *  returns to the position after `back` moves of this game (a mistake's
 *  "Try another move" plays from before the mistake, and Back returns to
 *  the mistake: teacher walk, the position after it was the only one). */
export function playFrom(ply, back) {
  const g = state.game;
  if (!g) return;
  stopThinking();
  state.paused = false;
  // Back returns to this move (followAddress reads it).
  history.replaceState({ viewPly: back }, "", location.href);
  const before = { n: moveNumber(g, back), side: sideName(back % 2 === 1 ? "black" : "white") };
  // Before a mistake, said so (verification walk: "from move 13" to try
  // move 14 again; in Lines of Action Black's and White's move share one).
  const words = back === ply + 1
    ? interpolate(gettext("A new game from before %(side)s's move %(n)s: the game you looked at is as it was, and the browser's Back returns to it"), before, true)
    : ply
    ? interpolate(gettext("A new game from move %(n)s: the game you looked at is as it was, and the browser's Back returns to it"), { n: moveNumber(g, ply) }, true)
    : gettext("A new game from the starting position: the game you looked at is as it was, and the browser's Back returns to it");
  // The server's: a Swap2 opening goes on from there (dark-mode walk: a
  // record of the moves skipped the choice still to make).
  imported(api.playFrom(g.id, ply), { game: g.game, options: g.options }, false, words);
}

/** What the last import said under the board. */
let importSaid = null;

/** The import is over, done or refused: its button is back. */
function importOver() {
  grey($("#import-record"), false).removeAttr("aria-busy");
}

/** Import `body`. A record of another game (the answer's `reads_as`: already
 *  its first move is not one of the game chosen) is imported as that game,
 *  once, and the page says which game it became; so too when the record's
 *  tags name its game and options. `said`: the words for the new game, and
 *  a refusal said under the board (not under the record box). */
function sendImport(body, mayRead, said) {
  imported(api.importGame(body), body, mayRead, said);
}

/** The new game of an import (`request`, made of `body`) on the board, or
 *  its refusal said, as sendImport says. */
function imported(request, body, mayRead, said) {
  request
    .done(function (g) {
      importOver();
      state.recordEdited = false;
      state.watching = false;
      // The computer to move waits (Gomoku QA: a position imported to study
      // was answered at once, before it could be looked at).
      const waits = g.status === "playing" && g.players[g.to_move].kind === "ai";
      if (waits) {
        state.paused = true;
        rememberPause(g.id, true);
      }
      setGame(g);
      const played = movesPlayed(g);
      const words = ngettext("Imported a game of %(title)s, %(n)s move", "Imported a game of %(title)s, %(n)s moves", played);
      // Another game than the one chosen (read as such, or its tags said
      // so), or other options: said with its options, and shown too (a
      // live region).
      const options = body.options || {};
      const same = g.game === body.game && Object.keys(options).every((key) => g.options[key] === options[key]);
      // Translators: a game and its options: "Gomoku (9×9, five in a row · Renju)".
      // Within the sentence, a rule's own sentence is not capitalised (LOA
      // walk: "Lines of Action (Joining both sides wins for the mover)").
      const rules = optionsText(g).replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase());
      const title = same || !rules ? gameTitle(g) : interpolate(gettext("%(game)s (%(options)s)"), { game: gameTitle(g), options: rules }, true);
      let text = said || interpolate(words, { title: title, n: played }, true);
      // After a pass, why the same side moves again: said here too, as the
      // import's word stays where the pass's would (verification QA).
      if (waits && g.last_move === "pass") text = interpolate(gettext("%(first)s. %(then)s"), { first: text, then: passWords(g) }, true);
      // Translators: after "Imported a game of Reversi, 1 move".
      if (waits) text = interpolate(gettext("%(imported)s. The computer waits: Resume lets it play."), { imported: text }, true);
      clearRecordNote();
      // The new game in sight (on a phone the record box is far below it).
      document.getElementById("status").scrollIntoView({ block: "nearest" });
      // Said under the board always: the game's own record imported again
      // changed nothing in sight (records QA).
      importSaid = text;
      flash(text, waits ? "position" : "info");
    })
    .fail(function (xhr) {
      const other = xhr.responseJSON && xhr.responseJSON.reads_as;
      if (said) {
        importOver();
        return flash(api.errorText(xhr));
      }
      if (!mayRead || !other) {
        importOver();
        // In a player's words, not the API's ("the request body is larger
        // than the 64 KiB accepted": careless-player QA).
        return noteRecord(xhr.status === 413 ? gettext("This record is too long to import: a record holds at most 64 KB.") : api.errorText(xhr));
      }
      const chosen = chosenGame();
      chooseGame(other.game);
      chooseOptions(other.game, other.options); // its players' models, for the body
      const again = $.extend(newGameBody(), { record: body.record, options: other.options });
      delete again.opening; // a record's moves are the whole game
      chooseGame(chosen); // until it is imported
      sendImport(again, false);
    });
}

export function copyRecord() {
  copyField($("#record")[0]).then(function (copied) {
    noteRecord(copied ? gettext("Record copied.") : gettext("Record selected: press Ctrl+C to copy."), "info");
  });
}

// ---- looking at the board -----------------------------------------------------------

/** Look at the position after `ply` (view only; the game's own ply is live). */
export function viewPly(ply) {
  const g = state.game;
  if (ply !== g.ply && !cellsAt(ply)) return fetchBoards(g, ply);
  // Leaving the live position, its word (a pass, the Swap2 stones' names)
  // is kept, and shown again on coming back to it unchanged.
  if (state.viewPly === null && !state.explore) state.liveFlash = { version: g.version, call: positionFlash() };
  state.viewPly = ply === g.ply ? null : ply;
  state.selected = null;
  state.explore = null;
  clearPositionFlash(); // a word about the position looked at before
  const back = state.liveFlash;
  if (state.viewPly === null) state.liveFlash = null;
  if (state.viewPly === null && back && back.call && back.version === g.version) flash(back.call[0], back.call[1], true);
  render();
  // A renju position's forbidden points come with the server's boards.
  if (forbiddenAt(ply) === null) fetchBoards(g, null);
}

/** A position this browser did not see (the game was imported, or played
 *  elsewhere): ask the server for the game's boards once, then show `ply`
 *  (null: draw again the position looked at). */
function fetchBoards(g, ply) {
  const asked = g.id + ":" + g.version;
  if (state.boardsAsked === asked) return;
  state.boardsAsked = asked;
  api
    .getBoards(g.id)
    .done(function (answer) {
      const shown = state.game;
      if (!shown || shown.id !== answer.id || shown.version !== answer.version) return;
      learnBoards(shown, answer.boards, answer.forbidden);
      if (ply === null) render();
      else if (cellsAt(ply)) viewPly(ply);
    })
    .fail((xhr) => flash(api.errorText(xhr)))
    .always(() => (state.boardsAsked = null));
}

/** Step through the moves: +-1, or +-Infinity for the first position and the game. */
export function step(delta) {
  if (!state.game) return;
  // Exploring, the move before is the explored line's (records QA: the
  // left arrow left the explorer and threw its line away).
  if (delta === -1 && state.explore) return exploreBack();
  if (delta === 1 && state.explore) return exploreForward();
  viewPly(stepTarget(delta));
}

export function flip() {
  state.flipped = !state.flipped;
  render();
}
