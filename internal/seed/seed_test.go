package seed_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/seed"
	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// seededLists are the lists a dashboard reads, in the order it would.
var seededLists = []string{
	"/v1/accounts?include_disabled=true", "/v1/customers", "/v1/products", "/v1/test_helpers/test_clocks",
	"/v1/subscriptions", "/v1/invoices", "/v1/transfers", "/v1/refunds", "/v1/disputes", "/v1/payouts",
	"/v1/events", "/v1/payment_methods",
}

// variable are the members that differ between two seeded merchants: ids
// and what carries one, and the network's random references; instants are the times (Unix seconds and RFC 3339),
// which the wall clock stamps differently on each run.
var (
	variable = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(whsec|evt|ch|in|sk|pk)_[A-Za-z0-9_]+` +
		`|"(acquirer_reference_number|authorization_code|fingerprint)":"[^"]*"`)
	instants = regexp.MustCompile(`\b1[0-9]{9}\b|\d{4}-\d{2}-\d{2}T[0-9:.]+Z`)
)

// shapes reads every list of a merchant's sandbox, oldest first, with the
// ids and the wall-clock stamps replaced.
func shapes(t *testing.T, c *testenv.Client) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, path := range seededLists {
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		var all []any
		for page := 1; ; page++ {
			r := c.Get(fmt.Sprintf("%s%sper_page=100&page=%d", path, sep, page))
			require.Equal(t, 200, r.Status, "%s: %s", path, r.Body)
			data := items(t, r.JSON())
			all = append(all, data...)
			if len(data) < 100 {
				break
			}
		}
		raw, err := json.Marshal(all)
		require.NoError(t, err)
		out[path] = instants.ReplaceAllString(variable.ReplaceAllString(string(raw), "ID"), "TIME")
	}
	return out
}

func TestTwoMerchantsSeededHaveTheSameShapes(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	var got []map[string]string
	var sums []*seed.Summary
	for _, name := range []string{"First", "Second"} {
		m, keys := env.NewMerchant(auth.NewMerchant{Name: name})
		began := time.Now()
		sum, err := seed.Run(context.Background(), env.Services, m)
		require.NoError(t, err)
		t.Logf("seeded in %s", time.Since(began))
		sums = append(sums, sum)
		got = append(got, shapes(t, env.Client(keys.Sandbox.Secret)))
	}
	require.Equal(t, sums[0], sums[1])
	for _, path := range seededLists {
		assert.Equal(t, got[0][path], got[1][path], path)
	}
	require.Equal(t, seed.Summary{Accounts: 6, Customers: 4, PaymentMethods: 13, Products: 2, TestClocks: 1,
		Subscriptions: 4, Invoices: 15, Transfers: 7, Refunds: 3, Disputes: 2, Payouts: 2, Events: sums[0].Events},
		*sums[0])
	require.Positive(t, sums[0].Events)
}

// items are a list's items: under data, or the key the spec names
// ({meta, subscriptions}).
func items(t *testing.T, page map[string]any) []any {
	t.Helper()
	for _, key := range []string{"data", "subscriptions"} {
		if v, ok := page[key].([]any); ok {
			return v
		}
	}
	t.Fatalf("not a list: %v", page)
	return nil
}

func TestAMerchantWithoutTheProductsIsRefusedBeforeAnythingIsWritten(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	for _, in := range []auth.NewMerchant{
		{Name: "Identity only", Products: []string{"identity"}},
		{Name: "No card receive", Products: []string{"identity", "payments", "payouts"}, DisabledCapabilities: []string{"card_receive"}},
	} {
		m, keys := env.NewMerchant(in)
		_, err := seed.Run(context.Background(), env.Services, m)
		require.ErrorContains(t, err, "the sample data needs what merchant "+m.ID.String()+" lacks", in.Name)
		for _, path := range seededLists {
			r := env.Client(keys.Sandbox.Secret).Get(path)
			require.Equal(t, 200, r.Status, string(r.Body))
			require.Empty(t, items(t, r.JSON()), "%s: %s", in.Name, path)
		}
	}
}
