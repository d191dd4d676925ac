/*
 * Buttons greyed without taking the keyboard's focus from them: a leaf
 * module (it imports none), so that any module may grey its buttons (panel,
 * seated, friends, actions) without an import cycle, which collectstatic
 * cannot name (test_site).
 */

/** Grey buttons (or not) as `disabled` says, without taking the keyboard's
 *  focus from one: a focused button disabled loses it to the page (keyboard
 *  QA: Enter on Resign or Import sent the next keys to the page, on Hint to
 *  the button after it, which a second Enter flipped the board with). The
 *  focused one is greyed by aria-disabled and a disabled button's look
 *  (board.css) instead; its click only says why (events.js). */
export function grey($buttons, disabled) {
  return $buttons.each(function () {
    const soft = Boolean(disabled) && this === document.activeElement;
    $(this).prop("disabled", Boolean(disabled) && !soft);
    if (soft) this.setAttribute("aria-disabled", "true");
    else this.removeAttribute("aria-disabled");
  });
}

/** Whether a button is greyed, by grey() or by the browser's disabled. */
export function greyed(el) {
  return el.disabled || el.getAttribute("aria-disabled") === "true";
}
