// The HTML report's page (docs/compare.md §10): reads the data libcompare/src/report/report_data.cc
// encodes (its layout is described in report_data_internal.h) and draws the verdict, the module tree,
// the chart and the table of one part (rank) at a time, and for several parts a rank x API heat map.
// Plain DOM; every chart is Apache ECharts (inlined before this script).
'use strict';

const DATA = JSON.parse(document.getElementById('report-data').textContent);
const VERDICTS = ['pass', 'warning', 'error'];
const ROW_HEIGHT = 22;
// Browsers cap an element's height (Chromium at about 33 million px, Firefox at about 18): a longer
// table scrolls through a spacer of at most this height, each pixel of it standing for several.
const MAX_SCROLL_PX = 15e6;
const CHILDREN_SHOWN = 500;   // a flat tree of 250,000 APIs is shown a window at a time
const HEATMAP_APIS = 400;     // the heat map's columns: the worst APIs, in execution order

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v; else if (k.startsWith('on')) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);   // text is added as text: names are never parsed as HTML
  return e;
}

function formatValue(v) {
  if (v === null || Number.isNaN(v)) return '';
  return String(v);
}

// A part's columns made ready for the page, built the first time the part is shown.
function preparePart(p) {
  if (p.ready) return p;
  // Names are joined when shown (the table draws only the rows in view), not a million at load.
  const whole = new Set(p.wholeNames);
  p.name = i => (whole.has(i) ? p.strings[p.tail[i]] : p.tree.names[p.api[i]] + p.strings[p.tail[i]]);
  p.lowerNames = null;  // made on the first name filter
  p.bench = new Map(p.benchRows.map((r, k) => [r, p.strings[p.benchNames[k]]]));
  for (const m of p.metrics) {
    m.numbers = numbers(m.values);
    m.text = new Map(m.textRows.map((r, k) => [r, p.strings[m.texts[k]]]));
  }
  p.main = numbers(p.main);
  prepareTree(p);
  p.ready = true;
  return p;
}

// A column of numbers, null (none) as NaN.
function numbers(values) {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = values[i] === null ? NaN : values[i];
  return out;
}

function benchName(p, i) { return p.bench.has(i) ? p.bench.get(i) : p.name(i); }
function metricText(p, m, i) {
  if (m.text.has(i)) return m.text.get(i);
  return formatValue(m.numbers[i]) + (m.percent ? '%' : '');
}

// The tree: children lists, each node's worst verdict below it, and each API's first row.
function prepareTree(p) {
  const t = p.tree, count = t.names.length;
  t.children = Array.from({length: count}, () => []);
  t.roots = [];
  for (let k = 0; k < count; k++) (t.parents[k] < 0 ? t.roots : t.children[t.parents[k]]).push(k);
  t.worst = new Int8Array(count).fill(-1);
  t.firstRow = new Int32Array(count).fill(-1);
  for (let i = 0; i < p.verdict.length; i++) {
    const a = p.api[i];
    if (t.firstRow[a] < 0) t.firstRow[a] = i;
    if (p.verdict[i] > t.worst[a]) t.worst[a] = p.verdict[i];
  }
  // An ancestor is never better than a node below it, so a walk up stops at the first that is as bad.
  for (let k = 0; k < count; k++) {
    for (let up = t.parents[k]; up >= 0 && t.worst[up] < t.worst[k]; up = t.parents[up]) t.worst[up] = t.worst[k];
  }
}

const state = {part: 0, selectedRow: -1, sortColumn: -1, sortDescending: false, order: null, view: null};
let chart = null;

function verdictClass(v) { return v < 0 ? 'v-none' : 'v-' + VERDICTS[v]; }

// ---- header: counts and the links to the rows that matter ----
function firstError() {
  for (let k = 0; k < DATA.parts.length; k++) {
    const row = DATA.parts[k].verdict.indexOf(2);
    if (row >= 0) return [k, row];
  }
  return null;
}

// `text`: what the link reads, the row's name unless given.
function rowLink(id, label, link, text) {
  if (!link) return el('div', {id}, label + ': none');
  const p = preparePart(DATA.parts[link[0]]);
  const where = p.label ? p.label + ' row ' + link[1] : 'row ' + link[1];
  return el('div', {id}, label + ': ',
            el('a', {onclick: () => selectRow(link[0], link[1]), title: 'show the row'}, text || p.name(link[1])),
            ' (' + where + ')');
}

