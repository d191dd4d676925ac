/*
 * The two dialogs of a game's life. The first minute (#start-dialog): play
 * the computer (your colour, its strength; it plays with the shipped model)
 * or two players on one board, with the game's options (Gomoku's board,
 * rule and opening); New game, the n key and the game selector open it, and
 * nothing is thrown away until a choice is made. Above them, this browser's
 * games with a friend that go on (yourgames.js). The end card (ending.js)
 * offers Rematch with the colours swapped, and Analyse: both are here.
 */
import { chooseGame, newGame, openGame } from "./actions.js";
import * as api from "./api.js";
import { limitOptions, newGameBody, syncControls } from "./controls.js";
import { afterEndGone, hideEnd } from "./ending.js";
import { clockOf, clockValue, createFriendGame, followRematch, makeOffer } from "./friends.js";
import { changeGame } from "./game.js";
import { revealCard, stillShown } from "./panel.js";
import { toggleReview } from "./review.js";
import { showRules } from "./rules.js";
import { afterReadinessKnown, aiReady } from "./readiness.js";
import { SIDES, mySeat, otherSide, state } from "./state.js";
import { drawYourGames } from "./yourgames.js";

function modal(id) {
  return bootstrap.Modal.getOrCreateInstance(document.getElementById(id));
}

/** Where the keyboard was when each dialog opened. */
const focusBefore = new WeakMap();

/** A closed dialog gives the focus back where it was (Bootstrap does so only
 *  for a dialog opened by a data-bs-toggle button), or to the board if that
 *  went or the dialog started a game: the keyboard keeps its place. */
document.addEventListener("show.bs.modal", function (event) {
  const focused = document.activeElement;
  focusBefore.set(event.target, focused && focused !== document.body ? focused : null);
});

document.addEventListener("hidden.bs.modal", function (event) {
  const now = document.activeElement;
  // A dialog under the closed one (the rules over the first minute's) holds
  // the focus on itself, not on what opened the closed one: not placed.
  const held = now && now !== event.target && now.classList.contains("modal");
  if (now && now !== document.body && !event.target.contains(now) && !held) return; // placed already
  const before = focusBefore.get(event.target);
  if (event.target.id === "start-dialog" && chosen) {
    state.focusBoard = true; // the new game's board, once drawn
    return;
  }
  const back = stillShown(before, document.getElementById("board")) || document.querySelector('#board .cell[tabindex="0"]');
  if (back) back.focus({ preventScroll: true });
});

/** A choice was made in the start dialog (else closing it keeps the game). */
let chosen = false;

/** In the tab's session storage: the dialog's choices, kept over the load
 *  that its language switch makes. */
const STORE_START = "webgame.start-choices";

/** Keep the dialog's choices for the page the language switch loads (QA:
 *  they came back as Reversi, Black and Club, and Play the computer started
 *  a game the player had not chosen). */
export function keepStartChoices() {
  const kept = { selects: {}, radios: [] };
  $("#start-dialog select").each(function () {
    kept.selects[this.id] = this.value;
  });
  $("#start-dialog input[type=radio]:checked").each(function () {
    kept.radios.push(this.id);
  });
  try {
    sessionStorage.setItem(STORE_START, JSON.stringify(kept));
  } catch (e) {
    /* no storage: the dialog starts afresh */
  }
}

/** The choices the page before kept (taken once), or null. */
let keptChoices = (function () {
  try {
    const kept = JSON.parse(sessionStorage.getItem(STORE_START));
    sessionStorage.removeItem(STORE_START);
    return kept;
  } catch (e) {
    return null;
  }
})();

/** The dialog was open as the language changed: open it again, as it was,
 *  once the game is on the board (game.js calls this as it draws). */
export function reopenKept() {
  if (keptChoices && state.game) offerNewGame();
}

function applyKept() {
  const kept = keptChoices;
  keptChoices = null;
  Object.keys(kept.selects || {}).forEach(function (id) {
    const $select = $("#" + id);
    if ($select.find("option").filter((i, o) => o.value === kept.selects[id]).length) $select.val(kept.selects[id]);
  });
  (kept.radios || []).forEach((id) => $("#" + id).prop("checked", true));
  limitOptions();
}

