package main

import (
	"flag"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/webhook"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// Sandbox webhooks reach local addresses by default only when the server
// itself can be reached from its own machine alone.
func TestSandboxLocalDestinationsFollowTheListenAddress(t *testing.T) {
	t.Parallel()
	decide := func(env map[string]string, addr string, args ...string) (webhook.Destinations, error) {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		var c webhooks.DeliveryConfig
		var local sandboxLocal
		require.NoError(t, registerDeliveryFlags(fs, func(k string) string { return env[k] }, &c, &local))
		require.NoError(t, fs.Parse(args))
		return local.destinations(addr)
	}
	allowed, refused := webhook.Destinations{SandboxLocal: true}, webhook.Destinations{}
	for addr, want := range map[string]webhook.Destinations{
		"127.0.0.1:8080": allowed, "[::1]:8080": allowed, "localhost:8080": allowed, "127.0.0.2:80": allowed,
		":8080": refused, "0.0.0.0:8080": refused, "[::]:8080": refused, "10.0.0.5:8080": refused,
		"api.example.com:443": refused, "nonsense": refused,
	} {
		got, err := decide(nil, addr)
		require.NoError(t, err)
		require.Equal(t, want, got, addr)
	}
	got, err := decide(nil, ":8080", "--webhook-sandbox-local", "allow")
	require.NoError(t, err)
	require.Equal(t, allowed, got)
	got, err = decide(map[string]string{"WEBHOOK_SANDBOX_LOCAL": "refuse"}, "127.0.0.1:8080")
	require.NoError(t, err)
	require.Equal(t, refused, got)
	got, err = decide(map[string]string{"WEBHOOK_GUARD_SANDBOX": "true"}, "127.0.0.1:8080", "--webhook-sandbox-local", "allow")
	require.NoError(t, err)
	require.Equal(t, refused, got, "the older guard flag still refuses")
	_, err = decide(nil, "127.0.0.1:8080", "--webhook-sandbox-local", "sometimes")
	require.Error(t, err)
}
