/*
 * Everything drawn around the board: the analysis panel and win bar, the move
 * list, the status line and the buttons' states; and the page's short
 * messages (the flash under the board, the screen-reader announcement, the
 * thinking progress bar).
 */
import { grey } from "./buttons.js";
import { optionsText } from "./controls.js";
import { endCardUp, endWords, focusEndCard } from "./ending.js";
import { cellsAt } from "./history.js";
import { estimatesMayShow, estimatesUnasked, layerKey, lookAheadWords, shownValue, statsText, tooFewVisits, topMoves, treeBestOver, visibleAnalysis } from "./overlays.js";
import { drawOpening, openingStep, openingStones, openingStonesKept } from "./opening.js";
import { drawSeats } from "./seated.js";
import { setScoredText } from "./scoretext.js";
import { COUNT, SIDES, canClick, discCounts, endedOffBoard, humanAgainstAi, humanSide, humanToMove, isLoa, moveNumber, moveText, pairsNumbered, mySeat, onlyWatching, resultText, sideName, state, turnWords, viewerSide } from "./state.js";

let flashTimer = null;
let progressTimer = null;
/** Whether a search's progress is on show (startProgress until stopProgress). */
let progressRunning = false;

/** Whether the message on show is about the position (a pass, a hint). */
let flashAboutPosition = false;

/** The flash() call of the message on show, and of one about the position
 *  that a passing message covers: it comes back once that goes (Swap2 QA:
 *  a tap's "choose first" took the computer's three stones' names away). */
let shownFlash = null;
let coveredFlash = null;

/** Show a short message under the board that fades after a few seconds
 *  (#flash is a live region: screen readers say it, no announce() beside,
 *  unless `heard`: said within an announce() of more, it is only shown);
 *  kind "info" is not an error, "position" an info about the position on
 *  the board: it stays while that position does, and goes when the next
 *  move lands (clearPositionFlash). A forced pass's word faded while the
 *  player still wondered why the computer had not moved. Kind "stays" is
 *  an error that stays until the next message or clearFlash(): why the
 *  computer paused itself. Kind "turn" is a "position" that changes whose
 *  turn it is (a pass), in bold: grey, it was missed (QA). Kind "said" is
 *  an "info" that the friend said in the chat, cut to two lines (friends
 *  QA: 70 emoji took half a phone's screen). */
export function flash(text, kind, heard) {
  const call = [text, kind];
  // A friend's chat line: two lines at most (the chat has it whole).
  const said = kind === "said";
  if (said) kind = "info";
  const turn = kind === "turn";
  const aboutPosition = kind === "position" || turn;
  const stays = aboutPosition || kind === "stays";
  coveredFlash = stays ? null : flashAboutPosition && $("#flash").text() ? shownFlash : coveredFlash;
  shownFlash = call;
  flashAboutPosition = aboutPosition;
  if (flashAboutPosition) kind = "info";
  const $f = $("#flash");
  $f.attr("aria-live", heard ? "off" : "polite");
  $f.text(text)
    .toggleClass("text-danger", kind !== "info")
    .toggleClass("text-body-secondary", kind === "info" && !turn)
    .toggleClass("fw-semibold", turn)
    .toggleClass("flash-said", said)
    .toggleClass("flash-position", aboutPosition);
  clearTimeout(flashTimer);
  if (!stays) flashTimer = setTimeout(passed, 3500);
}

/** A passing message's time is up: it goes, and the message about the
 *  position it covered comes back (shown again, not said again). */
function passed() {
  $("#flash").text("");
  const covered = coveredFlash;
  coveredFlash = null;
  if (covered) flash(covered[0], covered[1], true);
}

let recordNoteTimer = null;

/** Say `text` under the record's buttons, where Copy and Import were
 *  pressed: for a while if `kind` is "info", else an error, until the next
 *  import or another game (records QA: three lines on a small phone went
 *  in 6 s, unread). */
export function noteRecord(text, kind) {
  const $note = $("#record-note");
  $note.text(text).toggleClass("text-danger", kind !== "info").toggleClass("text-body-secondary", kind === "info");
  $note[0].scrollIntoView({ block: "nearest" });
  clearTimeout(recordNoteTimer);
  if (kind === "info") recordNoteTimer = setTimeout(clearRecordNote, 6000);
}

/** The flash() call of the message about the position on show, or null. */
export function positionFlash() {
  return flashAboutPosition && $("#flash").text() ? shownFlash : null;
}

/** Take down what Copy or Import said. */
export function clearRecordNote() {
  clearTimeout(recordNoteTimer);
  $("#record-note").text("");
}

/** Take down the flash message if it was about the position before (and
 *  forget one about it that a passing message covers). */
export function clearPositionFlash() {
  coveredFlash = null;
  if (flashAboutPosition) clearFlash();
}

/** Take down the passing message `text` if it is on show (what it said no
 *  longer holds): the message about the position it covered comes back. */
export function withdrawFlash(text) {
  if (flashAboutPosition || $("#flash").text() !== text) return;
  clearTimeout(flashTimer);
  passed();
}

/** Take down the flash message: what it said no longer holds. */
export function clearFlash() {
  clearTimeout(flashTimer);
  coveredFlash = null;
  $("#flash").text("");
}

/** Set a live region's text only when it changes: screen readers read out
 *  every write, even of the same words. */
