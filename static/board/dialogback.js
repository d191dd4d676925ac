/* Back closes the dialog open (a phone's Back button or swipe, Alt+←), as
 * apps do, and leaves the page only when no dialog is open (phone QA: Back
 * with New game open left the site). A dialog opened adds a history entry
 * at the same address; closed otherwise, it takes that entry off again. */

/** The dialog whose entry is on top of the history, or null. */
let entry = null;
/** Its entry is being taken off (history.back() under way). */
let goingBack = false;
/** Changes of the address that wait until it is off. */
let waiting = [];

/** A dialog that may be closed: the first visit's New game has no way out
 *  but a choice. */
function closable(dialog) {
  return dialog.id !== "start-dialog" || !$("#start-cancel").prop("hidden");
}

/** Run `change`, a change of the address, once no dialog's entry is being
 *  taken off: made meanwhile, it would be the one taken off (a game started
 *  from New game arrives as its dialog closes). */
export function whenHistorySettled(change) {
  if (goingBack) waiting.push(change);
  else change();
}

/** The dialogs open or opening. */
const open = new Set();
/** A dialog Back closed while it was still opening: Bootstrap ignores a
 *  hide then, so it closes once open. */
let closeWhenShown = null;

// Its entry as it starts to open: a Back during Rules' fade (half a
// second) went to the game before, the dialog over it (verification QA).
document.addEventListener("show.bs.modal", function (event) {
  const dialog = event.target;
  open.add(dialog.id);
  whenHistorySettled(function () {
    if (entry || !closable(dialog) || !open.has(dialog.id)) return;
    history.pushState({ dialog: dialog.id }, "", location.href);
    entry = dialog.id;
  });
});

document.addEventListener("shown.bs.modal", function (event) {
  if (closeWhenShown !== event.target.id) return;
  closeWhenShown = null;
  bootstrap.Modal.getOrCreateInstance(event.target).hide();
});

document.addEventListener("hidden.bs.modal", function (event) {
  open.delete(event.target.id);
  if (closeWhenShown === event.target.id) closeWhenShown = null;
});

document.addEventListener("hide.bs.modal", function (event) {
  if (entry !== event.target.id) return;
  entry = null;
  // Another address came on top meanwhile (a game opened): it stays.
  if ((history.state || {}).dialog !== event.target.id) return;
  goingBack = true;
  history.back();
});

/** Step off a dialog's entry where no dialog is open (Forward onto one
 *  closed before, a reload with a dialog open): the next Back did nothing
 *  there (phone QA). Answers whether it does. */
function leaveStaleEntry() {
  if (entry || !(history.state || {}).dialog || history.length < 2) return false;
  goingBack = true;
  history.back();
  return true;
}

/** On popstate: true if it was a dialog's, its entry taken off by Back (the
 *  dialog closes now) or by its closing, or one left; the address is the
 *  page's own. */
export function backClosedDialog() {
  if (goingBack) {
    goingBack = false;
    const changes = waiting;
    waiting = [];
    changes.forEach((change) => change());
    return true;
  }
  if (leaveStaleEntry()) return true;
  if (!entry) return false;
  const id = entry;
  entry = null; // Back took its entry off already
  const dialog = document.getElementById(id);
  closeWhenShown = id; // if still opening (its hidden event clears it)
  bootstrap.Modal.getOrCreateInstance(dialog).hide();
  return true;
}

// Once loaded: a traversal started while the page loads is not one (Chrome).
window.addEventListener("load", () => setTimeout(leaveStaleEntry));
