/*
 * The side panel's form: read what the player chose (game, options, each
 * side's AI switch, model and strength) as the API's request bodies, and set
 * the controls from a snapshot. The options' limits and the models come from
 * the kinds endpoint, not from this file.
 */
import { SIDES, state } from "./state.js";

/** The game chosen in #game-select. */
export function chosenGame() {
  return $("#game-select").val();
}

/** A side's strength selector as the API's budget: {level} or {think_time}. */
export function strengthOf(side) {
  const strength = String($("#strength-" + side).val() || "level:3").split(":");
  return strength[0] === "level" ? { level: parseInt(strength[1], 10) } : { think_time: parseFloat(strength[1]) };
}

/** What a side's controls say, as the API's player settings. */
export function playerSpec(side) {
  if (!$("#" + side + "-ai").prop("checked")) return { kind: "human" };
  const model = $("#model-" + side).val();
  return $.extend({ kind: "ai", model: model === "none" ? null : model }, strengthOf(side));
}

/** The body that starts a game of the chosen kind with the chosen players,
 *  and the options the page has a selector for (#<game>-<option>: Gomoku's
 *  size and row); the others keep the server's defaults. */
export function newGameBody() {
  const name = chosenGame();
  const body = { game: name, players: { black: playerSpec("black"), white: playerSpec("white") } };
  const keys = Object.keys(optionSelectors(name));
  if (keys.length) {
    body.options = {};
    keys.forEach(function (key) {
      body.options[key] = optionValue(name, key);
    });
  }
  // An opening rule (Gomoku's Swap2): not a rule of the board, a body field.
  const opening = $("#" + name + "-opening").val();
  if (opening && opening !== "none") body.opening = opening;
  return body;
}

/** An option's selector's value: a number, or the choice as the spec
 *  gives it (Lines of Action's repetition: the number 2). (Not jQuery's
 *  .val(): it answers null when the selected option is disabled, which
 *  limitOptions() is about to fix.) */
function optionValue(name, key) {
  const value = $("#" + name + "-" + key).prop("value");
  const spec = optionSelectors(name)[key];
  if (!spec || spec.type !== "choice") return parseInt(value, 10);
  const choice = spec.choices.find((c) => String(c) === value);
  return choice === undefined ? value : choice;
}

/** The kind's options that have a selector on the page: key -> spec. */
function optionSelectors(name) {
  const specs = (state.kinds[name] && state.kinds[name].option_specs) || {};
  const found = {};
  Object.keys(specs).forEach(function (key) {
    if ($("#" + name + "-" + key).length) found[key] = specs[key];
  });
  return found;
}

/** Renju is played with five in a row: each option's spec stands alone, and
 *  this is the one pair the API refuses (the page does not offer it). */
const FIXED_ROW = { renju: 5 };

/** The shortest row the opening rule chosen for `name` opens (the kinds'
 *  `openings`: Swap2's three black stones would win a row of three). */
function openingMinRow(name) {
  const chosen = $("#" + name + "-opening").val();
  const opening = (state.kinds[name].openings || []).find((o) => o.name === chosen);
  return opening ? opening.min_row : -Infinity;
}

/** Offer only the option values the kinds' option_specs allow (and return
 *  the values moved into range: [{key, to, low, fixed}]): a bound is a
 *  number or the name of another option (Gomoku: a row no longer than the
 *  board), and a row no shorter than the opening rule's. A value out of
 *  bounds falls back to the default, or the nearest bound. */
export function limitOptions() {
  const changed = [];
  Object.keys(state.kinds).forEach(function (name) {
    const specs = optionSelectors(name);
    const defaults = state.kinds[name].options || {};
    const bound = (b) => (typeof b === "string" ? optionValue(name, b) : b);
    Object.keys(specs).forEach(function (key) {
      const spec = specs[key];
      if (spec.type !== "integer") return;
      let low = spec.min === undefined ? -Infinity : bound(spec.min);
      let high = spec.max === undefined ? Infinity : bound(spec.max);
      const fixed = key === "row" && specs.rule ? FIXED_ROW[optionValue(name, "rule")] : undefined;
      if (fixed !== undefined) low = high = fixed;
      if (key === "row") low = Math.max(low, openingMinRow(name));
      const $select = $("#" + name + "-" + key);
      $select.find("option").each(function () {
        const value = parseInt(this.value, 10);
        $(this).prop("disabled", value < low || value > high);
      });
      const value = optionValue(name, key);
      const fallback = key in defaults ? defaults[key] : low;
      if (value < low || value > high) {
        const to = Math.max(low, Math.min(fallback, high));
        $select.val(String(to));
        changed.push({ key: key, to: to, low: low, fixed: fixed !== undefined });
      }
    });
  });
  return changed;
}

/** Node counts as the selectors show them: "18K" ("1.8万" in Chinese: QA
 *  read "1.4M" there), so the label fits. */