export function setLiveText(selector, text) {
  if ($(selector).text() !== text) $(selector).text(text);
}

/** `el` if it is still shown, else the element drawn in its place since
 *  (the same data-square, data-ply or data-move within `root`), else null:
 *  where the keyboard's focus goes back to. */
export function stillShown(el, root) {
  if (!el) return null;
  if (document.contains(el) && $(el).is(":visible") && !el.disabled) return el;
  const key = ["data-square", "data-ply", "data-move"].find((name) => el.hasAttribute(name));
  // Of the same kind: a mistake's button and the chart's line share a data-ply.
  const twin = key && root.querySelector(el.tagName + "[" + key + '="' + el.getAttribute(key) + '"]');
  return twin && $(twin).is(":visible") ? twin : null;
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
  progressRunning = true;
  placeThinkingRow();
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
  progressRunning = false;
  placeThinkingRow();
}

/** The thinking row shows while a search runs. Where the computer's
 *  estimates show unasked (AI against AI, or its view of its moves switched
 *  on) it has a line of its own, kept between searches, unseen, so that the
 *  board below it does not jump down and back up at every move of the AI,
 *  nor up under a player's last click (releaseRows). Elsewhere a search
 *  (the computer's move, a hint) shows in the win bar's line, which such a
 *  game keeps from its start: nothing shows there while a search runs (two
 *  kept lines left a 58 px band above the board against the computer). */
function placeThinkingRow() {
  const g = state.game;
  if (estimatesUnasked()) state.thinkingRowFor = g.id; // the computer plays, the game goes on
  // A watcher sees the computer think but has no estimates: its bar has
  // the one line (the win bar's, kept empty below it, left a 65 px band).
  if (g && onlyWatching() && g.status === "playing" && SIDES.some((side) => g.players[side].kind === "ai")) state.thinkingRowFor = g.id;
  const keep = Boolean(g) && state.thinkingRowFor === g.id;
  const held = heldControl();
  $("#thinking").toggleClass("idle", !progressRunning).prop("hidden", !progressRunning && !keep);
  // Another page's search is that page's to stop.
  $("#stop").prop("hidden", Boolean(state.thinking && state.thinking.remote));
  $("#win-bar").toggleClass("yielding", progressRunning && !keep);
  held();
}

/** A game just over that nobody played at this page (the computer against
 *  itself, a game watched): the rows kept above its board for searches and
 *  estimates, empty for good now, go (they left a 54 px band, and on a
 *  laptop pushed the buttons under the end card out of sight); no player's
 *  click is under the board that moves up. Where a person plays they stay,
 *  the end card closed too: the board does not jump under the click that
 *  ended the game, nor its buttons down at an Undo after it. */
export function releaseRows() {
  state.thinkingRowFor = null;
  state.winBarShownFor = null;
  placeThinkingRow();
}

/** The page's own scrolls are instant, not Bootstrap's smooth scrolling: a
 *  focus moved by a redraw while one ran (the explorer's answer coming)
 *  stopped it halfway. */
const JUMP = { behavior: "instant" };

/** Whether `el` sits under the board (a phone's one column), not beside it. */
function underBoard(el) {
  return el.getBoundingClientRect().top >= document.getElementById("board").getBoundingClientRect().bottom;
}

/** Bring a card of the side panel just opened (the explorer, the game's
 *  analysis) into sight. Come up under a phone's board (its class
 *  `near-board`), the board with its status and buttons at the window's top
 *  and the card under them (its table or chart still to come: as much room
 *  as there is); else, or where the board leaves it no room (a phone held
 *  sideways), the card itself. */
export function revealCard(card) {
  const column = document.getElementById("board-column").getBoundingClientRect();
  if (card.classList.contains("near-board") && underBoard(card) && column.height + 150 <= window.innerHeight) window.scrollBy({ top: column.top, ...JUMP });
  else card.scrollIntoView({ block: "nearest", ...JUMP });
}

/** Note where the computer's switch or setting in use (the focused one)
 *  is, and return what keeps it there: the window scrolls by as much as a
 *  change above it moved it. On a phone they are under the board and its
 *  buttons: turning one on brought Pause (a second row of buttons), the
 *  steps' row and the thinking row, and moved the other switch 104 px down
 *  under the finger about to tap it. (Browsers anchor scrolling so, but not
 *  at the page's top.) Not beside the board, nor other controls: the
 *  computer's view turned on, say, brings its card above its switch, and
 *  holding the switch scrolled the board away. */
export function heldControl() {
  const el = document.activeElement;
  const players = el && el.closest("#players");
  if (!players || !el.getClientRects().length) return () => {};
  if (!underBoard(players)) return () => {}; // beside it, nothing moves it
  const before = el.getBoundingClientRect().top;
  return function () {
    if (!document.contains(el) || !el.getClientRects().length) return; // gone, or hidden
    const moved = el.getBoundingClientRect().top - before;
    if (Math.abs(moved) >= 1 && window.scrollY + moved >= 0) window.scrollBy({ top: moved, ...JUMP });
  };
}

/** The win bar and the analysis card (best line, top candidates). The
 *  estimate is told from the viewer's side (viewerSide). */
