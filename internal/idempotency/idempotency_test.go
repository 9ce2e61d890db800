package idempotency_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

func accountBody(name string) map[string]any {
	return map[string]any{"type": "business", "profile": map[string]any{"business": map[string]any{"legal_business_name": name}}}
}

func withKey(k string) http.Header { return http.Header{"Idempotency-Key": {k}} }

func countAccounts(t *testing.T, c *testenv.Client) int {
	t.Helper()
	r := c.Get("/v1/accounts?per_page=100&include_disabled=true")
	require.Equal(t, 200, r.Status, string(r.Body))
	return len(r.JSON()["data"].([]any))
}

func TestReplaysTheFirstResponse(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	c := env.Client(env.Keys.Sandbox.Secret)
	first := c.Do("POST", "/v1/accounts", accountBody("Acme"), withKey("create-acme"))
	require.Equal(t, 201, first.Status, string(first.Body))
	require.Empty(t, first.Header.Get("Idempotent-Replayed"))

	second := c.Do("POST", "/v1/accounts", accountBody("Acme"), withKey("create-acme"))
	require.Equal(t, 201, second.Status)
	require.Equal(t, "true", second.Header.Get("Idempotent-Replayed"))
	require.JSONEq(t, string(first.Body), string(second.Body))
	require.Equal(t, 1, countAccounts(t, c))
}

func TestSameKeyWithDifferentBodyIsRefused(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	c := env.Client(env.Keys.Sandbox.Secret)
	require.Equal(t, 201, c.Do("POST", "/v1/accounts", accountBody("Acme"), withKey("k1")).Status)
	r := c.Do("POST", "/v1/accounts", accountBody("Other"), withKey("k1"))
	require.Equal(t, 400, r.Status)
	body := r.JSON()
	require.Equal(t, "idempotency_error", body["code"])
	require.Equal(t, "Bad Request", body["error"])
	require.Equal(t, "Idempotency-Key", body["param"])
	require.NotEmpty(t, body["request_id"])
	require.Equal(t, 1, countAccounts(t, c))
}

func TestErrorsAreStoredAndReplayed(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	c := env.Client(env.Keys.Sandbox.Secret)
	bad := map[string]any{"type": "alien"}
	first := c.Do("POST", "/v1/accounts", bad, withKey("bad"))
	require.Equal(t, 422, first.Status)
	second := c.Do("POST", "/v1/accounts", bad, withKey("bad"))
	require.Equal(t, 422, second.Status)
	require.Equal(t, "true", second.Header.Get("Idempotent-Replayed"))
	require.JSONEq(t, string(first.Body), string(second.Body))
}

func TestRequestsRejectedBeforeExecutionAreNotStored(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	c := env.Client(env.Keys.Sandbox.Secret)

	// Unreadable JSON: refused, not stored; the key stays usable.
	r := c.Do("POST", "/v1/accounts", `{"type": `, withKey("k"))
	require.Equal(t, 400, r.Status)
	require.Equal(t, "invalid_json", r.JSON()["code"])
	require.Equal(t, 201, c.Do("POST", "/v1/accounts", accountBody("Acme"), withKey("k")).Status)

	// A bad credential: refused before the key is looked at.
	bad := env.Client("sk_sandbox_doesnotexist")
	require.Equal(t, 401, bad.Do("POST", "/v1/accounts", accountBody("X"), withKey("k2")).Status)
	require.Equal(t, 201, c.Do("POST", "/v1/accounts", accountBody("Y"), withKey("k2")).Status)
}

func TestKeysAreScopedToMerchantAndMode(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	_, other := env.NewMerchant(auth.NewMerchant{Name: "Other"})
	for _, key := range []string{env.Keys.Sandbox.Secret, env.Keys.Production.Secret, other.Sandbox.Secret} {
		r := env.Client(key).Do("POST", "/v1/accounts", accountBody("Acme"), withKey("shared-key"))
		require.Equal(t, 201, r.Status, string(r.Body))
		require.Empty(t, r.Header.Get("Idempotent-Replayed"))
	}
}

func TestStoredResponsesExpireAfter24Hours(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	c := env.Client(env.Keys.Sandbox.Secret)
	require.Equal(t, 201, c.Do("POST", "/v1/accounts", accountBody("Acme"), withKey("k")).Status)
	env.Clock.Advance(24*time.Hour + time.Minute)
	r := c.Do("POST", "/v1/accounts", accountBody("Acme"), withKey("k"))
	require.Equal(t, 201, r.Status)
	require.Empty(t, r.Header.Get("Idempotent-Replayed"))
	require.Equal(t, 2, countAccounts(t, c))
}

func TestOverlongKeyIsRefused(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	r := env.Client(env.Keys.Sandbox.Secret).Do("POST", "/v1/accounts", accountBody("Acme"), withKey(strings.Repeat("k", 256)))
	require.Equal(t, 400, r.Status)
	require.Equal(t, "idempotency_error", r.JSON()["code"])
}

// Identical requests racing with one key: exactly one executes; every other
// one either replays its response or is told the key is in use.
func TestConcurrentDuplicatesExecuteOnce(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	c := env.Client(env.Keys.Sandbox.Secret)
	const n = 8
	responses := make([]*testenv.Response, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			responses[i] = c.Do("POST", "/v1/accounts", accountBody("Race"), withKey("race"))
		}()
	}
	close(start)
	wg.Wait()

	var executed, replayed, inUse int
	var body string
	for _, r := range responses {
		switch {
		case r.Status == 201 && r.Header.Get("Idempotent-Replayed") == "":
			executed++
			body = string(r.Body)
		case r.Status == 201:
			replayed++
		case r.Status == 409:
			require.Equal(t, "idempotency_key_in_use", r.JSON()["code"])
			inUse++
		default:
			t.Fatalf("unexpected response %d: %s", r.Status, r.Body)
		}
	}
	require.Equal(t, 1, executed)
	require.Equal(t, n, executed+replayed+inUse)
	for _, r := range responses {
		if r.Status == 201 {
			require.JSONEq(t, body, string(r.Body))
		}
	}
	require.Equal(t, 1, countAccounts(t, c))
}

// Two server processes on one database honour one key together: the claim
// is a row in PostgreSQL, not process memory.
func TestKeyIsHonouredAcrossServers(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	second := httptest.NewServer(app.New(app.Options{DB: env.DB, Clock: env.Clock,
		Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))}).Handler)
	t.Cleanup(second.Close)

	send := func(base string) *http.Response {
		body, _ := json.Marshal(accountBody("Twin"))
		req, _ := http.NewRequest("POST", base+"/v1/accounts", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+env.Keys.Sandbox.Secret)
		req.Header.Set("Idempotency-Key", "across")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}
	const n = 6
	statuses := make([]int, n)
	replayed := make([]bool, n)
	var wg sync.WaitGroup
	for i := range n {
		base := env.Server.URL
		if i%2 == 1 {
			base = second.URL
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := send(base)
			statuses[i], replayed[i] = r.StatusCode, r.Header.Get("Idempotent-Replayed") == "true"
		}()
	}
	wg.Wait()
	executed := 0
	for i, s := range statuses {
		require.Contains(t, []int{201, 409}, s)
		if s == 201 && !replayed[i] {
			executed++
		}
	}
	require.Equal(t, 1, executed)
	require.Equal(t, 1, countAccounts(t, env.Client(env.Keys.Sandbox.Secret)))
	r := send(second.URL)
	require.Equal(t, 201, r.StatusCode)
	require.Equal(t, "true", r.Header.Get("Idempotent-Replayed"))
}
