// @ts-check
// The shared screen (a TV across the room): create a table, seat people, then show only public
// information, large, and speak it. `/watch?code=X` is the same screen without the host's controls.
import {$, t, tn, el, setText, patch, keyed, banner, post, connect, promptForm, promptKey, loadText, deadline, clockText, capital} from "./common.js";
import {narrator, ambience} from "./narrator.js";

/** @typedef {import("./wire").State} State */
/** @typedef {import("./wire").Message} Message */
/** @typedef {import("./wire").PromptOut} Prompt */
/** @typedef {import("./wire").EventOut} EventOut */
/** @typedef {import("./wire").Seat} Seat */
/** @typedef {{id: string, name: string, min: number, max: number, default_players: number, help?: string,
 *   roles: {id: string, name: string, team: string, icon: string}[],
 *   options: {name: string, label?: string, help?: string, doc?: string, default: unknown, choices: unknown[],
 *     choice_labels?: (string | {value: unknown, label: string})[]}[], role_lists?: Record<string, string[]>}} Edition */

const KEY = "mafioso.host";
const params = new URLSearchParams(location.search);
const watching = location.pathname === "/watch";
/** @type {import("./common.js").Link | null} */
let link = null;
/** @type {Edition[]} */
let editions = [];
/** @type {number[]} */
let order = [];
/** @type {State | null} */
let last = null;
let lang = "", code = "", clockEnd = 0, clockKey = "", spokenAt = 0;
const voice = narrator(m => { spokenAt = Date.now(); if (link) link.send(m); });
const night = ambience();

/** @param {"setup" | "lobby" | "play"} section */
function show(section) { for (const s of ["setup", "lobby", "play"]) $(s).hidden = s !== section; }

// -- setup ----------------------------------------------------------------------------------
async function startSetup() {
  show("setup");
  const query = "?lang=" + encodeURIComponent($("lang").value || "en");
  editions = await (await fetch("/api/editions" + query)).json();
  const info = await (await fetch("/api/info")).json();
  if (!$("lang").dataset.filled) {
    $("lang").dataset.filled = "1";
    $("lang").replaceChildren(...info.languages.map((/** @type {{code: string, name: string}} */ l) =>
      el("option", {value: l.code, text: l.name, selected: l.code === info.default_lang})));
  }
  const picked = $("edition").value;
  $("edition").replaceChildren(...editions.map(e => el("option", {value: e.id, text: e.name, selected: e.id === picked})));
  pickEdition();
}
const edition = () => editions.find(e => e.id === $("edition").value) || editions[0];
/** Help written for developers points at files; people get the sentences before it. @param {string} text */
const forPeople = text => text.replace(/\(?\s*see\s+docs\/\S+\)?\.?/gi, "").trim();
/** `interrogation_rounds` as "Interrogation rounds" when the server gives no label. @param {string} name */
const spelled = name => { const s = name.replace(/_/g, " "); return s.charAt(0).toUpperCase() + s.slice(1); };

function pickEdition() {
  const e = edition();
  $("players").min = String(e.min); $("players").max = String(e.max); $("players").value = String(e.default_players);
  setText($("edition-help"), forPeople(e.help || ""));
  $("options").replaceChildren(...e.options.map(optionField));
  fillCast();
}
/** A choice's words from the server's `choice_labels`: `{value, label}` (older servers: a string).
 * @param {string | {value: unknown, label: string} | undefined} c */
