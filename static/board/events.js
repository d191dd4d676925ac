/*
 * The page's handlers, all delegated from document (the board and the move
 * list are redrawn on every snapshot), and the keyboard map. Each handler
 * only names the action it runs.
 */
import * as actions from "./actions.js";
import * as chat from "./chat.js";
import { keepChoices } from "./choices.js";
import { backClosedDialog } from "./dialogback.js";
import { chosenGame, fillModels, limitOptions } from "./controls.js";
import * as dialogs from "./dialogs.js";
import * as drag from "./drag.js";
import { afterEndGone, closeEnd, hideEnd, showEnd } from "./ending.js";
import { recordBoxLeft, whenGameDrawn, whenGameEnds } from "./game.js";
import * as friends from "./friends.js";
import { prepareModel } from "./models.js";
import { balanceButtons, flash, revealBoard, revealCard, sayEnd } from "./panel.js";
import * as review from "./review.js";
import { showRules } from "./rules.js";
import { render } from "./render.js";
import { soundOn, toggleSound } from "./sound.js";
import { SIDES, state } from "./state.js";

/** Keys outside the board grid -> what they do (the ? help dialog lists them;
 *  inside the grid, moveFocus has the arrows, Home and End). */
const KEYS = {
  ArrowLeft: () => actions.step(-1),
  ArrowRight: () => actions.step(1),
  Home: () => actions.step(-Infinity),
  End: () => actions.step(Infinity),
  u: actions.undo,
  h: actions.hint,
  f: () => $("#flip").trigger("click"),
  n: () => dialogs.offerNewGame(),
  "?": () => bootstrap.Modal.getOrCreateInstance(document.getElementById("help-dialog")).show(),
  Escape: () => closeEnd() || actions.cancelPick(),
};

/** In the move list, a list read top to bottom, up and down step too. */
const LIST_KEYS = {
  ArrowUp: () => actions.step(-1),
  ArrowDown: () => actions.step(1),
};

/** The element to focus once the page loads again (sessionStorage). */
const FOCUS_AFTER_LOAD = "webgame.focus-after-load";

function focusAfterLoad() {
  let id = null;
  try {
    id = sessionStorage.getItem(FOCUS_AFTER_LOAD);
    sessionStorage.removeItem(FOCUS_AFTER_LOAD);
  } catch (err) {
    return;
  }
  const el = id && document.getElementById(id);
  if (el) el.focus();
}

/** Send the language `form` (the choice its `button` names) and load the
 *  page again in place: the form's own submission left a history entry,
 *  and Back then did nothing (phone QA). Without fetch, or if it fails, the
 *  form goes as forms do. */
function switchLanguage(form, button, event) {
  if (!button || !window.fetch || !window.FormData) return;
  event.preventDefault();
  const body = new FormData(form);
  body.set(button.name, button.value);
  fetch(form.action, { method: "POST", body: body, credentials: "same-origin" })
    .then(function (answer) {
      if (!answer.ok) throw new Error(String(answer.status));
      location.reload();
    })
    .catch(function () {
      $("<input type='hidden'>").attr({ name: button.name, value: button.value }).appendTo(form);
      HTMLFormElement.prototype.submit.call(form);
    });
}

