/* Opens an interactive report in headless Chromium and prints how long the page took until
 * every chart was drawn (performance.now() when dashboard.js had drawn them: window.prDrawnMs), the number of
 * charts and the JS heap. usage: node bench/open_report.js REPORT.html (NODE_PATH: the
 * playwright-core of tests/browser, installed by make deps) */
'use strict';
const path = require('path');
const { chromium } = require('playwright-core');
(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto('file://' + path.resolve(process.argv[2]), { waitUntil: 'load' });
    await page.waitForFunction(() => window.prDrawnMs);
    runs.push(await page.evaluate(() => [window.prDrawnMs, Number(document.documentElement.getAttribute('data-charts'))]));
    await page.close();
  }
  const ms = runs.map((r) => r[0]).sort((a, b) => a - b);
  console.log(`opened in ${ms[1].toFixed(0)} ms (median of 3: ${ms.map((m) => m.toFixed(0)).join(', ')}), ${runs[0][1]} charts`);
  await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });
