package accounts_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
	"github.com/frame-oss/payments-server/resolvers/op"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// readFixture is an account whose capabilities are active, pending (one
// of them reactivated) and disabled (with a reason), with timestamps down
// to the microsecond, beside an account without capabilities.
type readFixture struct {
	env  *testenv.Env
	sk   *testenv.Client
	svc  *accounts.Service
	ctx  context.Context // the sandbox secret key's principal
	id   string
	uid  uuid.UUID
	bare uuid.UUID // an account without capabilities
}

func newReadFixture(t *testing.T) *readFixture {
	t.Helper()
	env := testenv.New(t, testenv.WithFacts(func(_ *models.Account, f *capability.Facts) { f.PhoneVerified = true }))
	f := &readFixture{env: env, sk: env.Client(env.Keys.Sandbox.Secret), svc: env.Services.Accounts}
	f.ctx = auth.WithPrincipal(context.Background(), &auth.Principal{Kind: auth.SecretKey, Merchant: env.Merchant,
		Scope: store.Scope{MerchantID: env.Merchant.ID}})

	f.bare = uuid.MustParse(f.sk.CreateAccount(testenv.Individual())["id"].(string))
	a := f.sk.CreateAccount(testenv.Individual().WithTermsOfService(testenv.TermsSpec{Token: "tos_1"}).
		WithCapabilities("phone_verification", "kyc", "card_send", "card_receive", "age_verification"))
	f.id = a["id"].(string)
	f.uid = uuid.MustParse(f.id)
	for _, name := range []string{"card_receive", "age_verification"} {
		r := f.sk.Delete("/v1/accounts/" + f.id + "/capabilities/" + name)
		require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	}
	// Microseconds the test clock (milliseconds) never makes, a disabled
	// reason, and a reactivated capability (pending with its history).
	f.exec(t, `UPDATE capabilities SET created = created + interval '123457 microseconds',
		updated = updated + interval '654321 microseconds', disabled = disabled + interval '1 microsecond'
		WHERE account_id = ?`, f.uid)
	f.exec(t, `UPDATE capabilities SET disabled_reason = 'requested_by_merchant' WHERE account_id = ? AND name = 'card_receive'`, f.uid)
	r := f.sk.Post("/v1/accounts/"+f.id+"/capabilities/age_verification/reactivate", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	return f
}

func (f *readFixture) exec(t *testing.T, query string, args ...any) {
	t.Helper()
	_, err := f.env.DB.Bun.ExecContext(context.Background(), query, args...)
	require.NoError(t, err)
}

// reference reads the accounts the two-statement way.
func (f *readFixture) reference(t *testing.T, idList ...uuid.UUID) []*models.Account {
	t.Helper()
	out, err := f.svc.TwoStatementRead(f.ctx, idList...)
	require.NoError(t, err)
	require.Len(t, out, len(idList))
	return out
}

func rest(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// An account read in one statement, its capabilities aggregated as JSON, is
// exactly the account read in two: every stored member of every capability
// (merchant_id and livemode included, which writes match on), timestamps
// to the microsecond, catalogue order, derived members, and the REST
// rendering byte for byte. For one account, a batch and a page alike.
func TestOneStatementReadIsTheTwoStatementRead(t *testing.T) {
	t.Parallel()
	f := newReadFixture(t)
	want := f.reference(t, f.uid)[0]

	statuses := map[capability.Status]int{}
	for _, c := range want.Capabilities {
		statuses[c.Status]++
		require.NotZero(t, c.Created.Nanosecond()%1e6, "%s: created carries microseconds", c.Name)
	}
	for _, st := range []capability.Status{capability.StatusActive, capability.StatusPending, capability.StatusDisabled} {
		require.NotZero(t, statuses[st], "the fixture has a %s capability", st)
	}
	var disabled *models.Capability
	for _, c := range want.Capabilities {
		if c.Status == capability.StatusDisabled {
			disabled = c
		}
	}
	require.NotNil(t, disabled.DisabledReason)
	require.NotZero(t, disabled.Disabled.Nanosecond()%1e6)

	got, err := f.svc.Accounts.Get(f.ctx, f.id)
	require.NoError(t, err)
	require.Equal(t, want, got)
	for _, c := range got.Capabilities {
		require.Equal(t, f.env.Merchant.ID, c.MerchantID)
		require.False(t, c.Livemode)
	}
	require.Nil(t, got.LoadedCapabilities, "moved to Capabilities")

	// REST: the same bytes.
	r := f.sk.Get("/v1/accounts/" + f.id)
	require.Equal(t, http.StatusOK, r.Status)
	require.Equal(t, rest(t, want)+"\n", string(r.Body))
	r = f.sk.Get("/v1/accounts/" + f.id + "/capabilities")
	require.Equal(t, http.StatusOK, r.Status)
	var listed struct{ Data []json.RawMessage }
	require.NoError(t, json.Unmarshal(r.Body, &listed))
	require.Len(t, listed.Data, len(want.Capabilities))
	for i, c := range want.Capabilities {
		require.Equal(t, rest(t, c), string(listed.Data[i]))
	}

	// A batch and a page: the account with capabilities and one without.
	wantBoth := f.reference(t, f.uid, f.bare)
	byIDs, errs := f.svc.Accounts.ByIDs(f.ctx, []string{f.id, f.bare.String()})
	require.Equal(t, []error{nil, nil}, errs)
	require.Equal(t, wantBoth, byIDs)
	require.Empty(t, byIDs[1].Capabilities)
	require.NotNil(t, byIDs[1].Capabilities, "renders as []")
	page, err := f.svc.Accounts.List(f.ctx, accounts.AccountFilter{}, op.ListParams{})
	require.NoError(t, err)
	require.Equal(t, wantBoth, page.Items)
	r = f.sk.Get("/v1/accounts")
	require.Equal(t, http.StatusOK, r.Status)
	require.NoError(t, json.Unmarshal(r.Body, &listed))
	require.Equal(t, []json.RawMessage{json.RawMessage(rest(t, wantBoth[0])), json.RawMessage(rest(t, wantBoth[1]))}, listed.Data)

	// Capabilities by their own ids.
	var capIDs []string
	for _, c := range want.Capabilities {
		capIDs = append(capIDs, c.ID.String())
	}
	caps, errs := f.svc.Capabilities.ByIDs(f.ctx, capIDs)
	require.Equal(t, make([]error, len(capIDs)), errs)
	require.Equal(t, want.Capabilities, caps)
}
