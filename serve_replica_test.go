package main

import (
	"io"
	"net/http"
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv/poll"
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
	// The standby starts behind the primary it was copied from: it serves
	// once a check has found it caught up.
	serving := regexp.MustCompile(`(?m)^db_replica_serving\{replica="127\.0\.0\.1:\d+"\} 1$`)
	poll.Until(t, "the replica to enter the rotation", func() bool { return serving.MatchString(metricsOf(t, url)) })

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
	require.Regexp(t, regexp.MustCompile(`(?m)^db_replica_reads_total\{replica="127\.0\.0\.1:\d+"\} 2$`), metricsOf(t, url))
}

func metricsOf(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url + "/metrics")
	require.NoError(t, err)
	defer func() { _ = resp.Body.Close() }()
	metrics, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return string(metrics)
}
