/*
 * The end of a game: a card that says who won and why, with Rematch and
 * Analyse (dialogs.js runs them). A card in the page, not a dialog over it:
 * the page stays in use while it shows, and the card stands under the board,
 * over nothing (board.css). It stays until closed (its button,
 * Escape), the game is taken back, or another game is on the board.
 */
import { setScoredText } from "./scoretext.js";
import { cap, discCounts, endSentence, endedOffBoard, humanSide, mySeat, onlyWatching, otherSide, reasonText, resultText, sideName, state } from "./state.js";

/** Show the card for `game`, which just ended as `ending` says (events.js
 *  registers this with game.js). */
export function showEnd(game, ending) {
  const me = humanSide();
  const score = game.result && game.result.score;
  let title = ending.winner ? interpolate(gettext("%(side)s wins"), { side: sideName(ending.winner) }, true) : gettext("A draw");
  if (me && ending.winner) title = ending.winner === me ? gettext("You won") : gettext("You lost");
  if (score) {
    // From the player's side: "You won, 57–7"; else the winner's count
    // first, as the status says it ("White wins: disc count 40–24").
    const first = me || ending.winner || "black";
    const counts = { outcome: title, first: score[first], second: score[first === "black" ? "white" : "black"] };
    // Translators: the end card's title: "You won, 57–7", "Black wins, 40–24".
    title = interpolate(gettext("%(outcome)s, %(first)s\u2013%(second)s"), counts, true);
  }
  let why = endSentence(ending.reason ? cap(reasonText({ reason: ending.reason })) : gettext("Game over"));
  if (ending.reason === "aborted") {
    title = gettext("Game aborted");
    why = gettext("Nobody wins or loses.");
    const late = game.result && game.result.no_first_move;
    // Under Swap2, a first turn of steps by parts, not colours (Gomoku QA).
    const opening = game.opening && game.opening.step !== "done" ? game.opening : null;
    if (late && opening) why = late === opening.opener ? gettext("The opener did not finish their first turn in time. Nobody wins or loses.") : gettext("The second player did not finish their first turn in time. Nobody wins or loses.");
    else if (late && mySeat()) why = late === mySeat() ? gettext("You did not make a first move in time. Nobody wins or loses.") : gettext("Your friend did not make a first move in time. Nobody wins or loses.");
    else if (late) why = interpolate(gettext("%(side)s did not make a first move in time. Nobody wins or loses."), { side: sideName(late) }, true);
    else if (game.result && game.result.aborted_by) why = abortedBy(game, game.result.aborted_by, opening);
  } else if (endedOffBoard(game.result)) why = offBoardWhy(game.result);
  else if (score) why = interpolate(gettext("Discs: Black %(black)s, White %(white)s."), score, true);
  else if (ending.reason === "connected group" && ending.winner) why = joinedWhy(game, ending.winner);
  setScoredText("#end-title", title);
  $("#end-reason").text(why);
  // A watcher has no rematch to play: the players' rematch takes them along;
  // nor has a player whose invitation nobody took.
  const mine = mySeat();
  $("#rematch").prop("hidden", onlyWatching() || Boolean(mine && !game.seats[otherSide(mine)]));
  $("#analyse").prop("hidden", game.ply === 0); // an aborted game without a move
  cardFor = game.id;
  cardComing = null;
  endCard().show();
  if (focusFor === game.id) document.getElementById("end-dialog").focus({ preventScroll: true });
  focusFor = null;
}

/** Lines of Action's goal, said whole ("Connected group." left whose to
 *  guess), and by whose move: a capture can leave the other side one piece
 *  (QA: "White joined all their pieces" when Black's capture had left White
 *  one), or all its pieces joined (LOA walk). Black moves first, and a
 *  pass is a move of the record. */
function joinedWhy(game, winner) {
  const side = sideName(winner);
  if (discCounts(game.board.cells)[winner] === 1) return interpolate(gettext("%(side)s has one piece left: a group on its own."), { side: side }, true);
  const mover = game.moves.length % 2 ? "black" : "white";
  if (mover !== winner) return interpolate(gettext("%(mover)s's capture left %(side)s's pieces all in one group."), { mover: sideName(mover), side: side }, true);
  return interpolate(gettext("%(side)s joined all their pieces into one group."), { side: side }, true);
}

/** The game whose card takes the keyboard's focus as it shows, or null. */
let focusFor = null;

/** The keyboard's focus goes to the card of the game on the board, now or
 *  as it shows: the button it was on went with the game's end (keyboard
 *  QA: Resign gone, it fell on the step buttons, heard as "The starting
 *  position"). */
export function focusEndCard() {
  if (cardFor && cardFor === state.game.id) document.getElementById("end-dialog").focus({ preventScroll: true });
  else focusFor = state.game.id;
}

/** Who aborted `game` (`side`'s seat), in this page's words (friends QA:
 *  "Game aborted" said nothing of who did); under a Swap2 opening not done,
 *  by part. */
