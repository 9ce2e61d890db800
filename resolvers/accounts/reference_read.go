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
// reference the one-statement reads are held to, and serves no request.
//
// It is exported for those tests (account_read_test.go), which run against
// the whole app and so live outside this package: as an in-package test
// file it would make go test compile again, for this package's tests,
// every package between it and the app (docs/testing.md, "Packages
// compiled once").
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
