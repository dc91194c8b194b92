// The consistency page (docs/consistency.md §5): reads the data libcompare/src/consistency/consistency_page.cc
// encodes (its layout is described there) and shows the counts, the checks that ran, the findings per
// rank (a stacked bar chart, Apache ECharts inlined before this script) and the findings table, with
// filters by kind, rank, step and API or argument name. A click on a rank's bar filters to that rank.
'use strict';
// make() and parseRanks() come from report/page_util.js, before this script.

const DATA = JSON.parse(document.getElementById('report-data').textContent);
const F = DATA.findings;
const ROWS_SHOWN = 500;  // table rows drawn at once; the filters narrow the rest
const KINDS = ['inconsistency', 'suspect'];

const state = {kind: -1, ranks: null, steps: null, text: ''};

// The page's elements (the page holds only its data and scripts).
function buildPage() {
  const head = (...names) => make('thead', {}, make('tr', {}, ...names.map(n => make('th', {textContent: n}))));
  const input = (id, placeholder) => make('input', {id, placeholder, size: 18});
  document.body.append(
    make('header', {}, make('h1', {id: 'title'}), make('div', {id: 'verdict'}), make('div', {id: 'summary'}),
         make('div', {id: 'left-out', className: 'note'})),
    make('section', {}, make('table', {id: 'checks'}, head('check', 'ran', 'values compared', 'detail'), make('tbody'))),
    make('div', {id: 'controls'},
         make('label', {}, 'kind ', make('select', {id: 'kind'}, make('option', {value: '-1', textContent: 'all'}),
                                         ...KINDS.map((k, i) => make('option', {value: String(i), textContent: k})))),
         make('label', {}, 'ranks ', input('ranks', '0-3,7')), make('label', {}, 'steps ', input('steps', '0,2')),
         make('label', {}, 'API or name ', input('text', 'all_reduce'))),
    make('div', {id: 'by-rank'}),
    make('section', {}, make('div', {id: 'shown'}),
         make('table', {id: 'findings'}, head('Kind', 'Step', 'Rank', 'API', 'Name', 'Check', 'Group', 'Value', 'Expected',
                                              'Score', 'Reason'), make('tbody'))));
}

function matches(i) {
  if (state.kind >= 0 && F.kind[i] !== state.kind) return false;
  if (state.ranks && !state.ranks.has(F.rank[i])) return false;
  if (state.steps && !state.steps.has(F.step[i])) return false;
  if (state.text) {
    const needle = state.text.toLowerCase();
    if (!F.api[i].toLowerCase().includes(needle) && !F.name[i].toLowerCase().includes(needle)) return false;
  }
  return true;
}

function drawHeader() {
  const c = DATA.counts;
  document.getElementById('title').textContent = DATA.title;
  const verdict = document.getElementById('verdict');
  // No check ran: nothing passed, so the page does not say "no inconsistency" in green.
  const nothingChecked = !DATA.checks.some(check => check.ran);
  verdict.textContent = c.inconsistencies > 0 ? `${c.inconsistencies} inconsistencies`
    : nothingChecked ? 'nothing checked' : 'no inconsistency';
  verdict.className = c.inconsistencies > 0 || nothingChecked ? 'bad' : 'good';
  document.getElementById('summary').textContent =
    `${c.inconsistencies} inconsistencies, ${c.suspects} suspects; ${c.steps} steps, ${c.ranks} ranks, ` +
    `${c.dumps} dumps, ${c.arguments} tensor arguments; mode ${DATA.mode}, |z| threshold ${DATA.threshold}`;
  if (DATA.left_out > 0) {
    document.getElementById('left-out').textContent =
      `${DATA.left_out} findings are not in this page (too many): the csv and xlsx hold them all.`;
  }
  const body = document.querySelector('#checks tbody');
  for (const check of DATA.checks) {
    body.append(make('tr', {}, make('td', {textContent: check.name}),
                     make('td', {textContent: check.ran ? 'yes' : 'no', className: check.ran ? '' : 'no'}),
                     make('td', {textContent: String(check.compared)}), make('td', {textContent: check.detail})));
  }
}

let chart = null;
function drawChart(visible) {
  const ranks = [...new Set(visible.map(i => F.rank[i]))].sort((a, b) => a - b);
  const at = new Map(ranks.map((r, k) => [r, k]));
  const counts = KINDS.map(() => ranks.map(() => 0));
  for (const i of visible) counts[F.kind[i]][at.get(F.rank[i])]++;
  chart = chart || echarts.init(document.getElementById('by-rank'));
  chart.setOption({
    animation: false,
    tooltip: {trigger: 'axis'},
    legend: {data: KINDS},
    xAxis: {type: 'category', name: 'rank', data: ranks.map(String)},
    yAxis: {type: 'value', name: 'findings', minInterval: 1},
    series: KINDS.map((kind, k) => ({name: kind, type: 'bar', stack: 'all', data: counts[k],
                                      itemStyle: {color: k === 0 ? '#e53935' : '#fdd835'}})),
  }, true);
}

function drawTable(visible) {
  const body = document.querySelector('#findings tbody');
  body.replaceChildren();
  for (const i of visible.slice(0, ROWS_SHOWN)) {
    const score = F.score[i] === null ? '' : String(F.score[i]);
    const cells = [KINDS[F.kind[i]], F.step[i], F.rank[i], F.api[i], F.name[i], F.check[i], F.group[i], F.value[i],
                   F.expected[i], score, F.reason[i]];
    body.append(make('tr', {className: KINDS[F.kind[i]]}, ...cells.map(c => make('td', {textContent: String(c)}))));
  }
  document.getElementById('shown').textContent =
    `${visible.length} of ${F.kind.length} findings` + (visible.length > ROWS_SHOWN ? `, the first ${ROWS_SHOWN} shown` : '');
}

function redraw() {
  const visible = [];
  for (let i = 0; i < F.kind.length; i++) if (matches(i)) visible.push(i);
  drawChart(visible);
  drawTable(visible);
}

function listFilter(id, key) {
  const input = document.getElementById(id);
  input.addEventListener('input', () => {
    const set = parseRanks(input.value);
    input.classList.toggle('bad', set === undefined);
    if (set === undefined) return;
    state[key] = set;
    redraw();
  });
}

buildPage();
drawHeader();
document.getElementById('kind').addEventListener('change', e => { state.kind = Number(e.target.value); redraw(); });
document.getElementById('text').addEventListener('input', e => { state.text = e.target.value.trim(); redraw(); });
listFilter('ranks', 'ranks');
listFilter('steps', 'steps');
redraw();
chart.on('click', params => {
  const input = document.getElementById('ranks');
  input.value = params.name;
  input.dispatchEvent(new Event('input'));
});
window.addEventListener('resize', () => chart.resize());
document.body.dataset.ready = 'true';
