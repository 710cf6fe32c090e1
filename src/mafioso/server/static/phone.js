// @ts-check
// The phone: join by code and name, then the secret card, prompts, private results, the end.
import {$, t, el, setText, patch, keyed, banner, post, connect, promptForm, promptKey, loadText, deadline, clockText, capital} from "./common.js";
import {consoleSeat, consoleLink} from "./console-link.js";

/** @typedef {import("./wire").State} State */
/** @typedef {import("./wire").Message} Message */
/** @typedef {import("./wire").PromptOut} Prompt */

const KEY = "mafioso.seat", CODE = "mafioso.seat.code";
/** @type {import("./common.js").Link | null} */
let link = null;
/** @type {State | null} */
let state = null;
let cardShown = false, questionOpen = false, recorded = false, lang = "", clockEnd = 0, hideTimer = 0;
/** @type {Set<string>} */
const answered = new Set();
/** @type {Set<string>} */
let seenPrompts = new Set();
/** @type {any} */
let wake = null;

const urlCode = () => (new URLSearchParams(location.search).get("code") || "").trim().toUpperCase();

/** @param {"join" | "lobby" | "game"} section */
function show(section) { for (const s of ["join", "lobby", "game"]) $(s).hidden = s !== section; }

/** The join form, with ``message`` over it; resolves once the form speaks its table's language.
 * @param {string} message @returns {Promise<void>} */
function startJoin(message) {
  localStorage.removeItem(KEY);
  localStorage.removeItem(CODE);
  setText($("status"), "");  // no link any more: nothing is reconnecting
  if (urlCode()) $("code").value = urlCode();
  $("name").value = localStorage.getItem("mafioso.name") || "";
  show("join");
  if (message) banner(message, "sticky");
  return joinLanguage().then(l => loadText(l)).then(() => undefined);
}

/** The join form speaks the table's language (public, from its code), else the browser's. An
 * old table's code (its QR code still on the wall) leads to the table Play again made from it.
 * @returns {Promise<string>} */
async function joinLanguage() {
  const code = urlCode();
  try {
    const r = code ? await fetch("/api/tables/" + encodeURIComponent(code)) : null;
    const facts = r && r.ok ? await r.json() : null;
    if (facts && facts.next) {
      history.replaceState(null, "", "/p?code=" + encodeURIComponent(facts.next));
      $("code").value = facts.next;
      return joinLanguage();
    }
    if (facts && facts.lang) return facts.lang;
    const have = (await (await fetch("/api/info")).json()).languages.map((/** @type {{code: string}} */ l) => l.code);
    for (const l of navigator.languages || [navigator.language]) if (have.includes(l.toLowerCase().split("-")[0])) return l.toLowerCase().split("-")[0];
  } catch (e) { /* offline: the page's own words */ }
  return document.documentElement.lang || "en";
}

$("joinform").addEventListener("submit", async e => {
  e.preventDefault();
  try {
    const code = $("code").value.trim().toUpperCase();
    const r = await post("/api/join", {code, name: $("name").value});
    localStorage.setItem("mafioso.name", $("name").value);
    remember(r.token, code);
    banner("");
    start(r.token);
  } catch (err) { banner(err instanceof Error ? err.message : String(err), "sticky"); }
});

$("leave").addEventListener("click", () => { if (link) link.send({type: "leave"}); });

$("card").addEventListener("click", () => {
  cardShown = !cardShown;
  if (!cardShown && questionOpen) { questionOpen = false; if (state) draw(state); }  // the question closes with the card
  clearTimeout(hideTimer);
  if (cardShown) hideTimer = setTimeout(() => { cardShown = false; questionOpen = false; if (state) draw(state); }, 20000);  // never left face up
  drawCard();
});

// During a secret step every phone shows the same closed panel; the question opens on a tap.
$("nightq").addEventListener("click", () => { questionOpen = !questionOpen; if (state) draw(state); });

/** Keeps a seat pass with the code of its table, so a new code can tell the pass is stale.
 * @param {string} token @param {string} code */