export function drawAnalysis() {
  const analysis = visibleAnalysis();
  const g = state.game;
  if (!analysis) {
    // Once shown in this game, the bar keeps its line (empty) to its end;
    // where an estimate may come (the computer's moves, a hint), it has its
    // line from the start, so the board does not move when the first comes,
    // nor when the game ends (no hint comes then, and it moved up under the
    // winning click; releaseRows where nobody here played).
    const keep = state.winBarShownFor === g.id || estimatesMayShow();
    if (keep) state.winBarShownFor = g.id;
    drawIdleCard();
    $("#win-bar").prop("hidden", !keep).addClass("idle");
    return;
  }
  state.winBarShownFor = g.id;
  const s = analysis.search;
  // The chosen move's chance, as the hint says it; the root's average (the
  // search's value) mixes in the moves it only explored, and read lower.
  // The look-ahead's choice: the tree's best move's. A move of too few
  // visits has none, nor has its search: the bar keeps its line, empty.
  const over = treeBestOver(s);
  const chosen = over || (s.moves || []).find((m) => m.move === s.move);
  const shown = chosen ? shownValue(chosen) : null;
  const value = chosen && tooFewVisits(chosen) ? null : shown !== null && shown !== undefined ? shown : s.value;
  $("#win-bar").prop("hidden", false).toggleClass("idle", value === null);
  if (value !== null) drawWinBar(s, value);
  showCard(true);
  const title = analysis.hint ? gettext("Hint for %(side)s") : gettext("What %(side)s's AI thought");
  $("#analysis-title").text(interpolate(title, { side: sideName(s.side) }, true));
  // A hint for a person's side searches with no model.
  const player = g.players[s.side];
  const modelled = Boolean(player && player.kind === "ai" && player.model && player.model !== "none");
  $("#analysis-stats").text(searchStats(s, modelled));
  $("#pv").text((s.pv || []).map(moveText).join(" ") || moveText(s.move));
  // The move chosen first and marked: the alpha-beta or threat search may
  // choose another than the most visited.
  const candidates = topMoves(s, s.move).sort((a, b) => (b.move === s.move) - (a.move === s.move));
  const why = gettext("The computer's look-ahead over threats chose this move: the counts are its tree search's, which rated it lower");
  $("#candidates")
    .empty()
    .append(
      candidates.map(function (m) {
        const words = moveText(m.move) + " \u2013 " + statsText(m);
        if (m.move !== s.move) return $("<li>").text(words);
        // Translators: the candidate the look-ahead chose: "h6 – 0 visits (chosen by the look-ahead)".
        if (over) return $('<li class="fw-semibold">').attr("title", why).text(interpolate(gettext("%(candidate)s (%(why)s)"), { candidate: words, why: lookAheadWords() }, true));
        // Translators: the move the AI chose in its list of candidates: "e11 – 12 visits, win 27% (chosen)".
        return $('<li class="fw-semibold">').text(interpolate(gettext("%(candidate)s (chosen)"), { candidate: words }, true));
      }),
    );
  drawLayerKey();
  const card = $("#analysis")[0];
  state.analysisCard.height = Math.max(state.analysisCard.height, card.offsetHeight);
}

/** The win bar: `value`, the chance of search `s`'s side, told from the
 *  viewer's side, with what the search proved or found. */
function drawWinBar(s, value) {
  const black = s.side === "black" ? value : 1 - value;
  const viewer = viewerSide(),
    other = viewer === "black" ? "white" : "black";
  const share = { black: Math.round(black * 100), white: 100 - Math.round(black * 100) };
  $("#win-bar")
    .prop("hidden", false)
    .toggleClass("flipped", viewer === "white")
    .attr("title", interpolate(gettext("The AI's estimate: Black %(black)s%, White %(white)s%"), share, true));
  $("#win-bar .win-black").css("width", black * 100 + "%");
  const shares = { side: sideName(viewer), mine: share[viewer], other: sideName(other), theirs: share[other] };
  let label = humanAgainstAi()
    ? interpolate(gettext("You (%(side)s) %(mine)s% \u2013 %(other)s %(theirs)s%"), shares, true)
    : interpolate(gettext("%(side)s %(mine)s% \u2013 %(other)s %(theirs)s%"), shares, true);
  // A Gomoku win the search found against the replies it considered is
  // not called proven: a reply it left out may refute it.
  const unproven = !s.proven && s.found;
  const note = s.proven ? provenNote(s.side, s.proven) : unproven ? foundNote(s.side, s.found) : "";
  // The note first: a phone's line, cut at its end, kept the percentages and
  // lost the proof ("You (Black) 100% – White 0% (Black …"). A proof says
  // all: its 100% – 0% only made the line too long for a phone (records
  // walk: "White proven win · Black 0% – White …").
  // Translators: a note on the win bar's estimate, and the estimate: "Black: win found · Black 100% – White 0%".
  if (s.proven) label = note;
  else if (note) label = interpolate(gettext("%(note)s \u00b7 %(estimate)s"), { estimate: label, note: note }, true);
  const doubt = gettext("Found against the replies the AI considered: one it left out may refute it");
  $("#win-label")
    .text(label)
    .attr("title", unproven ? doubt : null);
}

/** The key to what lies over the board: each colour on show, with its
 *  swatch (the colours alone said nothing: which was the hint, what the
 *  green meant). */
