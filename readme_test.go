package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/pgembed"
	"github.com/frame-oss/payments-server/internal/testenv/poll"
)

// childRunEnv makes this test binary run its arguments as the server's
// command line, exactly as the built binary does (main is
// run(os.Args[1:])): the README test runs each command in a process of its
// own, as `go run . ...` would, without building the binary again.
const childRunEnv = "PAYMENTS_TEST_CHILD_RUN"

// readmeUser runs the README's commands as a new user would, on one fresh
// embedded data dir.
type readmeUser struct {
	dir string
	env []string // more environment of every command (KEY=value)
}

func (u *readmeUser) command(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	// Later entries win: no DATABASE_URL, so the embedded PostgreSQL in the
	// data dir is used, as in the README.
	cmd.Env = append(os.Environ(), childRunEnv+"=1", "DATABASE_URL=", "DATA_DIR="+u.dir, "DEBUG_ADDR=")
	cmd.Env = append(cmd.Env, u.env...)
	return cmd
}

// run runs one command to its end: its stdout, stderr and exit code.
func (u *readmeUser) run(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := u.command(args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return out.String(), errb.String(), exit.ExitCode()
	}
	require.NoError(t, err)
	return out.String(), errb.String(), 0
}

// createMerchant runs `merchants create` with args and decodes its --json
// output.
func (u *readmeUser) createMerchant(t *testing.T, args ...string) createdMerchant {
	t.Helper()
	out, errOut, code := u.run(t, append([]string{"merchants", "create"}, args...)...)
	require.Equal(t, 0, code, errOut)
	var m createdMerchant
	require.NoError(t, json.Unmarshal([]byte(out), &m), out)
	require.True(t, strings.HasPrefix(m.APIKeys.Sandbox.Secret, "sk_sandbox_"), out)
	require.True(t, strings.HasPrefix(m.APIKeys.Sandbox.Publishable, "pk_sandbox_"), out)
	require.True(t, strings.HasPrefix(m.APIKeys.Production.Secret, "sk_production_"), out)
	require.True(t, strings.HasPrefix(m.APIKeys.Production.Publishable, "pk_production_"), out)
	return m
}

// serve starts `serve` (with args) on a free port until the test ends and
// waits for /healthz; it returns the server's base URL.
func (u *readmeUser) serve(t *testing.T, args ...string) string {
	t.Helper()
	url, _ := u.serveWithLogs(t, args...)
	return url
}

// serveWithLogs is serve, with the server's log.
func (u *readmeUser) serveWithLogs(t *testing.T, args ...string) (string, *lockedBuffer) {
	t.Helper()
	addr, logs := u.start(t, args...)
	requireServing(t, logs)
	url := "http://" + addr
	resp, err := http.Get(url + "/healthz")
	require.NoError(t, err)
	_ = resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "serve answers /healthz once it serves")
	return url, logs
}

// start starts `serve` with args on a free port until the test ends (its
// logs shown if the test failed), waits until it serves, and returns its
// address and output.
func (u *readmeUser) start(t *testing.T, args ...string) (string, *lockedBuffer) {
	t.Helper()
	// Port 0: the server binds a port of the kernel's choosing and logs
	// it. A port found free here and closed again could be taken by
	// another test's server or database before serve binds it.
	cmd := u.command(append([]string{"serve"}, args...)...)
	cmd.Env = append(cmd.Env, "ADDR=127.0.0.1:0")
	logs := startChild(t, cmd, "serve", 30*time.Second)
	requireServing(t, logs)
	return servingAddr(t, logs), logs
}

// servingAddr is the address serve's "serving" line names.
func servingAddr(t *testing.T, logs *lockedBuffer) string {
	t.Helper()
	for _, line := range strings.Split(logs.String(), "\n") {
		if !strings.Contains(line, servingLine) {
			continue
		}
		var serving struct{ Addr string }
		require.NoError(t, json.Unmarshal([]byte(line[strings.Index(line, "{"):]), &serving), line)
		require.NotEmpty(t, serving.Addr, line)
		return serving.Addr
	}
	t.Fatalf("serve logged no address: %s", logs.String())
	return ""
}

