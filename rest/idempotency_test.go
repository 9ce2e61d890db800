package rest_test

import (
	"bytes"
	"context"
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
	"github.com/frame-oss/payments-server/internal/platform/auth"
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
	require.NotEmpty(t, body["message"])
	require.Equal(t, body["message"], body["error"])
	require.Equal(t, "Idempotency-Key", body["param"])
	require.NotEmpty(t, body["request_id"])
	require.Equal(t, 1, countAccounts(t, c))
}

// A refusal commits nothing, so nothing is stored under the key: the client
// fixes its request and retries with the same key (API-DECISIONS §3).
func TestRefusalsAreNotStored(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	c := env.Client(env.Keys.Sandbox.Secret)
	bad := map[string]any{"type": "alien"}
	first := c.Do("POST", "/v1/accounts", bad, withKey("bad"))
	require.Equal(t, 422, first.Status)
	second := c.Do("POST", "/v1/accounts", bad, withKey("bad"))
	require.Equal(t, 422, second.Status)
	require.Empty(t, second.Header.Get("Idempotent-Replayed"), "a validation refusal is never replayed")

	fixed := c.Do("POST", "/v1/accounts", accountBody("Acme"), withKey("bad"))
	require.Equal(t, 201, fixed.Status, string(fixed.Body))
	require.Empty(t, fixed.Header.Get("Idempotent-Replayed"))

	// A business rule's refusal (404 here) is not stored either.
	missing := c.Do("POST", "/v1/accounts/019bc186-de02-7888-a0ba-4ef4a7dc05db/restrict", nil, withKey("gone"))
	require.Equal(t, 404, missing.Status)
	acct := c.Post("/v1/accounts", accountBody("Other")).JSON()
	r := c.Do("POST", "/v1/accounts/"+acct["id"].(string)+"/restrict", nil, withKey("gone"))
	require.Equal(t, 200, r.Status, string(r.Body))
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

// Parameters are compared after parsing: the same request with other
// whitespace and member order replays; only different parameters are
// refused.
func TestParametersAreComparedAsParsed(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	c := env.Client(env.Keys.Sandbox.Secret)
	first := c.Do("POST", "/v1/accounts",
		`{"type":"business","profile":{"business":{"legal_business_name":"Acme"}},"metadata":{"a":"1","b":"2"}}`, withKey("k"))
	require.Equal(t, 201, first.Status, string(first.Body))
	again := c.Do("POST", "/v1/accounts", `{
		"metadata": {"b": "2", "a": "1"},
		"profile": {"business": {"legal_business_name": "Acme"}},
		"type": "business",
		"unknown_member": true
	}`, withKey("k"))
	require.Equal(t, 201, again.Status, string(again.Body))
	require.Equal(t, "true", again.Header.Get("Idempotent-Replayed"))
	require.Equal(t, string(first.Body), string(again.Body), "the committed result, byte for byte")
	require.Equal(t, 1, countAccounts(t, c))

	// The same key on another operation is another request.
	other := c.Do("POST", "/v1/accounts/"+first.JSON()["id"].(string)+"/restrict", nil, withKey("k"))
	require.Equal(t, 400, other.Status)
	require.Equal(t, "idempotency_error", other.JSON()["code"])
}

// A key belongs to the kind of credential that used it: another kind
// sending it neither gets the stored result (which may hold fields it may
// not see) nor leaves a result behind for the first kind.
func TestKeysAreScopedToTheCredentialKind(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	sk, pk := env.Client(env.Keys.Sandbox.Secret), env.Client(env.Keys.Sandbox.Publishable)
	a := sk.Post("/v1/accounts", accountBody("Acme")).JSON()
	path := "/v1/accounts/" + a["id"].(string) + "/restrict"

	require.Equal(t, 200, sk.Do("POST", path, nil, withKey("secret-key")).Status)
	r := pk.Do("POST", path, nil, withKey("secret-key"))
	require.Equal(t, 403, r.Status, "no replay of the secret key's result: %s", r.Body)
	require.NotContains(t, string(r.Body), "metadata")

	r = pk.Do("POST", "/v1/accounts/"+a["id"].(string)+"/unrestrict", nil, withKey("pk-first"))
	require.Equal(t, 403, r.Status)
	r = sk.Do("POST", "/v1/accounts/"+a["id"].(string)+"/unrestrict", nil, withKey("pk-first"))
	require.Equal(t, 200, r.Status, "the publishable key's refusal was not stored: %s", r.Body)
	require.Empty(t, r.Header.Get("Idempotent-Replayed"))
	require.Equal(t, []any{}, r.JSON()["restricted_by"])
}

// A key with characters outside printable ASCII is refused in the
// envelope.
func TestUnprintableKeyIsRefused(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	r := env.Client(env.Keys.Sandbox.Secret).Do("POST", "/v1/accounts", accountBody("Acme"), withKey("bad-é-key"))
	require.Equal(t, 400, r.Status)
	require.Equal(t, "idempotency_error", r.JSON()["code"])
}

// A committed change whose response never reached the client replays on
// retry, from another server process too; nothing is created twice.
func TestCommittedChangeWithLostResponseReplays(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	// This server commits, then drops the connection instead of answering.
	lossy := httptest.NewServer(loseResponses(app.New(app.Options{DB: env.DB, Clock: env.Clock,
		Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))}).Handler))
	t.Cleanup(lossy.Close)

	_, err := post(lossy.URL, env.Keys.Sandbox.Secret, "lost", accountBody("Lost"))
	require.Error(t, err, "the first response is lost")

	r := env.Client(env.Keys.Sandbox.Secret).Do("POST", "/v1/accounts", accountBody("Lost"), withKey("lost"))
	require.Equal(t, 201, r.Status, string(r.Body))
	require.Equal(t, "true", r.Header.Get("Idempotent-Replayed"))
	require.Equal(t, 1, countAccounts(t, env.Client(env.Keys.Sandbox.Secret)))
}

