/*
 * Sounds, off until the player turns them on (the bar's Sound button; the
 * choice is remembered): a click for a move, a lower knock for a capture, two
 * notes at the end of a game; as on lichess, two rising notes when the friend
 * invited takes their seat, and three short high ones when the player's own
 * clock runs low. Made with the Web Audio API: no files to load.
 *
 * A browser lets a page sound only once the person has touched it: a page
 * reloaded mid-game whose first sound is the friend's move (or the
 * computer's) gets its audio held back. The first tap or key on the page
 * lets it go, as game sites do, so the sounds after it are heard.
 */
const KEY = "webgame.sound";
let context = null;

/** The page's audio, made at its first use and let go once the person acts. */
function audio() {
  context = context || new AudioContext();
  if (context.state === "suspended") context.resume();
  return context;
}

["pointerdown", "keydown"].forEach(function (kind) {
  document.addEventListener(
    kind,
    function () {
      if (soundOn() && window.AudioContext) audio();
    },
    { once: true, capture: true },
  );
});

/** Whether sounds are on. */
export function soundOn() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch (e) {
    return false;
  }
}

/** Turn sounds on or off; returns whether they are on now. */
export function toggleSound() {
  const on = !soundOn();
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch (e) {
    /* no storage: the choice is forgotten on reload */
  }
  if (on) play("move");
  return on;
}

/** The notes of each sound: [frequency Hz, start s, length s]. */
const NOTES = {
  move: [[660, 0, 0.05]],
  capture: [[330, 0, 0.08]],
  end: [
    [523, 0, 0.12],
    [784, 0.12, 0.2],
  ],
  joined: [
    [587, 0, 0.1],
    [880, 0.1, 0.15],
  ],
  lowTime: [
    [988, 0, 0.06],
    [988, 0.12, 0.06],
    [988, 0.24, 0.06],
  ],
};

/** Play the sound of `kind` (move, capture, end, joined, lowTime) if sounds are on. */
export function play(kind) {
  if (!soundOn() || !window.AudioContext) return;
  audio();
  const now = context.currentTime;
  NOTES[kind].forEach(function ([frequency, start, length]) {
    const tone = context.createOscillator();
    const gain = context.createGain();
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.15, now + start);
    gain.gain.exponentialRampToValueAtTime(0.001, now + start + length);
    tone.connect(gain).connect(context.destination);
    tone.start(now + start);
    tone.stop(now + start + length);
  });
}
