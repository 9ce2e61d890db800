package op_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// capabilitiesOf is an account's capabilities embedded in its statement,
// as the accounts area declares them.
func capabilitiesOf() *op.Embed[models.Account, models.Capability] {
	return &op.Embed[models.Account, models.Capability]{Column: "account_id", As: "capabilities_json",
		Into: func(a *models.Account) *[]*models.Capability { return &a.Capabilities }}
}

// The column carries the child's columns as its model declares them, but
// those the parent determines.
func TestEmbedColumnIsTheChildsModel(t *testing.T) {
	sql := store.NewPreparedSelect((*models.Account)(nil), func(q *bun.SelectQuery) *bun.SelectQuery {
		return capabilitiesOf().Select(q.ColumnExpr("?TableColumns")).Where("a.id = $3")
	}).SQL()
	require.Contains(t, sql, `json_build_array("c"."id", "c"."name", "c"."status", "c"."disabled_reason", "c"."created", "c"."updated", "c"."disabled")`)
	require.Contains(t, sql, `FROM "capabilities" AS "c" WHERE "c".merchant_id = "a".merchant_id AND "c".livemode = "a".livemode AND "c"."account_id" = "a".id) AS "capabilities_json"`)
}

// What PostgreSQL writes (json_agg of json_build_array, timestamptz in the
// session's time zone with up to six fractional digits, text escaped) is
// read into the child's model, its tenant and parent taken from the
// parent.
func TestEmbedLoadsWhatPostgreSQLWrites(t *testing.T) {
	a := &models.Account{ID: uuid.MustParse("0192f1a0-0000-7000-8000-000000000003")}
	a.MerchantID, a.Livemode = uuid.MustParse("0192f1a0-0000-7000-8000-000000000001"), true
	a.LoadedCapabilities = json.RawMessage(`[` +
		`["0192f1a0-0000-7000-8000-00000000000c", "card_send", "disabled", "said \"no\"\u00e9", "2026-01-15T12:00:00+00:00", "2026-01-15T17:30:02.12345+05:30", "2026-01-15T07:00:01.000001-05:00"], ` +
		`["0192f1a0-0000-7000-8000-00000000000a", "kyc", "active", null, "2026-01-15T12:00:00.999999+00:00", "2026-01-15T12:00:00.999999+00:00", null], ` +
		`["0192f1a0-0000-7000-8000-00000000000d", "", "pending", "", "2026-01-15T12:00:00.5+00:00", "2026-01-15T12:00:00.5+00:00", null]]`)
	require.NoError(t, capabilitiesOf().Load(a))
	require.Nil(t, a.LoadedCapabilities, "the column is emptied")
	require.Len(t, a.Capabilities, 3)

	reason := `said "no"é`
	want := &models.Capability{ID: uuid.MustParse("0192f1a0-0000-7000-8000-00000000000c"), AccountID: a.ID,
		Name: "card_send", Status: "disabled", DisabledReason: &reason,
		Disabled: models.ISOTime{Time: time.Date(2026, 1, 15, 12, 0, 1, 1000, time.UTC)},
		Created:  models.ISOTime{Time: time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)},
		Updated:  models.ISOTime{Time: time.Date(2026, 1, 15, 12, 0, 2, 123450000, time.UTC)}}
	want.MerchantID, want.Livemode = a.MerchantID, true
	require.Equal(t, want, a.Capabilities[0])
	require.Nil(t, a.Capabilities[1].DisabledReason)
	require.True(t, a.Capabilities[1].Disabled.IsZero())
	require.Equal(t, 999999000, a.Capabilities[1].Created.Nanosecond())
	require.Equal(t, capability.Name(""), a.Capabilities[2].Name)
	require.NotNil(t, a.Capabilities[2].DisabledReason)
	require.Empty(t, *a.Capabilities[2].DisabledReason)

	a.LoadedCapabilities = json.RawMessage(" [ ] ")
	require.NoError(t, capabilitiesOf().Load(a))
	require.NotNil(t, a.Capabilities)
	require.Empty(t, a.Capabilities)

	a.LoadedCapabilities = nil
	require.ErrorContains(t, capabilitiesOf().Load(a), "read without its column capabilities_json")

	row := func(members ...string) string { return `[[` + strings.Join(members, ", ") + `]]` }
	ok := []string{`"0192f1a0-0000-7000-8000-00000000000a"`, `"kyc"`, `"active"`, `null`,
		`"2026-01-15T12:00:00+00:00"`, `"2026-01-15T12:00:00+00:00"`, `null`}
	a.LoadedCapabilities = json.RawMessage(" [ [ " + strings.Join(ok, " ,\n ") + " ] , \t[" + strings.Join(ok, ",") + "] ] ")
	require.NoError(t, capabilitiesOf().Load(a), "any JSON whitespace")
	require.Len(t, a.Capabilities, 2)
	for name, bad := range map[string]string{
		"a member missing":       row(ok[:6]...),
		"a member too many":      row(append(slices.Clone(ok), `null`)...),
		"an empty member":        row(ok[0], ok[1], ok[2], ``, ok[4], ok[5], ok[6]),
		"a number for a uuid":    row(`1`, ok[1], ok[2], ok[3], ok[4], ok[5], ok[6]),
		"timestamp not RFC 3339": row(ok[0], ok[1], ok[2], ok[3], `"2026-01-15 12:00:00+00"`, ok[5], ok[6]),
		"not a uuid":             row(`"x"`, ok[1], ok[2], ok[3], ok[4], ok[5], ok[6]),
		"a bad escape":           row(ok[0], `"k\yc"`, ok[2], ok[3], ok[4], ok[5], ok[6]),
		"a nested array":         row(ok[0], `["kyc"]`, ok[2], ok[3], ok[4], ok[5], ok[6]),
		"an object":              row(ok[0], `{"name": "kyc"}`, ok[2], ok[3], ok[4], ok[5], ok[6]),
		"rows as objects":        `[{"id": "0192f1a0-0000-7000-8000-00000000000a"}]`,
		"a trailing comma":       row(ok...)[:len(row(ok...))-1] + `, ]`,
		"two rows without comma": `[` + row(ok...)[1:len(row(ok...))-1] + ` ` + row(ok...)[1:],
		"unterminated":           `[[` + strings.Join(ok, ", ") + `]`,
		"not json":               `[`,
		"null for the aggregate": `null`,
		"an object for it":       `{}`,
	} {
		a.LoadedCapabilities = json.RawMessage(bad)
		require.Error(t, capabilitiesOf().Load(a), name)
	}
}

