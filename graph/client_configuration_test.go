package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The client configuration through GraphQL: the REST values, read with a
// publishable key; production mode has no provider.
func TestClientConfigurationGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	merchant := f.env.Merchant.ID.String()
	g := gql(t, f.pk, `{ evervaultConfiguration { appId teamId } siftConfiguration { accountId beaconKey }
		googlePayConfiguration { identifier environment processor processorKey } }`, nil)
	require.Equal(t, map[string]any{"appId": "app_sandbox", "teamId": "team_sandbox"}, g.Data["evervaultConfiguration"])
	require.Equal(t, map[string]any{"accountId": "sift_sandbox", "beaconKey": "beacon_sandbox"}, g.Data["siftConfiguration"])
	require.Equal(t, map[string]any{"identifier": merchant, "environment": "TEST", "processor": "sandbox",
		"processorKey": "gpay_sandbox_" + merchant}, g.Data["googlePayConfiguration"])
	require.Equal(t, 1, g.Statements, "the credential only")

	_, e := gqlError(t, f.live, `{ googlePayConfiguration { identifier } }`, nil)
	require.Equal(t, "provider_not_configured", code(e))
}