function remember(token, code) {
  localStorage.setItem(KEY, token);
  localStorage.setItem(CODE, code);
  if (urlCode() !== code) history.replaceState(null, "", "/p?code=" + encodeURIComponent(code));
}

/** @param {string} token */
function start(token) {
  if (link) link.stop();
  link = (consoleSeat() ? consoleLink : connect)({seat: token}, receive, up => {  // a console's seat: its own link
    setText($("status"), up ? "" : t("Reconnecting…"));
    answered.clear();  // an answer sent just before a disconnect may not have arrived: ask again
  }, true);
}

/** @param {Message} msg */
function receive(msg) {
  if (msg.type === "error") {
    if (msg.code === "bad_token" || msg.code === "no_table") { if (link) link.stop(); startJoin(msg.message); return; }
    banner(msg.message);
    answered.clear();
    if (state) draw(state);
    return;
  }
  if (msg.type === "moved") {  // Play again: the same seat goes on at the new table
    if (msg.pass) { remember(msg.pass, msg.code); state = null; start(msg.pass); return; }
    // no seat kept for this pass (fewer seats): forget it and open the new table's join page
    if (link) link.stop();
    state = null;
    history.replaceState(null, "", "/p?code=" + encodeURIComponent(msg.code));
    startJoin("").then(() => banner(t("The next game has fewer seats and yours was not kept. Join its table if a seat is free."), "sticky"));
    return;
  }
  if (msg.type === "left") { if (link) link.stop(); startJoin(""); return; }
  if (msg.type === "ack") {  // said in place of "Sent", not in a bar over the page
    if (msg.prompt) answered.delete(msg.prompt);
    recorded = true;
    if ($("waiting").textContent === t("Sent. Waiting for the table…")) setText($("waiting"), t("Your answer is recorded."));
    return;
  }
  if (msg.type !== "state") return;
  if (urlCode() && msg.table.code !== urlCode()) {  // a new table's QR code: follow it
    if (link) link.stop();
    startJoin("");
    return;
  }
  // an answer is settled once its prompt is gone; the next step may ask again with the same id
  const asked = new Set((msg.prompts || []).map(p => p.id));
  for (const id of [...answered]) if (!asked.has(id)) answered.delete(id);
  // a new language: every part built in the old one is built again, the questions' forms too
  // (kept by key, they would keep "Pass" and "Send my choice" in the words they were made in)
  if (msg.lang !== lang) { lang = msg.lang; loadText(lang).then(() => { if (state) { clearSigs(); $("prompts").replaceChildren(); draw(state); } }); }
  const end = deadline(msg);
  if (Math.abs(end - clockEnd) > 1500) lastLeft = null;  // another step's clock: no milestone crossed yet
  clockEnd = end;
  const fresh = nudge(msg);
  draw(msg);
  announce(msg, fresh);
}

const clearSigs = () => document.querySelectorAll("[data-sig]").forEach(n => { if (n instanceof HTMLElement) delete n.dataset.sig; });

/** Your turn: the phone vibrates and its screen stays awake (where the browser can). Every seat
 * is asked at the same moments (decoys at night), so this tells a neighbour nothing.
 * @param {State} msg @returns {Set<string>} the ids of the prompts asked for the first time */
function nudge(msg) {
  const ids = new Set((msg.prompts || []).map(p => p.id));
  const fresh = new Set([...ids].filter(id => !seenPrompts.has(id)));
  seenPrompts = ids;
  if (fresh.size && navigator.vibrate) navigator.vibrate([120, 80, 120]);
  if (msg.seat && !msg.outcome) keepAwake(); else release();
  return fresh;
}

/** Says something to a screen reader: one more line in the phone's hidden live log (role "log",
 * polite), which keeps its newest three; a line said twice in a row is still read twice.
 * @param {string} text */
function say(text) {
  const log = $("say");
  if (!text) return;
  log.append(el("p", {text}));
  while (log.children.length > 3) /** @type {Element} */ (log.firstElementChild).remove();
}