const choiceLabel = c => c && typeof c === "object" ? c.label : c || "";
/** @param {Edition["options"][number]} o */
function optionField(o) {
  const takes = (edition().role_lists || {})[o.name];
  if (takes && takes.length) return roleChips(o, takes);
  let input;
  const id = "opt-" + o.name;
  if (o.choices.length) {
    // a choice is a bare value, or {value, label} once the server words it for people
    input = el("select", {id, "data-opt": o.name}, o.choices.map((c, i) => {
      const worded = c !== null && typeof c === "object" && "value" in c ? /** @type {{value: unknown, label?: string}} */ (c) : null;
      const value = worded ? worded.value : c;
      return el("option", {value: JSON.stringify(value), selected: value === o.default,
        text: (worded && worded.label) || choiceLabel((o.choice_labels || [])[i]) || spelled(String(value))});
    }));
  } else if (typeof o.default === "boolean") input = el("input", {id, type: "checkbox", "data-opt": o.name, checked: o.default});
  else if (typeof o.default === "number") input = el("input", {id, type: "number", step: "any", "data-opt": o.name, value: o.default});
  else input = el("input", {id, type: "text", "data-opt": o.name, "data-text": "1", value: o.default === null ? "" : namesOf(String(o.default))});
  const help = forPeople(o.help || o.doc || "");
  const check = typeof o.default === "boolean" && !o.choices.length;
  const label = el("label", {for: id, text: o.label || spelled(o.name)});
  return el("div", {class: "opt-field" + (check ? " check" : "")},
    check ? input : label, check ? label : input, help ? el("small", {text: help}) : null);
}
/** A list of roles (Vendetta's specialists, Vampires' special vampires...) as choice chips named
 * in the form's language, one per role the option takes: pressed in the order wanted (a number
 * shows the order, and a live line says it in words), read as the ids the server takes. Each
 * chip is a button with ``aria-pressed``, so a keyboard and a screen reader work it; a cast the
 * choice makes impossible is refused by the engine when the table is created, in words.
 * @param {Edition["options"][number]} o @param {string[]} takes */
function roleChips(o, takes) {
  const roles = new Map(edition().roles.map(r => [r.id, r]));
  const picked = String(o.default || "").split(",").map(p => p.trim()).filter(id => takes.includes(id));
  const label = o.label || spelled(o.name), help = forPeople(o.help || o.doc || "");
  const said = el("p", {class: "count", "aria-live": "polite"});
  const group = el("div", {class: "chips"});  // the fieldset, named by its legend, is the group
  const box = el("fieldset", {class: "opt-field roles-field", id: "opt-" + o.name, "data-opt": o.name, "data-roles": ""},
    el("legend", {text: label}), group, said, help ? el("small", {text: help}) : null);
  const draw = () => {
    box.dataset.roles = picked.join(",");
    for (const chip of Array.from(group.children)) {
      const at = picked.indexOf(/** @type {HTMLElement} */ (chip).dataset.role || "");
      chip.setAttribute("aria-pressed", String(at >= 0));
      setText(/** @type {Element} */ (chip.firstElementChild), at >= 0 ? String(at + 1) : "");
    }
    setText(said, picked.length ? t("Chosen in order: {list}", {list: picked.map(id => (roles.get(id) || {name: id}).name).join(", ")})
      : t("None chosen: as the rulebook suggests"));
  };
  for (const id of takes) {
    const r = roles.get(id);
    const toggle = () => {
      const at = picked.indexOf(id);
      if (at >= 0) picked.splice(at, 1); else picked.push(id);
      draw();
      box.dispatchEvent(new Event("change", {bubbles: true}));  // the cast below follows
    };
    group.append(el("button", {type: "button", class: "chip", "data-role": id, on: {click: toggle}},
      el("span", {class: "rank", "aria-hidden": "true"}), r ? `${r.icon} ${r.name}` : id));
  }
  draw();
  return box;
}

/** A list of roles in a text option (Vendetta's specialists, Vampires' special vampires...)
 * reads as the roles' names in the form's language, never their ids.
 * @param {string} text @returns {string} */
function namesOf(text) {
  const names = new Map(edition().roles.map(r => [r.id, r.name]));
  const parts = text.split(",").map(p => p.trim()).filter(Boolean);
  return parts.every(p => names.has(p)) ? parts.map(p => names.get(p)).join(", ") : text;
}
/** The ids the server takes, from role names typed in any case (or ids); other words are
 * sent as typed, for the server to refuse with the names it takes.
 * @param {string} text @returns {string} */
