// The trend page (docs/trend.md §13): reads the data libcompare/src/trend/trend_page_data.cc encodes
// (its layout is described in trend_page_data_internal.h) and draws a heat map of one statistic over
// two of step × rank × module, the third fixed, and the lines of clicked cells along the third.
// Plain DOM; the charts are Apache ECharts (inlined before this script).
'use strict';
// make() and parseRanks() come from report/page_util.js, before this script.

const DATA = JSON.parse(document.getElementById('report-data').textContent);
// msprobe stores +inf as 1e9 + 1 and -inf as -(1e9 + 1), and clamps finite values to ±1e9: such
// values are shown as what they stand for and kept out of the colour scale.
const INF = 1e9 + 1;
const CLAMP = 1e9;
const SHOWN_AT_FIRST = 60;  // rows and columns of the heat map in view before zooming out

function describe(v) {
  if (v === null || Number.isNaN(v)) return 'none';
  if (v >= INF) return '+inf';
  if (v <= -INF) return '-inf';
  if (Math.abs(v) >= CLAMP) return (v > 0 ? '≥' : '≤') + v + ' (clamped)';
  return String(v);
}
// A long module name by its end, which tells its tensors apart ("….mlp.linear_fc1.RowParallelLinear.input.0").
function tail(label) { return label.length > 42 ? '…' + label.slice(-41) : label; }
function escapeText(text) { const d = document.createElement('div'); d.textContent = text; return d.innerHTML; }

// ---- the data as typed columns ----
const rows = {
  rank: Int32Array.from(DATA.rows.rank),
  step: Int32Array.from(DATA.rows.step),
  target: Int32Array.from(DATA.rows.target),
  metric: Int32Array.from(DATA.rows.metric),
  values: DATA.rows.values.map(column => Float64Array.from(column, v => (v === null ? NaN : v))),
};
const count = rows.rank.length;
const allRanks = [...new Set(rows.rank)].sort((a, b) => a - b);
const allSteps = [...new Set(rows.step)].sort((a, b) => a - b);
const targets = DATA.targets;
targets.label = targets.name.map((name, t) =>
  name + (targets.call[t] ? ' #' + targets.call[t] : '') + (targets.vpp[t] ? ' vpp ' + targets.vpp[t] : ''));
// Per metric, its targets in id order.
const metricTargets = DATA.metrics.map(() => new Set());
for (let i = 0; i < count; i++) metricTargets[rows.metric[i]].add(rows.target[i]);
metricTargets.forEach((set, m) => { metricTargets[m] = [...set].sort((a, b) => a - b); });

const state = {metric: 0, stat: 0, fixed: 'rank', fixedValue: null, tag: -1, module: '', ranks: null, from: null, to: null,
               lines: []};
let heatmap = null, line = null;

// ---- filters ----
function visibleRanks() { return allRanks.filter(r => !state.ranks || state.ranks.has(r)); }
function visibleSteps() {
  return allSteps.filter(s => (state.from === null || s >= state.from) && (state.to === null || s <= state.to));
}
function visibleModules() {
  let list = metricTargets[state.metric];
  if (state.tag >= 0) {
    const marked = new Set(DATA.tags.targets[state.tag]);
    list = list.filter(t => marked.has(t));
  }
  const needle = state.module.toLowerCase();
  if (needle) list = list.filter(t => targets.label[t].toLowerCase().includes(needle));
  return list;
}

// The two axes of the heat map and the dimension fixed: [x values, x labels, y values, y labels].
function axes() {
  const ranks = visibleRanks(), steps = visibleSteps(), modules = visibleModules();
  const rankLabels = ranks.map(r => 'rank ' + r), stepLabels = steps.map(s => 'step ' + s);
  const moduleLabels = modules.map(t => targets.label[t]);
  if (state.fixed === 'step') return {x: ranks, xLabels: rankLabels, xDim: 'rank', y: modules, yLabels: moduleLabels, yDim: 'target'};
  if (state.fixed === 'rank') return {x: steps, xLabels: stepLabels, xDim: 'step', y: modules, yLabels: moduleLabels, yDim: 'target'};
  return {x: steps, xLabels: stepLabels, xDim: 'step', y: ranks, yLabels: rankLabels, yDim: 'rank'};
}

