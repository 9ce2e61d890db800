package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/resolvers/money"
)

func merchantsCommand(args []string, stdout, stderr io.Writer) error {
	return dispatch("merchants", map[string]subcommand{"create": merchantsCreate, "list": merchantsList},
		"create|list", args, stdout, stderr)
}

// createdMerchant is the --json output of merchants create (API-DECISIONS §1).
type createdMerchant struct {
	Merchant struct {
		ID       string   `json:"id"`
		Name     string   `json:"name"`
		Products []string `json:"products"`
	} `json:"merchant"`
	APIKeys auth.IssuedKeys `json:"api_keys"`
}

func merchantsCreate(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("merchants create", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("name", "", "merchant name (required)")
	products := fs.String("products", "", "comma-separated products (default: all of "+joinProducts()+")")
	disabled := fs.String("disabled-capabilities", "", "comma-separated capabilities switched off for this merchant")
	asJSON := fs.Bool("json", false, "print JSON")
	defaultFees := fs.Bool("with-default-fees", false, "add a Standard Platform Fee plan (cards 2.9 % + 30) with active charge and payout agreements, in both modes")
	var dbf dbFlags
	dbf.register(fs)
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	in := auth.NewMerchant{Name: strings.TrimSpace(*name)}
	if in.Name == "" {
		fmt.Fprintln(stderr, "--name is required")
		return errUsage
	}
	for _, p := range splitList(*products) {
		prod, ok := capability.ParseProduct(p)
		if !ok {
			return fmt.Errorf("unknown product %q (known: %s)", p, joinProducts())
		}
		in.Products = append(in.Products, string(prod))
	}
	for _, c := range splitList(*disabled) {
		n, ok := capability.ParseName(c)
		if !ok {
			return fmt.Errorf("unknown capability %q", c)
		}
		in.DisabledCapabilities = append(in.DisabledCapabilities, string(n))
	}
	if in.Products == nil { // every product
		for _, p := range capability.AllProducts() {
			in.Products = append(in.Products, string(p))
		}
	}
	return dbf.withDatabase(func(ctx context.Context, db *store.DB) error {
		_, _, err := auth.CreateMerchantWith(ctx, db, clock.Real{}, in, func(ctx context.Context, c auth.CreatedMerchant) error {
			if *defaultFees {
				for _, live := range []bool{false, true} {
					if err := money.InsertDefaultFees(ctx, c.Tenant(live), c.Merchant.Created.Time); err != nil {
						return fmt.Errorf("default fees: %w", err)
					}
				}
			}
			return printCreatedMerchant(stdout, c, *asJSON)
		})
		if err == nil {
			printNextStep(stdout, stderr, &dbf, *asJSON)
		}
		return err
	})
}

// printNextStep tells what to run next: serve on the same data dir, then
// a first request. With --json it goes to stderr, leaving stdout the JSON
// alone.
func printNextStep(stdout, stderr io.Writer, dbf *dbFlags, asJSON bool) {
	w := stdout
	if asJSON {
		w = stderr
	}
	serve := "server serve"
	if os.Getenv("DATABASE_URL") == "" {
		serve += " --data-dir " + shellQuote(dbf.absDataDir())
	}
	fmt.Fprintf(w, "\nNext: start the server on this database (%s):\n  %s\n"+
		"then open http://localhost:8080/ (playground, dashboard, OpenAPI document, docs), or\n"+
		"  curl -s localhost:8080/v1/accounts -H 'Authorization: Bearer <the sandbox secret key>'\n",
		dbf.describe(), serve)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// printCreatedMerchant shows a new merchant and its keys, the one time
// they are shown. `merchants create` is all or nothing: it calls this
// inside the transaction that creates the merchant, with its keys and
// (--with-default-fees) its fees, before the commit. The output is
// rendered whole first and written in one call; a failed write (stdout
// closed) rolls everything back, so no merchant is left whose keys nobody
// saw. The one remaining outcome, a commit that fails after the keys were
// printed, is reported as an error and leaves no merchant: the printed keys
// then belong to nothing and open nothing.
func printCreatedMerchant(stdout io.Writer, c auth.CreatedMerchant, asJSON bool) error {
	m, keys := c.Merchant, c.Keys
	var buf bytes.Buffer
	if asJSON {
		var out createdMerchant
		out.Merchant.ID, out.Merchant.Name, out.Merchant.Products = m.ID.String(), m.Name, m.Products
		out.APIKeys = keys
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(&buf, "merchant %s (%s)\nproducts: %s\n\nThe keys are shown once; store them now.\n", m.ID, m.Name, joinAny(m.Products))
		tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "sandbox secret\t%s\nsandbox publishable\t%s\nproduction secret\t%s\nproduction publishable\t%s\n",
			keys.Sandbox.Secret, keys.Sandbox.Publishable, keys.Production.Secret, keys.Production.Publishable)
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if _, err := stdout.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("print the keys: %w", err)
	}
	return nil
}

func merchantsList(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("merchants list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	var dbf dbFlags
	dbf.register(fs)
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	var ms []auth.Merchant
	err := dbf.withDatabase(func(ctx context.Context, db *store.DB) error {
		return db.Bun.NewSelect().Model(&ms).Order("created").Scan(ctx)
	})
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(ms)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tPRODUCTS")
	for _, m := range ms {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", m.ID, m.Name, joinAny(m.Products))
	}
	return tw.Flush()
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func joinProducts() string { return joinAny(capability.AllProducts()) }

func joinAny[T ~string](v []T) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = string(x)
	}
	return strings.Join(s, ",")
}
