// @ts-check
// The tournament page: standings after any round, seating by round with each table's result and
// protocol, Elo ratings. Read only; the data come from /api/desk/* and refresh every 20 seconds.

/** @type {Record<string, string>} */
let strings = {};
const params = new URLSearchParams(location.search);
const lang = params.get("lang") || "en";
const REFRESH_MS = 20000;

/**
 * The interface's words in the page's language.
 * @param {string} s
 * @param {Record<string, string | number>} [slots]
 */
function t(s, slots) {
  let out = strings[s] || s;
  for (const k in slots || {}) out = out.split("{" + k + "}").join(String((slots || {})[k]));
  return out;
}

/** @param {string} id */
function $(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error("missing #" + id);
  return node;
}

/**
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...(Node | string | null)} kids
 */
function el(tag, attrs, ...kids) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") n.textContent = String(v);
    else if (k === "onclick") n.addEventListener("click", v);
    else if (v !== null && v !== undefined && v !== false) n.setAttribute(k, String(v));
  }
  for (const kid of kids) if (kid !== null) n.append(kid);
  return n;
}

/** @param {string} message */
function banner(message) {
  const b = $("banner");
  b.textContent = message;
  b.hidden = !message;
}

/** @param {string} url */
async function getJson(url) {
  const r = await fetch(url);
  const data = await r.json().catch(() => ({error: t("The server did not answer; try again.")}));
  if (!r.ok) throw new Error(data.error || t("Refused."));
  return data;
}

/** @param {number} x */
const num = x => (Math.round(x * 100) / 100).toLocaleString(lang, {maximumFractionDigits: 2});

const RESULTS = () => ({
  red: t("Red wins"), black: t("Black wins"), draw: t("Draw"), unfinished: t("Unfinished"),
  cancelled: t("Cancelled"), not_played: t("Not played yet"),
});

const state = {
  /** @type {any} */ data: null,
  tab: params.get("tab") || "standings",
  /** @type {number | null} */ round: null,
  /** @type {string} */ after: params.get("after") || "",
  find: "",
};

async function loadText() {
  try { strings = await getJson("/api/text?lang=" + encodeURIComponent(lang)); } catch (e) { strings = {}; }
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-t]").forEach(n => {
    const key = /** @type {HTMLElement} */ (n).dataset.t;
    if (key) n.textContent = t(key);
  });
}

async function showList() {
  $("list").hidden = false;
  $("brand").hidden = true;
  $("title").textContent = t("Tournaments");
  document.title = "mafioso · " + t("Tournaments");
  const all = await getJson("/api/desk/tournaments");
  $("none").hidden = all.length > 0;
  $("tournaments").replaceChildren(...all.map((/** @type {any} */ x) => el("li", {},
    el("a", {href: "?name=" + encodeURIComponent(x.name) + (lang !== "en" ? "&lang=" + encodeURIComponent(lang) : "")},
      el("b", {text: x.name}),
      t("players: {players}, rounds: {rounds}", {players: x.players, rounds: x.rounds}), el("br"),
      t("games recorded: {played} of {games}", {played: x.played, games: x.games}), el("br"),
      t("Scored by {system}", {system: x.system})))));
  if (all.length > 1) {
    const across = await getJson("/api/desk/ratings");
    ratingTable($("allelo"), across.ratings);
    $("federation").hidden = false;
  }
}

const POLICIES = () => ({separate: t("separate"), avoid: t("avoid"), welcome: t("welcome"), nothing: t("nothing")});

