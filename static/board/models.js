/*
 * Tree models on their way to play. A large model ships packed: before the
 * AI's first move with it the server unpacks it and loads it (every line
 * checked), which takes seconds; meanwhile a progress bar in the players'
 * card says what is happening. The server does the work; this file asks for
 * it, follows it and remembers which models are ready.
 */
import * as api from "./api.js";
import { state } from "./state.js";

/** "game/name" of the models the server said are ready. */
const ready = new Set();
/** The preparation being followed, by "game/name": a jQuery Deferred. */
const following = {};
/** How often the page asks how far a preparation has got, once its bar
 *  shows (a load of seconds: first-start walk, 109 asks of a model while
 *  the server compiled). */
const POLL_MS = 1000;
/** A model that loads within this long shows no bar: a light model takes
 *  milliseconds, and a bar that flashes once says nothing. Unpacking, which
 *  takes seconds, shows its bar at once. */
const QUIET_MS = 600;
/** How soon the page asks again while it keeps quiet. */
const QUIET_POLL_MS = 50;

/** True if an AI with `name` (null: no model) can move at once: the
 *  server has that model loaded. */
export function modelReady(game, name) {
  if (!name) return true;
  if (ready.has(game + "/" + name)) return true;
  const models = (state.kinds[game] && state.kinds[game].models) || [];
  return models.some((m) => m.name === name && m.status === "ready");
}

/** Ask the server to get model `name` of `game` ready and follow it with the
 *  progress bar; returns a promise resolved once it is ready, rejected with
 *  the reason if it cannot be used. Asking again while it runs returns the
 *  same promise. */
export function prepareModel(game, name) {
  const key = game + "/" + name;
  if (modelReady(game, name)) return $.Deferred().resolve().promise();
  if (following[key]) return following[key].promise();
  const done = (following[key] = $.Deferred());
  const finish = function (ok, detail) {
    delete following[key];
    hideProgress(key);
    if (ok) {
      ready.add(key);
      done.resolve();
    } else done.reject(detail);
  };
  const started = Date.now();
  const follow = function (status) {
    if (status.status === "ready") return finish(true);
    if (status.status === "damaged") return finish(false, interpolate(gettext("Model %(name)s cannot be used: %(detail)s"), { name: name, detail: status.detail }, true));
    const quiet = !isUnpacking(status) && Date.now() - started < QUIET_MS;
    if (!quiet) showProgress(key, name, status);
    setTimeout(function () {
      api
        .modelStatus(game, name)
        .done(follow)
        .fail((x) => finish(false, api.errorText(x)));
    }, quiet ? QUIET_POLL_MS : POLL_MS);
  };
  api
    .prepareModel(game, name)
    .done(follow)
    .fail((x) => finish(false, api.errorText(x)));
  return done.promise();
}

/** True while the server unpacks the model (or is about to). */
function isUnpacking(status) {
  return status.status === "unpacking" || status.status === "packed";
}

/** The bar under the model selectors: how far the unpacking is, or a
 *  running bar while the model loads. */
function showProgress(key, name, status) {
  const unpacking = isUnpacking(status);
  const pct = unpacking ? Math.round(100 * (status.progress || 0)) : 100;
  $("#model-progress-row").prop("hidden", false).data("key", key);
  $("#model-progress-label").text(
    unpacking
      ? interpolate(gettext("Unpacking the %(name)s model\u2026 %(pct)s%"), { name: name, pct: pct }, true)
      : interpolate(gettext("Loading the %(name)s model\u2026"), { name: name }, true),
  );
  $("#model-progress").attr("aria-valuenow", pct);
  $("#model-progress .progress-bar")
    .css("width", pct + "%")
    .toggleClass("progress-bar-striped progress-bar-animated", !unpacking);
}

function hideProgress(key) {
  const $row = $("#model-progress-row");
  if ($row.data("key") === key) $row.prop("hidden", true);
}
