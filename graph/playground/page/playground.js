// The playground page: GraphiQL against the page's endpoint (main#graphiql's
// data-endpoint), with the API key of the bar's field sent as
// "Authorization: Bearer <key>" on every request: as a header over HTTP, and
// in the connection_init payload of the graphql-transport-ws websocket that
// carries subscriptions (browsers cannot set headers on a websocket; the
// server reads the key from that payload). The key is kept in localStorage.
// Everything here comes from the server itself: React, ReactDOM, graphql-ws
// and GraphiQL are its vendored browser builds (globals React, ReactDOM,
// graphqlWs, GraphiQL).
(function () {
  "use strict";

  var storageKey = "payments-playground:api-key";
  var keyField = document.getElementById("playground-api-key");
  var forget = document.getElementById("playground-forget-key");
  var container = document.getElementById("graphiql");
  var endpoint = container.dataset.endpoint;

  function storedKey() {
    try {
      return window.localStorage.getItem(storageKey) || "";
    } catch (e) {
      return ""; // storage refused (private mode): the field still works
    }
  }

  function storeKey(key) {
    try {
      if (key) {
        window.localStorage.setItem(storageKey, key);
      } else {
        window.localStorage.removeItem(storageKey);
      }
    } catch (e) {
      // storage refused: the key lasts as long as the page
    }
  }

  function authorization() {
    var key = keyField.value.trim();
    return key ? "Bearer " + key : "";
  }

  function hasHeader(headers, name) {
    return Object.keys(headers).some(function (h) {
      return h.toLowerCase() === name;
    });
  }

  // The websocket's URL: the endpoint on this page's own host.
  var socketURL = (window.location.protocol === "https:" ? "wss://" : "ws://") + window.location.host + endpoint;

  var defaultQuery = [
    "# Put a key (sk_sandbox_...) in the field above, then run a query:",
    "",
    "query Accounts {",
    "  accounts(first: 5) {",
    "    edges { node { id type status capabilities { name status currentlyDue } } }",
    "    pageInfo { hasNextPage endCursor }",
    "  }",
    "}",
    "",
    "# or watch the live event stream (it runs until stopped):",
    "",
    "subscription Events {",
    "  events { id type created data }",
    "}",
    "",
  ].join("\n");

  var root = ReactDOM.createRoot(container);
  var client = null;

  // connect renders GraphiQL with a fetcher for the current key: a new
  // subscription client (an open websocket was authenticated once, at
  // connection_init, and must not go on with the old key) and a new
  // fetcher, which also makes GraphiQL fetch the schema again with the key.
  function connect() {
    if (client) {
      client.dispose();
    }
    var auth = authorization();
    client = graphqlWs.createClient({
      url: socketURL,
      lazy: true,
      connectionParams: auth ? { Authorization: auth } : {},
    });
    var fetcher = GraphiQL.createFetcher({ url: endpoint, wsClient: client });
    // GraphiQL's fetcher: the key's Authorization header, unless the
    // headers pane sets one itself.
    function withKey(params, opts) {
      var headers = Object.assign({}, opts && opts.headers);
      if (auth && !hasHeader(headers, "authorization")) {
        headers.Authorization = auth;
      }
      return fetcher(params, Object.assign({}, opts, { headers: headers }));
    }
    root.render(React.createElement(GraphiQL, { fetcher: withKey, defaultQuery: defaultQuery }));
  }

  keyField.value = storedKey();
  keyField.addEventListener("change", function () {
    storeKey(keyField.value.trim());
    connect();
  });
  forget.addEventListener("click", function () {
    keyField.value = "";
    storeKey("");
    connect();
  });
  connect();
})();
