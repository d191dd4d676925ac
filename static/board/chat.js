/*
 * The chat between the two players of a game with a friend, as lichess's:
 * shown to the two seats once both are taken, never to a watcher. A line is
 * free text or a preset ("Hello", "Good game" ...), which each page shows in
 * its reader's language (the words are the preset buttons' own). Lines come
 * by the live socket (every line so far as it says hello, then each new one)
 * or, while it is down, by asking every few seconds; each is kept by its
 * number, so none shows twice. A friend's line said while the chat is out
 * of sight (under the board on a phone) shows under the board for a moment.
 * A player may turn the chat off, as on lichess: then nothing of it shows.
 */
import * as api from "./api.js";
import { whenGameDrawn } from "./game.js";
import { onChat, POLL_EVERY } from "./live.js";
import { announce, flash } from "./panel.js";
import { mySeat, state } from "./state.js";

/** The early presets are offered up to this ply (as lichess, the start of the game). */
const EARLY_PLIES = 6;

/** The game whose lines are kept, and its lines by number. */
let chatGame = null;
let lines = new Map();
/** Whether the game's lines so far came: the first lines a page gets (its
 *  socket's hello, a reload) are not news. */
let loaded = false;
/** Whether the box for typing, under the lines, is in sight. */
let inSight = false;

/** The words of preset `key`, in the page's language. */
function presetWords(key) {
  return $(`#chat [data-preset="${key}"]`).first().text();
}

/** Whether this page shows the chat: it holds a seat of a game whose two
 *  seats are taken. */
function chatOpen() {
  const g = state.game;
  return Boolean(g && g.seats && g.seats.black && g.seats.white && mySeat());
}

/** Take lines said (`{lines}` from the socket or the API): new ones are
 *  drawn, a friend's one heard. */
function takeChat(message) {
  const g = state.game;
  if (!g || g.id !== chatGame) return;
  const news = loaded;
  loaded = true;
  const fresh = message.lines.filter((line) => !lines.has(line.n));
  if (!fresh.length) return;
  fresh.forEach((line) => lines.set(line.n, line));
  drawLines();
  const theirs = fresh.filter((line) => !line.mine);
  if (!theirs.length || !news || !chatOn()) return;
  const last = theirs[theirs.length - 1];
  const words = interpolate(gettext("Your friend says: %(text)s"), { text: lineText(last) }, true);
  // Shown under the board (nothing above it moves), heard once.
  if (!inSight) flash(words, "said", true);
  announce(words);
}

function lineText(line) {
  return line.preset ? presetWords(line.preset) : line.text;
}

function drawLines() {
  const $list = $("#chat-lines").empty();
  const today = new Date().toDateString();
  let day = today;
  [...lines.values()]
    .sort((a, b) => a.n - b.n)
    .forEach(function (line) {
      const said = new Date(line.said);
      // Over days, each day's lines under its date (correspondence walk:
      // "see you tomorrow evening" could have been said today); a game
      // played today has none.
      if (said.toDateString() !== day) {
        day = said.toDateString();
        $("<li class='chat-day'>").text(dayWords(said, today)).appendTo($list);
      }
      const who = line.mine ? gettext("You:") : gettext("Your friend:");
      $("<li>")
        .addClass("chat-line " + (line.mine ? "mine" : "theirs"))
        .toggleClass("preset", Boolean(line.preset))
        .attr("title", said.toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" }))
        .append($("<span class='visually-hidden'>").text(who + " "))
        .append($("<span class='chat-text'>").text(lineText(line)))
        .appendTo($list);
    });
  scrollToEnd();
}

/** The heading of the chat's lines said on `date`: "Today", else the date
 *  in the page's language ("Sun, Dec 6"). */
function dayWords(date, today) {
  if (date.toDateString() === today) return gettext("Today");
  return date.toLocaleDateString(document.documentElement.lang || undefined, { weekday: "short", month: "short", day: "numeric" });
}

function scrollToEnd() {
  const $list = $("#chat-lines");
  $list.scrollTop($list.prop("scrollHeight"));
}

/** Whether the player has the chat on (the card's switch). */
function chatOn() {
  return $("#chat-on").prop("checked");
}

/** Draw the chat for the game on show: shown or not, emptied for another
 *  game, the presets of the game's stage. */
export function drawChat() {
  const g = state.game;
  const open = chatOpen();
  if (!g || g.id !== chatGame) {
    chatGame = g ? g.id : null;
    lines = new Map();
    loaded = false;
    drawLines();
    $("#chat-note").text("");
  }
  $("#chat").prop("hidden", !open);
  const $body = $("#chat-body");
  const shown = !$body.prop("hidden");
  $body.prop("hidden", !chatOn());
  if (chatOn() && !shown) scrollToEnd();
  if (!open) return;
  const over = g.status === "finished";
  $('#chat .chat-presets[data-group="start"]').prop("hidden", over || g.ply > EARLY_PLIES);
  $('#chat .chat-presets[data-group="end"]').prop("hidden", !over);
}

/** Characters left when the count shows under the box. */
const COUNT_FROM = 20;

/** Count what is typed as the server does (characters, an emoji one): the
 *  characters left near the limit; over it, why Send waits. */
export function countChat() {
  const $text = $("#chat-text");
  const max = Number($text.data("max"));
  const n = [...String($text.val())].length;
  const over = n > max;
  $("#chat-count").text(!over && max - n <= COUNT_FROM ? interpolate(ngettext("%(n)s character left", "%(n)s characters left", max - n), { n: max - n }, true) : "");
  $("#chat-note").text(over ? interpolate(gettext("%(n)s characters: a line holds at most %(max)s"), { n: n, max: max }, true) : "");
  $("#chat-send").prop("disabled", over);
  return !over;
}

/** Say `body` ({text} or {preset}) to the friend. */
export function say(body) {
  const g = state.game;
  if (!g || !chatOpen()) return;
  const $text = $("#chat-text");
  $("#chat-send, #chat [data-preset]").prop("disabled", true);
  api
    .say(g.id, body)
    .done(function (line) {
      // Not what was typed since: the line may come first by the socket.
      if (body.text !== undefined && $text.val() === body.text) $text.val("");
      $("#chat-note").text("");
      $("#chat-count").text("");
      takeChat({ lines: [line] });
    })
    .always(function () {
      $("#chat [data-preset]").prop("disabled", false);
      countChat();
    })
    // After the count, which clears the note (friends QA: a line refused,
    // "too fast", said nothing).
    .fail((xhr) => $("#chat-note").text(api.errorText(xhr)));
}

onChat(takeChat);
whenGameDrawn(drawChat);

// Whether the chat is in sight: its box for typing, under the lines (the
// card's top may show on a phone, its lines not).
$(function () {
  const form = document.getElementById("chat-form");
  if (!form || !window.IntersectionObserver) return;
  new IntersectionObserver((entries) => (inSight = entries[entries.length - 1].isIntersecting)).observe(form);
});

// Without the socket, the lines are asked for.
setInterval(function () {
  const g = state.game;
  if (!state.live && chatOpen() && g.id === chatGame) api.chatLines(g.id).done(takeChat);
}, POLL_EVERY);
