// The graphalloc explorer: two configurations side by side, each run by
// the server (/api/run, server-sent events) on the engine of graphalloc run.
"use strict";

// The query keys the page may set, and the fields of the process
// parameters: both from the server (/api/params, made from the parameter
// table of package alloc), so that the page keeps no list of its own.
let KEYS = [];
let FIELDS = [];        // the parameter fields, with the processes that read each
let GRAPH_USERS = [];   // the processes that run on a graph
let PROCESSES = [];     // every process, from /api/processes
let QUEUE_KEYS = [];    // the query keys of /api/queue (graphalloc queue's flags)
const QUEUE_DEFAULTS = { process: "graph", choices: "2", graph: "regular:degree=3", sample: "edge", bins: "4096", lambda: "0.8", time: "200", seed: "1", trials: "2" };
const DEFAULTS = {
  a: { process: "graph", graph: "cycle", bins: "1024", balls: "16n", seed: "1", trials: "10" },
  b: { process: "graph", graph: "regular:degree=4", bins: "1024", balls: "16n", seed: "1", trials: "10" },
};
const PAGE = Math.random().toString(36).slice(2);
const panels = {};

function query(slot) {
  const p = new URLSearchParams();
  const f = panels[slot].form;
  for (const k of KEYS) {
    if (!f.elements[k]) continue; // a key the form has no field for (engine)
    if (f.elements[k].closest("label").hidden) continue; // a field the process does not read
    const v = f.elements[k].value.trim();
    if (v !== "") p.set(k, v);
  }
  return p;
}

function permalink() {
  const p = new URLSearchParams();
  for (const slot of ["a", "b"]) {
    if (!panels[slot]) continue;
    for (const [k, v] of query(slot)) p.set(slot + "." + k, v);
  }
  return location.pathname + "?" + p.toString();
}

function updateLinks(slot) {
  const q = query(slot).toString();
  const el = panels[slot].el;
  for (const f of ["json", "csv", "png"]) {
    const a = el.querySelector(".dl-" + f);
    a.href = "api/download?format=" + f + "&" + q;
    a.download = "graphalloc-" + slot + "." + f;
  }
  document.getElementById("permalink").href = permalink();
}

function setup(slot, values) {
  const el = document.getElementById("panel-template").content.firstElementChild.cloneNode(true);
  el.id = "panel-" + slot;
  el.querySelector(".title").textContent = slot === "a" ? "Configuration A" : "Configuration B";
  const form = el.querySelector("form");
  for (const k of KEYS) if (form.elements[k]) form.elements[k].value = values[k] ?? "";
  const P = { el, form, source: null, graph: null, layout: null };
  panels[slot] = P;
  // Stable ids for the tests and for the eye.
  el.querySelector(".error").id = slot + "-error";
  el.querySelector(".status").id = slot + "-status";
  el.querySelector("table.trials").id = slot + "-trials";
  el.querySelector(".command").id = slot + "-command";
  form.addEventListener("submit", (e) => { e.preventDefault(); run(slot); });
  form.addEventListener("input", () => { showFields(slot); updateLinks(slot); });
  showFields(slot);
  document.getElementById("panels").appendChild(el);
  updateLinks(slot);
}

// showFields shows the fields the panel's process reads (all of them
// while its name is not a process's, so that a typo hides nothing).
function showFields(slot) {
  const f = panels[slot].form, p = f.elements.process.value.trim();
  const known = PROCESSES.includes(p);
  for (const fd of FIELDS) {
    const el = f.elements[fd.name];
    if (el) el.closest("label").hidden = known && !!fd.processes && !fd.processes.includes(p);
  }
  f.querySelector(".graph-field").hidden = known && !GRAPH_USERS.includes(p);
}

