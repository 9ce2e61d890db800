// The reference dashboard: what an operator looks at first (the balance,
// volume and failures over time, disputes awaiting a response, failed
// payments, refunds, payouts), then accounts, subscriptions and transfers,
// each panel filled by one GraphQL request, and the events: the newest on
// open, then live; an account's name opens its page (account.js). Read it
// top to bottom: the queries, the key, the panels, the pages, the stream.
// Everything is built with DOM calls (view.js, never innerHTML), so names
// and descriptions from the API are shown as text.
import { showAccountPage } from './account.js';
import { GraphQLError, query, subscribe } from './graphql.js';
import { $, accountName, el, money, status, when } from './view.js';

// ---- The queries: one per panel, each asking for exactly what it shows.

const ACCOUNT_NAME = `
  fragment AccountName on Account {
    id
    profile {
      individual { name { firstName lastName } }
      business { legalBusinessName doingBusinessAs }
    }
  }`;

const ACCOUNTS = `
  query DashboardAccounts($after: String) {
    accounts(first: 20, after: $after, filter: {includeDisabled: true}) {
      edges { node { ...AccountName type status created capabilities { name status } } }
      pageInfo { hasNextPage endCursor }
    }
  }
  ${ACCOUNT_NAME}`;

const SUBSCRIPTIONS = `
  query DashboardSubscriptions {
    subscriptions(first: 10) {
      edges { node {
        id status currency effectiveAmount currentPeriodEnd
        product { name }
        customer { name email }
        account { ...AccountName }
        invoices(first: 3) { edges { node { id invoiceNumber status total currency dueDate } } }
      } }
    }
  }
  ${ACCOUNT_NAME}`;

const TRANSFERS = `
  query DashboardTransfers($after: String) {
    transfers(first: 20, after: $after) {
      edges { node { id status amount currency description created account { ...AccountName }
        refunds { id amount status } disputes { id status } } }
      pageInfo { hasNextPage endCursor }
    }
  }
  ${ACCOUNT_NAME}`;

const BALANCE = `
  query DashboardBalance {
    merchantBalance { currency instantPayoutBalance availableForPayout reservedAmount pendingPayouts }
  }`;

const VOLUME = `
  query DashboardVolume {
    transfers(first: 100) { edges { node { id status amount currency created } } }
  }`;

const DISPUTES = `
  query DashboardDisputes {
    disputes(first: 100) {
      edges { node { id status displayStatus amountCents amountCurrency created reason { code } account { ...AccountName } } }
    }
  }
  ${ACCOUNT_NAME}`;

const FAILED_PAYMENTS = `
  query DashboardFailedPayments {
    transfers(first: 20, filter: {status: FAILED}) {
      edges { node { id amount currency failureCode failureMessage created account { ...AccountName } } }
    }
  }
  ${ACCOUNT_NAME}`;

const REFUNDS = `
  query DashboardRefunds {
    refunds(first: 20) { edges { node { id status amount currency reason created } } }
  }`;

const PAYOUTS = `
  query DashboardPayouts {
    payouts(first: 20) { edges { node { id status amount currency speed created account { ...AccountName } } } }
  }
  ${ACCOUNT_NAME}`;

const RECENT_EVENTS = `
  query DashboardRecentEvents {
    events(first: 20) { edges { node { id type created data } } }
  }`;

const EVENTS = `
  subscription DashboardEvents {
    events { id type created data }
  }`;

// ---- The key: sandbox secret keys only, kept for this tab alone.

const KEY_STORAGE = 'dashboard.sandboxSecretKey';
const SANDBOX_KEY = /^sk_sandbox_[A-Za-z0-9]+$/;

function showKeyForm(message) {
  $('#main').hidden = true;
  $('#account-page').hidden = true;
  $('#key-form').hidden = false;
  $('#key-error').textContent = message ?? '';
}

function signIn(key) {
  if (!SANDBOX_KEY.test(key)) {
    showKeyForm('Only sandbox secret keys (sk_sandbox_…) open the dashboard: it is a development tool.');
    return;
  }
  sessionStorage.setItem(KEY_STORAGE, key);
  $('#key-form').hidden = true;
  start(key);
}

function signOut() {
  sessionStorage.removeItem(KEY_STORAGE);
  location.reload();
}

// ---- The panels.

