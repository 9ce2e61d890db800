package auth_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
)

// RandomString gives n base62 characters, each as likely as any other: over
// 248,000 characters every one of the 62 comes 4,000 times give or take 7
// standard deviations (440; by chance outside them about once in 10^10
// runs). A modulo of whole bytes without rejection would fail it: the
// first 8 characters would come about 4,840 times.
func TestRandomStringIsUniformBase62(t *testing.T) {
	t.Parallel()
	const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	for _, n := range []int{0, 1, 24, 40, 200} {
		require.Len(t, auth.RandomString(n), n)
	}
	counts := map[rune]int{}
	for range 1000 {
		for _, c := range auth.RandomString(248) {
			require.True(t, strings.ContainsRune(alphabet, c), "%q", c)
			counts[c]++
		}
	}
	require.Len(t, counts, len(alphabet))
	for c, n := range counts {
		require.InDelta(t, 4000, n, 440, "%q", c)
	}
}