/** The list's form to create a tournament, with the server's scoring presets and the event classes in words. */
async function setUpCreate() {
  const systems = await getJson("/api/desk/systems");
  $("csystem").replaceChildren(...systems.map((/** @type {any} */ s) => el("option", {value: s.id, text: s.label})),
    el("option", {value: "custom", text: t("A system of your own (YAML)")}));
  $("cclass").replaceChildren(...["club", "tournament", "elite"].map(c => el("option", {value: c, text: eventClass(c), selected: c === "tournament"})));
  $("cpairshelp").textContent = t("Pair policies (optional): player, player, policy, one a line; policies: {policies}",
    {policies: Object.values(POLICIES()).join(", ")});
  $("csystem").addEventListener("change", () => {
    $("cyamlbox").hidden = /** @type {HTMLSelectElement} */ ($("csystem")).value !== "custom";
  });
  $("createform").addEventListener("submit", e => { createTournament(/** @type {SubmitEvent} */ (e)); });
}

/** @param {string} id */
const lines = id => /** @type {HTMLTextAreaElement} */ ($(id)).value.split("\n").map(x => x.trim()).filter(x => x);

/** The form as the server takes it (``mafioso tournament create``'s settings). */
function createForm() {
  const words = /** @type {Record<string, string>} */ (POLICIES());
  const policy = (/** @type {string} */ w) => Object.keys(words).find(k => words[k] === w.toLowerCase() || k === w.toLowerCase()) || w;
  /** @type {Record<string, string>} */
  const stages = {};
  for (const line of lines("cstages")) { const [round, ...rest] = line.split("="); stages[round.trim()] = rest.join("=").trim(); }
  /** @type {Record<string, string[]>} */
  const teams = {};
  for (const line of lines("cteams")) {
    const [team, ...rest] = line.split("=");
    teams[team.trim()] = rest.join("=").split(",").map(x => x.trim()).filter(x => x);
  }
  const pairs = lines("cpairs").map(line => {
    const parts = line.split(",").map(x => x.trim());
    return parts.length === 3 ? [parts[0], parts[1], policy(parts[2])] : parts;
  });
  return {
    name: /** @type {HTMLInputElement} */ ($("cname")).value.trim(), players: lines("cplayers"),
    rounds: Number(/** @type {HTMLInputElement} */ ($("crounds")).value),
    scoring: /** @type {HTMLSelectElement} */ ($("csystem")).value, system: /** @type {HTMLTextAreaElement} */ ($("cyaml")).value,
    event_class: /** @type {HTMLSelectElement} */ ($("cclass")).value, stages, pairs, teams,
    cards: /** @type {HTMLInputElement} */ ($("ccards")).checked, lang,
    organiser: /** @type {HTMLInputElement} */ ($("corganiser")).value,
  };
}

/** Create it; the judges' pass is shown once, to be written down. @param {SubmitEvent} event */
async function createTournament(event) {
  event.preventDefault();
  const out = $("createresult");
  const button = /** @type {HTMLButtonElement} */ (document.querySelector("#createform .go"));
  button.disabled = true;
  try {
    const r = await fetch("/api/desk/create", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(createForm())});
    const data = await r.json().catch(() => ({error: t("The server did not answer; try again.")}));
    if (!r.ok) {
      out.replaceChildren(el("p", {class: "no", text: t("Nothing was stored: {why}", {why: data.error || t("Refused.")})}));
      return;
    }
    const link = "?name=" + encodeURIComponent(data.name) + (lang !== "en" ? "&lang=" + encodeURIComponent(lang) : "");
    out.replaceChildren(
      el("p", {class: "ok", text: t("{name}: players: {players}; rounds: {rounds}; tables in a round: {tables}; scored by {system}.",
        {name: data.name, players: data.players, rounds: data.rounds, tables: data.tables, system: data.system})}),
      el("p", {}, t("The judges' pass, shown only now: write it down."), " ", el("code", {id: "newpass", text: data.pass})),
      el("p", {}, el("a", {href: link, text: t("Open the tournament")})));
    const organiser = /** @type {HTMLInputElement} */ ($("corganiser")).value;
    /** @type {HTMLFormElement} */ ($("createform")).reset();
    /** @type {HTMLInputElement} */ ($("corganiser")).value = organiser;  // the next tournament needs it too
    await showList();
  } finally {
    button.disabled = false;
  }
}

