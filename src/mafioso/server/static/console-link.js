// @ts-check
// A phone seat of a mixed table run from the facilitator's console, on the table's own phone
// page (/p?console=1): it gets the very messages an automated table's phone gets over its
// socket, fetched from the console's API (a console has no socket), and posts its answers there.
// The pass comes in the link the facilitator showed (#c=PASS) and is kept in local storage.

const KEY = "mafioso.console.phone";
const EVERY_MS = 1500;

/** This phone's console pass, or "" on an automated table's phone. @returns {string} */
export function consoleSeat() {
  if (!new URLSearchParams(location.search).has("console")) return "";
  const hash = new URLSearchParams(location.hash.slice(1));
  const fromLink = hash.get("c") || hash.get("t");
  if (fromLink) { localStorage.setItem(KEY, fromLink); history.replaceState(null, "", "/p?console=1"); }
  return localStorage.getItem(KEY) || "";
}

/** @param {string} path @param {Record<string, unknown>} body */
async function post(path, body) {
  const r = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  return {ok: r.ok, data: await r.json().catch(() => ({}))};
}

/**
 * The seat's state, asked for with the version last received (``If-None-Match``): while nothing
 * changed the server answers 304 with no body. @param {string} pass @param {string} tag
 * @returns {Promise<{status: number, tag: string, data: any}>}
 */
async function fetchState(pass, tag) {
  const headers = /** @type {Record<string, string>} */ ({"Content-Type": "application/json"});
  if (tag) headers["If-None-Match"] = tag;
  const r = await fetch("/api/console/phone/state", {method: "POST", headers, body: JSON.stringify({token: pass}), cache: "no-store"});
  if (r.status === 304) return {status: 304, tag, data: null};
  return {status: r.status, tag: r.ok ? r.headers.get("ETag") || "" : "", data: await r.json().catch(() => ({}))};
}

/**
 * The console's link, shaped as common.js's socket link: the seat's state every 1.5 s (a 304 of
 * no body while it is unchanged; passed on only when it changed), an answer posted and
 * acknowledged once the console has stored it.
 * @param {Record<string, unknown>} hello @param {(m: any) => void} onMessage
 * @param {(up: boolean) => void} onStatus @param {boolean} [_padded] (a socket's; nothing to pad here)
 * @returns {import("./common.js").Link}
 */
export function consoleLink(hello, onMessage, onStatus, _padded) {
  const pass = String(hello.seat || "");
  let stopped = false, timer = 0, last = "", tag = "";
  const poll = async () => {
    window.clearTimeout(timer);
    if (stopped) return;
    try {
      const got = await fetchState(pass, tag);
      onStatus(true);
      tag = got.tag;
      if (got.status === 304) { /* unchanged */ } else if (got.status >= 400) onMessage({type: "error", code: "console", message: got.data.error || ""});
      else if (JSON.stringify(got.data) !== last) { last = JSON.stringify(got.data); onMessage(got.data); }
    } catch (e) {
      onStatus(false);
    }
    if (!stopped) timer = window.setTimeout(poll, EVERY_MS);
  };
  poll();
  return {
    send: m => {
      if (m.type !== "decide") return false;
      post("/api/console/phone/answer", {token: pass, prompt: m.prompt, choice: m.choice}).then(({ok, data}) => {
        onMessage(ok ? {type: "ack", prompt: m.prompt} : {type: "error", code: "console", message: data.error || ""});
        last = "";
        tag = "";  // the answer's new message, even if the poll raced it
        poll();
      }, () => onStatus(false));
      return true;
    },
    stop: () => { stopped = true; window.clearTimeout(timer); },
  };
}
