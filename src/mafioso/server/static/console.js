// @ts-check
// The facilitator's console: the script of a table played with physical cards, step by step.
// Every tap is one entry sent to the server, which stores it before answering; the page keeps
// only the token (local storage, or #t=TOKEN to open the same table on another device).

import { speak, stopSpeaking, Timer } from "./console-sound.js";
import { capital } from "./common.js";

/** @typedef {{value: any, label: string}} Option */
/** @typedef {{prompt: string, seat: number, name: string, question: string, kind: string,
 *   options: Option[], optional: boolean, min: number, max: number, timer: number|null, hint: string}} Ask */
/** @typedef {{kind: string, phase: string, read: string[], wake: number[], asks: Ask[], tools: Ask[],
 *   announce: string[], show: string[], notes: string[], learn_role: string|null,
 *   learn_count: number, learn_seats: Option[], learn_required: boolean, roles: Option[], count_max: number,
 *   count_note: string, clock: number|null, revision: number, script: {kind: string, text: string}[]}} Step */
/** @typedef {{step: Step, entries: string[], revision: number, edition: string, names: string[],
 *   lang: string, over: boolean, phones: number[], story?: string[]}} State */

const KEY = "mafioso.console";
const VOICE = "mafioso.console.voice";
/** @type {Record<string, string>} */
let words = {};
/** @type {string|null} */
let token = null;
/** @type {State|null} */
let state = null;
let voiceOn = localStorage.getItem(VOICE) === "on";
let spokenKey = "";
let busy = false;
let polling = 0;
/** @type {any[]} */
let editions = [];
const timer = new Timer(seconds => { const n = document.getElementById("clock"); if (n) n.textContent = clock(seconds); },
  () => { const go = document.querySelector("#controls .timer-go"); if (go) go.textContent = t("Start the clock"); });

/** Translate an interface string. @param {string} text */
const t = text => words[text] || text;

/**
 * A translated text's {slots} filled in.
 * @param {string} text @param {Record<string, string | number>} slots
 */
const fill = (text, slots) => Object.entries(slots).reduce((out, [k, v]) => out.split(`{${k}}`).join(String(v)), text);

/** @param {string} id @returns {HTMLElement} */
function $(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`no #${id}`);
  return node;
}

/**
 * Make an element. @param {string} tag @param {Record<string, any>} [props] @param {...(Node|string)} kids
 * @returns {HTMLElement}
 */
function el(tag, props = {}, ...kids) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "text") node.textContent = String(value);
    else if (key === "onclick") node.addEventListener("click", value);
    else if (value === true) node.setAttribute(key, "");
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  node.append(...kids);
  return node;
}

/** @param {number} seconds */
function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** Show an error, or hide it. @param {string} [message] */
function complain(message) {
  const node = $("error");
  node.hidden = !message;
  node.textContent = message || "";
  // said where the eyes are: a refusal of the set-up form comes after a tap at its foot
  if (message) node.scrollIntoView({block: "center"});
}

/**
 * POST JSON to the console's API; throws with the server's message on a refusal.
 * @param {string} path @param {Record<string, any>} body
 */
async function post(path, body) {
  const response = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const data = await response.json().catch(() => ({error: t("The server did not answer: try again.")}));
  if (!response.ok) throw Object.assign(new Error(data.error || t("That was refused.")), {data});
  return data;
}

/** Send one entry; the screen changes only once the server has stored it. @param {Record<string, any>} entry */
async function enter(entry) {
  if (busy || !state || !token) return;
  busy = true;
  try {
    const data = await post("/api/console/enter", {token, revision: state.revision, entry});
    complain();
    render(data.state);
  } catch (error) {
    const message = String(/** @type {Error} */ (error).message);
    const peek = /** @type {any} */ (error).data?.peek;
    if (peek) { complain(); peekControls(peek, entry, message); return; }  // a task, not an error
    complain(message);
    await refresh();
  } finally {
    busy = false;
  }
}

/**
 * A learned table must know a card before a choice aimed at it: tap the card's role, then the
 * choice is entered again; or go back to the choice (a wrong tap).
 * @param {{seat: number, roles: [string, string][]}} peek @param {Record<string, any>} entry @param {string} message
 */
function peekControls(peek, entry, message) {
  const buttons = peek.roles.map(([role, name]) => el("button", {type: "button", class: "seat", "data-role": role, text: name, onclick: async () => {
    await enter({do: "learn", role, seats: [peek.seat]});
    if ($("error").hidden) await enter(entry);
  }}));
  const back = big(t("Back to the choice"), () => { if (state) $("controls").replaceChildren(...controls(state.step)); }, "back");
  $("controls").replaceChildren(el("p", {class: "peek-ask", role: "status", text: message}), el("div", {class: "grid peek"}, ...buttons), back);
}

let seenTag = "";

/** The state asked for again at a mixed table, with the tag of the last one: a 304 while nothing changed. */
async function lookAgain() {
  if (!token) return;
  try {
    const r = await fetch("/api/console/state", {method: "POST", cache: "no-store",
      headers: {"Content-Type": "application/json", ...(seenTag ? {"If-None-Match": seenTag} : {})}, body: JSON.stringify({token})});
    if (r.status === 304) { if (state) render(state); return; }  // unchanged: the poll goes on
    if (!r.ok) return refresh();
    seenTag = r.headers.get("ETag") || "";
    render((await r.json()).state);
  } catch { if (state) render(state); }  // offline for a moment: look again later
}

async function refresh() {
  if (!token) return;
  try {
    render((await post("/api/console/state", {token})).state);
  } catch (error) {
    complain(String(/** @type {Error} */ (error).message));
  }
}

/** @param {string} lang */
async function loadWords(lang) {
  try { words = await (await fetch(`/api/text?lang=${encodeURIComponent(lang)}`)).json(); } catch { words = {}; }
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-t]").forEach(node => {
    const key = node.getAttribute("data-t");
    if (key) node.textContent = t(key);
  });
}

