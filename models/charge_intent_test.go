package models

import (
	"encoding/json"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

// The one place the secret-key-only members of a charge intent are left
// out (spec doc 2 §5.3): customer, account, metadata, revenue_split and
// order; customer_id and account_id remain.
func TestChargeIntentRendersWithoutSecretKeyMembersWhenPublic(t *testing.T) {
	customer, account := uuid.New(), uuid.New()
	ci := ChargeIntent{ID: uuid.New(), Amount: 100, Currency: "usd", Status: ChargeIntentRequiresConfirmation,
		CustomerID: &customer, Customer: &Customer{ID: customer, Email: "a@example.com"}, AccountID: &account,
		Metadata: Metadata{"internal": "x"}, RevenueSplit: map[string]any{"a": 1}, Order: map[string]any{"total_cents": 100}}
	members := func(public bool) map[string]any {
		ci.SetPublic(public)
		raw, err := json.Marshal(ci)
		require.NoError(t, err)
		var out map[string]any
		require.NoError(t, json.Unmarshal(raw, &out))
		return out
	}
	secret := members(false)
	for _, k := range []string{"customer", "account", "metadata", "revenue_split", "order", "customer_id", "account_id"} {
		require.Contains(t, secret, k)
	}
	public := members(true)
	for _, k := range []string{"customer", "account", "metadata", "revenue_split", "order"} {
		require.NotContains(t, public, k)
	}
	require.Equal(t, customer.String(), public["customer_id"])
	require.Equal(t, account.String(), public["account_id"])
	require.Len(t, public, len(secret)-5, "nothing else is left out")
	require.True(t, ci.IsPublic())
}