function run(slot) {
  const P = panels[slot];
  if (P.source) P.source.close(); // one simulation per panel: the server cancels the old one too
  history.replaceState(null, "", permalink());
  updateLinks(slot);
  const err = P.el.querySelector(".error");
  err.hidden = true; err.textContent = "";
  P.el.querySelector(".status").textContent = "starting…";
  P.el.querySelector(".status").dataset.state = "running";
  P.el.querySelector("tbody").innerHTML = "";
  P.el.querySelector(".dynamic").innerHTML = "";
  const src = new EventSource("api/run?page=" + PAGE + "&slot=" + slot + "&" + query(slot).toString());
  P.source = src;
  src.addEventListener("config", (e) => {
    const c = JSON.parse(e.data);
    P.config = c.config;
    P.graph = c.graph; P.layout = null;
    P.el.querySelector(".command").textContent = c.command;
    if (c.notes) { err.hidden = false; err.textContent = c.notes; }
  });
  P.frames = []; P.last = null; P.results = []; P.loads = null;
  if (P.timer) { clearInterval(P.timer); P.timer = null; }
  src.addEventListener("frame", (e) => {
    // Trial 0 after k·m/20 balls: shown one every 80 ms, then the last snapshot.
    P.frames.push(JSON.parse(e.data));
    if (P.timer) return;
    P.timer = setInterval(() => {
      const f = P.frames.shift();
      if (f) { drawGraph(P, { loads: f.loads, trial: 0, balls: f.balls }); return; }
      clearInterval(P.timer); P.timer = null;
      if (P.last) drawGraph(P, P.last);
    }, 80);
  });
  src.addEventListener("snapshot", (e) => show(slot, JSON.parse(e.data)));
  src.addEventListener("dynamic", (e) => { src.close(); showDynamic(slot, JSON.parse(e.data)); });
  src.addEventListener("done", (e) => { src.close(); show(slot, JSON.parse(e.data)); });
  src.addEventListener("fail", (e) => {
    src.close();
    err.hidden = false;
    err.textContent = JSON.parse(e.data).error;
    const st = P.el.querySelector(".status");
    st.textContent = "failed"; st.dataset.state = "failed";
  });
  src.onerror = () => { if (src.readyState === EventSource.CLOSED) return; src.close(); };
}

// A snapshot brings only what is new: the rows of the trials finished
// since the last one (of the first s.shown trials), and the loads of the
// picture when they changed.
function show(slot, s) {
  const P = panels[slot];
  const st = P.el.querySelector(".status");
  const sum = s.summary;
  st.textContent = (s.final ? "done" : "running") + ": " + s.done + "/" + s.trials + (s.trials === 1 ? " trial" : " trials") + "; max load mean " +
    fmt(sum.max_load.mean) + ", gap mean " + fmt(sum.gap.mean) +
    (s.trials > s.shown ? "; the table lists trials 0–" + (s.shown - 1) : "");
  st.dataset.state = s.final ? "done" : "running";
  P.results = P.results.concat(s.results).sort((a, b) => a.trial - b.trial);
  if (s.loads) P.loads = { loads: s.loads, trial: s.trial };
  const tb = P.el.querySelector("tbody");
  tb.innerHTML = "";
  for (const r of P.results) {
    const tr = document.createElement("tr");
    for (const v of [r.trial, r.max_load, (r.load_counts || []).join(" ")]) {
      const td = document.createElement("td"); td.textContent = String(v); tr.appendChild(td);
    }
    tb.appendChild(tr);
  }
  drawDist(P, s);
  drawSeries(P, s);
  P.last = P.loads || {};
  if (!P.timer) drawGraph(P, P.last);
}

function fmt(x) { return Number.isInteger(x) ? String(x) : x.toFixed(3); }

function axes(ctx, w, h) {
  ctx.clearRect(0, 0, w, h);
  ctx.strokeStyle = "#999"; ctx.beginPath();
  ctx.moveTo(40, 10); ctx.lineTo(40, h - 25); ctx.lineTo(w - 10, h - 25); ctx.stroke();
  ctx.fillStyle = "#333"; ctx.font = "11px sans-serif";
}

