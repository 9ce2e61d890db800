package rest_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/store"
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

type storeTenant = store.Tenant

func scopeOf(f *fixture) store.Scope { return store.Scope{MerchantID: f.env.Merchant.ID} }