// The rows the Results do not count (docs/compare.md §5.4): msprobe passes or drops them.
function notComparedCounts() {
  const labels = ['not compared: no golden counterpart', 'golden rows matched by no target row', 'unreadable tensors'];
  const ids = ['count-unmatched-target', 'count-unmatched-golden', 'count-unreadable'];
  const counts = DATA.notCompared || [0, 0, 0];
  return labels.map((label, i) => el('span', {id: ids[i], class: counts[i] ? 'v-warning' : ''}, counts[i] + ' ' + label));
}

// overflow_check's anomaly (docs/compare.md §11): in its rank's part, the first output row of its API
// (the output is what overflowed), else its first row.
function anomalyRow(rank, op) {
  const k = DATA.parts.length === 1 ? 0 : DATA.parts.findIndex(p => p.label === 'rank' + rank);
  if (k < 0) return null;
  const p = preparePart(DATA.parts[k]);
  for (const prefix of [op + '.output.', op + '.']) {
    for (let i = 0; i < p.verdict.length; i++) if (p.name(i).startsWith(prefix)) return [k, i];
  }
  return null;
}

function anomalyLinks() {
  if (!DATA.anomalies) return [];
  return DATA.anomalies.nodes.map(([rank, op], i) => {
    const id = 'anomaly-' + i, label = 'Overflow (' + DATA.anomalies.file + '): rank ' + rank;
    const link = anomalyRow(rank, op);
    return link ? rowLink(id, label, link) : el('div', {id}, label + ': ' + op + ' (no row)');
  });
}

function renderHeader() {
  const counts = [0, 0, 0];
  for (const p of DATA.parts) for (const v of p.verdict) counts[v]++;
  if (DATA.passed !== null) counts[0] = DATA.passed;  // a row not compared is no pass (compare.md §5.4)
  const header = el('header', {},
    el('h1', {}, 'Compare report' + (DATA.title ? ': ' + DATA.title : '')),
    el('div', {class: 'counts'}, el('span', {}, DATA.mode + ' mode'),
       ...VERDICTS.map((name, v) => el('span', {class: 'v-' + name, id: 'count-' + name}, counts[v] + ' ' + name)),
       ...notComparedCounts(),
       el('span', {}, DATA.parts.length + (DATA.parts.length === 1 ? ' pair' : ' ranks'))),
    el('div', {class: 'links'},
       rowLink('first-error', 'First error', firstError()),
       ...(DATA.firstDiff ? [rowLink('first-diff', 'First diff (-da)', DATA.firstDiff)] : []),
       ...(DATA.firstCause ? [rowLink('first-cause', 'First cause (--attribute)', DATA.firstCause, DATA.firstCauseName)] : []),
       ...anomalyLinks()));
  document.body.append(header);
}

// ---- the module tree ----
function nodeElement(p, k) {
  const t = p.tree, hasChildren = t.children[k].length > 0;
  const li = el('li', {'data-node': k});
  const label = el('span', {class: 'node ' + verdictClass(t.worst[k])},
                   el('span', {class: 'twisty'}, hasChildren ? '▸' : ' '), t.names[k]);
  label.addEventListener('click', () => {
    if (hasChildren) toggleNode(p, li, k);
    if (t.firstRow[k] >= 0) selectRow(state.part, t.firstRow[k], {fromTree: true});
  });
  li.append(label);
  return li;
}

// Shows the children of `k` up to at least `upTo` (an index into its children list).
function renderChildren(p, container, list, upTo) {
  let ul = container.querySelector(':scope > ul');
  if (!ul) { ul = el('ul'); container.append(ul); }
  const shown = ul.querySelectorAll(':scope > li[data-node]').length;
  const end = Math.min(list.length, Math.max(shown + CHILDREN_SHOWN, upTo + 1));
  const more = ul.querySelector(':scope > li.more');
  if (more) more.remove();
  for (let c = shown; c < end; c++) ul.append(nodeElement(p, list[c]));
  if (end < list.length) {
    ul.append(el('li', {class: 'more', onclick: () => renderChildren(p, container, list, 0)},
                 '… ' + (list.length - end) + ' more'));
  }
  return ul;
}