function idsOf(text) {
  const ids = new Map(edition().roles.flatMap(r => [[r.name.toLocaleLowerCase(), r.id], [r.id.toLocaleLowerCase(), r.id]]));
  const parts = text.split(",").map(p => p.trim()).filter(Boolean);
  return parts.every(p => ids.has(p.toLocaleLowerCase())) ? parts.map(p => ids.get(p.toLocaleLowerCase())).join(",") : text;
}
async function fillCast() {
  const e = edition();
  $("cast").hidden = !$("custom").checked;
  /** @type {Record<string, number>} */
  let cast = {};
  try {
    const r = await fetch(`/api/cast?edition=${e.id}&players=${$("players").value}&options=${encodeURIComponent(JSON.stringify(readOptions()))}`);
    cast = (await r.json()).cast || {};
  } catch (err) { cast = {}; }
  $("cast").replaceChildren(...e.roles.map(r => stepper(r, cast[r.id] || 0)));
}
/** A role's count in a custom cast: − and + buttons named for the role in the form's language
 * ("Fewer: Sheriff"), the count between them said as it changes; a cast the edition does not
 * allow is refused by the engine, in words, when the table is created.
 * @param {Edition["roles"][number]} r @param {number} n */
function stepper(r, n) {
  const count = el("output", {class: "n", "data-role": r.id, "aria-live": "polite", text: String(n)});
  /** @param {number} by */
  const step = by => setText(count, String(Math.max(0, Math.min(40, Number(count.textContent) + by))));
  return el("div", {class: "stepper", role: "group", "aria-label": r.name},
    el("span", {class: "who", "aria-hidden": "true", text: `${r.icon} ${r.name}`}),
    el("button", {type: "button", class: "icon", "aria-label": t("Fewer: {role}", {role: r.name}), on: {click: () => step(-1)}, text: "−"}),
    count,
    el("button", {type: "button", class: "icon", "aria-label": t("More: {role}", {role: r.name}), on: {click: () => step(1)}, text: "+"}));
}
function readOptions() {
  /** @type {Record<string, unknown>} */
  const out = {};
  document.querySelectorAll("#options [data-opt]").forEach(n => {
    const input = /** @type {HTMLInputElement} */ (n), name = input.dataset.opt || "";
    if (input.dataset.roles !== undefined) out[name] = input.dataset.roles;  // role chips, in the order pressed
    else if (input.type === "checkbox") out[name] = input.checked;
    else if (input.tagName === "SELECT") out[name] = JSON.parse(input.value);
    else if (input.dataset.text) out[name] = idsOf(input.value);
    else out[name] = Number(input.value);
  });
  return out;
}
$("edition").addEventListener("change", pickEdition);
$("lang").addEventListener("change", async () => { await loadText($("lang").value); startSetup(); });
$("players").addEventListener("change", fillCast);
$("options").addEventListener("change", fillCast);
$("custom").addEventListener("change", fillCast);
$("setupform").addEventListener("submit", async ev => {
  ev.preventDefault();
  /** @type {Record<string, unknown>} */
  const body = {edition: $("edition").value, players: Number($("players").value), options: readOptions(),
    lang: $("lang").value, step_seconds: Number($("step").value), hand_votes: $("hand").checked, time_limit: $("limit").checked, cast: null};
  if ($("custom").checked) {
    /** @type {Record<string, number>} */
    const cast = {};
    document.querySelectorAll("#cast [data-role]").forEach(n => { const i = /** @type {HTMLElement} */ (n); cast[i.dataset.role || ""] = Number(i.textContent); });
    body.cast = cast;
  }
  try {
    const r = await post("/api/tables", body);
    localStorage.setItem(KEY, r.host);
    start({host: r.host});
  } catch (err) { banner(err instanceof Error ? err.message : String(err), "sticky"); }
});
$("newtable").addEventListener("click", ev => {
  ev.preventDefault();
  if (last && last.stage === "playing" && !confirm(t("Leave this game and set up a new table? The game stays stored."))) return;
  if (link) link.stop();
  link = null; last = null; order = [];
  localStorage.removeItem(KEY);
  history.replaceState(null, "", "/host");
  startSetup();
});