// A transfer's state as an operator reads it: its status, and whether
// its charge was refunded (in part or whole) or disputed since, which its
// status alone does not say.
function transferBadges(t) {
  const badges = [status(t.status)];
  const refunded = (t.refunds ?? []).filter((r) => r.status !== 'FAILED' && r.status !== 'CANCELED')
    .reduce((sum, r) => sum + r.amount, 0);
  if (refunded > 0) {
    badges.push(el('span', { class: 'status status-refunded', 'data-refunded': String(refunded) },
      refunded >= t.amount ? 'refunded' : `partly refunded (${money(refunded, t.currency)})`));
  }
  if ((t.disputes ?? []).length > 0) {
    badges.push(el('span', { class: 'status status-disputed' }, `disputed: ${t.disputes[0].status.toLowerCase().replaceAll('_', ' ')}`));
  }
  return badges;
}

const AWAITING_RESPONSE = new Set(['NEEDS_RESPONSE', 'WARNING_NEEDS_RESPONSE']);

// The volume chart: per day, the amount of succeeded transfers (one bar)
// and the number that failed (a second, red bar, on its own scale).
function volumeChart(transfers) {
  const days = new Map();
  for (const t of transfers) {
    const day = t.created.slice(0, 10);
    const d = days.get(day) ?? { day, volume: 0, failed: 0, currency: t.currency };
    if (t.status === 'SUCCEEDED') d.volume += t.amount;
    if (t.status === 'FAILED') d.failed += 1;
    days.set(day, d);
  }
  const rows = [...days.values()].sort((a, b) => a.day.localeCompare(b.day)).slice(-14);
  if (!rows.length) return [el('p', { class: 'empty muted' }, 'No transfers yet.')];
  const svgNS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(svgNS, 'svg');
  const width = 28 * rows.length, height = 120;
  svg.setAttribute('viewBox', `0 0 ${width} ${height + 20}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'Volume and failed transfers by day');
  const maxVolume = Math.max(1, ...rows.map((r) => r.volume));
  const maxFailed = Math.max(1, ...rows.map((r) => r.failed));
  rows.forEach((r, i) => {
    const bar = (x, h, cls, title) => {
      const rect = document.createElementNS(svgNS, 'rect');
      for (const [k, v] of Object.entries({ x, y: height - h, width: 11, height: Math.max(h, 0.5), class: cls })) rect.setAttribute(k, v);
      const t = document.createElementNS(svgNS, 'title');
      t.textContent = title;
      rect.append(t);
      return rect;
    };
    const g = document.createElementNS(svgNS, 'g');
    g.setAttribute('data-day', r.day);
    g.setAttribute('data-volume', String(r.volume));
    g.setAttribute('data-failed', String(r.failed));
    g.append(bar(i * 28 + 2, (r.volume / maxVolume) * height, 'volume', `${r.day}: ${money(r.volume, r.currency)} succeeded`),
      bar(i * 28 + 14, (r.failed / maxFailed) * height * 0.6, 'failed', `${r.day}: ${r.failed} failed`));
    const label = document.createElementNS(svgNS, 'text');
    label.setAttribute('x', String(i * 28 + 2));
    label.setAttribute('y', String(height + 14));
    label.textContent = r.day.slice(5);
    g.append(label);
    svg.append(g);
  });
  return [svg, el('p', { class: 'muted legend' }, 'Grey: amount succeeded; red: transfers failed.')];
}

const panels = {
  balance: {
    document: BALANCE,
    render: ({ merchantBalance: b }) => [
      el('li', { 'data-balance': 'available' }, el('strong', {}, money(b.availableForPayout, b.currency)), ' available for payouts'),
      el('li', {}, money(b.instantPayoutBalance, b.currency), ' instant-payout balance'),
      el('li', {}, money(b.reservedAmount, b.currency), ' reserved, ', money(b.pendingPayouts, b.currency), ' in pending payouts')],
  },
  volume: {
    document: VOLUME,
    target: '.chart',
    render: (data) => volumeChart(data.transfers.edges.map(({ node }) => node)),
  },
  disputes: {
    document: DISPUTES,
    render: (data) => data.disputes.edges.map(({ node }) => node).filter((d) => AWAITING_RESPONSE.has(d.status)).map((d) =>
      el('li', { 'data-dispute-id': d.id },
        el('div', { class: 'row' }, el('strong', {}, money(d.amountCents, d.amountCurrency)), status(d.status),
          el('span', {}, accountName(d.account)), el('span', { class: 'muted' }, when(d.created))),
        el('div', { class: 'muted' }, `${d.displayStatus}; reason ${d.reason?.code ?? 'not reported yet'}`))),
  },
  'failed-payments': {
    document: FAILED_PAYMENTS,
    render: (data) => data.transfers.edges.map(({ node: t }) =>
      el('li', { 'data-transfer-id': t.id },
        el('div', { class: 'row' }, el('strong', {}, money(t.amount, t.currency)), status('failed'),
          el('span', {}, accountName(t.account)), el('span', { class: 'muted' }, when(t.created))),
        el('div', { class: 'muted' }, [t.failureCode, t.failureMessage].filter(Boolean).join(': ') || 'declined'))),
  },
  refunds: {
    document: REFUNDS,
    render: (data) => data.refunds.edges.map(({ node: r }) =>
      el('li', { 'data-refund-id': r.id },
        el('div', { class: 'row' }, el('strong', {}, money(r.amount, r.currency)), status(r.status),
          el('span', { class: 'muted' }, r.reason ? r.reason.replaceAll('_', ' ') : ''), el('span', { class: 'muted' }, when(r.created))))),
  },
  payouts: {
    document: PAYOUTS,
    render: (data) => data.payouts.edges.map(({ node: p }) =>
      el('li', { 'data-payout-id': p.id },
        el('div', { class: 'row' }, el('strong', {}, money(p.amount, p.currency)), status(p.status),
          el('span', {}, accountName(p.account)), el('span', { class: 'muted' }, p.speed ? p.speed.toLowerCase().replaceAll('_', ' ') : 'push to card'),
          el('span', { class: 'muted' }, when(p.created))))),
  },
  accounts: {
    document: ACCOUNTS,
    connection: 'accounts',
    render: (data) => data.accounts.edges.map(({ node: a }) =>
      el('li', { 'data-account-id': a.id },
        el('div', { class: 'row' }, el('strong', { class: 'name' }, el('a', { href: `#account/${a.id}` }, accountName(a))), status(a.status),
          el('span', { class: 'muted' }, a.type.toLowerCase())),
        el('ul', { class: 'capabilities' }, ...(a.capabilities.length ? a.capabilities.map((c) =>
          el('li', { 'data-capability': c.name.toLowerCase() }, c.name.toLowerCase(), ' ', status(c.status)))
          : [el('li', { class: 'muted' }, 'no capabilities requested')])))),
  },
  subscriptions: {
    document: SUBSCRIPTIONS,
    render: (data) => data.subscriptions.edges.map(({ node: s }) =>
      el('li', { 'data-subscription-id': s.id },
        el('div', { class: 'row' }, el('strong', {}, s.product.name), status(s.status),
          el('span', {}, money(s.effectiveAmount, s.currency)),
          el('span', { class: 'muted' }, s.customer ? s.customer.name || s.customer.email : accountName(s.account))),
        el('div', { class: 'muted' }, `current period ends ${when(s.currentPeriodEnd)}`),
        el('ul', { class: 'invoices' }, ...s.invoices.edges.map(({ node: i }) =>
          el('li', { 'data-invoice-id': i.id }, i.invoiceNumber ?? 'draft', ' ', status(i.status), ' ',
            money(i.total, i.currency), i.dueDate ? ` due ${i.dueDate}` : ''))))),
  },
  transfers: {
    document: TRANSFERS,
    connection: 'transfers',
    render: (data) => data.transfers.edges.map(({ node: t }) =>
      el('li', { 'data-transfer-id': t.id },
        el('div', { class: 'row' }, el('strong', {}, money(t.amount, t.currency)), ...transferBadges(t),
          el('span', {}, accountName(t.account)), el('span', { class: 'muted' }, when(t.created))),
        t.description ? el('div', { class: 'muted' }, t.description) : null)),
  },
};

