/*
 * Looking back at a game, drawn: the game analysis (a chart of Black's win
 * probability move by move, the biggest drops listed as mistakes) and the
 * opening explorer's table. The numbers come from the server (review.js asks
 * for them); what is computed here is arithmetic on them, no rule of a game.
 */
import { modelName, modelOtherBoard } from "./controls.js";
import { shownValue } from "./overlays.js";
import { labelButton, setLiveText, stillShown } from "./panel.js";
import { COUNT, moveNumber, moveText, sideName, state } from "./state.js";

const SVG = "http://www.w3.org/2000/svg";
/** How many mistakes are listed, and the least drop (in win probability of
 *  the side that moved) that counts as one; without one, the moves that lost
 *  at least SMALL_DROP are listed as those that lost most (a game lost 0-64
 *  a little at each move read "No move lost much."). */
const MISTAKES = 3;
const MISTAKE_DROP = 0.15;
const SMALL_DROP = 0.04;

/** The game analysis of the game on show, or null. */
function currentReview() {
  const r = state.review;
  return r && state.game && r.id === state.game.id ? r : null;
}

/** The moves that lost the most, at least `least` each: [{ply, move, side,
 *  before, after, best}], in the game's order (family QA: listed biggest
 *  drop first, they jumped back and forth through the game); `before` and
 *  `after` are the mover's win probability; never the move the analysis
 *  chose itself. */
export function mistakes(review, least = MISTAKE_DROP) {
  const g = state.game,
    p = review.points,
    found = [];
  for (let k = 1; k < p.length; k++) {
    if (!p[k] || !p[k - 1] || !p[k - 1].to_move) continue;
    const side = p[k - 1].to_move;
    const mine = (point) => (side === "black" ? point.black : 1 - point.black);
    const drop = mine(p[k - 1]) - mine(p[k]);
    // The analysis's own choice is no mistake: the drop is what it saw only
    // one move deeper (a position lost already).
    if (drop >= least && g.moves[k - 1] !== p[k - 1].best) {
      found.push({ ply: k, move: g.moves[k - 1], side: side, before: mine(p[k - 1]), after: mine(p[k]), drop: drop, best: p[k - 1].best });
    }
  }
  // Of drops alike, the later: it lost what the earlier had not (study
  // walk: the game's last blunder went unlisted behind three before it).
  const worst = found.sort((a, b) => b.drop - a.drop || b.ply - a.ply).slice(0, MISTAKES);
  return worst.sort((a, b) => a.ply - b.ply);
}

/** The mistakes the analysis card lists: those that lost MISTAKE_DROP or
 *  more; without one, once the analysis is complete, those that lost most
 *  (SMALL_DROP or more). */
function listedMistakes(r) {
  const found = mistakes(r);
  const complete = !r.running && r.points.every(Boolean);
  return found.length || !complete ? found : mistakes(r, SMALL_DROP);
}

/** Looking back at the position after a listed mistake: {move, side} of the
 *  move the analysis chose there instead (drawn on the board: a ghost stone,
 *  or an arrow in Lines of Action, as lichess draws its best move), else
 *  null. */
export function betterMoveShown() {
  const r = currentReview();
  if (!r || state.viewPly === null || state.explore) return null;
  const m = listedMistakes(r).find((x) => x.ply === state.viewPly);
  return m && m.best && m.best !== "pass" ? { move: m.best, side: m.side } : null;
}

function svg(name, attrs) {
  const el = document.createElementNS(SVG, name);
  Object.keys(attrs).forEach((key) => el.setAttribute(key, attrs[key]));
  return el;
}

/** Run `draw`, which redraws part of `card`, keeping the keyboard's place
 *  there: a focused button drawn again gets the focus back, one that went
 *  (or hid) gives it to `fallback`. */
function keepingFocus(card, fallback, draw) {
  const focused = document.activeElement;
  const inside = focused && focused !== document.body && card.contains(focused);
  draw();
  if (!inside) return;
  const back = stillShown(focused, card);
  // Where it stood: a scroll to it took the page away from the board
  // brought into sight for the mistake it was (a phone).
  if (back !== focused) (back || document.querySelector(fallback)).focus({ preventScroll: true });
}

/** The analysis card: its button, progress bar, chart and mistakes. */
export function drawReview() {
  keepingFocus(document.getElementById("review"), "#analyse-game", drawReviewCard);
}

