// An account's page: its profile and status, capabilities and onboarding
// steps, bank accounts, cards, transfers, payouts, subscriptions and its
// own events, read with one GraphQL request (DashboardAccount) and the
// lists that can be long paged on through their connections, each "More"
// asking the next page of that list alone. It opens at #account/<id>, so
// the browser's back button and the page's own link lead back to the
// overview.
import { query } from './graphql.js';
import { $, accountName, el, money, status, when, words } from './view.js';

// ---- The queries: the page, then one per list that is paged on.

// The connections' selections are fragments, so the page and the next
// page of one list ask for the same fields.
const ACCOUNT_TRANSFERS = `
  fragment AccountTransfers on TransferConnection {
    edges { node { id status amount currency description failureCode created } }
    pageInfo { hasNextPage endCursor }
  }`;

const ACCOUNT_PAYOUTS = `
  fragment AccountPayouts on PayoutConnection {
    edges { node { id status amount currency speed failureCode created } }
    pageInfo { hasNextPage endCursor }
  }`;

const ACCOUNT_SUBSCRIPTIONS = `
  fragment AccountSubscriptions on SubscriptionConnection {
    edges { node { id status currency effectiveAmount currentPeriodEnd product { name } } }
    pageInfo { hasNextPage endCursor }
  }`;

const ACCOUNT_EVENTS = `
  fragment AccountEvents on EventConnection {
    edges { node { id type created } }
    pageInfo { hasNextPage endCursor }
  }`;

const ACCOUNT_PAGE = `
  query DashboardAccount($id: ID!) {
    account(id: $id) {
      id type status blockedReason restrictedBy externalId created
      profile {
        individual { name { firstName lastName } email phone { number } address { city country } }
        business { legalBusinessName doingBusinessAs email phone { number } address { city country } }
      }
      capabilities { name status currentlyDue }
      steps { key label status }
      bankAccounts { id bankName accountNumberLast4 accountType status created }
      paymentMethods { id type status card { brand lastFour } ach { bankName lastFour } created }
      transfers(first: 5) { ...AccountTransfers }
      payouts(first: 5) { ...AccountPayouts }
      subscriptions(first: 5) { ...AccountSubscriptions }
      events(first: 5) { ...AccountEvents }
    }
  }
  ${ACCOUNT_TRANSFERS}
  ${ACCOUNT_PAYOUTS}
  ${ACCOUNT_SUBSCRIPTIONS}
  ${ACCOUNT_EVENTS}`;

const ACCOUNT_TRANSFERS_PAGE = `
  query DashboardAccountTransfers($id: ID!, $after: String) {
    account(id: $id) { id transfers(first: 5, after: $after) { ...AccountTransfers } }
  }
  ${ACCOUNT_TRANSFERS}`;

const ACCOUNT_PAYOUTS_PAGE = `
  query DashboardAccountPayouts($id: ID!, $after: String) {
    account(id: $id) { id payouts(first: 5, after: $after) { ...AccountPayouts } }
  }
  ${ACCOUNT_PAYOUTS}`;

const ACCOUNT_SUBSCRIPTIONS_PAGE = `
  query DashboardAccountSubscriptions($id: ID!, $after: String) {
    account(id: $id) { id subscriptions(first: 5, after: $after) { ...AccountSubscriptions } }
  }
  ${ACCOUNT_SUBSCRIPTIONS}`;

const ACCOUNT_EVENTS_PAGE = `
  query DashboardAccountEvents($id: ID!, $after: String) {
    account(id: $id) { id events(first: 5, after: $after) { ...AccountEvents } }
  }
  ${ACCOUNT_EVENTS}`;

// ---- The panels.

function empty(text) {
  return [el('li', { class: 'empty muted' }, text)];
}

function profileItems(a) {
  const p = a.profile?.individual ?? a.profile?.business ?? {};
  const where = [p.address?.city, p.address?.country].filter(Boolean).join(', ');
  return [
    el('li', { class: 'row' }, el('strong', { class: 'name' }, accountName(a)), status(a.status), el('span', { class: 'muted' }, words(a.type))),
    a.blockedReason ? el('li', { 'data-blocked': a.blockedReason }, `blocked: ${words(a.blockedReason)}`) : null,
    a.restrictedBy.length ? el('li', {}, `restricted by ${a.restrictedBy.map(words).join(', ')}`) : null,
    p.email ? el('li', {}, p.email) : null,
    p.phone?.number ? el('li', {}, p.phone.number) : null,
    where ? el('li', {}, where) : null,
    a.externalId ? el('li', { class: 'muted' }, `external id ${a.externalId}`) : null,
    el('li', { class: 'muted' }, `created ${when(a.created)}`, ' ', el('code', {}, a.id)),
  ].filter(Boolean);
}

