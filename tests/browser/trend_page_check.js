// Opens a trend page (msprobe-dump trend / data2db --html) in Debian's Chromium, headless and offline,
// and works it as an engineer would: the heat map drawn for the first rank, another statistic, a
// cell clicked into a line, the lines cleared, filtered by tag, module name, rank and step, the fixed
// dimension changed. Fails on any console error, page error or request (browser_page.js).
// Usage (tests/cli/trend_page_browser_test.sh runs it):
//   node trend_page_check.js PAGE.html ROWS SCREENSHOT.png
'use strict';
const assert = require('node:assert/strict');
const {checkPage} = require('./browser_page');

// The counts #heat-info reports: "<metric> <stat>: Y modules × X steps at <fixed>, N cells".
async function heatInfo(page) {
  const text = await page.locator('#heat-info').innerText();
  const m = /^(\S+) (\S+): (\d+) (\w+) × (\d+) (\w+) at (.*), (\d+) cells/.exec(text);
  assert.ok(m, `heat-info "${text}"`);
  return {metric: m[1], stat: m[2], y: Number(m[3]), yDim: m[4], x: Number(m[5]), xDim: m[6], fixed: m[7], cells: Number(m[8])};
}

async function select(page, id, value) {
  await page.selectOption('#' + id, value);
}

// Clicks the heat map's cell at category positions (x, y).
async function clickCell(page, x, y) {
  const [px, py] = await page.evaluate(([cx, cy]) =>
    echarts.getInstanceByDom(document.getElementById('heatmap')).convertToPixel({seriesIndex: 0}, [cx, cy]), [x, y]);
  const box = await page.locator('#heatmap').boundingBox();
  await page.mouse.click(box.x + px, box.y + py);
}

async function lineSeries(page) {
  return page.evaluate(() => echarts.getInstanceByDom(document.getElementById('line')).getOption().series.length);
}

async function main() {
  const [pagePath, rows, screenshot] = process.argv.slice(2);
  await checkPage(pagePath, async page => {
    assert.ok((await page.locator('#summary').innerText()).startsWith(`${rows} rows`), 'the summary counts every row');
    assert.ok(await page.locator('#heatmap canvas').count() > 0, 'the heat map is drawn');
    let info = await heatInfo(page);
    assert.equal(info.fixed, 'rank 0');
    assert.equal(info.xDim, 'steps');
    assert.ok(info.cells > 0 && info.cells <= info.x * info.y, `cells ${info.cells}`);

    // Another statistic of the same cells.
    const stats = await page.locator('#stat option').allInnerTexts();
    await select(page, 'stat', {label: stats[1]});
    info = await heatInfo(page);
    assert.equal(info.stat, stats[1]);

    // A cell clicked: its line along the ranks; a second one; cleared.
    await clickCell(page, 0, 0);
    await page.locator('#lines .line-chip').first().waitFor();
    assert.equal(await lineSeries(page), 1);
    await clickCell(page, 1, 0);
    await page.waitForFunction(() => document.querySelectorAll('#lines .line-chip').length === 2);
    assert.equal(await lineSeries(page), 2);
    await page.click('#clear-lines');
    assert.equal(await page.locator('#lines .line-chip').count(), 0);

    // Filtered by a tag, then by a module name nothing has.
    const all = info.y;
    const tags = await page.locator('#tag option').allInnerTexts();
    const layer = tags.findIndex(t => t.startsWith('layer: '));
    assert.ok(layer > 0, 'the metric has layer tags');
    await select(page, 'tag', {index: layer});
    info = await heatInfo(page);
    assert.ok(info.y > 0 && info.y < all, `tag ${tags[layer]}: ${info.y} of ${all} modules`);
    await select(page, 'tag', {index: 0});
    await page.fill('#module-filter', 'no module has this name');
    info = await heatInfo(page);
    assert.equal(info.y, 0);
    assert.equal(info.cells, 0);
    await page.fill('#module-filter', '');

    // Steps narrowed; then ranks × modules at one step, ranks narrowed; a click draws a line over steps.
    await page.fill('#step-from', '1');
    await page.fill('#step-to', '2');
    info = await heatInfo(page);
    assert.equal(info.x, 2);
    await page.fill('#step-from', '');
    await page.fill('#step-to', '');
    await select(page, 'fixed', 'step');
    info = await heatInfo(page);
    assert.equal(info.xDim, 'ranks');
    const ranks = info.x;
    assert.ok(ranks >= 2, 'the test data has several ranks');
    await page.fill('#rank-filter', '0-1');
    info = await heatInfo(page);
    assert.equal(info.x, 2);
    await page.fill('#rank-filter', '0-');
    assert.ok(await page.locator('#rank-filter.bad').count() === 1, 'a bad rank list is marked');
    await page.fill('#rank-filter', '');
    await clickCell(page, 0, 0);
    await page.locator('#lines .line-chip').first().waitFor();
    assert.ok((await page.locator('#lines').innerText()).includes('rank 0'));

    // Steps × ranks of one module; a click draws a line over the modules.
    await select(page, 'fixed', 'module');
    info = await heatInfo(page);
    assert.equal(info.yDim, 'ranks');
    assert.equal(info.y, ranks);
    await clickCell(page, 1, 0);
    await page.locator('#lines .line-chip').first().waitFor();
    assert.ok((await page.locator('#lines').innerText()).includes('step 1, rank 0'));
    await page.screenshot({path: screenshot, fullPage: true});
  });
}

main().catch(e => { console.error(e); process.exit(1); });