// The fraction of bins with load ≥ i, mean over the trials (the
// server's s.tails), against the fluid limit's tails s_i, on a log scale
// that reaches a decade below the least measured fraction: the level of
// the max load, 1/(n·trials) at the least, always shows.
function drawDist(P, s) {
  const cv = P.el.querySelector("canvas.dist"), ctx = cv.getContext("2d"), w = cv.width, h = cv.height;
  axes(ctx, w, h);
  const tails = s.tails || [];
  const fluid = (s.summary.fluid && s.summary.fluid.tails) || [];
  const top = Math.max(tails.length, Math.min(fluid.length, tails.length + 3), 1);
  // From just below the loads every bin reaches (fraction 1) to the top.
  let first = 0;
  while (first + 1 < tails.length && tails[first + 1] >= 0.9999 && (fluid[first + 1] === undefined || fluid[first + 1] >= 0.9999)) first++;
  const L = top - first;
  let least = 1e-6;
  for (const v of tails) if (v > 0) least = Math.min(least, v);
  const decades = Math.ceil(-Math.log10(least)) + 1, lo = Math.pow(10, -decades);
  const y = (v) => 10 + (h - 35) * (Math.log10(Math.max(v, lo)) / -decades);
  const bw = (w - 60) / L;
  const ystep = Math.max(1, Math.ceil(decades / 4));
  for (let e = 0; e >= -decades; e -= ystep) { ctx.fillText(e ? "1e" + e : "1", 4, y(Math.pow(10, e)) + 4); }
  // One label every step loads, the step (1, 2, 5, 10, 20, …) wide enough
  // for the widest label.
  const lw = ctx.measureText(String(top - 1)).width + 6;
  const step = [1, 2, 5, 10, 20, 50, 100, 200, 500].find((st) => st * bw >= lw) || 1000;
  for (let k = 0; k < L; k++) {
    const i = first + k, x = 45 + k * bw;
    if (tails[i] > 0) { ctx.fillStyle = "#4a78b0"; ctx.fillRect(x, y(tails[i]), bw * 0.8, h - 25 - y(tails[i])); }
    if (fluid[i] >= lo) { ctx.fillStyle = "#d0452a"; ctx.beginPath(); ctx.arc(x + bw * 0.4, y(fluid[i]), 3.5, 0, 7); ctx.fill(); }
    ctx.fillStyle = "#333";
    if (i % step === 0) { const t = String(i); ctx.fillText(t, x + bw * 0.4 - ctx.measureText(t).width / 2, h - 12); }
  }
  // The limit of the process as it ran (its sampler and graph), or why
  // there is none (the server's summary.no_fluid), under the chart.
  const f = s.summary.fluid;
  const note = P.el.querySelector(".dist-note");
  note.textContent = fluid.length ? "dots: the fluid limit (n → ∞) of " + f.limit + "; below 1e-" + decades + " not drawn" : "no fluid limit: " + (s.summary.no_fluid || "");
  cv.title = note.textContent;
}

// The gap and max − min against m/n, from the summary's series.
function drawSeries(P, s) {
  const cv = P.el.querySelector("canvas.series"), ctx = cv.getContext("2d"), w = cv.width, h = cv.height;
  axes(ctx, w, h);
  const ser = s.summary.series || [];
  if (!ser.length) return;
  const xmax = ser[ser.length - 1].load || 1;
  const ymax = Math.max(1, ...ser.map((p) => Math.max(p.spread, p.gap))) * 1.1;
  const X = (v) => 40 + (w - 50) * v / xmax, Y = (v) => h - 25 - (h - 35) * v / ymax;
  for (const [key, col] of [["gap", "#4a78b0"], ["spread", "#d0452a"]]) {
    ctx.strokeStyle = col; ctx.beginPath();
    ser.forEach((p, i) => { i ? ctx.lineTo(X(p.load), Y(p[key])) : ctx.moveTo(X(p.load), Y(p[key])); });
    ctx.stroke();
  }
  ctx.fillStyle = "#4a78b0"; ctx.fillText("gap", 50, 20);
  ctx.fillStyle = "#d0452a"; ctx.fillText("max − min", 80, 20);
  ctx.fillStyle = "#333";
  ctx.fillText(fmt(ymax), 4, 16); ctx.fillText("0", 28, h - 25);
  ctx.fillText("m/n = " + fmt(xmax), w - 80, h - 8);
}

function colour(t) { // t in [0, 1]: blue, white, red
  t = Math.max(0, Math.min(1, t));
  const a = t < 0.5 ? [49, 104, 172] : [250, 250, 250], b = t < 0.5 ? [250, 250, 250] : [196, 40, 30];
  const u = t < 0.5 ? t * 2 : t * 2 - 1;
  return "rgb(" + a.map((v, i) => Math.round(v + (b[i] - v) * u)).join(",") + ")";
}

