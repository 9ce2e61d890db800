package op_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/platform/wire"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Children read in their parent's statement are exactly the rows their
// own table gives: every column the model maps (jsonb objects, booleans,
// nullable ids and strings, timestamps to the microsecond), in the
// declared order, narrowed as declared, for one parent and for a page, in
// one statement; a parent without children has an empty list.
func TestEmbedReadsEachChildAsItsOwnReadDoes(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	scope := store.Scope{MerchantID: env.Merchant.ID}
	p := &auth.Principal{Kind: auth.SecretKey, Merchant: env.Merchant, Scope: scope}
	ctx, statements := store.WithStatementCounter(auth.WithPrincipal(context.Background(), p))
	tx := env.DB.Tenant(scope)
	s := func(v string) *string { return &v }
	at := time.Date(2026, 1, 15, 12, 0, 0, 123456000, time.FixedZone("", -5*3600))

	insert := func(row store.TenantRow) {
		t.Helper()
		_, err := tx.Insert(row).Exec(context.Background())
		require.NoError(t, err)
	}
	customer := func(n int) *models.Customer {
		c := &models.Customer{ID: ids.New(at.Add(time.Duration(n) * time.Second)), Email: "c@example.com",
			Status: models.CustomerActive, Metadata: models.Metadata{},
			Created: wire.At(at), Updated: wire.At(at)}
		insert(c)
		return c
	}
	withMethods, without, other := customer(1), customer(2), customer(3)
	awkward := `quote " back \ <b>&amp;</b> tab	line
日本 ` + "\u2028"
	method := func(owner *models.Customer, n int, change func(*models.PaymentMethod)) *models.PaymentMethod {
		pm := &models.PaymentMethod{ID: ids.New(at.Add(time.Duration(n) * time.Minute)), Type: models.PaymentMethodCard,
			Status: models.PaymentMethodActive, CustomerID: &owner.ID,
			Card: &models.CardDetails{Brand: "visa", LastFour: "4242", ExpMonth: s("12"), Issuer: s(awkward),
				Wallet: &models.WalletDetails{Type: "apple_pay", DynamicLast4: s("1234")}},
			Billing: &models.BillingAddress{ID: uuid.New(), Line1: s(awkward), Country: s("US"), Type: "billing"},
			Created: wire.At(at.Add(time.Duration(n) * time.Minute)), Updated: wire.At(at.Add(time.Duration(n)*time.Minute + 7*time.Microsecond))}
		if change != nil {
			change(pm)
		}
		insert(pm)
		return pm
	}
	method(withMethods, 1, func(pm *models.PaymentMethod) { pm.Fingerprint, pm.SandboxOutcome = s("fp"), s(awkward) })
	method(withMethods, 2, func(pm *models.PaymentMethod) {
		pm.Type, pm.Card, pm.Billing = models.PaymentMethodACH, nil, nil
		pm.ACH = &models.ACHDetails{BankName: s(awkward), LastFour: "6789", AccountType: "checking"}
	})
	method(withMethods, 3, func(pm *models.PaymentMethod) { pm.Status = models.PaymentMethodDetached })
	method(withMethods, 4, func(pm *models.PaymentMethod) { pm.SingleUse = true })
	method(withMethods, 5, func(pm *models.PaymentMethod) { pm.Status = models.PaymentMethodBlocked })
	method(other, 6, nil)

	embed := &op.Embed[models.Customer, models.PaymentMethod]{Column: "customer_id", As: "payment_methods_json",
		Into:  func(c *models.Customer) *[]*models.PaymentMethod { return &c.PaymentMethods },
		Where: "pm.status <> 'detached' AND NOT pm.single_use", Order: "pm.created DESC, pm.id DESC"}
	customers := &op.Table[models.Customer]{Resource: "customer", Embedded: []op.Embedding[models.Customer]{embed}}
	own := func(c *models.Customer) []*models.PaymentMethod {
		var rows []*models.PaymentMethod
		require.NoError(t, tx.Select(&rows).Where("pm.customer_id = ? AND pm.status <> 'detached' AND NOT pm.single_use", c.ID).
			OrderExpr("pm.created DESC, pm.id DESC").Scan(context.Background()))
		return rows
	}

	got, err := customers.Get(ctx, env.Services.Accounts.Kit, withMethods.ID.String())
	require.NoError(t, err)
	require.EqualValues(t, 1, statements.Load())
	want := own(withMethods)
	require.Len(t, want, 3)
	require.Equal(t, want, got.PaymentMethods)
	require.Nil(t, got.LoadedPaymentMethods)
	require.Equal(t, 123456000, got.PaymentMethods[0].Created.Nanosecond())

	page, err := customers.List(ctx, env.Services.Accounts.Kit, op.NoFilter{}, op.ListParams{PageParams: models.PageParams{Page: 1, PerPage: 10}})
	require.NoError(t, err)
	require.EqualValues(t, 2, statements.Load())
	require.Len(t, page.Items, 3)
	for _, c := range page.Items {
		require.NotNil(t, c.PaymentMethods, "an empty list, never none")
		switch c.ID {
		case without.ID:
			require.Empty(t, c.PaymentMethods)
		default:
			require.Equal(t, own(c), c.PaymentMethods)
		}
	}
}

