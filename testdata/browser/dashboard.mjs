// Drives the reference dashboard in Debian's Chromium, as
// dashboard_browser_test.go asks: the page loads from the server alone,
// refuses a production key, shows the sample data `server seed` wrote and
// the account the test created through REST with its capabilities, and
// shows an event arrive live. It waits on conditions only; the timeouts
// are failure guards.
//
// Environment: SERVER_URL, SANDBOX_KEY, PRODUCTION_KEY, ACCOUNT_ID,
// ACCOUNT_NAME, TRANSFER_ID, SUBSCRIPTION_ID, INVOICE_ID, SEEDED (the
// seeded accounts, subscriptions with their invoices and transfers, each
// with its status, as JSON) and SEEDED_ACCOUNT (the seeded active
// account's capabilities, cards, transfers, payouts and subscriptions).
import assert from 'node:assert/strict';
import { env, launch } from './chromium.mjs';

const server = new URL(env('SERVER_URL'));
const sandboxKey = env('SANDBOX_KEY');
const productionKey = env('PRODUCTION_KEY');
const accountId = env('ACCOUNT_ID');
const accountName = env('ACCOUNT_NAME');
const transferId = env('TRANSFER_ID');
const subscriptionId = env('SUBSCRIPTION_ID');
const invoiceId = env('INVOICE_ID');
const seeded = JSON.parse(env('SEEDED'));
const seededAccount = JSON.parse(env('SEEDED_ACCOUNT'));

// Failure guards for the stream (chromium.mjs's GUARD bounds the rest):
// generous for a loaded two-core machine, never waited out when things
// work.
const EVENT_GUARD = 10_000;
const EVENT_ATTEMPTS = 12;

const step = (message) => console.log(`dashboard: ${message}`);

const browser = await launch('dashboard');
const { context } = browser;

