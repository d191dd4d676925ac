/*
 * How to play: the rules dialog's diagrams, drawn with the board's own cells
 * (render.js's cellClasses) and coordinates, and the one-line hint of a
 * first Lines of Action game, and why a standard Gomoku overline did not
 * win. The rules' words are in the page (templates/index.html).
 */
import { optionsText } from "./controls.js";
import { flash } from "./panel.js";
import { cellClasses, starPoints } from "./render.js";
import { onlyWatching, state } from "./state.js";

/** Each diagram: the board's rows from the top of the picture (x black,
 *  o white), its files and ranks as drawn, and the squares to mark. */
const DIAGRAMS = {
  reversi: {
    rows: ["........", "........", "........", "...ox...", "...xxx..", "........", "........", "........"],
    ranks: "12345678",
    legal: ["f4", "d6", "f6"],
    last: ["f5"],
  },
  gomoku: {
    rows: [".........", ".........", ".........", "..xxxxxo.", "...oo....", "....o....", ".........", ".........", "........."],
    ranks: "987654321",
    winning: ["c6", "d6", "e6", "f6", "g6"],
  },
  // Renju's three kinds of forbidden point, drawn on a Gomoku board; each
  // position's only one, checked by the rules library in
  // tests/browser/test_rules.py. Black's e5 would make two open threes,
  renju: {
    board: "gomoku",
    rows: [".........", ".........", ".........", "...o..o..", "..xx.....", "....xo...", "..o.x....", ".........", "........."],
    ranks: "987654321",
    forbidden: ["e5"],
  },
  // e4 two fours (each blocked at one end),
  "renju-four": {
    board: "gomoku",
    rows: [".........", "....o....", "..o.x....", "....x.o..", "....x....", "oxxx.....", ".....o...", "......o..", "........."],
    ranks: "987654321",
    forbidden: ["e4"],
  },
  // and e5 six in a row.
  "renju-overline": {
    board: "gomoku",
    rows: [".........", ".........", "...o.....", "......o..", ".xxx.xx..", "....o....", "..o...o..", ".........", "........."],
    ranks: "987654321",
    forbidden: ["e5"],
  },
  loa: {
    rows: [".xxxxxx.", "o......o", "o......o", "o......o", "o......o", "o......o", "o......o", ".xxxxxx."],
    ranks: "87654321",
    selected: "b1",
    targets: ["b3", "d3", "h1"],
  },
};

/** Square -> true, for a list of squares. */
function set(squares) {
  const marks = {};
  (squares || []).forEach((sq) => (marks[sq] = true));
  return marks;
}

/** Draw the diagram of `name` into the element `el`. */
function drawDiagram(el, name) {
  const d = DIAGRAMS[name];
  const n = d.rows.length;
  const files = "abcdefghijklmnopqrs".slice(0, n);
  const board = d.board || name;
  const ctx = {
    loa: name === "loa",
    last: set(d.last),
    legal: set((d.legal || []).concat(d.targets || [])),
    targets: set(d.targets),
    pending: {},
    dark: {},
    winning: set(d.winning),
    forbidden: set(d.forbidden),
    stars: board === "gomoku" ? starPoints({ files: files.split(""), ranks: d.ranks.split("") }) : {},
    stats: {},
  };
  const cells = [];
  d.rows.forEach(function (row, r) {
    row.split("").forEach(function (ch, c) {
      const square = files[c] + d.ranks[r];
      if (ctx.loa) ctx.dark[square] = (r + c) % 2 === 1;
      const piece = ch === "x" ? "black" : ch === "o" ? "white" : null;
      let classes = cellClasses(square, piece, ctx);
      if (square === d.selected) classes += " selected";
      cells.push('<span class="' + classes + '">' + (piece ? '<span class="piece ' + piece + '"></span>' : "") + "</span>");
    });
  });
  // The coordinates around it, as render.js draws the board's: a newcomer
  // finds the squares the caption names. The caption says what it shows: a
  // screen reader reads that (a picture named by it was read twice).
  const labels = (chars) => chars.split("").map((ch) => "<span>" + ch + "</span>").join("");
  $(el)
    .attr({ class: "rules-diagram board-wrap", "aria-hidden": "true" })
    .html(
      '<div class="rank-labels" aria-hidden="true">' + labels(d.ranks) + "</div>" +
      '<div class="board game-' + board + '" style="--n: ' + n + '">' + cells.join("") + "</div>" +
      '<div></div><div class="file-labels" aria-hidden="true">' + labels(files) + "</div>",
    );
}

/** Open the rules, on the tab of `name` (default: the game on show). */
export function showRules(name) {
  const game = name || (state.game ? state.game.game : $("#start-game").val() || "reversi");
  // A Lines of Action game on other rules than the Olympiad's: said here
  // too (verification walk: the dialog told only the Olympiad's).
  const g = state.game;
  const other = g && g.game === "loa" ? optionsText(g) : "";
  $("#rules-loa-game")
    .text(other ? interpolate(gettext("This game's rules: %(rules)s."), { rules: other }, true) : "")
    .prop("hidden", !other);
  $("#rules-dialog .rules-diagram").each(function () {
    drawDiagram(this, $(this).data("diagram"));
  });
  bootstrap.Tab.getOrCreateInstance(document.getElementById("rules-tab-" + game)).show();
  bootstrap.Modal.getOrCreateInstance(document.getElementById("rules-dialog")).show();
}

