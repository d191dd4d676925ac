/*
 * The computer's readiness after a server's first start. The server then
 * compiles each game's AI in the background for a minute or two, while people
 * can already play each other. Before an AI move or a hint in a game whose
 * AI is not ready yet, the page shows how far it has got, where the AI would
 * think, and asks again; the server reports the progress (/api/ai/).
 */
import * as api from "./api.js";

/** The games whose AI the server said is ready. */
const ready = new Set();
/** The games being waited for: a jQuery Deferred each. */
const waiting = {};
/** How often the progress is asked for: the wait is of minutes, and a
 *  tab asked twice a second (first-start walk: 110 lines a minute in the
 *  server's log, on a machine busy compiling). */
const POLL_MS = 1000;

/** True if `game`'s AI moves at once. */
export function aiReady(game) {
  return ready.has(game);
}

/** The server's first answer, asked at the page's start. */
let asked = null;

/** Ask the server once which games are ready (at the page's start). */
export function checkReadiness() {
  asked = api.aiReadiness().done(take);
  return asked;
}

/** Run `then` once the server's first answer is in (or failed). */
export function afterReadinessKnown(then) {
  (asked || $.Deferred().resolve()).always(then);
}

function take(status) {
  $.each(status.games, function (game, entry) {
    if (entry.ready) ready.add(game);
  });
}

/** A promise resolved once `game`'s AI is ready; the readiness row shows the
 *  server's progress meanwhile. Asking again while waiting returns the same
 *  promise. */
export function whenAiReady(game) {
  if (ready.has(game)) return $.Deferred().resolve().promise();
  if (waiting[game]) return waiting[game].promise();
  const done = (waiting[game] = $.Deferred());
  const poll = function () {
    api
      .aiReadiness()
      .done(function (status) {
        take(status);
        if (ready.has(game)) {
          delete waiting[game];
          $("#ai-ready-row").prop("hidden", true);
          done.resolve();
          return;
        }
        show(status.games[game].progress);
        setTimeout(poll, POLL_MS);
      })
      .fail(function () {
        setTimeout(poll, 4 * POLL_MS); // a server restarting: ask again later
      });
  };
  poll();
  return done.promise();
}

function show(progress) {
  const pct = Math.round(100 * (progress || 0));
  $("#ai-ready-row").prop("hidden", false);
  $("#ai-ready-label").text(interpolate(gettext("Getting the computer ready, first start only: %(pct)s%"), { pct: pct }, true));
  $("#ai-ready-progress").attr("aria-valuenow", pct);
  $("#ai-ready-progress .progress-bar").css("width", pct + "%");
}
