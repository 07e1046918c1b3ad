// End-to-end test of `flinch view` in a real browser (run by tests/view_e2e.rs): the system chromium in headless
// mode, driven by puppeteer-core over the DevTools protocol (no browser is downloaded). Loads the page, clicks
// the right forearm, waits for the hit event and the deviation in the plot data, saves a screenshot, then
// measures the click-to-frame latency and the render time with 10 characters. Prints one JSON object.
// With `skin` (a server started with a skinned rig, `--onto RIG.glb`): waits for the page to report the skinned
// mesh loaded, saves screenshots of the skin alone (SCREENSHOT), of the same view without the characters
// (SCREENSHOT with `_empty`) and of the skin with translucent capsules (`_both`), then measures the render time
// with 10 skinned characters in each draw mode.
//
// usage: node e2e.mjs URL SCREENSHOT.png [skin]
import puppeteer from 'puppeteer-core';

const [url, screenshot, mode] = process.argv.slice(2);
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const result = { ok: false, steps: [] };
const shotAs = (tag) => screenshot.replace(/\.png$/, `_${tag}.png`);

// Waits until every skinned character of the scene has its skin placed (or the page reports an error).
async function skinLoaded(page, count) {
  await page.waitForFunction((n) => {
    const s = window.flinchView.skin;
    return s.error || (s.expected >= n && s.loaded === s.expected && window.flinchView.ready);
  }, { timeout: 60000 }, count);
  const status = await page.evaluate(() => ({ ...window.flinchView.skin }));
  if (status.error) throw new Error(`skin: ${status.error}`);
  return status;
}