const STORE_LOA_HINT = "webgame.loa-hint";

/** A first Lines of Action game: say in one line how pieces move (once),
 *  to a player (a watcher chooses no piece). */
export function hintFirstLoa(g) {
  if (g.game !== "loa" || g.ply !== 0 || onlyWatching()) return;
  try {
    if (localStorage.getItem(STORE_LOA_HINT)) return;
    localStorage.setItem(STORE_LOA_HINT, "shown");
  } catch (e) {
    return;
  }
  flash(gettext("A piece moves as many squares as there are pieces on its line: choose one to see where it can go (Rules tells more)."), "info");
  firstLoaGame = g.id;
}

/** The game in which the first Lines of Action line was said, or null. */
let firstLoaGame = null;

/** What the player used last: "keys" or "pointer" (a mouse, a finger). */
let lastInput = "pointer";
document.addEventListener("keydown", () => (lastInput = "keys"), true);
document.addEventListener("pointerdown", () => (lastInput = "pointer"), true);

/** In that first game, until its first move, what to do with a piece just
 *  picked on `square` (Chinese-phone QA: the dots came, and the words went,
 *  for a newcomer left to guess), else null. */
export function pickedWords(square) {
  const g = state.game;
  if (!g || g.id !== firstLoaGame || g.ply > 1) return null;
  // A mouse clicks (rules QA: a desktop read "tap"); keys go (keyboard QA:
  // it read "click"), by the last used (a click on the square the keys had
  // left the focus on read the keys' words).
  const text = lastInput === "keys"
    ? gettext("%(square)s: now go to an orange dot with the arrow keys, and press Enter.")
    : window.matchMedia("(pointer: coarse)").matches
      ? gettext("%(square)s: now tap an orange dot to move it there.")
      : gettext("%(square)s: now click an orange dot to move it there.");
  return interpolate(text, { square: square }, true);
}

/** Words for a Gomoku move of `g` (just played, one ply after `before`)
 *  that made more than a row under the standard rule (the snapshot's
 *  `overline`), which is not a win there, or null: the game went on, and
 *  said nothing of why (renju refuses black's, and says why). */
export function overlineNews(before, g) {
  if (!g.overline || g.ply !== before.ply + 1 || g.status !== "playing") return null;
  return interpolate(gettext("%(square)s makes more than %(n)s in a row, which does not win under the standard rule: exactly %(n)s does."), { square: g.overline, n: g.options.row }, true);
}

/** Why the Lines of Action piece on `from` cannot go to `to`, counted on
 *  the board of `g` ("its column has 2 pieces: it moves exactly 2
 *  squares"), as a club player explains it (LOA walk: the one general
 *  sentence for every case). The legal moves are the server's: these are
 *  only the words. */
export function loaWhyNot(g, from, to) {
  const { files, ranks, cells } = g.board;
  const at = (square) => [ranks.indexOf(square.slice(1)), files.indexOf(square[0])];
  const [r0, c0] = at(from);
  const [r1, c1] = at(to);
  const dr = Math.sign(r1 - r0),
    dc = Math.sign(c1 - c0);
  const words = { from: from, square: to };
  const straight = r0 === r1 || c0 === c1 || Math.abs(r1 - r0) === Math.abs(c1 - c0);
  if (!straight) return interpolate(gettext("%(from)s cannot go to %(square)s: a piece moves in a straight line, along its row, its column or a diagonal."), words, true);
  const inside = (r, c) => r >= 0 && c >= 0 && r < cells.length && c < cells[0].length;
  let pieces = 0;
  for (const sign of [1, -1]) {
    for (let r = r0 + sign * dr, c = c0 + sign * dc; inside(r, c); r += sign * dr, c += sign * dc) if (cells[r][c]) pieces++;
  }
  pieces++; // the piece itself
  const line = dr === 0 ? pgettext("LOA line", "row") : dc === 0 ? pgettext("LOA line", "column") : pgettext("LOA line", "diagonal");
  const distance = Math.max(Math.abs(r1 - r0), Math.abs(c1 - c0));
  const n = { ...words, line: line, n: pieces };
  if (distance !== pieces) {
    return interpolate(ngettext("%(from)s cannot go to %(square)s: its %(line)s has %(n)s piece, so it moves exactly %(n)s square along it.", "%(from)s cannot go to %(square)s: its %(line)s has %(n)s pieces, so it moves exactly %(n)s squares along it.", pieces), n, true);
  }
  const mine = cells[r0][c0];
  for (let r = r0 + dr, c = c0 + dc, step = 1; step < distance; r += dr, c += dc, step++) {
    if (cells[r][c] && cells[r][c] !== mine) return interpolate(gettext("%(from)s cannot go to %(square)s: a piece jumps over its own pieces, never over the other side's."), words, true);
  }
  return interpolate(gettext("%(from)s cannot go to %(square)s: a piece moves as many squares as its line has pieces, never over the other side's."), words, true);
}
