"""Sounds after a reload: a browser holds back a page's audio until the
person touches the page, so a sound that comes first (the computer's move)
is not heard; the first tap then lets the audio go, and the next move is
heard. Before, the page never asked again and stayed silent to the end."""

from __future__ import annotations

from .conftest import DESKTOP
from .helpers import wait_idle, wait_plies

#: Put in a page before it loads: sounds on, and an AudioContext that, as a
#: browser's made before any touch, starts suspended and sounds nothing until
#: resumed, which (as in Safari, the strictest) only works in the handler of a
#: tap or a key; each tone heard is kept in ``window.tones``.
HELD_BACK_AUDIO = """
  localStorage.setItem("webgame.sound", "on");
  window.tones = [];
  let touching = false;
  for (const kind of ["pointerdown", "keydown"]) {
    window.addEventListener(kind, () => {
      touching = true;
      setTimeout(() => { touching = false; });
    }, { capture: true });
  }
  window.AudioContext = class {
    constructor() { this.state = "suspended"; }
    resume() {
      if (touching) this.state = "running";
      return Promise.resolve();
    }
    get currentTime() { return 0; }
    get destination() { return {}; }
    createGain() {
      const ramp = { setValueAtTime() {}, exponentialRampToValueAtTime() {} };
      return { gain: ramp, connect: (to) => to };
    }
    createOscillator() {
      const audio = this;
      const tone = { frequency: { value: 0 }, connect: (to) => to, stop() {} };
      tone.start = () => {
        if (audio.state === "running") window.tones.push(tone.frequency.value);
      };
      return tone;
    }
  };
"""


def test_the_first_tap_lets_the_sounds_be_heard(new_page):
    page = new_page(viewport=DESKTOP)
    page.context.add_init_script(HELD_BACK_AUDIO)
    made = page.request.post(
        page.base_url + "/api/games/",
        data={
            "game": "reversi",
            "players": {
                "black": {"kind": "ai", "level": 1},
                "white": {"kind": "human"},
            },
        },
    ).json()
    page.goto(page.base_url + f"/?game={made['id']}")
    wait_plies(page, 1)  # the computer's move, before any touch: held back
    wait_idle(page)
    assert page.evaluate("() => window.tones") == []

    square = page.locator("#board .cell.legal").first.get_attribute("data-square")
    page.click(f'#board [data-square="{square}"]')
    wait_plies(page, 3)  # the player's move and the computer's, heard
    wait_idle(page)
    assert len(page.evaluate("() => window.tones")) >= 2