/** @param {string} section */
function showSection(section) {
  for (const name of ["setup", "play", "end"]) $(name).hidden = name !== section;
  $("tools").hidden = section === "setup";
}

// -- set-up -----------------------------------------------------------------------------------
async function startSetup() {
  showSection("setup");
  const info = await (await fetch("/api/info")).json();
  const words = navigator.language.slice(0, 2);
  const known = info.languages.some((/** @type {any} */ l) => l.code === words) ? words : info.default_lang;
  if (document.documentElement.lang !== known) await loadWords(known);
  $("phase").textContent = t("Facilitator's console");
  const lang = /** @type {HTMLSelectElement} */ ($("lang"));
  lang.replaceChildren(...info.languages.map((/** @type {any} */ l) => el("option", {value: l.code, text: l.name, selected: l.code === known})));
  lang.onchange = changeLanguage;
  await loadEditions(known);
  /** @type {HTMLSelectElement} */ ($("edition")).onchange = pickEdition;
  document.querySelectorAll("input[name=roles]").forEach(n => n.addEventListener("change", drawCast));
  $("names").oninput = drawCast;
  $("options").onchange = drawCast;
  $("phones").oninput = phonesField;
  pickEdition();
  phonesField();
}

/** The editions with their options' labels and choices in a language; the edition picked stays. @param {string} lang */
async function loadEditions(lang) {
  editions = await (await fetch(`/api/editions?lang=${encodeURIComponent(lang)}`)).json();
  const edition = /** @type {HTMLSelectElement} */ ($("edition"));
  const picked = edition.value;
  edition.replaceChildren(...editions.map(e => el("option", {value: e.id, text: e.name, selected: e.id === picked})));
}

/**
 * The console's language changed on the set-up form: the page's words, the editions' names, the
 * options' labels, help and choices, and the cards follow it; what was already set is kept.
 */
async function changeLanguage() {
  const lang = /** @type {HTMLSelectElement} */ ($("lang")).value;
  const kept = readOptions();
  const cards = readCast();
  await loadWords(lang);
  await loadEditions(lang);
  $("phase").textContent = t("Facilitator's console");
  $("options").replaceChildren(...(currentEdition().options || []).map((/** @type {any} */ o) => optionField(o, kept[o.name])));
  await drawCast(cards);
}

/**
 * For sport, the tables of the server's tournaments: picking one writes its players in the
 * names, in its seating's order (a game recorded into that table must name them so).
 */
async function offerTournamentTables() {
  const box = $("seat-from");
  box.hidden = true;
  if (currentEdition().id !== "sport") return;
  /** @type {any[]} */
  let all = [];
  try { all = await (await fetch("/api/desk/tournaments")).json(); } catch { all = []; }
  if (!Array.isArray(all) || !all.length) return;
  const options = [el("option", {value: "", text: "—"})];
  /** @type {Record<string, string[]>} */
  const players = {};
  /** @type {Set<string>} tables whose tournament scores the best move */
  const bestMove = new Set();
  for (const tour of all.slice(0, 20)) {
    const data = await (await fetch(`/api/desk/tournament?name=${encodeURIComponent(tour.name)}`)).json().catch(() => ({}));
    for (const table of (data.seating || []).filter((/** @type {any} */ x) => x.result === "not_played")) {
      const key = `${tour.name}\n${table.round}\n${table.table}`;
      players[key] = table.players;
      if (data.best_move) bestMove.add(key);
      options.push(el("option", {value: key, text: `${tour.name}: ${fill(t("Round {round}, table {table}"), {round: table.round, table: table.table})}`}));
    }
  }
  if (options.length === 1) return;
  const pick = /** @type {HTMLSelectElement} */ ($("seat-table"));
  pick.replaceChildren(...options);
  pick.onchange = () => {
    const names = players[pick.value];
    if (!names) return;
    /** @type {HTMLTextAreaElement} */ ($("names")).value = names.join("\n");
    // a system that scores the best move (FIIM) needs the night-1 victim asked for one
    const option = /** @type {HTMLSelectElement | null} */ (document.querySelector("#options [data-opt=best_move]"));
    const on = bestMove.has(pick.value) && option !== null;
    if (on && option) option.value = "true";
    $("seat-note").hidden = !on;
    $("seat-note").textContent = on ? t("This tournament scores the best move: the best move is asked for.") : "";
    drawCast();
  };
  box.hidden = false;
}

function pickEdition() {
  offerTournamentTables();
  const e = currentEdition();
  const names = /** @type {HTMLTextAreaElement} */ ($("names"));
  const given = names.value.split("\n").filter(n => n.trim());
  if (given.length < e.min || given.length > e.max) {
    names.value = Array.from({length: e.default_players}, (_, i) => `${t("Player")} ${i + 1}`).join("\n");
  }
  $("options").replaceChildren(...(e.options || []).map((/** @type {any} */ o) => optionField(o)));
  drawCast();
}

/**
 * One edition option as a field: its label, a choice among its worded choices (or a number, a
 * yes/no, a text), and one line of help; the value sent back is the option's own.
 * @param {any} o
 * @param {unknown} [value] the value already set (the form redrawn in another language), else the default
 */
function optionField(o, value = o.default) {
  const id = `opt-${o.name}`;
  /** @type {HTMLElement} */
  let input;
  const choices = /** @type {{value: any, label: string}[]} */ (o.choice_labels || []);
  if (choices.length) {
    input = el("select", {id, "data-opt": o.name}, ...choices.map(c => el("option", {value: JSON.stringify(c.value), text: c.label,
      selected: JSON.stringify(c.value) === JSON.stringify(value)})));
  } else if (typeof o.default === "number") {
    input = el("input", {id, type: "number", step: "any", "data-opt": o.name, value, min: o.min ?? undefined, max: o.max ?? undefined});
  } else {
    input = el("input", {id, type: "text", "data-opt": o.name, "data-text": "1", value: value === null || value === undefined ? "" : String(value)});
  }
  return el("label", {class: "field"}, el("span", {text: o.label}), input, o.help ? el("small", {class: "hint", text: o.help}) : "");
}

