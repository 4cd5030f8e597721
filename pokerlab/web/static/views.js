// Helpers shared by the explorer, arena and spot pages: elements, JSON calls, a line chart.
// The pages only lay out what the server computed; no poker rule or number is derived here.
"use strict";

const ACTION_COLOURS = {
  fold: "#5b8def", pass: "#5b8def", check: "#7fbf7f", call: "#7fbf7f", bet: "#e06666",
  raise: "#c0392b", "all-in": "#8e44ad",
};
const SERIES_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
  "#e377c2", "#17becf", "#7f7f7f"];

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (name === "text") node.textContent = value;
    else if (name === "style") node.style.cssText = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

function showError(message) {
  const box = document.getElementById("message");
  box.textContent = message || "";
}

async function getJson(url, options) {
  const answer = await fetch(url, options);
  let data = null;
  try { data = await answer.json(); } catch (e) { data = { error: `HTTP ${answer.status}` }; }
  if (!answer.ok) throw new Error((data && data.error) || `HTTP ${answer.status}`);
  return data;
}

function fmt(x, digits) {
  if (x === null || x === undefined) return "–";
  return Number(x).toFixed(digits === undefined ? 4 : digits);
}

function colourOf(name, index) {
  const word = String(name).split(" ")[0];
  return ACTION_COLOURS[word] || SERIES_COLOURS[index % SERIES_COLOURS.length];
}

// A stacked bar of action probabilities: [[name, p], ...].
function actionBar(actions) {
  const bar = el("div", { class: "bar", title: actions.map(([n, p]) => `${n} ${fmt(p, 3)}`).join(", ") });
  actions.forEach(([name, p], i) => {
    bar.append(el("span", { style: `width:${100 * p}%;background:${colourOf(name, i)}` }));
  });
  return bar;
}

const CHART_LEFT = 60, CHART_RIGHT = 10;

// A line chart on a canvas: xs, series [{name, ys}], optional log scale on y.
function lineChart(canvas, xs, series, options) {
  const opts = options || {};
  const ctx = canvas.getContext("2d");
  const w = canvas.width, h = canvas.height, left = CHART_LEFT, bottom = 30, top = 10, right = CHART_RIGHT;
  ctx.clearRect(0, 0, w, h);
  const tr = (y) => (opts.log ? Math.log10(Math.max(y, 1e-12)) : y);
  const values = series.flatMap((s) => s.ys.filter((y) => y !== null).map(tr));
  if (!xs.length || !values.length) return;
  let ymin = Math.min(...values), ymax = Math.max(...values);
  if (ymin === ymax) { ymin -= 1; ymax += 1; }
  const xmin = Math.min(...xs), xmax = Math.max(...xs) === xmin ? xmin + 1 : Math.max(...xs);
  const px = (x) => left + ((x - xmin) / (xmax - xmin)) * (w - left - right);
  const py = (y) => top + (1 - (tr(y) - ymin) / (ymax - ymin)) * (h - top - bottom);
  ctx.strokeStyle = "#999"; ctx.lineWidth = 1;
  ctx.beginPath(); ctx.moveTo(left, top); ctx.lineTo(left, h - bottom); ctx.lineTo(w - right, h - bottom); ctx.stroke();
  ctx.fillStyle = "#333"; ctx.font = "11px sans-serif";
  const label = (v) => (opts.log ? `1e${v.toFixed(1)}` : v.toFixed(2));
  ctx.fillText(label(ymax), 2, top + 10); ctx.fillText(label(ymin), 2, h - bottom);
  ctx.fillText(String(xmin), left, h - 10); ctx.fillText(String(xmax), w - right - 40, h - 10);
  if (opts.xLabel) ctx.fillText(opts.xLabel, (w - left) / 2, h - 10);
  if (!opts.log && ymin < 0 && ymax > 0) {
    ctx.strokeStyle = "#ddd"; ctx.beginPath();
    ctx.moveTo(left, py(0)); ctx.lineTo(w - right, py(0)); ctx.stroke();
  }
  series.forEach((s, i) => {
    ctx.strokeStyle = SERIES_COLOURS[i % SERIES_COLOURS.length]; ctx.lineWidth = 2; ctx.beginPath();
    let started = false;
    xs.forEach((x, k) => {
      const y = s.ys[k];
      if (y === null || y === undefined) return;
      if (!started) { ctx.moveTo(px(x), py(y)); started = true; } else ctx.lineTo(px(x), py(y));
    });
    ctx.stroke();
  });
}

function legend(names) {
  return el("div", { class: "legend" }, ...names.map((n, i) => el("span", {},
    el("span", { class: "swatch", style: `background:${SERIES_COLOURS[i % SERIES_COLOURS.length]}` }), n)));
}
