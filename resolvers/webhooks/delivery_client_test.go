package webhooks

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/webhook"
)

// The dialer refuses, on the address it is about to connect to, whatever
// the mode may not reach: link-local and metadata addresses always, local
// ones unless the sandbox is allowed them.
func TestDialControlChecksTheDialledAddress(t *testing.T) {
	allowed, refused := webhook.Destinations{SandboxLocal: true}, webhook.Destinations{}
	for _, addr := range []string{"169.254.169.254:80", "[fe80::1%eth0]:443", "[::ffff:169.254.169.254]:80",
		"[fd00:ec2::254]:80", "100.100.100.200:80"} {
		for _, live := range []bool{true, false} {
			require.ErrorIs(t, dialControl(allowed, live)("tcp", addr, nil), errDestinationNever, addr)
		}
	}
	for _, addr := range []string{"127.0.0.1:80", "[::1]:80", "10.0.0.1:80", "100.64.0.1:80", "0.0.0.0:80",
		"[::ffff:127.0.0.1]:80", "192.168.1.1:80"} {
		require.NoError(t, dialControl(allowed, false)("tcp", addr, nil), addr)
		require.ErrorIs(t, dialControl(allowed, true)("tcp", addr, nil), errDestinationRefused, addr)
		require.ErrorIs(t, dialControl(refused, false)("tcp", addr, nil), errDestinationRefused, addr)
	}
	for _, d := range []webhook.Destinations{allowed, refused} {
		require.NoError(t, dialControl(d, true)("tcp", "93.184.216.34:443", nil))
		require.NoError(t, dialControl(d, false)("tcp", "93.184.216.34:443", nil))
	}
}

// A sandbox client allowed local addresses still never connects to the
// metadata service, whatever name the URL gives it.
func TestSandboxClientNeverReachesMetadata(t *testing.T) {
	c := newDeliveryClient(time.Second, time.Second, webhook.Destinations{SandboxLocal: true}, false)
	for _, u := range []string{"http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/", "http://[::ffff:a9fe:a9fe]/"} {
		req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, u, nil)
		require.NoError(t, err)
		_, err = c.Do(req)
		require.True(t, errors.Is(err, errDestinationNever), "%s: %v", u, err)
		require.Contains(t, describeFailure(err, time.Second, time.Second), "never delivered to")
	}
}
