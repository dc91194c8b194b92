// Times how long a compare_report_*.html takes to open in Debian's Chromium (headless): from
// navigation to the page's data-ready mark (data parsed, tree, chart and table drawn), then a scroll
// to the table's end and a name filter. Run by scripts/bench_html.sh, not by CI.
// Usage: NODE_PATH=build/report/node_modules node bench/html_page_open.js PAGE.html [RUNS]
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {pathToFileURL} = require('node:url');
const {chromium} = require('playwright-core');

async function main() {
  const page_path = process.argv[2];
  const runs = Number(process.argv[3] || 3);
  const url = pathToFileURL(path.resolve(page_path)).href;
  console.log(`page ${page_path}: ${(fs.statSync(page_path).size / 1e6).toFixed(1)} MB`);
  for (let run = 0; run < runs; run++) {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'report-bench-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, viewport: {width: 1600, height: 1000},
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
             '--disable-component-update', '--disable-sync']});
    const page = context.pages()[0] || await context.newPage();
    const errors = [];
    page.on('pageerror', e => errors.push(e.message));
    page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
    const start = Date.now();
    await page.goto(url, {timeout: 120000});
    await page.waitForSelector('body[data-ready="true"]', {timeout: 120000});
    const opened = (Date.now() - start) / 1000;
    const scroll = await page.evaluate(() => {
      const t = performance.now(), v = document.getElementById('viewport');
      v.scrollTop = v.scrollHeight;
      v.dispatchEvent(new Event('scroll'));
      return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(performance.now() - t))));
    });
    const before = await page.textContent('#shown-count');
    const filterStart = Date.now();
    await page.fill('#name-filter', 'linear.1000');
    await page.waitForFunction(b => document.getElementById('shown-count').textContent !== b, before);
    const filtered = (Date.now() - filterStart) / 1000;
    if (run === 0 && process.env.SCREENSHOT) await page.screenshot({path: process.env.SCREENSHOT});
    console.log(`run ${run + 1}: opened in ${opened.toFixed(2)} s; scroll to the end ${scroll.toFixed(0)} ms; ` +
                `name filter ${filtered.toFixed(2)} s (incl. 0.2 s debounce)${errors.length ? '; errors: ' + errors : ''}`);
    await context.close();
    fs.rmSync(profile, {recursive: true, force: true});
  }
}

main().catch(e => { console.error(e); process.exit(1); });