async function load() {
  const name = params.get("name") || "";
  const query = "name=" + encodeURIComponent(name) + (state.after ? "&round=" + state.after : "");
  try {
    state.data = await getJson("/api/desk/tournament?" + query);
    banner("");
  } catch (e) {
    banner(t("Cannot show the tournament: {why}", {why: e instanceof Error ? e.message : String(e)}));
    return;
  }
  render();
}

function render() {
  const d = state.data;
  $("view").hidden = false;
  $("title").textContent = d.name;
  document.title = "mafioso · " + d.name;
  const played = d.seating.filter((/** @type {any} */ s) => s.result !== "not_played" && s.result !== "cancelled").length;
  $("facts").textContent = t("players: {players} · rounds: {rounds} · games recorded: {played} of {games} · scored by {system} · ratings: {kind}",
    {players: d.players, rounds: d.rounds, played, games: d.seating.length, system: d.system, kind: eventClass(d.event_class)});
  if (state.tab === "teams" && !d.teams.length) state.tab = "standings";
  document.querySelectorAll("[data-tab]").forEach(b => {
    const tab = /** @type {HTMLElement} */ (b).dataset.tab || "";
    b.setAttribute("aria-selected", String(tab === state.tab));
    if (tab === "teams") /** @type {HTMLElement} */ (b).hidden = !d.teams.length;
    $(tab).hidden = tab !== state.tab;
  });
  renderStandings(d);
  renderSeating(d);
  renderTeams(d);
  renderRatings(d);
  renderRecord(d);
  $("onow").textContent = t("Scored now by {system}.", {system: d.system});
}

/** @param {string} kind */
function eventClass(kind) {
  return ({club: t("club"), tournament: t("tournament"), elite: t("elite")})[kind] || kind;
}

/** @param {string} stage */
function stageName(stage) {
  return ({main: "", second_round: t("second round"), semifinal: t("semi-final"), final: t("final")})[stage] ?? stage;
}

/** @param {string} player */
const isHit = player => state.find !== "" && player.toLowerCase().includes(state.find);

/** @param {any} d */
function renderStandings(d) {
  const after = /** @type {HTMLSelectElement} */ ($("after"));
  const options = [el("option", {value: "", text: t("every game so far")})];
  for (let r = 1; r <= d.rounds; r++) {
    const stage = stageName(d.stages[r]);
    options.push(el("option", {value: r, text: stage ? t("round {n} ({stage})", {n: r, stage}) : t("round {n}", {n: r})}));
  }
  after.replaceChildren(...options);
  after.value = state.after;
  const q = "?name=" + encodeURIComponent(d.name) + (state.after ? "&round=" + state.after : "");
  $("csv").setAttribute("href", "/api/desk/standings.csv" + q);
  $("json").setAttribute("href", "/api/desk/standings.json" + q);
  /** @type {[string, string, (r: any) => string, string][]} */
  const cols = [
    ["place", t("Place"), r => String(r.place), ""],
    ["player", t("Player"), r => r.player, "l"],
  ];
  if (d.teams.length) cols.push(["team", t("Team"), r => r.team, "l wide"]);
  cols.push(["points", t("Points"), r => num(r.points), "points"]);
  if (d.normalised) cols.push(["raw_points", t("Before scaling"), r => num(r.raw_points), "wide"],
    ["normalisation", t("Factor"), r => "×" + num(r.normalisation), "wide"]);
  if (d.average) cols.push(["average", t("Per game"), r => num(r.average), ""]);
  cols.push(["games", t("Games"), r => String(r.games), ""], ["wins", t("Wins"), r => String(r.wins), ""],
    ["legacy", t("Best move"), r => num(r.legacy - (d.compensation === "legacy" ? r.compensation : 0)), "wide"]);
  if (d.compensation) cols.push(["compensation", t("First-night compensation"), r => num(r.compensation), "wide"]);
  cols.push(["extra", t("Extra"), r => num(r.extra), "wide"], ["penalty", t("Penalty"), r => num(r.penalty), "wide"],
    ["against_black", t("Votes against black"), r => String(r.against_black), "wide"],
    ["against_red", t("Votes against red"), r => String(r.against_red), "wide"],
    ["decisive", t("Decisive votes"), r => String(r.decisive), "wide"]);
  const head = el("tr", {}, ...cols.map(([, label, , cls]) => el("th", {class: cls.replace("points", ""), text: label})));
  const rows = d.standings.map((/** @type {any} */ r) => el("tr", {class: (isHit(r.player) ? "hit " : "") + (r.place <= 3 && r.games ? "top" : "")},
    ...cols.map(([, , value, cls]) => {
      const text = value(r);
      return el("td", {class: cls + (text === "0" && cls !== "points" ? " zero" : ""), text});
    })));
  $("table").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  $("legend").textContent = t("Points by {system}; ties are broken as the system says. Standings are recomputed from the recorded protocols every time.", {system: d.system});
}

