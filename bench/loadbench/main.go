// Command loadbench reproduces the load table of docs/performance.md from a
// fresh clone, in one run (`make loadbench`):
//
//  1. builds the server and starts `server serve` on 127.0.0.1 with a fresh
//     temporary data dir (the embedded PostgreSQL, default settings);
//  2. creates a merchant with `server merchants create --json` and seeds
//     accounts with three capabilities each through the API, and usage
//     billing's meters and customers, the report customer's metering
//     events inserted in SQL (usage.go);
//  3. for each request shape, captures the SQL statements one request runs
//     (from the PostgreSQL log, see capture.go), drives the API with wrk at
//     each connection count, then runs the captured statements bare with
//     pgbench (in the protocol the server used, see protocol.go; one
//     pgbench transaction per request) at the same connection counts on the
//     same database; a write that de-duplicates on a reference sends a new
//     one every request, through the API and bare (fresh.go), and a read
//     over many rows is explained first and its p99 compared with the bare
//     one (plan.go);
//  4. drives a bare net/http JSON handler in this process the same way (the
//     floor);
//  5. starts a second `server serve` on the same data dir (it attaches to
//     the running PostgreSQL) and measures the hottest read and the write
//     served by one process and by two, at the same 32 connections in
//     total, with the CPU time of the server processes, PostgreSQL and wrk
//     (multiproc.go, -processes);
//  6. prints the tables and writes them into docs/performance.md between
//     the loadbench markers.
//
// Everything listens on loopback only, every run is bounded by -duration,
// and the servers (the first with its database) are stopped on exit,
// Ctrl-C included.
// wrk and pgbench must be installed; `make loadbench` installs them.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// config is the command line.
type config struct {
	duration  time.Duration // per point (one shape, one connection count)
	conns     []int         // connection counts, each a point
	accounts  int           // accounts seeded before measuring
	events    int           // metering events seeded for the usage report
	only      []string      // shape slugs to measure; nil: all (and the docs are written)
	docs      string        // markdown file to write the table into; "" skips
	results   string        // folder for raw outputs and pgbench scripts; "" skips
	database  string        // database of the embedded cluster; "" finds it
	processes []int         // server process counts of the multi-process section
	keep      bool          // keep the temporary folder (server binary, data dir, logs)
}

func parseFlags(args []string) (config, error) {
	fs := flag.NewFlagSet("loadbench", flag.ContinueOnError)
	var cfg config
	var conns, processes, only string
	fs.DurationVar(&cfg.duration, "duration", 8*time.Second, "duration of each point (whole seconds, at least 1s)")
	fs.StringVar(&conns, "conns", "1,8,32", "comma-separated connection counts")
	fs.StringVar(&processes, "processes", "1,2", "comma-separated server process counts on one database, "+
		"measured after the table at 32 connections in total (1: skip)")
	fs.IntVar(&cfg.accounts, "accounts", 200, "accounts to seed (3 capabilities each)")
	fs.IntVar(&cfg.events, "events", 100_000, "metering events seeded for the usage report's customer")
	fs.StringVar(&only, "shapes", "", "comma-separated shapes to measure, by the slugs of their result files "+
		"(e.g. ingest-metering-event,usage-report-customer); a run of some shapes only prints its tables "+
		"and skips the multi-process part unless it includes that part's shapes")
	fs.StringVar(&cfg.docs, "docs", "docs/performance.md", "file to write the tables into, between the loadbench markers (absolute, or relative to the module root; empty: print only)")
	fs.StringVar(&cfg.results, "results", "bench/results/loadbench", "folder for the captured statements and raw wrk/pgbench output (absolute, or relative to the module root; empty: none)")
	fs.StringVar(&cfg.database, "database", "", "database in the embedded cluster (default: the only application database)")
	fs.BoolVar(&cfg.keep, "keep", false, "keep the temporary folder (server binary, data dir, server log)")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	if cfg.duration < time.Second {
		return config{}, errors.New("-duration must be at least 1s (pgbench counts whole seconds)")
	}
	cfg.duration = cfg.duration.Round(time.Second)
	var err error
	if cfg.conns, err = parseCounts("-conns", conns, 1<<16); err != nil {
		return config{}, err
	}
	if cfg.processes, err = parseCounts("-processes", processes, multiConns); err != nil {
		return config{}, err
	}
	if cfg.accounts < 1 {
		return config{}, errors.New("-accounts must be at least 1")
	}
	if cfg.events < 1 {
		return config{}, errors.New("-events must be at least 1")
	}
	if only != "" {
		for _, s := range strings.Split(only, ",") {
			cfg.only = append(cfg.only, strings.TrimSpace(s))
		}
		cfg.docs = ""
	}
	return cfg, nil
}

// parseCounts reads a comma-separated list of counts from 1 to most.
func parseCounts(flagName, list string, most int) ([]int, error) {
	var out []int
	for _, s := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 || n > most {
			return nil, fmt.Errorf("%s: bad count %q (from 1 to %d)", flagName, s, most)
		}
		out = append(out, n)
	}
	return out, nil
}

func main() {
	cfg, err := parseFlags(os.Args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, "loadbench:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// After the first Ctrl-C the run cleans up; a second one kills us
		// (the server still dies with us: see startLocked).
		<-ctx.Done()
		stop()
	}()
	err = run(ctx, cfg)
	interrupted := ctx.Err() != nil
	stop()
	switch {
	case err != nil && interrupted:
		fmt.Fprintln(os.Stderr, "loadbench: interrupted; the server and its database are stopped")
		os.Exit(130)
	case err != nil:
		fmt.Fprintln(os.Stderr, "loadbench:", err)
		os.Exit(1)
	}
}

// logf prints progress on stderr.
func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s loadbench: %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...)) // clock: process timing only
}