function toggleNode(p, li, k, open) {
  const ul = li.querySelector(':scope > ul');
  const twisty = li.querySelector('.twisty');
  const opening = open ?? !(ul && ul.style.display !== 'none');
  if (opening && !ul) renderChildren(p, li, p.tree.children[k], 0);
  else if (ul) ul.style.display = opening ? '' : 'none';
  twisty.textContent = opening ? '▾' : '▸';
}

// Expands the tree down to node `k` and selects it.
function revealNode(p, k) {
  const t = p.tree, path = [];
  for (let n = k; n >= 0; n = t.parents[n]) path.unshift(n);
  let container = document.getElementById('tree');
  let list = t.roots;
  for (const n of path) {
    const ul = renderChildren(p, container, list, list.indexOf(n));
    const li = ul.querySelector(':scope > li[data-node="' + n + '"]');
    if (n !== k) toggleNode(p, li, n, true);
    container = li;
    list = t.children[n];
  }
  document.querySelectorAll('#tree .node.selected').forEach(e => e.classList.remove('selected'));
  const label = container.querySelector(':scope > .node');
  label.classList.add('selected');
  label.scrollIntoView({block: 'center'});
}

function renderTree(p) {
  const tree = document.getElementById('tree');
  tree.replaceChildren();
  document.getElementById('tree-note').textContent = p.tree.note;
  renderChildren(p, tree, p.tree.roots, 0);
}

function searchTree(query) {
  const p = DATA.parts[state.part], results = document.getElementById('search-results');
  results.replaceChildren();
  const q = query.trim().toLowerCase();
  if (!q) return;
  const names = p.tree.names;
  let found = 0;
  for (let k = 0; k < names.length && found < 100; k++) {
    if (!names[k].toLowerCase().includes(q)) continue;
    found++;
    results.append(el('div', {class: verdictClass(p.tree.worst[k]), title: names[k], onclick: () => revealNode(p, k)}, names[k]));
  }
  if (!found) results.append(el('div', {class: 'note'}, 'no node named like that'));
}

// ---- the chart of the main metric along the execution order ----
function renderChart(p) {
  const box = document.getElementById('chart');
  if (!DATA.mainMetric) { box.replaceChildren(el('div', {class: 'note'}, 'md5 mode has no metric to chart')); return; }
  let minPositive = Infinity, max = 0;
  for (const v of p.main) if (v > 0 && v < Infinity) { minPositive = Math.min(minPositive, v); max = Math.max(max, v); }
  // A log axis where the values span decades; zeros (and infinities) are drawn at its ends.
  const log = max > 0 && max / minPositive > 1000;
  const floor = log ? minPositive / 10 : 0, ceiling = max > 0 ? max * 10 : 1;
  const normal = [], errors = [];
  for (let i = 0; i < p.main.length; i++) {
    const v = p.main[i];
    if (Number.isNaN(v)) continue;
    const y = v === Infinity ? ceiling : log && v <= 0 ? floor : v;
    (p.verdict[i] === 2 ? errors : normal).push(i, y);
  }
  // The rows as a line sampled to the largest value per pixel (a million rows are a thousand pixels
  // wide, and the worst row of each is what must show); error rows again as points of their own.
  const points = (name, data, color) => ({name, type: 'scatter', large: true, largeThreshold: 5000, symbolSize: 4,
    itemStyle: {color}, progressive: 0, dimensions: ['row', 'value'], data: new Float64Array(data)});
  chart = chart || echarts.init(box, null, {renderer: 'canvas'});
  chart.setOption({
    animation: false,
    title: {text: DATA.mainMetric + (log ? ' (log scale; zeros at the bottom)' : ''), textStyle: {fontSize: 12}},
    grid: {left: 60, right: 20, top: 30, bottom: 50},
    tooltip: {trigger: 'axis', formatter: q => rowSummary(p, q[0].value[0])},
    legend: {right: 10, top: 0},
    xAxis: {type: 'value', name: 'row', min: 0, max: Math.max(p.main.length - 1, 1)},
    yAxis: {type: log ? 'log' : 'value', min: log ? floor : undefined},
    dataZoom: [{type: 'inside', xAxisIndex: 0}, {type: 'slider', xAxisIndex: 0, height: 18, bottom: 6}],
    series: [{name: 'rows', type: 'line', sampling: 'max', showSymbol: false, lineStyle: {width: 1, color: '#5c7cfa'},
              itemStyle: {color: '#5c7cfa'}, dimensions: ['row', 'value'], data: new Float64Array(normal)},
             points('error rows', errors, '#c62828')],
  }, true);
  // A click anywhere on the plot selects the row under it.
  chart.getZr().off('click');
  chart.getZr().on('click', e => {
    const [x] = chart.convertFromPixel({seriesIndex: 0}, [e.offsetX, e.offsetY]);
    const row = Math.round(x);
    if (row >= 0 && row < p.main.length) selectRow(state.part, row);
  });
}