// ---- controls ----
function option(value, text, selected) { return make('option', {value: String(value), selected}, text); }

function fillSelect(select, options) {
  select.replaceChildren(...options);
}

function fixedChoices() {
  if (state.fixed === 'step') return visibleSteps().map(s => [s, 'step ' + s]);
  if (state.fixed === 'rank') return visibleRanks().map(r => [r, 'rank ' + r]);
  return visibleModules().map(t => [t, targets.label[t]]);
}

function refreshFixedValue() {
  const choices = fixedChoices();
  if (!choices.some(([v]) => v === state.fixedValue)) state.fixedValue = choices.length ? choices[0][0] : null;
  fillSelect(document.getElementById('fixed-value'), choices.map(([v, text]) => option(v, text, v === state.fixedValue)));
}

function refreshMetricControls() {
  const metric = DATA.metrics[state.metric];
  if (!metric.stats.includes(state.stat)) state.stat = metric.stats.length ? metric.stats[0] : 0;
  fillSelect(document.getElementById('stat'), metric.stats.map(s => option(s, DATA.stats[s], s === state.stat)));
  const tags = [option(-1, 'all modules', state.tag < 0)];
  DATA.tags.name.forEach((name, k) => {
    if (DATA.tags.metric[k] === state.metric) tags.push(option(k, DATA.tags.category[k] + ': ' + name, k === state.tag));
  });
  if (!tags.some(o => o.selected)) state.tag = -1;
  fillSelect(document.getElementById('tag'), tags);
}

function renderControls() {
  const metric = make('select', {id: 'metric', title: 'the metric (forward, backward, ...)'},
                      ...DATA.metrics.map((m, k) => option(k, m.name, k === state.metric)));
  const fixed = make('select', {id: 'fixed', title: 'the dimension held at one value'},
                     option('rank', 'steps × modules of one rank', true), option('step', 'ranks × modules at one step', false),
                     option('module', 'steps × ranks of one module', false));
  const bar = make('div', {id: 'controls'},
    make('label', {}, 'Metric ', metric), make('label', {}, 'Statistic ', make('select', {id: 'stat'})),
    make('label', {}, 'Heat map of ', fixed, ' ', make('select', {id: 'fixed-value'})),
    make('label', {}, 'Tag ', make('select', {id: 'tag'})),
    make('label', {}, 'Module ', make('input', {id: 'module-filter', placeholder: 'name contains', size: 18})),
    make('label', {}, 'Ranks ', make('input', {id: 'rank-filter', placeholder: 'e.g. 0-3,7', size: 10})),
    make('label', {}, 'Steps ', make('input', {id: 'step-from', type: 'number', size: 6}), ' to ',
         make('input', {id: 'step-to', type: 'number', size: 6})));
  document.body.append(bar);
  const changed = (id, handler) => document.getElementById(id).addEventListener('change', e => { handler(e.target.value); update(); });
  changed('metric', v => { state.metric = Number(v); state.tag = -1; refreshMetricControls(); });
  changed('stat', v => { state.stat = Number(v); });
  changed('fixed', v => { state.fixed = v; state.fixedValue = null; state.lines = []; });
  changed('fixed-value', v => { state.fixedValue = Number(v); });
  changed('tag', v => { state.tag = Number(v); });
  document.getElementById('module-filter').addEventListener('input', e => { state.module = e.target.value; update(); });
  document.getElementById('rank-filter').addEventListener('input', e => {
    const ranks = parseRanks(e.target.value);
    e.target.classList.toggle('bad', ranks === undefined);
    if (ranks !== undefined) { state.ranks = ranks; update(); }
  });
  for (const id of ['step-from', 'step-to']) {
    document.getElementById(id).addEventListener('input', e => {
      const v = e.target.value === '' ? null : Number(e.target.value);
      if (id === 'step-from') state.from = v; else state.to = v;
      update();
    });
  }
  refreshMetricControls();
}

