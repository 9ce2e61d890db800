package webhooks

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestWaitLongerGrowsWithSnoozesUpToTheCap(t *testing.T) {
	base := 250 * time.Millisecond
	require.Equal(t, base, waitLonger(base, nil))
	require.Equal(t, base, waitLonger(base, []byte(`{}`)))
	require.Equal(t, 3*base, waitLonger(base, []byte(`{"snoozes": 2}`)))
	require.Equal(t, maxOrderWait, waitLonger(base, []byte(`{"snoozes": 500}`)))
	require.Equal(t, maxOrderWait, waitLonger(base, []byte(`{"snoozes": 9223372036854775807}`)))
}