const COMPACT = new Intl.NumberFormat(document.documentElement.lang || "en", { notation: "compact" });

/** A model's size, for its tooltip: "18K positions studied", and a packed
 *  model's size on disk: "18K positions studied, packed 18 MB". */
function sizeNote(model) {
  const numbers = { n: COMPACT.format(model.nodes), mb: Math.max(1, Math.round(model.bytes / 1e6)) };
  const words = model.packed ? gettext("%(n)s positions studied, packed %(mb)s MB") : gettext("%(n)s positions studied");
  return interpolate(words, numbers, true);
}

/** A Gomoku board as the page names it: "8×8, five in a row". */
function boardName(options) {
  // Each row New game offers in words, as the game's end names it (Gomoku
  // QA: "7×7, 3 in a row" ended "Black wins: three in a row").
  const words = {
    3: () => gettext("%(size)s\u00d7%(size)s, three in a row"),
    4: () => gettext("%(size)s\u00d7%(size)s, four in a row"),
    5: () => gettext("%(size)s\u00d7%(size)s, five in a row"),
    6: () => gettext("%(size)s\u00d7%(size)s, six in a row"),
    7: () => gettext("%(size)s\u00d7%(size)s, seven in a row"),
  }[options.row];
  const board = words ? words() : gettext("%(size)s\u00d7%(size)s, %(row)s in a row");
  return interpolate(board, { size: options.size, row: options.row }, true);
}

/** The board a model's network was trained for, as the page names it
 *  ("8×8, five in a row"), or null if that is the board chosen now. */
function otherBoard(name, model) {
  const options = model.options || {};
  const keys = Object.keys(optionSelectors(name)).filter((key) => key !== "rule");
  if (keys.every((key) => !(key in options) || options[key] === optionValue(name, key))) return null;
  return boardName(options);
}

/** The board tree model `name` learned on, as the page names it, when it
 *  is not the board of game `g` (a 15×15 model over a 9×9 game), else null. */
export function modelOtherBoard(g, name) {
  const models = (state.kinds[g.game] && state.kinds[g.game].models) || [];
  const model = models.find((m) => m.name === name);
  const learned = (model && model.options) || {};
  const options = g.options || {};
  const differs = ["size", "row"].some((key) => key in learned && key in options && learned[key] !== options[key]);
  return differs ? boardName(learned) : null;
}

/** What the game on the board was started with, for the side panel: "15×15,
 *  five in a row · Renju · Swap2" ("" for a game without options). `short`,
 *  for the line above a phone's board: "15×15 · Renju · Swap2" (Gomoku's
 *  row named only when it is not five). */
export function optionsText(g, short = false) {
  const options = g.options || {};
  if (g.game === "loa") return loaRules(options, short);
  if (!("size" in options && "row" in options)) return "";
  const parts = [short && options.row === 5 ? options.size + "\u00d7" + options.size : boardName(options)];
  if (options.rule) parts.push(short ? shortRuleName(g.game, options.rule) : ruleName(g.game, options.rule));
  const opening = g.opening && ($("#" + g.game + '-opening option[value="' + g.opening.name + '"]').text() || g.opening.name);
  if (opening) parts.push(short && g.opening.name === "swap2" ? pgettext("opening, short", "Swap2") : opening);
  return parts.join(" \u00b7 ");
}

/** Lines of Action's rules that are not the Olympiad's (chosen in New game,
 *  or an imported record's tags), or "" (a rules expert's review: told
 *  apart only in the record's text); `short`, for the line above a phone's
 *  board (verification walk: the first cut the others off). */
function loaRules(options, short) {
  const other = [];
  if (options.double_connection === "mover_wins") other.push(short ? pgettext("rule, short", "Both joined: mover wins") : gettext("Joining both sides wins for the mover"));
  if (options.no_move === "lose") other.push(short ? pgettext("rule, short", "No move: loses") : gettext("A side that cannot move loses"));
  if (options.repetition === 2) other.push(short ? pgettext("rule, short", "Twice: a draw") : gettext("A position seen twice draws"));
  // More than one do not fit above a phone's board: counted (a tap there
  // shows them, in the Rules).
  if (short && other.length > 1) return interpolate(ngettext("%(n)s other rule", "%(n)s other rules", other.length), { n: other.length }, true);
  return other.join(" \u00b7 ");
}

/** The rule a model learned, as the page names it, or null if it is the
 *  rule chosen now (or the kind has no rules). */
function otherRule(name, model) {
  if (!("rule" in optionSelectors(name))) return null;
  const learned = (model.options || {}).rule || state.kinds[name].options.rule;
  if (learned === optionValue(name, "rule")) return null;
  return ruleName(name, learned);
}

/** A rule's name as the page's selector shows it ("Renju"). */
function ruleName(name, rule) {
  return $("#" + name + '-rule option[value="' + rule + '"]').text() || rule;
}

