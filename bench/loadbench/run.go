package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/clock"
)

// settle is the pause between two measured points.
const settle = 500 * time.Millisecond

// run is the whole benchmark; everything it starts is stopped before it
// returns.
func run(ctx context.Context, cfg config) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	wrkBin, err := exec.LookPath("wrk")
	if err != nil {
		return errors.New("wrk not found; `make loadbench` installs it (Debian: apt-get install wrk)")
	}
	pgbenchBin, err := findPgbench()
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "loadbench-")
	if err != nil {
		return err
	}
	// As root PostgreSQL runs as the postgres user, who must reach the data
	// dir inside.
	if err := os.Chmod(work, 0o755); err != nil {
		return err
	}
	if cfg.keep {
		defer logf("kept %s", work)
	} else {
		defer func() { _ = os.RemoveAll(work) }()
	}
	res, err := newResults(root, cfg.results, work)
	if err != nil {
		return err
	}

	logf("building the server")
	bin := filepath.Join(work, "server")
	if err := buildServer(ctx, root, bin); err != nil {
		return err
	}
	dataDir := filepath.Join(work, "data")
	logf("starting the server on a fresh embedded PostgreSQL in %s", dataDir)
	srv, err := startServer(ctx, bin, dataDir, filepath.Join(work, "server.log"))
	if err != nil {
		return err
	}
	defer func() {
		logf("stopping the server and its database")
		srv.stop()
	}()
	db, err := attachDatabase(ctx, dataDir, cfg.database)
	if err != nil {
		return err
	}
	defer db.close()

	m, err := createMerchant(ctx, bin, dataDir, "loadbench")
	if err != nil {
		return err
	}
	api := newAPIClient(srv.baseURL, m.APIKeys.Sandbox.Secret)
	dash, err := createMerchant(ctx, bin, dataDir, "dashboard")
	if err != nil {
		return err
	}
	logf("seeding %d sample data sets for the dashboard queries (server seed)", dashboardSeedRuns)
	if err := seedDashboard(ctx, bin, dataDir, dash.Merchant.ID, dashboardSeedRuns); err != nil {
		return err
	}
	logf("seeding %d accounts with 3 capabilities each", cfg.accounts)
	ids, err := api.seed(ctx, cfg.accounts)
	if err != nil {
		return err
	}
	logf("seeding usage billing: meters, customers, %d metering events for the report", cfg.events)
	usage, err := seedUsage(ctx, api, db, m.Merchant.ID, cfg.events)
	if err != nil {
		return err
	}
	floor, err := startFloor()
	if err != nil {
		return err
	}
	defer floor.close()
	capt, err := newCapturer(ctx, db, api)
	if err != nil {
		return err
	}

	rep := report{when: time.Now(), pgVersion: db.version(ctx), wrkVersion: wrkVersion(wrkBin), // clock: process timing only
		pgbenchVersion: pgbenchVersion(pgbenchBin), duration: cfg.duration, conns: cfg.conns, accounts: cfg.accounts,
		events: cfg.events}
	b := bench{cfg: cfg, wrkBin: wrkBin, pgbenchBin: pgbenchBin, res: res, db: db}
	table, err := shapes(ids[len(ids)/2], usage, dash.APIKeys.Sandbox.Secret)
	if err != nil {
		return err
	}
	all, err := selectShapes(table, cfg.only)
	if err != nil {
		return err
	}
	for _, s := range all {
		rw, err := b.shape(ctx, capt, db, srv, s, m.APIKeys.Sandbox.Secret)
		if err != nil {
			return fmt.Errorf("%s: %w%s", s.slug, err, srv.logTail())
		}
		rep.rows = append(rep.rows, rw)
	}
	if rep.floor, err = b.floor(ctx, floor); err != nil {
		return fmt.Errorf("floor: %w", err)
	}
	if counts := multiCounts(cfg.processes); len(counts) > 0 && len(multiShapes(all)) > 0 {
		setup := multiSetup{bin: bin, dataDir: dataDir, work: work, first: srv, clusterDir: db.inst.DataDir(),
			key: m.APIKeys.Sandbox.Secret, shapes: multiShapes(all)}
		if rep.multi, err = b.multiProcess(ctx, setup, counts); err != nil {
			return fmt.Errorf("multi-process: %w", err)
		}
	}

	if rs := replicaShapes(all); len(rs) > 0 {
		setup := multiSetup{bin: bin, dataDir: dataDir, work: work, first: srv, clusterDir: db.inst.DataDir()}
		setup.key = m.APIKeys.Sandbox.Secret
		if rep.replica, err = b.replicaSection(ctx, setup, rs); err != nil {
			return fmt.Errorf("replica: %w", err)
		}
	}

	md := rep.markdown()
	fmt.Println(md)
	if _, err := res.write("table.md", md); err != nil {
		return err
	}
	if cfg.docs != "" {
		path := cfg.docs
		if !filepath.IsAbs(path) {
			path = filepath.Join(root, path)
		}
		if err := writeDocs(path, md); err != nil {
			return err
		}
		logf("wrote the table to %s", path)
	}
	return nil
}

