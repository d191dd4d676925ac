/*
 * Every request the page sends, one function per endpoint of /api/games/
 * and /api/models/.
 *
 * Each returns the jqXHR (it can be aborted; .done / .fail as usual). A failed
 * request is put into words by errorText() alone, so the page has one error
 * path: the API's `detail`, or what went wrong on the way.
 */

import { cap, state } from "./state.js";

const GAMES = "/api/games/";

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

/** How long a request may go unanswered (ms) before it fails as a lost one
 *  does (QA: a request whose connection died held the page busy for good,
 *  its board without dots and its taps queued); a search's answer waits
 *  for the search, the queue before it and the clock (thinking within it). */
const ANSWER_WITHIN = 20000;
const SEARCH_WITHIN = 120000;

/** Send a JSON request to the API; returns the jqXHR. A request about the
 *  game this browser holds a seat in carries the seat's secret token. */
function request(method, url, body, within = ANSWER_WITHIN) {
  const headers = { "X-CSRFToken": csrfToken() };
  const seat = state.seat;
  if (seat && url.indexOf(GAMES + seat.id + "/") === 0) headers["X-Seat-Token"] = seat.token;
  return $.ajax({
    url: url,
    method: method,
    dataType: "json",
    contentType: "application/json",
    data: body === undefined ? undefined : JSON.stringify(body),
    headers: headers,
    timeout: within,
  });
}

/** The message to show for a failed request. */
export function errorText(xhr) {
  const body = xhr && xhr.responseJSON;
  // The scale-out's Redis down: in a player's words, not the API's (which
  // names its shared store, for a developer).
  if (body && body.error === "unavailable") return gettext("The server is briefly unavailable: try again in a few seconds.");
  // The API's words start in lower case (they follow a status); the page
  // says them as a sentence.
  if (body && body.detail) return cap(body.detail);
  if (xhr && xhr.statusText === "timeout") return gettext("The server did not answer in time.");
  if (xhr && xhr.status === 0) return gettext("The server cannot be reached.");
  return interpolate(gettext("Something went wrong (%(status)s)."), { status: xhr ? xhr.status : "?" }, true);
}

/** The statuses of a server away for a moment: unreachable or too slow (0),
 *  a proxy without it (502, 504), busy (503). */
const AWAY = [0, 502, 503, 504];

/** Send `send()` again while the server is away, `say(text)` telling why
 *  and when it tries again (1 s, then longer each time, up to 10 s), then
 *  "Loading…": a promise of the answer, or of a refusal. QA: a first start
 *  the server did not answer left an empty board whose buttons did nothing,
 *  and a game reopened during a restart was taken for a missing one (its
 *  address forgotten, a new game offered). */
export function untilAnswered(send, say, tries = 0) {
  const answered = $.Deferred();
  send()
    .done(answered.resolve)
    .fail(function (xhr) {
      if (!AWAY.includes(xhr.status)) return answered.reject(xhr);
      const seconds = Math.min(10, 2 ** tries);
      // Translators: after why the page could not load, e.g. "The server cannot be reached. Trying again in 4 s…"
      const again = interpolate(gettext("Trying again in %(seconds)s s…"), { seconds: seconds }, true);
      say(errorText(xhr) + " " + again);
      setTimeout(function () {
        say(gettext("Loading…"));
        untilAnswered(send, say, tries + 1).then(answered.resolve, answered.reject);
      }, seconds * 1000);
    });
  return answered.promise();
}

/** The game kinds: [{name, title, options, option_specs, levels, models}]. */
export function getKinds() {
  return request("GET", GAMES + "kinds/");
}

export function getGame(id) {
  return request("GET", GAMES + encodeURIComponent(id) + "/");
}

/** The board after each move of game `id`, from the first position. */
export function getBoards(id) {
  return request("GET", GAMES + encodeURIComponent(id) + "/boards/");
}

/** body: {game, players, options?}; answers the new game. */
export function createGame(body) {
  return request("POST", GAMES, body);
}

/** body: {game, record, players, options?}; answers the imported game. */
export function importGame(body) {
  return request("POST", GAMES + "import/", body);
}

/** A new game from the position after `ply` moves of game `id`. */
export function playFrom(id, ply) {
  return request("POST", GAMES + id + "/play-from/", { ply: ply });
}