export function bind() {
  const on = (type, selector, handler) => $(document).on(type, selector, handler);
  // A button greyed while it held the keyboard's focus keeps it (buttons.grey)
  // and does nothing, as a disabled one; under the board it says why, as a
  // greyed button tapped does (below).
  on("click", "button[aria-disabled=true]", function (e) {
    e.stopImmediatePropagation();
    if (this.title && $(this).is("#play-controls > button")) flash(this.title, "info");
  });
  on("click", "#board [data-square]", function () {
    if (!drag.justDropped()) actions.clickSquare($(this).data("square"));
  });
  // A tap or a click beside the board puts down a piece picked or a move
  // waiting for its second tap, as Escape does (a scroll is no click). A
  // square's click redraws the board first: its target, gone, was on it.
  $(document).on("click", function (e) {
    if (document.contains(e.target) && !$(e.target).closest("#board, #pass").length) actions.cancelPick();
  });
  // After an upgrade the server names another build of the page: this one
  // runs the old scripts (webgame/build.py). Offered, not forced: a reload
  // in the middle of a move would lose it.
  $(document).on("ajaxComplete", function (e, xhr) {
    const build = xhr.getResponseHeader("X-Page-Build");
    if (build && build !== document.body.dataset.build) $("#new-version").prop("hidden", false);
  });
  on("click", "#new-version", () => location.reload());
  on("pointerdown", "#board [data-square]", drag.press);
  $(document).on("pointermove", drag.move).on("pointerup", drag.release).on("pointercancel", drag.cancel);
  on("click", "#move-list [data-ply]", function () {
    lookAt(parseInt($(this).data("ply"), 10), this);
  });
  // A greyed button's title says why it is of no use now (a wait before an
  // offer again, a friend not yet there), and a title shows only under a
  // mouse: a tap on it says so. A disabled button has no click, but the
  // browser still sends it the pointer's events.
  on("pointerup", "#play-controls > button:disabled[title]", function () {
    flash(this.title, "info");
  });
  on("click", "#new-game", () => dialogs.offerNewGame());
  on("click", "#play-computer", dialogs.playComputer);
  on("click", "#two-players", dialogs.twoPlayers);
  on("click", "#your-games [data-game]", function () {
    dialogs.openYourGame($(this).data("game"));
  });
  on("click", "#play-friend", dialogs.playFriend);
  on("click", "#share", friends.openShare);
  on("click", "#theme", toggleTheme);
  on("click", "#rules", () => showRules());
  on("click", "#board-options", () => showRules());
  on("click", "#start-rules", dialogs.startRules);
  // Escape (or a click beside it) keeps the game on the board, when there is one.
  // Without one it stays, and so does the focus (Bootstrap gives it to the
  // dialog's box as it shakes: keyboard QA, the place was lost).
  on("hidePrevented.bs.modal", "#start-dialog", function () {
    if (state.game) return bootstrap.Modal.getInstance(this).hide();
    const was = document.activeElement;
    if (was && was !== this) setTimeout(() => was.focus({ preventScroll: true }));
  });
  on("hidden.bs.modal", "#rules-dialog", dialogs.rulesClosed);
  on("click", "#sound", function () {
    toggleSound();
    showTheme();
  });
  // The language switch comes back to the game on the board (the address
  // changes as games do), not to the one the page was opened on; and the
  // keyboard's focus to the switch (it started again at the page's top).
  on("submit", "#language-form", function (e) {
    $("#language-next").val(location.pathname + location.search);
    const by = e.originalEvent && e.originalEvent.submitter;
    try {
      if (by && by.id === "language") sessionStorage.setItem(FOCUS_AFTER_LOAD, by.id);
      if (by && by.id === "start-language") dialogs.keepStartChoices();
    } catch (err) {
      // No storage: the focus starts at the top, as on any load.
    }
    switchLanguage(this, by, e);
  });
  focusAfterLoad();
  on("click", "#share-create", friends.shareGame);
  on("click", ".copy-link", function () {
    friends.copyLink($(this).data("copy"), this);
  });
  on("click", "#resign", friends.resign);
  on("click", "#abort", friends.abort);
  on("click", "#offer-draw", () => friends.makeOffer("draw"));
  on("click", "#ask-takeback", () => friends.makeOffer("takeback"));
  on("click", "#offer-accept", () => friends.answerOffer("accept"));
  on("click", "#offer-decline", () => friends.answerOffer("decline"));
  on("click", "#offer-withdraw", () => friends.answerOffer("withdraw"));
  // The end card holds only a rematch offer (the bar, the offer it shows).
  on("click", "#end-decline", () => friends.answerOffer("decline", "rematch"));
  on("click", "#claim-win", () => friends.claim("win"));
  on("click", "#claim-draw", () => friends.claim("draw"));
  on("click", ".give-time", friends.giveTime);
  on("input", "#chat-text", chat.countChat);
  on("submit", "#chat-form", function (e) {
    e.preventDefault();
    const text = String($("#chat-text").val());
    if (text.trim() && chat.countChat()) chat.say({ text: text });
  });
  on("click", "#chat [data-preset]", function () {
    chat.say({ preset: String($(this).data("preset")) });
  });
  on("click", "#swap2-choices button", function () {
    actions.chooseOpening(String($(this).data("choice")));
  });
  on("hidden.bs.modal", "#start-dialog", dialogs.startDialogClosed);
  on("click", "#rematch, #board-rematch", dialogs.rematch);
  on("click", "#analyse", dialogs.analyse);
  // Opened from the side panel, the analysis and the explorer take the end
  // card down, as its own Analyse does (low on the right of a laptop's
  // screen, it stayed over them).
  on("click", "#analyse-game", dialogs.analyse);
  on("click", "#explore", () => {
    hideEnd();
    review.toggleExplorer();
    // Closed (Back to the game), it goes back down; the board stays in sight.
    if (state.explore) afterEndGone(() => revealCard(document.getElementById("explorer")));
  });
  on("click", "#explorer-back", review.exploreBack);
  // A row lights up under the pointer, as lichess's explorer's: a click
  // anywhere on it plays its move (only the move's button did).
  on("click", "#explorer-moves tr", function (e) {
    if (!$(e.target).closest(".explorer-move").length) $(this).find(".explorer-move").trigger("click");
  });
  on("click", ".explorer-move", function () {
    const at = this.getBoundingClientRect(); // before the redraw replaces it
    review.exploreMove(String($(this).data("move")));
    revealBoard(at);
  });
  on("click", ".mistake-link", function () {
    lookAt(parseInt($(this).data("ply"), 10), this);
  });
  on("click", ".try-instead", function () {
    const ply = parseInt($(this).data("ply"), 10);
    actions.playFrom(ply - 1, ply);
  });
  on("click", "#eval-chart", function (e) {
    // The chart's x axis is the ply: the nearest one to the click.
    const box = this.getBoundingClientRect();
    const plies = this.viewBox.baseVal.width;
    lookAt(Math.round(((e.clientX - box.left) / box.width) * plies), this);
  });
  on("click", "#back-to-game", () => actions.step(Infinity));
  on("click", "#play-from-here", actions.playFromHere);
  on("click", "#undo", actions.undo);
  on("click", "#hint", actions.hint);
  on("click", "#pass", actions.pass);
  on("click", "#flip", function () {
    actions.flip();
    keepChoices(); // as the other display choices: kept over a reload
  });
  on("click", "#step-first", () => actions.step(-Infinity));
  on("click", "#step-back", () => actions.step(-1));
  on("click", "#step-forward", () => actions.step(1));
  on("click", "#step-last", () => actions.step(Infinity));
  on("click", "#stop", actions.playBestNow);
  on("click", "#pause", actions.togglePause);
  on("click", "#import-record", actions.importRecord);
  on("click", "#copy-record", actions.copyRecord);
  on("input", "#record", function () {
    state.recordEdited = this.value !== "";
  });
  on("blur", "#record", recordBoxLeft);
  on("change", "#start-game, #gomoku-opening", dialogs.drawStartOptions);
  // A game chosen with the mouse or a touch offers it at once; the keys
  // (which change a closed selector in Chromium: the arrows, a game's first
  // letter, Page Down) only choose: Enter offers it, and Escape or leaving
  // the selector puts back the game on the board.
  let choosingByKeys = false;
  const putBack = function (select) {
    choosingByKeys = false;
    if (state.game) $(select).val(state.game.game);
  };
  on("keydown", "#game-select", function (e) {
    if (e.key === "Enter" && choosingByKeys) {
      e.preventDefault();
      choosingByKeys = false;
      dialogs.offerNewGame(this.value);
    } else if (e.key === "Escape" && choosingByKeys) {
      putBack(this);
    } else if (!["Enter", "Escape", "Tab", "Shift", "Control", "Alt", "Meta"].includes(e.key)) {
      choosingByKeys = true;
    }
  });
  on("change", "#game-select", function () {
    if (!choosingByKeys) dialogs.offerNewGame(this.value);
  });
  on("blur", "#game-select", function () {
    if (choosingByKeys) putBack(this);
  });
  on("change", "#gomoku-size, #gomoku-row, #gomoku-rule, #gomoku-opening", function () {
    dialogs.sayOptionsLimited(limitOptions(), this.id.replace("gomoku-", ""));
    fillModels(chosenGame()); // a network plays only on the board it learned
  });
  on("change", "#show-legal, #show-analysis, #stone-numbers", function () {
    keepChoices();
    render();
    // Nothing of the computer's shows in a game over: said where to look
    // (big-screen QA: a teacher turned it on, and nothing came).
    const g = state.game;
    if (this.id === "show-analysis" && this.checked && g && g.status === "finished") {
      flash(gettext("The game is over: “Analyse the game” rates each of its moves."), "info");
    }
  });
  on("change", "#character-keys", keepChoices);
  on("change", "#chat-on", function () {
    keepChoices();
    chat.drawChat();
  });
  on("change", "#confirm-moves", function () {
    $(this).data("user-set", true);
    keepChoices();
    state.pending = null;
    render();
  });
  on("change", "#start-strength", keepChoices);
  SIDES.forEach(function (side) {
    on("change", "#model-" + side, function () {
      $(this).data("chosen", true); // fillModels keeps a model the player chose
      // Unpack and load a large model now, not at the AI's first move.
      if (this.value !== "none") prepareModel(chosenGame(), this.value).fail((detail) => flash(detail));
    });
    on("change", "#strength-" + side, keepChoices);
    on("change", "#" + side + "-ai, #model-" + side + ", #strength-" + side, function () {
      actions.changeSide(side, this.id === side + "-ai");
    });
  });
  whenGameEnds(function (game, ending) {
    showEnd(game, ending);
    sayEnd();
  });
  whenGameDrawn(dialogs.reopenKept);
  $(document).on("keydown", onKey);
  $(document).on("pointerdown", function (e) {
    clickedIntoGrid = $(e.target).closest("#board").length > 0; // (false returned would cancel the click)
  });
  // Browsers differ on which of the two a new fragment fires: either does.
  // Back with a dialog open closes it (dialogback.js), the game stays.
  $(window).on("popstate", () => backClosedDialog() || actions.followAddress());
  $(window).on("hashchange", actions.followAddress);
  // The buttons' row changes size with the window and with the board column
  // (it settles after the first drawing): share out its rows again, in the
  // next frame (within the observer's own, a change would loop).
  new ResizeObserver(() => requestAnimationFrame(balanceButtons)).observe(document.getElementById("play-controls"));
  // And as a button comes or goes, whoever shows or hides it: one hidden
  // outside a drawing (Rematch, as the end card came) left 6 buttons in
  // rows of 4, the row's height unchanged.
  // Only a change: each drawing sets every button's hidden again, the same
  // mostly, and balanced them a second time, a forced layout each (QA).
  const changed = (records) => records.some((r) => (r.oldValue !== null) !== r.target.hidden);
  new MutationObserver((records) => changed(records) && requestAnimationFrame(balanceButtons)).observe(document.getElementById("play-controls"), {
    attributes: true,
    attributeFilter: ["hidden"],
    attributeOldValue: true,
    subtree: true,
  });
}