// -- lobby ----------------------------------------------------------------------------------
/** @param {State} msg */
function drawLobby(msg) {
  show("lobby");
  const lobby = msg.lobby || [];
  if (code !== msg.table.code) {
    code = msg.table.code;
    $("qr").setAttribute("src", `/api/qr/${code}.svg`);
    fetch(`/api/info?code=${code}`).then(r => r.json()).then(i => setText($("joinurl"), i.join));
  }
  setText($("code"), code);
  const ids = lobby.map(p => p.id);
  order = order.filter(id => ids.includes(id)).concat(ids.filter(id => !order.includes(id)));
  const people = new Map(lobby.map(p => [p.id, p]));
  keyed($("order"), order.map(id => people.get(id)).filter(p => !!p).map(p => /** @type {import("./wire").Member} */ (p)),
    p => String(p.id) + p.name + (p.bot ? t("bot") : ""), p => el("li", {},  // the mark's language in the key
      el("span", {class: "who"}, p.name, p.bot ? el("small", {class: "botmark", text: " · " + t("bot")}) : null),
      watching ? null : el("span", {class: "tools"},
        el("button", {type: "button", class: "icon", "aria-label": t("Move {name} up", {name: p.name}), on: {click: () => move(p.id, -1)}, text: "↑"}),
        el("button", {type: "button", class: "icon", "aria-label": t("Move {name} down", {name: p.name}), on: {click: () => move(p.id, 1)}, text: "↓"}),
        el("button", {type: "button", class: "icon", "aria-label": t("Remove {name}", {name: p.name}), on: {click: () => link && link.send({type: "remove", id: p.id})}, text: "✕"}))));
  setText($("count"), t("{n} of {total} players have joined.", {n: ids.length, total: msg.table.players}));
  /** @type {HTMLButtonElement} */ ($("deal")).disabled = ids.length !== msg.table.players || watching;
  /** @type {HTMLButtonElement} */ ($("bot")).disabled = ids.length >= msg.table.players;
  $("shuffle").hidden = $("deal").hidden = $("bot").hidden = watching;
}
/** @param {number} id @param {number} by */
function move(id, by) {
  const i = order.indexOf(id), j = i + by;
  if (i < 0 || j < 0 || j >= order.length) return;
  [order[i], order[j]] = [order[j], order[i]];
  if (last) drawLobby(last);
}
$("shuffle").addEventListener("click", () => {
  for (let i = order.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [order[i], order[j]] = [order[j], order[i]]; }
  if (last) drawLobby(last);
});
$("deal").addEventListener("click", () => link && link.send({type: "deal", order}));
$("bot").addEventListener("click", () => link && link.send({type: "bot"}));

// -- play -----------------------------------------------------------------------------------
/** @param {State} msg */
function drawPlay(msg) {
  show("play");
  code = msg.table.code;
  $("play").dataset.secret = String(!!msg.secret && !msg.outcome);
  const seats = msg.seats || [];
  const names = new Map(seats.map(s => [s.seat, s.name]));
  const speaking = msg.speaking || [];
  const publicStep = !msg.secret && !msg.outcome && speaking.length > 0;
  setText($("phase"), msg.outcome ? t("Game over") : capital(msg.phase) + (msg.step ? " · " + capital(msg.step) : ""));
  $("timeup").hidden = watching || !publicStep;
  drawCircle(msg, seats);
  drawNow(msg, names);
  drawPrompts(msg);
  const lines = (msg.events || []).filter(e => e.text).slice(-6);
  keyed($("log"), lines.slice().reverse(), e => String(e.n), e => el("li", {class: e.kind === "phase" ? "phase" : "", text: e.text || ""}));
  $("log").hidden = !!msg.outcome;
  const roles = msg.roles || [];
  patch($("roles"), JSON.stringify(roles), () => roles.map(r => el("li", {style: `border-color: ${r.colour}`},
    el("b", {text: `${r.icon} ${r.name}` + (r.count > 1 ? ` × ${r.count}` : "")}), el("span", {text: r.ability}))));
  const seal = msg.table.commitment;
  setText($("sealed"), seal ? t("Sealed deal {hash}", {hash: (seal.match(/.{1,4}/g) || []).join(" ")}) : "");
  drawEnd(msg, names);
  fitRoles();  // once the whole side is drawn (a control, the sealed deal or a question takes room)
  fitLog();
  if (!watching) voice.hear(msg.events || [], code, msg.lang, msg.spoken);
  night.night(!!msg.secret && !msg.outcome);
}

/** The newest announcements fill the side's room: a line that would be cut at the bottom edge
 * (mid-line, on a 1080-pixel TV) is left out whole, with every older one after it. */
function fitLog() {
  const log = $("log"), items = /** @type {HTMLElement[]} */ (Array.from(log.children));
  for (const li of items) li.hidden = false;
  const bottom = Math.min(log.getBoundingClientRect().bottom, window.innerHeight);
  let full = false;
  for (const li of items) { full = full || li.getBoundingClientRect().bottom > bottom + 1; li.hidden = full; }
}
addEventListener("resize", () => { fitRoles(); fitLog(); });

/** The roles sheet is read across the room without scrolling: its roles stand in as few columns
 * as let the whole sheet show (one to three), with the announcements under it keeping their room.
 * Measured again on every draw: the controls, the sealed deal and the host's questions above it
 * come and go. */
function fitRoles() {
  const box = $("rolesbox"), list = $("roles");
  if (!box.offsetParent) return;
  for (const columns of [1, 2, 3]) {
    list.style.columnCount = String(columns);
    if (box.scrollHeight <= box.clientHeight + 1) return;
  }
}

/** The table as a circle of seats: names, who is out, revealed roles, bots, the speaker.
 * @param {State} msg @param {Seat[]} seats */
function drawCircle(msg, seats) {
  const speaking = new Set(msg.speaking || []);
  const votes = new Map((msg.tally || []).map(v => [v.nominee, v.voters.length]));
  const count = seats.length;
  // neighbours at the top stand one chord apart (sin 2π/n of the radius, 42%): no box is wider
  $("circle").style.setProperty("--seat-w", `calc(${(42 * Math.sin(2 * Math.PI / Math.max(count, 4))).toFixed(2)}% - 8px)`);
  // narrower boxes take smaller names, on two lines at most: "Александра" stays readable at 21 seats
  $("circle").style.setProperty("--name-size", count > 16 ? "0.95em" : count > 12 ? "1.05em" : "1.2em");
  keyed($("circle"), [{seat: -1}, ...seats], s => String(s.seat), s => {
    if (s.seat < 0) return /** @type {HTMLElement} */ ($("circle").querySelector(".centre"));
    return el("div", {class: "seat"},
      el("b", {class: "num"}), el("span", {class: "name"}), el("small", {class: "role"}), el("small", {class: "mark"}), el("span", {class: "votes", "aria-hidden": "true"}), el("span", {class: "sr"}));
  }, (node, s) => {
    if (s.seat < 0) return;
    const seat = /** @type {Seat} */ (s);
    // placed on every draw: a box kept from a table of another size (Play again) moves to its place
    const angle = (2 * Math.PI * (seat.seat - 1)) / count - Math.PI / 2;
    node.style.setProperty("--x", (50 + 42 * Math.cos(angle)).toFixed(2) + "%");
    node.style.setProperty("--y", (50 + 42 * Math.sin(angle)).toFixed(2) + "%");
    // one seat at a time speaks (yellow ring); in a vote, those still to answer wear a dashed blue one
    const ring = speaking.has(seat.seat) && !msg.secret ? (speaking.size > 1 ? " answering" : " speaking") : "";
    node.className = "seat" + (seat.alive ? "" : " out") + ring +
      (msg.trial === seat.seat ? " trial" : "") + (seat.bot ? " bot" : "");
    const q = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (node.querySelector(sel));
    setText(q(".num"), String(seat.seat));
    setText(q(".name"), seat.name);
    setText(q(".role"), seat.role || "");
    setText(q(".mark"), [seat.bot ? t("bot") : "", seat.alive ? "" : t("out")].filter(Boolean).join(" · "));
    const v = votes.get(seat.seat);
    setText(q(".votes"), v ? String(v) : "");  // the count, and its words for screen readers
    setText(q(".sr"), v ? tn("{n} vote", "{n} votes", v) : "");
  });
}

/** Who speaks, who is on trial, and the public vote so far, by name.
 * @param {State} msg @param {Map<number, string>} names */
