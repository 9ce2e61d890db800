// Drives a page of another origin in Debian's Chromium, as
// cors_browser_test.go asks: the page's script calls the server's
// /graphql (a POST with a key: preflighted), /v1/accounts (a GET with a
// key: preflighted) and /openapi.json. From the origin serve
// --cors-origins names, all three answer; from any other, the browser
// refuses the page every answer. It waits on conditions only; the
// timeouts are failure guards.
//
// Environment: ALLOWED_PAGE, OTHER_PAGE (the two pages' URLs).
import assert from 'node:assert/strict';
import { env, launch } from './chromium.mjs';

const step = (message) => console.log(`cors: ${message}`);

const browser = await launch('cors');
const { context } = browser;

/** Opens a page and returns what its script recorded of each call. */
async function resultsOf(url) {
  const page = await context.newPage();
  await page.goto(url);
  await page.locator('body[data-done="true"]').waitFor({ state: 'attached' });
  const results = JSON.parse(await page.evaluate(() => document.body.dataset.results));
  await page.close();
  return Object.fromEntries(results.map((r) => [r.name, r]));
}

try {
  step('a page of the allowed origin calls the API');
  const allowed = await resultsOf(env('ALLOWED_PAGE'));
  assert.equal(allowed.graphql.ok, true, JSON.stringify(allowed.graphql));
  assert.equal(allowed.graphql.status, 200, JSON.stringify(allowed.graphql));
  assert.ok(Array.isArray(allowed.graphql.body.data.accounts.edges), JSON.stringify(allowed.graphql));
  assert.equal(allowed.rest.ok, true, JSON.stringify(allowed.rest));
  assert.equal(allowed.rest.status, 200, JSON.stringify(allowed.rest));
  assert.ok(Array.isArray(allowed.rest.body.data), JSON.stringify(allowed.rest));
  assert.equal(allowed.rest.requestId.startsWith('req_'), true, 'Request-Id is exposed to the page');
  assert.equal(allowed.openapi.ok, true, JSON.stringify(allowed.openapi));
  assert.equal(allowed.openapi.body.openapi.startsWith('3.1'), true);
  assert.equal(allowed.refused.ok, true, JSON.stringify(allowed.refused));
  assert.equal(allowed.refused.status, 401, 'a bad key reaches the page as the API answered it');

  step('a page of another origin is refused every answer');
  const other = await resultsOf(env('OTHER_PAGE'));
  for (const name of ['graphql', 'rest', 'openapi', 'refused']) {
    assert.equal(other[name].ok, false, `${name}: ${JSON.stringify(other[name])}`);
  }
  step('ok');
} finally {
  await browser.close();
}
