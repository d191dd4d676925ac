/*
 * The board page: a dumb widget that draws the API's JSON snapshot of a game.
 *
 * The browser holds no rules: the only one it applies is "is this square in
 * the legal list the server sent?". The modules, each with one job:
 *
 *   state.js     the one state object (the last snapshot and what this page does with it)
 *   api.js       one function per /api/games/ and /api/models/ endpoint, one error path
 *   history.js   positions seen, the last analysis (local storage), the game in the address
 *   controls.js  the side panel's form: read as request bodies, set from a snapshot
 *   choices.js   the player's display choices (legal dots, move numbers), remembered
 *   render.js    redraw: the board's cells (cellClasses decides how a cell looks)
 *   overlays.js  what the AI thinks, as a layer over the cells (heat map, LOA arrows)
 *   panel.js     around the board: analysis, move list, status, flash, progress
 *   models.js    tree models on their way to play: unpacked, loaded, with a bar
 *   readiness.js the AI's readiness after a server's first start, with a bar
 *   game.js      take in the server's snapshots, run the AI's turns
 *   live.js      the game's live socket (every change pushed), polling without it
 *   friends.js   playing a friend: invitation, sharing, resigning, offers
 *   chat.js      what the two players of a game with a friend say to each other
 *   seated.js    drawn for a game between two browsers: seats, presence, clocks
 *   opening.js   Gomoku's Swap2 opening, guided: its step and its choices
 *   actions.js   what a player or the AI's turn does: request, take in, redraw
 *   drag.js      Lines of Action's pieces dragged: a drag is the two taps it stands for
 *   dialogs.js   the first-minute dialog (new game), the rematch and analysis asked at the end
 *   dialogback.js Back closes the dialog open (its own history entry)
 *   ending.js    the end-of-game card: who won and why (beside the page, not over it)
 *   review.js    looking back: the game analysis and opening explorer requests
 *   lookback.js  looking back, drawn: the win-probability chart, the explorer table
 *   events.js    delegated handlers and the keyboard map
 *
 * Imports go one way: main -> events -> actions -> api / render / state.
 * jQuery ($) and Bootstrap are classic scripts loaded before this module.
 */
import { start } from "./actions.js";
import { restoreChoices } from "./choices.js";
import { offerNewGame } from "./dialogs.js";
import { bind, showTheme } from "./events.js";
import { dropSocket } from "./live.js";
import { cellClasses } from "./render.js";
import { state } from "./state.js";

// The browser tests (and a curious console) read the page's state here.
window.BoardPage = { start: start, cellClasses: cellClasses, state: state, dropSocket: dropSocket };

$(function () {
  bind();
  document.body.classList.remove("starting"); // the controls answer now (board.css)
  restoreChoices();
  showTheme();
  start(offerNewGame);
});