let heard = -1, heardTable = "", heardOutcome = "";
/** What a screen reader user must hear as it happens, in the table's language: every new line
 * of the table (a phase, a speech, a death, a vote), each new question, and the result. The
 * focus goes to a new question (or to the closed night panel, on every phone alike), unless
 * the player is in the middle of another question's form. A page opened or reloaded in the
 * middle of a game reads nothing of the past: it is on screen, under "At the table".
 * @param {State} msg @param {Set<string>} fresh */
function announce(msg, fresh) {
  const lines = (msg.events || []).filter(e => e.text);
  const top = lines.length ? lines[lines.length - 1].n : -1;
  if (heardTable !== msg.table.code) { heardTable = msg.table.code; heard = msg.seat ? top : -1; heardOutcome = msg.outcome ? "old" : ""; }
  for (const e of lines) if (e.n > heard) say(e.text || "");
  heard = Math.max(heard, top);
  const shown = (msg.prompts || []).filter(p => fresh.has(p.id) && !answered.has(p.id));
  const panel = $("nightq");
  if (shown.length && !panel.hidden) { say(panel.textContent || ""); focusOn(panel); }
  else if (shown.length) {
    for (const p of shown) say(t("New question: {title}", {title: p.title}));
    const form = document.querySelector(`[data-prompt="${CSS.escape(shown[0].id)}"] h3`);
    if (form instanceof HTMLElement) { form.tabIndex = -1; focusOn(form); }
  }
  const o = msg.outcome;
  if (o && !heardOutcome) say(Array.from($("outcome").children).map(n => n.textContent).join(" "));
  heardOutcome = o ? heardOutcome || "said" : "";
}

/** Moves the focus to a new question, unless it is inside a question's form still on screen
 * (a half-made choice is never taken away from under the player).
 * @param {HTMLElement} node */
function focusOn(node) {
  const active = document.activeElement;
  const busy = active instanceof HTMLElement && active !== node && !!active.closest(".prompt") && active.isConnected;
  if (!busy) quietFocus(node);
}

/** Focus that a screen reader follows but that draws no ring: a ring drawn by a script's focus
 * shows only on phones nobody has touched yet, so at night a phone that has answered would look
 * unlike one that has not (the browser shows the ring again at the first key pressed).
 * @param {HTMLElement} node */
function quietFocus(node) { node.focus(/** @type {FocusOptions} */ (/** @type {any} */ ({focusVisible: false}))); }
/** Asks for one screen lock at a time: states arriving while the browser is still granting it ask
 * for no second one (a lock nobody kept would keep the screen on after the game), and a lock
 * granted once the game is over or the page hidden is given back at once. */
async function keepAwake() {
  const nav = /** @type {any} */ (navigator);
  if (wake || waking || !nav.wakeLock || document.hidden) return;
  waking = true;
  try {
    const lock = await nav.wakeLock.request("screen");
    lock.addEventListener("release", () => { if (wake === lock) wake = null; });
    if (state && state.seat && !state.outcome && !document.hidden) wake = lock; else lock.release();
  } catch (e) { wake = null; } finally { waking = false; }
}
let waking = false;
function release() { if (wake) { wake.release(); wake = null; } }
document.addEventListener("visibilitychange", () => { if (!document.hidden && state && state.seat && !state.outcome) keepAwake(); });