/** The options as set on the form, by name. @returns {Record<string, unknown>} */
function readOptions() {
  /** @type {Record<string, unknown>} */
  const out = {};
  document.querySelectorAll("#options [data-opt]").forEach(n => {
    const input = /** @type {HTMLInputElement} */ (n);
    const name = input.dataset.opt || "";
    if (input.tagName === "SELECT") out[name] = JSON.parse(input.value);
    else if (input.dataset.text) out[name] = input.value;
    else out[name] = Number(input.value);
  });
  return out;
}

function currentEdition() {
  const id = /** @type {HTMLSelectElement} */ ($("edition")).value;
  return editions.find(e => e.id === id) || editions[0];
}

function playerNames() {
  return /** @type {HTMLTextAreaElement} */ ($("names")).value.split("\n").map(n => n.trim()).filter(n => n);
}

function rolesMode() {
  const picked = /** @type {HTMLInputElement|null} */ (document.querySelector("input[name=roles]:checked"));
  return picked ? picked.value : "dealt";
}

/**
 * The cards: a role per seat (entered), or how many of each role are in play (learned).
 * @param {unknown} [kept] the cards already set (the form redrawn in another language): kept where they fit
 */
async function drawCast(kept) {
  const before = Array.isArray(kept) ? /** @type {string[]} */ (kept) : null;
  const box = $("cast");
  const mode = rolesMode();
  const e = currentEdition();
  const names = playerNames();
  if (mode === "dealt") { box.replaceChildren(); return; }
  let cast = /** @type {Record<string, number>} */ ({});
  try {
    const options = encodeURIComponent(JSON.stringify(readOptions()));
    cast = (await (await fetch(`/api/cast?edition=${e.id}&players=${names.length}&options=${options}`)).json()).cast || {};
  } catch { cast = {}; }
  if (mode === "entered") {
    const deal = Object.entries(cast).flatMap(([role, n]) => Array(n).fill(role));
    const rows = Array.from({length: Math.max(names.length, deal.length)}, (_, i) => i < names.length ? `${i + 1}. ${names[i]}` : t("The extra card"));
    box.replaceChildren(el("h3", {text: t("Each player's card")}), ...rows.map((name, i) => el("label", {class: "field seat-role"},
      el("span", {text: name}),
      el("select", {"data-seat": i + 1, "aria-label": name}, ...e.roles.map((/** @type {any} */ r) => el("option", {value: r.id, text: r.name, selected: r.id === (before && before.length === rows.length ? before[i] : deal[i])}))))));
  } else {
    box.replaceChildren(el("h3", {text: t("The cards in play")}), ...e.roles.map((/** @type {any} */ r) => el("label", {class: "field count"},
      el("span", {text: r.name}), el("input", {type: "number", min: 0, max: 40, "data-role": r.id,
        value: before ? before.filter(x => x === r.id).length : cast[r.id] || 0}))));
  }
}

function readCast() {
  const mode = rolesMode();
  if (mode === "entered") {
    return Array.from(document.querySelectorAll("#cast select")).map(n => /** @type {HTMLSelectElement} */ (n).value);
  }
  if (mode === "learned") {
    return Array.from(document.querySelectorAll("#cast input")).flatMap(n => {
      const input = /** @type {HTMLInputElement} */ (n);
      return Array(Math.max(0, Number(input.value) || 0)).fill(input.dataset.role);
    });
  }
  return [];
}

/** The set-up as the form says it. */
function readSetup() {
  const lang = /** @type {HTMLSelectElement} */ ($("lang")).value;
  const phones = /** @type {HTMLInputElement} */ ($("phones")).value.split(/[\s,]+/).filter(w => w).map(Number);
  return {edition: currentEdition().id, names: playerNames(), roles: rolesMode(), cast: readCast(), options: readOptions(),
    lang, phones};
}

/** Start the table; one whose phones' codes were shown (a lobby) starts under its token, and the
 * phones that joined keep their seats (by name). */
async function start() {
  const setup = readSetup();
  try {
    const data = await fromLobby("/api/console", lobby => lobby ? {setup, lobby} : {setup});
    token = data.token;
    localStorage.setItem(KEY, data.token);
    complain();
    await loadWords(setup.lang);
    render(data.state);
    const lines = data.lost.length ? [lostLine(data.lost)] : [];
    if (data.waiting.length) lines.push(fill(t("Not joined yet: {names}. Show their codes under Phones."), {names: data.waiting.join(", ")}));
    if (lines.length) tell(lines);
  } catch (error) {
    complain(String(/** @type {Error} */ (error).message));
  }
}

/**
 * A request about this page's lobby; a lobby the server no longer has (its database was
 * replaced) is forgotten and the set-up sent afresh, once.
 * @param {string} path @param {(token: string|null) => Record<string, any>} body
 */
async function fromLobby(path, body) {
  try {
    return await post(path, body(token));
  } catch (error) {
    if (!token || /** @type {any} */ (error).data?.code !== "bad_token") throw error;
    token = null;
    localStorage.removeItem(KEY);
    return post(path, body(null));
  }
}

/** @param {string[]} names */
const lostLine = names => fill(t("The set-up changed: these phones no longer have a seat and must scan a new code if they play: {names}"),
  {names: names.join(", ")});

/** A notice in the "What changed" dialog. @param {string[]} lines */
function tell(lines) {
  $("changes-list").replaceChildren(...lines.map(l => el("li", {text: l})));
  /** @type {HTMLDialogElement} */ ($("changes")).showModal();
}

/** Before Start: the set-up is stored as a lobby, and its phone seats' codes are shown, so the
 * players join while the others sit down; their phones wait for Start. */