/** @param {any} d */
function currentRound(d) {
  if (state.round) return state.round;
  const open = d.seating.find((/** @type {any} */ s) => s.result === "not_played");
  return open ? open.round : d.rounds;
}

/** @param {any} d */
function renderSeating(d) {
  const round = currentRound(d);
  const buttons = [];
  for (let r = 1; r <= d.rounds; r++) {
    const tables = d.seating.filter((/** @type {any} */ s) => s.round === r);
    const done = tables.every((/** @type {any} */ s) => s.result !== "not_played");
    buttons.push(el("button", {type: "button", "aria-pressed": String(r === round), class: done ? "done" : null,
      title: done ? t("every game of this round is recorded") : null, text: String(r),
      onclick: () => { state.round = r; render(); }}));
  }
  $("rounds").replaceChildren(...buttons);
  const byes = d.byes[String(round)] || [];
  const found = d.seating.filter((/** @type {any} */ s) => s.round === round).flatMap((/** @type {any} */ s) =>
    s.players.map((/** @type {string} */ p, /** @type {number} */ i) => isHit(p) ? t("{name}: table {table}, seat {seat}",
      {name: p, table: s.table, seat: i + 1}) : "").filter(Boolean));
  found.push(...byes.filter(isHit).map((/** @type {string} */ p) => t("{name}: sits out", {name: p})));
  $("found").textContent = found.slice(0, 6).join(" · ");
  $("byes").textContent = byes.length ? t("Sitting out this round: {names}", {names: byes.join(", ")}) : "";
  const results = RESULTS();
  const cards = d.seating.filter((/** @type {any} */ s) => s.round === round).map((/** @type {any} */ s) => {
    const badge = el("span", {class: "badge " + s.result, text: /** @type {any} */ (results)[s.result] || s.result});
    const seats = el("ol", {}, ...s.players.map((/** @type {string} */ p, /** @type {number} */ i) =>
      el("li", {class: isHit(p) ? "hit" : null}, el("span", {class: "n", text: String(i + 1)}), el("span", {text: p}))));
    const link = ["red", "black", "draw"].includes(s.result)  // an unfinished game's sheet would show every role
      ? el("a", {href: `/api/desk/sheet?name=${encodeURIComponent(d.name)}&round=${s.round}&table=${s.table}`, target: "_blank",
        text: t("Protocol")}) : null;
    const version = s.version > 1 ? el("span", {class: "muted", text: " " + t("corrected (version {n})", {n: s.version})}) : null;
    return el("div", {class: "card"}, el("h3", {}, t("Table {n}", {n: s.table}), badge), seats,
      el("div", {class: "foot"}, link, version));
  });
  $("tables").replaceChildren(...cards);
}