function drawLayerKey() {
  const words = {
    studied: isLoa() ? gettext("moves studied: the thicker the arrow, the more") : gettext("moves studied: the stronger the colour, the more"),
    chosen: gettext("the move chosen"),
    win: gettext("a proven win"),
    loss: gettext("a proven loss"),
  };
  $("#layer-key")
    .attr("data-game", state.game.game)
    .html(layerKey().map((item) => '<li><span class="swatch ' + item + '" aria-hidden="true"></span>' + words[item] + "</li>").join(""));
}

/** The analysis card with its search (`full`) or without (idle). Once shown
 *  in a game it keeps its tallest height there, so that the side panel's
 *  other cards stay put as hints and the computer's moves come and go (they
 *  moved 258 px on each). */
function showCard(full) {
  const g = state.game;
  if (!state.analysisCard || state.analysisCard.id !== g.id) state.analysisCard = { id: g.id, height: 0 };
  $("#analysis")
    .prop("hidden", false)
    .css("min-height", state.analysisCard.height ? state.analysisCard.height + "px" : "");
  $("#analysis .analysis-body").prop("hidden", !full);
  $("#analysis-idle").prop("hidden", full);
}

/** No search to show: the card, if it has shown in this game, keeps its
 *  place to the game's end and says so; else it is hidden. */
function drawIdleCard() {
  const g = state.game;
  const shown = state.analysisCard && state.analysisCard.id === g.id;
  // Between seats no hint comes until the end (a game shared after one).
  // Exploring, the explorer's card says what the model knows (records walk:
  // a tall card above it said only "Nothing for this position yet.").
  if (!shown || g.status === "finished" || g.seats || state.explore) {
    $("#analysis").prop("hidden", true);
    return;
  }
  showCard(false);
  $("#analysis-title").text(gettext("What the computer thinks"));
  $("#analysis-stats").text("");
  const mayAsk = humanToMove() && !g.seats && state.viewPly === null;
  $("#analysis-idle").text(mayAsk ? gettext("Nothing for this position yet: ask for a hint.") : gettext("Nothing for this position yet."));
}

/** "Black proven win": the search proved `side`'s result (the API's win,
 *  loss or draw; another word is shown as it is). */
function provenNote(side, proven) {
  const words = {
    win: () => gettext("%(side)s proven win"),
    loss: () => gettext("%(side)s proven loss"),
    draw: () => gettext("%(side)s proven draw"),
  }[proven];
  return words ? interpolate(words(), { side: sideName(side) }, true) : proven;
}

/** "Black: win found": the result the search found for `side`, against
 *  the replies it considered (not proven); as provenNote. */
function foundNote(side, found) {
  const words = {
    win: () => gettext("%(side)s: win found"),
    loss: () => gettext("%(side)s: loss found"),
    draw: () => gettext("%(side)s: draw found"),
  }[found];
  return words ? interpolate(words(), { side: sideName(side) }, true) : found;
}

/** The move list's buttons as drawn last (drawMoveList). */
let listed = null;

/** The move list, scrolled to the newest move or the one viewed: Black's
 *  and White's moves side by side, each numbered as the page numbers moves
 *  everywhere else (the stones, "Move 30 of 40", the mistakes: moveNumber),
 *  a pass without a number of its own. The move shown
 *  is the list's one tab stop, and keeps the focus over a redraw: the arrow
 *  keys step through the game from there. */
export function drawMoveList() {
  const g = state.game,
    $list = $("#move-list"),
    focused = $list.find(":focus").length > 0,
    html = [];
  for (let i = 0; i < g.moves.length; i += 2) {
    html.push("<li>");
    [i, i + 1].forEach(function (k) {
      if (k >= g.moves.length) return;
      const ply = k + 1;
      // Numbered in pairs, a pass is a move as any, and White's move has
      // Black's number (shown once, before Black's).
      const paired = pairsNumbered(g);
      const passed = g.moves[k] === "pass" && !paired;
      const number = moveNumber(g, ply);
      html.push('<span class="ply-number" aria-hidden="true">' + (passed || (paired && k % 2) ? "" : number) + "</span>");
      const shown = state.viewPly === null ? ply === g.ply : state.viewPly === ply;
      const cls = "ply" + (state.viewPly === ply ? " viewed" : "") + (state.viewPly === null && ply === g.ply ? " current" : "");
      const move = moveText(g.moves[k]);
      let label = k % 2 ? gettext("move %(ply)s, White %(move)s") : gettext("move %(ply)s, Black %(move)s");
      if (passed) label = k % 2 ? gettext("White passed after move %(ply)s") : gettext("Black passed after move %(ply)s");
      label = interpolate(label, { ply: number, move: move }, true);
      // At the start this first move holds the focus: it says it is not on
      // the board yet (keyboard walk: "move 1, black f5" over an empty one).
      if (state.viewPly === 0 && ply === 1) label = interpolate(gettext("the starting position; next: %(move)s"), { move: label }, true);
      html.push(
        '<button type="button" tabindex="-1" class="' + cls + '" data-ply="' + ply + '"' + (shown ? ' aria-current="step"' : "") + ' aria-label="' + label + '">' + move + "</button>"
      );
    });
    html.push("</li>");
  }
  // A redraw that changes nothing (who is connected changed, say) leaves the
  // list be: a click on a move in it is not lost, nor the place it was
  // scrolled to.
  if (html.join("") === listed) return;
  listed = html.join("");
  $list.html(listed);
  const $target = state.viewPly === null ? $list.find("[data-ply]").last() : $list.find('[data-ply="' + state.viewPly + '"]');
  // At the start (before move 1) the first move is the stop.
  const $stop = $target.length ? $target : $list.find("[data-ply]").first();
  $stop.attr("tabindex", "0");
  if (focused && $stop.length) $stop[0].focus({ preventScroll: true });
  // The start in sight too (keyboard walk: Home left the focused first
  // move scrolled out of the list).
  if (state.viewPly === 0) $list.scrollTop(0);
  if ($target.length) {
    const top = $target.position().top + $list.scrollTop();
    if (state.viewPly === null) $list.scrollTop($list[0].scrollHeight);
    else $list.scrollTop(top - $list.height() / 2);
  }
}

