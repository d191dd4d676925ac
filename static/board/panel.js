/*
 * Everything drawn around the board: the analysis panel and win bar, the move
 * list, the status line and the buttons' states; and the page's short
 * messages (the flash under the board, the screen-reader announcement, the
 * thinking progress bar).
 */
import { cellsAt } from "./history.js";
import { statsText, topMoves, visibleAnalysis } from "./overlays.js";
import { drawSeats } from "./seated.js";
import { SIDES, canClick, cap, humanAgainstAi, resultText, state, viewerSide } from "./state.js";

let flashTimer = null;
let progressTimer = null;

/** Show a short message under the board that fades after a few seconds;
 *  kind "info" is not an error. */
export function flash(text, kind) {
  const $f = $("#flash");
  $f.text(text).toggleClass("text-danger", kind !== "info").toggleClass("text-body-secondary", kind === "info");
  clearTimeout(flashTimer);
  flashTimer = setTimeout(() => $f.text(""), 3500);
}

/** Tell screen readers (the aria-live #announce). */
export function announce(text) {
  // Clearing first makes screen readers repeat an identical announcement.
  $("#announce").text("");
  setTimeout(() => $("#announce").text(text), 30);
}

/** Show the thinking bar, running to `seconds` from `since` (a Date.now(),
 *  default now; unknown seconds: a full striped bar). */
export function startProgress(seconds, since) {
  const $bar = $("#think-progress .progress-bar");
  $("#thinking").prop("hidden", false);
  clearInterval(progressTimer);
  if (!seconds) {
    $bar.css("width", "100%");
    return;
  }
  const start = since || Date.now();
  $bar.css("width", "0%");
  progressTimer = setInterval(function () {
    const pct = Math.min(100, ((Date.now() - start) / 1000 / seconds) * 100);
    $bar.css("width", pct + "%");
    $("#think-progress").attr("aria-valuenow", Math.round(pct));
  }, 100);
}

export function stopProgress() {
  clearInterval(progressTimer);
  $("#thinking").prop("hidden", true);
}

/** The win bar and the analysis card (best line, top candidates). The
 *  estimate is told from the viewer's side (viewerSide). */
export function drawAnalysis() {
  const analysis = visibleAnalysis();
  if (!analysis) {
    $("#analysis, #win-bar").prop("hidden", true);
    return;
  }
  const s = analysis.search;
  const black = s.side === "black" ? s.value : 1 - s.value;
  const viewer = viewerSide(),
    other = viewer === "black" ? "white" : "black";
  const share = { black: Math.round(black * 100), white: 100 - Math.round(black * 100) };
  const you = humanAgainstAi() ? "You (" + cap(viewer) + ") " : cap(viewer) + " ";
  $("#win-bar")
    .prop("hidden", false)
    .toggleClass("flipped", viewer === "white")
    .attr("title", "The AI's estimate: Black " + share.black + "%, White " + share.white + "%");
  $("#win-bar .win-black").css("width", black * 100 + "%");
  let label = you + share[viewer] + "% \u2013 " + cap(other) + " " + share[other] + "%";
  // A Gomoku win the search found against the replies it considered is
  // not called proven: a reply it left out may refute it.
  const unproven = !s.proven && s.found;
  if (s.proven) label += " (" + cap(s.side) + " proven " + s.proven + ")";
  else if (unproven) label += " (" + cap(s.side) + ": " + s.found + " found)";
  const doubt = "Found against the replies the AI considered: one it left out may refute it";
  $("#win-label")
    .text(label)
    .attr("title", unproven ? doubt : null);
  $("#analysis").prop("hidden", false);
  $("#analysis-title").text((analysis.hint ? "Hint for " : "AI ") + cap(s.side) + (analysis.hint ? "" : " thought"));
  $("#analysis-stats").text(searchStats(s));
  $("#pv").text((s.pv || []).join(" ") || s.move);
  $("#candidates").html(topMoves(s, s.move).map((m) => "<li>" + m.move + " \u2013 " + statsText(m) + "</li>").join(""));
}

/** The numbered move list, scrolled to the newest move or the one viewed. */
export function drawMoveList() {
  const g = state.game,
    $list = $("#move-list"),
    html = [];
  for (let i = 0; i < g.moves.length; i += 2) {
    html.push("<li>");
    [i, i + 1].forEach(function (k) {
      if (k >= g.moves.length) return;
      const ply = k + 1;
      const cls = "ply" + (state.viewPly === ply ? " viewed" : "") + (state.viewPly === null && ply === g.ply ? " current" : "");
      html.push(
        '<button type="button" class="' + cls + '" data-ply="' + ply + '" aria-label="move ' + ply + ", " +
          (k % 2 ? "white" : "black") + " " + g.moves[k] + '">' + g.moves[k] + "</button>"
      );
    });
    html.push("</li>");
  }
  $list.html(html.join(""));
  const $target = state.viewPly === null ? $list.find("[data-ply]").last() : $list.find('[data-ply="' + state.viewPly + '"]');
  if ($target.length) {
    const top = $target.position().top + $list.scrollTop();
    if (state.viewPly === null) $list.scrollTop($list[0].scrollHeight);
    else $list.scrollTop(top - $list.height() / 2);
  }
}

function statusText() {
  const g = state.game;
  if (state.explore) return "Exploring the model's tree (Back to the game returns)";
  if (state.viewPly !== null) return "Viewing move " + state.viewPly + " of " + g.ply + " (End returns to the game)";
  if (g.status === "finished") return "Game over. " + resultText(g.result);
  const who = cap(g.to_move);
  if (state.thinking && !state.thinking.hint) return who + " (AI) is thinking\u2026";
  if (state.thinking) return "Looking for a hint for " + who + "\u2026";
  if (g.players[g.to_move].kind === "ai") return who + " (AI) to move" + (state.paused ? " \u2013 paused" : "");
  if (g.legal_moves.length === 1 && g.legal_moves[0] === "pass") return who + " has no move and must pass";
  return who + " to move";
}

const COUNT = new Intl.NumberFormat("en");

/** What the search did, and whose visits the candidates' counts are: this
 *  search's simulations, and the opening knowledge's (the tree model's
 *  studies of the position) when it knew the position. */
export function searchStats(s) {
  let text = "This search: " + COUNT.format(s.simulations) + " simulations in " + s.elapsed.toFixed(2) + " s";
  const known = (s.root_visits || 0) - s.simulations;
  if (known > 0) text += "; the visits below include " + COUNT.format(known) + " from the opening knowledge";
  return text;
}

/** Status, disc counts, result, and which buttons can be used now. */
export function drawPanel() {
  const g = state.game;
  $("#status").text(statusText());
  // The counts of the position on show (a viewed move, the explorer's).
  const shown = state.explore && state.explore.data ? state.explore.data.board.cells : state.viewPly === null ? g.board.cells : cellsAt(state.viewPly) || g.board.cells;
  const counts = { black: 0, white: 0 };
  shown.forEach(function (row) {
    row.forEach(function (c) {
      if (c) counts[c] += 1;
    });
  });
  $("#counts").prop("hidden", g.game !== "reversi");
  $("#count-black").text(counts.black);
  $("#count-white").text(counts.white);
  $("#result").prop("hidden", g.status !== "finished").text(resultText(g.result));
  const anyAi = SIDES.some((s) => g.players[s].kind === "ai");
  $("#pause").prop("disabled", !anyAi).text(state.paused ? "Resume" : "Pause").attr("aria-pressed", state.paused);
  $("#undo").prop("disabled", g.moves.length === 0 || state.busy);
  $("#hint").prop("disabled", !canClick());
  $("#pass").prop("hidden", !(canClick() && g.legal_moves.indexOf("pass") >= 0));
  $("#flip").attr("aria-pressed", state.flipped);
  $(".gomoku-only").toggle($("#game-select").val() === "gomoku");
  drawSeats();
}