function abortedBy(game, side, opening) {
  const mine = mySeat();
  if (mine) return side === mine ? gettext("You aborted the game. Nobody wins or loses.") : gettext("Your friend aborted the game. Nobody wins or loses.");
  if (opening) return side === opening.opener ? gettext("The opener aborted the game. Nobody wins or loses.") : gettext("The second player aborted the game. Nobody wins or loses.");
  return interpolate(gettext("%(side)s aborted the game. Nobody wins or loses."), { side: sideName(side) }, true);
}

/** What happened, under the title that says who won: "Black resigned."
 *  (the title's "White wins" said again, "White wins by resignation.",
 *  told a watcher nothing new). */
const LOSER_DID = {
  time: () => gettext("%(side)s ran out of time."),
  resignation: () => gettext("%(side)s resigned."),
  abandonment: () => gettext("%(side)s was away too long."),
};

/** The same, said to the player who lost, and to their friend (friends QA:
 *  "Black resigned." on Black's own card, when an abort said "You aborted"). */
const I_DID = {
  time: () => gettext("You ran out of time."),
  resignation: () => gettext("You resigned."),
  // Not "You left the game." to a phone that lost its network (network QA:
  // it read as an accusation; so did "left" to the others).
  abandonment: () => gettext("You were not connected for too long: your friend claimed the win."),
};
const FRIEND_DID = {
  time: () => gettext("Your friend ran out of time."),
  resignation: () => gettext("Your friend resigned."),
  abandonment: () => gettext("Your friend was away too long: you claimed the win."),
};

function offBoardWhy(result) {
  const did = LOSER_DID[result.reason];
  if (did && result.winner) {
    const loser = otherSide(result.winner);
    // Against the computer, a person's clock may run out too.
    if (loser === humanSide()) return I_DID[result.reason]();
    if (mySeat()) return FRIEND_DID[result.reason]();
    return interpolate(did(), { side: sideName(loser) }, true);
  }
  if (result.reason === "agreement" && !result.winner) return gettext("The players agreed to a draw.");
  return endSentence(resultText(result));
}

/** The finished game the card on show is about (null: none shown; state.js's
 *  endShownFor is the game whose end was shown once, kept when it is closed). */
let cardFor = null;

/** The game just ended at this page whose card is coming (its ending is
 *  being fetched: game.js), or null. Meanwhile the buttons under the board
 *  do not take its Rematch: it showed there for a moment, and the buttons
 *  shared their rows out anew twice. */
let cardComing = null;

/** Say that the card of game `id` is coming (null: it is not). */
export function expectEnd(id) {
  cardComing = id;
}

/** What a player hears of their game's end, in place of the status line's
 *  "Black wins on time": the card's words, "You lost. You ran out of time."
 *  (keyboard walk: a player who forgot their colour heard neither "You won"
 *  nor "You lost"); "" while the card is coming (its words are said as it
 *  shows: panel.sayEnd); null where nobody plays a side here, or no card. */
export function endWords() {
  const g = state.game;
  if (!g || g.status !== "finished" || !humanSide()) return null;
  if (cardFor === g.id) return interpolate(gettext("%(first)s. %(then)s"), { first: $("#end-title").text(), then: $("#end-reason").text() }, true);
  return cardComing === g.id ? "" : null;
}

/** Whether the end card is up (or coming up). */
export function endCardUp() {
  return cardFor !== null || Boolean(state.game && state.game.id === cardComing);
}

function endCard() {
  return bootstrap.Toast.getOrCreateInstance(document.getElementById("end-dialog"), { autohide: false });
}

/** Run `fn` once the end card taken down has left the page: it fades out
 *  under the board, holding its room until then (so what is under it is
 *  lower than it will be). */
export function afterEndGone(fn) {
  const el = document.getElementById("end-dialog");
  if (el.classList.contains("show")) $(el).one("hidden.bs.toast", fn);
  else fn();
}

/** Take the end card down. */
export function hideEnd() {
  cardFor = null;
  endCard().hide();
}

/** The end card goes with its game's end: another game on the board, or
 *  this one taken back (render calls this). */
export function dropStaleEnd() {
  const g = state.game;
  if (cardFor && (!g || g.id !== cardFor || g.status !== "finished")) hideEnd();
}

/** Escape closes the end card, as a dialog's; true if it was up. */
export function closeEnd() {
  if (!cardFor) return false;
  hideEnd();
  return true;
}

/** The keyboard's focus was on the card as it went. */
let focusInCard = false;

document.addEventListener("hide.bs.toast", function (event) {
  if (event.target.id === "end-dialog") focusInCard = event.target.contains(document.activeElement);
});

// Gone (its own button too): nothing shown any more, and the keyboard's
// focus, if it was on the card, goes back to the board.
document.addEventListener("hidden.bs.toast", function (event) {
  if (event.target.id !== "end-dialog") return;
  cardFor = null;
  const lost = document.activeElement === document.body || event.target.contains(document.activeElement);
  const cell = document.querySelector('#board .cell[tabindex="0"]');
  if (focusInCard && lost && cell) cell.focus({ preventScroll: true });
});