/** @param {any} d */
function renderTeams(d) {
  const head = el("tr", {}, el("th", {text: t("Place")}), el("th", {class: "l", text: t("Team")}),
    el("th", {text: t("Points")}), el("th", {text: t("Games")}), el("th", {text: t("Wins")}),
    el("th", {class: "l wide", text: t("Players")}));
  const rows = d.teams.map((/** @type {any} */ x) => el("tr", {class: x.members.some(isHit) ? "hit" : null},
    el("td", {text: String(x.place)}), el("td", {class: "l", text: x.team}), el("td", {class: "points", text: num(x.points)}),
    el("td", {text: String(x.games)}), el("td", {text: String(x.wins)}),
    el("td", {class: "l wide members", text: x.members.join(", ")})));
  $("teamtable").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
}

/** @param {any} d */
function renderRatings(d) {
  $("ratingsnote").textContent = t("Elo with a red and a black track, recomputed from the counted games in order ({kind} K factors).", {kind: eventClass(d.event_class)});
  ratingTable($("elo"), d.ratings);
}

/**
 * @param {HTMLElement} table
 * @param {any[]} ratings
 */
function ratingTable(table, ratings) {
  const head = el("tr", {}, el("th", {text: "#"}), el("th", {class: "l", text: t("Player")}), el("th", {text: t("Overall")}),
    el("th", {text: t("Red")}), el("th", {text: t("Black")}), el("th", {class: "wide", text: t("Games as red")}),
    el("th", {class: "wide", text: t("Games as black")}));
  const rows = ratings.map((/** @type {any} */ r, /** @type {number} */ i) => el("tr", {class: isHit(r.player) ? "hit" : null},
    el("td", {text: String(i + 1)}), el("td", {class: "l", text: r.player}), el("td", {class: "points", text: r.overall.toFixed(1)}),
    el("td", {text: r.red.toFixed(1)}), el("td", {text: r.black.toFixed(1)}), el("td", {class: "wide", text: String(r.red_games)}),
    el("td", {class: "wide", text: String(r.black_games)})));
  table.replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  if (!rows.length) table.replaceChildren(el("caption", {class: "muted", text: t("No game recorded yet.")}));
}

/**
 * Fill a select with numbers, keeping the judge's choice across refreshes.
 * @param {HTMLSelectElement} select
 * @param {number[]} values
 * @param {number} preferred
 */
function numbers(select, values, preferred) {
  const keep = select.value;
  const key = values.join(",");
  if (select.dataset.values !== key) {
    select.replaceChildren(...values.map(v => el("option", {value: v, text: String(v)})));
    select.dataset.values = key;
  }
  select.value = keep && values.includes(Number(keep)) ? keep : String(preferred);
}

/** @param {any} d */
function renderRecord(d) {
  const open = d.seating.find((/** @type {any} */ s) => s.result === "not_played") || d.seating[0];
  const rounds = [...new Set(d.seating.map((/** @type {any} */ s) => s.round))].map(Number);
  const round = /** @type {HTMLSelectElement} */ ($("rround"));
  numbers(round, rounds, open ? open.round : 1);
  const tables = d.seating.filter((/** @type {any} */ s) => String(s.round) === round.value).map((/** @type {any} */ s) => s.table);
  numbers(/** @type {HTMLSelectElement} */ ($("rtable")), tables, open && String(open.round) === round.value ? open.table : 1);
  const saved = sessionStorage.getItem("judge-pass:" + d.name);
  const pass = /** @type {HTMLInputElement} */ ($("pass"));
  if (saved && !pass.value) pass.value = saved;
}

