/*
 * The player's choices, remembered in this browser (they were back to their
 * defaults on each reload): the legal-move dots, the computer's view of its
 * own moves, move numbers on the stones, the chat with a friend on or off,
 * the keys of one character on or off (the Keys dialog), and whether a move
 * is confirmed by a second tap once the player set it (until then it
 * follows the size of the squares: render.js), the board turned round
 * (Flip), and each computer's strength (a game against it sets its own).
 */
import { state } from "./state.js";

const KEY = "webgame.choices";
const SWITCHES = ["show-legal", "show-analysis", "chat-on", "character-keys"];
// Each computer's strength, and the first-minute dialog's: one chosen while
// its switch was off went back to Club at a reload (teacher walk), and so
// did the dialog's after a game between two people (verification walk).
const SELECTS = ["stone-numbers", "strength-black", "strength-white", "start-strength"];
/** Kept only once the player set it. */
const CONFIRM = "confirm-moves";

/** Set the page's controls to the choices kept, where there are any. */
export function restoreChoices() {
  let kept = {};
  try {
    kept = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch (e) {
    return; // no storage, or a damaged entry: the defaults stand
  }
  SWITCHES.forEach((id) => typeof kept[id] === "boolean" && $("#" + id).prop("checked", kept[id]));
  SELECTS.forEach(function (id) {
    const $select = $("#" + id);
    if ($select.find("option").filter((i, o) => o.value === kept[id]).length) $select.val(kept[id]);
  });
  if (typeof kept[CONFIRM] === "boolean") $("#" + CONFIRM).prop("checked", kept[CONFIRM]).data("user-set", true);
  state.flipped = kept.flipped === true;
}

/** Keep the controls' present choices. */
export function keepChoices() {
  const kept = {};
  SWITCHES.forEach((id) => (kept[id] = $("#" + id).prop("checked")));
  SELECTS.forEach((id) => (kept[id] = $("#" + id).val()));
  if ($("#" + CONFIRM).data("user-set")) kept[CONFIRM] = $("#" + CONFIRM).prop("checked");
  kept.flipped = state.flipped;
  try {
    localStorage.setItem(KEY, JSON.stringify(kept));
  } catch (e) {
    /* no storage: the choices are forgotten on reload */
  }
}
