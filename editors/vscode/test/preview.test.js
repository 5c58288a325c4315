// The level preview's webview, standalone in headless Chromium: it draws a
// level from a recorded `miau/level` response and answers keys with the
// states the server returned for them (fixtures/preview-door-stop.json,
// recorded from the real server and kept true by tests/lsp_preview.rs).
// A screenshot of each step is written to target/vscode-preview/.
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const root = path.join(__dirname, '..');
const fixture = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'preview-door-stop.json'), 'utf8'));
const out = path.join(root, '..', '..', 'target', 'vscode-preview');

/** Browser names looked up on `PATH` when `MIAU_CHROMIUM` is not set. */
const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/**
 * The Chromium the test drives: `$MIAU_CHROMIUM`, else the first of
 * `CHROMIUM_NAMES` on `PATH`. Throws, saying how to get one, when there is
 * none: the test needs a browser and fails (never skips) without it.
 */
function chromiumPath(env = process.env) {
  const how =
    'The preview test draws the webview in a headless Chromium. Install it with ' +
    '`apt-get install chromium` (Debian, Ubuntu; .ci/run does this), or set MIAU_CHROMIUM ' +
    'to the path of a Chromium or Chrome binary.';
  if (env.MIAU_CHROMIUM) {
    if (fs.existsSync(env.MIAU_CHROMIUM)) return env.MIAU_CHROMIUM;
    throw new Error(`MIAU_CHROMIUM is ${env.MIAU_CHROMIUM}, which does not exist. ${how}`);
  }
  const dirs = (env.PATH || '').split(path.delimiter).filter(Boolean);
  for (const name of CHROMIUM_NAMES) {
    for (const dir of dirs) {
      const file = path.join(dir, name);
      if (fs.existsSync(file)) return file;
    }
  }
  throw new Error(`No Chromium found (looked for ${CHROMIUM_NAMES.join(', ')} on PATH). ${how}`);
}

test('a missing Chromium is reported with how to install it or point at one', () => {
  const empty = fs.mkdtempSync(path.join(require('os').tmpdir(), 'miau-no-chromium-'));
  assert.throws(() => chromiumPath({ PATH: empty }), (e) =>
    /No Chromium found/.test(e.message) && /apt-get install chromium/.test(e.message) && /MIAU_CHROMIUM/.test(e.message));
  assert.throws(() => chromiumPath({ PATH: empty, MIAU_CHROMIUM: path.join(empty, 'chrome') }), (e) =>
    /MIAU_CHROMIUM is .*chrome, which does not exist/.test(e.message) && /apt-get install chromium/.test(e.message));
  const fake = path.join(empty, 'chromium');
  fs.writeFileSync(fake, '');
  assert.strictEqual(chromiumPath({ PATH: empty }), fake);
});

/** The webview page as the extension builds it, with a stand-in for VS Code's API. */
function page() {
  const template = fs.readFileSync(path.join(root, 'media', 'preview.html'), 'utf8');
  const script = `file://${path.join(root, 'media', 'preview.js')}`;
  const csp = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'nonce-test' 'unsafe-inline' file:";
  const stub = '<script nonce="test">window.acquireVsCodeApi = () => ({ postMessage: (m) => window.miauPost(m), getState: () => undefined, setState: () => {} });</script>';
  return template.replace('{{csp}}', csp).replace('{{nonce}}', 'test').replace('{{script}}', script)
    .replace('<script nonce', `${stub}\n<script nonce`);
}

test('the preview draws the server\'s SVG and plays with the keyboard', async () => {
  fs.mkdirSync(out, { recursive: true });
  const htmlPath = path.join(out, 'preview.html');
  fs.writeFileSync(htmlPath, page());
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--allow-file-access-from-files'] });
  try {
    const tab = await browser.newPage({ viewport: { width: 1000, height: 620 } });
    const posted = [];
    let route = '';
    const [reset, ...steps] = fixture.exchanges;
    // The extension's part: answer each message with the recorded response.
    await tab.exposeFunction('miauPost', async (m) => {
      posted.push(m);
      let view = null;
      if (m.type === 'ready') view = reset.view;
      if (m.type === 'step') {
        const e = steps.find((x) => x.route === route && x.action === m.action);
        assert.ok(e, `no recorded answer to ${m.action} after "${route}"`);
        view = e.view;
      }
      if (view) {
        route = view.route;
        await tab.evaluate((v) => window.postMessage({ type: 'view', view: v }, '*'), view);
      }
    });
    await tab.goto(`file://${htmlPath}`);
    await tab.waitForFunction(() => document.body.dataset.turn === '0');
    assert.strictEqual(await tab.locator('#board svg').count(), 1);
    assert.strictEqual(await tab.locator('#board svg').getAttribute('width'), /width="(\d+)"/.exec(reset.view.svg)[1]);
    assert.match(await tab.locator('#status').textContent(), /Door stop: turn 0/);
    const tiles = await tab.locator('#board svg text').allTextContents();
    for (const w of ['MIAU', 'IS', 'YOU', 'TRUCK', 'WIN']) assert.ok(tiles.includes(w), `tile ${w}`);
    // The cat is a Twemoji symbol, drawn (it has pixels), not a font glyph.
    const box = await tab.locator('#board svg use').first().boundingBox();
    assert.ok(box && box.width > 30, 'a glyph is drawn');
    await tab.screenshot({ path: path.join(out, 'preview-reset.png') });

    const press = async (key, turn, shot) => {
      await tab.keyboard.press(key);
      await tab.waitForFunction((t) => document.body.dataset.turn === String(t), turn);
      if (shot) await tab.screenshot({ path: path.join(out, shot) });
    };
    await press('ArrowLeft', 1);
    assert.ok((await tab.locator('#board svg text').allTextContents()).includes('turn 1'), 'the board is the turn-1 picture');
    assert.match(await tab.locator('#status').textContent(), /turn 1 · L/);
    await press('ArrowUp', 2, 'preview-turn-2.png');
    await tab.keyboard.press('ArrowLeft');
    await tab.waitForFunction(() => document.getElementById('message').textContent !== '');
    assert.strictEqual(await tab.locator('#message').textContent(), 'MIAU at column 1, row 5 was blocked by WALL');
    assert.strictEqual(await tab.evaluate(() => document.body.dataset.turn), '2');
    await press('z', 1);
    assert.strictEqual(await tab.locator('#message').textContent(), 'undone');
    await press('r', 0);
    assert.deepStrictEqual(posted.map((m) => m.action || m.type), ['ready', 'L', 'U', 'L', 'undo', 'restart']);
    // What is on screen is the server's picture, byte for byte.
    const drawn = await tab.evaluate(() => new XMLSerializer().serializeToString(document.querySelector('#board svg')));
    assert.ok(drawn.includes('Door stop'));
    await tab.screenshot({ path: path.join(out, 'preview.png') });
    assert.ok(fs.statSync(path.join(out, 'preview.png')).size > 10000, 'the screenshot has content');
  } finally {
    await browser.close();
  }
});