function drawNow(msg, names) {
  const speaking = msg.speaking || [];
  const key = msg.phase + "|" + msg.step + "|" + speaking.join(",") + (msg.secret ? "s" : "") + "|" + (msg.timer_ends ?? msg.timer ?? "");
  if (key !== clockKey) { clockKey = key; clockEnd = msg.outcome ? 0 : deadline(msg); }
  /** @param {number} n */
  const who = n => names.get(n) || t("Seat {seat}", {seat: n});
  let text = "";
  if (msg.outcome) text = "";
  else if (msg.secret) text = t("Eyes closed. Everyone answers on their phone.");
  else if (msg.trial !== null && msg.trial !== undefined) text = t("On trial: {name}", {name: who(msg.trial)});
  else if (speaking.length === 1) text = t("Now: {name}", {name: who(speaking[0])});
  else if (speaking.length) text = t("Waiting for {names}", {names: speaking.map(who).join(", ")});
  setText($("now"), text);
  const tally = msg.secret ? [] : msg.tally || [];
  keyed($("tally"), tally, v => v.nominee + ":" + v.voters.join(","), v => el("li", {},
    el("b", {text: who(v.nominee)}), " ← ", v.voters.length ? v.voters.map(who).join(", ") : t("no votes yet")));
  const legend = [speaking.length === 1 && !msg.secret ? t("Yellow ring: speaking now") : "",
    speaking.length > 1 && !msg.secret ? t("Dashed blue ring: still to answer") : "",
    tally.length ? t("Votes so far: the nominee ← who voted against them") : ""].filter(Boolean);
  setText($("legend"), legend.join(" · "));
  tick();
}
function tick() { setText($("clock"), clockText(clockEnd)); }
setInterval(tick, 250);

/** The facilitator's own questions and the hand-vote forms: patched, so a half-made choice stays.
 * @param {State} msg */
function drawPrompts(msg) {
  /** @param {Prompt} q @param {unknown} choice */
  const gmAnswer = (q, choice) => {
    if (q.interrupt && !confirm(q.title + "?")) return;
    if (link) link.send({type: "decide", prompt: q.id, choice});
  };
  const prompts = watching ? [] : msg.prompts || [];
  keyed($("gm"), prompts.filter(p => !p.interrupt), p => "gm" + promptKey(p), p => promptForm(p, gmAnswer));
  const tools = prompts.filter(p => p.interrupt);
  $("tools").hidden = !tools.length;
  keyed($("toolbox"), tools, p => "tool" + promptKey(p), p => promptForm(p, gmAnswer));
  const names = new Map((msg.seats || []).map(s => [s.seat, s.name]));
  keyed($("hands"), watching ? [] : msg.waiting || [], p => "hand" + promptKey(p),
    p => promptForm(p, (q, choice) => link && link.send({type: "hand", prompt: q.id, choice}), (names.get(p.seat) || t("Seat {seat}", {seat: p.seat})) + ": " + p.title));
}

/** The winners' heading on one line across the room: a long list of teams (Blitz names five)
 * gets smaller type, down to a floor; below it the heading wraps.
 * @param {HTMLElement | null} node */
function fitOneLine(node) {
  if (!node) return;
  node.style.fontSize = "";
  node.style.whiteSpace = "nowrap";
  let size = parseFloat(getComputedStyle(node).fontSize);
  const floor = size * 0.45;
  while (node.scrollWidth > node.clientWidth && size > floor) {
    size *= 0.92;
    node.style.fontSize = size.toFixed(1) + "px";
  }
  if (node.scrollWidth > node.clientWidth) node.style.whiteSpace = "";  // still too long: wrap
}

/** The end: the winners by name, the story by phase (once), the revealed seed, Play again.
 * @param {State} msg @param {Map<number, string>} names */
