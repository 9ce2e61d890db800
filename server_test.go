package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/pgembed"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
)

// dataDir is a fresh data folder the postgres system user can enter (so
// not under t.TempDir when running as root), on tmpfs when it has room as
// the test clusters are: a data dir's cluster runs with fsync on, and each
// command on a fresh one runs initdb and the migrations (docs/testing.md).
func dataDir(t *testing.T) string {
	t.Helper()
	// Every test with a data dir runs the CLI's commands on an embedded
	// PostgreSQL of its own, most of them as processes of their own.
	testdb.Long(t, "an embedded PostgreSQL in a data dir of its own")
	dir, err := pgembed.TempDir("cli-test-")
	require.NoError(t, err)
	require.NoError(t, os.Chmod(dir, 0o755))
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return out.String(), errb.String(), code
}

func createMerchant(t *testing.T, dir string, extra ...string) createdMerchant {
	t.Helper()
	out, errOut, code := runCLI(t, append([]string{"merchants", "create", "--name", "Acme", "--json", "--data-dir", dir}, extra...)...)
	require.Equal(t, 0, code, errOut)
	var m createdMerchant
	require.NoError(t, json.Unmarshal([]byte(out), &m), out)
	return m
}

// The CLI works on a data dir where no server runs: it starts the embedded
// PostgreSQL, migrates, does its work and stops it again.
func TestMerchantsCreateOnItsOwn(t *testing.T) {
	t.Setenv("DATABASE_URL", "")
	dir := dataDir(t)
	m := createMerchant(t, dir, "--products", "identity,payouts", "--disabled-capabilities", "kyb")
	require.Equal(t, "Acme", m.Merchant.Name)
	require.Len(t, m.Merchant.ID, 36)
	require.EqualValues(t, []string{"identity", "payouts"}, toStrings(m.Merchant.Products))
	require.True(t, strings.HasPrefix(m.APIKeys.Sandbox.Secret, "sk_sandbox_"))
	require.True(t, strings.HasPrefix(m.APIKeys.Sandbox.Publishable, "pk_sandbox_"))
	require.True(t, strings.HasPrefix(m.APIKeys.Production.Secret, "sk_production_"))
	require.True(t, strings.HasPrefix(m.APIKeys.Production.Publishable, "pk_production_"))

	// Its PostgreSQL is stopped again: a new one starts for the next command.
	out, errOut, code := runCLI(t, "merchants", "list", "--data-dir", dir)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, m.Merchant.ID)
}

// With a server already running on the data dir, the CLI attaches to its
// PostgreSQL instead of starting another, and leaves it running.
func TestCLIAttachesToARunningServer(t *testing.T) {
	t.Setenv("DATABASE_URL", "")
	dir := dataDir(t)
	running, err := pgembed.Start(context.Background(), pgembed.Options{DataDir: dir})
	require.NoError(t, err)
	t.Cleanup(func() { _ = running.Stop() })
	require.True(t, running.Owned())

	m := createMerchant(t, dir)
	out, errOut, code := runCLI(t, "keys", "rotate", "--merchant", m.Merchant.ID, "--mode", "production",
		"--kind", "publishable", "--json", "--data-dir", dir)
	require.Equal(t, 0, code, errOut)
	var rotated map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rotated))
	require.True(t, strings.HasPrefix(rotated["key"].(string), "pk_production_"))

	_, errOut, code = runCLI(t, "keys", "revoke", "--key", m.APIKeys.Sandbox.Secret, "--data-dir", dir)
	require.Equal(t, 0, code, errOut)
	_, errOut, code = runCLI(t, "keys", "revoke", "--key", m.APIKeys.Sandbox.Secret, "--data-dir", dir)
	require.Equal(t, 1, code, "a revoked key cannot be revoked twice")
	require.Contains(t, errOut, "no live key")

	_, errOut, code = runCLI(t, "migrate", "--data-dir", dir)
	require.Equal(t, 0, code, errOut)

	// The server's PostgreSQL is still up after the commands exited.
	again, err := pgembed.Start(context.Background(), pgembed.Options{DataDir: dir})
	require.NoError(t, err)
	require.False(t, again.Owned())
	require.Equal(t, running.Port(), again.Port())
}

func TestUsageErrors(t *testing.T) {
	_, _, code := runCLI(t)
	require.Equal(t, 2, code)
	_, errOut, code := runCLI(t, "bogus")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "unknown command")
	_, _, code = runCLI(t, "merchants", "create", "--json")
	require.Equal(t, 2, code, "--name is required")
	_, _, code = runCLI(t, "keys", "rotate", "--merchant", "not-a-uuid")
	require.Equal(t, 2, code)
	out, _, code := runCLI(t, "help")
	require.Equal(t, 0, code)
	require.Contains(t, out, "merchants create")
}

func toStrings[T ~string](v []T) []string {
	out := make([]string, len(v))
	for i, s := range v {
		out[i] = string(s)
	}
	return out
}

// The commands say which database they use, merchants create says what to
// run next, and serve logs where to start and warns when its database has
// no merchant (most often: another command ran with another data dir).
func TestCommandsNameTheirDatabaseAndTheNextStep(t *testing.T) {
	t.Parallel()
	u := &readmeUser{dir: dataDir(t)}
	out, errOut, code := u.run(t, "merchants", "create", "--name", "Next Step")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "Next: start the server on this database (the embedded PostgreSQL in data dir "+u.dir+")")
	require.Contains(t, out, "server serve --data-dir "+u.dir)
	out, errOut, code = u.run(t, "merchants", "create", "--name", "Next Step JSON", "--json")
	require.Equal(t, 0, code, errOut)
	var m createdMerchant
	require.NoError(t, json.Unmarshal([]byte(out), &m), "stdout stays the JSON alone: %s", out)
	require.Contains(t, errOut, "server serve --data-dir "+u.dir)

	_, errOut, code = u.run(t, "seed", "--merchant", m.Merchant.ID, "--json")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, errOut, "seed: using the embedded PostgreSQL in data dir "+u.dir)

	empty := &readmeUser{dir: dataDir(t)}
	url, logs := empty.serveWithLogs(t)
	require.True(t, logs.awaitLine("no merchant in this database"), logs.String())
	require.Contains(t, logs.String(), "data dir "+empty.dir)
	require.Contains(t, logs.String(), `"playground":"`+url+`/playground"`)
	require.Contains(t, logs.String(), `"dashboard":"`+url+`/dashboard"`)
	require.Contains(t, logs.String(), `"docs":"`+url+`/docs/"`)
	require.Contains(t, logs.String(), `"openapi":"`+url+`/openapi.json"`)
}

// `server openapi` prints the served document without a database.
func TestOpenAPICommandPrintsTheDocument(t *testing.T) {
	out, errOut, code := runCLI(t, "openapi")
	require.Equal(t, 0, code, errOut)
	var doc struct {
		OpenAPI string                    `json:"openapi"`
		Paths   map[string]map[string]any `json:"paths"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Equal(t, "3.1.0", doc.OpenAPI)
	require.Contains(t, doc.Paths, "/v1/accounts")
}