// Numbers, a null number and a timestamp whose field names no SQL type
// (its scanner reads the column) are read as Bun reads them.
func TestEmbedLoadsNumbersAndScannedColumns(t *testing.T) {
	d := &models.WebhookDelivery{ID: uuid.MustParse("0192f1a0-0000-7000-8000-000000000004")}
	d.MerchantID = uuid.MustParse("0192f1a0-0000-7000-8000-000000000001")
	d.LoadedAttempts = json.RawMessage(`[` +
		`["0192f1a0-0000-7000-8000-00000000000e", 1, "https://example.com/h", null, "dial tcp: refused", 1500, null, "2026-01-15T12:00:00.011+00:00"], ` +
		`["0192f1a0-0000-7000-8000-00000000000f", 2, "https://example.com/h", 200, null, 12, "thanks", "2026-01-15T12:00:01.5+01:00"]]`)
	attempts := &op.Embed[models.WebhookDelivery, models.WebhookAttempt]{Column: "delivery_id", As: "attempts_json",
		Into: func(d *models.WebhookDelivery) *[]*models.WebhookAttempt { return &d.Attempts }}
	require.NoError(t, attempts.Load(d))
	require.Len(t, d.Attempts, 2)
	first, second := d.Attempts[0], d.Attempts[1]
	require.Equal(t, 1, first.Attempt)
	require.Nil(t, first.StatusCode)
	require.Equal(t, "dial tcp: refused", *first.Error)
	require.Equal(t, 1500, first.LatencyMS)
	require.Nil(t, first.ResponseExcerpt)
	require.Equal(t, time.Date(2026, 1, 15, 12, 0, 0, 11e6, time.UTC), first.Created.Time)
	require.Equal(t, 200, *second.StatusCode)
	require.Equal(t, "thanks", *second.ResponseExcerpt)
	require.Equal(t, time.Date(2026, 1, 15, 11, 0, 1, 5e8, time.UTC), second.Created.Time)
	require.Equal(t, d.ID, second.DeliveryID)
	require.Equal(t, d.MerchantID, second.MerchantID)
}