// ---- the heat map ----
function heatCells(a) {
  const xAt = new Map(a.x.map((v, k) => [v, k])), yAt = new Map(a.y.map((v, k) => [v, k]));
  const fixedColumn = state.fixed === 'module' ? rows.target : rows[state.fixed];
  const values = rows.values[state.stat];
  const cells = [];
  for (let i = 0; i < count; i++) {
    if (rows.metric[i] !== state.metric || fixedColumn[i] !== state.fixedValue) continue;
    const x = xAt.get(rows[a.xDim][i]), y = yAt.get(rows[a.yDim][i]);
    if (x === undefined || y === undefined || Number.isNaN(values[i])) continue;
    cells.push([x, y, values[i]]);
  }
  return cells;
}

function scaleOf(cells) {
  let lo = Infinity, hi = -Infinity;
  for (const c of cells) if (Math.abs(c[2]) < CLAMP) { lo = Math.min(lo, c[2]); hi = Math.max(hi, c[2]); }
  if (lo === Infinity) return [0, 1];
  return lo === hi ? [lo - 1, hi + 1] : [lo, hi];
}

function renderHeatmap() {
  const a = axes();
  const cells = state.fixedValue === null ? [] : heatCells(a);
  const [lo, hi] = scaleOf(cells);
  const fixedName = state.fixed === 'module' ? targets.label[state.fixedValue] : state.fixed + ' ' + state.fixedValue;
  document.getElementById('heat-info').textContent = `${DATA.metrics[state.metric].name} ${DATA.stats[state.stat]}: ` +
    `${a.yLabels.length} ${a.yDim === 'rank' ? 'ranks' : 'modules'} × ${a.xLabels.length} ${a.xDim}s at ${fixedName}, ` +
    `${cells.length} cells` + (cells.length ? '' : ' (nothing to show: change the filters)');
  heatmap = heatmap || echarts.init(document.getElementById('heatmap'));
  heatmap.setOption({
    animation: false,
    grid: {left: 260, right: 110, top: 10, bottom: 70},
    tooltip: {formatter: q => escapeText(`${a.yLabels[q.value[1]]}, ${a.xLabels[q.value[0]]}: ${describe(q.value[2])}`)},
    xAxis: {type: 'category', data: a.xLabels, splitArea: {show: true}},
    yAxis: {type: 'category', data: a.yLabels, inverse: true, axisLabel: {formatter: tail}},
    visualMap: {type: 'continuous', dimension: 2, min: lo, max: hi, calculable: true, right: 0, top: 10,
                precision: 4, inRange: {color: ['#313695', '#74add1', '#ffffbf', '#f46d43', '#a50026']},
                outOfRange: {color: '#6a1b9a'}},
    dataZoom: [
      {type: 'slider', xAxisIndex: 0, bottom: 10, startValue: 0, endValue: Math.min(a.xLabels.length, SHOWN_AT_FIRST) - 1},
      {type: 'slider', yAxisIndex: 0, left: 0, width: 14, startValue: 0, endValue: Math.min(a.yLabels.length, SHOWN_AT_FIRST) - 1},
      {type: 'inside', xAxisIndex: 0}, {type: 'inside', yAxisIndex: 0}],
    series: [{type: 'heatmap', data: cells, progressive: 0}],
  }, {replaceMerge: ['series', 'dataZoom']});
  heatmap.off('click');
  heatmap.on('click', q => addLine(a.x[q.value[0]], a.y[q.value[1]]));
}

// ---- lines: a clicked cell along the fixed dimension ----
// The point a line follows: two of (step, rank, target), the third runs along the x axis.
function lineAxis() {
  if (state.fixed === 'step') return {dim: 'step', values: visibleSteps(), label: s => 'step ' + s};
  if (state.fixed === 'rank') return {dim: 'rank', values: visibleRanks(), label: r => 'rank ' + r};
  return {dim: 'target', values: visibleModules(), label: t => targets.label[t]};
}

function addLine(x, y) {
  const a = axes();
  const point = {metric: state.metric, [a.xDim]: x, [a.yDim]: y};
  const key = JSON.stringify(point);
  if (!state.lines.some(l => JSON.stringify(l) === key)) state.lines.push(point);
  renderLines();
}

