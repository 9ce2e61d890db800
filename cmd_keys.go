package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

func keysCommand(args []string, stdout, stderr io.Writer) error {
	return dispatch("keys", map[string]subcommand{"rotate": keysRotate, "revoke": keysRevoke},
		"rotate|revoke", args, stdout, stderr)
}

func keysRotate(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("keys rotate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	merchant := fs.String("merchant", "", "merchant id (required)")
	mode := fs.String("mode", "sandbox", "sandbox or production")
	kind := fs.String("kind", "secret", "secret or publishable")
	grace := fs.Duration("grace", 0, "how long the replaced keys keep working (0 = revoke at once)")
	asJSON := fs.Bool("json", false, "print JSON")
	var dbf dbFlags
	mid, err := parseMerchantFlags(fs, &dbf, merchant, args, stderr)
	if err != nil {
		return err
	}
	if *mode != "sandbox" && *mode != "production" {
		fmt.Fprintln(stderr, "--mode must be sandbox or production")
		return errUsage
	}
	k := auth.Kind(*kind)
	if k != auth.SecretKey && k != auth.PublishableKey {
		fmt.Fprintln(stderr, "--kind must be secret or publishable")
		return errUsage
	}
	var key string
	err = dbf.withDatabase(func(ctx context.Context, db *store.DB) (err error) {
		key, err = auth.RotateKey(ctx, db, clock.Real{}, mid, k, *mode == "production", *grace)
		return err
	})
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(map[string]any{"merchant_id": mid, "mode": *mode, "kind": *kind,
			"key": key, "previous_keys_expire_in": grace.String()})
	}
	fmt.Fprintf(stdout, "new %s %s key (shown once): %s\n", *mode, *kind, key)
	if *grace > 0 {
		fmt.Fprintf(stdout, "the replaced keys stop working in %s\n", grace.Round(time.Second))
	} else {
		fmt.Fprintln(stdout, "the replaced keys are revoked; running servers refuse them at once")
	}
	return nil
}

// keysRevoke revokes a key. Running servers hear of it when the revocation
// commits (auth.RevocationChannel) and drop it from their credential caches,
// so it stops working everywhere at once; nothing needs restarting.
func keysRevoke(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("keys revoke", flag.ContinueOnError)
	fs.SetOutput(stderr)
	key := fs.String("key", "", "the key, or its display prefix (e.g. sk_sandbox_AbCd)")
	merchantFlag := fs.String("merchant", "", "the merchant id whose key it is (needed when a display prefix matches keys of several merchants)")
	var dbf dbFlags
	dbf.register(fs)
	if err := fs.Parse(args); err != nil || *key == "" {
		return errUsage
	}
	merchant := uuid.Nil
	if *merchantFlag != "" {
		var err error
		if merchant, err = uuid.Parse(*merchantFlag); err != nil {
			fmt.Fprintln(stderr, "--merchant must be a merchant id")
			return errUsage
		}
	}
	var n int
	err := dbf.withDatabase(func(ctx context.Context, db *store.DB) (err error) {
		n, err = auth.RevokeKeyOf(ctx, db, clock.Real{}, *key, merchant)
		return err
	})
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("no live key matches %q", *key)
	}
	fmt.Fprintf(stdout, "revoked %d key(s); running servers refuse them at once\n", n)
	return nil
}
