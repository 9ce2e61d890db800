package accounts

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/verification"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// An attempt whose passcode lapsed unconfirmed is expired
// (otp_not_completed) on every read, although its row says pending until
// a write meets it (a confirm, or a newer attempt): reads apply observe,
// and the status filter matches what reads show.

// observe shows pv as it stands at now: a lapsed attempt was updated when
// its passcode lapsed.
func observe(pv *models.PhoneVerification, now time.Time) *models.PhoneVerification {
	if pv.Lapsed(now) {
		o := verification.Expired()
		pv.SetOutcome(o.Status, o.FailureType, o.Category, o.Retriable)
		pv.Updated = pv.Expires
	}
	return pv
}

// PhoneVerifications is the phone verification family of the area: an
// account's attempts (here), a new attempt (phone_verification_create.go)
// and its confirmation (phone_verification_confirm.go).
type PhoneVerifications struct {
	// OfAccounts reads the newest RecentChildren attempts of many accounts
	// in one statement (GraphQL's Account.phoneVerifications).
	OfAccounts op.Batch[[]*models.PhoneVerification]
	svc        *Service
}

// phoneTable reads attempts as they stand at the read (observe); an
// onboarding secret sees its own account's only.
var phoneTable = &op.Table[models.PhoneVerification]{Resource: "phone_verification", Allow: phoneActors,
	Visible: ownAccountOnly, Derive: func(pv *models.PhoneVerification, now time.Time) { observe(pv, now) }}

// phoneRows is an attempt as stored, unobserved: what a confirmation locks
// (it applies the lapse itself, and persists it).
var phoneRows = &op.Table[models.PhoneVerification]{Resource: "phone_verification", Allow: phoneActors,
	Visible: ownAccountOnly}

// ownAccountOnly narrows a read of an account's children (alias columns
// account_id) to what p sees: a session secret, its own account's.
func ownAccountOnly(q *bun.SelectQuery, p *auth.Principal) *bun.SelectQuery {
	switch p.Kind {
	case auth.OnboardingSession, auth.CheckoutSession:
		return q.Where("?TableAlias.account_id = ?", p.AccountID)
	}
	return q
}

func newPhoneVerifications(s *Service) *PhoneVerifications {
	return &PhoneVerifications{svc: s, OfAccounts: (&op.Children[models.PhoneVerification]{Table: phoneTable,
		Parent: "account", Column: "account_id", Limit: RecentChildren, Sees: (*auth.Principal).SeesAccount}).Bind(s.Kit)}
}

// PhoneVerificationFilter narrows an account's attempts (spec doc 1 §4.6).
type PhoneVerificationFilter struct {
	// Status is checked against the closed set and applied by Apply.
	Status *models.PhoneStatus `query:"status" filter:"-,enum"`

	// account is the account whose attempts are listed, now the time of
	// the list (List sets them).
	account uuid.UUID
	now     time.Time
}

// Apply keeps the listed account's attempts, and matches the status reads
// show: a lapsed pending attempt is expired.
func (f PhoneVerificationFilter) Apply(q *bun.SelectQuery) *bun.SelectQuery {
	q = q.Where("?TableAlias.account_id = ?", f.account)
	if f.Status == nil {
		return q
	}
	switch *f.Status {
	case models.PhoneStatusPending:
		return q.Where("pv.status = 'pending'").Where("(pv.expires IS NULL OR pv.expires > ?)", f.now)
	case models.PhoneStatusExpired:
		return q.Where("(pv.status = 'expired' OR pv.status = 'pending' AND pv.expires <= ?)", f.now)
	}
	return q.Where("pv.status = ?", *f.Status)
}

// List is the one list of an account's attempts, most recent first (the
// REST list and the GraphQL connection). An unknown account, or one
// outside an onboarding secret's scope, is 404.
func (ps *PhoneVerifications) List(ctx context.Context, accountID string, f PhoneVerificationFilter, lp op.ListParams) (op.Page[*models.PhoneVerification], error) {
	now := ps.svc.Clock.Now()
	return listOfAccount(ctx, ps.svc, phoneTable, phoneActors, accountID, f,
		func(f *PhoneVerificationFilter, account uuid.UUID) { f.account, f.now = account, now }, lp)
}

// Get answers one attempt of the account.
func (ps *PhoneVerifications) Get(ctx context.Context, accountID, id string) (*models.PhoneVerification, error) {
	p, err := auth.Require(ctx, phoneActors...)
	if err != nil {
		return nil, err
	}
	if aid, ok := ids.Parse(accountID); ok && !p.SeesAccount(aid) {
		return nil, apierr.NotFound("account", accountID)
	}
	return phoneTable.GetOf(ctx, ps.svc.Kit, "account_id", "account", accountID, id)
}

// ByIDs reads attempts by id (GraphQL's loader and node).
func (ps *PhoneVerifications) ByIDs(ctx context.Context, idList []string) ([]*models.PhoneVerification, []error) {
	return phoneTable.ByIDs(ctx, ps.svc.Kit, idList)
}