// Each list panel of the page: where its items come from in the answer,
// how one is shown, and for a connection the document of its next page.
const lists = {
  capabilities: {
    items: (a) => a.capabilities,
    render: (c) => el('li', { 'data-capability': c.name.toLowerCase() },
      el('div', { class: 'row' }, el('strong', {}, words(c.name)), status(c.status)),
      c.currentlyDue.length ? el('div', { class: 'muted' }, `due: ${c.currentlyDue.join(', ')}`) : null),
    none: 'No capabilities requested.',
  },
  steps: {
    items: (a) => a.steps,
    render: (s) => el('li', { 'data-step': s.key }, el('div', { class: 'row' }, el('span', {}, s.label), status(s.status))),
    none: 'No onboarding steps.',
  },
  'bank-accounts': {
    items: (a) => a.bankAccounts,
    render: (b) => el('li', { 'data-bank-account-id': b.id },
      el('div', { class: 'row' }, el('strong', {}, `${b.bankName ?? 'Bank'} ••${b.accountNumberLast4}`), status(b.status),
        el('span', { class: 'muted' }, b.accountType), el('span', { class: 'muted' }, when(b.created)))),
    none: 'No bank account linked.',
  },
  'payment-methods': {
    items: (a) => a.paymentMethods,
    render: (m) => el('li', { 'data-payment-method-id': m.id },
      el('div', { class: 'row' }, el('strong', {}, m.card ? `${m.card.brand} ••${m.card.lastFour}` : `${m.ach?.bankName ?? 'ACH'} ••${m.ach?.lastFour ?? ''}`),
        status(m.status), el('span', { class: 'muted' }, words(m.type)))),
    none: 'No payment methods.',
  },
  transfers: {
    items: (a) => a.transfers.edges.map(({ node }) => node),
    connection: 'transfers',
    next: ACCOUNT_TRANSFERS_PAGE,
    render: (t) => el('li', { 'data-transfer-id': t.id },
      el('div', { class: 'row' }, el('strong', {}, money(t.amount, t.currency)), status(t.status),
        el('span', { class: 'muted' }, when(t.created))),
      t.description || t.failureCode ? el('div', { class: 'muted' }, [t.description, t.failureCode].filter(Boolean).join('; ')) : null),
    none: 'No transfers.',
  },
  payouts: {
    items: (a) => a.payouts.edges.map(({ node }) => node),
    connection: 'payouts',
    next: ACCOUNT_PAYOUTS_PAGE,
    render: (p) => el('li', { 'data-payout-id': p.id },
      el('div', { class: 'row' }, el('strong', {}, money(p.amount, p.currency)), status(p.status),
        el('span', { class: 'muted' }, p.speed ? words(p.speed) : 'push to card'),
        p.failureCode ? el('span', { class: 'muted' }, p.failureCode) : null,
        el('span', { class: 'muted' }, when(p.created)))),
    none: 'No payouts.',
  },
  subscriptions: {
    items: (a) => a.subscriptions.edges.map(({ node }) => node),
    connection: 'subscriptions',
    next: ACCOUNT_SUBSCRIPTIONS_PAGE,
    render: (s) => el('li', { 'data-subscription-id': s.id },
      el('div', { class: 'row' }, el('strong', {}, s.product.name), status(s.status), el('span', {}, money(s.effectiveAmount, s.currency)),
        el('span', { class: 'muted' }, `period ends ${when(s.currentPeriodEnd)}`))),
    none: 'No subscriptions paid by this account.',
  },
  events: {
    items: (a) => a.events.edges.map(({ node }) => node),
    connection: 'events',
    next: ACCOUNT_EVENTS_PAGE,
    render: (e) => el('li', { 'data-event-id': e.id, 'data-event-type': e.type },
      el('div', { class: 'row' }, el('strong', {}, e.type), el('span', { class: 'muted' }, when(e.created)))),
    none: 'No events of the account itself.',
  },
};

/**
 * A connection's "More" button: it asks the list's next page (after the
 * last cursor) of this account alone and appends it, while there is one.
 */
function pageOn(key, id, name, pageInfo) {
  const list = lists[name];
  const button = $(`#account-${name} button.more`);
  button.hidden = !pageInfo.hasNextPage;
  button.onclick = async () => {
    button.disabled = true;
    try {
      const data = await query(key, list.next, { id, after: pageInfo.endCursor });
      const connection = data.account[list.connection];
      $(`#account-${name} ul.items`).append(...connection.edges.map(({ node }) => list.render(node)));
      pageOn(key, id, name, connection.pageInfo);
    } catch (error) {
      $(`#account-${name} ul.items`).append(el('li', { class: 'error' }, `Could not load more: ${error.message}`));
    } finally {
      button.disabled = false;
    }
  };
}

/**
 * Shows the account's page: one request fills every panel. An id the
 * key cannot read (another merchant's, a production account's) answers
 * null, shown as not found. Returns the GraphQLError of a failed request
 * for the caller to handle (a refused key); the page shows it as well.
 */
export async function showAccountPage(key, id) {
  const page = $('#account-page');
  page.dataset.accountId = id;
  page.dataset.state = 'loading';
  $('#account-title').textContent = 'Loading…';
  for (const name of ['profile', ...Object.keys(lists)]) {
    $(`#account-${name} ul.items`).replaceChildren(...empty('Loading…'));
    $(`#account-${name} button.more`)?.setAttribute('hidden', '');
  }
  let data;
  try {
    data = await query(key, ACCOUNT_PAGE, { id });
  } catch (error) {
    $('#account-title').textContent = `Could not load the account: ${error.message}`;
    page.dataset.state = 'error';
    return error;
  }
  if (page.dataset.accountId !== id) return null; // another account was opened meanwhile
  const a = data.account;
  if (!a) {
    $('#account-title').textContent = 'No such account in this sandbox.';
    page.dataset.state = 'missing';
    return null;
  }
  $('#account-title').textContent = accountName(a);
  $('#account-profile ul.items').replaceChildren(...profileItems(a));
  for (const [name, list] of Object.entries(lists)) {
    const items = list.items(a);
    $(`#account-${name} ul.items`).replaceChildren(...(items.length ? items.map(list.render) : empty(list.none)));
    if (list.connection) pageOn(key, id, name, a[list.connection].pageInfo);
  }
  page.dataset.state = 'loaded';
  return null;
}