function drawEnd(msg, names) {
  const o = msg.outcome;
  $("end").hidden = !o;
  if (!o) { patch($("end"), "", () => []); return; }
  const story = msg.story || [];
  requestAnimationFrame(() => fitOneLine(/** @type {HTMLElement | null} */ ($("end").querySelector(".winners"))));
  patch($("end"), "end" + story.length + (o.seed || ""), () => {
    const winners = o.seats.map(n => names.get(n) || "").filter(Boolean);
    /** @type {HTMLElement[]} */
    const phases = [];
    /** @type {HTMLElement | null} */
    let list = null;
    let chapter = "";
    for (const e of story) {
      // a chapter per phase (night 1, day 1...); the calls of its steps are lines within it
      const opens = e.kind === "phase" && (e.phase || "") !== chapter;
      if (opens || !list) {
        chapter = e.kind === "phase" ? e.phase || "" : chapter;
        list = el("ol", {class: "log"});
        phases.push(el("section", {class: "chapter"}, el("h3", {text: opens ? e.text || "" : t("Before the game")}), list));
        if (opens) continue;
      }
      list.append(el("li", {class: e.kind === "phase" ? "phase" : e.public ? "" : "secret"},
        e.public ? null : el("small", {text: (e.to === "gm" ? t("Facilitator only:") : t("Told to {names}:", {names: (Array.isArray(e.to) ? e.to : []).map(n => names.get(n) || String(n)).join(", ")})) + " "}),
        e.text || ""));
    }
    const seal = msg.table.commitment;
    return [
      el("h2", {class: "winners", text: t("{team} won", {team: o.names.join(", ") || t("nobody")})}),
      winners.length ? el("p", {class: "big", text: t("Winners: {names}", {names: winners.join(", ")})}) : null,
      o.seed ? el("p", {class: "sealed", text: t("The seed was {seed}; the sealed deal {hash} can be checked with mafioso replay.", {seed: o.seed, hash: seal || "—"})}) : null,
      watching ? null : againForm(msg),
      phases.length ? el("h2", {text: t("The story")}) : null,
      el("div", {class: "story"}, phases),
    ];
  });
}

/** The languages a table may speak, as /api/info lists them (asked once).
 * @type {Promise<{code: string, name: string}[]> | null} */
let tongues = null;

/** The editions named in a language, asked once per language (a table after Play again may
 * speak another one than the first, or than the setup form).
 * @type {Map<string, Promise<Edition[]>>} */
const editionNames = new Map();
/** @param {string} tongue @returns {Promise<Edition[]>} */
function editionsIn(tongue) {
  let list = editionNames.get(tongue);
  if (!list) {
    list = fetch("/api/editions?lang=" + encodeURIComponent(tongue)).then(r => r.json());
    list.catch(() => editionNames.delete(tongue));  // offline: ask again next time
    editionNames.set(tongue, list);
  }
  return list;
}

/** Play again: the same people, the same or another edition and language, seats kept or
 * reshuffled; the game log's download sits on the same row (one line at 1920x1080).
 * @param {State} msg */
function againForm(msg) {
  const current = msg.config ? msg.config.edition : "";
  const select = el("select", {id: "again-edition"});
  /** @param {Edition[]} list */
  const fillIn = list => select.replaceChildren(...list.map(e => el("option", {value: e.id, text: e.name, selected: e.id === current})));
  editionsIn(msg.lang).then(fillIn);
  const players = el("input", {id: "again-players", type: "number", min: 1, max: 40, value: msg.table.players});
  const seats = el("select", {id: "again-seats"}, el("option", {value: "keep", text: t("Keep the seats")}), el("option", {value: "shuffle", text: t("Shuffle the seats")}));
  const tongue = el("select", {id: "again-lang"}, el("option", {value: msg.lang, text: msg.lang, selected: true}));
  tongues = tongues || fetch("/api/info").then(r => r.json()).then(info => info.languages);
  tongues.then(list => tongue.replaceChildren(...list.map(l => el("option", {value: l.code, text: l.name, selected: l.code === msg.lang}))));
  const form = el("form", {class: "again"},
    el("h2", {text: t("Play again")}),
    el("label", {}, el("span", {text: t("Edition")}), select),
    el("label", {}, el("span", {text: t("Players")}), players),
    el("label", {}, el("span", {text: t("Seats")}), seats),
    el("label", {}, el("span", {text: t("Language")}), tongue),
    el("button", {type: "submit", class: "go", text: t("Play again")}),
    el("button", {type: "button", class: "opt", on: {click: saveLog}, text: t("Download the game log")}));
  form.addEventListener("submit", ev => {
    ev.preventDefault();
    const c = msg.config;
    if (link) link.send({type: "again", edition: /** @type {HTMLSelectElement} */ (select).value, players: Number(/** @type {HTMLInputElement} */ (players).value),
      options: {}, cast: null, lang: /** @type {HTMLSelectElement} */ (tongue).value || msg.lang, step_seconds: c ? c.step_seconds : 8, hand_votes: c ? c.hand_votes : false,
      time_limit: c ? c.time_limit : false, seats: /** @type {HTMLSelectElement} */ (seats).value});
  });
  return form;
}

