/*
 * The side panel's form: read what the player chose (game, options, each
 * side's AI switch, model and strength) as the API's request bodies, and set
 * the controls from a snapshot. The models come from the kinds endpoint.
 */
import { SIDES, state } from "./state.js";

/** The game chosen in #game-select. */
export function chosenGame() {
  return $("#game-select").val();
}

/** A side's strength selector as the API's budget: {level} or {think_time}. */
export function strengthOf(side) {
  const strength = String($("#strength-" + side).val() || "time:1").split(":");
  return strength[0] === "level" ? { level: parseInt(strength[1], 10) } : { think_time: parseFloat(strength[1]) };
}

/** What a side's controls say, as the API's player settings. */
export function playerSpec(side) {
  if (!$("#" + side + "-ai").prop("checked")) return { kind: "human" };
  const model = $("#model-" + side).val();
  return $.extend({ kind: "ai", model: model === "none" ? null : model }, strengthOf(side));
}

/** The body that starts a game of the chosen kind with the chosen players
 *  (and for Gomoku the board size and row length). */
export function newGameBody() {
  const name = chosenGame();
  const body = { game: name, players: { black: playerSpec("black"), white: playerSpec("white") } };
  if (name === "gomoku") {
    body.options = { size: parseInt($("#gomoku-size").val(), 10), row: parseInt($("#gomoku-row").val(), 10) };
  }
  return body;
}

/** A row longer than the board cannot be made: offer only what fits. */
export function limitOptions() {
  const size = parseInt($("#gomoku-size").val(), 10);
  $("#gomoku-row option").each(function () {
    $(this).prop("disabled", parseInt(this.value, 10) > size);
  });
  if (parseInt($("#gomoku-row").val(), 10) > size) $("#gomoku-row").val(String(Math.min(5, size)));
}

/** Fill both model selectors with the kind's models, keeping a side's choice
 *  if the kind has it, else the shipped light model, else none. */
export function fillModels(name) {
  const models = (state.kinds[name] && state.kinds[name].models) || [];
  SIDES.forEach(function (side) {
    const $sel = $("#model-" + side);
    const keep = $sel.val();
    $sel.empty().append(new Option("no model", "none"));
    models.forEach(function (m) {
      const size = m.nodes ? " (" + m.nodes.toLocaleString() + " nodes)" : "";
      $sel.append(new Option(m.name + size, m.name));
    });
    // The shipped light model makes the AI stronger at no cost: the default.
    const has = (value) => $sel.find('option[value="' + value + '"]').length > 0;
    $sel.val(has(keep) ? keep : has("light") ? "light" : "none");
  });
}

/** Set the controls to what the snapshot says (game, options, players). */
export function syncControls(g) {
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