/** Offer a new game, of `name` (default: the game on show). */
export function offerNewGame(name) {
  const g = state.game;
  $("#start-game").val(name || (g ? g.game : $("#game-select").val()));
  $("#start-missing").prop("hidden", true); // a missing game's note is for the first visit
  $("#start-refused").prop("hidden", true); // and a refusal's for the choice refused
  $("#start-options-note").prop("hidden", true); // said of a choice made before
  // A game on the clock with a friend does not wait: its clock runs on. An
  // invitation not yet taken runs no clock: it waits (yourgames.js says
  // when the friend comes).
  const mine = g && g.status === "playing" && mySeat();
  const inviting = Boolean(mine && !g.seats[otherSide(mine)]);
  const running = Boolean(mine && !inviting && g.clock && !g.clock.control.days);
  $("#start-leaving").prop("hidden", !running);
  $("#start-inviting").prop("hidden", !inviting);
  if (g) startFrom(g);
  if (keptChoices) applyKept();
  drawStartOptions();
  drawYourGames();
  // Without a game to go back to, the dialog has no way out but a choice.
  $("#start-cancel").prop("hidden", !state.game);
  chosen = false;
  modal("start-dialog").show();
}

/** A new game against the computer starts from the choices of the one on
 *  the board, as its options do: your colour (under Swap2, your side before
 *  a choice swapped them), its strength and the clock (phone QA: the
 *  dialog was back on Black and Club after each reload). */
function startFrom(g) {
  const ai = SIDES.filter((side) => g.players[side].kind === "ai");
  if (ai.length !== 1 || g.seats) return;
  const swapped = Boolean(g.opening && g.opening.swapped);
  $("#you-" + (swapped ? ai[0] : otherSide(ai[0]))).prop("checked", true);
  const pick = function (select, value) {
    if ($(select).find("option").filter((i, o) => o.value === value).length) $(select).val(value);
  };
  pick("#start-strength", $("#strength-" + ai[0]).val());
  pick("#start-clock", clockValue(g.clock && g.clock.control));
}

/** Why a choice moved the row to a length it allows, by the option chosen. */
const ROW_WHY = {
  size: () => gettext("a row is no longer than the board"),
  rule: () => gettext("renju is played five in a row"),
  opening: (row) => interpolate(gettext("Swap2 is played on rows of %(n)s or more"), { n: row.low }, true),
};

/** Say under the options that the choice of `option` ("size", "rule",
 *  "opening") moved the row (`changed`: limitOptions' answer); Gomoku QA:
 *  it went from 3 to 5 without a word. */
export function sayOptionsLimited(changed, option) {
  const row = changed.find((c) => c.key === "row");
  const why = row && ROW_WHY[option];
  // Translators: "In a row is now 5: renju is played five in a row."
  let words = why ? interpolate(gettext("In a row is now %(n)s: %(why)s."), { n: row.to, why: why(row) }, true) : "";
  if (!words && (option === "rule" || option === "opening")) words = greyedWords();
  $("#start-options-note").text(words).prop("hidden", !words);
}

/** Why the rule or the opening chosen greys rows shorter than the row it
 *  kept, or "" (Gomoku QA: Renju greyed 3, 4, 6 and 7 without a word). The
 *  reason is what greys them now, renju first (five only), not the choice
 *  last changed (touch QA: renju, Swap2 and back blamed Swap2). */
function greyedWords() {
  const $row = $("#gomoku-row");
  const rows = (which) => $row.find(which).map((i, o) => parseInt(o.value, 10)).get();
  if (!rows("option:disabled").some((n) => n < parseInt($row.val(), 10))) return "";
  const cause = $("#gomoku-rule").val() === "renju" ? "rule" : $("#gomoku-opening").val() === "swap2" ? "opening" : null;
  if (!cause) return "";
  // Translators: "In a row: renju is played five in a row."
  return interpolate(gettext("In a row: %(why)s."), { why: ROW_WHY[cause]({ low: Math.min(...rows("option:enabled")) }) }, true);
}

/** Show the options of the game chosen in the dialog; under Swap2 the
 *  colour picked is the opener's side: say so, and name the sides so. */