async function saveLog() {
  try {
    const log = await post("/api/log", {host: localStorage.getItem(KEY)});
    const a = el("a", {href: URL.createObjectURL(new Blob([JSON.stringify(log, null, 1)], {type: "application/json"})),
      download: `mafioso-${code}.json`});
    document.body.append(a); a.click(); a.remove();
  } catch (err) { banner(err instanceof Error ? err.message : String(err)); }
}

// -- voice and night sounds ----------------------------------------------------------------
function drawControls() {
  $("speak").setAttribute("aria-pressed", String(voice.on));
  $("ambience").setAttribute("aria-pressed", String(night.on));
  const names = voice.voices();
  patch($("voice"), names.join("|") + voice.voice, () => [el("option", {value: "", text: t("Default voice")}),
    ...names.map(n => el("option", {value: n, text: n, selected: n === voice.voice}))]);
  /** @type {HTMLElement} */ ($("voice").parentElement).hidden = !names.length;
  fitRoles();
}
$("speak").addEventListener("click", () => { voice.set(!voice.on); drawControls(); });
$("ambience").addEventListener("click", () => { night.set(!night.on); drawControls(); });
$("voice").addEventListener("change", () => voice.choose($("voice").value));
$("timeup").addEventListener("click", () => link && link.send({type: "timeup"}));
if (window.speechSynthesis) speechSynthesis.addEventListener("voiceschanged", drawControls);

// -- socket ---------------------------------------------------------------------------------
/** @param {Message} msg */
function receive(msg) {
  if (msg.type === "error") {
    if (msg.code === "bad_token" || msg.code === "no_table") {
      if (link) link.stop();
      localStorage.removeItem(KEY);
      banner(msg.message, "sticky");
      if (!watching) startSetup();
      return;
    }
    if (msg.code === "bad_message" && Date.now() - spokenAt < 1500) return;  // a server without the voice gate
    banner(msg.message);
    return;
  }
  if (msg.type === "moved") {  // Play again: this screen follows its table to the new one
    if (msg.host) { localStorage.setItem(KEY, msg.host); order = []; voice.reset(); start({host: msg.host}); }
    else if (watching) { history.replaceState(null, "", "/watch?code=" + msg.code); start({watch: msg.code}); }
    return;
  }
  if (msg.type !== "state") return;
  if (msg.lang !== lang) { lang = msg.lang; loadText(lang).then(() => { drawControls(); document.querySelectorAll("[data-sig]").forEach(n => { if (n instanceof HTMLElement) delete n.dataset.sig; }); if (last) route(last); }); }
  route(msg);
}
/** @param {State} msg */
function route(msg) {
  // a refusal left up (a setup the server refused) goes once the table exists, starts or moves on
  if (!last || last.stage !== msg.stage || last.table.code !== msg.table.code) banner("");
  last = msg;
  if (msg.stage === "lobby") drawLobby(msg); else drawPlay(msg);
}
/** @param {Record<string, unknown>} hello */
function start(hello) {
  if (link) link.stop();
  let first = true;
  link = connect(hello, receive, up => {
    setText($("status"), up ? "" : t("Reconnecting…"));
    if (up && !first && !watching) setTimeout(() => voice.remind(), 0);  // after the hello's answer
    first = false;
  });
}

document.body.classList.toggle("watching", watching);
drawControls();
loadText("en");
if (watching) start({watch: params.get("code") || ""});
else if (localStorage.getItem(KEY) && !params.get("new")) start({host: /** @type {string} */ (localStorage.getItem(KEY))});
else startSetup();