// A declaration that does not fit its models fails at once.
func TestEmbedRefusesWhatItCannotRead(t *testing.T) {
	for name, e := range map[string]*op.Embed[models.Account, models.Capability]{
		"no such column":     {Column: "owner_id", As: "capabilities_json"},
		"no such field":      {Column: "account_id", As: "caps_json"},
		"not a JSON field":   {Column: "account_id", As: "external_id"},
		"not a scanonly one": {Column: "account_id", As: "metadata"},
	} {
		require.Panics(t, func() { _ = e.Load(&models.Account{}) }, name)
	}
	require.Panics(t, func() {
		_ = (&op.Embed[models.Account, models.Account]{Column: "id", As: "capabilities_json"}).Load(&models.Account{})
	}, "a child of the parent's alias")
}

func BenchmarkEmbedLoad(b *testing.B) {
	one := `["0192f1a0-0000-7000-8000-00000000000a", "card_send", "pending", null, "2026-01-15T12:00:00.123456+00:00", "2026-01-15T12:00:00.123456+00:00", null]`
	raw := json.RawMessage("[" + strings.Repeat(one+", ", 2) + one + "]")
	e := capabilitiesOf()
	accounts := make([]*models.Account, 100)
	b.ReportAllocs()
	for b.Loop() {
		for i := range accounts {
			accounts[i] = &models.Account{LoadedCapabilities: raw}
		}
		if err := e.Load(accounts...); err != nil {
			b.Fatal(err)
		}
	}
}

// customerOf is an invoice's customer with its name alone, embedded in its
// statement: the columns are the test's own, not the billing area's
// choice (models.CustomerRefColumns), so what is checked is the embedding.
func customerOf() *op.EmbedOne[models.Invoice, models.Customer] {
	return &op.EmbedOne[models.Invoice, models.Customer]{Column: "customer_id", As: "customer_json",
		Only: []string{"name"}, Into: func(inv *models.Invoice) **models.Customer { return &inv.PayerCustomer }}
}

// A referred object's column carries its id and the columns asked for,
// from the row the parent's column names in the parent's tenant; none is
// JSON null, never SQL NULL.
func TestEmbedOneColumnIsTheObjectsModel(t *testing.T) {
	sql := store.NewPreparedSelect((*models.Invoice)(nil), func(q *bun.SelectQuery) *bun.SelectQuery {
		return customerOf().Select(q.ColumnExpr("?TableColumns")).Where("inv.id = $3")
	}).SQL()
	require.Contains(t, sql, `coalesce((SELECT json_build_array("cu"."id", "cu"."name") FROM "customers" AS "cu" `+
		`WHERE "cu".merchant_id = "inv".merchant_id AND "cu".livemode = "inv".livemode AND "cu".id = "inv".customer_id), 'null') AS "customer_json"`)
}

func TestEmbedOneLoadsTheObjectOrNone(t *testing.T) {
	inv := &models.Invoice{ID: uuid.MustParse("0192f1a0-0000-7000-8000-000000000003")}
	inv.MerchantID, inv.Livemode = uuid.MustParse("0192f1a0-0000-7000-8000-000000000001"), true
	inv.CustomerJSON = json.RawMessage(`["0192f1a0-0000-7000-8000-00000000000c", "Ada \"A\""]`)
	require.NoError(t, customerOf().Load(inv))
	require.Nil(t, inv.CustomerJSON, "the column is emptied")
	name := `Ada "A"`
	want := &models.Customer{ID: uuid.MustParse("0192f1a0-0000-7000-8000-00000000000c"), Name: &name}
	want.MerchantID, want.Livemode = inv.MerchantID, true
	require.Equal(t, want, inv.PayerCustomer)

	inv.CustomerJSON = json.RawMessage(" null ")
	require.NoError(t, customerOf().Load(inv))
	require.Nil(t, inv.PayerCustomer, "no customer")

	require.ErrorContains(t, customerOf().Load(inv), "read without its column customer_json")
	inv.CustomerJSON = json.RawMessage(`["0192f1a0-0000-7000-8000-00000000000c"]`)
	require.ErrorContains(t, customerOf().Load(inv), "a child of 1 columns, want 2")
	inv.CustomerJSON = json.RawMessage(`{"id": 1}`)
	require.Error(t, customerOf().Load(inv))
}
