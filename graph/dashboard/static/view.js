// What every page of the dashboard shows things with: elements built with
// DOM calls (never innerHTML, so names and descriptions from the API are
// shown as text), amounts in their currency's exponent, times and
// statuses as an operator reads them.

export const $ = (selector) => document.querySelector(selector);

/** el('li', {class: 'x', 'data-id': id}, 'text', child) builds an element. */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

/** An account's name: the person's, or the business's trading name. */
export function accountName(account) {
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
export function money(minorUnits, currency) {
  if (minorUnits === null || minorUnits === undefined || !currency) return '—';
  const format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
  const exponent = format.resolvedOptions().maximumFractionDigits;
  return format.format(minorUnits / 10 ** exponent);
}

export function when(dateTime) {
  return dateTime ? new Date(dateTime).toLocaleString() : '—';
}

/** A status badge: the enum's value as REST writes it (lower case). */
export function status(value) {
  return el('span', { class: `status status-${value.toLowerCase()}` }, value.toLowerCase());
}

/** An enum value as words: SAME_DAY reads "same day". */
export function words(value) {
  return value ? value.toLowerCase().replaceAll('_', ' ') : '';
}
