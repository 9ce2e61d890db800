package secrets

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSealOpens(t *testing.T) {
	ctx := context.Background()
	s := NewSource(nil, "one server secret")
	sealed, err := s.Seal(ctx, "webhook", "whsec_abc")
	require.NoError(t, err)
	require.NotContains(t, sealed, "whsec_abc")
	again, err := s.Seal(ctx, "webhook", "whsec_abc")
	require.NoError(t, err)
	require.NotEqual(t, sealed, again, "a fresh nonce each time")
	plain, err := s.Open(ctx, "webhook", sealed)
	require.NoError(t, err)
	require.Equal(t, "whsec_abc", plain)

	_, err = s.Open(ctx, "other purpose", sealed)
	require.ErrorIs(t, err, ErrUnsealable)
	_, err = NewSource(nil, "another server secret").Open(ctx, "webhook", sealed)
	require.ErrorIs(t, err, ErrUnsealable)
	_, err = s.Open(ctx, "webhook", strings.TrimSuffix(sealed, sealed[len(sealed)-2:])+"AA")
	require.ErrorIs(t, err, ErrUnsealable)
	_, err = s.Open(ctx, "webhook", "whsec_plain")
	require.ErrorIs(t, err, ErrUnsealable)
}
