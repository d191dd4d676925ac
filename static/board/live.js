/*
 * Live updates of the game on show: a WebSocket (/ws/games/<id>/) brings
 * every change as the game's new snapshot, and who is connected. The socket
 * says hello with this browser's seat token and the version it drew, so the
 * server counts it as that seat's player and sends what it missed; the
 * page playing a game without seats says so, and whether it paused its
 * computer (the watchers are told). The computer's searches are told as
 * they start, and a seat's socket brings what the players say. A dropped
 * socket reconnects (waiting longer each time, up to 10 s; at once when the
 * browser is back online, or a poll finds the server back after a restart);
 * meanwhile, and wherever sockets cannot connect at all, the page polls the
 * game. A socket that was open and closed is a lost connection
 * (state.liveLost) until one opens again; so is one that stays silent: the
 * page pings every few seconds, and a socket that hears nothing back is
 * given up (QA: a socket dead without a close, after a network switch, went
 * unnoticed, and a player lost on time without seeing the friend's move).
 */
import * as api from "./api.js";
import { state } from "./state.js";

/** Poll this often while the socket is down (ms): the game, and the chat. */
export const POLL_EVERY = 3000;
/** Ping this often while the socket is open (ms), and give it up once it
 *  has been silent this long: two pongs missed. */
const PING_EVERY = 5000;
const SILENT_FOR = 12000;
/** Close codes after which reconnecting is pointless (no such game). */
const FINAL = { 4404: true };

let socket = null;
let followed = null;
let retries = 0;
let retryTimer = null;
let pollTimer = null;
let pingTimer = null;
/** When the socket last brought anything (performance.now()). */
let heardAt = 0;
let handlers = { game: () => {}, presence: () => {}, connection: () => {}, thinking: () => {} };
/** What takes the players' lines (chat.js registers it). */
let chatHandler = () => {};
/** A poll failed while the socket was down: the server was away. */
let serverAway = false;
/** The pause the last hello told (see tellPause). */
let toldPaused = false;

/** Follow game `id`: `onGame(snapshot)` for each change (of any version:
 *  the caller keeps only newer ones), `onPresence({black, white, watchers})`,
 *  `onConnection()` when the connection is lost or back, `onThinking({side,
 *  version, seconds})` when the game's computer starts a search. */
export function follow(id, onGame, onPresence, onConnection, onThinking) {
  handlers = { game: onGame, presence: onPresence, connection: onConnection, thinking: onThinking };
  if (followed === id) return;
  followed = id;
  retries = 0;
  closeSocket();
  connect();
}

/** Register `handler({lines})`, called when the players said something
 *  (a seat's socket is sent every line so far, then each new one). */
export function onChat(handler) {
  chatHandler = handler;
}

/** Say hello again (the seat was taken after the socket opened). */
export function sayHello() {
  if (socket && socket.readyState === WebSocket.OPEN) {
    const g = state.game;
    const seat = state.seat && state.seat.id === followed ? state.seat.token : null;
    // A page not opened to watch plays the game; the server counts it so only
    // for a game without seats, where it is not one of the watchers.
    const hello = { type: "hello", token: seat, version: g && g.id === followed ? g.version : null, playing: !state.watching, paused: state.paused };
    socket.send(JSON.stringify(hello));
    toldPaused = state.paused;
  }
}

/** Say hello again if the page paused or resumed its computer since the
 *  last one: the watchers of a game without seats are told. */
export function tellPause() {
  if (state.paused !== toldPaused) sayHello();
}

/** Connect again: a Swap2 choice moved this browser's seat to the other
 *  colour, and the server counts a socket's presence by the seat it had
 *  when it said hello. */
export function reconnect() {
  if (!followed) return;
  closeSocket();
  connect();
}

/** Close the socket as a network would (the browser tests' dropped socket). */
export function dropSocket() {
  if (socket) socket.close(4000, "dropped");
}

function closeSocket() {
  clearTimeout(retryTimer);
  if (socket) {
    const old = socket;
    socket = null;
    old.close(1000, "another game");
  }
}

function connect() {
  const id = followed;
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  let ws;
  try {
    ws = new WebSocket(scheme + location.host + "/ws/games/" + id + "/");
  } catch (e) {
    return startPolling();
  }
  socket = ws;
  ws.onopen = function () {
    retries = 0;
    serverAway = false;
    state.live = true;
    stopPolling();
    sayHello();
    heardAt = performance.now();
    clearInterval(pingTimer);
    pingTimer = setInterval(() => keepAlive(ws), PING_EVERY);
    if (state.liveLost) {
      state.liveLost = false;
      handlers.connection();
    }
  };
  ws.onmessage = function (event) {
    heardAt = performance.now();
    let message;
    try {
      message = JSON.parse(event.data);
    } catch (e) {
      return;
    }
    if (message.type === "game" && message.game.id === followed) handlers.game(message.game);
    else if (message.type === "presence") handlers.presence(message);
    else if (message.type === "thinking") handlers.thinking(message);
    // A chat line names no game: one from a socket replaced (another game) is stale.
    else if (message.type === "chat" && socket === ws) chatHandler(message);
  };
  ws.onclose = function (event) {
    if (socket !== ws) return; // replaced on purpose, or given up offline
    socket = null;
    connectionLost(event.code);
  };
}

/** Ping the open socket `ws`, or give it up if it has been silent too long
 *  (a network that went away without a word). */
function keepAlive(ws) {
  if (socket !== ws) return clearInterval(pingTimer);
  if (performance.now() - heardAt > SILENT_FOR) {
    clearInterval(pingTimer);
    socket = null;
    ws.close(4000, "silent");
    return connectionLost(4000);
  }
  if (ws.readyState === WebSocket.OPEN) ws.send('{"type": "ping"}');
}

/** The socket closed with `code` (or was given up): poll meanwhile, and try
 *  again later unless the game is gone; a socket that was open is a lost
 *  connection the page shows. */
function connectionLost(code) {
  const wasOpen = state.live;
  state.live = false;
  if (wasOpen && !FINAL[code]) {
    state.liveLost = true;
    handlers.connection();
  }
  startPolling();
  if (FINAL[code]) return;
  retryTimer = setTimeout(connect, Math.min(10000, 500 * 2 ** retries));
  retries += 1;
}

// The browser knows the network went away before the socket does (which
// may take a ping's timeout, and a close without a network as long): give
// the socket up at once; once back, reconnect now.
window.addEventListener("offline", function () {
  const ws = socket;
  if (!ws) return;
  socket = null;
  ws.close(4000, "offline");
  connectionLost(4000);
});
window.addEventListener("online", function () {
  if (!followed || socket) return;
  clearTimeout(retryTimer);
  retries = 0;
  connect();
});

function startPolling() {
  if (pollTimer) return;
  pollTimer = setInterval(function () {
    if (!followed || state.busy || state.thinking) return;
    api
      .getGame(followed)
      .done(function (g) {
        handlers.game(g);
        // The server is back (a restart): so is its socket, without waiting
        // out the backoff (up to 10 s more of "reconnecting").
        if (serverAway && !socket) {
          serverAway = false;
          clearTimeout(retryTimer);
          connect();
        }
      })
      .fail((xhr) => (serverAway = serverAway || xhr.status === 0 || xhr.status >= 500));
  }, POLL_EVERY);
}

function stopPolling() {
  clearInterval(pollTimer);
  pollTimer = null;
}
