/*
 * Gomoku's Swap2 opening, guided step by step: a bar above the board says
 * who does what now (the opener's three stones, the second player's choice,
 * two more stones, the opener's choice) and, when this browser's player is
 * the one to choose, offers the choices as buttons; after it, for the rest
 * of the game, who plays which colour. The server keeps the opening (the
 * snapshot's `opening`); during it `to_move` is the side that acts: black's
 * side is the opener's until a colour is chosen.
 */
import { SIDES, humanSide, humanToMove, moveText, mySeat, sideName, state } from "./state.js";

/** The opening's step while it is under way, else null. */
export function openingStep() {
  const g = state.game;
  const o = g && g.status === "playing" && g.opening;
  return o && o.step !== "done" ? o.step : null;
}

/** Under a Swap2 opening whose colours are not chosen yet, whether `side`'s
 *  player is the opener (true) or the second player (false); else null: a
 *  side is its colour (Gomoku QA: "they play White" before anyone chose). */
export function opensSwap2(g, side) {
  if (!g.opening || g.opening.step === "done" || g.status !== "playing") return null;
  return side === g.opening.opener;
}

/** Who acts now, in this browser's words; null: this browser's player (a
 *  seat's, or the one person playing the computer). */
function actor(g) {
  const side = g.to_move;
  const mine = mySeat();
  if (mine) return mine === side ? null : ACTORS.friend();
  if (g.players[side].kind === "ai") return ACTORS.computer();
  if (humanSide() === side) return null; // the one person playing the computer
  return side === g.opening.opener ? ACTORS.opener() : ACTORS.second();
}

/** Who may act, as named within a step's sentence ("Swap2: the computer
 *  places ..."). */
const ACTORS = {
  // Translators: within "Swap2: %(who)s places three stones", and the like.
  friend: () => pgettext("swap2 actor", "your friend"),
  computer: () => pgettext("swap2 actor", "the computer"),
  opener: () => pgettext("swap2 actor", "the opener"),
  second: () => pgettext("swap2 actor", "the second player"),
};

/** Who of `g` plays `side`, to head a watcher's sentence: while the Swap2
 *  opening lasts, by their part (renju-friends QA: "Black offers a draw"
 *  before anyone was Black), else the colour's name. */
export function sideOrPart(g, side) {
  if (!g.opening || g.opening.step === "done") return sideName(side);
  return side === g.opening.opener ? pgettext("swap2 part", "The opener") : pgettext("swap2 part", "The second player");
}

/** The colour of the stone placed next: during the opening not the acting
 *  side's (the opener places white's stone too), but the stones' turn. */
export function stoneSide(g) {
  if (g.game !== "gomoku" || !g.opening || g.opening.step === "done") return g.to_move;
  return g.ply % 2 === 0 ? "black" : "white";
}

/** Each step's sentence: about someone else, and to this browser's player. */
const STEPS = {
  place3: [
    () => gettext("Swap2: %(who)s places three stones, black, white, black. Stone %(n)s of 3: %(colour)s."),
    () => gettext("Swap2: you place three stones, black, white, black. Stone %(n)s of 3: %(colour)s."),
  ],
  choose: [
    () => gettext("Swap2: %(who)s chooses Black, or White and the next move, or two more stones."),
    () => gettext("Swap2: you choose Black, or White and the next move, or two more stones."),
  ],
  place2: [
    () => gettext("Swap2: %(who)s places two more stones, white then black. Stone %(n)s of 2: %(colour)s."),
    () => gettext("Swap2: you place two more stones, white then black. Stone %(n)s of 2: %(colour)s."),
  ],
  "choose-again": [() => gettext("Swap2: %(who)s chooses a colour; White moves next."), () => gettext("Swap2: you choose a colour; White moves next.")],
};

/** After the opening: who plays which colour, a sentence for each colour (a
 *  language may not say it as "plays" and the side's name: Chinese says
 *  执黑, not 执 and 黑方). */
const DONE = {
  mine: { black: () => gettext("Swap2 done: you play Black."), white: () => gettext("Swap2 done: you play White.") },
  opener: { black: () => gettext("Swap2 done: the opener plays Black."), white: () => gettext("Swap2 done: the opener plays White.") },
};

