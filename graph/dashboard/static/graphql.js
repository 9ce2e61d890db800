// The dashboard's whole transport: GraphQL queries over HTTP POST, and
// subscriptions over the graphql-transport-ws websocket protocol, both at
// /graphql on this page's own origin, with the same Bearer credential.

/** An error answered by /graphql: its message, and the code of its first error. */
export class GraphQLError extends Error {
  constructor(message, code, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/**
 * Runs one query and returns its data. A response with errors throws a
 * GraphQLError carrying the first error's extensions.code (for example
 * invalid_api_key), so callers can tell a refused key from a failed panel.
 */
export async function query(key, document, variables = {}) {
  const response = await fetch('/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
    body: JSON.stringify({ query: document, variables }),
  });
  let body;
  try {
    body = await response.json();
  } catch {
    throw new GraphQLError(`/graphql answered ${response.status}`, 'unreadable_response', response.status);
  }
  // Authentication is refused before GraphQL runs: REST's error envelope.
  if (body.code && !body.data) {
    throw new GraphQLError(body.message, body.code, response.status);
  }
  if (body.errors?.length) {
    const first = body.errors[0];
    throw new GraphQLError(first.message, first.extensions?.code, first.extensions?.status ?? response.status);
  }
  return body.data;
}

/**
 * Subscribes to one subscription document over graphql-transport-ws and
 * calls onData with each result's data. Browsers cannot set headers on a
 * websocket, so the key travels in connection_init's payload, where the
 * server reads it (graph/subscriptions.go). A dropped connection is opened
 * again after a growing pause; onStatus hears 'connecting', 'live' (the
 * server acknowledged the connection and the subscription was sent) and
 * 'closed'. Returns a function that ends the subscription for good.
 */
export function subscribe(key, document, { onData, onStatus, onError }) {
  const url = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/graphql`;
  let socket;
  let stopped = false;
  let retryDelay = 1000;

  function send(message) {
    socket.send(JSON.stringify(message));
  }

  function connect() {
    onStatus('connecting');
    socket = new WebSocket(url, 'graphql-transport-ws');
    socket.onopen = () => send({ type: 'connection_init', payload: { Authorization: `Bearer ${key}` } });
    socket.onmessage = (message) => {
      const m = JSON.parse(message.data);
      switch (m.type) {
        case 'connection_ack':
          retryDelay = 1000;
          send({ id: '1', type: 'subscribe', payload: { query: document } });
          onStatus('live');
          break;
        case 'ping':
          send({ type: 'pong' });
          break;
        case 'next':
          if (m.payload.errors?.length) onError(m.payload.errors[0].message);
          if (m.payload.data) onData(m.payload.data);
          break;
        case 'error':
          onError(m.payload?.[0]?.message ?? 'the subscription was refused');
          break;
      }
    };
    socket.onclose = (event) => {
      onStatus('closed', event.reason);
      // 4400s are the server refusing this client (bad key, bad message):
      // trying again would be refused again.
      if (stopped || (event.code >= 4400 && event.code < 4500)) return;
      setTimeout(connect, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 30000);
    };
  }

  connect();
  return () => {
    stopped = true;
    socket.close(1000, 'done');
  };
}