function lineName(point) {
  const parts = [];
  if (point.step !== undefined) parts.push('step ' + point.step);
  if (point.rank !== undefined) parts.push('rank ' + point.rank);
  if (point.target !== undefined) parts.push(targets.label[point.target]);
  return DATA.metrics[point.metric].name + ' ' + parts.join(', ');
}

function lineValues(point, along) {
  const at = new Map(along.values.map((v, k) => [v, k]));
  const out = new Array(along.values.length).fill(null);
  const values = rows.values[state.stat];
  const fixed = Object.keys(point).filter(k => k !== 'metric');
  for (let i = 0; i < count; i++) {
    if (rows.metric[i] !== point.metric) continue;
    if (!fixed.every(k => rows[k][i] === point[k])) continue;
    const k = at.get(rows[along.dim][i]);
    if (k !== undefined && !Number.isNaN(values[i])) out[k] = values[i];
  }
  return out;
}

function renderLines() {
  const along = lineAxis();
  const list = document.getElementById('lines');
  list.replaceChildren(...state.lines.map((point, k) => make('span', {className: 'line-chip'}, lineName(point), ' ',
    make('button', {title: 'remove', onclick: () => { state.lines.splice(k, 1); renderLines(); }}, '×'))));
  if (!state.lines.length) list.append(make('span', {className: 'hint'}, 'click a cell of the heat map to follow it along the ' +
                                            (along.dim === 'target' ? 'modules' : along.dim + 's')));
  line = line || echarts.init(document.getElementById('line'));
  const series = state.lines.map(point => {
    const raw = lineValues(point, along);
    // The infinities and clamped values would flatten every other point: drawn at the edge of the
    // plot as marks, named in the tooltip.
    return {name: lineName(point), type: 'line', connectNulls: false, showSymbol: true,
            data: raw.map(v => (v === null || Math.abs(v) >= CLAMP ? null : v)), raw};
  });
  line.setOption({
    animation: false,
    grid: {left: 80, right: 30, top: 40, bottom: 60},
    legend: {type: 'scroll', top: 0},
    tooltip: {trigger: 'axis', formatter: qs => escapeText(qs.map(q =>
      `${q.seriesName} @ ${along.label(along.values[q.dataIndex])}: ${describe(series[q.seriesIndex].raw[q.dataIndex])}`).join('\n'))
      .replace(/\n/g, '<br>')},
    xAxis: {type: 'category', data: along.values.map(along.label)},
    yAxis: {type: 'value', scale: true, name: DATA.stats[state.stat]},
    dataZoom: [{type: 'slider', xAxisIndex: 0, bottom: 10}, {type: 'inside', xAxisIndex: 0}],
    series: series.map(({raw, ...s}) => s),
  }, {replaceMerge: ['series']});
}

function update() {
  refreshFixedValue();
  renderHeatmap();
  renderLines();
}

// ---- the page ----
function renderHeader() {
  const moduleCount = new Set(rows.target).size;
  document.body.append(make('header', {},
    make('h1', {}, 'Trend: ' + DATA.title),
    make('div', {id: 'summary'}, `${count} rows · ${allRanks.length} ranks · ${allSteps.length} steps · ${moduleCount} modules · ` +
         'metrics: ' + DATA.metrics.map(m => m.name).join(', ')),
    make('div', {className: 'note'}, 'Purple cells: ±inf (msprobe stores them as ±(1e9 + 1)) or values clamped to ±1e9; ' +
         'empty cells: no value (NaN is stored as none). "#N" after a module: its call index.')));
}

renderHeader();
if (count === 0) {
  document.body.append(make('p', {id: 'empty'}, 'The database holds no rows (for these filters).'));
} else {
  renderControls();
  document.body.append(make('div', {id: 'heat-info'}), make('div', {id: 'heatmap'}),
                       make('div', {id: 'line-controls'}, 'Lines: ', make('span', {id: 'lines'}), ' ',
                            make('button', {id: 'clear-lines', onclick: () => { state.lines = []; renderLines(); }}, 'Clear')),
                       make('div', {id: 'line'}));
  update();
  window.addEventListener('resize', () => { heatmap.resize(); line.resize(); });
}
document.body.dataset.ready = 'true';  // the browser test waits for it
