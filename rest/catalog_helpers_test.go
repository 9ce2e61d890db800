package rest_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

const timeSecond = time.Second

func testAuthMerchant(name string) auth.NewMerchant { return auth.NewMerchant{Name: name} }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// listOf GETs a {meta, data} list and returns its data.
func listOf(t *testing.T, c *testenv.Client, path string) []map[string]any {
	t.Helper()
	r := c.Get(path)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var body struct {
		Meta map[string]any   `json:"meta"`
		Data []map[string]any `json:"data"`
	}
	r.Decode(&body)
	require.NotNil(t, body.Meta, "a list carries meta: %s", r.Body)
	require.NotNil(t, body.Data, "a list carries data: %s", r.Body)
	return body.Data
}

// ids lists the ids of objects, in order.
func ids(objs []map[string]any) []string {
	out := []string{}
	for _, o := range objs {
		out = append(out, o["id"].(string))
	}
	return out
}

// insertCard writes an active card payment method of customerID as a row.
func (f *fixture) insertCard(t *testing.T, customerID string) map[string]any {
	t.Helper()
	id := "0190a0b0-0000-7000-8000-" + strconv.FormatInt(time.Now().UnixNano()%1e12, 10)
	for len(id) < 36 {
		id += "0"
	}
	f.exec(t, `INSERT INTO payment_methods (merchant_id, id, livemode, type, status, customer_id, card, fingerprint, created, updated)
		VALUES (?, ?, false, 'card', 'active', ?, '{"brand":"visa","last_four":"4242","exp_month":"12","exp_year":"2030","instant_available":false}', 'fp', ?, ?)`,
		f.env.Merchant.ID, id, customerID, testenv.Start, testenv.Start)
	return map[string]any{"id": id}
}

// cardRow reads a payment method as the customer renders it.
func (f *fixture) cardRow(t *testing.T, pmID string) map[string]any {
	t.Helper()
	var status string
	var card []byte
	require.NoError(t, f.env.DB.Bun.QueryRowContext(t.Context(), "SELECT status, card FROM payment_methods WHERE id = ?", pmID).Scan(&status, &card))
	var c map[string]any
	require.NoError(t, jsonUnmarshal(card, &c))
	return map[string]any{"status": status, "card": c}
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