/** @param {SubmitEvent} ev */
async function submitRecord(ev) {
  ev.preventDefault();
  const d = state.data;
  const out = $("recordresult");
  const file = /** @type {HTMLInputElement} */ ($("file")).files?.[0];
  const button = /** @type {HTMLButtonElement} */ (document.querySelector("#recordform .go"));
  if (!file) return;
  const pass = /** @type {HTMLInputElement} */ ($("pass")).value;
  const body = {
    name: d.name, pass, round: Number(/** @type {HTMLSelectElement} */ ($("rround")).value),
    table: Number(/** @type {HTMLSelectElement} */ ($("rtable")).value),
    correct: /** @type {HTMLInputElement} */ ($("correct")).checked,
    reason: /** @type {HTMLInputElement} */ ($("reason")).value, protocol: await file.text(),
  };
  button.disabled = true;
  try {
    const r = await fetch("/api/desk/record", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    const data = await r.json().catch(() => ({error: t("The server did not answer; try again.")}));
    if (!r.ok) {
      const why = data.problems
        ? t("Nothing was stored: the protocol breaks the rules in {n} place(s):", {n: data.problems.length})
        : t("Nothing was stored: {why}", {why: data.error || t("Refused.")});
      const list = data.problems ? [el("ul", {}, ...data.problems.map((/** @type {string} */ p) => el("li", {text: p})))] : [];
      out.replaceChildren(el("p", {class: "no", text: why}), ...list);
      return;
    }
    sessionStorage.setItem("judge-pass:" + d.name, pass);
    const result = /** @type {any} */ (RESULTS())[data.winner || "unfinished"];
    out.replaceChildren(el("p", {class: "ok", text: data.version > 1
      ? t("Round {round}, table {table}: corrected (version {n}); {result}.", {round: data.round, table: data.table, n: data.version, result})
      : t("Round {round}, table {table}: recorded; {result}.", {round: data.round, table: data.table, result})}));
    /** @type {HTMLFormElement} */ ($("recordform")).reset();
    $("reasonbox").hidden = true;
    /** @type {HTMLInputElement} */ ($("pass")).value = pass;
    /** @type {HTMLSelectElement} */ ($("rround")).value = "";  // on to the next table to play
    /** @type {HTMLSelectElement} */ ($("rtable")).value = "";
    await load();
  } finally {
    button.disabled = false;
  }
}

async function cancelGame() {
  const d = state.data;
  const out = $("recordresult");
  const reason = /** @type {HTMLInputElement} */ ($("reason"));
  const pass = /** @type {HTMLInputElement} */ ($("pass")).value;
  const round = Number(/** @type {HTMLSelectElement} */ ($("rround")).value);
  const table = Number(/** @type {HTMLSelectElement} */ ($("rtable")).value);
  $("reasonbox").hidden = false;
  if (!pass || !reason.value.trim()) {
    out.replaceChildren(el("p", {class: "no", text: t("To cancel a game, give the judges' pass and why it is cancelled.")}));
    (pass ? reason : /** @type {HTMLInputElement} */ ($("pass"))).focus();
    return;
  }
  if (!confirm(t("Cancel the game of round {round}, table {table}? It will no longer count.", {round, table}))) return;
  const r = await fetch("/api/desk/cancel", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({name: d.name, pass, round, table, reason: reason.value})});
  const data = await r.json().catch(() => ({error: t("The server did not answer; try again.")}));
  if (!r.ok) {
    out.replaceChildren(el("p", {class: "no", text: t("Nothing was stored: {why}", {why: data.error || t("Refused.")})}));
    return;
  }
  sessionStorage.setItem("judge-pass:" + d.name, pass);
  out.replaceChildren(el("p", {class: "ok", text: t("Round {round}, table {table}: cancelled.", {round, table})}));
  reason.value = "";
  await load();
}

/** The organiser's tab: the presets to choose from (loaded once). */
async function setUpOrganise() {
  const systems = await getJson("/api/desk/systems");
  $("osystem").replaceChildren(...systems.map((/** @type {any} */ s) => el("option", {value: s.id, text: s.label})),
    el("option", {value: "custom", text: t("A system of your own (YAML)")}));
  $("osystem").addEventListener("change", () => {
    $("oyamlbox").hidden = /** @type {HTMLSelectElement} */ ($("osystem")).value !== "custom";
  });
  $("organiseform").addEventListener("submit", e => { e.preventDefault(); organise("scoring"); });
  $("renew").addEventListener("click", () => { organise("pass"); });
}

