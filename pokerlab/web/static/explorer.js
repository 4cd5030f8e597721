// The strategy explorer page: open a file or solve with live progress, then lay out the view.
"use strict";

let currentView = null;
let currentJob = null;

async function loadFiles() {
  const select = document.getElementById("file");
  try {
    const data = await getJson("/api/explorer/files");
    clear(select);
    for (const f of data.files) select.append(el("option", { value: f.file, text: f.file }));
    document.getElementById("files-note").textContent =
      data.files.length ? "" : "no strategy file in the folder";
  } catch (e) {
    document.getElementById("files-note").textContent = e.message;
  }
  document.body.dataset.filesLoaded = "yes";
}

async function openFile() {
  showError("");
  const file = document.getElementById("file").value;
  try {
    const view = await getJson(`/api/explorer/strategy?file=${encodeURIComponent(file)}`);
    render(view, `File ${file}`);
  } catch (e) { showError(e.message); }
}

async function solve() {
  showError("");
  const body = {
    game: document.getElementById("game").value,
    algorithm: document.getElementById("algorithm").value,
    iterations: Number(document.getElementById("iterations").value),
  };
  let job;
  try {
    job = await getJson("/api/explorer/solve", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
  } catch (e) { showError(e.message); return; }
  currentJob = job.job;
  document.getElementById("stop").disabled = false;
  const xs = [], ys = [];
  const bar = document.getElementById("progress");
  const text = document.getElementById("progress-text");
  bar.max = job.iterations; bar.value = 0;
  const source = new EventSource(`/api/explorer/jobs/${job.job}/events`);
  source.addEventListener("progress", (event) => {
    const p = JSON.parse(event.data);
    xs.push(p.iteration); ys.push(p.exploitability);
    bar.value = p.iteration;
    text.textContent = `iteration ${p.iteration} of ${job.iterations}, exploitability ${fmt(p.exploitability, 6)}`;
    lineChart(document.getElementById("chart"), xs, [{ name: "exploitability", ys }], { log: true, xLabel: "iteration" });
  });
  source.addEventListener("done", (event) => {
    source.close();
    document.getElementById("stop").disabled = true;
    render(JSON.parse(event.data), `Solved ${job.game} by ${job.algorithm}`);
  });
  source.addEventListener("failed", (event) => {
    source.close();
    document.getElementById("stop").disabled = true;
    showError(JSON.parse(event.data).error);
  });
}

async function stop() {
  if (!currentJob) return;
  try { await getJson(`/api/explorer/jobs/${currentJob}`, { method: "DELETE" }); }
  catch (e) { showError(e.message); }
}

function render(view, title) {
  currentView = view;
  document.getElementById("result").hidden = false;
  document.getElementById("title").textContent = `${title}: ${view.game}, ${view.infosets} infosets`;
  document.getElementById("exploitability").textContent = fmt(view.exploitability, 6);
  document.getElementById("values").textContent =
    view.values.map((v, i) => `P${i + 1} ${fmt(v, 5)}`).join(", ");
  const meta = Object.entries(view.metadata).map(([k, v]) => `${k}: ${v}`).join(", ");
  document.getElementById("meta").textContent = (meta ? meta : "") +
    (view.truncated ? " (the first infosets only: narrow with the prefix)" : "");
  const special = clear(document.getElementById("special"));
  if (view.kuhn_table) special.append(kuhnTable(view.kuhn_table));
  if (view.leduc_grid) special.append(leducGrid(view.leduc_grid));
  renderTree(view.tree, view.rows);
  renderTable();
  document.body.dataset.rendered = view.game;
}

function kuhnTable(table) {
  const head = el("tr", {}, el("th", { class: "key", text: "situation" }), el("th", { text: "action" }),
    ...table.cards.map((c) => el("th", { text: c })));
  const lines = table.lines.map((line) => el("tr", {},
    el("td", { class: "key", text: line.situation }), el("td", { text: line.action }),
    ...table.cards.map((c) => el("td", { text: fmt(line.cells[c], 3) }))));
  return el("div", {}, el("h2", { text: "The tutorial's table" }),
    el("div", { class: "muted", text: "Probability of putting a chip in (bet, or call facing a bet), by card." }),
    el("div", { class: "scroll" }, el("table", { id: "kuhn-table" }, head, ...lines)));
}

function leducGrid(grid) {
  const box = el("div", { id: "leduc-grid" }, el("h2", { text: "Card by betting" }));
  for (const round of grid.rounds) {
    const head = el("tr", {}, el("th", { class: "key", text: round.round === 1 ? "card" : "card on board" }),
      ...round.columns.map((c) => el("th", { class: "key", text: c || "(first)" })));
    const rows = round.rows.map((label) => el("tr", {}, el("td", { class: "key", text: label }),
      ...round.columns.map((c) => {
        const cell = round.cells[`${label}#${c}`];
        return el("td", {}, cell ? actionBar(cell.actions) : "");
      })));
    box.append(el("div", { class: "muted", text: `Round ${round.round}` }),
      el("div", { class: "scroll" }, el("table", {}, head, ...rows)));
  }
  const names = new Set();
  for (const round of grid.rounds) for (const cell of Object.values(round.cells)) for (const [n] of cell.actions) names.add(n);
  box.append(el("div", { class: "legend" }, ...[...names].map((n, i) =>
    el("span", {}, el("span", { class: "swatch", style: `background:${colourOf(n, i)}` }), n))));
  return box;
}

function renderTree(nodes, rows) {
  const byKey = new Map(rows.map((r) => [r.key, r]));
  const children = new Map();
  const roots = [];
  for (const node of nodes) {
    if (node.parent !== null && byKey.has(node.parent)) {
      if (!children.has(node.parent)) children.set(node.parent, []);
      children.get(node.parent).push(node);
    } else roots.push(node);
  }
  const build = (node) => {
    const row = byKey.get(node.key);
    const label = `${node.via ? node.via + " → " : ""}${node.key} (P${node.player}): ` +
      row.actions.map(([n, p]) => `${n} ${fmt(p, 3)}`).join(", ");
    const kids = children.get(node.key) || [];
    if (!kids.length) return el("div", { class: "leaf key", "data-key": node.key, text: label });
    return el("details", { "data-key": node.key }, el("summary", { text: label }), ...kids.map(build));
  };
  const box = clear(document.getElementById("tree"));
  const players = [...new Set(roots.map((r) => r.player))].sort();
  for (const player of players) {
    box.append(el("div", { class: "tree-player", text: `P${player}'s first decisions` }),
      ...roots.filter((r) => r.player === player).slice(0, 2000).map(build));
  }
}

function renderTable() {
  const table = clear(document.getElementById("table"));
  if (!currentView) return;
  const prefix = document.getElementById("prefix").value;
  const names = [];
  for (const row of currentView.rows) for (const [n] of row.actions) if (!names.includes(n)) names.push(n);
  table.append(el("tr", {}, el("th", { class: "key", text: "infoset" }), el("th", { text: "player" }),
    ...names.map((n) => el("th", { text: n }))));
  for (const row of currentView.rows) {
    if (!row.key.startsWith(prefix)) continue;
    const probs = Object.fromEntries(row.actions);
    table.append(el("tr", {}, el("td", { class: "key", text: row.key }), el("td", { text: `P${row.player}` }),
      ...names.map((n) => el("td", { text: n in probs ? fmt(probs[n]) : "" }))));
  }
}

document.getElementById("open").addEventListener("click", openFile);
document.getElementById("solve").addEventListener("click", solve);
document.getElementById("stop").addEventListener("click", stop);
document.getElementById("prefix").addEventListener("input", renderTable);
loadFiles();