function rowSummary(p, i) {
  const d = document.createElement('div');  // textContent, then read back: the name escaped for the tooltip's HTML
  d.textContent = 'row ' + i + ': ' + p.name(i) + ' — ' + VERDICTS[p.verdict[i]] + ', ' + DATA.mainMetric + ' ' + formatValue(p.main[i]);
  return d.innerHTML;
}

// ---- the rank x API heat map (several parts) ----
function renderHeatmap() {
  const box = document.getElementById('heatmap');
  if (DATA.parts.length < 2 || !DATA.mainMetric) { box.remove(); return; }
  const worst = new Map();  // API name -> per part, the largest main metric of its rows
  DATA.parts.forEach((p, k) => {
    preparePart(p);
    for (let i = 0; i < p.verdict.length; i++) {
      const v = p.main[i];
      if (Number.isNaN(v)) continue;
      const name = p.tree.names[p.api[i]];
      let row = worst.get(name);
      if (!row) { row = new Array(DATA.parts.length).fill(null); worst.set(name, row); }
      if (row[k] === null || v > row[k]) row[k] = v;
    }
  });
  let apis = [...worst.keys()];
  if (apis.length > HEATMAP_APIS) {
    const peak = new Map(apis.map(name => [name, Math.max(...worst.get(name).map(v => (v === null ? -1 : v)))]));
    const keep = new Set([...apis].sort((a, b) => peak.get(b) - peak.get(a)).slice(0, HEATMAP_APIS));
    apis = apis.filter(a => keep.has(a));
  }
  const cells = [];
  let top = 0;
  apis.forEach((name, x) => worst.get(name).forEach((v, y) => {
    if (v === null) return;
    const level = Math.log10(Math.min(v, 1e300) + 1e-12);
    top = Math.max(top, level);
    cells.push([x, y, level, v]);
  }));
  const h = echarts.init(box);
  h.setOption({
    animation: false,
    title: {text: 'log10 ' + DATA.mainMetric + ' per rank and API' + (worst.size > apis.length ? ' (the ' + apis.length + ' worst APIs)' : ''),
            textStyle: {fontSize: 12}},
    grid: {left: 70, right: 90, top: 30, bottom: 30},
    tooltip: {formatter: q => { const d = document.createElement('div');
      d.textContent = DATA.parts[q.value[1]].label + ' ' + apis[q.value[0]] + ': ' + q.value[3]; return d.innerHTML; }},
    xAxis: {type: 'category', data: apis, axisLabel: {show: false}},
    yAxis: {type: 'category', data: DATA.parts.map(p => p.label)},
    visualMap: {dimension: 2, min: -12, max: Math.max(top, -11), calculable: true, orient: 'vertical', right: 0, top: 30,
                inRange: {color: ['#e8f5e9', '#fff59d', '#ef5350', '#7f0000']}},
    dataZoom: [{type: 'inside', xAxisIndex: 0}],
    series: [{type: 'heatmap', data: cells, encode: {x: 0, y: 1, value: 2}}],
  });
  h.on('click', q => {
    const p = preparePart(DATA.parts[q.value[1]]), name = apis[q.value[0]];
    const k = p.tree.names.indexOf(name);
    if (k >= 0 && p.tree.firstRow[k] >= 0) selectRow(q.value[1], p.tree.firstRow[k]);
  });
}