/** Looking back at a position of the opening before the colours were
 *  chosen (dark-mode walk: "Swap2 done: you play White." above move 3). */
const NOT_YET = () => gettext("Swap2: colours not chosen yet.");

function doneText(g) {
  if (state.viewPly !== null && state.viewPly <= openingStones(g)) return NOT_YET();
  const mine = humanSide();
  return mine ? DONE.mine[mine]() : DONE.opener[g.opening.opener]();
}

/** The choices each step can offer (the snapshot's `choices_now`). */
const CHOICES = { choose: ["black", "white", "place2"], "choose-again": ["black", "white"] };

/** The sentence of the opening's step `step`, with `who` acting (null: this
 *  browser's player). */
function sentence(step, who, words) {
  return interpolate(STEPS[step][who === null ? 1 : 0](), Object.assign({ who: who }, words), true);
}

/** The sentence of the opening's step. */
function stepText(g) {
  const step = g.opening.step;
  return sentence(step, actor(g), { colour: sideName(stoneSide(g)), n: step === "place3" ? g.ply + 1 : g.ply - 2 });
}

/** The room the narrower board's column needs more during the opening: a
 *  second row of the buttons under it (44 px and a gap). More would narrow
 *  it further, and its buttons' words would wrap in turn. */
const NARROWER_ROOM = 48;

/** The last heights measured by reservedHeight (during the opening, and
 *  after it), and the width and language they were measured at. */
const reserved = { key: null, opening: 0, done: 0 };

/** The bar's height at this width and language, during the opening (`done`
 *  false) or after it: the tallest of every sentence (and set of choices)
 *  it can show then, so that it keeps one height through the opening, and
 *  another, one line's, for the rest of the game: the board below stays put
 *  whoever acts, and moves up once, as the opening ends (the opening's
 *  height, kept to the end, left a phone's board 136 px down and pushed a
 *  laptop's step buttons out of sight). Measured on a copy of the bar (its
 *  own styles), out of sight and out of the reader's hearing: on the bar, a
 *  live region, a screen reader heard each sentence tried (keyboard walk). */
function reservedHeight(bar, done) {
  const key = bar.offsetWidth + "|" + document.documentElement.lang;
  if (reserved.key !== key) {
    reserved.key = key;
    reserved.opening = measure(bar, Object.keys(STEPS), false);
    reserved.done = measure(bar, [], true);
  }
  return done ? reserved.done : reserved.opening;
}

/** The bar's tallest height over the sentences of `steps` (or, `done`, of
 *  the opening's end), drawn as drawOpening draws them. */
function measure(bar, steps, done) {
  const probe = bar.cloneNode(true);
  [probe, ...probe.querySelectorAll("[id], [role]")].forEach(function (el) {
    el.removeAttribute("id");
    el.removeAttribute("role");
  });
  $(probe).css({ position: "absolute", visibility: "hidden", width: bar.offsetWidth + "px", minHeight: "0" });
  probe.setAttribute("aria-hidden", "true");
  bar.after(probe);
  const text = probe.firstElementChild;
  const buttons = $(probe).find("button");
  const actors = [null].concat(Object.values(ACTORS).map((name) => name()));
  $(probe).toggleClass("alert alert-warning", !done).toggleClass("text-body-secondary", done);
  let height = 0;
  const tallest = (sentence) => {
    text.textContent = sentence;
    height = Math.max(height, probe.offsetHeight);
  };
  for (const step of steps) {
    buttons.each(function () {
      this.hidden = (CHOICES[step] || []).indexOf($(this).data("choice")) < 0;
    });
    for (const who of actors) {
      for (const colour of [sideName("black"), sideName("white")]) tallest(sentence(step, who, { colour: colour, n: 3 }));
    }
  }
  if (done) {
    buttons.prop("hidden", true);
    for (const words of Object.values(DONE)) SIDES.forEach((side) => tallest(words[side]()));
    tallest(NOT_YET());
  }
  probe.remove();
  return height;
}

/** What the computer did of the opening between snapshots `before` and
 *  `g`, told to the human who plays it: the stones it placed, or the colour
 *  it chose (the bar just goes, and the human's colour may have changed);
 *  null if nothing to tell. */