// A layout computed once: a spectral layout (two smooth vectors of the
// random walk, by power iteration), which keeps neighbours close.
function layout(g) {
  const n = g.n, adj = Array.from({ length: n }, () => []);
  for (const [u, v] of g.edges || []) { adj[u].push(v); adj[v].push(u); }
  let seed = 12345;
  const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 - 0.5; };
  const vecs = [];
  for (let k = 0; k < 2; k++) {
    let x = Float64Array.from({ length: n }, rnd);
    for (let it = 0; it < 120; it++) {
      const y = new Float64Array(n);
      for (let v = 0; v < n; v++) {
        let sum = 0; for (const w of adj[v]) sum += x[w];
        y[v] = 0.5 * x[v] + 0.5 * (adj[v].length ? sum / adj[v].length : x[v]);
      }
      let mean = 0; for (const v of y) mean += v; mean /= n;
      for (let v = 0; v < n; v++) y[v] -= mean;
      for (const o of vecs) { let d = 0; for (let v = 0; v < n; v++) d += y[v] * o[v]; for (let v = 0; v < n; v++) y[v] -= d * o[v]; }
      let norm = 0; for (const v of y) norm += v * v; norm = Math.sqrt(norm) || 1;
      for (let v = 0; v < n; v++) y[v] /= norm;
      x = y;
    }
    vecs.push(x);
  }
  // Spread the points: rank-normalise each coordinate.
  return vecs.map((x) => {
    const idx = Array.from({ length: n }, (_, i) => i).sort((a, b) => x[a] - x[b]);
    const r = new Float64Array(n); idx.forEach((v, i) => { r[v] = (i + 0.5) / n; }); return r;
  });
}

function drawGraph(P, s) {
  const cv = P.el.querySelector("canvas.graph"), ctx = cv.getContext("2d"), w = cv.width, h = cv.height;
  ctx.clearRect(0, 0, w, h);
  const g = P.graph, loads = s.loads;
  const cap = P.el.querySelector(".graph-caption");
  if (!g || !loads || !loads.length) { ctx.fillStyle = "#555"; ctx.fillText("n > 16384: no picture of the graph", 20, 30); return; }
  const mean = (s.balls ?? P.config.m) / P.config.n;
  let mx = 0; for (const v of loads) mx = Math.max(mx, Math.abs(v - mean));
  const c = (v) => colour(0.5 + 0.5 * (v - mean) / (mx || 1));
  const when = s.balls !== undefined && s.balls < P.config.m ? " after " + s.balls + " balls" : "";
  cap.textContent = (P.config.graph || g.kind) + " coloured by load (trial " + s.trial + when + "; blue below m/n = " + fmt(mean) + ", red above, ±" + fmt(mx) + ")";
  const n = g.n;
  if (g.kind === "cycle") {
    // A ring of arcs, one a bin, vertex 0 at the top, clockwise.
    const R = w / 2 - 30;
    ctx.lineWidth = 36;
    for (let v = 0; v < n; v++) {
      const a = 2 * Math.PI * v / n - Math.PI / 2;
      ctx.strokeStyle = c(loads[v]); ctx.beginPath();
      ctx.arc(w / 2, h / 2, R, a, a + 2 * Math.PI / n + 0.002); ctx.stroke();
    }
    ctx.lineWidth = 1;
    return;
  }
  if (g.kind === "torus" || g.kind === "complete" || !g.edges) {
    const cols = g.kind === "torus" ? g.side : Math.ceil(Math.sqrt(n)), rows = Math.ceil(n / cols);
    const cw = w / cols, ch = h / rows;
    for (let v = 0; v < n; v++) { ctx.fillStyle = c(loads[v]); ctx.fillRect((v % cols) * cw, Math.floor(v / cols) * ch, Math.ceil(cw), Math.ceil(ch)); }
    return;
  }
  if (!P.layout) P.layout = layout(g);
  const [X, Y] = P.layout, px = (v) => 10 + (w - 20) * X[v], py = (v) => 10 + (h - 20) * Y[v];
  if (g.edges.length <= 20000) {
    ctx.strokeStyle = "rgba(0,0,0,0.08)"; ctx.beginPath();
    for (const [u, v] of g.edges) { ctx.moveTo(px(u), py(u)); ctx.lineTo(px(v), py(v)); }
    ctx.stroke();
  }
  const r = Math.max(1.2, Math.min(5, 200 / Math.sqrt(n)));
  for (let v = 0; v < n; v++) { ctx.fillStyle = c(loads[v]); ctx.beginPath(); ctx.arc(px(v), py(v), r, 0, 7); ctx.fill(); }
}

