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

function chromiumPath() {
  const candidates = [process.env.MIAU_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
  const found = candidates.find((p) => fs.existsSync(p));
  assert.ok(found, `no Chromium at ${candidates.join(', ')}: apt-get install chromium (or set MIAU_CHROMIUM)`);
  return found;
}

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
