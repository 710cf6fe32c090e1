// @ts-check
// Shared by the shared screen and the phones: translation, DOM patching, sockets that reconnect.
/** @typedef {import("./wire").Message} Message */
/** @typedef {import("./wire").State} State */
/** @typedef {import("./wire").PromptOut} Prompt */

/** @type {Record<string, string>} */
let strings = {};
/** Strings with a number: English singular -> {sample number: its form} (see `tn`).
 * @type {Record<string, Record<string, string>>} */
let plurals = {};

/** A string of the interface in the page's language, with `{slots}` filled in.
 * @param {string} s @param {Record<string, string | number>} [slots] */
export function t(s, slots) {
  let out = strings[s] || s;
  for (const k in slots || {}) out = out.split("{" + k + "}").join(String((slots || {})[k]));
  return out;
}

/** A string with a number `n` in the form the page's language gives that number ("1 vote",
 * "2 votes"; Russian and Polish have three forms): the server sends each form for a sample
 * number (1, 2, 5), and the form taken is the sample's in the same plural category as `n`.
 * @param {string} one @param {string} many @param {number} n @param {Record<string, string | number>} [slots] */
export function tn(one, many, n, slots) {
  const forms = plurals[one] || {"1": one, "2": many};
  const rules = new Intl.PluralRules(document.documentElement.lang || "en");
  const sample = Object.keys(forms).find(k => rules.select(Number(k)) === rules.select(n));
  let out = sample ? forms[sample] : (n === 1 ? one : many);
  for (const [k, v] of Object.entries({n, ...slots})) out = out.split("{" + k + "}").join(String(v));
  return out;
}

/** Loads the interface's words in `lang` and translates the static page (`data-t`).
 * @param {string} lang */
export async function loadText(lang) {
  /** @type {Record<string, string | Record<string, string>>} */
  let all = {};
  try { all = await (await fetch("/api/text?lang=" + encodeURIComponent(lang))).json(); } catch (e) { all = {}; }
  strings = {}; plurals = {};
  for (const [k, v] of Object.entries(all)) { if (typeof v === "string") strings[k] = v; else plurals[k] = v; }
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-t]").forEach(n => { if (n instanceof HTMLElement && n.dataset.t) n.textContent = t(n.dataset.t); });
  document.querySelectorAll("[data-t-label]").forEach(n => {
    if (n instanceof HTMLElement && n.dataset.tLabel) n.setAttribute("aria-label", t(n.dataset.tLabel));
  });
}

/** @typedef {Node | string | null | undefined | false} Kid */
/** @typedef {Record<string, any> & {on?: Record<string, (e: any) => void>}} Attrs */

/** A new element: attributes (`text`, `on` for listeners), then children (nulls skipped).
 * @param {string} tag @param {Attrs | null} [attrs] @param {...(Kid | Kid[])} kids @returns {HTMLElement} */
export function el(tag, attrs, ...kids) {
  const n = document.createElement(tag);
  for (const k in attrs || {}) {
    const v = (attrs || {})[k];
    if (k === "on") for (const ev in v) n.addEventListener(ev, v[ev]);
    else if (k === "text") n.textContent = v;
    else if (v !== null && v !== undefined && v !== false) n.setAttribute(k, v === true ? "" : String(v));
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined && kid !== false) n.append(kid);
  return n;
}

/** The element with this id (the pages are static: a missing one is a bug).
 * @param {string} id @returns {HTMLElement & HTMLInputElement & HTMLSelectElement} */
export function $(id) {
  const n = document.getElementById(id);
  if (!n) throw new Error("no #" + id);
  return /** @type {any} */ (n);
}

/** Sets a node's text only when it changed (no needless layout, no lost selection).
 * @param {Element} node @param {string} text */
export function setText(node, text) { if (node.textContent !== text) node.textContent = text; }

/** Replaces children only when their content changed: `sig` is a signature of what is shown.
 * Keeps focus, scroll and half-made forms inside a part that did not change.
 * @param {HTMLElement} node @param {string} sig @param {() => Kid[]} build */
export function patch(node, sig, build) {
  if (node.dataset.sig === sig) return;
  node.dataset.sig = sig;
  node.replaceChildren(...build().filter(k => k !== null && k !== undefined && k !== false).map(k => /** @type {Node | string} */ (k)));
}

/** Reconciles `container`'s children with `items` by key: a child whose key is still there is
 * kept as it is (with its local state: choices made, focus, text typed), new ones are built,
 * gone ones removed, and the order follows `items`; `update` (if any) then refreshes every child.
 * @template T @param {HTMLElement} container @param {T[]} items @param {(item: T) => string} key
 * @param {(item: T) => HTMLElement} build @param {(node: HTMLElement, item: T) => void} [update] */
