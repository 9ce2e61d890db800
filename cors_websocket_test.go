package main

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
	"github.com/stretchr/testify/require"
)

// The subscriptions' websocket follows --cors-origins as the rest of the
// API does: a page on an allowed origin opens it and is acknowledged, a
// page on any other origin is refused at the upgrade (403), before a
// credential is read, and the server's own origin is always accepted.
func TestSubscriptionWebsocketOriginsFollowCORSOrigins(t *testing.T) {
	t.Parallel()
	const allowed = "https://dashboard.example.com"
	u := &readmeUser{dir: dataDir(t), env: []string{"CORS_ORIGINS=" + allowed}}
	m := u.createMerchant(t, "--name", "Websocket Origin Platform", "--json")
	api := u.serve(t)
	key := m.APIKeys.Sandbox.Secret
	endpoint := "ws" + strings.TrimPrefix(api, "http") + "/graphql"

	// The context only guards against a hung server; no assertion depends
	// on how long anything takes.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dial := func(origin string) (*websocket.Conn, *http.Response, error) {
		header := http.Header{}
		if origin != "" {
			header.Set("Origin", origin)
		}
		return websocket.Dial(ctx, endpoint, &websocket.DialOptions{
			Subprotocols: []string{"graphql-transport-ws"}, HTTPHeader: header})
	}
	acknowledged := func(origin string) {
		t.Helper()
		conn, _, err := dial(origin)
		require.NoError(t, err, origin)
		defer func() { _ = conn.CloseNow() }()
		require.NoError(t, wsjson.Write(ctx, conn, map[string]any{"type": "connection_init",
			"payload": map[string]any{"Authorization": "Bearer " + key}}))
		var ack struct {
			Type string `json:"type"`
		}
		require.NoError(t, wsjson.Read(ctx, conn, &ack))
		require.Equal(t, "connection_ack", ack.Type, origin)
	}

	acknowledged(allowed)
	acknowledged(api) // the server's own origin
	acknowledged("")  // no Origin: not a browser

	for _, origin := range []string{"https://evil.example.com", "http://dashboard.example.com", "https://dashboard.example.com.evil.example"} {
		conn, resp, err := dial(origin)
		if conn != nil {
			_ = conn.CloseNow()
		}
		require.Error(t, err, origin)
		require.NotNil(t, resp, "%s: %v", origin, err)
		require.Equal(t, http.StatusForbidden, resp.StatusCode, origin)
	}
}