try {
  const page = await context.newPage();

  // Every request goes through here: the server's own go on, any other
  // origin is refused and recorded (so is a websocket to another host).
  const foreign = [];
  const graphqlRequests = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.origin !== server.origin) {
      foreign.push(url.href);
      return route.abort('blockedbyclient');
    }
    if (url.pathname === '/graphql') graphqlRequests.push(route.request().headers().authorization ?? '');
    return route.continue();
  });
  await context.routeWebSocket(() => true, (ws) => {
    const url = new URL(ws.url());
    if (url.host !== server.host) {
      foreign.push(url.href);
      return ws.close();
    }
    ws.connectToServer();
  });
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });

  step('opening /dashboard');
  await page.goto(new URL('/dashboard', server).href);
  const keyInput = page.locator('#key');
  await keyInput.waitFor({ state: 'visible' });

  step('a production key is refused before it is sent anywhere');
  await keyInput.fill(productionKey);
  await page.locator('#key-form button[type=submit]').click();
  await page.locator('#key-error', { hasText: 'Only sandbox secret keys' }).waitFor();
  assert.ok(await page.locator('#main').isHidden(), 'the panels stay hidden for a production key');
  assert.deepEqual(graphqlRequests, [], 'no request carried the production key');

  step('a sandbox key opens the panels');
  await keyInput.fill(sandboxKey);
  await page.locator('#key-form button[type=submit]').click();
  const account = page.locator(`#accounts li[data-account-id="${accountId}"]`);
  await account.locator('.name', { hasText: accountName }).waitFor();
  await account.locator('li[data-capability="kyc"] .status').waitFor();
  const capabilities = await account.locator('ul.capabilities > li').allTextContents();
  assert.ok(capabilities.length > 0, 'the account shows its capabilities');
  assert.ok(capabilities.some((c) => /^kyc (pending|active|unrequested|disabled)$/.test(c)), capabilities.join(', '));
  await page.locator(`#transfers li[data-transfer-id="${transferId}"]`, { hasText: 'succeeded' }).waitFor();
  const subscription = page.locator(`#subscriptions li[data-subscription-id="${subscriptionId}"]`, { hasText: 'Pro plan' });
  await subscription.locator(`li[data-invoice-id="${invoiceId}"]`).waitFor();
  assert.equal(await page.evaluate(() => sessionStorage.getItem('dashboard.sandboxSecretKey')), sandboxKey,
    'the key is kept in sessionStorage');
  assert.ok(graphqlRequests.every((h) => h === `Bearer ${sandboxKey}`), 'every query carried the sandbox key');

  step(`the sample data: ${seeded.accounts.length} accounts, ${seeded.subscriptions.length} subscriptions, ${seeded.transfers.length} transfers`);
  for (const a of seeded.accounts) {
    await page.locator(`#accounts li[data-account-id="${a.id}"] > .row .status`, { hasText: exactly(a.status) }).waitFor();
  }
  for (const s of seeded.subscriptions) {
    const item = page.locator(`#subscriptions li[data-subscription-id="${s.id}"]`);
    await item.locator('> .row .status', { hasText: exactly(s.status) }).waitFor();
    const shown = await item.locator('ul.invoices > li').evaluateAll((lis) => lis.map((li) => li.dataset.invoiceId));
    assert.equal(shown.length, Math.min(3, s.invoices.length), `subscription ${s.id} shows its newest invoices`);
    assert.ok(shown.every((id) => s.invoices.includes(id)), `subscription ${s.id} shows only its own invoices`);
  }

  step(`the operator's panels: ${seeded.failed.length} failed payments, ${seeded.disputes.length} disputes awaiting a response, ${seeded.refunds.length} refunds, ${seeded.payouts.length} payouts`);
  await page.locator('#balance li[data-balance="available"]').waitFor();
  for (const d of seeded.disputes) {
    await page.locator(`#disputes li[data-dispute-id="${d.id}"] > .row .status`, { hasText: exactly(d.status) }).waitFor();
  }
  for (const f of seeded.failed) {
    await page.locator(`#failed-payments li[data-transfer-id="${f.id}"]`).waitFor();
  }
  for (const r of seeded.refunds) {
    await page.locator(`#refunds li[data-refund-id="${r.id}"] > .row .status`, { hasText: exactly(r.status) }).waitFor();
  }
  for (const p of seeded.payouts) {
    await page.locator(`#payouts li[data-payout-id="${p.id}"] > .row .status`, { hasText: exactly(p.status) }).waitFor();
  }
  await page.locator('#volume svg g[data-day]').first().waitFor();
  const failedInChart = await page.locator('#volume svg g[data-day]')
    .evaluateAll((gs) => gs.reduce((sum, g) => sum + Number(g.dataset.failed), 0));
  assert.equal(failedInChart, seeded.failed.length, 'the chart counts the seeded failures');

  step('the events panel opens with the newest events');
  await page.locator('#events[data-recent="loaded"] li[data-event-id]').first().waitFor();

  step('the next page of transfers');
  const firstPage = await page.locator('#transfers ul.items > li').count();
  if (seeded.transfers.length + 1 > firstPage) {
    await page.locator('#transfers button.more').click();
    await page.waitForFunction((n) => document.querySelectorAll('#transfers ul.items > li').length > n, firstPage);
  }
  for (const t of seeded.transfers) {
    await page.locator(`#transfers li[data-transfer-id="${t.id}"] > .row .status`, { hasText: exactly(t.status) }).first().waitFor();
  }
  const refundedBadges = await page.locator('#transfers .status-refunded').count();
  assert.ok(refundedBadges > 0, 'a refunded transfer says so, beside its status');

  await accountPage(page);

  step('the key survives a reload of the tab');
  await page.reload();
  await account.locator('.name', { hasText: accountName }).waitFor();

  // The server registers a subscription a moment after the client sent it,
  // and streams what commits after that: an account created too early is
  // not streamed, so accounts are created until one appears; every one
  // after the first that appears would too.
  step('waiting for the event stream');
  await page.locator('#stream-status[data-state="live"]').waitFor();
  let created;
  for (let attempt = 1; ; attempt++) {
    assert.ok(attempt <= EVENT_ATTEMPTS, 'no event reached the stream panel');
    created = await createAccount(`Live ${attempt}`);
    const shown = page.locator(`#events li[data-event-type="account.created"][data-object-id="${created.id}"]`);
    try {
      await shown.waitFor({ timeout: EVENT_GUARD });
      break;
    } catch {
      step(`account ${attempt} was not streamed yet; creating another`);
    }
  }
  step('an account created through REST appeared in the stream; the accounts panel follows');
  await page.locator(`#accounts li[data-account-id="${created.id}"] .name`, { hasText: created.name }).waitFor();

  assert.deepEqual(foreign, [], 'the page requested nothing beyond the server');
  assert.deepEqual(problems, [], 'the page ran without errors');
  step('ok');
} finally {
  await browser.close();
}

/**
 * Opens the seeded active account's page from the accounts panel, checks
 * each panel shows what REST lists for the account (pages beyond the
 * first included), and comes back with the page's link and with the
 * browser's back button.
 */