export function keyed(container, items, key, build, update) {
  /** @type {Map<string, HTMLElement>} */
  const old = new Map();
  for (const child of Array.from(container.children)) if (child instanceof HTMLElement && child.dataset.key) old.set(child.dataset.key, child);
  let at = 0;
  for (const item of items) {
    const k = key(item);
    let node = old.get(k);
    if (node) old.delete(k); else { node = build(item); node.dataset.key = k; }
    if (update) update(node, item);
    if (container.children[at] !== node) container.insertBefore(node, container.children[at] || null);
    at++;
  }
  for (const node of old.values()) node.remove();
}

/** Shows a message at the top of the page (errors in the person's language, from the server).
 * @param {string} message @param {"error" | "sticky" | "ok"} [kind] */
export function banner(message, kind) {
  const b = document.getElementById("banner");
  if (!b) return;
  b.textContent = message || "";
  b.className = message ? "banner " + (kind || "error") : "banner";
  clearTimeout(bannerTimer);
  if (message && kind !== "sticky") bannerTimer = setTimeout(() => banner(""), kind === "ok" ? 2500 : 6000);
}
let bannerTimer = 0;

/** POSTs JSON; throws an Error carrying the server's own words when refused.
 * @param {string} url @param {unknown} body @returns {Promise<any>} */
export async function post(url, body) {
  const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const data = await r.json().catch(() => ({error: t("The server did not answer; try again.")}));
  if (!r.ok) throw new Error(data.error || t("Refused."));
  return data;
}

// Every frame a phone sends is FRAME bytes, so that an answer to a real night prompt is no
// longer on the air than a decoy's (the server refuses other sizes).
export const FRAME = 1024;
/** @param {Record<string, unknown>} m */
export function frame(m) {
  const text = JSON.stringify(Object.assign({}, m, {pad: ""}));
  const room = FRAME - new TextEncoder().encode(text).length;
  return JSON.stringify(Object.assign({}, m, {pad: " ".repeat(Math.max(0, room))}));
}

/** @typedef {{send: (m: Record<string, unknown>) => boolean, stop: () => void}} Link */

/** A socket that says hello, reconnects with backoff, and says hello again every time.
 * A phone's socket (`padded`) sends every message as one FRAME-byte frame.
 * @param {Record<string, unknown>} hello @param {(m: Message) => void} onMessage
 * @param {(up: boolean) => void} onStatus @param {boolean} [padded] @returns {Link} */
export function connect(hello, onMessage, onStatus, padded) {
  /** @type {WebSocket | null} */
  let ws = null;
  let delay = 500, closedByUs = false;
  /** @param {Record<string, unknown>} m */
  const encode = m => padded ? frame(m) : JSON.stringify(m);
  const open = () => {
    const sock = ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
    sock.onopen = () => { delay = 500; sock.send(encode(Object.assign({type: "hello"}, hello))); onStatus(true); };
    sock.onmessage = e => {
      /** @type {Message} */
      const msg = JSON.parse(e.data);
      if ((msg.type === "error" && (msg.code === "bad_token" || msg.code === "no_table")) || msg.type === "moved") closedByUs = true;
      onMessage(msg);
    };
    sock.onclose = () => {
      if (ws !== sock || closedByUs) return;  // closed on purpose: nothing is reconnecting
      onStatus(false);
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 5000);
    };
  };
  open();
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && ws && ws.readyState > 1 && !closedByUs) open();
  });
  return {
    send: m => {
      if (ws && ws.readyState === 1) { ws.send(encode(m)); return true; }
      banner(t("Not connected; retrying…"));
      return false;
    },
    stop: () => { closedByUs = true; if (ws) ws.close(); },
  };
}

/** A countdown to a step's end, from the message's `timer_ends` (seconds from sending, added to
 * this screen's own clock on receipt) or else its `timer`; 0 when there is none.
 * @param {{timer_ends?: number | null, timer?: number | null}} msg */
export function deadline(msg) {
  const left = msg.timer_ends ?? msg.timer ?? null;
  return left ? performance.now() + left * 1000 : 0;
}

/** A phase's name as the screens head it: a capital first letter in every language ("Ночь 1",
 * "Noc 1", "Night 1"), while messages and stored events keep the engine's own words.
 * @param {string | null | undefined} text @returns {string} */
export function capital(text) {
  return text ? text.charAt(0).toLocaleUpperCase(document.documentElement.lang || undefined) + text.slice(1) : "";
}

/** "0:42" or "7" seconds left before `end` (a performance.now() time); "" without one.
 * @param {number} end */