export function playMove(id, move, version) {
  return request("POST", GAMES + id + "/moves/", { move: move, version: version });
}

/** A Swap2 choice: "white", "black" or "place2"; answers the game. */
export function choose(id, choice, version) {
  return request("POST", GAMES + id + "/choice/", { choice: choice, version: version });
}

/** Answers {game, search} once the AI has moved. */
export function aiMove(id, version) {
  return request("POST", GAMES + id + "/ai-move/", { version: version }, SEARCH_WITHIN);
}

/** body: {version, level | think_time}; answers {game, search}. */
export function askHint(id, body) {
  return request("POST", GAMES + id + "/hint/", body, SEARCH_WITHIN);
}

/** Ends the running search: its ai-move or hint request answers at once. */
export function stopSearch(id) {
  return request("POST", GAMES + id + "/stop/");
}

export function undoMove(id) {
  return request("POST", GAMES + id + "/undo/", {});
}

/** Takes the seat the invitation offers; answers the game and {seat: {side, token}}. */
export function joinGame(id, invite) {
  return request("POST", GAMES + id + "/join/", { invite: invite });
}

/** body: {side, clock?}; answers the game, this browser's seat and the invitation. */
export function shareGame(id, body) {
  return request("POST", GAMES + id + "/share/", body);
}

export function resign(id) {
  return request("POST", GAMES + id + "/resign/", {});
}

export function abort(id) {
  return request("POST", GAMES + id + "/abort/", {});
}

/** Claim a game the friend left: result "win" or "draw". */
export function claim(id, result) {
  return request("POST", GAMES + id + "/claim/", { result: result });
}

/** Give the friend time on their clock (15 s, the server's). */
export function giveTime(id) {
  return request("POST", GAMES + id + "/give-time/", {});
}

/** The QR code of `text` (a link): {rows: ["1110…", …]}, 1 a dark module. */
export function qrCode(text) {
  return request("POST", "/api/qr/", { text: text });
}

/** The lines the two players said: {lines: [{n, mine, text, preset, said}]}. */
export function chatLines(id) {
  return request("GET", GAMES + id + "/chat/");
}

/** body: {text} or {preset}; answers the line said. */
export function say(id, body) {
  return request("POST", GAMES + id + "/chat/", body);
}

/** offer: "draw", "takeback" or "rematch" (a finished game); action:
 *  "offer", "accept" or "decline". */
export function answerOffer(id, offer, action) {
  return request("POST", GAMES + id + "/" + offer + "/", { action: action });
}

/** players: {black?, white?} player settings; answers the game. */
export function setPlayers(id, players) {
  return request("PATCH", GAMES + id + "/", { players: players });
}

/** Answers {record}: the game in its text notation. */
export function getRecord(id) {
  return request("GET", GAMES + id + "/record/");
}

/** Answers {ply, to_move, black, best, pv, proven}: what the AI thinks of the
 *  position after `ply` moves (a short search on the server's AI pool). */
export function analysePly(id, ply) {
  return request("POST", GAMES + id + "/analysis/", { ply: ply }, SEARCH_WITHIN);
}

/** Answers {winner, reason, squares}: how the game ended, the squares that won it. */
export function getEnding(id) {
  return request("GET", GAMES + id + "/ending/");
}

/** Answers the tree model's moves in the position after the game's first
 *  `ply` moves and then `line` (a list of moves). */
export function explore(id, ply, line, model) {
  const query = { ply: ply, line: line.join(" ") };
  if (model) query.model = model;
  return request("GET", GAMES + id + "/explorer/?" + $.param(query));
}

/** Answers {ready, games: {name: {ready, progress, seconds}}}: whether each
 *  game's AI is ready after the server's start (it compiles in the background). */
export function aiReadiness() {
  return request("GET", "/api/ai/");
}

const MODELS = "/api/models/";

/** Answers {game, name, status, progress, detail}: where a tree model is on
 *  its way to play (packed, unpacking, on_disk, loading, ready, damaged). */
export function modelStatus(game, name) {
  return request("GET", MODELS + game + "/" + encodeURIComponent(name) + "/");
}

/** Starts getting a tree model ready (unpacked, loaded); answers its status. */
export function prepareModel(game, name) {
  return request("POST", MODELS + game + "/" + encodeURIComponent(name) + "/prepare/", {});
}