/**
 * Fills a panel from its query. A panel asked again while its request is
 * out is fetched once more when that request ends, so a burst of events
 * costs at most two requests and the panel ends on the newest data.
 */
async function refresh(key, name) {
  const panel = panels[name];
  if (panel.loading) {
    panel.again = true;
    return;
  }
  panel.loading = true;
  const list = $(`#${name} ${panel.target ?? 'ul.items'}`);
  try {
    const data = await query(key, panel.document);
    const items = panel.render(data);
    list.replaceChildren(...(items.length ? items : [el('li', { class: 'empty' }, `Nothing to show yet.`)]));
    list.closest('section').dataset.state = 'loaded';
    if (panel.connection) showMore(key, name, data[panel.connection].pageInfo);
  } catch (error) {
    if (refusedKey(error)) return;
    list.replaceChildren(el('li', { class: 'error' }, `Could not load ${name}: ${error.message}`));
    list.closest('section').dataset.state = 'error';
  } finally {
    panel.loading = false;
  }
  if (panel.again) {
    panel.again = false;
    refresh(key, name);
  }
}

/**
 * A key the server refuses (revoked meanwhile) is forgotten and asked
 * again; true when error was that.
 */
function refusedKey(error) {
  if (!(error instanceof GraphQLError && error.status === 401)) return false;
  sessionStorage.removeItem(KEY_STORAGE);
  showKeyForm(`The key was refused: ${error.message}`);
  return true;
}

