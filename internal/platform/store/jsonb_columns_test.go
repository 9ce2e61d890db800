package store_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/wire"
	"github.com/frame-oss/payments-server/models"
)

// An account's jsonb columns read by Bun, through a select (simple
// protocol) and a prepared read (extended), are what encoding/json makes
// of the text PostgreSQL gives for them: the columns' own scanners
// (models/account_columns.go, the models' JSON library) read what
// PostgreSQL really writes as encoding/json would.
func TestAccountJSONBColumnsReadAsEncodingJSONReadsTheirText(t *testing.T) {
	t.Parallel()
	f := setup(t)
	s := func(v string) *string { return &v }
	same := false
	awkward := []*models.Account{
		{Profile: models.Profile{Individual: &models.IndividualProfile{
			Name:    &models.PersonName{FirstName: s("Ada"), LastName: s("Lovelace–Byron")},
			Email:   s("ada@example.com"),
			Phone:   &models.Phone{Number: s("2001001695"), CountryCode: s("+1")},
			Address: &models.Address{Line1: s(`1 "Main" <St> & \ Co`), Country: s("US")}}},
			TermsOfService: &models.TermsOfService{Accepted: true, IPAddress: s("::1"), UserAgent: s("tab\tline\nend\x01"),
				AcceptedAt: wire.ISOTime{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}},
			Verification: models.Verification{VerifiedPhones: []string{"+12001001695"}, DocumentVerified: true,
				IdentityRun: &capability.RunOutcome{Status: "approved", CreatorShieldFindings: true},
				OwnersConfirmed: &models.Attestation{At: time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.FixedZone("", -5*3600)),
					IPAddress: "10.0.0.1", UserAgent: "日本 \u2028"}},
			Metadata: models.Metadata{"plan": "gold", "<b>": "bad \xff utf-8", "quote\"": ""}},
		{Profile: models.Profile{Business: &models.BusinessProfile{LegalBusinessName: s("Acme"), SamePhysicalAndLegalAddress: &same,
			PhysicalAddress: &models.Address{City: s("Zürich")}}},
			Verification: models.Verification{PrefillConfirmed: &models.Attestation{}, GeoStatus: "blocked"},
			Metadata:     models.Metadata{}},
		{},
	}
	for _, a := range awkward {
		a.ID, a.Type, a.Status = ids.New(f.now), models.AccountTypeIndividual, models.AccountStatusPending
		a.RestrictedBy, a.Created, a.Updated = []models.Restrictor{}, models.At(f.now), models.At(f.now)
		_, err := f.db.Tenant(f.a).Insert(a).Exec(f.ctx)
		require.NoError(t, err)

		var text struct{ profile, terms, verification, metadata *string }
		require.NoError(t, f.db.Bun.NewRaw("SELECT profile::text, terms_of_service::text, verification::text, metadata::text FROM accounts WHERE id = ?", a.ID).
			Scan(f.ctx, &text.profile, &text.terms, &text.verification, &text.metadata))
		var want models.Account
		decode := func(column *string, into any) {
			if column != nil {
				require.NoError(t, json.Unmarshal([]byte(*column), into))
			}
		}
		decode(text.profile, &want.Profile)
		if text.terms != nil {
			want.TermsOfService = new(models.TermsOfService)
			decode(text.terms, want.TermsOfService)
		}
		decode(text.verification, &want.Verification)
		decode(text.metadata, &want.Metadata)

		var selected, prepared models.Account
		require.NoError(t, f.db.Tenant(f.a).Select(&selected).Where("a.id = ?", a.ID).Scan(f.ctx))
		require.NoError(t, f.db.Tenant(f.a).ScanPreparedRow(f.ctx, accountByIDForTest, &prepared, a.ID))
		for _, got := range []models.Account{selected, prepared} {
			require.Equal(t, want.Profile, got.Profile)
			require.Equal(t, want.TermsOfService, got.TermsOfService)
			require.Equal(t, want.Verification, got.Verification)
			require.Equal(t, want.Metadata, got.Metadata)
		}
	}
}
