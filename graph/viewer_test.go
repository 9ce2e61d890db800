package graph_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// viewer is REST's GET /v1/me: the same members, the same refusals.
func TestViewerIsTheCaller(t *testing.T) {
	t.Parallel()
	f := setup(t)
	const q = `{ viewer { merchantId merchantName devMode apiVersion } }`
	g := gql(t, f.sk, q, nil)
	require.Equal(t, map[string]any{"merchantId": f.env.Merchant.ID.String(), "merchantName": "Test Platform",
		"devMode": true, "apiVersion": "v1"}, g.Data["viewer"])
	rest := f.sk.Get("/v1/me").JSON()
	require.Equal(t, rest["merchant_id"], obj(g.Data["viewer"])["merchantId"])

	require.Equal(t, false, obj(gql(t, f.live, q, nil).Data["viewer"])["devMode"])
	_, e := gqlError(t, f.pk, q, nil)
	require.Equal(t, "forbidden", code(e))
	require.Equal(t, http.StatusForbidden, status(e))
}

// The request log as a subscription: each request of the caller's
// sandbox as it finishes. The subscription registers after "subscribe",
// so the test requests until the stream answers, then checks that what
// arrived is one of its requests.
func TestRequestLogSubscription(t *testing.T) {
	t.Parallel()
	f := setup(t)
	conn := subscribe(t, f, f.env.Keys.Sandbox.Secret, true,
		`subscription { requestLog { requestId method path status durationMs } }`)
	sent, m := untilStreaming(t, conn, func() string { return f.sk.Get("/v1/accounts?limit=1").Header.Get("Request-Id") })
	require.Equal(t, "next", m.Type, string(m.Payload))
	var payload struct {
		Data struct {
			RequestLog struct {
				RequestID  string  `json:"requestId"`
				Method     string  `json:"method"`
				Path       string  `json:"path"`
				Status     int     `json:"status"`
				DurationMs float64 `json:"durationMs"`
			} `json:"requestLog"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(m.Payload, &payload))
	got := payload.Data.RequestLog
	require.True(t, sent[got.RequestID], "one of the test's requests: %s", m.Payload)
	require.Equal(t, "GET", got.Method)
	require.Equal(t, "/v1/accounts", got.Path)
	require.Equal(t, http.StatusOK, got.Status)

	// Production keys may not tail the log.
	live := subscribe(t, f, f.env.Keys.Production.Secret, true, `subscription { requestLog { requestId } }`)
	m = receive(t, live)
	require.Contains(t, string(m.Payload), `"code":"forbidden"`)
	require.Contains(t, string(m.Payload), `"data":null`)
}