/** @param {State} msg */
function draw(msg) {
  state = msg;
  if (msg.seat === null || msg.seat === undefined) {
    show("lobby");
    // a console's phone seat joins before the facilitator starts: no code, no host, no leaving
    const byConsole = !!consoleSeat();
    $("lobby").querySelectorAll("p, #leave").forEach(n => { if (n instanceof HTMLElement) n.hidden = byConsole; });
    setText($("hello"), byConsole ? t("{name}: waiting for the facilitator to start the game.", {name: msg.name || ""})
      : t("You are at table {code} as {name}.", {code: msg.table.code, name: msg.name || ""}));
    keyed($("people"), msg.lobby || [], p => String(p.id) + p.name + (p.bot ? t("bot") : ""), p => el("li", {text: p.name + (p.bot ? " · " + t("bot") : "")}));
    return;
  }
  show("game");
  const seats = msg.seats || [];
  setText($("me"), t("{name} · seat {seat}", {name: msg.name || "", seat: msg.seat}));
  setText($("phase"), capital(msg.phase) + (msg.step ? " · " + capital(msg.step) : ""));
  drawCard();
  const mine = seats.find(s => s.seat === msg.seat);
  const prompts = (msg.prompts || []).filter(p => !answered.has(p.id));
  keyed($("prompts"), prompts, promptKey, p => promptForm(p, answer));
  const out = !!mine && !mine.alive;
  $("game").dataset.out = String(out);
  setText($("waiting"), prompts.length || msg.outcome ? "" :
    (out ? t("You are out of the game. Thank you for playing; keep your secrets.") :
      (msg.prompts || []).length ? (recorded ? t("Your answer is recorded.") : t("Sent. Waiting for the table…")) :
        t("Nothing to do now. What happens at the table is listed below and on the shared screen.")));
  // a question offering the cards just drawn (Blitz's deal) hides behind the same panel by day
  const roleIds = new Set((msg.roles || []).map(r => r.id));
  const cards = !msg.secret && !msg.outcome && prompts.some(p => p.kind === "choose"
    && p.options.some(o => typeof o.value === "string" && roleIds.has(o.value)));
  drawQuestion((!!msg.secret && !msg.outcome && !out) || cards, cards);
  drawOutcome(msg);
  const priv = msg.private || [];
  patch($("private"), priv.map(e => e.n).join(","), () => priv.slice().reverse().map(e => el("li", {text: e.text || ""})));
  const news = (msg.events || []).filter(e => e.text).slice(-8).reverse();
  patch($("news"), news.map(e => e.n).join(","), () => news.map(e => el("li", {class: e.kind === "phase" ? "phase" : "", text: e.text || ""})));
  const roles = msg.roles || [];
  $("rolesbox").hidden = !roles.length;
  patch($("roles"), JSON.stringify(roles), () => roles.map(r => el("li", {},
    el("b", {text: `${r.icon} ${r.name}` + (r.count > 1 ? ` × ${r.count}` : "")}), el("span", {text: r.ability}))));
  tick();
}

/** A secret step's question hides behind one closed panel, the same size, colour and words for
 * every role (a decoy's "nothing happens" and the Don's list alike, answered or not); it opens
 * only on its holder's tap and closes again when answered, with the card, or when the step ends.
 * By day (``byDay``) a question that shows cards (the two drawn in Blitz's deal) hides so too,
 * from a neighbour's glance.
 * @param {boolean} secret @param {boolean} [byDay] */
function drawQuestion(secret, byDay) {
  const key = secret ? (state && state.phase) + "|" + (state && state.step) : "";
  if (!secret || key !== questionKey) questionOpen = false;
  questionKey = key;
  const open = secret && questionOpen;
  const panel = $("nightq");
  panel.hidden = !secret;
  panel.setAttribute("aria-expanded", String(open));
  setText(panel, byDay ? (open ? t("Tap to close your question") : t("Your question: tap to open"))
    : open ? t("Tap to close your night question") : t("Your night question: tap to open"));
  $("prompts").hidden = secret && !open;
  $("waiting").hidden = secret && !open;
}
let questionKey = "";

/** The winners by name, as the shared screen names them (not their team's name).
 * @param {State} msg @returns {string[]} */
function winnerNames(msg) {
  const names = new Map((msg.seats || []).map(s => [s.seat, s.name]));
  return msg.outcome ? msg.outcome.seats.map(n => names.get(n) || "").filter(Boolean) : [];
}

/** "You won" or "You lost", the winners by name, and afterwards your own story.
 * @param {State} msg */
