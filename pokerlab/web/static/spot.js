// The spot page: a node of a solved spot as a 13x13 grid (colours only; numbers from the server),
// range editors, node locks and saving (the server parses, checks and solves; the page lays out).
"use strict";

let source = null;  // {file} or {solved}
let node = null;
let previousLockNode = null;  // the node the lock box last showed (its hands field is kept there)

async function loadFiles(selected) {
  const select = document.getElementById("file");
  try {
    const data = await getJson("/api/spot/files");
    clear(select);
    for (const f of data.files) select.append(el("option", { value: f.file, text: f.file }));
    if (selected !== undefined) select.value = selected;
    document.getElementById("files-note").textContent = data.files.length ? "" : "no solved spot in the folder";
  } catch (e) { document.getElementById("files-note").textContent = e.message; }
  document.body.dataset.files = String(select.options.length);
}

function postJson(url, body) {
  return getJson(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

// --- The range editor: the server parses and writes the text; the page draws the grid. ---

const NEXT_WEIGHT = new Map([[0, 1], [1, 0.5], [0.5, 0.25], [0.25, 0]]);
const editTimers = {};
let editQueue = Promise.resolve();  // clicks and typing are applied one after the other

function editorNote(who, text, isError) {
  const note = document.getElementById(`${who}-note`);
  note.textContent = text;
  note.className = isError ? "error" : "muted";
}

function drawEditor(who, view) {
  const table = clear(document.getElementById(`${who}-grid`));
  view.labels.forEach((labels, r) => {
    const tr = el("tr", {});
    labels.forEach((label, c) => {
      const w = view.grid[r][c];
      const td = el("td", { "data-hand": label, "data-weight": String(w), text: label,
        title: `${label}: weight ${fmt(w, 3)} (click: next weight)`, onclick: () => clickClass(who, label) });
      if (w > 0) {
        td.className = "held";
        td.style.background = `rgba(29, 107, 58, ${0.3 + 0.7 * Math.min(w, 1)})`;
      }
      tr.append(td);
    });
    table.append(tr);
  });
  editorNote(who, `${view.combos} combos, ${fmt(view.total_weight, 2)} by weight`, false);
  table.dataset.synced = document.getElementById(who).value;
}

async function syncGrid(who) {
  const text = document.getElementById(who).value;
  try {
    const view = await postJson("/api/spot/range", { text });
    if (document.getElementById(who).value === text) drawEditor(who, view);
  } catch (e) {
    editorNote(who, e.message, true);
    document.getElementById(`${who}-grid`).dataset.synced = "";
  }
}

function clickClass(who, hand) {
  editQueue = editQueue.then(async () => {
    const input = document.getElementById(who);
    const cell = document.querySelector(`#${who}-grid td[data-hand="${hand}"]`);
    const now = Number(cell ? cell.dataset.weight : 0);
    const weight = NEXT_WEIGHT.has(now) ? NEXT_WEIGHT.get(now) : 1;
    try {
      const view = await postJson("/api/spot/range", { text: input.value, hand, weight });
      input.value = view.text;
      drawEditor(who, view);
    } catch (e) { editorNote(who, e.message, true); }
  });
}

function textChanged(who) {
  clearTimeout(editTimers[who]);
  document.getElementById(`${who}-grid`).dataset.synced = "";
  editTimers[who] = setTimeout(() => { editQueue = editQueue.then(() => syncGrid(who)); }, 250);
}

async function openNode(key) {
  showError("");
  const player = document.getElementById("player").value;
  const where = source.file !== undefined ? `file=${encodeURIComponent(source.file)}` : `solved=${encodeURIComponent(source.solved)}`;
  try {
    render(await getJson(`/api/spot/node?${where}&node=${encodeURIComponent(key)}&player=${player}`));
  } catch (e) { showError(e.message); }
}

async function solve() {
  showError("");
  const body = {
    board: document.getElementById("board").value, oop: document.getElementById("oop").value,
    ip: document.getElementById("ip").value, pot: Number(document.getElementById("pot").value),
    stack: Number(document.getElementById("stack").value), bets: document.getElementById("bets").value,
    iterations: Number(document.getElementById("spot-iterations").value),
  };
  document.getElementById("solve").disabled = true;
  try {
    const view = await postJson("/api/spot/solve", body);
    source = { solved: view.solved };
    previousLockNode = null;  // another spot: no hands picked yet
    render(view);
  } catch (e) { showError(e.message); }
  document.getElementById("solve").disabled = false;
}

// --- Locks: the lock text of `pokerlab spot solve --lock`, checked by the server. ---

function lockNode(text) { return text.split(/[@:]/)[0]; }
// What a lock binds: its node and hands (`x-b100@QQ+`), the text before the last ':'.
function lockHead(text) { return text.slice(0, text.lastIndexOf(":")); }
function lockHands() { return document.getElementById("lock-hands").value.replace(/\s+/g, ""); }

function showLockHands() {
  const hands = lockHands();
  document.getElementById("lock-what").textContent = hands ? `the hands ${hands}` : "its whole range";
}

// A click on a hand class of the grid adds it to the hands locked, or takes it out.
function toggleLockHand(label) {
  const box = document.getElementById("lock-box");
  if (box.hidden) return;
  const field = document.getElementById("lock-hands");
  const hands = lockHands().split(",").filter((x) => x);
  const at = hands.indexOf(label);
  if (at >= 0) hands.splice(at, 1); else hands.push(label);
  field.value = hands.join(",");
  showLockHands();
}

async function resolveWith(locks) {
  showError("");
  for (const id of ["lock-solve", "unlock"]) document.getElementById(id).disabled = true;
  try {
    const from = source.file !== undefined ? { file: source.file } : { solved: source.solved };
    const view = await postJson("/api/spot/lock", { ...from, locks, node: node.key });
    source = { solved: view.solved };
    render(view);
  } catch (e) { showError(e.message); }
  for (const id of ["lock-solve", "unlock"]) document.getElementById(id).disabled = false;
}

function lockThisNode() {
  const parts = [...document.querySelectorAll("#lock-inputs input")].map(
    (input) => `${input.dataset.action}=${input.value.trim() || "0"}%`);
  // The whole range's lock replaces every lock of this node; a lock of some hands replaces
  // only one of the same hands (a later lock wins for the hands it names, on the server).
  const hands = lockHands();
  const head = hands ? `${node.key}@${hands}` : node.key;
  const kept = node.spot_locks.filter((text) =>
    hands ? lockHead(text) !== head : lockNode(text) !== node.key);
  resolveWith([...kept, `${head}:${parts.join(",")}`]);
}

function drawLockBox(view) {
  const box = document.getElementById("lock-box");
  box.hidden = !(view.lockable && view.kind === "decision");  // a spot small enough to solve here
  document.getElementById("lock-who").textContent = view.acting >= 0 ? ["OOP", "IP"][view.acting] : "";
  if (previousLockNode !== view.key) document.getElementById("lock-hands").value = "";
  previousLockNode = view.key;
  showLockHands();
  const inputs = clear(document.getElementById("lock-inputs"));
  // Today's frequencies in percent, to one decimal; the last one makes them add up to 100.
  const shown = view.actions.map((a) => (a.frequency === null ? null : Math.round(1000 * a.frequency) / 10));
  if (shown.length && shown.every((x) => x !== null)) {
    const rest = shown.slice(0, -1).reduce((t, x) => t + x, 0);
    shown[shown.length - 1] = Math.round(10 * (100 - rest)) / 10;
  }
  view.actions.forEach((a, k) => {
    inputs.append(el("label", {}, `${a.name} `, el("input", { type: "text", "data-action": a.name,
      value: shown[k] === null ? "" : String(shown[k]), inputmode: "decimal" })));
  });
  document.getElementById("locks").textContent = view.spot_locks.length ? view.spot_locks.join("; ") : "none";
  document.getElementById("unlock").hidden = !view.spot_locks.length;
  document.getElementById("save-box").hidden = !(source && source.solved !== undefined);
}

async function save() {
  const note = document.getElementById("save-note");
  note.textContent = "";
  showError("");
  try {
    const answer = await postJson("/api/spot/save", {
      solved: source.solved, name: document.getElementById("save-name").value,
      overwrite: document.getElementById("save-overwrite").checked,
    });
    await loadFiles(answer.file);
    note.textContent = `saved as ${answer.file}; open it from the list above`;
  } catch (e) { showError(e.message); }
}

function render(view) {
  node = view;
  document.getElementById("result").hidden = false;
  document.getElementById("title").textContent = view.spot;
  const who = view.acting >= 0 ? `${["OOP", "IP"][view.acting]} to act` : view.kind;
  document.getElementById("summary").textContent =
    `node "${view.key || "(root)"}": ${who}, board ${view.board}, pot ${fmt(view.pot, 1)}; hands of ${["OOP", "IP"][view.player]}. ` +
    `Exploitability ${fmt(view.percent_of_pot, 3)}% of the pot after ${view.iterations} iterations; ` +
    `EV (share of the pot of ${view.start_pot}): OOP ${fmt(view.spot_ev[0], 2)} chips (${fmt(view.spot_ev_percent_of_pot[0], 1)}%), ` +
    `IP ${fmt(view.spot_ev[1], 2)} chips (${fmt(view.spot_ev_percent_of_pot[1], 1)}%).`;
  const path = clear(document.getElementById("path"));
  path.append(el("button", { onclick: () => openNode(""), text: "root" }));
  const children = clear(document.getElementById("children"));
  view.children.forEach((child, a) => {
    const name = view.actions[a] ? view.actions[a].name : child;
    children.append(el("button", { class: "child", "data-key": child, onclick: () => openNode(child), text: `→ ${name}` }));
  });
  drawGrid();
  drawHands();
  drawLockBox(view);
  const locked = view.locks.length ? ` Locked here: ${view.locks.join("; ")}.` : "";
  const elsewhere = view.spot_locks.length - view.locks.length;
  document.getElementById("summary").textContent += locked +
    (elsewhere > 0 ? ` ${elsewhere} lock(s) elsewhere in the spot.` : "");
  document.body.dataset.node = view.key || "root";
  document.body.dataset.solved = source.solved || "";
}

function heat(value, low, high) {
  const t = Math.max(0, Math.min(1, (value - low) / (high - low || 1)));
  return `hsl(${Math.round(120 * t)}, 70%, 60%)`;
}

function drawGrid() {
  const mode = document.getElementById("mode").value;
  const table = clear(document.getElementById("grid"));
  const legendBox = clear(document.getElementById("grid-legend"));
  const withStrategy = node.actions.length && node.actions[0].grid !== null;
  if (mode === "strategy" && withStrategy) {
    // One colour per action and bet size, from the server (the PNG of `spot show --png` uses the same).
    legendBox.append(el("div", { class: "legend" }, ...node.actions.map((a) =>
      el("span", { "data-action": a.name }, el("span", { class: "swatch", style: `background:${a.colour}` }),
        `${a.name} ${fmt(100 * a.frequency, 1)}%`))));
  } else if (mode === "strategy") {
    legendBox.append(el("div", { class: "muted", text: "no action of this player here: cells show the range weight" }));
  } else {
    const what = mode === "ev" ? `EV in chips (share of the pot of ${fmt(node.pot, 0)} at this node)` : mode;
    legendBox.append(el("div", { class: "muted", text: `${what}: red low, green high` }));
  }
  const numbers = mode === "ev" ? node.ev : mode === "equity" ? node.equity : node.weight;
  const finite = numbers.flat().filter((x) => x !== null);
  const low = mode === "equity" ? 0 : Math.min(...finite), high = mode === "equity" ? 1 : Math.max(...finite);
  node.labels.forEach((labels, r) => {
    const tr = el("tr", {});
    labels.forEach((label, c) => {
      const weight = node.weight[r][c];
      const td = el("td", { "data-hand": label, text: label });
      if (!(weight > 0)) { td.className = "empty"; tr.append(td); return; }
      td.addEventListener("click", () => toggleLockHand(label));
      const info = [`weight ${fmt(weight, 2)}`, `EV ${fmt(node.ev[r][c], 2)}`, `equity ${fmt(node.equity[r][c], 3)}`];
      if (mode === "strategy" && withStrategy) {
        let at = 0;
        const stops = node.actions.map((a) => {
          const p = a.grid[r][c] || 0;
          info.push(`${a.name} ${fmt(p, 3)}`);
          const part = `${a.colour} ${at * 100}% ${(at + p) * 100}%`;
          at += p;
          return part;
        });
        td.style.background = `linear-gradient(to right, ${stops.join(", ")})`;
      } else {
        const v = numbers[r][c];
        td.style.background = v === null ? "#eee" : heat(v, low, high);
      }
      td.title = `${label}: ${info.join(", ")}`;
      tr.append(td);
    });
    table.append(tr);
  });
}

function drawHands() {
  const table = clear(document.getElementById("hands"));
  const names = node.actions.map((a) => a.name);
  table.append(el("tr", {}, el("th", { class: "key", text: "hand" }), el("th", { text: "class" }),
    el("th", { text: "weight" }), el("th", { text: "EV (chips)" }), el("th", { text: "equity" }),
    ...names.map((n) => el("th", { text: n }))));
  // The server lists the hands with weight at the node, sorted by class (AA, AKs, AKo, ...).
  for (const h of node.hands.slice(0, 300)) {
    table.append(el("tr", {}, el("td", { class: "key", text: h.hand }), el("td", { text: h.class }),
      el("td", { text: fmt(h.weight, 3) }),
      el("td", { text: fmt(h.ev, 2) }), el("td", { text: fmt(h.equity, 3) }),
      ...names.map((_, a) => el("td", { text: h.strategy.length ? fmt(h.strategy[a], 3) : "" }))));
  }
}

document.getElementById("open").addEventListener("click", () => {
  source = { file: document.getElementById("file").value };
  previousLockNode = null;  // another spot: no hands picked yet
  openNode("");
});
document.getElementById("solve").addEventListener("click", solve);
document.getElementById("lock-solve").addEventListener("click", lockThisNode);
document.getElementById("lock-hands").addEventListener("input", showLockHands);
document.getElementById("unlock").addEventListener("click", () => resolveWith([]));
document.getElementById("save").addEventListener("click", save);
for (const who of ["oop", "ip"]) {
  document.getElementById(who).addEventListener("input", () => textChanged(who));
  editQueue = editQueue.then(() => syncGrid(who));
}
document.getElementById("mode").addEventListener("change", () => node && drawGrid());
document.getElementById("player").addEventListener("change", () => node && openNode(node.key));
loadFiles();