/** A watcher's game without seats, still on, has no page playing it. */
function playingPageClosed() {
  const g = state.game;
  return state.watching && !g.seats && g.status === "playing" && state.presence && state.presence.playing === 0;
}

/** A game of the computer against itself with a clock goes on without the
 *  page playing it: the server plays its moves (services/ai.py's unasked
 *  moves), as its clocks run. */
function playsOnWithoutItsPage(g) {
  return Boolean(g.clock) && SIDES.every((side) => g.players[side].kind === "ai");
}

function statusText() {
  const g = state.game;
  if (state.explore) return gettext("Exploring the opening knowledge");
  if (state.viewPly === 0) return gettext("The starting position");
  if (state.viewPly !== null) {
    // Which move, and whose (family QA: a child read "Move 1 of 3" and
    // could not tell who had played it); a pass has no mark on the board
    // (phone QA). Moves alternate colours, passes included.
    const move = g.moves[state.viewPly - 1];
    const words = { ply: moveNumber(g, state.viewPly), plies: moveNumber(g, g.ply), side: sideName(state.viewPly % 2 === 1 ? "black" : "white"), move: move };
    if (move !== "pass") return interpolate(gettext("Move %(ply)s of %(plies)s: %(side)s %(move)s"), words, true);
    return interpolate(gettext("After move %(ply)s of %(plies)s: %(side)s passed"), words, true);
  }
  // The result says the game is over ("Game over. " before it pushed a
  // narrow column's disc counts to a line of their own, and the board down).
  if (g.status === "finished") return resultText(g.result);
  const who = { side: sideName(g.to_move) };
  // A search for another side has ended: its move came (by the socket)
  // before its answer.
  // Nor is a person "thinking" as the AI: a Swap2 choice of colour swaps
  // the players, and its snapshot came first (verification walk: "White
  // (AI) is thinking…" over the person's move, once the computer took Black).
  const thinking = state.thinking && state.thinking.side === g.to_move && (state.thinking.hint || g.players[g.to_move].kind === "ai") ? state.thinking : null;
  // In a Swap2 opening no colour is the computer's yet (renju walk:
  // "White (AI) is thinking…" while it chose its colour).
  const step = openingStep();
  if (thinking && !thinking.hint && step) return step === "place3" || step === "place2" ? gettext("The computer is placing its stones\u2026") : gettext("The computer is choosing\u2026");
  if (thinking && !thinking.hint && state.paused) return interpolate(gettext("%(side)s (AI) is thinking, then pauses"), who, true);
  if (thinking && !thinking.hint) return interpolate(gettext("%(side)s (AI) is thinking\u2026"), who, true);
  if (thinking) return interpolate(gettext("Looking for a hint for %(side)s\u2026"), who, true);
  // Between two browsers each player reads whose turn it is in their words.
  const mine = mySeat();
  if (step) {
    // Its bar says what the friend does next, whom nothing says is not
    // there yet; and a computer that waits, that it waits (verification
    // walk: "the computer chooses ..." over a game standing still).
    if (mine && mine !== g.to_move && !g.seats[g.to_move]) return gettext("Swap2 opening: waiting for your friend to join");
    if (g.players[g.to_move].kind === "ai" && state.paused) return gettext("Swap2 opening \u2013 paused");
    return gettext("Swap2 opening");
  }
  if (mine) return turnWords(g, mine);
  if (g.players[g.to_move].kind === "ai") {
    // A watcher of a game without seats: its computer moves when the page
    // playing it asks, so that page's pause, or its absence, is said.
    if (playingPageClosed() && !playsOnWithoutItsPage(g)) return interpolate(gettext("%(side)s (AI) to move \u2013 stopped"), who, true);
    const host = state.watching && !g.seats && state.presence;
    const paused = state.paused || (host && host.paused > 0 && host.paused === host.playing);
    return interpolate(paused ? gettext("%(side)s (AI) to move \u2013 paused") : gettext("%(side)s (AI) to move"), who, true);
  }
  if (g.legal_moves.length === 1 && g.legal_moves[0] === "pass") return interpolate(gettext("%(side)s has no move and must pass"), who, true);
  // The one person playing the computer reads it as a friend's game says it.
  // Paused on the player's own move: said now, not after it (QA: only the
  // button's Resume told it).
  if (humanSide() === g.to_move && state.paused) return interpolate(gettext("Your move (%(side)s) \u2013 the computer is paused"), who, true);
  if (humanSide() === g.to_move) return interpolate(gettext("Your move (%(side)s)"), who, true);
  return interpolate(gettext("%(side)s to move"), who, true);
}

