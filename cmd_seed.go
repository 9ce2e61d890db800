package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/secrets"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/seed"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// seedResult is the --json output of seed: the merchant, the mode and
// the counts of what was created.
type seedResult struct {
	MerchantID string        `json:"merchant_id"`
	Mode       string        `json:"mode"`
	Created    *seed.Summary `json:"created"`
}

// seedCommand fills a merchant's sandbox with the sample data set of
// internal/seed (docs/sandbox.md, "Sample data"). Each run adds one more
// identical set. Production mode and an unknown merchant are refused
// before anything is written.
func seedCommand(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("seed", flag.ContinueOnError)
	fs.SetOutput(stderr)
	merchant := fs.String("merchant", "", "merchant id (required)")
	mode := fs.String("mode", "sandbox", "sandbox (production is refused: sample data never goes there)")
	asJSON := fs.Bool("json", false, "print JSON")
	var dbf dbFlags
	mid, err := parseMerchantFlags(fs, &dbf, merchant, args, stderr)
	if err != nil {
		return err
	}
	switch *mode {
	case "sandbox":
	case "production":
		return seed.ErrProduction
	default:
		fmt.Fprintln(stderr, "--mode must be sandbox")
		return errUsage
	}
	fmt.Fprintf(stderr, "seed: using %s\n", dbf.describe())
	var sum *seed.Summary
	err = dbf.withDatabase(func(ctx context.Context, db *store.DB) error {
		m := new(auth.Merchant)
		if err := db.Bun.NewSelect().Model(m).Where("id = ?", mid).Scan(ctx); err != nil {
			if store.IsNoRows(err) {
				return fmt.Errorf("no merchant %s (see 'server merchants list')", mid)
			}
			return err
		}
		a, err := seedApp(db)
		if err != nil {
			return err
		}
		defer a.Close()
		sum, err = seed.Run(ctx, a.Services, m)
		return err
	})
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(seedResult{MerchantID: mid.String(), Mode: *mode, Created: sum})
	}
	fmt.Fprintf(stdout, "seeded the sandbox of merchant %s:\n", mid)
	return sum.Print(stdout)
}

// seedApp builds the operation layer as serve does, with the same job
// engine and workers, which it does not start: the background work the
// seed's writes enqueue (settlements, webhook deliveries) waits in the
// database for a server to work it.
func seedApp(db *store.DB) (*app.App, error) {
	clk, logger := clock.Real{}, cliLogger()
	delivery := webhooks.NewDelivery(db, secrets.NewSource(db, os.Getenv(secrets.EnvVar)), clk, logger, webhooks.DeliveryConfig{Timeout: webhooks.DefaultDeliveryTimeout,
		ConnectTimeout: webhooks.DefaultConnectTimeout, Workers: webhooks.DefaultDeliveryWorkers})
	cfg, err := jobsConfig(db, clk, logger, delivery)
	if err != nil {
		return nil, err
	}
	engine, err := jobs.New(db.Pool, cfg)
	if err != nil {
		return nil, err
	}
	o := appOptions(db, clk, logger)
	o.Jobs, o.Workers = engine, cfg.Workers
	return app.New(o), nil
}