// bench measures points.
type bench struct {
	cfg        config
	wrkBin     string
	pgbenchBin string
	res        results
	db         *database
}

// selectShapes keeps the shapes named by slug, in the table's order; all
// of them when none is named.
func selectShapes(all []shape, slugs []string) ([]shape, error) {
	if len(slugs) == 0 {
		return all, nil
	}
	var known []string
	for _, s := range all {
		known = append(known, s.slug)
	}
	for _, slug := range slugs {
		if !slices.Contains(known, slug) {
			return nil, fmt.Errorf("-shapes: no shape %q (shapes: %s)", slug, strings.Join(known, ", "))
		}
	}
	return slices.DeleteFunc(all, func(s shape) bool { return !slices.Contains(slugs, s.slug) }), nil
}

// shape captures a shape's statements, then measures it through the API and
// bare at every connection count.
func (b bench) shape(ctx context.Context, capt *capturer, db *database, srv *server, s shape, key string) (row, error) {
	rw := row{label: s.label, points: map[int]point{}}
	if s.key != "" {
		key = s.key
	}
	logf("%s: capturing the statements of one request", s.slug)
	c, started, err := capt.capture(ctx, s)
	if err != nil {
		return rw, err
	}
	rw.statements = fmt.Sprint(c.count)
	if c.pings > 0 {
		logf("%s: the request also pinged %d pooled connection(s) (left out)", s.slug, c.pings)
	}
	bare := bareRun(c.statements, started, c.ref)
	if s.fresh && !bare.fresh {
		return rw, fmt.Errorf("no captured statement carries the reference %q the request sent", c.ref)
	}
	rw.protocol = bare.protocol
	rw.latency = s.latency
	if s.latency {
		plan, err := explain(ctx, db, c.statements)
		if err != nil {
			return rw, err
		}
		if _, err := b.res.write(s.slug+".plan.txt", plan); err != nil {
			return rw, err
		}
		rw.plan = planSummary(plan)
		logf("%s: plan: %s", s.slug, rw.plan)
	}
	if bare.note != "" {
		logf("%s: bare in the simple protocol although the server used the extended one: %s", s.slug, bare.note)
	}
	sqlPath, err := b.res.write(s.slug+".sql", bare.text)
	if err != nil {
		return rw, err
	}
	script := bare.args(sqlPath)
	saved := script
	if bare.fresh {
		// A replay by hand needs the counter and a run name too (another
		// lbrun for each further replay, or its inserts are duplicates).
		saved = append(slices.Clone(script), freshRunArgs(s.slug+"-by-hand")...)
	}
	if _, err := b.res.write(s.slug+".pgbench-args", strings.Join(saved, "\n")+"\n"); err != nil {
		return rw, err
	}
	// One run first: the script must work as captured (for a write, with
	// fresh ids every time); two for a fresh shape, whose reference must
	// differ from one pgbench run to the next.
	for i := range 2 {
		if _, err := b.pgbench(ctx, s, bare, script, fmt.Sprintf("check%d", i), 1, 0, 2); err != nil {
			return rw, fmt.Errorf("the captured statements do not run bare (%s): %w", sqlPath, err)
		}
		if !bare.fresh {
			break
		}
	}
	luaPath, err := b.res.write(s.slug+".lua", wrkScript(s.method, key, s.body))
	if err != nil {
		return rw, err
	}
	for _, n := range b.cfg.conns {
		path := luaPath
		if s.fresh {
			if path, err = b.res.write(fmt.Sprintf("%s-c%d.lua", s.slug, n), freshWrkScript(s.method, key, s.body, fmt.Sprintf("c%d", n))); err != nil {
				return rw, err
			}
		}
		before, err := b.inserted(ctx, s)
		if err != nil {
			return rw, err
		}
		w, err := wrk(ctx, b.wrkBin, srv.baseURL+s.path, path, n, b.cfg.duration)
		_, _ = b.res.write(fmt.Sprintf("%s-api-c%d.txt", s.slug, n), w.output)
		if err != nil {
			return rw, err
		}
		if err := b.checkInserted(ctx, s, before, w.requests, "wrk"); err != nil {
			return rw, err
		}
		rw.points[n] = point{api: w}
		logf("%s c=%d: API %s req/s, p99 %s ms%s", s.slug, n, thousands(w.rps), millis(w.p99), socketNote(w))
		if err := clock.Sleep(ctx, settle); err != nil {
			return rw, err
		}
	}
	for _, n := range b.cfg.conns {
		before, err := b.inserted(ctx, s)
		if err != nil {
			return rw, err
		}
		p, err := b.pgbench(ctx, s, bare, script, fmt.Sprintf("c%d", n), n, b.cfg.duration, 0)
		_, _ = b.res.write(fmt.Sprintf("%s-bare-c%d.txt", s.slug, n), p.output)
		if err != nil {
			return rw, err
		}
		if err := b.checkInserted(ctx, s, before, p.processed, "pgbench"); err != nil {
			return rw, err
		}
		pt := rw.points[n]
		pt.bare = &p
		rw.points[n] = pt
		logf("%s c=%d: bare (%s) %s tx/s, API / bare %.2f%s", s.slug, n, bare.protocol, thousands(p.tps), pt.api.rps/p.tps, p99Note(p))
		if err := clock.Sleep(ctx, settle); err != nil {
			return rw, err
		}
	}
	return rw, nil
}