/** A rule's short name, for a label the closed selector must show whole
 *  (Chinese names renju "连珠（有禁手）" in the rule selector, "连珠" here). */
function shortRuleName(game, rule) {
  const short = { freestyle: pgettext("rule, short", "Freestyle"), standard: pgettext("rule, short", "Standard"), renju: pgettext("rule, short", "Renju") };
  return short[rule] || ruleName(game, rule);
}

/** The tree models' names for people; the size is the option's tooltip. */
export function modelName(name, game) {
  if (name === "light") return gettext("Openings: light");
  // A rule's own light model (model/gomoku/light-renju).
  if (name.indexOf("light-") === 0) return interpolate(gettext("Openings: light, %(rule)s"), { rule: shortRuleName(game, name.slice(6)) }, true);
  if (name === "full") return gettext("Openings: full");
  if (name === "live") return gettext("Learned here");
  return interpolate(gettext("Openings: %(name)s"), { name: name }, true);
}

/** A model's label and, when it cannot be chosen, why (the option's title):
 *  a damaged model says what is wrong; a network trained for another board
 *  says which (its network plays only there). */
function modelLabel(name, m) {
  if (m.damaged) return { text: interpolate(gettext("%(name)s (damaged)"), { name: m.name }, true), disabled: m.damaged };
  const size = m.nodes ? sizeNote(m) : "";
  const rule = otherRule(name, m);
  if (rule !== null) {
    const why = interpolate(gettext("It learned the %(rule)s rule; choose that rule to play it."), { rule: rule }, true);
    return { text: m.network ? interpolate(gettext("%(name)s (network)"), { name: m.name }, true) : modelName(m.name, name), disabled: why };
  }
  if (!m.network) return { text: modelName(m.name, name), title: size };
  const board = otherBoard(name, m);
  // Short: the closed selector shows it.
  if (board === null) return { text: interpolate(gettext("%(name)s (network)"), { name: m.name }, true) };
  return {
    text: interpolate(gettext("%(name)s (network for %(board)s)"), { name: m.name, board: board }, true),
    disabled: interpolate(gettext("Its network was trained for %(board)s; choose that board to play it."), { board: board }, true),
  };
}

/** Fill both model selectors with the kind's models, keeping a side's choice
 *  if the kind has it (and can use it on the board chosen), else the shipped
 *  light model, else none. */
export function fillModels(name) {
  const models = (state.kinds[name] && state.kinds[name].models) || [];
  SIDES.forEach(function (side) {
    const $sel = $("#model-" + side);
    // Only a model the player chose is kept; else the default below.
    const keep = $sel.data("chosen") ? $sel.val() : null;
    $sel.empty().append(new Option(gettext("No openings"), "none"));
    // The light models first, the default (teacher walk: listed last, after
    // the full one, it read as the extra).
    const rank = (m) => (m.name.startsWith("light") ? 0 : m.name.startsWith("full") ? 1 : 2);
    [...models].sort((a, b) => rank(a) - rank(b)).forEach(function (m) {
      // A model that cannot be used here is shown, with why, but cannot be chosen.
      const label = modelLabel(name, m);
      const option = new Option(label.text, m.name);
      option.disabled = Boolean(label.disabled);
      option.title = label.disabled || label.title || "";
      $sel.append(option);
    });
    // The shipped light model makes the AI stronger at no cost: the default
    // (under a rule of its own, that rule's: light-renju).
    const has = (value) => $sel.find('option[value="' + value + '"]:not(:disabled)').length > 0;
    const ruled = "rule" in optionSelectors(name) ? "light-" + optionValue(name, "rule") : null;
    $sel.val(has(keep) ? keep : has("light") ? "light" : has(ruled) ? ruled : "none");
  });
}

/** Set the new-game dialog's option selectors to the options of game `g`
 *  (a new game starts from those of the game on the board). */
function syncOptions(g) {
  Object.keys(g.options || {}).forEach(function (key) {
    $("#" + g.game + "-" + key).val(String(g.options[key]));
  });
  $("#" + g.game + "-opening").val(g.opening ? g.opening.name : "none");
  limitOptions();
}

/** Set kind `name`'s option selectors to `options`, Black beginning, and
 *  its models to those that play them (a record read as that game is
 *  imported with its rule's models: light-renju was sent for freestyle). */
export function chooseOptions(name, options) {
  syncOptions({ game: name, options: options, opening: null });
  fillModels(name);
}

/** Set the controls to what the snapshot says (game, options, players).
 *  While the new-game dialog is open its option selectors keep what the
 *  player is choosing there (an AI's move may come meanwhile). */
export function syncControls(g) {
  $("#game-select").val(g.game);
  if (!$("#start-dialog").hasClass("show")) syncOptions(g);
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
      $strength.append(new Option(interpolate(gettext("Think %(seconds)s s"), { seconds: p.think_time }, true), strength));
    }
    $strength.val(strength);
  });
}
