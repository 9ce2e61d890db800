// The reference dashboard: four panels, each filled by one GraphQL request,
// and the live event stream. Read it top to bottom: the queries, the key,
// the panels, the stream. Everything is built with DOM calls (never
// innerHTML), so names and descriptions from the API are shown as text.
import { GraphQLError, query, subscribe } from './graphql.js';

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
  query DashboardAccounts {
    accounts(first: 20) {
      edges { node { ...AccountName type status created capabilities { name status } } }
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
  query DashboardTransfers {
    transfers(first: 20) {
      edges { node { id status amount currency description created account { ...AccountName } } }
    }
  }
  ${ACCOUNT_NAME}`;

const EVENTS = `
  subscription DashboardEvents {
    events { id type created data }
  }`;

// ---- The key: sandbox secret keys only, kept for this tab alone.

const KEY_STORAGE = 'dashboard.sandboxSecretKey';
const SANDBOX_KEY = /^sk_sandbox_[A-Za-z0-9]+$/;

const $ = (selector) => document.querySelector(selector);

/** el('li', {class: 'x', 'data-id': id}, 'text', child) builds an element. */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

function showKeyForm(message) {
  $('#main').hidden = true;
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
  $('#main').hidden = false;
  start(key);
}

function signOut() {
  sessionStorage.removeItem(KEY_STORAGE);
  location.reload();
}

// ---- The panels.

function accountName(account) {
  const person = account?.profile?.individual?.name;
  const business = account?.profile?.business;
  const name = person
    ? [person.firstName, person.lastName].filter(Boolean).join(' ')
    : business?.doingBusinessAs || business?.legalBusinessName;
  return name || account?.id || '—';
}

/**
 * Formats an amount in minor units in its currency: the currency's own
 * exponent (JPY has none, USD two, KWD three), as ISO 4217 and the API
 * count them, not a division by 100 for every currency.
 */
function money(minorUnits, currency) {
  if (minorUnits === null || minorUnits === undefined || !currency) return '—';
  const format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
  const exponent = format.resolvedOptions().maximumFractionDigits;
  return format.format(minorUnits / 10 ** exponent);
}

function when(dateTime) {
  return dateTime ? new Date(dateTime).toLocaleString() : '—';
}

function status(value) {
  return el('span', { class: `status status-${value.toLowerCase()}` }, value.toLowerCase());
}

const panels = {
  accounts: {
    document: ACCOUNTS,
    render: (data) => data.accounts.edges.map(({ node: a }) =>
      el('li', { 'data-account-id': a.id },
        el('div', { class: 'row' }, el('strong', { class: 'name' }, accountName(a)), status(a.status),
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
    render: (data) => data.transfers.edges.map(({ node: t }) =>
      el('li', { 'data-transfer-id': t.id },
        el('div', { class: 'row' }, el('strong', {}, money(t.amount, t.currency)), status(t.status),
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
  const list = $(`#${name} ul.items`);
  try {
    const items = panel.render(await query(key, panel.document));
    list.replaceChildren(...(items.length ? items : [el('li', { class: 'empty' }, `No ${name} yet.`)]));
    list.closest('section').dataset.state = 'loaded';
  } catch (error) {
    if (error instanceof GraphQLError && error.status === 401) {
      sessionStorage.removeItem(KEY_STORAGE);
      showKeyForm(`The key was refused: ${error.message}`);
      return;
    }
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

// Which panel an event's type changes: account.created refreshes accounts.
const PANEL_OF_EVENT = { account: 'accounts', capability: 'accounts', subscription: 'subscriptions',
  invoice: 'subscriptions', transfer: 'transfers' };

// ---- The stream.

function showEvent(event) {
  const object = event.data?.object ?? {};
  const list = $('#events ul.items');
  list.querySelector('.empty')?.remove();
  list.prepend(el('li', { 'data-event-id': event.id, 'data-event-type': event.type, 'data-object-id': object.id ?? '' },
    el('div', { class: 'row' }, el('strong', {}, event.type), el('span', { class: 'muted' }, when(event.created))),
    el('code', {}, object.id ?? '')));
  while (list.children.length > 50) list.lastChild.remove();
}

function start(key) {
  for (const name of Object.keys(panels)) refresh(key, name);
  subscribe(key, EVENTS, {
    onData: ({ events: event }) => {
      showEvent(event);
      const panel = PANEL_OF_EVENT[event.type.split('.')[0]];
      if (panel) refresh(key, panel);
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
