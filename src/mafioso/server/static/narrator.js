// @ts-check
// The shared screen's voice: the script's public lines spoken at the pace of the voice, and a
// night ambience generated with Web Audio (no downloaded sounds).
import {t} from "./common.js";

/** @typedef {import("./wire").EventOut} EventOut */

/** More unspoken lines than this are summarised, never queued: the voice catches up at once. */
const PILE = 3;

/** A narrator for one table. `send` tells the server how far the voice got (the contract's
 * `spoken` message), so a secret step's clock starts once its call has been heard.
 * @param {(m: Record<string, unknown>) => void} send */
export function narrator(send) {
  let on = localStorage.getItem("mafioso.speak") !== "off";
  let voiceName = localStorage.getItem("mafioso.voice") || "";
  let lang = "en", code = "", talking = false, told = -2;
  /** @type {EventOut[]} */
  let events = [];
  const synth = window.speechSynthesis;
  const mark = () => "mafioso.spoken." + code;
  /** The first public event not spoken yet: stored when a line ENDS, so a reload resumes there. */
  const upto = () => Number(localStorage.getItem(mark()) || 0);

  /** Tells the server the voice got to `n` (or that it is off: `null`), once per change.
   * @param {number | null} n */
  function report(n) {
    const key = n === null ? -1 : n;
    if (key === told) return;
    told = key;
    send({type: "spoken", upto: n});
  }
  /** @param {number} n */
  function done(n) {
    localStorage.setItem(mark(), String(Math.max(n, upto())));
    report(upto());
  }
  const all = () => events.length ? events[events.length - 1].n + 1 : 0;

  function next() {
    if (talking) return;
    if (!on || !synth) { localStorage.setItem(mark(), String(all())); report(null); return; }
    const pending = events.filter(e => e.n >= upto() && e.text);
    if (!pending.length) { done(all()); return; }
    let text, last;
    if (pending.length > PILE) {  // a backlog: say where we are now, in one line
      const phase = pending.filter(e => e.kind === "phase").pop();
      last = pending[pending.length - 1];
      text = [phase && phase !== last ? phase.text : "", last.text].filter(Boolean).join(". ");
    } else {
      last = pending[0];
      text = last.text || "";
    }
    const through = last.n + 1;
    const u = new SpeechSynthesisUtterance(text.replace(/\u{1F916}\s*/gu, ""));  // a bot's mark is seen, not spoken
    u.lang = lang;
    const voice = synth.getVoices().find(v => v.name === voiceName);
    if (voice) u.voice = voice;
    talking = true;
    // a voice that never ends (none installed, a stuck engine) must not stop the narration
    const guard = setTimeout(() => finish(), Math.min(20000, 1500 + 90 * text.length));
    const finish = () => { clearTimeout(guard); if (!talking) return; talking = false; done(through); setTimeout(next, 250); };
    u.onend = u.onerror = finish;
    synth.speak(u);
  }

  return {
    /** A new state: its public events, its table and language, and how far the server heard
     * this screen got (a screen reloaded elsewhere resumes there, not at the start).
     * @param {EventOut[]} list @param {string} tableCode @param {string} tableLang @param {number | null} [heard] */
    hear(list, tableCode, tableLang, heard) {
      if (tableCode !== code) { code = tableCode; told = -2; }
      if (typeof heard === "number" && heard > upto()) localStorage.setItem(mark(), String(heard));
      lang = tableLang;
      events = list;
      next();
    },
    get on() { return on; },
    /** @param {boolean} value */
    set(value) {
      on = value;
      localStorage.setItem("mafioso.speak", on ? "on" : "off");
      if (!on && synth) { synth.cancel(); talking = false; }
      told = -2;
      next();
    },
    /** The voices of the table's language, by name. */
    voices() {
      if (!synth) return [];
      const base = lang.split("-")[0];
      return synth.getVoices().filter(v => v.lang.toLowerCase().startsWith(base)).map(v => v.name);
    },
    get voice() { return voiceName; },
    /** @param {string} name */
    choose(name) { voiceName = name; localStorage.setItem("mafioso.voice", name); },
    /** Says again how far the voice got: a reconnected server may have forgotten it. */
    remind() { told = -2; if (!talking) next(); else report(upto()); },
    /** Resets the voice's place after the table moved on (Play again). */
    reset() { talking = false; if (synth) synth.cancel(); },
    label: () => t("Voice"),
  };
}

/** A quiet night: brown noise through a slow-breathing low-pass filter, generated on the spot. */
export function ambience() {
  let on = localStorage.getItem("mafioso.ambience") === "on";
  /** @type {AudioContext | null} */
  let ctx = null;
  /** @type {GainNode | null} */
  let gain = null;
  let night = false;

  function build() {
    const audio = new AudioContext();
    const length = audio.sampleRate * 4;
    const buffer = audio.createBuffer(1, length, audio.sampleRate);
    const data = buffer.getChannelData(0);
    let last = 0;
    for (let i = 0; i < length; i++) { last = (last + 0.02 * (Math.random() * 2 - 1)) / 1.02; data[i] = last * 3.5; }
    const noise = audio.createBufferSource();
    noise.buffer = buffer; noise.loop = true;
    const filter = audio.createBiquadFilter();
    filter.type = "lowpass"; filter.frequency.value = 420;
    const lfo = audio.createOscillator(), depth = audio.createGain();
    lfo.frequency.value = 0.08; depth.gain.value = 180;
    lfo.connect(depth).connect(filter.frequency);
    const out = audio.createGain();
    out.gain.value = 0;
    noise.connect(filter).connect(out).connect(audio.destination);
    noise.start(); lfo.start();
    ctx = audio; gain = out;
  }
  function apply() {
    if (!on || !night) { if (gain && ctx) gain.gain.setTargetAtTime(0, ctx.currentTime, 0.8); return; }
    if (!ctx) build();
    if (ctx && ctx.state === "suspended") ctx.resume();
    if (gain && ctx) gain.gain.setTargetAtTime(0.25, ctx.currentTime, 1.5);
  }
  // a browser starts sound only after a gesture: a remembered ambience waits for the first tap
  document.addEventListener("pointerdown", () => { if (ctx && ctx.state === "suspended") ctx.resume(); });
  return {
    get on() { return on; },
    /** @param {boolean} value */
    set(value) { on = value; localStorage.setItem("mafioso.ambience", on ? "on" : "off"); apply(); },
    /** @param {boolean} value whether the table is in a secret (eyes closed) step */
    night(value) { if (value !== night) { night = value; apply(); } },
  };
}
