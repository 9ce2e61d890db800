package accounts

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/frame-oss/payments-server/models"
)

// The aggregate carries every column models.Capability maps but those
// taken from the account: a column added to the model and not to the
// aggregate would read back zero and be written back zero.
func TestCapabilitiesColumnCarriesEveryColumnOfCapability(t *testing.T) {
	var columns []string
	for _, f := range pgdialect.New().Tables().Get(reflect.TypeFor[models.Capability]()).Fields {
		columns = append(columns, f.Name)
	}
	members := append([]string{"merchant_id", "livemode", "account_id"}, capabilityMembers[:]...)
	slices.Sort(columns)
	slices.Sort(members)
	require.Equal(t, columns, members)
}

// What PostgreSQL writes: json_agg of json_build_array, timestamptz in the
// session's time zone with up to six fractional digits, text escaped.
func TestDecodeCapabilities(t *testing.T) {
	a := &models.Account{ID: uuid.MustParse("0192f1a0-0000-7000-8000-000000000003")}
	a.MerchantID, a.Livemode = uuid.MustParse("0192f1a0-0000-7000-8000-000000000001"), true
	a.LoadedCapabilities = json.RawMessage(`[` +
		`["0192f1a0-0000-7000-8000-00000000000c", "card_send", "disabled", "said \"no\"\u00e9", "2026-01-15T07:00:01.000001-05:00", "2026-01-15T12:00:00+00:00", "2026-01-15T17:30:02.12345+05:30"], ` +
		`["0192f1a0-0000-7000-8000-00000000000d", "a_future_capability", "pending", null, null, "2026-01-15T12:00:00.5+00:00", "2026-01-15T12:00:00.5+00:00"], ` +
		`["0192f1a0-0000-7000-8000-00000000000a", "kyc", "active", null, null, "2026-01-15T12:00:00.999999+00:00", "2026-01-15T12:00:00.999999+00:00"]]`)
	caps, err := decodeCapabilities(a)
	require.NoError(t, err)
	require.Len(t, caps, 3)
	var names []string
	for _, c := range caps {
		names = append(names, string(c.Name))
		require.Equal(t, a.MerchantID, c.MerchantID)
		require.True(t, c.Livemode)
		require.Equal(t, a.ID, c.AccountID)
	}
	require.Equal(t, []string{"kyc", "card_send", "a_future_capability"}, names, "catalogue order, unknown names last")

	reason := `said "no"é`
	want := &models.Capability{ID: uuid.MustParse("0192f1a0-0000-7000-8000-00000000000c"), AccountID: a.ID,
		Name: "card_send", Status: "disabled", DisabledReason: &reason,
		Disabled: models.ISOTime{Time: time.Date(2026, 1, 15, 12, 0, 1, 1000, time.UTC)},
		Created:  models.ISOTime{Time: time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)},
		Updated:  models.ISOTime{Time: time.Date(2026, 1, 15, 12, 0, 2, 123450000, time.UTC)}}
	want.MerchantID, want.Livemode = a.MerchantID, true
	require.Equal(t, want, caps[1])
	require.Nil(t, caps[0].DisabledReason)
	require.True(t, caps[0].Disabled.IsZero())
	require.Equal(t, 999999000, caps[0].Created.Nanosecond())

	a.LoadedCapabilities = json.RawMessage(`[]`)
	caps, err = decodeCapabilities(a)
	require.NoError(t, err)
	require.NotNil(t, caps)
	require.Empty(t, caps)

	a.LoadedCapabilities = nil
	_, err = decodeCapabilities(a)
	require.ErrorContains(t, err, "read without its capabilities")

	row := func(members ...string) string { return `[[` + strings.Join(members, ", ") + `]]` }
	ok := []string{`"0192f1a0-0000-7000-8000-00000000000a"`, `"kyc"`, `"active"`, `null`, `null`,
		`"2026-01-15T12:00:00+00:00"`, `"2026-01-15T12:00:00+00:00"`}
	a.LoadedCapabilities = json.RawMessage(row(ok...))
	_, err = decodeCapabilities(a)
	require.NoError(t, err)
	for name, bad := range map[string]string{
		"a member missing":       row(ok[:6]...),
		"a member too many":      row(append(slices.Clone(ok), `null`)...),
		"an empty member":        row(ok[0], ok[1], ok[2], ``, ok[4], ok[5], ok[6]),
		"null name":              row(ok[0], `null`, ok[2], ok[3], ok[4], ok[5], ok[6]),
		"null created":           row(ok[0], ok[1], ok[2], ok[3], ok[4], `null`, ok[6]),
		"timestamp as text":      row(ok[0], ok[1], ok[2], ok[3], ok[4], `"2026-01-15 12:00:00+00"`, ok[6]),
		"not a uuid":             row(`"x"`, ok[1], ok[2], ok[3], ok[4], ok[5], ok[6]),
		"a number for a name":    row(ok[0], `1`, ok[2], ok[3], ok[4], ok[5], ok[6]),
		"a control character":    row(ok[0], "\"k\tyc\"", ok[2], ok[3], ok[4], ok[5], ok[6]),
		"a bad escape":           row(ok[0], `"k\yc"`, ok[2], ok[3], ok[4], ok[5], ok[6]),
		"a nested array":         row(ok[0], `["kyc"]`, ok[2], ok[3], ok[4], ok[5], ok[6]),
		"rows as objects":        `[{"id": "0192f1a0-0000-7000-8000-00000000000a"}]`,
		"a trailing comma":       row(ok...)[:len(row(ok...))-1] + `, ]`,
		"two rows without comma": `[` + row(ok...)[1:len(row(ok...))-1] + ` ` + row(ok...)[1:],
		"unterminated":           `[[` + strings.Join(ok, ", ") + `]`,
		"not json":               `[`,
		"null for the aggregate": `null`,
	} {
		a.LoadedCapabilities = json.RawMessage(bad)
		_, err := decodeCapabilities(a)
		require.Error(t, err, name)
	}
	a.LoadedCapabilities = json.RawMessage(" [ [ " + strings.Join(ok, " ,\n ") + " ] , \t[" + strings.Join(ok, ",") + "] ] ")
	caps, err = decodeCapabilities(a)
	require.NoError(t, err, "any JSON whitespace")
	require.Len(t, caps, 2)
}

func BenchmarkDecodeCapabilities(b *testing.B) {
	one := `["0192f1a0-0000-7000-8000-00000000000a", "card_send", "pending", null, null, "2026-01-15T12:00:00.123456+00:00", "2026-01-15T12:00:00.123456+00:00"]`
	raw := json.RawMessage("[" + strings.Repeat(one+", ", 3) + one + "]")
	b.ReportAllocs()
	for b.Loop() {
		a := &models.Account{LoadedCapabilities: raw}
		if _, err := decodeCapabilities(a); err != nil {
			b.Fatal(err)
		}
	}
}
