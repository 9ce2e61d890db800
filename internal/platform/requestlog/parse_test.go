package requestlog

import (
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/store"
)

// The channel carries announcements and records; anything else is
// dropped.
func TestParseReadsAnnouncementsAndRecords(t *testing.T) {
	m := uuid.MustParse("019bc186-de00-75ef-8e0d-063ec2b297b2")
	sc := store.Scope{MerchantID: m}

	key, n, ok := parse(scopePrefix(sc) + "t")
	require.True(t, ok)
	require.Equal(t, announcements, key, "every announcement goes to the feed itself")
	require.Equal(t, note{scope: sc, tailed: true}, n)

	key, n, ok = parse(scopePrefix(sc) + `r|{"request_id":"req_1","method":"GET","path":"/v1/a|b","status":200,"duration_ms":1.5}`)
	require.True(t, ok)
	require.Equal(t, sc, key)
	require.Equal(t, Record{RequestID: "req_1", Method: "GET", Path: "/v1/a|b", Status: 200, DurationMS: 1.5}, n.record)

	for _, bad := range []string{"", "x|false|t", scopePrefix(sc) + "r|not json", scopePrefix(sc) + "q", scopePrefix(sc) + "t|extra"} {
		_, _, ok := parse(bad)
		require.False(t, ok, bad)
	}
}
