// Opens a compare_report_*.html in Debian's Chromium, headless and offline, and checks what an
// engineer would do with it: the first error named in the header, the tree expanded to it, the table
// filtered by name and by verdict, the tree searched, the chart hovered. Fails on any console error, page error, or
// request for anything but the page itself. With ANOMALY_OP, the header's first overflow_check anomaly
// names it and its link selects its row. Usage (tests/cli/html_report_browser_test.sh runs it):
//   node report_page_check.js PAGE.html SUMMARY.json SCREENSHOT.png [ANOMALY_OP]
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const {checkPage} = require('./browser_page');

async function main() {
  const [page_path, summary_path, screenshot, anomaly_op] = process.argv.slice(2);
  const summary = JSON.parse(fs.readFileSync(summary_path, 'utf8'));
  const first = summary.first_error;
  assert.ok(first, 'the test data must have an error row');
  await checkPage(page_path, async page => {
    // overflow_check's anomaly: named in the header, its link selects its first row.
    if (anomaly_op) {
      assert.ok((await page.locator('#anomaly-0').innerText()).includes(anomaly_op), 'the anomaly is named');
      await page.locator('#anomaly-0 a').click();
      await page.waitForFunction(op => {
        const row = document.querySelector('#rows .row.selected');
        return row && row.innerText.includes(op);
      }, anomaly_op);
    }

    // The first error, by name, in the rendered header.
    const header = await page.locator('#first-error').innerText();
    assert.ok(header.includes(first.npu_name), `first error ${first.npu_name} not in "${header}"`);
    const counts = summary.counts;
    assert.equal(await page.locator('#count-error').innerText(), `${counts.error} error`);

    // Its link expands the tree to its API and selects it, and selects its table row.
    await page.locator('#first-error a').click();
    const selected = page.locator('#tree .node.selected');
    await selected.waitFor();
    assert.equal((await selected.innerText()).trim(), first.api);
    assert.ok(await selected.isVisible(), 'the selected tree node is on screen');
    assert.ok((await page.locator('#rows .row.selected').innerText()).includes(first.npu_name));

    // The table filtered by name, then by verdict.
    await page.fill('#name-filter', first.api);
    await page.waitForFunction(a => [...document.querySelectorAll('#rows .row')].every(r => r.innerText.includes(a)), first.api);
    const named = await page.locator('#rows .row').count();
    assert.ok(named > 0, 'rows named like the first error are shown');
    await page.fill('#name-filter', '');
    await page.uncheck('#show-pass');
    await page.uncheck('#show-warning');
    await page.waitForFunction(() => [...document.querySelectorAll('#rows .row')].every(r => r.classList.contains('error')));
    assert.ok((await page.locator('#shown-count').innerText()).startsWith(`${summary.pairs[0].counts.error} of `));

    // The tree searched by name.
    await page.fill('#search', first.api);
    await page.locator('#search-results div', {hasText: first.api}).first().waitFor();

    // The chart (and, for several ranks, the heat map) drawn; a hover on it names a row.
    assert.ok(await page.locator('#chart canvas').count() > 0, 'the chart is drawn');
    const plot = await page.locator('#chart').boundingBox();
    await page.mouse.move(plot.x + plot.width / 2, plot.y + plot.height / 2);
    await page.waitForFunction(() => [...document.querySelectorAll('#chart div')].some(d => /^row \d+: /.test(d.innerText)));
    if (summary.pairs.length > 1) assert.ok(await page.locator('#heatmap canvas').count() > 0, 'the heat map is drawn');
    await page.screenshot({path: screenshot, fullPage: true});
  });
}

main().catch(e => { console.error(e); process.exit(1); });
