package apierr

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFieldsUnderRecordsNestedPaths(t *testing.T) {
	var f Fields
	f.Add("amount", "is required")
	card := f.Under("payment_method_data")
	require.True(t, card.Empty())
	card.Add("card_number", "is not a valid card number")
	card.Under("billing").Add("country", "is invalid")
	require.False(t, card.Empty())
	require.True(t, card.Has("card_number"))
	require.True(t, f.Has("payment_method_data.card_number"))
	require.True(t, f.Under("shipping").Empty())
	e := As(card.Err())
	require.Equal(t, map[string][]string{"amount": {"is required"},
		"payment_method_data.card_number":     {"is not a valid card number"},
		"payment_method_data.billing.country": {"is invalid"}}, e.Fields)
	require.Equal(t, "Validation failed: amount is required; payment_method_data.card_number is not a valid card number; "+
		"payment_method_data.billing.country is invalid", e.Message)
}
