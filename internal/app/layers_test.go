package app_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const module = "github.com/frame-oss/payments-server/"

// layerRules say which project packages each layer may import (its
// non-test files). The layers are what docs/architecture.md describes; a
// change that breaks one fails here, not in review.
var layerRules = []struct {
	dir     string   // package directories under this path (recursively)
	allowed []string // project import prefixes allowed
}{
	// Platform: knows no resource, rule or transport.
	{"internal/platform/", []string{"internal/platform/", "migrations"}},
	// Pure domain rules: no I/O, no platform.
	{"internal/domain/", []string{"internal/domain/"}},
	// Wire shapes and inputs.
	{"models", []string{"internal/platform/", "internal/domain/"}},
	// The operation layer (the kit and every area): nothing from a
	// transport.
	{"resolvers/op", []string{"internal/platform/", "internal/domain/", "models"}},
	{"resolvers/accounts", []string{"internal/platform/", "internal/domain/", "models", "resolvers/op"}},
	{"resolvers/webhooks", []string{"internal/platform/", "internal/domain/", "models", "resolvers/op"}},
	{"resolvers/catalog", []string{"internal/platform/", "internal/domain/", "models", "resolvers/op"}},
	{"resolvers/payments", []string{"internal/platform/", "internal/domain/", "models", "resolvers/op"}},
	// Billing collects invoices through the money area's charge path. Its
	// families are packages stacked from the bottom: what an effect of
	// time is (due), invoices, then subscriptions and usage billing through
	// invoices, then test clocks running the effects; a family never
	// imports one above it or beside it (a lower family hears of a higher
	// one through what the higher registers on it), and the area's root
	// package ties them together.
	{"resolvers/billing", []string{"internal/platform/", "internal/domain/", "models", "resolvers/op", "resolvers/money",
		"resolvers/billing/"}},
	{"resolvers/billing/due", []string{"internal/platform/", "internal/domain/", "models", "resolvers/op"}},
	{"resolvers/billing/invoices", []string{"internal/platform/", "internal/domain/", "models", "resolvers/op", "resolvers/money",
		"resolvers/billing/due"}},
	{"resolvers/billing/subscriptions", []string{"internal/platform/", "internal/domain/", "models", "resolvers/op",
		"resolvers/billing/due", "resolvers/billing/invoices"}},
	{"resolvers/billing/usage", []string{"internal/platform/", "internal/domain/", "models", "resolvers/op",
		"resolvers/billing/invoices"}},
	{"resolvers/billing/testclocks", []string{"internal/platform/", "internal/domain/", "models", "resolvers/op",
		"resolvers/billing/due", "resolvers/billing/invoices"}},
	// Money applies promotion codes through the catalog's one redemption
	// function; charge intents create customers (catalog) and inline cards
	// (payments' one validation path) and embed accounts (accounts).
	{"resolvers/money", []string{"internal/platform/", "internal/domain/", "models", "resolvers/op", "resolvers/catalog",
		"resolvers/payments", "resolvers/accounts"}},
	// Funding prices payouts with the money area's payout agreements.
	{"resolvers/funding", []string{"internal/platform/", "internal/domain/", "models", "resolvers/op", "resolvers/money"}},
	// The caller itself: the viewer and its request log.
	{"resolvers/merchant", []string{"internal/platform/", "internal/domain/", "models", "resolvers/op"}},
	{"resolvers/areas", []string{"internal/platform/", "internal/domain/", "models", "resolvers/"}},
	// Sample data: written through the operation layer, as the merchant's
	// sandbox key (the platform gives the principal and scope).
	{"internal/seed", []string{"internal/platform/", "internal/domain/", "models", "resolvers/"}},
	// The transports call the operation layer, never each other; REST's
	// body decoding and rendering are its own package (rest/jsonbody).
	{"rest", []string{"internal/platform/", "internal/domain/", "models", "resolvers/", "rest/jsonbody"}},
	// ActionCable at /cable (the real service's CLI): listen sessions and
	// the request log.
	{"cable", []string{"internal/platform/", "models", "resolvers/webhooks", "resolvers/merchant"}},
	{"graph/loaders", []string{}},
}

func TestLayersImportOnlyWhatTheyMay(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	areas, err := os.ReadDir(filepath.Join(root, "resolvers"))
	require.NoError(t, err)
	for _, a := range areas {
		if a.IsDir() {
			require.True(t, hasRule("resolvers/"+a.Name()),
				"the operation-layer area resolvers/%s needs a rule in layerRules", a.Name())
		}
	}
	for _, rule := range layerRules {
		err := filepath.WalkDir(filepath.Join(root, rule.dir), func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				if !strings.HasPrefix(p, module) {
					continue
				}
				p = strings.TrimPrefix(p, module)
				require.Truef(t, allowed(p, rule.allowed), "%s imports %s, which its layer may not", rel, p)
			}
			return nil
		})
		require.NoError(t, err)
	}
}

func hasRule(dir string) bool {
	for _, r := range layerRules {
		if r.dir == dir {
			return true
		}
	}
	return false
}

func allowed(p string, prefixes []string) bool {
	for _, a := range prefixes {
		if p == strings.TrimSuffix(a, "/") || strings.HasPrefix(p, a) ||
			(!strings.HasSuffix(a, "/") && strings.HasPrefix(p, a+"/")) {
			return true
		}
	}
	return false
}