function drawOutcome(msg) {
  const o = msg.outcome;
  const mine = !!o && msg.seat !== null && msg.seat !== undefined && o.seats.includes(msg.seat);
  patch($("outcome"), o ? String(mine) + o.names.join() : "", () => o ? [
    el("p", {class: "verdict " + (mine ? "won" : "lost"), text: mine ? t("You won!") : t("You lost.")}),
    el("p", {class: "names", text: t("Winners: {names}", {names: winnerNames(msg).join(", ") || t("nobody")})}),
  ] : []);
  const priv = o ? msg.private || [] : [];
  patch($("story"), o ? "story" + priv.length : "", () => o && priv.length ? [
    el("h2", {class: "h4", text: t("Your story")}), el("ol", {class: "log"}, priv.map(e => el("li", {text: e.text || ""}))),
  ] : []);
}

/** The secret card. Face down it looks the same for every role (size, colour, words), and once
 * the cards are dealt, the same for a phone with no card yet (Blitz deals card by card: a phone
 * must not show at a glance who has drawn); face up its border takes the team's colour and
 * "Only you know" opens under it. */
function drawCard() {
  const c = state && state.card;
  const card = $("card");
  const dealt = !!state && (!!c || state.stage !== "lobby");
  const open = dealt && cardShown;
  card.classList.toggle("shown", open);
  card.setAttribute("aria-pressed", String(open));
  card.style.borderColor = open && c ? c.colour : "";
  $("secret").hidden = !open || !c;
  if (!dealt) { patch(card, "none", () => [el("span", {text: t("Your card will appear here.")})]); return; }
  if (!open) { patch(card, "down", () => [el("span", {class: "face", "aria-hidden": "true", text: "?"}), el("span", {text: t("Tap to see your secret card")})]); return; }
  if (!c) { patch(card, "empty", () => [el("span", {text: t("Your card will appear here.")}), el("small", {text: t("Tap to hide")})]); return; }
  patch(card, "up" + JSON.stringify(c), () => [
    el("span", {class: "icon", "aria-hidden": "true", text: c.icon}), el("strong", {class: "role", text: c.name}),
    el("span", {class: "team", text: c.team}), el("p", {text: c.ability}), el("p", {class: "goal", text: c.goal}),
    el("small", {text: t("Tap to hide")})]);
}

/** @type {number | null} */
let lastLeft = null;
const MILESTONES = [30, 10, 5];
/** The countdown in the header; 30, 10 and 5 seconds before the end are said to a screen reader
 * (the same moments on every phone: every phone has the same clock). */
function tick() {
  setText($("clock"), clockText(clockEnd));
  const left = clockEnd ? Math.max(0, Math.ceil((clockEnd - performance.now()) / 1000)) : null;
  for (const m of MILESTONES) if (lastLeft !== null && left !== null && lastLeft > m && left <= m) say(t("{n} seconds left", {n: m}));
  lastLeft = left;
}
setInterval(tick, 250);

/** The focus after an answer does not fall to the page's top: it goes to the next question, or
 * where the answer is confirmed (at night, the closed panel, on every phone alike). */
function focusAfterAnswer() {
  const next = document.querySelector("#prompts .prompt h3");
  if (next instanceof HTMLElement) { next.tabIndex = -1; quietFocus(next); }
  else quietFocus($("waiting").hidden ? $("nightq") : $("waiting"));
}

/** @param {Prompt} p @param {unknown} choice */
function answer(p, choice) {
  if (link && link.send({type: "decide", prompt: p.id, choice})) {
    answered.add(p.id);
    recorded = false;
    const form = document.querySelector(`[data-prompt="${CSS.escape(p.id)}"]`);
    const focused = !!form && form.contains(document.activeElement);
    if (form) form.remove();
    setText($("waiting"), t("Sent. Waiting for the table…"));
    if (questionOpen) { questionOpen = false; if (state) draw(state); }
    if (focused) focusAfterAnswer();
  }
}

const token = localStorage.getItem(KEY);
const stored = localStorage.getItem(CODE);
if (consoleSeat()) start(consoleSeat());  // a seat of a mixed table, from the facilitator's console
else if (token && (!urlCode() || !stored || stored === urlCode())) { loadText(document.documentElement.lang); start(token); } else startJoin("");
