package model

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"
)

// gqlgenWrites is what graphql.MarshalString writes for s.
func gqlgenWrites(s string) string {
	var b bytes.Buffer
	graphql.MarshalString(s).MarshalGQL(&b)
	return b.String()
}

func written(m graphql.Marshaler) string {
	var b bytes.Buffer
	m.MarshalGQL(&b)
	return b.String()
}

// The id, time and currency marshalers write, byte for byte, what
// graphql.MarshalString wrote for the strings they were made from.
func TestQuotedScalarsWriteWhatMarshalStringWrites(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 7))
	for range 1000 {
		var id uuid.UUID
		for i := range id {
			id[i] = byte(rng.Uint32())
		}
		if got, want := written(MarshalUUID(id)), gqlgenWrites(id.String()); got != want {
			t.Fatalf("MarshalUUID(%s) wrote %s, want %s", id, got, want)
		}
	}
	times := []time.Time{
		time.Date(2026, 11, 29, 11, 50, 3, 123456789, time.UTC),
		time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 0, time.FixedZone("x", -7*3600)),
		time.Date(123456789, 1, 1, 0, 0, 0, 0, time.UTC), // beyond the buffer: the string's way
		time.Date(-44, 3, 15, 12, 0, 0, 0, time.UTC),
	}
	for range 1000 {
		times = append(times, time.Unix(rng.Int64N(1<<40)-1<<39, rng.Int64N(1e9)).In(time.FixedZone("z", int(rng.Int32N(50000)))))
	}
	for _, tm := range times {
		if got, want := written(MarshalDateTime(tm)), gqlgenWrites(tm.UTC().Format(time.RFC3339)); got != want {
			t.Fatalf("MarshalDateTime(%v) wrote %s, want %s", tm, got, want)
		}
	}
	for _, code := range []string{"usd", "USD", "eUr", "jpy", "x", "", "us d", "ü", "usd\"", "a\\b", "\x01",
		strings.Repeat("a", 43), strings.Repeat("b", 44), strings.Repeat("c", 45), "12a"} {
		if got, want := written(MarshalCurrencyCode(code)), gqlgenWrites(strings.ToUpper(code)); got != want {
			t.Fatalf("MarshalCurrencyCode(%q) wrote %s, want %s", code, got, want)
		}
	}
	if MarshalUUID(uuid.Nil) != graphql.Null || MarshalDateTime(time.Time{}) != graphql.Null {
		t.Fatal("the zero id or time is not null")
	}
}

// An id, a time or a currency costs one allocation.
func TestQuotedScalarsAllocateOnce(t *testing.T) {
	id, tm := uuid.New(), time.Date(2026, 11, 29, 11, 50, 3, 0, time.UTC)
	for name, marshal := range map[string]func() graphql.Marshaler{
		"id":       func() graphql.Marshaler { return MarshalUUID(id) },
		"time":     func() graphql.Marshaler { return MarshalDateTime(tm) },
		"currency": func() graphql.Marshaler { return MarshalCurrencyCode("usd") },
	} {
		var b bytes.Buffer
		b.Grow(64)
		if n := testing.AllocsPerRun(100, func() { b.Reset(); marshal().MarshalGQL(&b) }); n != 1 {
			t.Errorf("%s: %v allocations, want 1", name, n)
		}
	}
}