// An account's capabilities read in its statement are the rows Bun reads
// from their own table, member for member: timestamps to the microsecond
// (written in another time zone), a disabled time and none, a disabled
// reason with quotes, backslashes, HTML and U+2028 and none, for a page
// and for one account, and a page read by Bun's scan rather than straight
// from pgx.
func TestEmbeddedCapabilitiesAreWhatBunReadsOfTheirTable(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	sk := env.Client(env.Keys.Sandbox.Secret)
	three := sk.CreateAccount(testenv.Individual().WithCapabilities("kyc", "phone_verification", "card_verification"))
	sk.CreateAccount(testenv.Individual().WithCapabilities("kyc"))
	sk.CreateAccount(testenv.Individual())
	scope := store.Scope{MerchantID: env.Merchant.ID}
	p := &auth.Principal{Kind: auth.SecretKey, Merchant: env.Merchant, Scope: scope}
	ctx := auth.WithPrincipal(context.Background(), p)
	tx := env.DB.Tenant(scope)

	awkward := `quote " back \ <b>&amp;</b> ],[ tab	line 日本 ` + "\u2028"
	at := time.Date(2026, 1, 15, 12, 0, 0, 123456000, time.FixedZone("", -5*3600))
	var caps []*models.Capability
	require.NoError(t, tx.Select(&caps).Where("c.account_id = ?", uuid.MustParse(three["id"].(string))).
		OrderExpr("c.id").Scan(ctx))
	require.Len(t, caps, 3)
	for i, change := range []string{
		"status = 'disabled', disabled_reason = ?, disabled = ?, updated = ?",
		"disabled_reason = '', disabled = NULL, created = ?, updated = ?",
	} {
		args := []any{awkward, at, at.Add(7 * time.Microsecond)}
		if i == 1 {
			args = []any{at.Add(-time.Microsecond), at.Add(999999 * time.Microsecond)}
		}
		_, err := tx.Update((*models.Capability)(nil)).Set(change, args...).Where("c.id = ?", caps[i].ID).Exec(ctx)
		require.NoError(t, err)
	}

	accounts := &op.Table[models.Account]{Resource: "account",
		Embedded: []op.Embedding[models.Account]{capabilitiesOf()}}
	own := func(a *models.Account) []*models.Capability {
		var rows []*models.Capability
		require.NoError(t, tx.Select(&rows).Where("c.account_id = ?", a.ID).OrderExpr("c.id").Scan(ctx))
		return rows
	}
	byID := func(caps []*models.Capability) []*models.Capability {
		caps = slices.Clone(caps)
		slices.SortFunc(caps, func(a, b *models.Capability) int { return strings.Compare(a.ID.String(), b.ID.String()) })
		return caps
	}
	params := op.ListParams{PageParams: models.PageParams{Page: 1, PerPage: 10}}
	for _, read := range []context.Context{ctx, store.WithBunScan(ctx)} {
		page, err := accounts.List(read, env.Services.Accounts.Kit, op.NoFilter{}, params)
		require.NoError(t, err)
		require.Len(t, page.Items, 3)
		counts := map[int]int{}
		for _, a := range page.Items {
			require.NotNil(t, a.Capabilities, "an empty list, never none")
			counts[len(a.Capabilities)]++
			if want := own(a); len(want) > 0 {
				require.Equal(t, want, byID(a.Capabilities))
			} else {
				require.Empty(t, a.Capabilities)
			}
		}
		require.Equal(t, map[int]int{0: 1, 1: 1, 3: 1}, counts)
	}
	one, err := accounts.Get(ctx, env.Services.Accounts.Kit, three["id"].(string))
	require.NoError(t, err)
	got := byID(one.Capabilities)
	require.Equal(t, own(one), got)
	require.Equal(t, awkward, *got[0].DisabledReason)
	require.Equal(t, at.UTC(), got[0].Disabled.Time)
	require.Equal(t, 123463000, got[0].Updated.Nanosecond())
	require.Empty(t, *got[1].DisabledReason)
	require.True(t, got[1].Disabled.IsZero())
	require.Nil(t, got[2].DisabledReason)
}
