package main

import (
	"io"
	"net/http"
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

// `serve --replica` copies its embedded PostgreSQL into a local streaming
// standby (pg_basebackup) and reads lists from it: /metrics shows the
// replica in rotation and the reads it served.
func TestServeReplicaReadsListsFromALocalStandby(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	require.Contains(t, string(readme), "go run . serve --replica", "the README shows the command this test runs")
	u := &readmeUser{dir: dataDir(t)}
	m := u.createMerchant(t, "--name", "Replicated", "--json")
	url := u.serve(t, "--replica")

	for range 2 {
		req, err := http.NewRequest(http.MethodGet, url+"/v1/accounts", nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+m.APIKeys.Sandbox.Secret)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
	}
	resp, err := http.Get(url + "/metrics")
	require.NoError(t, err)
	metrics, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	require.Regexp(t, regexp.MustCompile(`(?m)^db_replica_serving\{replica="127\.0\.0\.1:\d+"\} 1$`), string(metrics))
	require.Regexp(t, regexp.MustCompile(`(?m)^db_replica_reads_total\{replica="127\.0\.0\.1:\d+"\} 2$`), string(metrics))
}