/** What the search did, and whose visits the candidates' counts are: this
 *  search's simulations, and those its tree held already: its earlier
 *  searches', and the opening knowledge's (the tree model's studies of the
 *  position) when `modelled` (QA: with "No openings" they were said to be
 *  the opening knowledge's). */
export function searchStats(s, modelled) {
  const known = (s.root_visits || 0) - s.simulations;
  const numbers = { n: COUNT.format(s.simulations), seconds: s.elapsed.toFixed(2), known: COUNT.format(known) };
  // A forced line (Gomoku's threat search, an exact endgame) can end a
  // search before its first simulation.
  if (!s.simulations && (s.proven || s.found)) return gettext("This search found a forced result at once: no simulation was needed");
  const text =
    known > 0 && modelled
      ? ngettext(
          "This search: %(n)s simulation in %(seconds)s s; the visits below include %(known)s from the opening knowledge and its earlier searches",
          "This search: %(n)s simulations in %(seconds)s s; the visits below include %(known)s from the opening knowledge and its earlier searches",
          s.simulations
        )
      : known > 0
        ? ngettext(
            "This search: %(n)s simulation in %(seconds)s s; the visits below include %(known)s from its earlier searches",
            "This search: %(n)s simulations in %(seconds)s s; the visits below include %(known)s from its earlier searches",
            s.simulations
          )
        : ngettext("This search: %(n)s simulation in %(seconds)s s", "This search: %(n)s simulations in %(seconds)s s", s.simulations);
  return interpolate(text, numbers, true);
}

/** The page's own title, as the template wrote it. */
const TITLE = document.title;

/** The tab's title says when it is this player's move against the computer
 *  or a friend, so that a player in another tab sees it, as on lichess. */
function drawTitle() {
  const g = state.game;
  const opponent = Boolean(g.seats) || humanAgainstAi();
  // Translators: before the page's title in the browser's tab: "Your move · Reversi, …".
  document.title = opponent && humanToMove() ? interpolate(gettext("Your move \u00b7 %(title)s"), { title: TITLE }, true) : TITLE;
}

/** Whether Undo has a move to take back: one after the opening's stones,
 *  and against the computer one of the person's (the server's undo goes
 *  back to their turn; before their first move the computer would only play
 *  its move again). Moves alternate colours, passes included. */
export function hasUndo(g) {
  if (g.status === "finished" && endedOffBoard(g.result)) return false;
  const floor = openingStones(g);
  if (!humanAgainstAi()) return g.moves.length > floor;
  for (let ply = floor; ply < g.moves.length; ply++) {
    if (g.players[ply % 2 === 0 ? "black" : "white"].kind === "human") return true;
  }
  return false;
}

/** Why Undo is off now (its title, which a tap on it says). */
export function noUndoReason(g) {
  if (g.status === "finished" && endedOffBoard(g.result)) return gettext("Nothing is taken back once a game is lost on time or resigned");
  if (!g.moves.length) return gettext("No move has been played yet");
  return openingStonesKept(g) || gettext("None of your moves can be taken back yet");
}

/** Why Hint is off now (its title, which a tap on it, or the h key, says),
 *  or null while it is on. */
export function noHintReason(g) {
  if (g.status === "finished") return gettext("The game is over");
  if (state.explore) return gettext("Close the explorer to ask for a hint");
  if (state.viewPly !== null) return gettext("Back to the game's last move to ask for a hint");
  if (openingStep()) return gettext("No hint during the Swap2 opening");
  if (!humanToMove()) return gettext("A hint is for your move");
  if (state.thinking) return gettext("A hint is on its way");
  if (state.busy) return gettext("A new game is starting");
  return null;
}

/** Copy the text of the field `input` to the clipboard: a promise of true,
 *  or of false where it is only selected (for the player to copy). A page
 *  served over http to another machine (a phone at the server's address)
 *  has no clipboard API, and a browser may refuse it (no permission, the
 *  page not focused): the browser's copy command of the selection copies
 *  it there. */
export function copyField(input) {
  const byCommand = function () {
    input.focus();
    input.select();
    try {
      return document.execCommand("copy");
    } catch (error) {
      return false;
    }
  };
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(input.value).then(() => true, byCommand);
  return Promise.resolve(byCommand());
}

/** Set a button's text, keeping it as wide as the widest of its `labels`
 *  (measured once it shows), so that what stands beside it does not move as
 *  its text changes (Pause to Resume moved Share 15 px). */
export function labelButton($button, text, labels) {
  const button = $button[0];
  if (!button.style.minWidth && button.offsetParent !== null) {
    // Each word's own width, not the row's share of it (a phone's buttons
    // share the board's width upright, and Pause kept that share sideways).
    button.style.flex = "none";
    const widths = labels.map(function (label) {
      button.textContent = label;
      return button.getBoundingClientRect().width;
    });
    button.style.flex = "";
    button.style.minWidth = Math.ceil(Math.max(...widths)) + "px";
  }
  $button.text(text);
}

/** Resign's words, `text` (default: as they are), in the width of the wider
 *  of its two: its question moves nothing beside it (verification QA:
 *  "Really resign?" pushed the step buttons onto a line of their own). */
export function labelResign(text) {
  labelButton($("#resign"), text || $("#resign").text(), [gettext("Resign"), gettext("Resign?")]);
}

