/*
 * Text holding a game's score, the score kept on one line: a leaf module (it
 * imports none), for the status line (panel) and the end card (ending),
 * which ending.js, imported by panel.js, could not take from it.
 */

/** Set an element's text, only when it changes (a live region reads every
 *  write out), its score ("14–0", "14 比 0") kept on one line (zoom QA:
 *  "You won, 37–" over "27", "你输了，21 比" over "43"). */
export function setScoredText(selector, text) {
  const $el = $(selector);
  if ($el.text() === text) return;
  const score = text.match(/\d+\s?[^\d\s]\s?\d+/);
  if (!score) return $el.text(text);
  const end = score.index + score[0].length;
  $el.empty().append(document.createTextNode(text.slice(0, score.index)), $("<span class='text-nowrap'></span>").text(score[0]), document.createTextNode(text.slice(end)));
}