// paramFields adds a labelled input for each parameter field to the
// panel template, before the batch and every fields.
function paramFields(fields) {
  const box = document.getElementById("panel-template").content.querySelector(".params");
  for (const f of fields) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.name = f.name;
    input.size = f.kind === "text" ? 6 : 4;
    input.placeholder = f.placeholder;
    input.title = f.title;
    input.dataset.kind = f.kind;
    label.append(f.label + " ", input);
    box.append(label, " ");
  }
}

// showDynamic shows the file of a run with deletions (run --delete): the
// trials' max load, discrepancy and overload, their statistics and the
// bounds, each in its regime or with the reason it does not apply.
function showDynamic(slot, f) {
  const P = panels[slot];
  const st = P.el.querySelector(".status");
  st.textContent = "done: " + f.trials.length + (f.trials.length === 1 ? " trial" : " trials") + " with deletions " + f.config.delete + ", " + (f.config.steps || 0) + " steps";
  st.dataset.state = "done";
  const tb = P.el.querySelector("tbody");
  tb.innerHTML = "";
  for (const r of f.trials) {
    const tr = document.createElement("tr");
    for (const v of [r.trial, r.max_load, "discrepancy " + fmt(r.discrepancy) + ", overload " + fmt(r.overload) + ", max over the window " + r.window_max_load]) {
      const td = document.createElement("td"); td.textContent = String(v); tr.appendChild(td);
    }
    tb.appendChild(tr);
  }
  const box = P.el.querySelector(".dynamic");
  const ci = (v) => v.ci95 ? "[" + fmt(v.ci95[0]) + ", " + fmt(v.ci95[1]) + "] (" + v.interval_method + ")" : "—";
  const rows = Object.entries(f.summary.stats).map(([k, v]) => "<tr><td>" + k + "</td><td>" + fmt(v.mean) + "</td><td>" + ci(v) + "</td><td>" + fmt(v.std) + "</td><td>" + v.min + "</td><td>" + v.max + "</td></tr>").join("");
  box.innerHTML = "<table><thead><tr><th>quantity</th><th>mean</th><th>95% CI of the mean</th><th>sd</th><th>min</th><th>max</th></tr></thead><tbody>" + rows + "</tbody></table>";
  for (const b of f.summary.bounds || []) {
    const d = document.createElement("div"); d.className = "notes";
    d.textContent = b.applies ? b.name + ": " + b.formula + (b.value == null ? "" : " = " + fmt(b.value)) + " (" + b.kind + ", regime " + b.regime + "; " + b.reason + ")" : "not shown: " + b.name + ": " + b.reason;
    box.appendChild(d);
  }
}

// The supermarket model's panel: graphalloc queue's flags, sent to
// /api/queue; the measured tails s_i with their intervals beside each
// prediction the server says applies (its kind and source), the others
// listed with the reason.
function queueQuery() {
  const p = new URLSearchParams(), f = document.getElementById("queue-form");
  for (const k of QUEUE_KEYS) {
    if (!f.elements[k] || f.elements[k].closest("label").hidden) continue;
    const v = f.elements[k].value.trim();
    if (v !== "") p.set(k, v);
  }
  return p;
}

function queueFields() {
  const f = document.getElementById("queue-form");
  for (const el of f.querySelectorAll(".graph-field")) el.hidden = f.elements.process.value.trim() !== "graph" && PROCESSES.includes(f.elements.process.value.trim());
}

