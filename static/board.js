/*
 * The board page: a dumb widget that draws the API's JSON snapshot of a game.
 *
 * The browser holds no rules. The only rule it applies is "is this square in
 * the legal list the server sent?"; everything else (whose turn, captures,
 * the result) comes from /api/games/. Cell styling is decided in one place,
 * cellClasses(); the heat map and the arrows are separate layers drawn from
 * the last search result. Handlers are delegated from document because the
 * cells are redrawn on every snapshot.
 */
const BoardPage = (function ($) {
  "use strict";

  // Level budgets, only to size the progress bar: levels 1-3 count
  // simulations (no known duration), 4-6 think for a fixed time.
  const LEVEL_SECONDS = { 4: 0.5, 5: 2, 6: 5 };
  const SIDES = ["black", "white"];
  const STORE_LAST = "webgame.last";
  const STORE_BOARDS = "webgame.boards";

  const S = {
    kinds: {},          // game name -> the kinds endpoint's entry
    game: null,         // the last snapshot from the server
    analysis: null,     // {search, ply, key}: the last search and where it ran
    selected: null,     // LOA: the from-square picked by the player
    pending: null,      // confirm mode: the move waiting for a second tap
    flipped: false,
    viewPly: null,      // null: the live position; else a ply being looked at
    boards: {},         // moves-so-far key -> compact board, for view mode
    busy: false,        // a request that changes the game is in flight
    thinking: null,     // {xhr, side, hint} while a search runs
    paused: false,
    searchSlotFree: null, // {id, at}: when an abandoned server search has ended
    slotTimer: null,
    queuedPlayers: null, // player settings to send once the running search ends
    recordXhr: null,
    recordEdited: false, // the user typed in the record box since it was filled
    flashTimer: null,
    progressTimer: null,
  };

  // ---- helpers -------------------------------------------------------------
  function cap(word) {
    return word ? word.charAt(0).toUpperCase() + word.slice(1) : "";
  }

  function other(side) {
    return side === "black" ? "white" : "black";
  }

  function isLoa() {
    return S.game && S.game.game === "loa";
  }

  function csrfToken() {
    const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  /** Send a JSON request to the API; returns the jqXHR (it can be aborted). */
  function api(method, url, body) {
    return $.ajax({
      url: url,
      method: method,
      dataType: "json",
      contentType: "application/json",
      data: body === undefined ? undefined : JSON.stringify(body),
      headers: { "X-CSRFToken": csrfToken() },
    });
  }

  function errorText(xhr) {
    const body = xhr && xhr.responseJSON;
    if (body && body.detail) return body.detail;
    if (xhr && xhr.status === 0) return "The server cannot be reached.";
    return "Something went wrong (" + (xhr ? xhr.status : "?") + ").";
  }

  /** Show a short message under the board that fades after a few seconds. */
  function flash(text, kind) {
    const $f = $("#flash");
    $f.text(text).toggleClass("text-danger", kind !== "info").toggleClass("text-body-secondary", kind === "info");
    clearTimeout(S.flashTimer);
    S.flashTimer = setTimeout(function () { $f.text(""); }, 3500);
  }

  function announce(text) {
    // Clearing first makes screen readers repeat an identical announcement.
    $("#announce").text("");
    setTimeout(function () { $("#announce").text(text); }, 30);
  }

  function movesKey(moves, ply) {
    return moves.slice(0, ply).join(" ");
  }

  function squaresOfMove(move) {
    // "d3" -> [d3]; LOA "b1-b3" / "b1xb3" -> [b1, b3]; "pass" -> [].
    if (!move || move === "pass") return [];
    const parts = move.split(/[-x]/);
    return parts.length === 2 ? parts : [move];
  }

  function playerSpec(side) {
    // What the side's controls say, as the API's player settings.
    if (!$("#" + side + "-ai").prop("checked")) return { kind: "human" };
    const model = $("#model-" + side).val();
    const strength = String($("#strength-" + side).val() || "time:1").split(":");
    const spec = { kind: "ai", model: model === "none" ? null : model };
    if (strength[0] === "level") spec.level = parseInt(strength[1], 10);
    else spec.think_time = parseFloat(strength[1]);
    return spec;
  }

  function expectedSeconds(player) {
    if (!player) return null;
    if (player.think_time) return player.think_time;
    return LEVEL_SECONDS[player.level] || null;
  }

  function resultText(result) {
    if (!result) return "";
    const why = result.reason || "game over";
    return result.winner ? cap(result.winner) + " wins: " + why : "Draw: " + why;
  }

  // ---- the board cache (for stepping through earlier positions) -----------
  function encodeCells(cells) {
    return cells.map(function (row) {
      return row.map(function (c) { return c === "black" ? "x" : c === "white" ? "o" : "."; }).join("");
    }).join("/");
  }

  function decodeCells(text) {
    return text.split("/").map(function (row) {
      return row.split("").map(function (ch) { return ch === "x" ? "black" : ch === "o" ? "white" : null; });
    });
  }

  function rememberBoard(game) {
    S.boards[movesKey(game.moves, game.ply)] = encodeCells(game.board.cells);
    try {
      localStorage.setItem(STORE_BOARDS, JSON.stringify({ id: game.id, boards: S.boards }));
    } catch (e) { /* storage full or off: view mode just knows less */ }
  }

  function loadBoards(id) {
    try {
      const saved = JSON.parse(localStorage.getItem(STORE_BOARDS) || "null");
      S.boards = saved && saved.id === id ? saved.boards : {};
    } catch (e) {
      S.boards = {};
    }
  }

  /** The cells at ``ply`` of the current game, or null if this browser never saw them. */
  function cellsAt(ply) {
    const g = S.game;
    if (ply === g.ply) return g.board.cells;
    const known = S.boards[movesKey(g.moves, ply)];
    if (known) return decodeCells(known);
    if (g.game === "gomoku") {
      // Gomoku stones never move or flip, so an earlier position is the
      // current one less the later stones: no rule needed.
      const later = {};
      g.moves.slice(ply).forEach(function (m) { later[m] = true; });
      return g.board.cells.map(function (row, r) {
        return row.map(function (c, col) { return later[g.board.files[col] + g.board.ranks[r]] ? null : c; });
      });
    }
    return null;
  }

  // ---- drawing -------------------------------------------------------------
  /** Return the analysis to draw now, or null (hidden, stale or none). */
  function visibleAnalysis() {
    const a = S.analysis, g = S.game;
    if (!a || !g || S.viewPly !== null) return null;
    // A search belongs to the position it ran in; it stays on the board for the
    // move it chose too (so one sees why the AI played there), no longer.
    if (a.key === movesKey(g.moves, a.ply) && (g.ply === a.ply || g.ply === a.ply + 1)) return a;
    return null;
  }

  function statsBySquare(analysis) {
    const map = {};
    if (!analysis) return map;
    const moves = analysis.search.moves || [];
    const most = Math.max(1, ...moves.map(function (m) { return m.visits; }));
    moves.forEach(function (m) {
      if (m.move === "pass" || !m.visits) return;
      map[m.move] = $.extend({ heat: Math.min(9, Math.floor((9.99 * m.visits) / most)) }, m);
    });
    return map;
  }

  function statsText(m) {
    let text = m.visits + " visits";
    if (m.value !== null && m.value !== undefined) text += ", win " + Math.round(m.value * 100) + "%";
    if (m.proven) text += ", proven " + m.proven;
    return text;
  }

  /**
   * The one place that decides how a cell looks: returns its CSS classes.
   * ctx carries what is the same for every cell of one drawing.
   */
  function cellClasses(square, piece, ctx) {
    const classes = ["cell"];
    if (ctx.loa) classes.push(ctx.dark[square] ? "dark" : "light");
    if (piece) classes.push("occupied");
    if (ctx.last[square]) classes.push("last-move");
    if (ctx.legal[square]) classes.push("legal");
    if (ctx.targets[square]) classes.push("target");
    if (square === S.selected || ctx.pending[square]) classes.push("selected");
    const stats = ctx.stats[square];
    if (stats) {
      classes.push("heat-" + stats.heat);
      if (stats.proven === "win") classes.push("proven-win");
      if (stats.proven === "loss") classes.push("proven-loss");
    }
    return classes.join(" ");
  }

  function humanToMove() {
    const g = S.game;
    return g && g.status === "playing" && g.to_move && g.players[g.to_move].kind === "human";
  }

  function canClick() {
    return humanToMove() && !S.busy && !S.thinking && S.viewPly === null;
  }

  function drawingContext() {
    const g = S.game;
    const live = S.viewPly === null;
    const ctx = { loa: isLoa(), last: {}, legal: {}, targets: {}, pending: {}, dark: {}, stats: {} };
    const lastMove = live ? g.last_move : g.moves[S.viewPly - 1];
    squaresOfMove(lastMove).forEach(function (sq) { ctx.last[sq] = true; });
    if (canClick()) {
      if (ctx.loa) {
        const dests = (g.legal_by_from || {})[S.selected] || [];
        dests.forEach(function (m) { const to = squaresOfMove(m)[1]; ctx.targets[to] = ctx.legal[to] = true; });
      } else {
        g.legal_moves.forEach(function (m) { if (m !== "pass") ctx.legal[m] = true; });
      }
    }
    squaresOfMove(S.pending).forEach(function (sq) { ctx.pending[sq] = true; });
    ctx.notes = {};
    if ($("#show-analysis").prop("checked") && !ctx.loa) ctx.stats = statsBySquare(visibleAnalysis());
    if ($("#show-analysis").prop("checked") && ctx.loa && visibleAnalysis()) {
      // The arrows catch no pointer (clicks go to the cells), so the numbers
      // behind them are told on the destination cells: tooltip and label.
      visibleAnalysis().search.moves.filter(function (m) { return m.visits > 0; }).slice(0, 8).forEach(function (m) {
        const to = squaresOfMove(m.move)[1];
        if (to) (ctx.notes[to] = ctx.notes[to] || []).push(m.move + ": " + statsText(m));
      });
    }
    if (ctx.loa) {
      g.board.files.forEach(function (f, c) {
        g.board.ranks.forEach(function (rk, r) { ctx.dark[f + rk] = (r + c) % 2 === 1; });
      });
    }
    return ctx;
  }

  function stoneNumbers() {
    // Square -> move number, for Gomoku and Reversi (where a move is a square).
    const mode = $("#stone-numbers").val(), g = S.game, numbers = {};
    if (mode === "none" || isLoa()) return numbers;
    const upto = S.viewPly === null ? g.ply : S.viewPly;
    const from = mode === "last" ? Math.max(0, upto - 10) : 0;
    for (let i = from; i < upto; i++) if (g.moves[i] !== "pass") numbers[g.moves[i]] = i + 1;
    return numbers;
  }

  /** Return the on-screen (row, col) of a square, honouring the flip. */
  function screenPos(square) {
    const b = S.game.board, n = b.size;
    const c = b.files.indexOf(square.charAt(0)), r = b.ranks.indexOf(square.slice(1));
    return S.flipped ? { r: n - 1 - r, c: n - 1 - c } : { r: r, c: c };
  }

  function drawBoard() {
    const g = S.game, b = g.board, n = b.size;
    const cells = S.viewPly === null ? b.cells : cellsAt(S.viewPly) || b.cells;
    const ctx = drawingContext();
    const numbers = stoneNumbers();
    const order = [...Array(n).keys()];
    const rows = S.flipped ? order.slice().reverse() : order;
    const html = [];
    rows.forEach(function (r) {
      html.push('<div role="row">');
      rows.forEach(function (c) {
        const square = b.files[c] + b.ranks[r];
        const piece = cells[r][c];
        const stats = ctx.stats[square];
        let label = square + ", " + (piece || "empty");
        if (ctx.legal[square]) label += ", legal";
        if (square === S.selected) label += ", selected";
        if (ctx.last[square]) label += ", last move";
        const notes = ctx.notes[square];
        if (stats) label += ", AI: " + statsText(stats);
        if (notes) label += ", AI: " + notes.join("; ");
        const title = stats ? square + ": " + statsText(stats) : notes ? notes.join("\n") : "";
        html.push(
          '<button type="button" role="gridcell" class="' + cellClasses(square, piece, ctx) + '" data-square="' + square +
          '" aria-label="' + label + '"' + (title ? ' title="' + title + '"' : "") + ' tabindex="-1">' +
          (stats ? '<span class="heat"></span>' : "") +
          (piece ? '<span class="piece ' + piece + '">' + (numbers[square] || "") + "</span>" : "") +
          (stats && stats.value !== null && !piece ? '<span class="heat-label">' + Math.round(stats.value * 100) + "</span>" : "") +
          "</button>"
        );
      });
      html.push("</div>");
    });
    const $board = $("#board");
    const focused = $board.find(":focus").data("square");
    $board.attr("class", "board game-" + g.game).css("--n", n).html(html.join(""));
    $board.attr("aria-label", g.title + " board, " + n + " by " + n);
    $board.toggleClass("busy", Boolean(S.busy || S.thinking)).attr("aria-busy", Boolean(S.busy || S.thinking));
    $board.toggleClass("viewing", S.viewPly !== null);
    $board.toggleClass("hide-legal", !$("#show-legal").prop("checked"));
    // One cell is in the tab order (a roving tab stop), as grids expect.
    const $stop = focused ? $board.find('[data-square="' + focused + '"]') : $();
    ($stop.length ? $stop : $board.find(".cell").first()).attr("tabindex", "0");
    if ($stop.length) $stop.trigger("focus");

    $("#rank-labels").html(rows.map(function (r) { return "<span>" + b.ranks[r] + "</span>"; }).join(""));
    $("#file-labels").html(rows.map(function (c) { return "<span>" + b.files[c] + "</span>"; }).join(""));
    drawArrows();
  }

  /** LOA's layer of arrows, from piece to destination, width by visits. */
  function drawArrows() {
    const $layer = $("#arrow-layer").empty();
    const g = S.game, n = g.board.size;
    $("#arrows").attr("viewBox", "0 0 " + n + " " + n);
    const analysis = isLoa() && $("#show-analysis").prop("checked") ? visibleAnalysis() : null;
    if (!analysis) return;
    const moves = (analysis.search.moves || []).filter(function (m) { return m.visits > 0 && m.move !== "pass"; }).slice(0, 8);
    const most = Math.max(1, ...moves.map(function (m) { return m.visits; }));
    const ns = "http://www.w3.org/2000/svg";
    moves.slice().reverse().forEach(function (m, i) {
      const sq = squaresOfMove(m.move), a = screenPos(sq[0]), z = screenPos(sq[1]);
      // Stop short of the centre so the arrowhead sits inside the target square.
      const dx = z.c - a.c, dy = z.r - a.r, len = Math.hypot(dx, dy) || 1, cut = 0.25 / len;
      const line = document.createElementNS(ns, "line");
      line.setAttribute("x1", a.c + 0.5);
      line.setAttribute("y1", a.r + 0.5);
      line.setAttribute("x2", z.c + 0.5 - dx * cut);
      line.setAttribute("y2", z.r + 0.5 - dy * cut);
      line.setAttribute("stroke-width", (0.05 + 0.2 * (m.visits / most)).toFixed(3));
      line.setAttribute("marker-end", "url(#arrowhead)");
      line.setAttribute("data-move", m.move);
      const cls = [m.proven === "win" ? "proven-win" : "", i === moves.length - 1 ? "best" : ""].join(" ").trim();
      if (cls) line.setAttribute("class", cls);
      const title = document.createElementNS(ns, "title");
      title.textContent = m.move + ": " + statsText(m);
      line.appendChild(title);
      $layer.append(line);
    });
  }

  function drawAnalysis() {
    const analysis = visibleAnalysis();
    const show = $("#show-analysis").prop("checked");
    $("body").toggleClass("hide-analysis", !show);
    if (!analysis) {
      $("#analysis, #win-bar").prop("hidden", true);
      return;
    }
    const s = analysis.search;
    const black = s.side === "black" ? s.value : 1 - s.value;
    const pct = Math.round(black * 100);
    $("#win-bar").prop("hidden", false).toggleClass("flipped", S.flipped)
      .attr("title", "The AI's estimate: Black " + pct + "%, White " + (100 - pct) + "%");
    $("#win-bar .win-black").css("width", black * 100 + "%");
    let label = "Black " + pct + "% \u2013 White " + (100 - pct) + "%";
    if (s.proven) label += " (" + cap(s.side) + " proven " + s.proven + ")";
    $("#win-label").text(label);
    $("#analysis").prop("hidden", false);
    $("#analysis-title").text((analysis.hint ? "Hint for " : "AI ") + cap(s.side) + (analysis.hint ? "" : " thought"));
    $("#analysis-stats").text(s.simulations + " simulations, " + s.elapsed.toFixed(2) + " s, " + s.nodes + " nodes");
    $("#pv").text((s.pv || []).join(" ") || s.move);
    $("#candidates").html((s.moves || []).filter(function (m) { return m.visits > 0; }).slice(0, 8).map(function (m) {
      return "<li>" + m.move + " \u2013 " + statsText(m) + "</li>";
    }).join(""));
  }

  function drawMoveList() {
    const g = S.game, $list = $("#move-list"), html = [];
    for (let i = 0; i < g.moves.length; i += 2) {
      html.push("<li>");
      [i, i + 1].forEach(function (k) {
        if (k >= g.moves.length) return;
        const ply = k + 1;
        const cls = "ply" + (S.viewPly === ply ? " viewed" : "") + (S.viewPly === null && ply === g.ply ? " current" : "");
        html.push('<button type="button" class="' + cls + '" data-ply="' + ply + '" aria-label="move ' + ply + ", " +
          (k % 2 ? "white" : "black") + " " + g.moves[k] + '">' + g.moves[k] + "</button>");
      });
      html.push("</li>");
    }
    $list.html(html.join(""));
    // Keep the interesting move in sight: the newest, or the one being viewed.
    const $target = S.viewPly === null ? $list.find("[data-ply]").last() : $list.find('[data-ply="' + S.viewPly + '"]');
    if ($target.length) {
      const top = $target.position().top + $list.scrollTop();
      if (S.viewPly === null) $list.scrollTop($list[0].scrollHeight);
      else $list.scrollTop(top - $list.height() / 2);
    }
  }

  function statusText() {
    const g = S.game;
    if (S.viewPly !== null) return "Viewing move " + S.viewPly + " of " + g.ply + " (End returns to the game)";
    if (g.status === "finished") return "Game over. " + resultText(g.result);
    const who = cap(g.to_move);
    if (S.thinking && !S.thinking.hint) return who + " (AI) is thinking\u2026";
    if (S.thinking) return "Looking for a hint for " + who + "\u2026";
    if (g.players[g.to_move].kind === "ai") return who + " (AI) to move" + (S.paused ? " \u2013 paused" : "");
    if (g.legal_moves.length === 1 && g.legal_moves[0] === "pass") return who + " has no move and must pass";
    return who + " to move";
  }

  function drawPanel() {
    const g = S.game;
    $("#status").text(statusText());
    const counts = { black: 0, white: 0 };
    g.board.cells.forEach(function (row) { row.forEach(function (c) { if (c) counts[c] += 1; }); });
    $("#counts").prop("hidden", g.game !== "reversi");
    $("#count-black").text(counts.black);
    $("#count-white").text(counts.white);
    $("#result").prop("hidden", g.status !== "finished").text(resultText(g.result));
    const anyAi = SIDES.some(function (s) { return g.players[s].kind === "ai"; });
    $("#pause").prop("disabled", !anyAi).text(S.paused ? "Resume" : "Pause").attr("aria-pressed", S.paused);
    $("#undo").prop("disabled", g.moves.length === 0 || S.busy);
    $("#hint").prop("disabled", !canClick());
    $("#pass").prop("hidden", !(canClick() && g.legal_moves.indexOf("pass") >= 0));
    $("#flip").attr("aria-pressed", S.flipped);
    $(".gomoku-only").toggle($("#game-select").val() === "gomoku");
  }

  function render() {
    if (!S.game) return;
    drawBoard();
    drawAnalysis();
    drawMoveList();
    drawPanel();
  }

  // ---- the progress bar ------------------------------------------------------
  function startProgress(seconds) {
    const $bar = $("#think-progress .progress-bar");
    $("#thinking").prop("hidden", false);
    clearInterval(S.progressTimer);
    if (!seconds) {
      $bar.css("width", "100%");  // unknown duration: a full striped bar
      return;
    }
    const start = Date.now();
    $bar.css("width", "0%");
    S.progressTimer = setInterval(function () {
      const pct = Math.min(100, ((Date.now() - start) / 1000 / seconds) * 100);
      $bar.css("width", pct + "%");
      $("#think-progress").attr("aria-valuenow", Math.round(pct));
    }, 100);
  }

  /** Ask the server to end the running search now: the pending ai-move or
   *  hint request then answers with the best move found so far. */
  function playBestNow() {
    if (!S.thinking || !S.game) return;
    api("POST", "/api/games/" + S.game.id + "/stop/")
      .fail(function (xhr) { flash(errorText(xhr)); });
  }

  function stopProgress() {
    clearInterval(S.progressTimer);
    $("#thinking").prop("hidden", true);
  }

  // ---- taking in a snapshot ----------------------------------------------------
  function syncControls(g) {
    $("#game-select").val(g.game);
    if (g.game === "gomoku") {
      $("#gomoku-size").val(String(g.options.size));
      $("#gomoku-row").val(String(g.options.row));
    }
    fillModels(g.game);
    SIDES.forEach(function (side) {
      const p = g.players[side];
      $("#" + side + "-ai").prop("checked", p.kind === "ai");
      if (p.kind !== "ai") return;
      const model = p.model || "none";
      const $model = $("#model-" + side);
      if (!$model.find('option[value="' + model + '"]').length) $model.append(new Option(model, model));
      $model.val(model);
      const strength = p.level ? "level:" + p.level : "time:" + p.think_time;
      const $strength = $("#strength-" + side);
      if (!$strength.find('option[value="' + strength + '"]').length) {
        $strength.append(new Option("Think " + p.think_time + " s", strength));
      }
      $strength.val(strength);
    });
  }

  function setGame(g) {
    const before = S.game;
    const sameGame = before && before.id === g.id;
    if (!sameGame) {
      loadBoards(g.id);
      S.viewPly = null;
      S.analysis = null;
    }
    S.game = g;
    S.selected = null;
    S.pending = null;
    if (S.viewPly !== null && S.viewPly >= g.ply) S.viewPly = null;
    rememberBoard(g);
    try { localStorage.setItem(STORE_LAST, g.id); } catch (e) { /* no storage: reload starts afresh */ }
    if (new URLSearchParams(location.search).get("game") !== g.id) {
      history.replaceState(null, "", "?game=" + g.id);
    }
    syncControls(g);
    render();
    if (sameGame && g.ply > before.ply && g.last_move) {
      const mover = g.ply % 2 === 1 ? "Black" : "White";
      announce(mover + " played " + g.last_move + (g.status === "finished" ? ". " + resultText(g.result) : ""));
    } else if (g.status === "finished" && !(sameGame && before.status === "finished")) {
      announce(resultText(g.result));
    }
    fetchRecord();
    // A short pause lets the browser paint the move before the next search.
    setTimeout(maybeRunAi, 60);
  }

  function fetchRecord() {
    const g = S.game;
    if (S.recordXhr) S.recordXhr.abort();
    S.recordXhr = api("GET", "/api/games/" + g.id + "/record/").done(function (rec) {
      if (!S.game || S.game.id !== g.id) return;
      // A record the user is typing (to import) is theirs: do not overwrite it.
      if (!S.recordEdited) $("#record").val(rec.record);
      $("#download-record")
        .attr("href", "data:text/plain;charset=utf-8," + encodeURIComponent(rec.record + "\n"))
        .attr("download", g.game + "-" + g.id.slice(0, 8) + ".txt");
    }).always(function () { S.recordXhr = null; });
  }

  function reload() {
    return api("GET", "/api/games/" + S.game.id + "/").done(setGame);
  }

  // ---- actions ---------------------------------------------------------------
  function stopThinking() {
    if (S.thinking) {
      const xhr = S.thinking.xhr;
      // The server cannot be told to stop: its search runs out its budget and
      // holds the game's search slot until then, so the next AI request waits.
      S.searchSlotFree = { id: S.game.id, at: Date.now() + 1000 * (S.thinking.seconds || 5) + 300 };
      S.thinking = null;
      xhr.abort();
    }
    stopProgress();
  }

  function sendMove(move) {
    const g = S.game;
    S.busy = true;
    S.selected = null;
    S.pending = null;
    render();
    api("POST", "/api/games/" + g.id + "/moves/", { move: move, version: g.version })
      .done(function (next) { S.busy = false; setGame(next); })
      .fail(function (xhr) { S.busy = false; flash(errorText(xhr)); reload(); });
  }

  function tryMove(move) {
    // On touch screens a second tap confirms, so a slip of the finger costs nothing.
    if ($("#confirm-moves").prop("checked") && S.pending !== move) {
      S.pending = move;
      render();
      flash("Tap " + squaresOfMove(move).slice(-1)[0] + " again to play " + move, "info");
      return;
    }
    sendMove(move);
  }

  function onCellClick(square) {
    const g = S.game;
    if (!g) return;
    if (S.viewPly !== null) { flash("You are looking at an earlier position: press End to return."); return; }
    if (g.status === "finished") { flash("The game is over: " + resultText(g.result)); return; }
    if (S.thinking || S.busy) { flash("Wait: the AI is thinking."); return; }
    if (!humanToMove()) { flash("It is the AI's turn (" + g.to_move + ")."); return; }
    if (!isLoa()) {
      if (g.legal_moves.indexOf(square) >= 0) tryMove(square);
      else flash(square + " is not a legal move.");
      return;
    }
    // Lines of Action: piece first, then one of its destinations.
    const byFrom = g.legal_by_from || {};
    if (S.selected) {
      const move = (byFrom[S.selected] || []).find(function (m) { return squaresOfMove(m)[1] === square; });
      if (move) { tryMove(move); return; }
      if (square !== S.selected && byFrom[square]) { S.selected = square; S.pending = null; render(); return; }
      S.selected = null;  // a click elsewhere cancels the choice
      S.pending = null;
      render();
      return;
    }
    if (byFrom[square]) { S.selected = square; render(); return; }
    const piece = $('#board [data-square="' + square + '"] .piece');
    flash(piece.hasClass(g.to_move) ? square + ": this piece cannot move." : square + ": pick one of " + cap(g.to_move) + "'s pieces.");
  }

  /** Milliseconds until the server's abandoned search in this game is over. */
  function slotWait() {
    const slot = S.searchSlotFree;
    return slot && S.game && slot.id === S.game.id ? slot.at - Date.now() : 0;
  }

  function maybeRunAi() {
    const g = S.game;
    if (!g || g.status !== "playing" || S.paused || S.busy || S.thinking) return;
    if (g.players[g.to_move].kind !== "ai") return;
    const wait = slotWait();
    if (wait > 0) {
      clearTimeout(S.slotTimer);
      S.slotTimer = setTimeout(maybeRunAi, wait);
      return;
    }
    const side = g.to_move;
    const ply = g.ply, key = movesKey(g.moves, g.ply);
    const xhr = api("POST", "/api/games/" + g.id + "/ai-move/", { version: g.version });
    S.thinking = { xhr: xhr, side: side, hint: false, seconds: expectedSeconds(g.players[side]) };
    startProgress(S.thinking.seconds);
    render();
    xhr.done(function (resp) {
      if (!S.thinking || S.thinking.xhr !== xhr) return;  // stopped meanwhile
      S.thinking = null;
      stopProgress();
      S.analysis = { search: resp.search, ply: ply, key: key, hint: false };
      if (flushQueuedPlayers(resp.game)) return;
      setGame(resp.game);
    }).fail(function (x) {
      if (!S.thinking || S.thinking.xhr !== xhr) return;  // aborted on purpose
      S.thinking = null;
      stopProgress();
      const wait = parseFloat(x.getResponseHeader("Retry-After") || "0");
      if (x.status === 429 || x.status === 503) {
        flash("The server is busy; the AI tries again in " + Math.max(1, wait) + " s.", "info");
        setTimeout(function () { reload(); }, Math.max(1, wait) * 1000);
      } else if (x.status === 409) {
        reload();
      } else {
        S.paused = true;  // do not hammer a failing endpoint in a loop
        flash(errorText(x));
        render();
      }
    });
  }

  function hint() {
    const g = S.game;
    if (!canClick()) return;
    if (slotWait() > 0) { flash("The AI is finishing an abandoned search: ask again in a moment.", "info"); return; }
    const spec = strengthOnly(g.to_move);  // a hint is only asked on a human's turn
    const body = { version: g.version };
    if (spec.level) body.level = spec.level; else body.think_time = spec.think_time;
    const ply = g.ply, key = movesKey(g.moves, g.ply);
    const xhr = api("POST", "/api/games/" + g.id + "/hint/", body);
    S.thinking = { xhr: xhr, side: g.to_move, hint: true, seconds: body.think_time || LEVEL_SECONDS[body.level] || null };
    startProgress(S.thinking.seconds);
    render();
    xhr.done(function (resp) {
      if (!S.thinking || S.thinking.xhr !== xhr) return;
      S.thinking = null;
      stopProgress();
      S.analysis = { search: resp.search, ply: ply, key: key, hint: true };
      const best = resp.search.moves && resp.search.moves[0];
      flash("Hint: " + resp.search.move + (best && best.value !== null ? " (win " + Math.round(best.value * 100) + "%)" : ""), "info");
      announce("Hint: " + resp.search.move);
      setGame(resp.game);
    }).fail(function (x) {
      if (!S.thinking || S.thinking.xhr !== xhr) return;
      S.thinking = null;
      stopProgress();
      flash(errorText(x));
      reload();
    });
  }

  function strengthOnly(side) {
    // A hint for a human side uses that side's strength selector as the budget.
    const strength = String($("#strength-" + side).val() || "time:1").split(":");
    return strength[0] === "level" ? { level: parseInt(strength[1], 10) } : { think_time: parseFloat(strength[1]) };
  }

  function undo() {
    const g = S.game;
    if (!g || S.busy) return;
    if (!g.moves.length) { flash("Nothing to undo yet."); return; }
    stopThinking();
    // With both sides on AI, undo would be replayed at once: pause instead.
    if (g.players.black.kind === "ai" && g.players.white.kind === "ai") S.paused = true;
    S.busy = true;
    S.viewPly = null;
    api("POST", "/api/games/" + g.id + "/undo/", {})
      .done(function (next) { S.busy = false; setGame(next); announce("Move taken back"); })
      .fail(function (xhr) { S.busy = false; flash(errorText(xhr)); reload(); });
  }

  function newGame() {
    const name = $("#game-select").val();
    const body = { game: name, players: { black: playerSpec("black"), white: playerSpec("white") } };
    if (name === "gomoku") {
      body.options = { size: parseInt($("#gomoku-size").val(), 10), row: parseInt($("#gomoku-row").val(), 10) };
    }
    stopThinking();
    S.paused = false;
    S.busy = true;
    api("POST", "/api/games/", body)
      .done(function (g) { S.busy = false; setGame(g); announce("New game of " + g.title); })
      .fail(function (xhr) { S.busy = false; flash(errorText(xhr)); if (S.game) render(); });
  }

  function importRecord() {
    const name = $("#game-select").val();
    const body = { game: name, record: $("#record").val(), players: { black: playerSpec("black"), white: playerSpec("white") } };
    if (name === "gomoku") {
      body.options = { size: parseInt($("#gomoku-size").val(), 10), row: parseInt($("#gomoku-row").val(), 10) };
    }
    stopThinking();
    S.paused = false;
    api("POST", "/api/games/import/", body)
      .done(function (g) {
        S.recordEdited = false;
        setGame(g);
        announce("Imported a game of " + g.title + ", " + g.ply + " moves");
      })
      .fail(function (xhr) { flash(errorText(xhr)); });
  }

  /** Send the players' settings now, or after the running search if it is not theirs. */
  function changePlayers(players) {
    const g = S.game;
    if (!g) return;
    const thinkingSide = S.thinking && !S.thinking.hint ? S.thinking.side : null;
    if (thinkingSide && players[thinkingSide] && players[thinkingSide].kind === "human") {
      // The thinking side becomes human: hand it over at once. The server drops
      // the running search's move because the game's version changes.
      stopThinking();
    } else if (S.thinking) {
      S.queuedPlayers = $.extend(S.queuedPlayers || {}, players);
      return;
    }
    sendPlayers(g.id, players);
  }

  /** PATCH the players; the game counts as busy meanwhile, so that no AI move
   * starts from the version this request is about to replace (a 409). */
  function sendPlayers(id, players) {
    S.busy = true;
    api("PATCH", "/api/games/" + id + "/", { players: players })
      .done(function (next) { S.busy = false; setGame(next); })
      .fail(function (xhr) { S.busy = false; flash(errorText(xhr)); reload(); });
  }

  /** After a search: send settings queued during it; true if that takes over. */
  function flushQueuedPlayers(game) {
    if (!S.queuedPlayers) return false;
    const players = S.queuedPlayers;
    S.queuedPlayers = null;
    S.game = game;
    sendPlayers(game.id, players);
    return true;
  }

  function step(delta) {
    const g = S.game;
    if (!g) return;
    const current = S.viewPly === null ? g.ply : S.viewPly;
    const target = Math.max(0, Math.min(g.ply, delta === Infinity ? g.ply : delta === -Infinity ? 0 : current + delta));
    viewPly(target);
  }

  function viewPly(ply) {
    const g = S.game;
    if (ply !== g.ply && !cellsAt(ply)) {
      flash("This browser has not seen the position after move " + ply + " (it was played elsewhere).", "info");
      return;
    }
    S.viewPly = ply === g.ply ? null : ply;
    S.selected = null;
    render();
  }

  function fillModels(name) {
    const models = (S.kinds[name] && S.kinds[name].models) || [];
    SIDES.forEach(function (side) {
      const $sel = $("#model-" + side);
      const keep = $sel.val();
      $sel.empty().append(new Option("no model", "none"));
      models.forEach(function (m) {
        const size = m.nodes ? " (" + m.nodes.toLocaleString() + " nodes)" : "";
        $sel.append(new Option(m.name + size, m.name));
      });
      // The shipped light model makes the AI stronger at no cost: the default.
      const has = function (name) { return $sel.find('option[value="' + name + '"]').length > 0; };
      $sel.val(has(keep) ? keep : has("light") ? "light" : "none");
    });
  }

  function limitRows() {
    // A row longer than the board cannot be made; offer only what fits.
    const size = parseInt($("#gomoku-size").val(), 10);
    $("#gomoku-row option").each(function () { $(this).prop("disabled", parseInt(this.value, 10) > size); });
    if (parseInt($("#gomoku-row").val(), 10) > size) $("#gomoku-row").val(String(Math.min(5, size)));
  }

  // ---- wiring ------------------------------------------------------------------
  function bind() {
    $(document).on("click", "#board [data-square]", function () { onCellClick($(this).data("square")); });
    $(document).on("click", "#move-list [data-ply]", function () { viewPly(parseInt($(this).data("ply"), 10)); });
    $(document).on("click", "#new-game", newGame);
    $(document).on("click", "#undo", undo);
    $(document).on("click", "#hint", hint);
    $(document).on("click", "#pass", function () { if (canClick()) tryMove("pass"); });
    $(document).on("click", "#flip", function () { S.flipped = !S.flipped; render(); });
    $(document).on("click", "#stop", playBestNow);
    $(document).on("click", "#pause", function () {
      S.paused = !S.paused;
      render();
      if (!S.paused) maybeRunAi();
    });
    $(document).on("click", "#import-record", importRecord);
    $(document).on("input", "#record", function () { S.recordEdited = this.value !== ""; });
    $(document).on("click", "#copy-record", function () {
      const text = $("#record").val();
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(function () { flash("Record copied.", "info"); });
      else { $("#record").trigger("select"); flash("Record selected: press Ctrl+C to copy.", "info"); }
    });
    $(document).on("change", "#game-select", function () { fillModels(this.value); $(".gomoku-only").toggle(this.value === "gomoku"); newGame(); });
    $(document).on("change", "#gomoku-size", limitRows);
    $(document).on("change", "#show-legal, #show-analysis, #stone-numbers", render);
    $(document).on("change", "#confirm-moves", function () { S.pending = null; render(); });
    SIDES.forEach(function (side) {
      $(document).on("change", "#" + side + "-ai, #model-" + side + ", #strength-" + side, function () {
        // Model and strength of a human side are only remembered for later.
        if (this.id !== side + "-ai" && !$("#" + side + "-ai").prop("checked")) return;
        const players = {};
        players[side] = playerSpec(side);
        changePlayers(players);
      });
    });
    $(document).on("keydown", onKey);
  }

  /** Inside the grid, arrow keys move between cells (the ARIA grid pattern);
   * returns true if the key was used. Outside it they step through the moves. */
  function moveFocus(e) {
    const delta = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[e.key];
    if (!delta) return false;
    const $cells = $("#board .cell"), n = S.game.board.size;
    const index = $cells.index(e.target);
    const r = Math.floor(index / n) + delta[0], c = (index % n) + delta[1];
    e.preventDefault();
    if (r < 0 || c < 0 || r >= n || c >= n) return true;
    $cells.attr("tabindex", "-1");
    $cells.eq(r * n + c).attr("tabindex", "0").trigger("focus");
    return true;
  }

  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    // Keys belong to text fields and selectors; switches and buttons pass them on.
    if ($(e.target).is("input:not([type=checkbox]), select, textarea") || $(".modal.show").length) return;
    if ($(e.target).closest("#board").length && moveFocus(e)) return;
    const keys = {
      ArrowLeft: function () { step(-1); },
      ArrowRight: function () { step(1); },
      Home: function () { step(-Infinity); },
      End: function () { step(Infinity); },
      u: undo,
      h: hint,
      f: function () { $("#flip").trigger("click"); },
      n: newGame,
      "?": function () { bootstrap.Modal.getOrCreateInstance(document.getElementById("help-dialog")).show(); },
    };
    const action = keys[e.key];
    if (!action) return;
    e.preventDefault();
    action();
  }

  function start() {
    bind();
    limitRows();
    $(".gomoku-only").toggle($("#game-select").val() === "gomoku");
    api("GET", "/api/games/kinds/").done(function (kinds) {
      kinds.forEach(function (k) { S.kinds[k.name] = k; });
      fillModels($("#game-select").val());
      // Reopen the game of the address, else the last one played here.
      let id = new URLSearchParams(location.search).get("game");
      try { id = id || localStorage.getItem(STORE_LAST); } catch (e) { /* no storage */ }
      if (!id) { newGame(); return; }
      api("GET", "/api/games/" + encodeURIComponent(id) + "/").done(setGame).fail(function () {
        // An old or foreign id: start afresh rather than show an error.
        history.replaceState(null, "", location.pathname);
        newGame();
      });
    }).fail(function (xhr) { $("#status").text(errorText(xhr)); });
  }

  return { start: start, cellClasses: cellClasses, state: S };
})(jQuery);

$(BoardPage.start);
