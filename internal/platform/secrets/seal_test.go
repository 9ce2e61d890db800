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

func TestSealBytesIsBoundToPurposeAndContext(t *testing.T) {
	ctx := context.Background()
	s := NewSource(nil, "one server secret")
	sealed, err := s.SealBytes(ctx, "result", []byte(`{"secret":"x"}`), []byte("row-1"))
	require.NoError(t, err)
	require.True(t, IsSealedBytes(sealed))
	require.False(t, IsSealedBytes([]byte(`{"secret":"x"}`)))
	require.False(t, IsSealedBytes(nil))
	require.NotContains(t, string(sealed), "secret")
	plain, err := s.OpenBytes(ctx, "result", sealed, []byte("row-1"))
	require.NoError(t, err)
	require.Equal(t, `{"secret":"x"}`, string(plain))

	for _, bad := range []struct {
		purpose, context string
		sealed           []byte
	}{
		{"result", "row-2", sealed},
		{"other", "row-1", sealed},
		{"result", "row-1", sealed[:len(sealed)-1]},
		{"result", "row-1", []byte(sealPrefix)},
		{"result", "row-1", []byte("plain")},
	} {
		_, err := s.OpenBytes(ctx, bad.purpose, bad.sealed, []byte(bad.context))
		require.ErrorIs(t, err, ErrUnsealable)
	}
}