// ---- The pages: the overview, and an account's page at #account/<id>
// (a link from the accounts panel), so the browser's back button returns
// to the overview.

const ACCOUNT_ROUTE = /^#account\/([0-9a-fA-F-]{36})$/;

function route(key) {
  const account = ACCOUNT_ROUTE.exec(location.hash);
  $('#main').hidden = Boolean(account);
  $('#account-page').hidden = !account;
  if (account) {
    showAccountPage(key, account[1]).then((error) => error && refusedKey(error));
  }
}

/**
 * Pagination: a connection's panel shows its first page, and its "More"
 * button appends the next one (after the last cursor) while there is one.
 */
function showMore(key, name, pageInfo) {
  const panel = panels[name];
  const button = $(`#${name} button.more`);
  button.hidden = !pageInfo.hasNextPage;
  button.onclick = async () => {
    button.disabled = true;
    try {
      const data = await query(key, panel.document, { after: pageInfo.endCursor });
      $(`#${name} ul.items`).append(...panel.render(data));
      showMore(key, name, data[panel.connection].pageInfo);
    } finally {
      button.disabled = false;
    }
  };
}

// Which panel an event's type changes: account.created refreshes accounts.
const PANELS_OF_EVENT = { account: ['accounts'], capability: ['accounts'], subscription: ['subscriptions'],
  customer: ['subscriptions'], invoice: ['subscriptions'], transfer: ['transfers', 'volume', 'failed-payments', 'balance'],
  refund: ['refunds', 'transfers'], charge: ['disputes', 'transfers'], payout: ['payouts', 'balance'] };

// ---- The stream.

function eventItem(event) {
  const object = event.data?.object ?? {};
  return el('li', { 'data-event-id': event.id, 'data-event-type': event.type, 'data-object-id': object.id ?? '' },
    el('div', { class: 'row' }, el('strong', {}, event.type), el('span', { class: 'muted' }, when(event.created))),
    el('code', {}, object.id ?? ''));
}

function showEvent(event) {
  const list = $('#events ul.items');
  list.querySelector('.empty')?.remove();
  if (list.querySelector(`li[data-event-id="${CSS.escape(event.id)}"]`)) return;
  list.prepend(eventItem(event));
  while (list.children.length > 50) list.lastChild.remove();
}

/** The events panel opens with the newest events; the stream adds to them. */
async function recentEvents(key) {
  try {
    const data = await query(key, RECENT_EVENTS);
    const list = $('#events ul.items');
    const seen = new Set([...list.querySelectorAll('li[data-event-id]')].map((li) => li.dataset.eventId));
    const items = data.events.edges.map(({ node }) => node).filter((e) => !seen.has(e.id)).map(eventItem);
    if (items.length) list.querySelector('.empty')?.remove();
    list.append(...items);
    $('#events').dataset.recent = 'loaded';
  } catch (error) {
    $('#stream-error').textContent = `Could not load the recent events: ${error.message}`;
  }
}

function start(key) {
  route(key);
  window.addEventListener('hashchange', () => route(key));
  for (const name of Object.keys(panels)) refresh(key, name);
  recentEvents(key);
  subscribe(key, EVENTS, {
    onData: ({ events: event }) => {
      showEvent(event);
      for (const panel of PANELS_OF_EVENT[event.type.split('.')[0]] ?? []) refresh(key, panel);
    },
    onStatus: (state, reason) => {
      $('#stream-status').textContent = reason ? `${state}: ${reason}` : state;
      $('#stream-status').dataset.state = state;
      // Events committed while the stream was down are not replayed:
      // refetch the panels once it is live again.
      if (state === 'live' && $('#events').dataset.state === 'reconnecting') {
        for (const name of Object.keys(panels)) refresh(key, name);
      }
      $('#events').dataset.state = state === 'closed' ? 'reconnecting' : state;
    },
    onError: (message) => { $('#stream-error').textContent = message; },
  });
}

$('#key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('#key');
  const key = input.value.trim();
  input.value = '';
  signIn(key);
});
$('#sign-out').addEventListener('click', signOut);

const saved = sessionStorage.getItem(KEY_STORAGE);
if (saved) signIn(saved);
else showKeyForm();
