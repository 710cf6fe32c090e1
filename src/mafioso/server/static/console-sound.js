// @ts-check
// The console's sounds: a speech clock that beeps at 10 s left and at the end (Web Audio), and
// the narration on this device's own speaker (speechSynthesis), both optional for the browser.

/** @type {AudioContext|null} */
let audio = null;

/** This device's sound output, made (or woken) on the spot. Called from a tap first: Safari
 * (an iPad at the table) plays a context's sound only when it was started by a tap, and the
 * beeps themselves come from the clock's timer, long after the tap.
 * @returns {AudioContext | null} */
function sound() {
  const Context = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
  if (!Context) return null;
  audio = audio || new Context();
  if (audio.state === "suspended") audio.resume().catch(() => undefined);
  return audio;
}

/** A short beep: high and short at 10 s left, low and long at the end. @param {number} pitch @param {number} length */
export function beep(pitch, length) {
  try {
    const out = sound();
    if (!out) return;
    const tone = out.createOscillator();
    const gain = out.createGain();
    tone.frequency.value = pitch;
    gain.gain.value = 0.2;
    tone.connect(gain).connect(out.destination);
    tone.start();
    tone.stop(out.currentTime + length);
  } catch {
    // no sound on this device: the clock still shows the time
  }
}

/** A countdown shown by ``show(secondsLeft)`` that sounds at 10 s left and at 0, then calls
 * ``ended`` (its start button must offer to start again, not to stop a clock already stopped). */
export class Timer {
  /** @param {(seconds: number) => void} show @param {() => void} [ended] */
  constructor(show, ended) {
    this.show = show;
    this.ended = ended || (() => undefined);
    this.end = 0;
    this.warned = false;
    /** @type {number|undefined} */
    this.handle = undefined;
  }

  get running() { return this.handle !== undefined; }

  /** Starts counting (on a tap: the sound is woken now, for the beeps to come). @param {number} seconds */
  start(seconds) {
    try { sound(); } catch { /* no sound on this device: the clock still shows the time */ }
    this.stop();
    this.end = Date.now() + seconds * 1000;
    this.warned = seconds <= 10;
    this.handle = window.setInterval(() => this.tick(), 250);
    this.tick();
  }

  tick() {
    const left = (this.end - Date.now()) / 1000;
    this.show(left);
    if (!this.warned && left <= 10) { this.warned = true; beep(880, 0.15); }
    if (left <= 0) { beep(440, 0.6); this.stop(); this.ended(); }
  }

  stop() {
    if (this.handle !== undefined) window.clearInterval(this.handle);
    this.handle = undefined;
  }
}

/** Speak lines in the table's language, replacing whatever was being said. @param {string[]} lines @param {string} lang */
export function speak(lines, lang) {
  if (!("speechSynthesis" in window)) return;
  window.speechSynthesis.cancel();
  for (const line of lines) {
    const utterance = new SpeechSynthesisUtterance(line);
    utterance.lang = lang;
    window.speechSynthesis.speak(utterance);
  }
}

export function stopSpeaking() {
  if ("speechSynthesis" in window) window.speechSynthesis.cancel();
}