// ---- the table: sortable, filterable, virtualised ----
function tableColumns(p) {
  const columns = [
    {name: '#', width: 70, text: i => String(i), number: i => i},
    {name: 'NPU Name', width: 360, text: i => p.name(i)},
    {name: 'Bench Name', width: 200, text: i => benchName(p, i)},
    {name: 'NPU Dtype', width: 110, text: i => p.strings[p.dtype[i]]},
    {name: 'NPU Tensor Shape', width: 130, text: i => p.strings[p.shape[i]]},
  ];
  for (const m of p.metrics) columns.push({name: m.name, width: 110, text: i => metricText(p, m, i), number: i => m.numbers[i]});
  columns.push({name: 'Result', width: 80, text: i => VERDICTS[p.verdict[i]], number: i => p.verdict[i]});
  columns.push({name: 'Err_message', width: 400, text: i => p.strings[p.err[i]]});
  return columns;
}

function sortOrder(p, columns) {
  const n = p.verdict.length, order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (state.sortColumn < 0) return order;
  const c = columns[state.sortColumn], sign = state.sortDescending ? -1 : 1;
  if (c.number) {
    const key = new Float64Array(n);
    for (let i = 0; i < n; i++) key[i] = c.number(i);
    // Rows without a number go last whichever the direction.
    order.sort((a, b) => { const x = key[a], y = key[b];
      if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) - Number.isNaN(y) || a - b;
      return sign * (x - y) || a - b; });
  } else {
    const key = Array.from({length: n}, (_, i) => c.text(i));
    order.sort((a, b) => sign * (key[a] < key[b] ? -1 : key[a] > key[b] ? 1 : 0) || a - b);
  }
  return order;
}

function applyFilter() {
  const p = DATA.parts[state.part];
  const shown = VERDICTS.map(v => document.getElementById('show-' + v).checked);
  const q = document.getElementById('name-filter').value.trim().toLowerCase();
  if (q && !p.lowerNames) p.lowerNames = Array.from(p.verdict, (_, i) => p.name(i).toLowerCase());
  const view = new Uint32Array(state.order.length);
  let n = 0;
  for (const i of state.order) {
    if (shown[p.verdict[i]] && (!q || p.lowerNames[i].includes(q))) view[n++] = i;
  }
  state.view = view.subarray(0, n);
  document.getElementById('viewport').scrollTop = 0;  // a new view starts at its top (selectRow then scrolls)
  document.getElementById('shown-count').textContent = n + ' of ' + p.verdict.length + ' rows';
  document.getElementById('rows').style.height = Math.min(n * ROW_HEIGHT, MAX_SCROLL_PX) + 'px';
  renderRows();
}

// Rows' pixels per pixel scrolled: 1 unless the table is taller than MAX_SCROLL_PX.
function scrollScale(viewport) {
  const full = state.view.length * ROW_HEIGHT, shown = Math.min(full, MAX_SCROLL_PX);
  return full > shown ? (full - viewport.clientHeight) / (shown - viewport.clientHeight) : 1;
}

function renderRows() {
  const p = DATA.parts[state.part], viewport = document.getElementById('viewport');
  const offset = viewport.scrollTop * scrollScale(viewport);  // the rows' pixel at the top of the view
  const first = Math.max(0, Math.floor(offset / ROW_HEIGHT) - 5);
  const last = Math.min(state.view.length, first + Math.ceil(viewport.clientHeight / ROW_HEIGHT) + 10);
  const rows = [];
  for (let r = first; r < last; r++) {
    const i = state.view[r];
    const row = el('div', {class: 'row ' + VERDICTS[p.verdict[i]] + (i === state.selectedRow ? ' selected' : ''), 'data-row': i});
    row.style.top = (viewport.scrollTop + r * ROW_HEIGHT - offset) + 'px';
    for (const c of state.columns) {
      const cell = el('div', {title: c.text(i)}, c.text(i));
      cell.style.setProperty('--w', c.width + 'px');
      if (c.name === 'Result') cell.className = verdictClass(p.verdict[i]);
      row.append(cell);
    }
    row.addEventListener('click', () => selectRow(state.part, i));
    rows.push(row);
  }
  document.getElementById('rows').replaceChildren(...rows);
}