export function clockText(end) {
  if (!end) return "";
  const left = Math.max(0, Math.ceil((end - performance.now()) / 1000));
  return left >= 60 ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` : String(left);
}

/** What to pick, in words, for a multi-choice prompt.
 * @param {number} min @param {number} max */
export function pickHint(min, max) {
  if (max === 1) return min ? t("Pick one.") : t("Pick one, or none.");
  if (min === max) return t("Pick {n}, in order.", {n: max});
  if (min === 0) return t("Pick up to {n}, in order, or none.", {n: max});
  return t("Pick from {min} to {max}, in order.", {min, max});
}

/** A prompt's signature: a form is rebuilt only when the question itself changes.
 * @param {Prompt} p */
export const promptKey = p => p.id + "|" + p.title + "|" + p.options.map(o => o.label).join(",");

/** One generic form per prompt kind (choose, choose_many, speech); never one per role. The form
 * keeps its choices as it is patched (the countdown is the page's, in its header).
 * @param {Prompt} p @param {(p: Prompt, choice: unknown) => void} answer @param {string} [heading]
 * @returns {HTMLElement} */
export function promptForm(p, answer, heading) {
  const box = el("section", {class: "prompt", "data-prompt": p.id, "aria-label": heading || p.title},
    el("h3", {text: heading || p.title}), p.facts.length ? el("p", {class: "facts", text: p.facts.join(" · ")}) : null);
  const opts = el("div", {class: "options", role: "group", "aria-label": heading || p.title});
  box.append(opts);
  /** @param {string} label @param {() => void} click @param {string} [cls] */
  const button = (label, click, cls) => el("button", {type: "button", class: cls || "opt", on: {click}, text: label});
  if (p.kind === "choose") {
    for (const o of p.options) opts.append(button(o.label, () => answer(p, o.value)));
    if (p.optional) opts.append(button(t("Pass"), () => answer(p, null), "opt pass"));
  } else if (p.kind === "choose_many") {
    const min = p.min ?? 0, max = p.max ?? p.options.length;
    /** @type {unknown[]} */
    const picked = [];
    const count = el("p", {class: "count", "aria-live": "polite"});
    const labels = new Map(p.options.map(o => [JSON.stringify(o.value), o.label]));
    const go = /** @type {HTMLButtonElement} */ (button(t("Send my choice"), () => answer(p, picked.slice()), "go"));
    const show = () => {
      count.textContent = picked.length ? t("Chosen in order: {list}", {list: picked.map(v => labels.get(JSON.stringify(v)) || "").join(", ")}) : pickHint(min, max);
      go.disabled = picked.length < min;
    };
    for (const o of p.options) {
      const b = button(o.label, () => {
        const i = picked.findIndex(v => JSON.stringify(v) === JSON.stringify(o.value));
        if (i >= 0) picked.splice(i, 1); else if (picked.length < max) picked.push(o.value);
        const on = picked.some(v => JSON.stringify(v) === JSON.stringify(o.value));
        b.classList.toggle("on", on); b.setAttribute("aria-pressed", String(on)); show();
      });
      b.setAttribute("aria-pressed", "false");
      opts.append(b);
    }
    show();
    box.append(count, go);
    if (p.optional) box.append(button(t("Pass"), () => answer(p, null), "opt pass"));
  } else {
    /** @type {unknown} */
    let nominee = null;
    /** @type {number | null} */
    let signal = null;
    if (p.options.length) opts.before(el("p", {class: "hint", text: t("You may nominate someone:")}));
    for (const o of p.options) {
      const b = button(o.label, () => {
        nominee = nominee === o.value ? null : o.value;
        opts.querySelectorAll(".opt").forEach(x => { x.classList.remove("on"); x.setAttribute("aria-pressed", "false"); });
        if (nominee !== null) { b.classList.add("on"); b.setAttribute("aria-pressed", "true"); }
      });
      b.setAttribute("aria-pressed", "false");
      opts.append(b);
    }
    if (p.signal) {
      const sel = /** @type {HTMLSelectElement} */ (el("select", {on: {change: (/** @type {Event} */ e) => {
        const v = /** @type {HTMLSelectElement} */ (e.target).value; signal = v ? Number(v) : null; }}},
        el("option", {value: "", text: t("No signal")}), p.signal.map(o => el("option", {value: String(o.value), text: o.label}))));
      box.append(el("label", {class: "hint"}, t("Secret signal to your team:"), " ", sel));
    }
    box.append(button(t("End my speech"), () => {
      /** @type {Record<string, unknown>} */
      const speech = {nominate: nominee};
      if (signal !== null) speech.signal = signal;
      answer(p, nominee === null && signal === null ? null : speech);
    }, "go"));
  }
  return box;
}