async function setupPhones() {
  try {
    const data = await fromLobby("/api/console/lobby", lobby => lobby ? {setup: readSetup(), token: lobby} : {setup: readSetup()});
    token = data.token;
    localStorage.setItem(KEY, data.token);
    complain();
    showPhones(data.phones, data.lost);
  } catch (error) {
    complain(String(/** @type {Error} */ (error).message));
  }
}

/** The form as a lobby stored it (after a reload or a restart before Start). @param {any} setup */
async function restoreSetup(setup) {
  const lang = /** @type {HTMLSelectElement} */ ($("lang"));
  if ([...lang.options].some(o => o.value === setup.lang) && lang.value !== setup.lang) { lang.value = setup.lang; await changeLanguage(); }
  /** @type {HTMLSelectElement} */ ($("edition")).value = setup.edition;
  /** @type {HTMLTextAreaElement} */ ($("names")).value = setup.names.join("\n");
  pickEdition();
  $("options").replaceChildren(...(currentEdition().options || []).map((/** @type {any} */ o) =>
    optionField(o, o.name in setup.options ? setup.options[o.name] : o.default)));
  const mode = /** @type {HTMLInputElement|null} */ (document.querySelector(`input[name=roles][value=${setup.roles}]`));
  if (mode) mode.checked = true;
  /** @type {HTMLInputElement} */ ($("phones")).value = setup.phones.join(" ");
  phonesField();
  await drawCast(setup.cast.length ? setup.cast : undefined);
}

/** The button to show the phones' codes before Start, when seats are on phones. */
function phonesField() {
  $("setup-phones-row").hidden = !/** @type {HTMLInputElement} */ ($("phones")).value.trim();
}

// -- a step -----------------------------------------------------------------------------------
/** @param {State} next */
function render(next) {
  const changed = !state || state.revision !== next.revision || state.step.kind !== next.step.kind;
  state = next;
  document.body.dataset.revision = String(next.revision);
  const step = next.step;
  $("phase").textContent = capital(step.phase);  // "Night 1", as the table's screens head it
  if (next.over) { $("open-tools").hidden = true; return renderEnd(next); }
  showSection("play");
  const wake = $("wake");
  wake.hidden = !step.wake.length;
  wake.textContent = step.wake.length ? `${t("Wake")}: ${step.wake.map(s => next.names[s - 1]).join(", ")}` : "";
  $("read").replaceChildren(...said(step.script));
  $("open-tools").hidden = !step.tools.length;
  $("open-phones").hidden = !next.phones.length;
  $("notes").replaceChildren(...step.notes.map(line => el("li", {text: line})));
  if (changed) {
    $("controls").replaceChildren(...controls(step));
    narrate(step);
  }
  // a phone may answer while the console waits for a hand-played seat too: look again at a mixed table
  if (next.phones.length && !polling) {
    polling = window.setTimeout(() => { polling = 0; lookAgain(); }, 1500);
  }
}

/**
 * The step's lines in the order they are said: lines to read, news to announce (labelled), and
 * what to show only to those woken (labelled), each where it comes.
 * @param {{kind: string, text: string}[]} lines @returns {HTMLElement[]}
 */
function said(lines) {
  const labels = {announce: t("Announce"), show: t("Show only to those woken")};
  return lines.map(line => {
    const label = labels[/** @type {"announce"|"show"} */ (line.kind)];
    if (!label) return el("p", {text: line.text});
    return el("p", {class: `said ${line.kind}`, "data-kind": line.kind}, el("span", {class: "label", text: label}), el("span", {text: line.text}));
  });
}

/** @param {Step} step @returns {HTMLElement[]} */
function controls(step) {
  timer.stop();
  if (step.kind === "silent") return [big(t("Done: next"), () => enter({do: "ack"}), "primary")];
  if (step.kind === "learn") return learnControls(step);
  if (step.kind === "peek") {
    const seat = step.learn_seats[0].value;
    return [el("div", {class: "grid"}, ...step.roles.map(o => el("button", {type: "button", class: "seat", "data-role": o.value, text: o.label,
      onclick: () => enter({do: "learn", role: o.value, seats: [seat]})})))];
  }
  if (step.kind === "phones") {  // a phone's speech still has the facilitator's clock
    const waiting = el("p", {class: "waiting", text: t("Waiting for the phones…")});
    return step.clock ? [timerControls(/** @type {Ask} */ ({timer: step.clock})), waiting] : [waiting];
  }
  const asks = step.asks;
  if (asks.every(a => a.options.length === 1 && typeof a.options[0].value === "string")) return ackControls(asks);
  const hands = asks.every(a => a.kind === "choose" && a.question === asks[0].question && a.options.length <= 2);
  const shown = asks.length > 1 && hands ? voteControls(asks) : askControls(asks[0]);
  if (step.count_max > 0) shown.push(...countControls(step, asks));
  if (step.count_note) shown.unshift(el("p", {class: "hint count-note", text: step.count_note}));
  return shown;
}

/**
 * The same hand vote as a count: how many hands went up (the rules use only the number).
 * @param {Step} step @param {Ask[]} asks
 */
function countControls(step, asks) {
  const input = /** @type {HTMLInputElement} */ (el("input", {id: "count-hands", type: "number", inputmode: "numeric",
    min: "0", max: String(step.count_max), step: "1", "aria-label": t("How many hands were raised?")}));
  const send = el("button", {type: "button", id: "count-enter", class: "primary", text: t("Enter the count")});
  send.addEventListener("click", () => {
    const typed = input.value.trim();
    if (!/^-?\d+$/.test(typed)) { complain(t("Type how many hands were raised, as a number.")); return; }
    enter({do: "count", hands: Number(typed), prompts: asks.map(a => a.prompt)});
  });
  const label = el("label", {class: "field count", for: "count-hands"},
    el("span", {text: t("Or enter how many hands were raised")}), input);
  return [el("div", {class: "by-count"}, label, send)];
}