/**
 * Send the organiser's change: a new scoring system, or a new judges' pass (shown once).
 * @param {"scoring" | "pass"} what
 */
async function organise(what) {
  const d = state.data;
  const out = $("organiseresult");
  const pass = /** @type {HTMLInputElement} */ ($("opass"));
  if (!pass.value) {
    out.replaceChildren(el("p", {class: "no", text: t("Give the organiser's pass first.")}));
    pass.focus();
    return;
  }
  if (what === "pass" && !confirm(t("Give the judges of {name} a new pass? The old one stops working at once.", {name: d.name}))) return;
  /** @type {Record<string, any>} */
  const body = {name: d.name, organiser: pass.value, lang};
  if (what === "scoring") {
    body.scoring = /** @type {HTMLSelectElement} */ ($("osystem")).value;
    body.system = /** @type {HTMLTextAreaElement} */ ($("oyaml")).value;
  }
  const r = await fetch("/api/desk/" + what, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const data = await r.json().catch(() => ({error: t("The server did not answer; try again.")}));
  if (!r.ok) {
    out.replaceChildren(el("p", {class: "no", text: t("Nothing was changed: {why}", {why: data.error || t("Refused.")})}));
    return;
  }
  if (what === "pass") {
    sessionStorage.removeItem("judge-pass:" + d.name);
    out.replaceChildren(el("p", {class: "ok"}, t("The judges' new pass, shown only now: write it down. The old one no longer works."),
      " ", el("code", {id: "judgespass", text: data.pass})));
    return;
  }
  out.replaceChildren(el("p", {class: "ok", text: t("Now scored by {system} (was {was}): every score is recomputed.",
    {system: data.system, was: data.was})}));
  await load();
}

function wire() {
  $("recordform").addEventListener("submit", e => { submitRecord(/** @type {SubmitEvent} */ (e)); });
  // a new file, a change or a new attempt (even one the browser refuses) clears the last answer
  for (const kind of ["input", "change"]) $("recordform").addEventListener(kind, () => $("recordresult").replaceChildren());
  $("recordform").addEventListener("invalid", () => $("recordresult").replaceChildren(), true);
  $("cancelgame").addEventListener("click", () => { cancelGame(); });
  $("correct").addEventListener("change", e => {
    const on = /** @type {HTMLInputElement} */ (e.target).checked;
    $("reasonbox").hidden = !on;
    /** @type {HTMLInputElement} */ ($("reason")).required = on;
  });
  $("rround").addEventListener("change", () => { if (state.data) renderRecord(state.data); });
  document.querySelectorAll("[data-tab]").forEach(b => b.addEventListener("click", () => {
    state.tab = /** @type {HTMLElement} */ (b).dataset.tab || "standings";
    render();
  }));
  $("after").addEventListener("change", e => {
    state.after = /** @type {HTMLSelectElement} */ (e.target).value;
    load();
  });
  $("find").addEventListener("input", e => {
    state.find = /** @type {HTMLInputElement} */ (e.target).value.trim().toLowerCase();
    if (state.data) render();
  });
}

async function main() {
  await loadText();
  if (lang !== "en") document.querySelector("#brand a")?.setAttribute("href", "/tournament?lang=" + encodeURIComponent(lang));
  if (!params.get("name")) {
    await showList().catch(e => banner(String(e.message || e)));
    await setUpCreate().catch(e => banner(String(e.message || e)));
    return;
  }
  wire();
  await setUpOrganise().catch(e => banner(String(e.message || e)));
  await load();
  setInterval(() => { if (!document.hidden) load(); }, REFRESH_MS);
}

main();

export {};  // a module (loaded with type="module"): its names stay its own