function renderTable(p) {
  state.columns = tableColumns(p);
  const head = document.getElementById('table-head');
  head.replaceChildren(...state.columns.map((c, k) => {
    const arrow = k === state.sortColumn ? (state.sortDescending ? ' ▼' : ' ▲') : '';
    const cell = el('div', {title: 'sort by ' + c.name, onclick: () => sortBy(k)}, c.name + arrow);
    cell.style.setProperty('--w', c.width + 'px');
    return cell;
  }));
  const width = state.columns.reduce((s, c) => s + c.width, 0);
  for (const id of ['table-head', 'rows']) document.getElementById(id).style.width = width + 'px';
  state.order = sortOrder(p, state.columns);
  applyFilter();
}

function sortBy(k) {
  state.sortDescending = state.sortColumn === k ? !state.sortDescending : false;
  state.sortColumn = k;
  renderTable(DATA.parts[state.part]);
}

// ---- selection ----
function showPart(k) {
  state.part = k;
  const p = preparePart(DATA.parts[k]);
  const select = document.getElementById('part-select');
  if (select) select.value = String(k);
  renderTree(p);
  renderChart(p);
  renderTable(p);
}

function selectRow(part, row, {fromTree = false} = {}) {
  if (part !== state.part) showPart(part);
  const p = DATA.parts[part];
  state.selectedRow = row;
  let r = state.view.indexOf(row);
  if (r < 0) {  // filtered out: show every row again
    VERDICTS.forEach(v => { document.getElementById('show-' + v).checked = true; });
    document.getElementById('name-filter').value = '';
    applyFilter();
    r = state.view.indexOf(row);
  }
  const viewport = document.getElementById('viewport');
  viewport.scrollTop = Math.max(0, r * ROW_HEIGHT - viewport.clientHeight / 2) / scrollScale(viewport);
  renderRows();
  if (!fromTree) revealNode(p, p.api[row]);
}

// ---- the page ----
function renderLayout() {
  const parts = DATA.parts;
  const select = parts.length > 1
    ? el('select', {id: 'part-select', onchange: e => showPart(Number(e.target.value))},
         ...parts.map((p, k) => el('option', {value: String(k)}, p.label || 'pair ' + k)))
    : '';
  let searchTimer = 0;
  const search = el('input', {id: 'search', type: 'search', placeholder: 'search the tree by name'});
  search.addEventListener('input', () => { clearTimeout(searchTimer); searchTimer = setTimeout(() => searchTree(search.value), 200); });
  let filterTimer = 0;
  const filter = el('input', {id: 'name-filter', type: 'search', placeholder: 'filter rows by name'});
  filter.addEventListener('input', () => { clearTimeout(filterTimer); filterTimer = setTimeout(applyFilter, 200); });
  const checks = VERDICTS.map(v => el('label', {class: 'v-' + v},
    el('input', {type: 'checkbox', id: 'show-' + v, checked: '', onchange: applyFilter}), ' ' + v));
  // The header scrolls sideways with the rows and stays on top (sticky); the rows are only those in view.
  const viewport = el('div', {id: 'viewport'}, el('div', {id: 'table-head'}), el('div', {id: 'rows'}));
  viewport.addEventListener('scroll', () => requestAnimationFrame(renderRows));
  document.body.append(el('main', {},
    el('section', {id: 'tree-panel'}, select, search, el('div', {id: 'search-results'}),
       el('div', {id: 'tree-note', class: 'note'}), el('div', {id: 'tree'})),
    el('section', {id: 'right'}, el('div', {id: 'chart'}), el('div', {id: 'heatmap'}),
       el('div', {id: 'table-controls'}, ...checks, filter, ' ', el('span', {id: 'shown-count'})),
       el('div', {id: 'table'}, viewport))));
  window.addEventListener('resize', () => { if (chart) chart.resize(); renderRows(); });
}

renderHeader();
if (DATA.parts.length) {
  renderLayout();
  showPart((firstError() || DATA.firstDiff || [0])[0]);
  renderHeatmap();
} else {
  document.body.append(el('p', {class: 'note'}, 'No pair had rows to compare.'));
}
document.body.dataset.ready = 'true';  // the browser test waits for it
