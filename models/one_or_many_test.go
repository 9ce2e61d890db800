package models

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// A OneOrMany member reads one object as a list of one and a list as it
// is; a member of another type, or a bad member inside the one object, is
// the decoder's type error with the path an array's element would have,
// so the transports name it as they name any other.
func TestOneOrManyReadsOneObjectAsAListOfOne(t *testing.T) {
	q := func(n int) *int { return &n }
	for _, tc := range []struct {
		body string
		want OneOrMany[*LineItemInput]
	}{
		{`{"line_items": {"quantity": 2}}`, OneOrMany[*LineItemInput]{{Quantity: q(2)}}},
		{`{"line_items": [{"quantity": 2}, {"quantity": 3}]}`, OneOrMany[*LineItemInput]{{Quantity: q(2)}, {Quantity: q(3)}}},
		{`{"line_items": []}`, OneOrMany[*LineItemInput]{}},
		{`{"line_items": null}`, nil},
		{`{}`, nil},
	} {
		var in CreateInvoiceInput
		require.NoError(t, json.Unmarshal([]byte(tc.body), &in), tc.body)
		require.Equal(t, tc.want, in.LineItems, tc.body)
	}
	for body, field := range map[string]string{
		`{"line_items": "one"}`:                          "line_items",
		`{"line_items": 1}`:                              "line_items",
		`{"line_items": {"quantity": "2"}}`:              "line_items.quantity",
		`{"line_items": [{"quantity": "2"}]}`:            "line_items.quantity",
		`{"line_items": {"quantity": 2, "x": [}`:         "",
		`{"line_items": {"quantity": 2}, "currency": 1}`: "currency",
	} {
		var in CreateInvoiceInput
		err := json.Unmarshal([]byte(body), &in)
		require.Error(t, err, body)
		var te *json.UnmarshalTypeError
		if field == "" {
			require.False(t, errors.As(err, &te), "malformed JSON is a syntax error: %s", body)
			continue
		}
		require.True(t, errors.As(err, &te), "%s: %v", body, err)
		require.Equal(t, field, te.Field, body)
	}
}
