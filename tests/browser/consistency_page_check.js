// Opens a consistency_report_*.html in Debian's Chromium, headless and offline, and checks what an
// engineer would do with it: the verdict and the first inconsistency (from summary.json) at the top
// of the table, the table narrowed to inconsistencies and to a rank, the bar chart drawn and clicked;
// for a dump where no check could run, the verdict "nothing checked" marked bad.
// Usage (tests/cli/consistency_page_browser_test.sh runs it): node consistency_page_check.js PAGE SUMMARY PNG
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const {checkPage} = require('./browser_page');

async function main() {
  const [pagePath, summaryPath, screenshot] = process.argv.slice(2);
  const summary = JSON.parse(fs.readFileSync(summaryPath, 'utf8'));
  if (summary.nothing_checked) {
    // Nothing passed: the verdict says so, marked bad, never "no inconsistency".
    await checkPage(pagePath, async page => {
      assert.equal(await page.locator('#verdict').innerText(), 'nothing checked');
      assert.equal(await page.locator('#verdict.bad').count(), 1);
      await page.screenshot({path: screenshot, fullPage: true});
    });
    return;
  }
  const first = summary.first_inconsistency;
  assert.ok(first, 'the test data must have an inconsistency');
  const rows = '#findings tbody tr';
  await checkPage(pagePath, async page => {
    assert.equal(await page.locator('#verdict').innerText(), `${summary.counts.inconsistencies} inconsistencies`);
    const top = await page.locator(rows).first().locator('td').allInnerTexts();
    assert.deepEqual(top.slice(0, 5), ['inconsistency', String(first.step), String(first.rank), first.api, first.name]);
    const total = summary.counts.inconsistencies + summary.counts.suspects;
    assert.equal(await page.locator('#shown').innerText(), `${total} of ${total} findings`);

    // Inconsistencies only.
    await page.selectOption('#kind', '0');
    await page.waitForFunction(n => document.querySelectorAll('#findings tbody tr').length === n, summary.counts.inconsistencies);
    for (const kind of await page.locator(`${rows} td:first-child`).allInnerTexts()) assert.equal(kind, 'inconsistency');

    // Back to all kinds, then one rank by its bar in the chart.
    await page.selectOption('#kind', '-1');
    assert.ok(await page.locator('#by-rank canvas').count() > 0, 'the chart is drawn');
    await page.fill('#ranks', String(first.rank));
    await page.waitForFunction(r => [...document.querySelectorAll('#findings tbody tr td:nth-child(3)')].every(td => td.innerText === r),
                               String(first.rank));
    assert.ok(await page.locator(rows).count() > 0, 'the rank has rows');
    await page.fill('#ranks', 'x');
    assert.ok(await page.locator('#ranks.bad').count() === 1, 'a bad rank list is marked');
    await page.screenshot({path: screenshot, fullPage: true});
  });
}

main().catch(e => { console.error(e); process.exit(1); });
