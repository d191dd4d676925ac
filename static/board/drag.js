/*
 * Lines of Action by dragging: press a piece, move, let go on one of its
 * destinations, with a mouse, a pen or a finger. A drag is the two taps it
 * stands for (actions.clickSquare), so it is refused, confirmed and
 * announced as they are; the board does not scroll under a finger that
 * drags (board.css: touch-action).
 */
import { clickSquare } from "./actions.js";
import { isLoa, state } from "./state.js";

/** Pixels a pointer moves before a press becomes a drag. */
const SLOP = 8;
/** Milliseconds after a drop during which a click is the drop's, not a tap:
 *  a mouse's drag ends in a click, a finger's in none; a press after the
 *  drop starts a tap whose click is its own (phone QA: a tap 0.3 s after a
 *  finger's drop did nothing). */
const CLICK_AFTER_DROP = 400;

let drag = null;
let droppedAt = 0;

function squareAt(x, y) {
  const el = document.elementFromPoint(x, y);
  const cell = el && el.closest("#board [data-square]");
  return cell ? String(cell.dataset.square) : null;
}

function markOver(square) {
  $("#board .drag-over").removeClass("drag-over");
  if (square) $(`#board [data-square="${square}"]`).addClass("drag-over");
}

/** The piece picked follows the pointer, `dx` and `dy` pixels from its
 *  square (LOA walk: it stayed there, and only a thin frame moved). Found
 *  afresh each time: a drawing replaces the board's pieces. */
function carry(dx, dy) {
  const piece = document.querySelector(`#board [data-square="${drag.from}"] .piece`);
  if (!piece) return;
  piece.classList.add("carried");
  piece.style.transform = `translate(${dx}px, ${dy}px)`;
}

/** The piece carried goes back to its square (the drawing that follows a
 *  move puts it where it went). */
function setDown() {
  $("#board .piece.carried").removeClass("carried").css("transform", "");
}

/** pointerdown on a square. */
export function press(event) {
  const e = event.originalEvent;
  if (!isLoa() || !e.isPrimary || e.button > 0) return;
  droppedAt = 0;
  // From an empty square a drag is no pick (a mouse's; a finger's scrolls).
  const piece = $(event.currentTarget).find(".piece:not(.taken)").length > 0;
  drag = { from: String(event.currentTarget.dataset.square), x: e.clientX, y: e.clientY, moved: false, piece: piece };
}

/** pointermove anywhere: past the slop, the press picks its piece up. */
export function move(event) {
  const e = event.originalEvent;
  if (!drag || !e.isPrimary) return;
  if (!drag.moved) {
    if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < SLOP) return;
    drag.moved = true;
    if (drag.piece && state.selected !== drag.from) clickSquare(drag.from);
  }
  const picked = state.selected === drag.from;
  markOver(picked ? squareAt(e.clientX, e.clientY) : null);
  if (picked) carry(e.clientX - drag.x, e.clientY - drag.y);
}

/** pointerup anywhere: a drag drops its piece where the pointer is. */
export function release(event) {
  const e = event.originalEvent;
  if (!drag || !e.isPrimary) return;
  const done = drag;
  drag = null;
  markOver(null);
  if (!done.moved) return setDown(); // a tap: its click plays it
  droppedAt = Date.now();
  const to = squareAt(e.clientX, e.clientY);
  if (to && to !== done.from && state.selected === done.from) clickSquare(to);
  setDown(); // after the move's drawing: no jump back to its square first
}

/** pointercancel: the browser took the pointer over. */
export function cancel() {
  drag = null;
  markOver(null);
  setDown();
}

/** Whether a click is the end of a drag just dropped (not a tap). */
export function justDropped() {
  return Date.now() - droppedAt < CLICK_AFTER_DROP;
}