function runQueue() {
  const err = document.getElementById("q-error"), st = document.getElementById("q-status");
  err.hidden = true; err.textContent = "";
  st.textContent = "starting…"; st.dataset.state = "running";
  document.querySelector("#q-tails thead").innerHTML = ""; document.querySelector("#q-tails tbody").innerHTML = "";
  document.getElementById("q-notes").textContent = "";
  if (QUEUE_SOURCE) QUEUE_SOURCE.close();
  const src = new EventSource("api/queue?page=" + PAGE + "&slot=q&" + queueQuery().toString());
  QUEUE_SOURCE = src;
  src.addEventListener("config", (e) => {
    const c = JSON.parse(e.data);
    document.getElementById("q-command").textContent = c.command;
    if (c.notes) { err.hidden = false; err.textContent = c.notes; }
  });
  src.addEventListener("progress", (e) => { const p = JSON.parse(e.data); st.textContent = "running: " + p.done + "/" + p.trials + " trials"; });
  src.addEventListener("done", (e) => { src.close(); showQueue(JSON.parse(e.data)); });
  src.addEventListener("fail", (e) => {
    src.close(); err.hidden = false; err.textContent = JSON.parse(e.data).error;
    st.textContent = "failed"; st.dataset.state = "failed";
  });
  src.onerror = () => { if (src.readyState === EventSource.CLOSED) return; src.close(); };
}
let QUEUE_SOURCE = null;

function showQueue(f) {
  const s = f.summary, st = document.getElementById("q-status");
  const preds = (s.predictions || []).filter((p) => p.applies);
  st.textContent = "done: " + f.trials.length + (f.trials.length === 1 ? " trial" : " trials") + "; warm-up " + s.warmup.join(", ") + " (" + s.warmup_rule + "); " + s.interval;
  st.dataset.state = "done";
  const head = ["quantity", "measured", "95% CI"].concat(preds.map((p) => p.name + " [" + p.kind + "]"));
  document.querySelector("#q-tails thead").innerHTML = "<tr>" + head.map((h) => "<th>" + h + "</th>").join("") + "</tr>";
  const g = (x) => Number(x.toPrecision(5)).toString();
  const rows = [["mean queue", s.mean_queue, (p) => p.mean_queue], ["mean sojourn (Little)", s.mean_sojourn, (p) => p.mean_sojourn]];
  s.tails.forEach((t, i) => rows.push(["s_" + (i + 1), t, (p) => (p.tails || [])[i + 1]]));
  const tb = document.querySelector("#q-tails tbody");
  for (const [name, e, pred] of rows) {
    const tr = document.createElement("tr");
    for (const v of [name, g(e.mean), "[" + g(e.ci95[0]) + ", " + g(e.ci95[1]) + "]"].concat(preds.map((p) => pred(p) === undefined ? "" : g(pred(p))))) {
      const td = document.createElement("td"); td.textContent = v; tr.appendChild(td);
    }
    tb.appendChild(tr);
  }
  document.getElementById("q-notes").textContent = "longest queue over a trial's window: min " + s.max_queue[0] + ", mean " + fmt(s.max_queue[1]) + ", max " + s.max_queue[2] + "\n" +
    (s.predictions || []).map((p) => p.applies ? p.name + " (" + p.kind + ", " + p.source + "): " + p.regime : "not shown: " + p.name + " [" + p.source + "]: " + p.reason).join("\n");
}

async function main() {
  // The queue form's own submit, before anything loads: never the
  // browser's.
  document.getElementById("queue-form").addEventListener("submit", (e) => { e.preventDefault(); runQueue(); });
  const spec = await (await fetch("api/params")).json();
  KEYS = spec.keys; FIELDS = spec.fields; GRAPH_USERS = spec.graph_processes || []; QUEUE_KEYS = spec.queue_keys || [];
  paramFields(spec.fields);
  PROCESSES = await (await fetch("api/processes")).json().catch(() => []);
  const url = new URLSearchParams(location.search);
  for (const slot of ["a", "b"]) {
    const v = {};
    let any = false;
    for (const k of KEYS) if (url.has(slot + "." + k)) { v[k] = url.get(slot + "." + k); any = true; }
    setup(slot, any ? v : DEFAULTS[slot]);
  }
  const dl = document.getElementById("processes");
  for (const p of PROCESSES) { const o = document.createElement("option"); o.value = p; dl.appendChild(o); }
  document.getElementById("run-both").addEventListener("click", () => { run("a"); run("b"); });
  const qf = document.getElementById("queue-form");
  for (const k of QUEUE_KEYS) if (qf.elements[k]) qf.elements[k].value = QUEUE_DEFAULTS[k] ?? "";
  qf.addEventListener("input", queueFields);
  queueFields();
  // The permalink's configurations, or the default ones, run at once.
  run("a"); run("b");
}
main();
