package models

import (
	"crypto/sha256"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// endless is a reader that never ends, counting what was taken from it.
type endless struct{ read int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 0xFF
	}
	e.read += int64(len(p))
	return len(p), nil
}

func TestReadDocumentStopsAtItsLimit(t *testing.T) {
	src := &endless{}
	d, err := ReadDocument("selfie", "image/jpeg", src)
	require.NoError(t, err)
	require.True(t, d.TooLarge)
	require.Equal(t, int64(MaxDocumentBytes+1), d.Size)
	require.Less(t, src.read, int64(MaxDocumentBytes+64<<10), "reads no further than the limit and one buffer")
}

func TestReadDocumentDigestsWithoutKeeping(t *testing.T) {
	content := "\xFF\xD8\xFF\xE0" + strings.Repeat("x", 100000)
	d, err := ReadDocument("id_front", "", strings.NewReader(content))
	require.NoError(t, err)
	sum := sha256.Sum256([]byte(content))
	require.Equal(t, sum[:], d.SHA256)
	require.Equal(t, int64(len(content)), d.Size)
	require.Equal(t, "image/jpeg", d.SniffedType)
	require.False(t, d.TooLarge)
	_, err = ReadDocument("id_front", "", io.MultiReader(strings.NewReader("x"), errReader{}))
	require.Error(t, err)
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

func TestCustomerIdentityPhone(t *testing.T) {
	for in, want := range map[string]string{"(774) 234-5678": "+17742345678", "1-774-234-5678": "+17742345678",
		"+44 20 7946 095": "+44207946095", "a7b7c4d2345678": "+17742345678"} {
		got, ok := CustomerIdentityPhone(in)
		require.True(t, ok, in)
		require.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "555-0100", "+1 774 234 5678 9", "no digits"} {
		_, ok := CustomerIdentityPhone(in)
		require.False(t, ok, in)
	}
}

func TestCustomerIdentityVerificationRendersZeroTimesAndReadsThemBack(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	v := CustomerIdentityVerification{Status: CustomerVerificationPending, VerificationURL: "https://x.test/v/1",
		Created: wire.At(at), Updated: wire.At(at), Pending: UnixOrZero{wire.At(at)}}
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	require.Equal(t, float64(at.Unix()), m["pending"])
	require.Equal(t, float64(0), m["verified"])
	require.Equal(t, float64(0), m["failed"])
	var back CustomerIdentityVerification
	require.NoError(t, json.Unmarshal(raw, &back))
	require.True(t, back.VerifiedAt().IsZero())
	require.Equal(t, at, back.PendingAt().Time)
	again, err := json.Marshal(back)
	require.NoError(t, err)
	require.JSONEq(t, string(raw), string(again))
}