export function drawStartOptions() {
  const game = $("#start-game").val();
  // A server's first start: the wait said before the choice, not only after
  // the first move (first-start walk).
  afterReadinessKnown(() => $("#start-ai-note").prop("hidden", aiReady($("#start-game").val())));
  $(".start-options").each(function () {
    $(this).prop("hidden", $(this).data("game") !== game);
  });
  const swap2 = game === "gomoku" && $("#gomoku-opening").val() === "swap2";
  $("#start-swap2-note").prop("hidden", !swap2);
  $("#start-dialog .if-swap2").prop("hidden", !swap2);
  $("#start-dialog .unless-swap2").prop("hidden", swap2);
}

function begin(players, clock) {
  chosen = true;
  chooseGame($("#start-game").val());
  SIDES.forEach(function (side) {
    $("#" + side + "-ai").prop("checked", players[side] === "ai");
  });
  modal("start-dialog").hide();
  newGame(clock ? $.extend(newGameBody(), { clock: clock }) : undefined).fail(refusedFirst);
}

/** A first game refused, the board behind empty: the dialog again, its
 *  choices kept, with the server's reason (it closed, and left an empty
 *  board with the reason under it). */
function refusedFirst(xhr) {
  if (state.game) return;
  offerNewGame($("#start-game").val());
  $("#start-refused").text(api.errorText(xhr)).prop("hidden", false);
}

/** Play the computer: it takes the other colour, at the strength chosen. */
export function playComputer() {
  const you = $("input[name=you]:checked").val();
  const ai = you === "black" ? "white" : "black";
  $("#strength-" + ai).val($("#start-strength").val());
  begin({ [you]: "human", [ai]: "ai" }, clockOf($("#start-clock").val()));
}

/** Play a friend: a game between this browser and the invitation's. */
export function playFriend() {
  chosen = true;
  chooseGame($("#start-game").val());
  modal("start-dialog").hide();
  createFriendGame($("input[name=friend-side]:checked").val(), clockOf($("#friend-clock").val())).fail(refusedFirst);
}

/** Go to game `id`, one of this browser's games with a friend. */
export function openYourGame(id) {
  chosen = true;
  modal("start-dialog").hide();
  openGame(id);
}

export function twoPlayers() {
  begin({ black: "human", white: "human" });
}

/** The rules opened from this dialog (How to play), over it. */
let rulesOver = false;

/** How to play: the rules of the game chosen in the dialog, which waits,
 *  its choices kept, until they close. */
export function startRules() {
  rulesOver = true;
  modal("start-dialog").hide();
  showRules($("#start-game").val());
}

/** The rules closed: back to the dialog they were opened from, or without
 *  a game to go back to, to the first choice. */
export function rulesClosed() {
  if (!rulesOver && state.game) return;
  rulesOver = false;
  // Back at How to play, for the keyboard (keyboard walk: at the first
  // control), once open: Bootstrap focuses the dialog itself as it opens.
  $("#start-dialog").one("shown.bs.modal", () => document.getElementById("start-rules").focus());
  offerNewGame($("#start-game").val());
}

/** The dialog closed without a choice: the selectors show the game on show
 *  again (its options, and the models that go with them). */
export function startDialogClosed() {
  if (!chosen && !rulesOver && state.game) syncControls(state.game);
}

// ---- the end of a game ---------------------------------------------------------------

/** The same game again (its board, rule, opening and clock) with the
 *  colours swapped; between two seats the friend is asked first, as on
 *  lichess. The finished game names it, and every board showing it goes
 *  there (friends.js): both seats, and the watchers. */
export function rematch() {
  const g = state.game;
  hideEnd();
  if (g.rematch) return followRematch(g); // started already: to it
  if (g.seats) return makeOffer("rematch");
  changeGame(api.answerOffer(g.id, "rematch", "offer"));
}

/** Analyse the game (the end card's Analyse, the side panel's button, which
 *  also stops it): the end card down, the analysis card in sight. */
export function analyse() {
  hideEnd();
  toggleReview();
  const card = document.getElementById("review");
  afterEndGone(() => revealCard(card));
  document.getElementById("analyse-game").focus({ preventScroll: true });
}