/**
 * Questions with one answer only (the hunters meet, the sheriff greets you): one tap answers them all.
 * @param {Ask[]} asks
 */
function ackControls(asks) {
  const done = big(t("Done: next"), async () => {
    document.body.dataset.sending = "acks";
    try {
      for (const ask of asks) {
        await enter({do: "answer", seat: ask.seat, prompt: ask.prompt, choice: ask.options[0].value});
        if (!$("error").hidden) break;
      }
    } finally { delete document.body.dataset.sending; }
  }, "primary ack");
  return [done];
}

/** A big button. @param {string} text @param {() => void} action @param {string} [kind] */
function big(text, action, kind = "") {
  return el("button", {type: "button", class: `big ${kind}`, text, onclick: action});
}

/** Seats to tap for "who woke as …?". @param {Step} step */
function learnControls(step) {
  /** @type {Set<number>} */
  const picked = new Set();
  // Nobody is an answer only when no question waits for the role: else the button waits for a tap.
  const none = step.learn_required ? t("Confirm") : t("Nobody");
  const confirm = big(none, () => enter({do: "learn", role: step.learn_role, seats: [...picked]}), "primary");
  const update = () => {
    confirm.textContent = picked.size ? `${t("Confirm")}: ${[...picked].map(s => state?.names[s - 1]).join(", ")}` : none;
    /** @type {HTMLButtonElement} */ (confirm).disabled = step.learn_required && !picked.size;
  };
  update();
  const grid = el("div", {class: "grid"}, ...step.learn_seats.map(o => {
    const b = el("button", {type: "button", class: "seat", "aria-pressed": "false", text: o.label});
    b.addEventListener("click", () => {
      if (picked.has(o.value)) picked.delete(o.value); else picked.add(o.value);
      b.setAttribute("aria-pressed", String(picked.has(o.value)));
      update();
    });
    return b;
  }));
  return [grid, confirm];
}

/** One voter after another is slow at a table: every hand at once, then one tap to enter them. @param {Ask[]} asks */
function voteControls(asks) {
  const yes = asks[0].options.find(o => o.value === "yes");
  /** @type {Map<string, any>} */
  const hands = new Map();
  const rows = asks.map(ask => {
    const row = el("div", {class: "voter"}, el("span", {class: "who", text: ask.name}));
    const single = ask.options.length === 1 && ask.optional;
    const buttons = ask.options.map(o => {
      const b = el("button", {type: "button", class: "hand", "aria-pressed": "false", text: single ? t("Hand up") : o.label});
      b.addEventListener("click", () => {
        const again = hands.get(ask.prompt) === o.value;
        hands.set(ask.prompt, again ? undefined : o.value);
        buttons.forEach(x => x.setAttribute("aria-pressed", "false"));
        if (!again) b.setAttribute("aria-pressed", "true");
      });
      return b;
    });
    row.append(...buttons);
    return row;
  });
  const send = big(t("Enter these votes"), async () => {
    if (asks.some(a => !a.optional && !yes && hands.get(a.prompt) === undefined)) {
      complain(t("Tap a vote for every player first."));
      return;
    }
    document.body.dataset.sending = "votes";
    try { await sendVotes(asks, hands, Boolean(yes)); } finally { delete document.body.dataset.sending; }
  }, "primary");
  const raised = yes || asks.every(a => a.optional);
  const note = el("p", {class: "hint", text: raised ? t("Tap the raised hands; the others count as no.") : t("Tap each player's vote.")});
  return [note, el("div", {class: "voters"}, ...rows), send];
}

/** Enter the votes one by one (each stored before the next is sent). @param {Ask[]} asks @param {Map<string, any>} hands @param {boolean} hands_up */
async function sendVotes(asks, hands, hands_up) {
    for (const ask of asks) {
      let choice = hands.get(ask.prompt);
      if (choice === undefined) choice = hands_up ? "no" : null;
      await enter({do: "answer", seat: ask.seat, prompt: ask.prompt, choice});
      if (!$("error").hidden) break;
    }
}

/** One question: name buttons, a pass, a speech timer. @param {Ask} ask */
function askControls(ask) {
  const out = [el("p", {class: "asked", text: ask.hint})];
  if (ask.kind === "speech") return [...out, timerControls(ask), ...speechControls(ask)];
  if (ask.kind === "choose_many") return [...out, ...manyControls(ask)];
  const grid = el("div", {class: "grid"}, ...ask.options.map(o => el("button", {type: "button", class: "seat", text: o.label,
    onclick: () => enter({do: "answer", seat: ask.seat, prompt: ask.prompt, choice: o.value})})));
  if (ask.options.length) out.push(grid);
  if (ask.optional) {
    const pass = ask.kind === "speech" ? t("End of the speech") : t("Nobody: pass");
    out.push(big(pass, () => enter({do: "answer", seat: ask.seat, prompt: ask.prompt, choice: null}), ask.kind === "speech" ? "primary" : ""));
  }
  return out;
}

/** A speech: tapping a name marks the nominee (tap again to take it back) and the speech goes
 * on; *End of the speech* enters it with the nominee marked, if any. @param {Ask} ask */
function speechControls(ask) {
  /** @type {any} */
  let nominee = null;
  const grid = el("div", {class: "grid"}, ...ask.options.map(o => {
    const b = el("button", {type: "button", class: "seat", "aria-pressed": "false", text: o.label});
    b.addEventListener("click", () => {
      nominee = JSON.stringify(nominee) === JSON.stringify(o.value) ? null : o.value;
      grid.querySelectorAll("button").forEach((x, i) =>
        x.setAttribute("aria-pressed", String(nominee !== null && JSON.stringify(ask.options[i].value) === JSON.stringify(nominee))));
    });
    return b;
  }));
  const end = big(t("End of the speech"), () => enter({do: "answer", seat: ask.seat, prompt: ask.prompt, choice: nominee}), "primary");
  return ask.options.length ? [grid, end] : [end];
}

