// Shared by the host screen and the phone: translation, sockets that reconnect, prompt forms.
"use strict";
const M = (() => {
  let strings = {};
  const t = (s, slots) => {
    let out = strings[s] || s;
    for (const k in slots || {}) out = out.split("{" + k + "}").join(slots[k]);
    return out;
  };
  async function loadText(lang) {
    try { strings = await (await fetch("/api/text?lang=" + encodeURIComponent(lang))).json(); } catch (e) { strings = {}; }
    document.querySelectorAll("[data-t]").forEach(n => { n.textContent = t(n.dataset.t); });
  }
  function el(tag, attrs, ...kids) {
    const n = document.createElement(tag);
    for (const k in attrs || {}) {
      if (k === "on") for (const ev in attrs.on) n.addEventListener(ev, attrs.on[ev]);
      else if (k === "text") n.textContent = attrs[k];
      else if (attrs[k] !== null && attrs[k] !== undefined && attrs[k] !== false) n.setAttribute(k, attrs[k]);
    }
    for (const kid of kids.flat()) if (kid !== null && kid !== undefined) n.append(kid);
    return n;
  }
  // replaceChildren without the nulls that mark "nothing here"
  const fill = (node, ...kids) => node.replaceChildren(...kids.flat().filter(k => k !== null && k !== undefined));
  function banner(message, kind) {
    const b = document.getElementById("banner");
    if (!b) return;
    b.textContent = message || "";
    b.className = message ? "banner " + (kind || "error") : "banner";
    clearTimeout(banner.timer);
    if (message && kind !== "sticky") banner.timer = setTimeout(() => banner(""), 6000);
  }
  async function post(url, body) {
    const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    const data = await r.json().catch(() => ({error: t("The server did not answer; try again.")}));
    if (!r.ok) throw new Error(data.error || t("Refused."));
    return data;
  }
  // Every frame a phone sends is FRAME bytes, so that an answer to a real night prompt is no
  // longer on the air than a decoy's (the server refuses other sizes).
  const FRAME = 1024;
  function frame(m) {
    const text = JSON.stringify(Object.assign({}, m, {pad: ""}));
    const room = FRAME - new TextEncoder().encode(text).length;
    return JSON.stringify(Object.assign({}, m, {pad: " ".repeat(Math.max(0, room))}));
  }
  // A socket that says hello, reconnects with backoff, and re-sends hello every time.
  // A phone's socket (padded) sends every message as one FRAME-byte frame.
  function connect(hello, onMessage, onStatus, padded) {
    let ws = null, delay = 500, closedByUs = false;
    const encode = m => padded ? frame(m) : JSON.stringify(m);
    const open = () => {
      ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
      ws.onopen = () => { delay = 500; ws.send(encode(Object.assign({type: "hello"}, hello))); onStatus(true); };
      ws.onmessage = e => {
        const msg = JSON.parse(e.data);
        if (msg.type === "error" && (msg.code === "bad_token" || msg.code === "no_table")) closedByUs = true;
        onMessage(msg);
      };
      ws.onclose = () => {
        onStatus(false);
        if (!closedByUs) setTimeout(open, delay);
        delay = Math.min(delay * 2, 5000);
      };
    };
    open();
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden && ws && ws.readyState > 1 && !closedByUs) open();
    });
    return {
      send: m => { if (ws && ws.readyState === 1) { ws.send(encode(m)); return true; } banner(t("Not connected; retrying…")); return false; },
      stop: () => { closedByUs = true; if (ws) ws.close(); },
    };
  }
  // One generic form per prompt kind: choose, choose_many, speech. Never per role.
  function promptForm(p, answer) {
    const box = el("div", {class: "prompt", "data-prompt": p.id},
      el("h3", {text: p.title}), p.facts.length ? el("p", {class: "facts", text: p.facts.join(" · ")}) : null);
    if (p.timer) box.append(el("p", {class: "timer", text: t("{s} seconds", {s: p.timer})}));
    const opts = el("div", {class: "options"});
    box.append(opts);
    if (p.kind === "choose") {
      for (const o of p.options) opts.append(el("button", {class: "opt", on: {click: () => answer(p, o.value)}, text: o.label}));
      if (p.optional) opts.append(el("button", {class: "opt pass", on: {click: () => answer(p, null)}, text: t("Pass")}));
    } else if (p.kind === "choose_many") {
      const picked = [];
      const count = el("p", {class: "count"});
      const show = () => { count.textContent = t("Chosen in order: {list}", {list: picked.join(", ") || "—"}); };
      for (const o of p.options) {
        const b = el("button", {class: "opt", on: {click: () => {
          const i = picked.indexOf(o.value);
          if (i >= 0) picked.splice(i, 1); else if (picked.length < p.max) picked.push(o.value);
          b.classList.toggle("on", picked.includes(o.value)); show();
        }}, text: o.label});
        opts.append(b);
      }
      show();
      box.append(count, el("button", {class: "go", on: {click: () => answer(p, picked.slice())},
        text: t("Confirm ({min} to {max})", {min: p.min, max: p.max})}));
      if (p.optional) box.append(el("button", {class: "opt pass", on: {click: () => answer(p, null)}, text: t("Pass")}));
    } else {
      let nominee = null, signal = null;
      if (p.options.length) opts.before(el("p", {class: "hint", text: t("Nominate (optional):")}));
      for (const o of p.options) {
        const b = el("button", {class: "opt", on: {click: () => {
          nominee = nominee === o.value ? null : o.value;
          opts.querySelectorAll(".opt").forEach(x => x.classList.remove("on"));
          if (nominee !== null) b.classList.add("on");
        }}, text: o.label});
        opts.append(b);
      }
      if (p.signal) {
        const sel = el("select", {on: {change: e => { signal = e.target.value ? Number(e.target.value) : null; }}},
          el("option", {value: "", text: t("No signal")}), p.signal.map(o => el("option", {value: o.value, text: o.label})));
        box.append(el("label", {class: "hint"}, t("Secret signal to your team:"), " ", sel));
      }
      box.append(el("button", {class: "go", on: {click: () => {
        const speech = {nominate: nominee};
        if (signal !== null) speech.signal = signal;
        answer(p, nominee === null && signal === null ? null : speech);
      }}, text: t("End my speech")}));
    }
    return box;
  }
  return {t, el, fill, banner, post, connect, promptForm, loadText, frame, FRAME};
})();
