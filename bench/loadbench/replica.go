package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/clock"
)

// The replica section measures the reads a read replica takes (lists and
// the GraphQL dashboard's queries) served by a process on the primary
// alone and by a process beside one replica: a second `server serve
// --replica` on the same data dir attaches to the running PostgreSQL and
// starts a local streaming standby of it (pg_basebackup, in
// <data-dir>/replica). Both are driven with the same multiConns
// connections; the replica process's /metrics tells how many of its reads
// the replica served. On one machine the standby competes with the
// primary for the same cores, so the section shows what the replica takes
// off the primary rather than more throughput.

// replicaSlugs are the shapes the section measures.
var replicaSlugs = []string{"list-10", "list-100", "graphql-accounts-50", "graphql-dashboard-accounts", "graphql-dashboard-subscriptions"}

// replicaRow is one shape served both ways.
type replicaRow struct {
	label            string
	primary, replica multiPoint
	replicaShare     float64 // of the replica process's reads, the share the replica served
}

type replicaReport struct {
	conns int
	rows  []replicaRow
}

// replicaShapes keeps the shapes the section measures, in the table's order.
func replicaShapes(all []shape) []shape {
	var out []shape
	for _, s := range all {
		for _, slug := range replicaSlugs {
			if s.slug == slug {
				out = append(out, s)
			}
		}
	}
	return out
}

// replicaSection starts the replica process, measures every shape on the
// first process and on it, and stops it again.
func (b bench) replicaSection(ctx context.Context, m multiSetup, shapes []shape) (*replicaReport, error) {
	logf("starting a server process with a local replica (serve --replica)")
	s, err := startServer(ctx, m.bin, m.dataDir, filepath.Join(m.work, "server-replica.log"), "--replica")
	if err != nil {
		return nil, fmt.Errorf("serve --replica: %w", err)
	}
	defer s.stop()
	if err := awaitReplicaServing(ctx, s.baseURL); err != nil {
		return nil, fmt.Errorf("%w%s", err, s.logTail())
	}
	postmaster, err := postmasterPID(m.clusterDir)
	if err != nil {
		return nil, err
	}
	probe := cpuProbe{postmaster: postmaster, servers: []int{m.first.p.Cmd.Process.Pid, s.p.Cmd.Process.Pid}}
	rep := &replicaReport{conns: multiConns}
	for _, sh := range shapes {
		key := m.key
		if sh.key != "" {
			key = sh.key // the dashboard merchant's
		}
		luaPath, err := b.res.write("replica-"+sh.slug+".lua", wrkScript(sh.method, key, sh.body))
		if err != nil {
			return nil, err
		}
		for _, srv := range []*server{m.first, s} {
			if err := warm(ctx, newAPIClient(srv.baseURL, key), sh); err != nil {
				return nil, fmt.Errorf("%s: %w%s", sh.slug, err, srv.logTail())
			}
		}
		rw := replicaRow{label: sh.label}
		if rw.primary, err = b.multiPoint(ctx, []*server{m.first}, probe, sh, luaPath); err != nil {
			return nil, err
		}
		if err := clock.Sleep(ctx, settle); err != nil {
			return nil, err
		}
		readsBefore, err := replicaReads(ctx, s.baseURL)
		if err != nil {
			return nil, err
		}
		if rw.replica, err = b.multiPoint(ctx, []*server{s}, probe, sh, luaPath); err != nil {
			return nil, err
		}
		readsAfter, err := replicaReads(ctx, s.baseURL)
		if err != nil {
			return nil, err
		}
		if requests := rw.replica.rps * b.cfg.duration.Seconds(); requests > 0 {
			rw.replicaShare = min(1, (readsAfter-readsBefore)/requests)
		}
		logf("%s: primary alone %s req/s, beside a replica %s req/s (%.0f%% of its reads on the replica)",
			sh.slug, thousands(rw.primary.rps), thousands(rw.replica.rps), 100*rw.replicaShare)
		rep.rows = append(rep.rows, rw)
		if err := clock.Sleep(ctx, settle); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

var replicaServingRE = regexp.MustCompile(`(?m)^db_replica_serving\{[^}]*\} 1$`)

// awaitReplicaServing waits until the server's /metrics shows its replica
// in rotation: the standby starts behind its primary and serves once a
// check finds it caught up.
func awaitReplicaServing(ctx context.Context, baseURL string) error {
	for range 3000 { // a minute at most
		body, err := metrics(ctx, baseURL)
		if err != nil {
			return err
		}
		if replicaServingRE.MatchString(body) {
			return nil
		}
		if err := clock.Sleep(ctx, 20*time.Millisecond); err != nil {
			return err
		}
	}
	return fmt.Errorf("the replica never entered the rotation")
}

var replicaReadsRE = regexp.MustCompile(`(?m)^db_replica_reads_total\{[^}]*\} (\S+)$`)

// metrics is a server's /metrics page.
func metrics(ctx context.Context, baseURL string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, baseURL+"/metrics", nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	return string(body), err
}

// replicaReads is the reads a server's replicas served, from its /metrics.
func replicaReads(ctx context.Context, baseURL string) (float64, error) {
	body, err := metrics(ctx, baseURL)
	if err != nil {
		return 0, err
	}
	var total float64
	for _, m := range replicaReadsRE.FindAllStringSubmatch(body, -1) {
		v, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			return 0, err
		}
		total += v
	}
	return total, nil
}

// markdown renders the section ("" when not measured).
func (r *replicaReport) markdown() string {
	if r == nil || len(r.rows) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n#### One read replica beside the primary (%d connections)\n\n", r.conns)
	b.WriteString("The same reads served by a process on the primary alone and by a `serve --replica` process, whose " +
		"lists and GraphQL pages read a local streaming standby on the same machine (docs/scaling.md).\n\n")
	b.WriteString("| shape | primary alone req/s | p99 ms | beside a replica req/s | p99 ms | reads on the replica |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|\n")
	for _, rw := range r.rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %.0f%% |\n", rw.label, thousands(rw.primary.rps), millis(rw.primary.p99),
			thousands(rw.replica.rps), millis(rw.replica.p99), 100*rw.replicaShare)
	}
	return b.String()
}
