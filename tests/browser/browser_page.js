// Opens one of our self-contained pages in Debian's Chromium, headless and offline, and hands it to a
// check; any console error or warning, page error, or request for anything but the page itself fails
// the check. Shared by report_page_check.js, trend_page_check.js and consistency_page_check.js.
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {pathToFileURL} = require('node:url');
const {chromium} = require('playwright-core');

// Runs `check(page)` on the page at `pagePath` once it says it is ready (body[data-ready]).
async function checkPage(pagePath, check) {
  const url = pathToFileURL(path.resolve(pagePath)).href;
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'report-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: {width: 1600, height: 1000},
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync'],
  });
  const problems = [];
  try {
    const page = context.pages()[0] || await context.newPage();
    page.on('console', m => { if (m.type() === 'error' || m.type() === 'warning') problems.push('console ' + m.type() + ': ' + m.text()); });
    page.on('pageerror', e => problems.push('page error: ' + e.message));
    await context.route('**/*', route => {
      if (route.request().url() === url) return route.continue();
      problems.push('request: ' + route.request().url());
      return route.abort();
    });
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]', {timeout: 60000});
    await check(page);
  } finally {
    await context.close();
    fs.rmSync(profile, {recursive: true, force: true});
  }
  assert.deepEqual(problems, [], 'the page logged errors or made requests');
  console.log('ok: ' + pagePath);
}

module.exports = {checkPage};