/** Switch between the dark and the light colours (theme.js keeps the choice). */
function toggleTheme() {
  window.BoardTheme.toggle();
  showTheme();
}

/** Look at the position after `ply`, picked by `tapped` below or beside
 *  the board (the move list, the chart, the mistakes), and bring the board
 *  into sight. */
function lookAt(ply, tapped) {
  const at = tapped.getBoundingClientRect(); // before the redraw replaces it
  actions.viewPly(ply);
  revealBoard(at);
}

/** The bar's buttons say what they switch: the colours, the sounds. Sound
 *  is a toggle (pressed: on); the colours' button names the other scheme,
 *  and a name that changes is no toggle ("Light, pressed" on the dark page). */
export function showTheme() {
  // Filled while on: only aria-pressed changed, and on looked like off.
  $("#sound").attr("aria-pressed", soundOn()).toggleClass("active", soundOn());
  const dark = window.BoardTheme.current() === "dark";
  // Heard as what it does (keyboard walk: "Light" read as the scheme on).
  $("#theme")
    .text(dark ? pgettext("colour scheme", "Light") : pgettext("colour scheme", "Dark"))
    .attr("aria-label", dark ? gettext("Switch to light colours") : gettext("Switch to dark colours"));
}

/** Inside the grid, keys move between cells (the ARIA grid pattern): the
 *  arrows to the next cell, Home and End to the row's first and last, with
 *  Ctrl to the grid's; returns true if the key was used. */
