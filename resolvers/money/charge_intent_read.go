package money

import (
	"context"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// ChargeIntents is the (deprecated) charge intent family: reads from the
// kit, each intent with its payment method and charge in one statement,
// and Create, Update, Confirm, Capture, Cancel... (charge_intent_*.go).
// Get and List add what the kit cannot say alone: who may read an intent
// (charge_intent_access.go) and the payers a secret key sees embedded.
type ChargeIntents struct {
	op.Reader[models.ChargeIntent, ChargeIntentFilter]
	svc *Service
}

var intentTable = &op.Table[models.ChargeIntent]{Resource: "charge_intent", Columns: withIntentRelations,
	Derive: func(ci *models.ChargeIntent, _ time.Time) { ci.Derive() }}

func newChargeIntents(s *Service) *ChargeIntents {
	return &ChargeIntents{Reader: op.Read[models.ChargeIntent, ChargeIntentFilter](s.Kit, intentTable), svc: s}
}

// Get returns one intent as the caller may see it: with its payment
// method and charge in one statement, and, for the secret key, its payer's
// objects (one statement each) and its live client_secret (one more). A
// publishable key reads it with its
// client_secret (the query's client_secret), the ci_ secret its own intent
// only.
func (cis *ChargeIntents) Get(ctx context.Context, id string, clientSecret *string) (*models.ChargeIntent, error) {
	s := cis.svc
	p, err := auth.Require(ctx, intentClients...)
	if err != nil {
		return nil, err
	}
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, apierr.NotFound("charge_intent", id)
	}
	tn := s.DB.Tenant(p.Scope)
	if err := mayUseIntent(ctx, tn, p, uid, clientSecret, s.Clock.Now()); err != nil {
		return nil, err
	}
	ci, err := intentTable.GetIn(ctx, s.Kit, tn, p, id)
	if err != nil {
		return nil, err
	}
	if p.Kind == auth.SecretKey {
		if err := s.embedPayers(ctx, tn, []*models.ChargeIntent{ci}); err != nil {
			return nil, err
		}
		if err := s.showSecrets(ctx, tn, p, []*models.ChargeIntent{ci}); err != nil {
			return nil, err
		}
	}
	return present(p, ci), nil
}

// List is the one list of intents, newest first (REST list and GraphQL
// connection; secret key): the page with payment methods and charges in
// one statement, and the payers' objects in one statement each, whatever
// the page size.
func (cis *ChargeIntents) List(ctx context.Context, f ChargeIntentFilter, lp op.ListParams) (op.Page[*models.ChargeIntent], error) {
	page, err := cis.Reader.List(ctx, f, lp)
	if err != nil {
		return page, err
	}
	p := auth.FromContext(ctx)
	return page, cis.svc.embedPayers(ctx, cis.svc.DB.Tenant(p.Scope), page.Items)
}

// ChargeIntentFilter filters the intent list. Q is the search query (the
// official SDKs name none; q, as customer search has it): an intent's id
// or reference_id exactly, its receipt e-mail case-insensitively, or a
// part of its description.
type ChargeIntentFilter struct {
	Q          *string                    `query:"q" filter:"-"`
	Status     *models.ChargeIntentStatus `query:"status" filter:"status,enum"`
	CustomerID *string                    `query:"customer" filter:"customer_id,id"`
	AccountID  *string                    `query:"account" filter:"account_id,id"`
}

// maxSearchLength bounds a search query.
const maxSearchLength = 255

// Check bounds the search query.
func (f ChargeIntentFilter) Check(fields *apierr.Fields) {
	if f.Q != nil {
		models.CheckText(fields, "q", f.Q, maxSearchLength, false)
	}
}

// Apply searches: the id or reference_id exactly, the receipt e-mail in
// any case, or a part of the description.
func (f ChargeIntentFilter) Apply(q *bun.SelectQuery) *bun.SelectQuery {
	if f.Q == nil {
		return q
	}
	term := strings.TrimSpace(*f.Q)
	if term == "" {
		return q
	}
	return q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
		if uid, ok := ids.Parse(term); ok {
			q = q.WhereOr("ci.id = ?", uid)
		}
		return q.WhereOr("ci.reference_id = ?", term).WhereOr("lower(ci.receipt_email) = lower(?)", term).
			WhereOr("ci.description ILIKE ? ESCAPE '\\'", "%"+op.LikeEscape(term)+"%")
	})
}