// pgbench runs a shape's bare script: for a fresh shape with the run's
// own references (point names the run), for a latency shape logging each
// run's latency for the p99.
func (b bench) pgbench(ctx context.Context, s shape, bare bareScript, script []string, point string,
	conns int, dur time.Duration, transactions int) (pgbenchResult, error) {
	args := slices.Clone(script)
	if bare.fresh {
		args = append(args, freshRunArgs(s.slug+"-"+point)...)
	}
	if !s.latency || transactions > 0 {
		return pgbench(ctx, b.pgbenchBin, b.db.url, args, conns, dur, transactions)
	}
	dir, err := os.MkdirTemp("", "loadbench-latency-")
	if err != nil {
		return pgbenchResult{}, err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	p, err := pgbench(ctx, b.pgbenchBin, b.db.url, append(args, latencyArgs(dir)...), conns, dur, transactions)
	if err != nil {
		return p, err
	}
	p.p99, err = pgbenchP99(dir)
	return p, err
}

// inserted counts a shape's rows before a run (0 when it counts none).
func (b bench) inserted(ctx context.Context, s shape) (int64, error) {
	if s.inserted == nil {
		return 0, nil
	}
	return s.inserted(ctx, b.db)
}

// checkInserted makes sure a run of a shape that inserts added a row per
// request completed (a request in flight when the run ended may add one
// more): otherwise requests answered without inserting.
func (b bench) checkInserted(ctx context.Context, s shape, before, requests int64, by string) error {
	if s.inserted == nil {
		return nil
	}
	after, err := s.inserted(ctx, b.db)
	if err != nil {
		return err
	}
	if after-before < requests {
		return fmt.Errorf("%s completed %d requests but %d rows were inserted", by, requests, after-before)
	}
	logf("%s: %s completed %d requests, %d rows inserted", s.slug, by, requests, after-before)
	return nil
}

// floor measures the net/http floor at every connection count.
func (b bench) floor(ctx context.Context, f *floorServer) (row, error) {
	rw := row{label: "floor: `net/http` JSON GET", statements: "–", points: map[int]point{}}
	luaPath, err := b.res.write("floor.lua", wrkScript("GET", "", ""))
	if err != nil {
		return rw, err
	}
	for _, n := range b.cfg.conns {
		w, err := wrk(ctx, b.wrkBin, f.url, luaPath, n, b.cfg.duration)
		_, _ = b.res.write(fmt.Sprintf("floor-c%d.txt", n), w.output)
		if err != nil {
			return rw, err
		}
		rw.points[n] = point{api: w}
		logf("floor c=%d: %s req/s, p99 %s ms%s", n, thousands(w.rps), millis(w.p99), socketNote(w))
		if err := clock.Sleep(ctx, settle); err != nil {
			return rw, err
		}
	}
	return rw, nil
}

func p99Note(p pgbenchResult) string {
	if p.p99 == 0 {
		return ""
	}
	return ", bare p99 " + millis(p.p99) + " ms"
}

func socketNote(w wrkResult) string {
	if w.socketErrors == "" {
		return ""
	}
	return " (socket errors: " + w.socketErrors + ")"
}
