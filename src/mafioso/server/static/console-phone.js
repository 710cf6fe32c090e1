// @ts-check
// A player's own phone at a mixed table run from the facilitator's console: the card (hidden
// until tapped), what only this seat was told, and this seat's own questions. The pass is in
// the link the facilitator showed (#t=PASS), kept in local storage.

const KEY = "mafioso.console.phone";
/** @type {Record<string, string>} */
let words = {};
/** @type {string|null} */
let pass = null;
let shownKey = "";
let sending = false;

/** @param {string} text */
const t = text => words[text] || text;

/** @param {string} id @returns {HTMLElement} */
function $(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`no #${id}`);
  return node;
}

/** @param {string} [message] */
function complain(message) {
  $("error").hidden = !message;
  $("error").textContent = message || "";
}

/** @param {string} path @param {Record<string, any>} body */
async function post(path, body) {
  const response = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const data = await response.json().catch(() => ({error: t("The server did not answer: try again.")}));
  if (!response.ok) throw new Error(data.error || t("That was refused."));
  return data;
}

/** @param {any} view */
function render(view) {
  $("who").textContent = view.name;
  $("phase").textContent = view.phase;
  $("role").textContent = view.role;
  $("told").replaceChildren(...view.told.map((/** @type {string} */ line) => Object.assign(document.createElement("li"), {textContent: line})));
  $("ending").hidden = !view.over;
  $("ending").textContent = view.ending.join(" ");
  const key = view.asks.map((/** @type {any} */ a) => a.prompt).join(",");
  if (key === shownKey) return;
  shownKey = key;
  $("asks").replaceChildren(...view.asks.map(askView));
}

/** @param {any} ask */
function askView(ask) {
  const box = document.createElement("section");
  const question = document.createElement("p");
  question.className = "asked";
  question.textContent = ask.question;
  const grid = document.createElement("div");
  grid.className = "grid";
  /** @type {any[]} */
  const picked = [];
  const many = ask.kind === "choose_many";
  const confirm = document.createElement("button");
  confirm.type = "button";
  confirm.className = "big primary";
  confirm.textContent = t("Confirm");
  confirm.addEventListener("click", () => answer(ask.prompt, [...picked]));
  for (const option of ask.options) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "seat";
    button.textContent = option.label;
    if (many) button.setAttribute("aria-pressed", "false");
    button.addEventListener("click", () => {
      if (!many) return answer(ask.prompt, option.value);
      const at = picked.indexOf(option.value);
      if (at >= 0) picked.splice(at, 1); else if (picked.length < ask.max) picked.push(option.value);
      button.setAttribute("aria-pressed", String(picked.includes(option.value)));
      confirm.textContent = `${t("Confirm")} (${picked.length})`;
    });
    grid.append(button);
  }
  box.append(question, grid);
  if (many) box.append(confirm);
  if (ask.optional && !many) {
    const pass_ = document.createElement("button");
    pass_.type = "button";
    pass_.className = "big";
    pass_.textContent = ask.kind === "speech" ? t("End of the speech") : t("Nobody: pass");
    pass_.addEventListener("click", () => answer(ask.prompt, null));
    box.append(pass_);
  }
  return box;
}

/** @param {string} prompt @param {any} choice */
async function answer(prompt, choice) {
  if (sending || !pass) return;
  sending = true;
  try {
    const data = await post("/api/console/phone/answer", {token: pass, prompt, choice});
    complain();
    shownKey = "";
    render(data.view);
  } catch (error) {
    complain(String(/** @type {Error} */ (error).message));
  } finally {
    sending = false;
  }
}

async function poll() {
  if (!pass) return;
  try {
    const data = await post("/api/console/phone", {token: pass});
    if (!sending) render(data.view);
  } catch (error) {
    complain(String(/** @type {Error} */ (error).message));
  }
}

async function main() {
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("t");
  if (fromLink) { localStorage.setItem(KEY, fromLink); history.replaceState(null, "", "/console/phone"); }
  pass = localStorage.getItem(KEY);
  $("card").addEventListener("click", () => {
    const open = $("secret").hidden;
    $("secret").hidden = !open;
    $("card").setAttribute("aria-pressed", String(open));
  });
  if (!pass) return complain(t("Scan the code the facilitator shows you."));
  try {
    const first = await post("/api/console/phone", {token: pass});
    words = await (await fetch(`/api/text?lang=${encodeURIComponent(first.view.lang)}`)).json();
    document.querySelectorAll("[data-t]").forEach(node => {
      const key = node.getAttribute("data-t");
      if (key) node.textContent = t(key);
    });
    render(first.view);
  } catch (error) {
    complain(String(/** @type {Error} */ (error).message));
  }
  window.setInterval(poll, 1500);
}

main();

export {};  // a module (loaded with type="module"): its names stay its own