/** Bring the board into sight after a control below or beside it (a move
 *  of the list or the explorer, the chart, a mistake), tapped where `at`
 *  says, changed what it shows: the whole board, with the status above it
 *  (there the way back to the game) if it fits, where the control stays in
 *  sight too; else, when less than half of the board shows (a phone had
 *  scrolled it away: 44 px of it, or none), the board and its status. */
export function revealBoard(at) {
  const box = document.getElementById("board").getBoundingClientRect();
  if (box.top >= 0 && box.bottom <= window.innerHeight) return;
  const column = document.getElementById("board-column");
  const tries = box.top < 0 ? [column.getBoundingClientRect().top, box.top] : [box.bottom - window.innerHeight];
  const by = tries.find((by) => at.top - by >= 0 && at.bottom - by <= window.innerHeight);
  if (by !== undefined) return window.scrollBy({ top: by, ...JUMP });
  const seen = Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0);
  if (seen < box.height / 2) column.scrollIntoView({ block: "nearest", ...JUMP });
}

/** A control the keyboard can use now: in the page, shown, not off. */
function usable(el) {
  return document.contains(el) && $(el).is(":visible") && !el.disabled;
}

/** After a redraw: if the control around the board that held the keyboard's
 *  focus went (off, hidden), the focus goes to the next control still usable
 *  in its row, else the one before; from Back to the game, and from Stop
 *  (after it the player moves), to the board. It fell to the page's body,
 *  and the next Tab started from the top. */
