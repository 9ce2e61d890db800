package accounts

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
)

// TwoStatementRead reads accounts as every read did before an account and
// its capabilities shared one statement: the accounts, then their
// capabilities by their own columns (loadCapabilities, which writes still
// use), derived and presented the same way, newest first. It is the
// reference the one-statement reads are held to.
func (s *Service) TwoStatementRead(ctx context.Context, idList ...uuid.UUID) ([]*models.Account, error) {
	p, err := auth.Require(ctx, readers...)
	if err != nil {
		return nil, err
	}
	t := s.DB.Tenant(p.Scope)
	var rows []*models.Account
	if err := t.Select(&rows).Where("a.id IN (?)", bun.In(idList)).OrderExpr("a.created DESC, a.id DESC").Scan(ctx); err != nil {
		return nil, err
	}
	caps, err := loadCapabilities(ctx, t, idList)
	if err != nil {
		return nil, err
	}
	for _, a := range rows {
		s.derive(a, caps[a.ID])
		present(ctx, a)
	}
	return rows, nil
}
