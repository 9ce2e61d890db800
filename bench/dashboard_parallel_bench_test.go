package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
)

// parallelConnections is how many requests BenchmarkDashboardShapesParallel
// keeps in flight: the connections of `make loadbench`.
const parallelConnections = 32

// BenchmarkDashboardShapesParallel runs the dashboard's queries as
// BenchmarkDashboardShapes does, but with parallelConnections requests in
// flight on as many kept-alive connections, as `make loadbench` sends
// them: what only concurrency costs (the scheduler, the collector with
// more requests live, lock contention, the network poller) shows here and
// not in the one-at-a-time benchmark. Run it with -cpu 2 (the machine's
// cores) and -mutexprofile or -blockprofile to see contention; cpu-ns/op
// is the CPU time of this process per request, client included.
func BenchmarkDashboardShapesParallel(b *testing.B) {
	env, queries := dashboardEnv(b)
	// The test client's transport keeps two idle connections per host:
	// with more requests in flight it would open and close connections
	// all along, which `make loadbench` does not.
	transport := &http.Transport{MaxIdleConnsPerHost: parallelConnections, MaxConnsPerHost: parallelConnections}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport}
	for _, op := range queries {
		body, err := json.Marshal(map[string]any{"query": op.Document, "operationName": op.Name})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strings.TrimPrefix(op.Name, "Dashboard"), func(b *testing.B) {
			b.SetParallelism(max(1, parallelConnections/runtime.GOMAXPROCS(0)))
			cpu := processCPU()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := postGraphQL(client, env.Server.URL, env.Keys.Sandbox.Secret, body); err != nil {
						b.Errorf("%s: %v", op.Name, err)
						return
					}
				}
			})
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// postGraphQL sends one GraphQL request and fails unless it is answered
// 200 without errors.
func postGraphQL(client *http.Client, url, key string, body []byte) error {
	req, err := http.NewRequest(http.MethodPost, url+"/graphql", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK || bytes.Contains(raw, []byte(`"errors"`)) {
		return fmt.Errorf("%d %s", resp.StatusCode, raw)
	}
	return nil
}