function moveFocus(e) {
  const delta = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[e.key];
  const corner = e.ctrlKey || e.metaKey;
  if (e.altKey || (!delta && e.key !== "Home" && e.key !== "End") || (delta && corner)) return false;
  const $cells = $("#board .cell"),
    n = state.game.board.size;
  const index = $cells.index(e.target);
  let r = Math.floor(index / n),
    c = index % n;
  if (delta) [r, c] = [r + delta[0], c + delta[1]];
  else if (e.key === "Home") [r, c] = [corner ? 0 : r, 0];
  else [r, c] = [corner ? n - 1 : r, n - 1];
  e.preventDefault();
  if (r < 0 || c < 0 || r >= n || c >= n) return true;
  $cells.attr("tabindex", "-1");
  $cells.eq(r * n + c).attr("tabindex", "0").trigger("focus");
  return true;
}

/** The board's focus came from a click or a tap (else from the keyboard). */
let clickedIntoGrid = false;

function onKey(e) {
  const inGrid = $(e.target).closest("#board").length > 0;
  // The keyboard in use elsewhere, or Tab: the board's focus is the keyboard's.
  if (e.key === "Tab" || !inGrid) clickedIntoGrid = false;
  // The grid's keys are for a keyboard player's focus: after a click on the
  // board the keys work as elsewhere (the arrows moved a frame over the
  // cells, and End, the way back to the game, went to the row's end).
  if (inGrid && clickedIntoGrid) e.target.blur();
  else if (inGrid && !$(".modal.show").length && moveFocus(e)) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  // Keys belong to text fields and selectors; switches and buttons pass them on.
  if ($(e.target).is("input:not([type=checkbox]), select, textarea") || $(".modal.show").length) return;
  const action = KEYS[e.key] || ($(e.target).closest("#move-list").length && LIST_KEYS[e.key]);
  if (!action || (e.key.length === 1 && !$("#character-keys").prop("checked"))) return;
  e.preventDefault();
  action();
}
