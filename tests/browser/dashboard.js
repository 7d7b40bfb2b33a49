/* Drives headless Chromium (no network) over an interactive report (render --template
 * report.html): zooms a time chart and checks every other time chart follows, hovers a point
 * and reads its value in the legend, toggles a series, clicks a finding's link and checks the
 * charts zoom to its moment, prints to PDF, takes light and dark screenshots, and fails on any
 * console error or page error. usage: node dashboard.js REPORT.html OUTDIR [PAGE_FROM_MD.html]
 * Prints one "ok ..." or "FAIL ..." line per check; exits 1 when one failed. */
'use strict';
const path = require('path');
const { chromium } = require('playwright-core');

const [report, outdir, fromMd] = process.argv.slice(2);
let failed = 0;
function check(ok, what) {
  console.log((ok ? 'ok   ' : 'FAIL ') + what);
  if (!ok) failed++;
}

async function open(browser, file, errors) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) errors.push('network: ' + r.url()); });
  const t0 = Date.now();
  await page.goto('file://' + path.resolve(file), { waitUntil: 'load' });
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-charts'));
  return { page, ms: Date.now() - t0 };
}

/* x range of every time chart: [kind, min, max] */
function ranges(page) {
  return page.evaluate(() => window.prDashboard.charts().filter((c) => c.time)
    .map((c) => [c.el.getAttribute('data-kind'), c.u.scales.x.min, c.u.scales.x.max]));
}

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--host-resolver-rules=MAP * ~NOTFOUND'],
  });
  const errors = [];
  const { page, ms } = await open(browser, report, errors);
  const n = Number(await page.getAttribute('html', 'data-charts'));
  check(n >= 10, `report.html draws ${n} interactive charts (loaded in ${ms} ms)`);

  /* zoom: drag across the middle of the first latency chart */
  const lat = page.locator('.pr-chart[data-kind="latency"] .u-over').first();
  await lat.scrollIntoViewIfNeeded();
  const box = await lat.boundingBox();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  const after = await ranges(page);
  const [, zmin, zmax] = after[0];
  const full = await page.evaluate(() => window.prDashboard.charts()[0].full);
  const narrowed = zmax - zmin < 0.5 * (full[1] - full[0]);
  const follow = after.every(([, a, b]) => Math.abs(a - zmin) < 1e-6 && Math.abs(b - zmax) < 1e-6);
  check(narrowed && follow, `zoom to ${zmin.toFixed(2)}..${zmax.toFixed(2)} s: all ${after.length} time charts follow`);

  /* hover: the legend shows the value of the hovered interval */
  const pct = page.locator('.pr-chart[data-kind="percentiles"]').first();
  await pct.scrollIntoViewIfNeeded();
  const pbox = await pct.locator('.u-over').boundingBox();
  await page.mouse.move(pbox.x + pbox.width * 0.5, pbox.y + pbox.height * 0.5);
  const shown = await pct.locator('.u-legend .u-series').nth(1).locator('.u-value').textContent();
  const expect = await page.evaluate(() => {
    const c = window.prDashboard.charts().find((x) => x.el.getAttribute('data-kind') === 'percentiles');
    const i = c.u.cursor.idx;
    return i == null ? null : c.u.data[1][i];
  });
  check(expect != null && /\d/.test(shown) && shown.length > 0,
    `hover shows p50 = ${shown.trim()} (data ${expect} ms)`);

  /* toggle: clicking a legend entry hides that series, clicking again shows it */
  const entry = pct.locator('.u-legend .u-series').nth(3);
  const label = (await entry.locator('.u-label').textContent()).trim();
  const shownState = () => page.evaluate(() => window.prDashboard.charts()
    .find((x) => x.el.getAttribute('data-kind') === 'percentiles').u.series[3].show);
  const before = await shownState();
  await entry.click();
  const hidden = await shownState();
  await entry.click();
  const back = await shownState();
  check(before === true && hidden === false && back === true, `legend toggles series '${label}'`);

  /* a finding's link zooms the charts to its moment */
  const link = page.locator('a.zoom').first();
  if (await link.count()) {
    const href = await link.getAttribute('href');
    await page.evaluate(() => window.prDashboard.reset());
    await link.click();
    const r = await ranges(page);
    const want = await page.evaluate((h) => {
      const m = h.match(/^#finding-(\d+)-(\d+)$/);
      const d = JSON.parse(document.getElementById('pr-data').textContent);
      const run = d.runs.find((x) => String(x.id) === m[1]);
      return run.findings.find((f) => String(f.index) === m[2]);
    }, href);
    check(r.every(([, a, b]) => Math.abs(a - want.from) < 1e-6 && Math.abs(b - want.to) < 1e-6),
      `finding link ${href} zooms every time chart to ${want.from.toFixed(2)}..${want.to.toFixed(2)} s`);
  } else {
    check(false, 'a finding with a moment links to the charts');
  }

  /* light and dark screenshots, then print */
  await page.evaluate(() => window.prDashboard.reset());
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(outdir, 'light.png') });
  const lat0 = await page.locator('.pr-chart[data-kind="latency"]').first();
  await lat0.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(outdir, 'light-charts.png') });
  await page.click('#pr-theme');
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  check(bg !== 'rgb(255, 255, 255)', `dark theme: page background ${bg}`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(outdir, 'dark.png') });
  await lat0.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(outdir, 'dark-charts.png') });
  await page.click('#pr-theme');
  await page.emulateMedia({ media: 'print' });
  const pdf = await page.pdf({ path: path.join(outdir, 'report.pdf'), format: 'A4' });
  check(pdf.length > 10000 && pdf.slice(0, 5).toString() === '%PDF-', `print to PDF: ${pdf.length} bytes`);
  await page.close();

  /* a page made from a Markdown template gets the interactive charts in place of its images */
  if (fromMd) {
    const o = await open(browser, fromMd, errors);
    const m = Number(await o.page.getAttribute('html', 'data-charts'));
    const imgs = await o.page.locator('img[src*="#pr-chart="]').count();
    check(m >= 3, `page from report.md: ${m} interactive charts, ${imgs} chart images left`);
    await o.page.close();
  }
  check(errors.length === 0, `no console error, page error or network request${errors.length ? ': ' + errors.join(' | ') : ''}`);
  await browser.close();
}

main().then(() => process.exit(failed ? 1 : 0), (e) => { console.log('FAIL ' + e.stack); process.exit(1); });