/** @param {Ask} ask */
function manyControls(ask) {
  /** @type {any[]} */
  const picked = [];
  const confirm = big(t("Confirm"), () => enter({do: "answer", seat: ask.seat, prompt: ask.prompt, choice: [...picked]}), "primary");
  const grid = el("div", {class: "grid"}, ...ask.options.map(o => {
    const b = el("button", {type: "button", class: "seat", "aria-pressed": "false", text: o.label});
    b.addEventListener("click", () => {
      const at = picked.findIndex(v => JSON.stringify(v) === JSON.stringify(o.value));
      if (at >= 0) picked.splice(at, 1); else if (picked.length < ask.max) picked.push(o.value);
      grid.querySelectorAll("button").forEach((x, i) => {
        const n = picked.findIndex(v => JSON.stringify(v) === JSON.stringify(ask.options[i].value));
        x.setAttribute("aria-pressed", String(n >= 0));
        x.dataset.order = n >= 0 ? String(n + 1) : "";
      });
      confirm.textContent = `${t("Confirm")} (${picked.length})`;
    });
    return b;
  }));
  return [grid, confirm];
}

/** A speech's clock: it sounds at 10 s left and at the end. @param {Ask} ask */
function timerControls(ask) {
  const seconds = ask.timer || 60;
  const face = el("span", {id: "clock", class: "clock", role: "timer", text: clock(seconds)});
  const go = el("button", {type: "button", class: "timer-go", text: t("Start the clock")});
  go.addEventListener("click", () => {
    if (timer.running) { timer.stop(); go.textContent = t("Start the clock"); } else { timer.start(seconds); go.textContent = t("Stop the clock"); }
    shareClock(timer.running ? seconds : 0);
  });
  return el("div", {class: "timer"}, face, go);
}

/** At a table with phones, the clock started (or stopped: 0) is counted down on every phone alike.
 * @param {number} seconds */
function shareClock(seconds) {
  if (!state || !token || !state.phones.length) return;
  post("/api/console/timer", {token, revision: state.revision, seconds}).catch(() => undefined);  // the console's own clock runs anyway
}

/** Read the step's lines aloud on this device's speaker, once per step. @param {Step} step */
function narrate(step) {
  const key = `${step.revision}/${step.kind}`;
  if (!voiceOn || key === spokenKey) return;
  spokenKey = key;
  speak(step.script.filter(line => line.kind !== "show").map(line => line.text), state ? state.lang : "en");
}

// -- the end ----------------------------------------------------------------------------------
/** @param {State} next */
function renderEnd(next) {
  showSection("end");
  $("phase").textContent = t("Game over");
  const lines = next.step.script;
  const ending = lines.length ? lines[lines.length - 1] : null;
  $("end-script").replaceChildren(...said(lines.slice(0, -1)));
  $("winners").textContent = ending ? ending.text : "";
  $("story").replaceChildren(...(next.story || []).map(line => el("li", {text: line})));
  $("show-protocol").hidden = next.edition !== "sport";
  $("download-protocol").hidden = next.edition !== "sport";
  $("open-record").hidden = next.edition !== "sport";
  if (voiceOn && spokenKey !== "end") { spokenKey = "end"; speak(lines.filter(line => line.kind !== "show").map(line => line.text), next.lang); }
}

async function downloadLog() {
  if (!token) return;
  const response = await fetch("/api/console/log", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({token})});
  if (!response.ok) return complain(t("The log is ready when the game is over."));
  const link = el("a", {href: URL.createObjectURL(await response.blob()), download: "mafioso-console.json"});
  link.click();
}

async function showProtocol() {
  if (!token) return;
  try {
    const data = await post("/api/console/protocol", {token});
    const box = $("protocol");
    box.hidden = false;
    const frame = el("iframe", {title: t("The protocol"), sandbox: ""});
    /** @type {HTMLIFrameElement} */ (frame).srcdoc = data.protocol.html;
    box.replaceChildren(frame);
  } catch (error) {
    complain(String(/** @type {Error} */ (error).message));
  }
}

/** The protocol as a file (mafioso's protocol format): a game recorded later, or kept on its own. */
async function downloadProtocol() {
  if (!token) return;
  try {
    const data = await post("/api/console/protocol", {token});
    const blob = new Blob([JSON.stringify(data.protocol.json, null, 1)], {type: "application/json"});
    el("a", {href: URL.createObjectURL(blob), download: "mafioso-protocol.json"}).click();
  } catch (error) {
    complain(String(/** @type {Error} */ (error).message));
  }
}

/** @type {Record<string, any>} */
let seatings = {};

/** The form to record this sport game into a tournament of the server's desk. */
async function openRecord() {
  const form = $("record");
  form.hidden = false;
  $("record-result").replaceChildren();
  try {
    const all = await (await fetch("/api/desk/tournaments")).json();
    const pick = /** @type {HTMLSelectElement} */ ($("record-tournament"));
    pick.replaceChildren(...all.map((/** @type {any} */ x) => el("option", {value: x.name, text: x.name})));
    if (!all.length) {
      $("record-result").replaceChildren(el("p", {class: "error", text: t("No tournament on this server yet: create one on the tournament page.")}));
      return;
    }
    await pickTournament();
    form.scrollIntoView({block: "start"});
  } catch (error) {
    complain(String(/** @type {Error} */ (error).message));
  }
}

/** The tournament's tables, the first one still to play picked; each names its players. */
async function pickTournament() {
  const name = /** @type {HTMLSelectElement} */ ($("record-tournament")).value;
  const data = await (await fetch(`/api/desk/tournament?name=${encodeURIComponent(name)}&lang=${encodeURIComponent(state ? state.lang : "en")}`)).json();
  seatings = {};
  const tables = /** @type {any[]} */ (data.seating || []);
  const next = tables.find(x => x.result === "not_played");
  $("record-table").replaceChildren(...tables.map(x => {
    const key = `${x.round}/${x.table}`;
    seatings[key] = x;
    return el("option", {value: key, selected: x === next,
      text: fill(t("Round {round}, table {table}"), {round: x.round, table: x.table}) + (x.result === "not_played" ? "" : ` (${t("recorded")})`)});
  }));
  showSeating();
}