function drawReviewCard() {
  const g = state.game,
    r = currentReview();
  const running = Boolean(r && r.running);
  // Once the game is over, looking back is what is left to do; before, the
  // switches keep their place under a phone's board.
  $("#review").toggleClass("near-board", Boolean(r) && g.status === "finished");
  const known = r ? r.points.filter(Boolean).length : 0;
  const labels = [gettext("Analyse the game"), gettext("Stop"), gettext("Analyse again")];
  $("#analyse-game").prop("disabled", !running && g.ply === 0);
  labelButton($("#analyse-game"), running ? labels[1] : known ? labels[2] : labels[0], labels);
  const pct = r ? Math.round((100 * known) / r.points.length) : 0;
  $("#review-progress").prop("hidden", !running).attr("aria-valuenow", pct);
  $("#review-progress .progress-bar").css("width", pct + "%");
  const $chart = $("#eval-chart");
  if (!r || (!known && !running)) {
    $chart.attr("hidden", "").empty(); // an SVG element has no hidden property
    $("#chart-caption").prop("hidden", true);
    $("#mistakes").empty();
    return;
  }
  // The chart has its place from the start: the card scrolled into sight
  // for it (dialogs.analyse) then holds it (on a phone it grew past the
  // screen's edge).
  const width = Math.max(1, r.points.length - 1);
  const chart = $chart[0];
  $chart.removeAttr("hidden").empty().attr("viewBox", "0 0 " + width + " 100");
  $("#chart-caption").prop("hidden", false);
  if (!known) {
    $("#mistakes").empty();
    return;
  }
  const y = (point) => (100 - 100 * point.black).toFixed(2);
  const line = [];
  r.points.forEach(function (point, ply) {
    if (point) line.push(ply + "," + y(point));
  });
  // Black's share is the dark area under the line; White's the light one
  // above, over the moves analysed only (the others were White's colour:
  // a certain win for moves not yet seen, phone QA).
  const last = r.points.length - 1 - [...r.points].reverse().findIndex(Boolean);
  const first = r.points.findIndex(Boolean);
  chart.appendChild(svg("rect", { x: first, y: 0, width: last - first, height: 100, class: "white-area" }));
  chart.appendChild(svg("polygon", { points: first + ",100 " + line.join(" ") + " " + last + ",100", class: "black-area" }));
  chart.appendChild(svg("line", { x1: 0, x2: width, y1: 50, y2: 50, class: "midline", "vector-effect": "non-scaling-stroke" }));
  const complete = !running && known === r.points.length;
  const found = listedMistakes(r);
  // Beside the mistake on show, looked back at or the game's last move, as
  // "Play from here" (not while two seats play on); a button of its own, not
  // one more line of the list (verification walk).
  const mayPlayFrom = !(g.seats && g.status === "playing");
  const heading = mistakes(r).length
    ? gettext("Mistakes: the mover's chance before and after")
    : gettext("No big mistakes. The costliest moves: the mover's chance before and after");
  found.forEach(function (m) {
    chart.appendChild(svg("line", { x1: m.ply, x2: m.ply, y1: 0, y2: 100, class: "mistake", "data-ply": m.ply, "vector-effect": "non-scaling-stroke" }));
  });
  const shown = state.viewPly === null ? g.ply : state.viewPly;
  if (shown <= width) {
    chart.appendChild(svg("line", { x1: shown, x2: shown, y1: 0, y2: 100, class: "cursor", "vector-effect": "non-scaling-stroke" }));
  }
  $("#mistakes").html(
    (running ? "" : coverageNote(r, known, g.ply)) +
      (found.length
        ? "<div class='fw-semibold'>" + heading + "</div>"
        : complete
          ? "<div class='text-muted'>" + gettext("No move lost much.") + "</div>"
          : "") +
      found
        .map(
          (m) =>
            '<div class="mistake">' +
            '<button type="button" class="btn btn-link btn-sm p-0 text-start mistake-link" data-ply="' + m.ply + '">' +
            mistakeText(m) + "</button>" +
            (mayPlayFrom && shown === m.ply
              ? '<button type="button" class="btn btn-outline-primary btn-sm py-0 text-nowrap try-instead" data-ply="' + m.ply + '">' + gettext("Try another move") + "</button>"
              : "") +
            "</div>"
        )
        .join("")
  );
  $("#mistakes .try-instead").attr("title", gettext("A new game from the position before this move: the game you look at stays as it is"));
}

/** What an analysis left out, in a line: stopped before its end, or moves
 *  played since; "" for none. (Stopped after 3 of 65 positions, it said "No
 *  move lost much.") */