// call sends one request with key as its bearer and returns the status
// and the decoded JSON body.
func call(t *testing.T, key, method, url, body string, header ...string) (int, map[string]any) {
	t.Helper()
	return callVia(t, http.DefaultClient, key, method, url, body, header...)
}

// callVia is call through client; header holds more headers as name,
// value pairs.
func callVia(t *testing.T, client *http.Client, key, method, url, body string, header ...string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(raw, &out), string(raw))
	return resp.StatusCode, out
}

// readmeSnippet is the first submatch of pattern in the README: the test
// sends what the README shows, so the two cannot drift apart.
func readmeSnippet(t *testing.T, readme, pattern string) string {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(readme)
	require.NotNil(t, m, "the README no longer shows %s", pattern)
	return m[1]
}

// Every command the README shows, run as a new user would: the binary's
// commands in processes of their own, against a fresh embedded data dir,
// and the first REST request and GraphQL query against the running server.
func TestReadmeCommands(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("README.md")
	require.NoError(t, err)
	readme := string(raw)
	for _, shown := range []string{
		`go run . serve`,
		`go run . merchants create --name "My Platform" --json`,
		"`--products identity,payments`", "`--disabled-capabilities kyb`", "`--with-default-fees`",
		"`go run . keys rotate --merchant ID --mode sandbox --kind secret --grace 24h`",
		"`go run . keys revoke --key sk_sandbox_AbCd`",
		`go run . seed --merchant ID`,
	} {
		require.Contains(t, readme, shown, "the README shows the command this test runs")
	}
	u := &readmeUser{dir: dataDir(t)}

	// Before any server runs on the data dir: each command starts the
	// embedded PostgreSQL itself (the first one creates the cluster).
	platform := u.createMerchant(t, "--name", "My Platform", "--json")
	feesBeforeServing := u.createMerchant(t, "--name", "Fees Before Serving", "--json", "--with-default-fees")
	require.Equal(t, "My Platform", platform.Merchant.Name)
	require.Len(t, platform.Merchant.ID, 36)
	require.EqualValues(t, []string{"identity", "payments", "payouts", "geo_compliance", "creator_shield"},
		toStrings(platform.Merchant.Products), "every product by default")

	url := u.serve(t)
	key := platform.APIKeys.Sandbox.Secret
	var accountID string

	t.Run("a first request", func(t *testing.T) {
		body := readmeSnippet(t, readme, `(?s)curl -s localhost:8080/v1/accounts .*?-H 'Idempotency-Key: first-account' \\\n\s+-d '(.*?)'\n`)
		status, a := call(t, key, http.MethodPost, url+"/v1/accounts", body, "Idempotency-Key", "first-account")
		require.Equal(t, http.StatusCreated, status, a)
		require.Equal(t, "individual", a["type"])
		accountID, _ = a["id"].(string)
		require.NotEmpty(t, accountID)
		var names []string
		for _, c := range a["capabilities"].([]any) {
			names = append(names, c.(map[string]any)["name"].(string))
		}
		require.Subset(t, names, []string{"kyc", "card_send"})

		status, again := call(t, key, http.MethodPost, url+"/v1/accounts", body, "Idempotency-Key", "first-account")
		require.Equal(t, http.StatusCreated, status, again)
		require.Equal(t, accountID, again["id"], "the Idempotency-Key replays the first account")
	})

	t.Run("a first GraphQL query", func(t *testing.T) {
		resp, err := http.Get(url + "/playground")
		require.NoError(t, err)
		_ = resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, "the playground the README opens")

		query := readmeSnippet(t, readme, "(?s)```graphql\n(.*?)```")
		q, err := json.Marshal(map[string]string{"query": query})
		require.NoError(t, err)
		status, res := call(t, key, http.MethodPost, url+"/graphql", string(q))
		require.Equal(t, http.StatusOK, status, res)
		require.Nil(t, res["errors"], res)
		conn := res["data"].(map[string]any)["accounts"].(map[string]any)
		edges := conn["edges"].([]any)
		require.Len(t, edges, 1, res)
		node := edges[0].(map[string]any)["node"].(map[string]any)
		require.Equal(t, accountID, node["id"])
		require.NotEmpty(t, node["capabilities"])
		require.Equal(t, false, conn["pageInfo"].(map[string]any)["hasNextPage"])

		// The curl form of the same query.
		body := readmeSnippet(t, readme, `(?s)curl -s localhost:8080/graphql .*?-d '(.*?)'\n`)
		status, res = call(t, key, http.MethodPost, url+"/graphql", body)
		require.Equal(t, http.StatusOK, status, res)
		require.Nil(t, res["errors"], res)
		edges = res["data"].(map[string]any)["accounts"].(map[string]any)["edges"].([]any)
		require.Len(t, edges, 1, res)
		require.Equal(t, accountID, edges[0].(map[string]any)["node"].(map[string]any)["id"])
	})

	t.Run("merchants create --with-default-fees charges at once", func(t *testing.T) {
		// Made before the server started, and made while it runs.
		running := u.createMerchant(t, "--name", "Fees While Serving", "--json", "--with-default-fees")
		for _, m := range []createdMerchant{feesBeforeServing, running} {
			requireCardChargeSucceeds(t, url, m.APIKeys.Sandbox.Secret)
		}
	})

	t.Run("merchants create --products", func(t *testing.T) {
		m := u.createMerchant(t, "--name", "Two Products", "--json", "--products", "identity,payments")
		require.EqualValues(t, []string{"identity", "payments"}, toStrings(m.Merchant.Products))
		status, res := call(t, m.APIKeys.Sandbox.Secret, http.MethodPost, url+"/v1/accounts",
			`{"type":"individual","profile":{"individual":{"name":{"first_name":"Ada","last_name":"Lovelace"}}},
			  "capabilities":["geo_compliance"]}`)
		require.Equal(t, http.StatusUnprocessableEntity, status, res)
		require.Equal(t, "capability_not_provisionable", res["code"], "a product the merchant lacks: %v", res)
	})

	t.Run("merchants create --disabled-capabilities", func(t *testing.T) {
		m := u.createMerchant(t, "--name", "No KYB", "--json", "--disabled-capabilities", "kyb")
		status, a := call(t, m.APIKeys.Sandbox.Secret, http.MethodPost, url+"/v1/accounts",
			`{"type":"business","profile":{"business":{"legal_business_name":"Analytical Engines LLC"}},
			  "capabilities":["kyb"]}`)
		require.Equal(t, http.StatusCreated, status, a)
		require.Empty(t, a["capabilities"], "kyb is switched off for this merchant")

		// The same request of a merchant with kyb gets it.
		status, a = call(t, key, http.MethodPost, url+"/v1/accounts",
			`{"type":"business","profile":{"business":{"legal_business_name":"Analytical Engines LLC"}},
			  "capabilities":["kyb"]}`)
		require.Equal(t, http.StatusCreated, status, a)
		require.NotEmpty(t, a["capabilities"], a)
	})

	t.Run("seed fills a sandbox for dashboards", func(t *testing.T) {
		requireSeedAsDocumented(t, u, url)
	})

	t.Run("merchants create is all or nothing", func(t *testing.T) {
		requireFailedCreateLeavesNothing(t, u)
	})

	t.Run("keys rotate and keys revoke", func(t *testing.T) {
		out, errOut, code := u.run(t, "keys", "rotate", "--merchant", platform.Merchant.ID, "--mode", "sandbox",
			"--kind", "secret", "--grace", "24h")
		require.Equal(t, 0, code, errOut)
		fresh := regexp.MustCompile(`sk_sandbox_\S+`).FindString(out)
		require.NotEmpty(t, fresh, out)
		for _, k := range []string{key, fresh} {
			status, res := call(t, k, http.MethodGet, url+"/v1/accounts", "")
			require.Equal(t, http.StatusOK, status, "the new key works, the old one within its grace: %v", res)
		}

		// The README's form: the key's display prefix.
		out, errOut, code = u.run(t, "keys", "revoke", "--key", auth.DisplayPrefix(key))
		require.Equal(t, 0, code, errOut)
		require.Contains(t, out, "revoked 1 key(s)")
		// The server drops the key when PostgreSQL delivers the revocation
		// to its listener, a moment after the command committed it.
		poll.Until(t, "the revoked key to be refused", func() bool {
			status, _ := call(t, key, http.MethodGet, url+"/v1/accounts", "")
			return status == http.StatusUnauthorized
		})
		status, res := call(t, fresh, http.MethodGet, url+"/v1/accounts", "")
		require.Equal(t, http.StatusOK, status, res)
	})
}

