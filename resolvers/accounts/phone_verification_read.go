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
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// An attempt whose passcode lapsed unconfirmed is expired
// (otp_not_completed) on every read, although its row says pending until
// a write meets it (a confirm, or a newer attempt): reads apply observe,
// and the status filter matches what reads show.

// observe shows pv as it stands at now.
func observe(pv *models.PhoneVerification, now time.Time) *models.PhoneVerification {
	if pv.Lapsed(now) {
		o := verification.Expired()
		pv.SetOutcome(o.Status, o.FailureType, o.Category, o.Retriable)
	}
	return pv
}

// PhoneVerificationFilter narrows an account's attempts (spec doc 1 §4.6).
type PhoneVerificationFilter struct {
	Status *string
}

func (f PhoneVerificationFilter) validate() error {
	if f.Status != nil && !oneOf(*f.Status, models.PhoneStatuses) {
		return apierr.BadRequest(apierr.CodeParameterInvalid, "status must be one of: pending, verified, failed, expired", "status")
	}
	return nil
}

func (f PhoneVerificationFilter) apply(q *bun.SelectQuery, now time.Time) *bun.SelectQuery {
	if f.Status == nil {
		return q
	}
	switch models.PhoneStatus(*f.Status) {
	case models.PhoneStatusPending:
		return q.Where("pv.status = 'pending'").Where("(pv.expires IS NULL OR pv.expires > ?)", now)
	case models.PhoneStatusExpired:
		return q.Where("(pv.status = 'expired' OR pv.status = 'pending' AND pv.expires <= ?)", now)
	}
	return q.Where("pv.status = ?", *f.Status)
}

// ListPhoneVerifications is the one list of an account's attempts, most
// recent first (the REST list and the GraphQL connection). An unknown
// account, or one outside an onboarding secret's scope, is 404.
func (s *Service) ListPhoneVerifications(ctx context.Context, accountID string, f PhoneVerificationFilter, lp op.ListParams) (op.Page[*models.PhoneVerification], error) {
	var page op.Page[*models.PhoneVerification]
	p, err := auth.Require(ctx, phoneActors...)
	if err != nil {
		return page, err
	}
	if err := f.validate(); err != nil {
		return page, err
	}
	aid, ok := ids.Parse(accountID)
	if !ok || !p.SeesAccount(aid) {
		return page, apierr.NotFound("account", accountID)
	}
	now := s.Clock.Now()
	t := s.DB.Tenant(p.Scope)
	q := f.apply(t.Select((*models.PhoneVerification)(nil)).Where("pv.account_id = ?", aid), now)
	if page, err = op.List(ctx, q, "pv", lp, phonePosition); err != nil {
		return page, err
	}
	for _, pv := range page.Items {
		observe(pv, now)
	}
	return page, requireAccount(ctx, t, aid, accountID, len(page.Items) > 0)
}

func phonePosition(pv *models.PhoneVerification) op.Position {
	return op.Position{Created: pv.Created.Time, ID: pv.ID}
}

// GetPhoneVerification answers one attempt of the account.
func (s *Service) GetPhoneVerification(ctx context.Context, accountID, id string) (*models.PhoneVerification, error) {
	p, err := auth.Require(ctx, phoneActors...)
	if err != nil {
		return nil, err
	}
	if aid, ok := ids.Parse(accountID); ok && !p.SeesAccount(aid) {
		return nil, apierr.NotFound("account", accountID)
	}
	pv, err := childOf[models.PhoneVerification](ctx, s.DB.Tenant(p.Scope), "pv", "phone_verification", accountID, id)
	if err != nil {
		return nil, err
	}
	return observe(pv, s.Clock.Now()), nil
}

// PhoneVerificationsByIDs reads attempts by id (GraphQL's loader and node).
func (s *Service) PhoneVerificationsByIDs(ctx context.Context, idList []string) ([]*models.PhoneVerification, []error) {
	p, err := auth.Require(ctx, phoneActors...)
	return op.ByIDs(idList, "phone_verification", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.PhoneVerification, error) {
		var rows []*models.PhoneVerification
		if err := s.DB.Tenant(p.Scope).Select(&rows).Where("pv.id IN (?)", bun.In(want)).Scan(ctx); err != nil {
			return nil, err
		}
		now := s.Clock.Now()
		out := make(map[uuid.UUID]*models.PhoneVerification, len(rows))
		for _, r := range rows {
			if p.SeesAccount(r.AccountID) {
				out[r.ID] = observe(r, now)
			}
		}
		return out, nil
	})
}

// PhoneVerificationsOfAccounts reads the newest attempts of many accounts
// in one statement (GraphQL's Account.phoneVerifications).
func (s *Service) PhoneVerificationsOfAccounts(ctx context.Context, accountIDs []string) ([][]*models.PhoneVerification, []error) {
	return childrenOfAccounts(ctx, s, accountIDs, phoneActors, func(t *store.Tenant, want []uuid.UUID) (map[uuid.UUID][]*models.PhoneVerification, error) {
		var rows []*models.PhoneVerification
		if err := recentOf(t.Select(&rows), t, "phone_verifications", "pv", want).Scan(ctx); err != nil {
			return nil, err
		}
		now := s.Clock.Now()
		out := map[uuid.UUID][]*models.PhoneVerification{}
		for _, r := range rows {
			out[r.AccountID] = append(out[r.AccountID], observe(r, now))
		}
		return out, nil
	})
}