async function accountPage(page) {
  const a = seededAccount;
  step(`the account page of ${a.id}: ${a.capabilities.length} capabilities, ${a.payment_methods.length} payment methods, ${a.transfers.length} transfers, ${a.payouts.length} payouts, ${a.subscriptions.length} subscriptions`);
  const open = async () => {
    await page.locator(`#accounts li[data-account-id="${a.id}"] .name a`).click();
    await page.locator(`#account-page[data-state="loaded"][data-account-id="${a.id}"]`).waitFor();
    assert.equal(new URL(page.url()).hash, `#account/${a.id}`);
    assert.ok(await page.locator('#main').isHidden(), 'the overview gives way to the account page');
  };
  await open();
  await page.locator('#account-profile .status', { hasText: exactly(a.status) }).waitFor();
  assert.equal(await page.locator('#account-title').textContent(), 'Ada Lovelace');
  for (const c of a.capabilities) {
    await page.locator(`#account-capabilities li[data-capability="${c.id}"] .status`, { hasText: exactly(c.status) }).waitFor();
  }
  await page.locator('#account-steps li[data-step]').first().waitFor();
  for (const m of a.payment_methods) {
    await page.locator(`#account-payment-methods li[data-payment-method-id="${m.id}"] .status`, { hasText: exactly(m.status) }).waitFor();
  }
  assert.equal(await page.locator('#account-payment-methods li[data-payment-method-id]').count(), a.payment_methods.length);
  // The seed links no bank account and subscribes no account: the panels say so.
  await page.locator('#account-bank-accounts li.empty', { hasText: 'No bank account linked.' }).waitFor();
  await page.locator('#account-subscriptions li.empty', { hasText: 'No subscriptions' }).waitFor();
  assert.equal(a.subscriptions.length, 0);

  for (const [panel, objects, attribute] of [['transfers', a.transfers, 'data-transfer-id'], ['payouts', a.payouts, 'data-payout-id']]) {
    const more = page.locator(`#account-${panel} button.more`);
    while (await page.locator(`#account-${panel} li[${attribute}]`).count() < objects.length) {
      const shown = await page.locator(`#account-${panel} li[${attribute}]`).count();
      await more.click();
      await page.waitForFunction(([selector, n]) => document.querySelectorAll(selector).length > n,
        [`#account-${panel} li[${attribute}]`, shown]);
    }
    assert.ok(await more.isHidden(), `${panel}: no page after the last`);
    const ids = await page.locator(`#account-${panel} li[${attribute}]`).evaluateAll((lis, attr) => lis.map((li) => li.getAttribute(attr)), attribute);
    assert.deepEqual(ids, objects.map((o) => o.id), `${panel}: the account's own, newest first, as REST lists them`);
    for (const o of objects) {
      await page.locator(`#account-${panel} li[${attribute}="${o.id}"] .status`, { hasText: exactly(o.status) }).waitFor();
    }
  }

  const events = page.locator('#account-events');
  while (!(await events.locator('li[data-event-type="account.created"]').count())) {
    assert.ok(await events.locator('button.more').isVisible(), 'the account.created event is on some page');
    const shown = await events.locator('li[data-event-id]').count();
    await events.locator('button.more').click();
    await page.waitForFunction((n) => document.querySelectorAll('#account-events li[data-event-id]').length > n, shown);
  }

  step('back to the overview with the page\'s link, then with the browser\'s back button');
  await page.locator('#back').click();
  await page.locator('#main').waitFor({ state: 'visible' });
  assert.ok(await page.locator('#account-page').isHidden());
  await open();
  await page.goBack();
  await page.locator('#main').waitFor({ state: 'visible' });
  assert.ok(await page.locator('#account-page').isHidden());
  await page.locator(`#accounts li[data-account-id="${a.id}"]`).waitFor();
}

/** Creates an individual account through REST, as an integration would. */
async function createAccount(lastName) {
  const response = await fetch(new URL('/v1/accounts', server), {
    method: 'POST',
    headers: { Authorization: `Bearer ${sandboxKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ type: 'individual', profile: { individual: { name: { first_name: 'Stream', last_name: lastName } } } }),
  });
  const body = await response.json();
  assert.equal(response.status, 201, JSON.stringify(body));
  return { id: body.id, name: `Stream ${lastName}` };
}

/** A text matcher for the whole of an element's text, not a part of it. */
function exactly(text) {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}