// requireCardChargeSucceeds charges a sandbox test card of a new account
// through POST /v1/transfers: with the default fees it succeeds at once,
// priced 2.9 % + 30.
func requireCardChargeSucceeds(t *testing.T, url, sk string) {
	t.Helper()
	status, a := call(t, sk, http.MethodPost, url+"/v1/accounts",
		`{"type":"individual","profile":{"individual":{"name":{"first_name":"Grace","last_name":"Hopper"}}}}`)
	require.Equal(t, http.StatusCreated, status, a)
	status, card := call(t, sk, http.MethodPost, url+"/v1/payment_methods",
		`{"type":"card","card_number":"4242424242424242","exp_month":12,"exp_year":30,"cvc":"123","account":"`+a["id"].(string)+`"}`)
	require.Equal(t, http.StatusCreated, status, card)
	status, tr := call(t, sk, http.MethodPost, url+"/v1/transfers",
		`{"amount":1000,"account_id":"`+a["id"].(string)+`","source_payment_method_id":"`+card["id"].(string)+`","confirm":true}`)
	require.Equal(t, http.StatusCreated, status, tr)
	require.Equal(t, "succeeded", tr["status"], tr)
	require.EqualValues(t, 59, tr["total_fees"], tr)
}

// requireFailedCreateLeavesNothing makes the database refuse the default
// fees' billing agreements (as a constraint would), after the merchant and
// its keys are inserted: `merchants create --with-default-fees` then fails,
// prints no keys, and leaves no merchant, key or fee plan behind.
func requireFailedCreateLeavesNothing(t *testing.T, u *readmeUser) {
	t.Helper()
	ctx := context.Background()
	pg, err := pgembed.Start(ctx, pgembed.Options{DataDir: u.dir}) // attaches to the server's
	require.NoError(t, err)
	require.False(t, pg.Owned())
	conn, err := pgx.Connect(ctx, pg.URL(embeddedDatabase))
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close(ctx) })
	counts := func() (n [3]int) {
		for i, table := range []string{"merchants", "api_keys", "transfer_fee_plans"} {
			require.NoError(t, conn.QueryRow(ctx, "SELECT count(*) FROM "+table).Scan(&n[i]))
		}
		return n
	}
	before := counts()
	_, err = conn.Exec(ctx, `CREATE FUNCTION refuse_agreements() RETURNS trigger LANGUAGE plpgsql AS
		$$BEGIN RAISE EXCEPTION 'billing agreements are refused'; END$$;
		CREATE TRIGGER refuse_agreements BEFORE INSERT ON transfer_billing_agreements
		FOR EACH ROW EXECUTE FUNCTION refuse_agreements()`)
	require.NoError(t, err)
	defer func() {
		_, err := conn.Exec(ctx, `DROP TRIGGER refuse_agreements ON transfer_billing_agreements; DROP FUNCTION refuse_agreements()`)
		require.NoError(t, err)
	}()

	out, errOut, code := u.run(t, "merchants", "create", "--name", "Half Made", "--json", "--with-default-fees")
	require.Equal(t, 1, code, "stdout: %s\nstderr: %s", out, errOut)
	require.Contains(t, errOut, "billing agreements are refused")
	require.Empty(t, out, "no keys are shown for a merchant that does not exist")
	require.Equal(t, before, counts(), "no merchant, key or fee plan is left behind")
}