// A request whose server died mid-transaction committed nothing, so the key
// is free: the retry runs anew (it is never stuck "in use") and creates the
// account once.
func TestChangeCutOffByACrashRunsAgain(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	ctx := context.Background()
	// The first insert of an account kills the server's own database
	// session, as the death of the process would: PostgreSQL rolls back.
	// A sequence is not transactional, so the rolled-back attempt still
	// counts.
	_, err := env.DB.Bun.ExecContext(ctx, `CREATE SEQUENCE crash_once;
		CREATE FUNCTION crash_once() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN
			IF nextval('crash_once') = 1 THEN
				PERFORM pg_terminate_backend(pg_backend_pid());
			END IF;
			RETURN NEW;
		END $$;
		CREATE TRIGGER crash_once BEFORE INSERT ON accounts FOR EACH ROW EXECUTE FUNCTION crash_once();`)
	require.NoError(t, err)
	c := env.Client(env.Keys.Sandbox.Secret)
	first := c.Do("POST", "/v1/accounts", accountBody("Crash"), withKey("crash"))
	require.GreaterOrEqual(t, first.Status, 500, string(first.Body))
	require.Zero(t, countAccounts(t, c))

	second := httptest.NewServer(app.New(app.Options{DB: env.DB, Clock: env.Clock,
		Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))}).Handler)
	t.Cleanup(second.Close)
	resp, err := post(second.URL, env.Keys.Sandbox.Secret, "crash", accountBody("Crash"))
	require.NoError(t, err)
	require.Equal(t, 201, resp.StatusCode)
	require.Empty(t, resp.Header.Get("Idempotent-Replayed"), "nothing had committed: it ran anew")
	require.Equal(t, 1, countAccounts(t, c))
	again := c.Do("POST", "/v1/accounts", accountBody("Crash"), withKey("crash"))
	require.Equal(t, "true", again.Header.Get("Idempotent-Replayed"))
	require.Equal(t, 1, countAccounts(t, c))
}

// loseResponses runs the request to completion, then drops the connection
// without a response.
func loseResponses(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(httptest.NewRecorder(), r)
		panic(http.ErrAbortHandler)
	})
}

func post(base, key, idemKey string, body any) (*http.Response, error) {
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", base+"/v1/accounts", bytes.NewReader(raw))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Idempotency-Key", idemKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp, resp.Body.Close()
}

// Stored results are sealed with the server secret: a response that shows
// a secret once (a webhook signing secret, a session's client secret) is
// not readable in the database for the record's 24 hours, and still
// replays whole; a sealed result moved to another key does not open.
func TestStoredResultsAreSealed(t *testing.T) {
	t.Parallel()
	f := setup(t)
	first := f.sk.Do("POST", "/v1/webhook_endpoints", map[string]any{"url": "https://example.com/hook",
		"event_codes": []any{"account.created"}}, withKey("hook-1"))
	require.Equal(t, http.StatusCreated, first.Status, string(first.Body))
	secret := first.JSON()["secret"].(string)
	require.NotEmpty(t, secret)

	var stored [][]byte
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT result FROM idempotency_keys").Scan(context.Background(), &stored))
	require.Len(t, stored, 1)
	require.NotContains(t, string(stored[0]), secret)
	require.NotContains(t, string(stored[0]), "example.com")

	again := f.sk.Do("POST", "/v1/webhook_endpoints", map[string]any{"url": "https://example.com/hook",
		"event_codes": []any{"account.created"}}, withKey("hook-1"))
	require.Equal(t, "true", again.Header.Get("Idempotent-Replayed"))
	require.JSONEq(t, string(first.Body), string(again.Body))

	// The same sealed result under another key does not open: the replay
	// fails rather than answer another request's result.
	body := accountBody("Acme")
	require.Equal(t, http.StatusCreated, f.sk.Do("POST", "/v1/accounts", body, withKey("acct-1")).Status)
	f.exec(t, "UPDATE idempotency_keys SET result = (SELECT result FROM idempotency_keys WHERE key = 'hook-1') WHERE key = 'acct-1'")
	require.Equal(t, http.StatusInternalServerError, f.sk.Do("POST", "/v1/accounts", body, withKey("acct-1")).Status)
}