/** The seating of the table picked beside this game's players: a difference is shown before it is sent. */
function showSeating() {
  const picked = seatings[/** @type {HTMLSelectElement} */ ($("record-table")).value];
  const box = $("record-seating");
  if (!picked || !state) { box.replaceChildren(); return; }
  const differ = picked.players.map((/** @type {string} */ p, /** @type {number} */ i) => p === state?.names[i] ? null :
    fill(t("seat {seat}: {here} here, {there} in the seating"), {seat: i + 1, here: state?.names[i] || "", there: p})).filter((/** @type {any} */ x) => x);
  box.textContent = differ.length ? fill(t("This table's seating names other players: {list}"), {list: differ.join("; ")})
    : t("The seating matches this game's players.");
  box.classList.toggle("error", differ.length > 0);
}

/** Send it; what the desk says (stored, or every rule the protocol breaks) is shown. @param {Event} event */
async function sendRecord(event) {
  event.preventDefault();
  if (!token) return;
  const [round, table] = /** @type {HTMLSelectElement} */ ($("record-table")).value.split("/").map(Number);
  const out = $("record-result");
  try {
    const data = await post("/api/console/record", {token, name: /** @type {HTMLSelectElement} */ ($("record-tournament")).value,
      round, table, pass: /** @type {HTMLInputElement} */ ($("record-pass")).value, judge: /** @type {HTMLInputElement} */ ($("record-judge")).value,
      correct: /** @type {HTMLInputElement} */ ($("record-correct")).checked, reason: /** @type {HTMLInputElement} */ ($("record-reason")).value});
    out.replaceChildren(el("p", {class: "ok", text: fill(t("Recorded: round {round}, table {table}."), {round: data.round, table: data.table})}),
      el("a", {href: `/tournament?name=${encodeURIComponent(/** @type {HTMLSelectElement} */ ($("record-tournament")).value)}&lang=${encodeURIComponent(state ? state.lang : "en")}`,
        text: t("Open the tournament's standings"), target: "_blank"}));
    const picked = /** @type {HTMLSelectElement} */ ($("record-table")).value;
    await pickTournament();
    /** @type {HTMLSelectElement} */ ($("record-table")).value = picked;  // the table just recorded stays picked
    showSeating();
  } catch (error) {
    const data = /** @type {any} */ (error).data || {};
    out.replaceChildren(el("p", {class: "error", text: fill(t("Nothing was stored: {why}"), {why: String(/** @type {Error} */ (error).message)})}),
      ...(data.problems ? [el("ul", {}, ...data.problems.map((/** @type {string} */ p) => el("li", {text: p})))] : []));
  }
}

// -- grimoire and undo ------------------------------------------------------------------------
async function openGrimoire() {
  if (!token) return;
  try {
    const data = await post("/api/console/grimoire", {token});
    $("grimoire-list").replaceChildren(...data.grimoire.map((/** @type {any} */ card) => el("article", {class: `card ${card.alive ? "" : "out"}`},
      el("h3", {text: `${card.seat}. ${card.name}`}),
      el("p", {class: "role", text: `${card.known ? card.role : t("not known yet")} · ${card.alive ? t("in play") : t("out")}${card.phone ? " · " + t("phone") : ""}`}),
      el("ul", {}, ...card.did.map((/** @type {string} */ l) => el("li", {text: capital(l)})), ...card.told.map((/** @type {string} */ l) => el("li", {class: "told", text: l}))))));
    /** @type {HTMLDialogElement} */ ($("grimoire")).showModal();
  } catch (error) {
    complain(String(/** @type {Error} */ (error).message));
  }
}

function openUndo() {
  if (!state) return;
  const shown = state;
  const items = shown.entries.map((text, index) => el("li", {},
    el("span", {text: `${index + 1}. ${text}`}), el("button", {type: "button", class: "undo-one", text: t("Undo"), onclick: () => confirmUndo(index, text, shown.revision)})));
  $("undo-list").replaceChildren(...items.reverse());
  $("share").replaceChildren(el("span", {text: t("Open this table on another device:") + " "}),
    el("a", {href: `/console#t=${token}`, text: t("this link")}));
  /** @type {HTMLDialogElement} */ ($("undo")).showModal();
}

/** @param {number} index @param {string} text @param {number} revision */
function confirmUndo(index, text, revision) {
  $("confirm-text").textContent = `${t("Undo entry")} ${index + 1}: ${text}?`;
  $("confirm-yes").textContent = t("Yes, undo it");
  const dialog = /** @type {HTMLDialogElement} */ ($("confirm"));
  $("confirm-yes").onclick = async () => {
    dialog.close();
    /** @type {HTMLDialogElement} */ ($("undo")).close();
    try {
      const data = await post("/api/console/undo", {token, revision, index});
      complain();
      state = null;
      render(data.state);
      const lines = [...data.changes];
      if (data.dropped) lines.push(`${t("Later entries dropped")}: ${data.dropped}`);
      $("changes-list").replaceChildren(...(lines.length ? lines : [t("Nothing else changed.")]).map(l => el("li", {text: l})));
      /** @type {HTMLDialogElement} */ ($("changes")).showModal();
    } catch (error) {
      complain(String(/** @type {Error} */ (error).message));
      await refresh();
    }
  };
  $("confirm-no").onclick = () => dialog.close();
  dialog.showModal();
}