// The skinned run: the skin loaded, the screenshots, the render times of 10 skinned characters per draw mode.
async function skinRun(page) {
  result.skin = await skinLoaded(page, 1);
  result.steps.push('skin loaded');
  await page.waitForFunction(() => window.flinchView.time > 1.0, { timeout: 20000 });
  await page.evaluate(() => { window.flinchView.follow = false; window.flinchView.send({ type: 'pause' }); });
  await sleep(400);
  // The camera 10 m from a point 2 m above the root body (the robot's joints reach 3 m, its head 4.5 m).
  await page.evaluate(() => {
    const d = window.flinchView.view.drawing;
    const root = new d.camera.position.constructor().setFromMatrixPosition(d.characters[0].simFrames[0]);
    root.y += 2;
    d.camera.position.set(root.x + 7, root.y + 1.5, root.z + 7);
    d.controls.target.copy(root);
    d.controls.update();
    d.setGhost(false);
    window.flinchView.drawMode = 'skin';
  });
  await sleep(500);
  await page.screenshot({ path: screenshot });
  await page.evaluate(() => { const d = window.flinchView.view.drawing; d.skins.visible = false; d.needsRender = true; });
  await sleep(500);
  await page.screenshot({ path: shotAs('empty') });
  await page.evaluate(() => { window.flinchView.drawMode = 'both'; window.flinchView.view.drawing.setGhost(true); });
  await sleep(500);
  await page.screenshot({ path: shotAs('both') });
  result.steps.push('screenshots');

  await page.evaluate(() => window.flinchView.send({ type: 'play' }));
  for (let i = 0; i < 9; i++) await page.evaluate(() => window.flinchView.send({ type: 'add_character', clip: 0 }));
  await page.waitForFunction(() => window.flinchView.scene && window.flinchView.scene.characters.length === 10,
    { timeout: 30000 });
  result.skin10 = await skinLoaded(page, 10);
  await page.evaluate(() => { window.flinchView.follow = true; });
  // The draw modes in turn, three rounds of 2 s each (the machine's load drifts; each mode sees every phase).
  const samples = { both: [], skin: [], capsules: [] };
  for (let round = 0; round < 3; round++) {
    for (const m of Object.keys(samples)) {
      await page.evaluate((x) => { window.flinchView.drawMode = x; }, m);
      await sleep(300);
      await page.evaluate(() => { window.flinchView.syncTiming = true; window.flinchView.stats.frameMs.length = 0; });
      await sleep(2000);
      samples[m].push(...await page.evaluate(() => window.flinchView.stats.frameMs.slice()));
    }
  }
  result.frameMs = {};
  for (const [m, frames] of Object.entries(samples)) {
    frames.sort((a, b) => a - b);
    result.frameMs[m] = {
      median: frames.length ? frames[Math.floor(frames.length / 2)] : null,
      mean: frames.length ? frames.reduce((a, b) => a + b, 0) / frames.length : null,
      count: frames.length,
    };
  }
}

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
    '--ignore-gpu-blocklist', '--window-size=1280,720'],
});
try {
  const page = await browser.newPage();
  const consoleErrors = [];
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  await page.setViewport({ width: 1280, height: 720 });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => window.flinchView && window.flinchView.ready, { timeout: 30000 });
  result.steps.push('loaded');
  // The page turns multisampling off in a software WebGL (this one): say which way it went.
  result.antialias = await page.evaluate(() =>
    window.flinchView.view.drawing.renderer.getContext().getContextAttributes().antialias);
  if (mode === 'skin') {
    await skinRun(page);
  } else {
    // Let the page run 2 s: the server's timing of the steps with a page connected (against before it connected).
    await sleep(2000);
    await page.evaluate(() => window.flinchView.send({ type: 'stats' }));
    await page.waitForFunction(() => window.flinchView.serverStats, { timeout: 10000 });
    result.serverStats = await page.evaluate(() => window.flinchView.serverStats);

    // The hit: from the clip's start, at 0.9 s pause, look at the right forearm from the right, click it, play.
    const version = await page.evaluate(() => window.flinchView.scene.version);
    await page.evaluate(() => { window.flinchView.follow = false; window.flinchView.send({ type: 'restart' }); });
    await page.waitForFunction((v) => window.flinchView.ready && window.flinchView.scene.version > v
      && window.flinchView.time > 0.9, { timeout: 20000 }, version);
    await page.evaluate(() => window.flinchView.send({ type: 'pause' }));
    await sleep(300);
    await page.evaluate(() => window.flinchView.viewBone(0, 'RightForeArm'));
    await sleep(200);
    const point = await page.evaluate(() => window.flinchView.screenPoint(0, 'RightForeArm'));
    result.clickPoint = point;
    await page.mouse.click(point.x, point.y);
    await page.waitForFunction(() => window.flinchView.events.some((e) => e.kind === 'hit' && e.source === 'click')
      || window.flinchView.errors.length > 0, { timeout: 10000 });
    result.hitEvent = await page.evaluate(() => window.flinchView.events.find((e) => e.source === 'click') || null);
    result.errors = await page.evaluate(() => window.flinchView.errors.slice());
    await page.evaluate(() => window.flinchView.send({ type: 'play' }));
    await page.waitForFunction(() => window.flinchView.plot.peak >= 10, { timeout: 15000 }).catch(() => {});
    await sleep(100);
    result.peakDeviationDeg = await page.evaluate(() => window.flinchView.plot.peak);
    result.chain = await page.evaluate(() => window.flinchView.plot.chain);
    await page.screenshot({ path: screenshot });
    result.steps.push('screenshot');

    // Latency: clicks on the hips while the walk plays (the camera following), click to the first frame whose
    // step carried the impulse.
    await page.evaluate(() => { window.flinchView.follow = true; window.flinchView.send({ type: 'restart' }); });
    for (let i = 0; i < 6; i++) {
      await sleep(400);
      const p = await page.evaluate(() => window.flinchView.screenPoint(0, 'Hips'));
      const before = await page.evaluate(() => window.flinchView.stats.latencyMs.length);
      await page.mouse.click(p.x, p.y);
      await page.waitForFunction((n) => window.flinchView.stats.latencyMs.length > n, { timeout: 5000 }, before)
        .catch(() => {});
    }
    result.latencyMs = await page.evaluate(() => window.flinchView.stats.latencyMs.slice());
    result.arrivalMs = await page.evaluate(() => window.flinchView.stats.arrivalMs.slice());

    // Render time with 10 characters.
    for (let i = 0; i < 9; i++) await page.evaluate(() => window.flinchView.send({ type: 'add_character', clip: 0 }));
    await page.waitForFunction(() => window.flinchView.scene && window.flinchView.scene.characters.length === 10
      && window.flinchView.ready, { timeout: 30000 });
    await page.evaluate(() => { window.flinchView.syncTiming = true; window.flinchView.stats.frameMs.length = 0; });
    await sleep(3000);
    const frames = await page.evaluate(() => window.flinchView.stats.frameMs.slice());
    frames.sort((a, b) => a - b);
    result.frameMsMedian = frames.length ? frames[Math.floor(frames.length / 2)] : null;
    result.frameMsMean = frames.length ? frames.reduce((a, b) => a + b, 0) / frames.length : null;
    result.framesMeasured = frames.length;
  }
  result.consoleErrors = consoleErrors;
  result.ok = true;
} catch (e) {
  result.error = String(e && e.stack || e);
} finally {
  await browser.close();
}
console.log(JSON.stringify(result));