function keepFocusNear(focused) {
  const column = document.getElementById("board-column");
  if (!focused || !column.contains(focused) || $(focused).closest("#board").length || usable(focused)) return;
  const row = $(focused).closest("#step-controls, #play-controls, #offer-bar, #swap2-bar, #gone-bar")[0] || column;
  const around = $(row)
    .find("button, input, select, a[href]")
    .toArray()
    .filter((el) => usable(el) && !$(el).closest("#board").length);
  const after = around.find((el) => focused.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
  const cell = document.querySelector('#board .cell[tabindex="0"]');
  // A button gone with the game's end (Resign, Abort, Offer a draw): the
  // card that says how it ended, on the board until it shows.
  const ended = state.game.status === "finished" && endCardUp() && !$(focused).closest("#step-controls").length && $(focused).closest("#play-controls").length;
  if (ended) focusEndCard();
  const toBoard = focused.id === "back-to-game" || focused.id === "stop" || ended;
  const next = toBoard ? cell : after || around.reverse()[0] || cell;
  if (next) next.focus({ preventScroll: true });
}

/** Say `text` in the status line before a game is on show (the page
 *  starting, or waiting for the server). */
export function sayStatus(text) {
  $("#status").text(text);
  statusChanged();
}

/** How long the status line stays the same before a screen reader hears it
 *  (keyboard walk: "White (AI) to move", "White (AI) is thinking…" and
 *  "Your move (Black)" came within 0.3 s of each move, and the result
 *  before the move that ended the game, which #announce says). */
const STATUS_SETTLES = 600;
let statusTimer = null;
let statusSeen = null;

/** The status line was drawn: once it has settled, its words go to the
 *  reader's copy of it, if new; a player's own game's end in the end card's
 *  words (ending.endWords). */
function statusChanged() {
  const text = $("#status").text();
  if (text === statusSeen) return;
  statusSeen = text;
  clearTimeout(statusTimer);
  statusTimer = setTimeout(function () {
    statusTimer = null;
    say(endWords() ?? text);
  }, STATUS_SETTLES);
}

/** Put `words` in the reader's copy of the status line, if new ("": none
 *  yet). */
function say(words) {
  if (words && $("#status-said").text() !== words) $("#status-said").text(words);
}

/** The end card just showed: its words are said, now if the status line
 *  has settled, else when it does. */
export function sayEnd() {
  if (!statusTimer) say(endWords());
}

/** Status, disc counts, result, and which buttons can be used now. */
export function drawPanel() {
  const g = state.game;
  const focused = document.activeElement;
  setScoredText("#status", statusText());
  statusChanged();
  // Said under the board until a move comes, or the page is open again;
  // once the drawing is done (a move that came with it takes down what was
  // said about the position before).
  if (playingPageClosed()) {
    setTimeout(function () {
      const closed = playsOnWithoutItsPage(g)
        ? gettext("No page is playing this game now: the server plays on, as its clocks run.")
        : gettext("No page is playing this game now: it goes on once the page that played it opens it again.");
      if (playingPageClosed() && $("#flash").text() !== closed) flash(closed, "position");
    });
  }
  $("#back-to-game").prop("hidden", state.viewPly === null || Boolean(state.explore));
  // Not while two seats play: it would be a board beside the game.
  $("#play-from-here").prop("hidden", state.viewPly === null || Boolean(state.explore) || Boolean(g.seats && g.status === "playing"));
  // A player looking back as the friend moved: their clock runs meanwhile,
  // so the way back glows, as lichess's (words added to the status wrapped
  // it onto another line on a phone and moved the board under a finger).
  const mine = mySeat();
  const called = state.viewPly !== null && Boolean(mine) && g.status === "playing" && g.to_move === mine;
  $("#back-to-game, #step-last").toggleClass("your-move", called);
  drawTitle();
  // The counts of the position on show (a viewed move, the explorer's).
  const shown = state.explore && state.explore.data ? state.explore.data.board.cells : state.viewPly === null ? g.board.cells : cellsAt(state.viewPly) || g.board.cells;
  const counts = discCounts(shown);
  // Lines of Action's pieces too: a capture changes what each side has to
  // join up (QA).
  $("#counts").prop("hidden", g.game === "gomoku");
  const loa = g.game === "loa";
  $("#count-label-black").text(loa ? gettext("Black pieces:") : gettext("Black discs:"));
  $("#count-label-white").text(loa ? gettext("White pieces:") : gettext("White discs:"));
  // Gomoku draws no legal dots: every empty point is legal.
  $("#show-legal-switch").prop("hidden", g.game === "gomoku");
  // A Lines of Action piece moves: a move's number would stay on a square it left.
  $(".stone-numbers-row").toggleClass("d-none", g.game === "loa");
  $("#count-black").text(counts.black);
  $("#count-white").text(counts.white);
  $("#result").prop("hidden", g.status !== "finished");
  // Grey for a game aborted, which has no result.
  const aborted = Boolean(g.result && g.result.reason === "aborted");
  $("#result").toggleClass("text-body-secondary", aborted);
  setScoredText("#result", g.status === "finished" ? resultText(g.result) : "");
  placeThinkingRow();
  // Nothing to pause in a finished game (an undo brings Pause back); it shows
  // only where the computer plays (seated.js).
  // A clock runs on whatever the page does (as lichess, no pause): a paused
  // computer lost on time, and the person's clock ran on. But a page that
  // paused itself there (an undo between two AIs, a fault) resumes: greyed,
  // its computer lost on time waiting (QA).
  const resumable = state.paused && g.status === "playing";
  grey($("#pause"), g.status === "finished" || (Boolean(g.clock) && !resumable))
    .attr(
      "title",
      !g.clock ? (state.paused ? gettext("The computer waits: Resume lets it play") : gettext("The computer stops before its next move, until you resume it")) : resumable ? gettext("The computer is paused, and its clock runs on") : gettext("A game with a clock cannot be paused")
    );
  // Named by what it does (Pause, Resume), so no toggle: "Resume, pressed".
  labelButton($("#pause"), state.paused ? gettext("Resume") : gettext("Pause"), [gettext("Pause"), gettext("Resume")]);
  grey($("#undo"), !hasUndo(g) || state.busy)
    .attr("title", !hasUndo(g) ? noUndoReason(g) : state.busy ? gettext("A new game is starting") : null);
  const noHint = noHintReason(g);
  grey($("#hint"), noHint).attr("title", noHint);
  $("#share, #explore").prop("disabled", false); // greyed until a game is drawn
  $("#pass").prop("hidden", !(canClick() && g.legal_moves.indexOf("pass") >= 0));
  // Filled while on, as Sound (family QA: on looked like off).
  $("#flip").attr("aria-pressed", state.flipped).toggleClass("active", Boolean(state.flipped));
  drawStepButtons();
  const options = optionsText(g);
  setLiveText("#game-options", options);
  $("#game-options").prop("hidden", !options);
  $("#board-options").text(optionsText(g, true)).attr("title", options).prop("hidden", !options);
  // A watcher gets no estimates while the game goes on: a page's own
  // searches bring them (spectator QA: the switch on showed nothing).
  $("#show-analysis").closest(".form-check").prop("hidden", onlyWatching() && g.status === "playing");
  // Nor has a watcher any move to confirm (network walk).
  $("#confirm-moves").closest(".form-check").prop("hidden", onlyWatching());
  drawSeats();
  labelResign();
  drawOpening();
  balanceButtons();
  keepFocusNear(focused);
}

/** The buttons that step through the game: once there is a move, each
 *  where it leads somewhere. Before, their row on a phone pushed the AI
 *  switches (who plays, chosen first) out of sight. */
function drawStepButtons() {
  const g = state.game;
  $("#step-controls").prop("hidden", g.ply === 0);
  // Exploring, they step back along the explored line too, and forward
  // back to the game.
  const e = state.explore;
  const explored = Boolean(e && e.line.length);
  const shown = state.viewPly === null ? g.ply : state.viewPly;
  // Disabled, not greyed: the focus of one at its end goes to the one that
  // still leads on (keepFocusNear).
  $("#step-first, #step-back").prop("disabled", shown === 0 && !explored);
  $("#step-forward, #step-last").prop("disabled", state.viewPly === null && !e);
}

/** The buttons under the board, when they take two rows (a phone): shared
 *  out evenly, three and three, rather than five and a lone button the
 *  screen's width; each word on one line where they still take two rows
 *  (board.css), else broken as it must (a third row for one button, Abort,
 *  pushed the page down more than two lines of words). */
export function balanceButtons() {
  const $row = $("#play-controls").removeClass("two-rows one-line");
  const shown = $row.children(".btn").filter((_, button) => !button.hidden);
  if (shown.length < 4) return;
  const top = (button) => button.getBoundingClientRect().top;
  if (top(shown.last()[0]) <= top(shown.first()[0]) + 1) return;
  $row.addClass("two-rows one-line").css("--per-row", Math.ceil(shown.length / 2));
  const rows = new Set(shown.toArray().map((button) => Math.round(top(button))));
  if (rows.size > 2) $row.removeClass("one-line");
}