/** The facilitator's fouls and removals, each after a confirmation. */
function openTools() {
  if (!state) return;
  const dialog = /** @type {HTMLDialogElement} */ ($("tools-dialog"));
  $("tools-list").replaceChildren(...state.step.tools.map(tool => el("section", {class: "tool"},
    el("h3", {text: tool.question}),
    el("div", {class: "grid"}, ...tool.options.map(o => el("button", {type: "button", class: "seat", text: o.label, onclick: () => {
      $("confirm-text").textContent = `${tool.question}: ${o.label}?`;
      $("confirm-yes").textContent = t("Yes");
      const confirm = /** @type {HTMLDialogElement} */ ($("confirm"));
      $("confirm-yes").onclick = async () => {
        confirm.close();
        dialog.close();
        await enter({do: "answer", seat: 0, prompt: tool.prompt, choice: o.value});
      };
      $("confirm-no").onclick = () => confirm.close();
      confirm.showModal();
    }}))))));
  dialog.showModal();
}

/**
 * Each phone seat's own code to scan (its pass: only that player should scan it). The dialog
 * covers the whole console (the night's secrets stay hidden) and works in two screens: the
 * facilitator picks a name, then hands the tablet over on a screen holding only that seat's
 * code and "Done", which returns to the names: the player holding it can reach no other code.
 */
async function openPhones() {
  if (!token) return;
  try {
    const data = await post("/api/console/phones", {token});
    showPhones(data.phones, []);
  } catch (error) {
    complain(String(/** @type {Error} */ (error).message));
  }
}

/**
 * The dialog of the phones' codes: each name says whether its phone has joined; ``lost`` names
 * the joined phones a changed set-up took the seat of.
 * @param {any[]} phones @param {string[]} lost
 */
function showPhones(phones, lost) {
  const dialog = /** @type {HTMLDialogElement} */ ($("phones-dialog"));
  const list = $("phones-list");
  $("phones-lost").hidden = !lost.length;
  $("phones-lost").textContent = lost.length ? lostLine(lost) : "";
  const pick = () => {
    dialog.classList.remove("handed");
    list.replaceChildren(el("div", {class: "grid"}, ...phones.map((/** @type {any} */ p) =>
      el("button", {type: "button", class: "seat", "data-seat": p.seat, "data-joined": String(p.joined), onclick: () => handOver(p)},
        el("span", {text: p.name}), el("span", {class: "joined", text: p.joined ? t("joined") : t("not joined yet")})))));
  };
  /** @param {any} p */
  const handOver = p => {
    const qr = el("div", {class: "qr"});
    qr.innerHTML = p.qr;
    dialog.classList.add("handed");
    list.replaceChildren(el("div", {id: "phone-code", class: "phone-code"}, el("h3", {text: p.name}), qr,
      el("p", {text: fill(t("Only {name} scans this code with their phone, then taps Done."), {name: p.name})}),
      el("button", {type: "button", class: "done primary", text: t("Done"), onclick: back})));
  };
  // back to the names, each saying again whether its phone has joined (the player just scanned)
  const back = () => {
    list.replaceChildren();
    post("/api/console/phones", {token}).then(data => { phones = data.phones; }, () => undefined).finally(pick);
  };
  // Escape on the handed-over screen returns to the names, never to the console behind
  dialog.oncancel = event => { if (dialog.classList.contains("handed")) { event.preventDefault(); back(); } };
  // on the names' screen, a phone that joins meanwhile is marked so (redrawn only when a mark changes)
  const marks = () => phones.map(p => p.joined).join();
  const watch = window.setInterval(() => {
    if (dialog.classList.contains("handed")) return;
    post("/api/console/phones", {token}).then(data => {
      const before = marks();
      phones = data.phones;
      if (!dialog.classList.contains("handed") && marks() !== before) pick();
    }, () => undefined);
  }, 2000);
  dialog.addEventListener("close", () => { window.clearInterval(watch); list.replaceChildren(); dialog.classList.remove("handed"); }, {once: true});
  pick();
  dialog.showModal();
}

function toggleVoice() {
  voiceOn = !voiceOn;
  localStorage.setItem(VOICE, voiceOn ? "on" : "off");
  $("voice").setAttribute("aria-pressed", String(voiceOn));
  if (!voiceOn) stopSpeaking();
}

// -- start ------------------------------------------------------------------------------------
async function main() {
  document.querySelectorAll("dialog .close").forEach(b => b.addEventListener("click", () => /** @type {HTMLDialogElement} */ (b.closest("dialog")).close()));
  $("start").onclick = start;
  $("open-grimoire").onclick = openGrimoire;
  $("open-undo").onclick = openUndo;
  $("open-tools").onclick = openTools;
  $("open-phones").onclick = openPhones;
  $("setup-phones").onclick = setupPhones;
  $("voice").onclick = toggleVoice;
  $("voice").setAttribute("aria-pressed", String(voiceOn));
  $("download-log").onclick = downloadLog;
  $("show-protocol").onclick = showProtocol;
  $("download-protocol").onclick = downloadProtocol;
  $("open-record").onclick = openRecord;
  $("record").addEventListener("submit", sendRecord);
  $("record-tournament").onchange = pickTournament;
  $("record-table").onchange = showSeating;
  $("record-correct").onchange = () => { $("record-reason-box").hidden = !/** @type {HTMLInputElement} */ ($("record-correct")).checked; };
  $("new-table").onclick = () => { localStorage.removeItem(KEY); token = null; state = null; startSetup(); };
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("t");
  if (fromLink) { localStorage.setItem(KEY, fromLink); history.replaceState(null, "", "/console"); }
  token = localStorage.getItem(KEY);
  if (!token) { await loadWords(navigator.language.slice(0, 2)); return startSetup(); }
  try {
    const data = await post("/api/console/state", {token});
    if (data.lobby) { await startSetup(); await restoreSetup(data.lobby.setup); return; }  // not started yet
    await loadWords(data.state.lang);
    render(data.state);
  } catch (error) {
    localStorage.removeItem(KEY);
    token = null;
    await startSetup();
    complain(String(/** @type {Error} */ (error).message));
  }
}

main();
