// The shared screen: create a table, seat people, then show only public information and speak it.
"use strict";
(() => {
  const {t, el, fill, banner, post, connect, promptForm, loadText} = M;
  const KEY = "mafioso.host";
  const $ = id => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const watching = location.pathname === "/watch";
  let link = null, editions = [], order = [], lang = null, code = null;
  let speakOn = localStorage.getItem("mafioso.speak") !== "off";
  let speakingKey = "", clockEnd = 0;

  function show(section) { for (const s of ["setup", "lobby", "play"]) $(s).hidden = s !== section; }

  // -- setup ------------------------------------------------------------------------------
  async function startSetup() {
    show("setup");
    $("newtable").hidden = true;
    editions = await (await fetch("/api/editions")).json();
    const info = await (await fetch("/api/info")).json();
    fill($("lang"), ...info.languages.map(l => el("option", {value: l.code, text: l.name, selected: l.code === info.default_lang})));
    fill($("edition"), ...editions.map(e => el("option", {value: e.id, text: e.name})));
    pickEdition();
  }
  const edition = () => editions.find(e => e.id === $("edition").value);
  function pickEdition() {
    const e = edition();
    $("players").min = e.min; $("players").max = e.max; $("players").value = e.default_players;
    fill($("options"), ...e.options.map(optionField));
    fillCast();
  }
  function optionField(o) {
    let input;
    if (o.choices.length) input = el("select", {"data-opt": o.name}, o.choices.map(c => el("option", {value: JSON.stringify(c), text: String(c), selected: c === o.default})));
    else if (typeof o.default === "boolean") input = el("input", {type: "checkbox", "data-opt": o.name, checked: o.default});
    else if (typeof o.default === "number") input = el("input", {type: "number", step: "any", "data-opt": o.name, value: o.default});
    else input = el("input", {type: "text", "data-opt": o.name, "data-text": "1", value: o.default === null ? "" : o.default});
    return el("label", {class: "opt-field", title: o.doc}, el("span", {text: o.name}), input, el("small", {text: o.doc}));
  }
  async function fillCast() {
    const e = edition();
    $("cast").hidden = !$("custom").checked;
    let cast = {};
    try {
      const r = await fetch(`/api/cast?edition=${e.id}&players=${$("players").value}&options=${encodeURIComponent(JSON.stringify(readOptions()))}`);
      cast = (await r.json()).cast || {};
    } catch (err) { cast = {}; }
    fill($("cast"), ...e.roles.map(r => el("label", {}, el("span", {text: `${r.icon} ${r.name}`}),
      el("input", {type: "number", min: 0, max: 40, "data-role": r.id, value: cast[r.id] || 0}))));
  }
  function readOptions() {
    const out = {};
    document.querySelectorAll("[data-opt]").forEach(n => {
      if (n.type === "checkbox") out[n.dataset.opt] = n.checked;
      else if (n.tagName === "SELECT") out[n.dataset.opt] = JSON.parse(n.value);
      else if (n.dataset.text) out[n.dataset.opt] = n.value;
      else out[n.dataset.opt] = Number(n.value);
    });
    return out;
  }
  $("edition").addEventListener("change", pickEdition);
  $("players").addEventListener("change", fillCast);
  $("options").addEventListener("change", fillCast);
  $("custom").addEventListener("change", fillCast);
  $("setupform").addEventListener("submit", async ev => {
    ev.preventDefault();
    const body = {edition: $("edition").value, players: Number($("players").value), options: readOptions(),
      lang: $("lang").value, step_seconds: Number($("step").value), hand_votes: $("hand").checked, time_limit: $("limit").checked, cast: null};
    if ($("custom").checked) {
      body.cast = {};
      document.querySelectorAll("[data-role]").forEach(n => { body.cast[n.dataset.role] = Number(n.value); });
    }
    try {
      const r = await post("/api/tables", body);
      localStorage.setItem(KEY, r.host);
      start({host: r.host});
    } catch (err) { banner(err.message, "sticky"); }
  });
  $("newtable").addEventListener("click", ev => {
    ev.preventDefault();
    if (!$("play").hidden && !confirm(t("Leave this game and set up a new table? The game stays stored."))) return;
    if (link) link.stop();
    localStorage.removeItem(KEY);
    location.href = "/host";
  });

  // -- lobby ------------------------------------------------------------------------------
  function drawLobby(msg) {
    show("lobby");
    code = msg.table.code;
    $("code").textContent = code;
    $("qr").src = `/api/qr/${code}.svg`;
    fetch(`/api/info?code=${code}`).then(r => r.json()).then(i => { $("joinurl").textContent = i.join; });
    const ids = msg.lobby.map(p => p.id);
    order = order.filter(id => ids.includes(id)).concat(ids.filter(id => !order.includes(id)));
    const names = Object.fromEntries(msg.lobby.map(p => [p.id, p.name]));
    fill($("order"), ...order.map((id, i) => el("li", {},
      el("span", {text: names[id]}),
      watching ? null : el("span", {class: "tools"},
        el("button", {class: "small", title: t("Move up"), on: {click: () => move(i, -1, msg)}, text: "↑"}),
        el("button", {class: "small", title: t("Move down"), on: {click: () => move(i, 1, msg)}, text: "↓"}),
        el("button", {class: "small", title: t("Remove"), on: {click: () => link.send({type: "remove", id})}, text: "✕"})))));
    $("count").textContent = t("{n} of {total} players have joined.", {n: ids.length, total: msg.table.players});
    $("deal").disabled = ids.length !== msg.table.players || watching;
    $("shuffle").hidden = $("deal").hidden = watching;
    $("shuffle").onclick = () => {
      for (let i = order.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [order[i], order[j]] = [order[j], order[i]]; }
      drawLobby(msg);
    };
  }
  function move(i, by, msg) {
    const j = i + by;
    if (j < 0 || j >= order.length) return;
    [order[i], order[j]] = [order[j], order[i]];
    drawLobby(msg);
  }
  $("deal").addEventListener("click", () => link.send({type: "deal", order}));

  // -- play -------------------------------------------------------------------------------
  function drawPlay(msg) {
    show("play");
    code = msg.table.code;
    $("phase").textContent = msg.phase + (msg.step ? " · " + msg.step : "");
    $("timeup").hidden = watching || !!msg.outcome;
    fill($("seats"), ...msg.seats.map(s => el("div", {class: "seat" + (s.alive ? "" : " out") + (msg.speaking.includes(s.seat) ? " speaking" : "")},
      el("b", {text: String(s.seat)}), el("span", {text: s.name}), s.role ? el("small", {text: s.role}) : null,
      s.alive ? null : el("small", {text: t("out")}))));
    drawNow(msg);
    const gmAnswer = (q, choice) => {
      if (q.interrupt && !confirm(q.title + ": " + (choice === null ? t("Pass") : t("Seat {seat}", {seat: choice})) + "?")) return;
      link.send({type: "decide", prompt: q.id, choice});
    };
    const tools = msg.prompts.filter(p => p.interrupt), asked = msg.prompts.filter(p => !p.interrupt);
    const open = $("gm").querySelector("details") && $("gm").querySelector("details").open;
    fill($("gm"), ...asked.map(p => promptForm(p, gmAnswer)),
      tools.length ? el("details", {open: open}, el("summary", {text: t("Facilitator tools")}), tools.map(p => promptForm(p, gmAnswer))) : null);
    fill($("hands"), ...msg.waiting.map(p => {
      const f = promptForm(p, (q, choice) => link.send({type: "hand", prompt: q.id, choice}));
      f.querySelector("h3").textContent = t("Seat {seat}", {seat: p.seat}) + ": " + p.title;
      return f;
    }));
    fill($("log"), ...msg.events.filter(e => e.text).reverse().map(e => el("li", {class: e.kind === "phase" ? "phase" : "", text: e.text})));
    drawEnd(msg);
    speak(msg);
  }
  function drawNow(msg) {
    const names = Object.fromEntries(msg.seats.map(s => [s.seat, s.name]));
    const key = msg.phase + msg.step + msg.speaking.join(",") + (msg.secret ? "s" : "");
    if (key !== speakingKey) { speakingKey = key; clockEnd = msg.timer ? Date.now() + msg.timer * 1000 : 0; }
    let text = "";
    if (msg.outcome) text = "";
    else if (msg.secret) text = t("Eyes closed. Everyone answers on their phone.");
    else if (msg.speaking.length === 1) text = t("Now: seat {seat} · {name}", {seat: msg.speaking[0], name: names[msg.speaking[0]]});
    else if (msg.speaking.length) text = t("Everyone answers on their phone.");
    $("now").textContent = text;
    tick();
  }
  function tick() {
    const left = Math.max(0, Math.round((clockEnd - Date.now()) / 1000));
    $("clock").textContent = clockEnd ? `${left}s` : "";
  }
  setInterval(tick, 250);
  function drawEnd(msg) {
    if (!msg.outcome) { fill($("end")); return; }
    const winners = msg.outcome.names.join(", ") || t("nobody");
    const story = (msg.story || []).map(e => el("li", {class: e.public ? "" : "secret"},
      e.public ? null : el("small", {text: e.to === "gm" ? t("Facilitator only:") + " " : t("Told to seats {list}:", {list: e.to.join(", ")}) + " "}), e.text));
    const download = watching ? null : el("button", {class: "small", on: {click: saveLog}, text: t("Download the game log")});
    fill($("end"), el("h2", {class: "winners", text: t("Game over: {names} won.", {names: winners})}), download,
      story.length ? el("details", {open: true}, el("summary", {text: t("The whole story")}), el("ol", {class: "log"}, story)) : null);
  }

  async function saveLog() {
    try {
      const log = await post("/api/log", {host: localStorage.getItem(KEY)});
      const a = el("a", {href: URL.createObjectURL(new Blob([JSON.stringify(log, null, 1)], {type: "application/json"})),
        download: `mafioso-${code}.json`});
      document.body.append(a); a.click(); a.remove();
    } catch (err) { banner(err.message); }
  }

  // -- narration aloud --------------------------------------------------------------------
  function drawSpeak() { $("speak").textContent = speakOn ? t("Voice: on") : t("Voice: off"); }
  $("speak").addEventListener("click", () => {
    speakOn = !speakOn;
    localStorage.setItem("mafioso.speak", speakOn ? "on" : "off");
    if (!speakOn && window.speechSynthesis) { queue.length = 0; speechSynthesis.cancel(); }
    drawSpeak();
  });
  // Lines are spoken one by one with a short pause between them, in the order of the script.
  const queue = [];
  let talking = false;
  function speakNext() {
    if (talking || !queue.length) return;
    if (!speakOn || !window.speechSynthesis) { queue.length = 0; return; }
    talking = true;
    const u = new SpeechSynthesisUtterance(queue.shift().text);
    u.lang = lang || "en";
    const done = () => { clearTimeout(guard); if (talking) { talking = false; setTimeout(speakNext, 600); } };
    const guard = setTimeout(done, 20000);  // a voice that never ends must not stop the narration
    u.onend = u.onerror = done;
    speechSynthesis.speak(u);
  }
  function speak(msg) {
    const mark = "mafioso.spoken." + msg.table.code;
    const last = Number(localStorage.getItem(mark) || -1);
    const fresh = msg.events.filter(e => e.n > last && e.text);
    if (!fresh.length) return;
    localStorage.setItem(mark, String(fresh[fresh.length - 1].n));
    if (!speakOn || watching) return;
    queue.push(...fresh);
    speakNext();
  }

  // -- socket -----------------------------------------------------------------------------
  function receive(msg) {
    if (msg.type === "error") {
      if (msg.code === "bad_token" || msg.code === "no_table") {
        link.stop();
        localStorage.removeItem(KEY);
        banner(msg.message, "sticky");
        if (!watching) startSetup();
        return;
      }
      banner(msg.message);
      return;
    }
    if (msg.type !== "state") return;
    if (msg.lang !== lang) { lang = msg.lang; document.documentElement.lang = lang; loadText(lang).then(() => { drawSpeak(); route(msg); }); }
    route(msg);
  }
  function route(msg) { if (msg.stage === "lobby") drawLobby(msg); else drawPlay(msg); }
  function start(hello) {
    link = connect(hello, receive, up => { $("status").textContent = up ? "" : t("Reconnecting…"); });
  }

  drawSpeak();
  loadText("en");
  if (watching) start({watch: params.get("code") || ""});
  else if (localStorage.getItem(KEY)) start({host: localStorage.getItem(KEY)});
  else startSetup();
})();
