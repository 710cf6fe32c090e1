// The phone: join by code and name, then the secret card, prompts and private results.
"use strict";
(() => {
  const {t, el, fill, banner, post, connect, promptForm, loadText} = M;
  const KEY = "mafioso.seat";
  const $ = id => document.getElementById(id);
  let link = null, state = null, cardShown = false, lang = null;
  const answered = new Set();

  function show(section) { for (const s of ["join", "lobby", "game"]) $(s).hidden = s !== section; }

  function startJoin(message) {
    localStorage.removeItem(KEY);
    const code = new URLSearchParams(location.search).get("code");
    if (code) $("code").value = code;
    show("join");
    if (message) banner(message, "sticky");
  }

  $("joinform").addEventListener("submit", async e => {
    e.preventDefault();
    try {
      const r = await post("/api/join", {code: $("code").value, name: $("name").value});
      localStorage.setItem(KEY, r.token);
      banner("");
      start(r.token);
    } catch (err) { banner(err.message, "sticky"); }
  });

  $("leave").addEventListener("click", () => { if (link) link.send({type: "leave"}); });

  let hideTimer = 0;
  $("card").addEventListener("click", () => {
    cardShown = !cardShown;
    clearTimeout(hideTimer);
    if (cardShown) hideTimer = setTimeout(() => { cardShown = false; drawCard(); }, 20000);  // never left face up
    drawCard();
  });

  function start(token) {
    link = connect({seat: token}, receive, up => {
      $("status").textContent = up ? "" : t("Reconnecting…");
      answered.clear();  // an answer sent just before a disconnect may not have arrived: ask again
    }, true);
  }

  function receive(msg) {
    if (msg.type === "error") {
      if (msg.code === "bad_token") { link.stop(); startJoin(msg.message); return; }
      banner(msg.message);
      answered.clear();
      if (state) draw(state);
      return;
    }
    if (msg.type === "left") { link.stop(); startJoin(""); return; }
    if (msg.type === "ack") { answered.delete(msg.prompt); banner(t("Your answer is recorded."), "ok"); return; }
    if (msg.type !== "state") return;
    // an answer is settled once its prompt is gone; the next step may ask again with the same id
    const asked = new Set((msg.prompts || []).map(p => p.id));
    for (const id of [...answered]) if (!asked.has(id)) answered.delete(id);
    if (msg.lang !== lang) { lang = msg.lang; document.documentElement.lang = lang; loadText(lang).then(() => draw(msg)); }
    draw(msg);
  }

  function draw(msg) {
    state = msg;
    if (msg.seat === null || msg.seat === undefined) {
      show("lobby");
      $("hello").textContent = t("You are at table {code} as {name}.", {code: msg.table.code, name: msg.name});
      fill($("people"), ...msg.lobby.map(p => el("li", {text: p.name})));
      return;
    }
    show("game");
    $("me").textContent = t("Seat {seat}", {seat: msg.seat}) + " · " + msg.name;
    $("phase").textContent = msg.phase + (msg.step ? " · " + msg.step : "");
    drawCard();
    const mine = msg.seats.find(s => s.seat === msg.seat);
    const box = $("prompts");
    box.replaceChildren(...msg.prompts.filter(p => !answered.has(p.id)).map(p => promptForm(p, answer)));
    $("waiting").textContent = msg.prompts.length || msg.outcome ? "" :
      (mine && !mine.alive ? t("You are out of the game. Thank you for playing; keep your secrets.") : t("Nothing to do now. Watch the shared screen."));
    $("outcome").textContent = msg.outcome ? t("Game over: {names} won.", {names: msg.outcome.names.join(", ") || t("nobody")}) : "";
    fill($("private"), ...msg.private.slice().reverse().map(e => el("li", {text: e.text})));
    fill($("news"), ...msg.events.filter(e => e.text).slice(-8).reverse().map(e => el("li", {text: e.text})));
  }

  function drawCard() {
    const c = state && state.card;
    const card = $("card");
    if (!c) { card.textContent = t("Your card will appear here."); return; }
    card.classList.toggle("hidden-card", !cardShown);
    card.style.borderColor = c.colour;
    if (!cardShown) { fill(card, el("span", {text: t("Tap to see your secret card")})); return; }
    fill(card, 
      el("span", {class: "icon", text: c.icon}), el("strong", {class: "role", text: c.name}),
      el("span", {class: "team", text: c.team}), el("p", {text: c.ability}), el("p", {class: "goal", text: c.goal}),
      el("small", {text: t("Tap to hide")}));
  }

  function answer(p, choice) {
    if (link.send({type: "decide", prompt: p.id, choice})) {
      answered.add(p.id);
      const form = document.querySelector(`[data-prompt="${CSS.escape(p.id)}"]`);
      if (form) form.replaceWith(el("p", {class: "quiet", text: t("Sent. Waiting for the table…")}));
    }
  }

  const token = localStorage.getItem(KEY);
  loadText(document.documentElement.lang);
  if (token) start(token); else startJoin("");
})();
