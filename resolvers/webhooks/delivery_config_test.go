package webhooks

import (
	"net"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestDeliveryDefaultsShareTheWorkersAndConnectFast(t *testing.T) {
	c := DeliveryConfig{}.withDefaults()
	require.Equal(t, 10*time.Second, c.Timeout)
	require.Equal(t, 3*time.Second, c.ConnectTimeout, "a dead receiver fails in seconds, not the whole attempt's timeout")
	require.Equal(t, 4, c.Workers)
	require.Equal(t, 2, c.MerchantShare, "one merchant never holds more than half the workers")
	require.Equal(t, 72*time.Hour, c.DisableAfter)

	c = DeliveryConfig{Timeout: time.Second, Workers: 1}.withDefaults()
	require.Equal(t, time.Second, c.ConnectTimeout, "never longer than the attempt")
	require.Equal(t, 1, c.MerchantShare)
}

func TestAConnectTimeoutIsReportedAsSuch(t *testing.T) {
	dial := &net.OpError{Op: "dial", Net: "tcp", Err: os.ErrDeadlineExceeded}
	require.Equal(t, "timeout: no connection within 3s", describeFailure(dial, 10*time.Second, 3*time.Second))
	read := &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}
	require.Equal(t, "timeout: no complete answer within 10s", describeFailure(read, 10*time.Second, 3*time.Second))
}