export function openingNews(before, g) {
  const was = before.opening;
  const now = g.opening;
  if (!was || !now) return null;
  const chooser = before.to_move;
  const humans = SIDES.filter((side) => g.players[side].kind === "human");
  if (!chooser || before.players[chooser].kind !== "ai" || humans.length !== 1) return null;
  // The opener's three, named too: they came at once (QA).
  if (was.step === "place3" && now.step === "choose") {
    const [first, second, third] = g.moves.slice(0, 3).map(moveText);
    // What to do next, the bar says (renju walk: said twice).
    return interpolate(gettext("The computer placed three stones: %(first)s, %(second)s and %(third)s"), { first: first, second: second, third: third }, true);
  }
  if (now.choices.length <= was.choices.length) return null;
  const choice = now.choices[now.choices.length - 1];
  // Named: they came at once with the choice, unseen (Chinese QA).
  if (choice === "place2") {
    const [white, black] = g.moves.slice(3, 5).map(moveText);
    return interpolate(gettext("The computer placed two more stones: %(white)s and %(black)s"), { white: white, black: black }, true);
  }
  return interpolate(gettext("The computer chose to play %(colour)s: you play %(mine)s"), { colour: sideName(choice), mine: sideName(humans[0]) }, true);
}

/** Draw the opening's bar: its step, and the choices when they are ours;
 *  after the opening, for the rest of the game and once it is over, who
 *  plays which colour, plainly, on one line. At its reserved height
 *  (reservedHeight; also after the window's width changes): the board below
 *  stays put, also when the game ends (it moved up then, as the end card
 *  came). */
export function drawOpening() {
  const g = state.game;
  const step = openingStep();
  const done = !step && g && g.opening && g.opening.step === "done";
  const bar = document.getElementById("swap2-bar");
  bar.hidden = !step && !done;
  // The board's height gives the bar room (board.css), and during the
  // opening what its narrower column takes more (NARROWER_ROOM: at 1280x800
  // and 1366x768 the line under the buttons was out of sight).
  const height = bar.hidden ? 0 : reservedHeight(bar, done);
  document.documentElement.style.setProperty("--swap2-bar", height + (step ? NARROWER_ROOM : 0) + "px");
  if (bar.hidden) return;
  bar.style.minHeight = height + "px";
  $(bar).toggleClass("alert alert-warning", Boolean(step)).toggleClass("text-body-secondary", !step);
  // Written only when it changes: each write is heard again (keyboard walk:
  // "Swap2 done: you play Black." three times in 150 ms).
  const words = step ? stepText(g) : doneText(g);
  if ($("#swap2-text").text() !== words) $("#swap2-text").text(words);
  const ours = step && humanToMove() && !state.busy && !state.thinking && state.viewPly === null;
  const offered = ours ? g.opening.choices_now : [];
  const had = $("#swap2-choices button:not([hidden])").length > 0;
  $("#swap2-choices button").each(function () {
    $(this).prop("hidden", offered.indexOf($(this).data("choice")) < 0);
  });
  // The choice come to a player on the board goes to its buttons: from
  // the board they were a Shift+Tab away, unsaid, or 31 Tabs round the
  // page (keyboard walk).
  const first = $("#swap2-choices button:not([hidden])")[0];
  if (!had && first && $(document.activeElement).closest("#board").length) first.focus({ preventScroll: true });
}

/** Why nothing is taken back when every move so far is the opening's
 *  stone, else null (Undo's reason, and a takeback's between seats). */
export function openingStonesKept(g) {
  return g.opening && g.moves.length && g.moves.length <= openingStones(g) ? gettext("The Swap2 opening's stones are not taken back") : null;
}

/** How many of the moves nothing takes back: during the opening all of
 *  them, after it its stones (3, or 5 after two more), else none. */
export function openingStones(g) {
  if (!g.opening) return 0;
  if (g.opening.step !== "done") return g.moves.length;
  return g.opening.choices[0] === "place2" ? 5 : 3;
}

window.addEventListener("resize", function () {
  if (state.game && state.game.opening) drawOpening();
});