function coverageNote(r, known, ply) {
  const all = r.points.length;
  let words = "";
  if (known < all) words = interpolate(gettext("Stopped after %(known)s of %(all)s positions: Analyse again for the rest."), { known: known, all: all }, true);
  else if (ply > all - 1) words = interpolate(gettext("Analysed up to move %(ply)s: Analyse again for the moves since."), { ply: moveNumber(state.game, all - 1) }, true);
  return words ? "<div class='text-muted'>" + words + "</div>" : "";
}

/** One mistake, as listed: "12. d3 (Black): 80% → 40%, best was c4". */
function mistakeText(m) {
  const words = m.best
    ? gettext("%(ply)s. %(move)s (%(side)s): %(before)s% \u2192 %(after)s%, best was %(best)s")
    : gettext("%(ply)s. %(move)s (%(side)s): %(before)s% \u2192 %(after)s%");
  const numbers = {
    ply: moveNumber(state.game, m.ply),
    move: moveText(m.move),
    side: sideName(m.side),
    before: Math.round(m.before * 100),
    after: Math.round(m.after * 100),
    best: moveText(m.best),
  };
  return interpolate(words, numbers, true);
}

/** A move's proven result in the explorer's table: the API's win, loss or
 *  draw in words (another word as it is); "" for none. */
function provenWord(proven) {
  if (proven === "win") return pgettext("proven result", "win");
  if (proven === "loss") return pgettext("proven result", "loss");
  if (proven === "draw") return pgettext("proven result", "draw");
  return proven || "";
}

/** The explorer card: the line stepped into and the model's moves there. */
export function drawExplorer() {
  keepingFocus(document.getElementById("explorer"), "#explorer-line", drawExplorerCard);
}

function drawExplorerCard() {
  const e = state.explore;
  // Its word says what it does next: no "pressed" state beside it (a
  // pressed button called Back to the game read as a contradiction).
  // Not "Back to the game" either, the name of the link above the board
  // (keyboard walk: two buttons of one name); its description follows.
  if (!$("#explore").data("title")) $("#explore").data("title", $("#explore").attr("title"));
  $("#explore")
    .toggleClass("active", Boolean(e))
    .text(e ? gettext("Stop exploring") : gettext("Explore"))
    .attr("title", e ? gettext("Back to the game") : $("#explore").data("title"));
  $("#explorer-back").prop("hidden", !(e && e.line.length));
  $("#explorer-body").prop("hidden", !e);
  $("#explorer").toggleClass("near-board", Boolean(e));
  if (!e) return;
  const d = e.data;
  if (!d) {
    setLiveText("#explorer-line", gettext("Asking the model\u2026"));
    $("#explorer-moves").empty();
    return;
  }
  // The model named as the side panel's selectors name it ("Openings: light").
  const where = { model: modelName(d.model, state.game.game), ply: moveNumber(state.game, d.ply), line: d.line.map(moveText).join(" ") };
  const words = d.ply
    ? d.line.length
      ? gettext("%(model)s, after move %(ply)s then %(line)s")
      : gettext("%(model)s, after move %(ply)s")
    : d.line.length
      ? gettext("%(model)s, from the start: %(line)s")
      : gettext("%(model)s, at the start");
  let about = interpolate(words, where, true);
  if (d.to_move) about = interpolate(gettext("%(about)s; %(side)s to move"), { about: about, side: sideName(d.to_move) }, true);
  const learned = modelOtherBoard(state.game, d.model);
  if (!d.known && learned) about = interpolate(gettext("%(about)s. The model learned on %(board)s: it knows no position of this board."), { about: about, board: learned }, true);
  else if (!d.known) about = interpolate(gettext("%(about)s. The model keeps no moves here: its tree stops before this position."), { about: about }, true);
  setLiveText("#explorer-line", about);
  $(".explorer-table").prop("hidden", !d.moves.length); // no header over no moves
  $("#explorer-moves").html(
    d.moves
      .map(
        (m) =>
          '<tr><td><button type="button" class="btn btn-link btn-sm p-0 explorer-move" data-move="' + m.move + '">' + moveText(m.move) + "</button></td>" +
          '<td class="text-end">' + COUNT.format(m.visits) + '</td><td class="text-end">' +
          (shownValue(m) === null ? "" : Math.round(shownValue(m) * 100) + "%") + "</td><td>" + provenWord(m.proven) + "</td></tr>"
      )
      .join("")
  );
}
