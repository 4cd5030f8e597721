// The arena page: leaderboard with intervals, cumulative winnings per match, hand replay.
"use strict";

let replayData = null;
let replayStep = 0;
let chartData = null;

function runQuery() {
  const run = document.getElementById("run").value;
  return run ? `run=${encodeURIComponent(run)}` : "";
}

async function loadRuns() {
  showError("");
  try {
    const data = await getJson("/api/arena/runs");
    const select = clear(document.getElementById("run"));
    for (const r of data.runs) {
      select.append(el("option", { value: r.run, text: `run ${r.run}: ${r.game}, ${r.players} seats, ${r.hands} hands per seat${r.finished ? "" : " (running)"}` }));
    }
    if (data.runs.length) select.value = data.runs[data.runs.length - 1].run;
    else document.getElementById("run-note").textContent = "the database holds no run";
    await loadBoard();
  } catch (e) { showError(e.message); }
}

async function loadBoard() {
  showError("");
  let board;
  try { board = await getJson(`/api/arena/leaderboard?${runQuery()}`); }
  catch (e) { showError(e.message); return; }
  document.getElementById("board-note").textContent =
    `${board.game}, ${board.hands} hands stored, ${board.unit}, ${Math.round(board.confidence * 100)}% intervals` +
    (board.complete ? "" : " (run not complete)");
  const table = clear(document.getElementById("leaderboard"));
  table.append(el("tr", {}, ...["place", "agent", "mean", "interval", "± std error", "matches", "hands", "faults"]
    .map((h) => el("th", { text: h }))));
  for (const s of board.standings) {
    table.append(el("tr", { class: "standing" }, el("td", { text: s.place }), el("td", { class: "key", text: s.name }),
      el("td", { text: fmt(s.mean, 4) }), el("td", { text: `[${fmt(s.low, 4)}, ${fmt(s.high, 4)}]` }),
      el("td", { text: fmt(s.std_error, 4) }), el("td", { text: s.matches }), el("td", { text: s.hands }),
      el("td", { text: s.faults })));
  }
  const matches = clear(document.getElementById("matches"));
  matches.append(el("tr", {}, el("th", { text: "match" }), el("th", { class: "key", text: "agents" }),
    el("th", { text: "hands" }), el("th", { text: "" })));
  for (const m of board.matches) {
    matches.append(el("tr", {}, el("td", { text: m.match }), el("td", { class: "key", text: m.names.join(" vs ") }),
      el("td", { text: m.hands }),
      el("td", {}, el("button", { class: "chart-button", "data-match": m.match, onclick: () => loadMatch(m.match), text: "chart" }))));
  }
  if (board.matches.length) await loadMatch(board.matches[0].match);
  document.body.dataset.board = "yes";
}

async function loadMatch(index) {
  showError("");
  let data;
  try { data = await getJson(`/api/arena/match?${runQuery()}&match=${index}`); }
  catch (e) { showError(e.message); return; }
  document.getElementById("chart-title").textContent =
    `Cumulative winnings (chips), match ${data.match}: ${data.names.join(" vs ")}, ${data.hands_stored} hands`;
  chartData = data;
  lineChart(document.getElementById("chart"), data.hands,
    data.names.map((name, i) => ({ name, ys: data.cumulative[i] })), { xLabel: "hands" });
  clear(document.getElementById("chart-legend")).append(legend(data.names));
  document.getElementById("replay-match").value = data.match;
  document.body.dataset.chart = String(data.match);
}

async function loadHand() {
  showError("");
  const match = document.getElementById("replay-match").value;
  const hand = document.getElementById("replay-hand").value;
  try {
    replayData = await getJson(`/api/arena/hand?${runQuery()}&match=${encodeURIComponent(match)}&hand=${encodeURIComponent(hand)}`);
  } catch (e) { showError(e.message); return; }
  const steps = clear(document.getElementById("steps"));
  replayData.steps.forEach((s, i) => {
    steps.append(el("li", { "data-step": i }, `${s.actor}: ${s.move}`));
  });
  showStep(0);
}

function showStep(k) {
  if (!replayData) return;
  replayStep = Math.max(0, Math.min(k, replayData.steps.length - 1));
  const s = replayData.steps[replayStep];
  const last = replayStep === replayData.steps.length - 1;
  const box = clear(document.getElementById("replay-state"));
  const seats = replayData.seats.map((name, i) => el("tr", {},
    el("td", { class: "key", text: `seat ${i}: ${name}` }), el("td", { class: "key", text: s.cards[i] || "–" }),
    el("td", { text: fmt(s.put_in[i], 1) }), el("td", { text: last ? fmt(replayData.returns[i], 1) : "" })));
  box.append(
    el("div", { id: "step-move", text: `Step ${replayStep}: ${s.actor} – ${s.move}` }),
    el("div", { text: `Board: ${s.board || "–"}   Pot: ${fmt(s.pot, 1)}` }),
    el("table", {}, el("tr", {}, el("th", { class: "key", text: "seat" }), el("th", { class: "key", text: "cards" }),
      el("th", { text: "put in" }), el("th", { text: "won" })), ...seats));
  for (const li of document.querySelectorAll("#steps li")) {
    li.style.fontWeight = Number(li.dataset.step) === replayStep ? "bold" : "normal";
  }
  document.getElementById("prev").disabled = replayStep === 0;
  document.getElementById("next").disabled = last;
  document.getElementById("step-note").textContent =
    `match ${replayData.match}, hand ${replayData.hand}: step ${replayStep} of ${replayData.steps.length - 1}`;
  document.body.dataset.step = String(replayStep);
}

// A click on the chart replays the hand under the pointer (the chart's x axis is hands).
function replayFromChart(event) {
  if (!chartData || !chartData.hands.length) return;
  const canvas = event.currentTarget;
  const box = canvas.getBoundingClientRect();
  const x = (event.clientX - box.left) * (canvas.width / box.width);
  const first = chartData.hands[0], last = chartData.hands[chartData.hands.length - 1];
  const t = Math.max(0, Math.min(1, (x - CHART_LEFT) / (canvas.width - CHART_LEFT - CHART_RIGHT)));
  document.getElementById("replay-match").value = chartData.match;
  document.getElementById("replay-hand").value = Math.round(first + t * (last - first)) - 1;
  loadHand();
}

document.getElementById("chart").addEventListener("click", replayFromChart);
document.getElementById("run").addEventListener("change", loadBoard);
document.getElementById("load-hand").addEventListener("click", loadHand);
document.getElementById("prev").addEventListener("click", () => showStep(replayStep - 1));
document.getElementById("next").addEventListener("click", () => showStep(replayStep + 1));
loadRuns();
