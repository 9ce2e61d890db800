package accounts

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// GetCustomerIdentityVerification answers one verification of the
// caller's merchant and mode (404 for anyone else's).
func (s *Service) GetCustomerIdentityVerification(ctx context.Context, id string) (*models.CustomerIdentityVerification, error) {
	out, errs := s.CustomerIdentityVerificationsByIDs(ctx, []string{id})
	return out[0], errs[0]
}

// CustomerIdentityVerificationsByIDs reads verifications by id, in one
// statement (the REST retrieve, GraphQL's loader and node).
func (s *Service) CustomerIdentityVerificationsByIDs(ctx context.Context, idList []string) ([]*models.CustomerIdentityVerification, []error) {
	p, err := auth.Require(ctx, civActors...)
	return op.ByIDs(idList, "customer_identity_verification", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.CustomerIdentityVerification, error) {
		var rows []*models.CustomerIdentityVerification
		if err := s.DB.Tenant(p.Scope).Select(&rows).Where("civ.id IN (?)", bun.In(want)).Scan(ctx); err != nil {
			return nil, err
		}
		out := make(map[uuid.UUID]*models.CustomerIdentityVerification, len(rows))
		for _, r := range rows {
			out[r.ID] = r
		}
		return out, nil
	})
}

// CustomerIdentityVerificationsOfCustomers reads the newest verifications
// (up to RecentChildren each, newest first) of many customers in one
// statement (GraphQL's Customer.identityVerifications). A customer of
// another merchant or mode simply has none.
func (s *Service) CustomerIdentityVerificationsOfCustomers(ctx context.Context, customerIDs []string) ([][]*models.CustomerIdentityVerification, []error) {
	out := make([][]*models.CustomerIdentityVerification, len(customerIDs))
	errs := make([]error, len(customerIDs))
	p, err := auth.Require(ctx, civActors...)
	if err != nil {
		for i := range errs {
			errs[i] = err
		}
		return out, errs
	}
	want := make([]uuid.UUID, 0, len(customerIDs))
	for _, id := range customerIDs {
		if uid, err := uuid.Parse(id); err == nil {
			want = append(want, uid)
		}
	}
	byCustomer := map[uuid.UUID][]*models.CustomerIdentityVerification{}
	if len(want) > 0 {
		t := s.DB.Tenant(p.Scope)
		sc := t.Scope()
		var rows []*models.CustomerIdentityVerification
		err := t.Select(&rows).Where("civ.customer_id IN (?)", bun.In(want)).
			Where("civ.id IN (SELECT id FROM (SELECT x.id, row_number() OVER (PARTITION BY x.customer_id ORDER BY x.created DESC, x.id DESC) AS n "+
				"FROM customer_identity_verifications AS x WHERE x.merchant_id = ? AND x.livemode = ? AND x.customer_id IN (?)) AS ranked WHERE n <= ?)",
				sc.MerchantID, sc.Livemode, bun.In(want), RecentChildren).
			OrderExpr("civ.created DESC, civ.id DESC").Scan(ctx)
		if err != nil {
			for i := range errs {
				errs[i] = err
			}
			return out, errs
		}
		for _, r := range rows {
			byCustomer[*r.CustomerID] = append(byCustomer[*r.CustomerID], r)
		}
	}
	for i, id := range customerIDs {
		out[i] = []*models.CustomerIdentityVerification{}
		if uid, err := uuid.Parse(id); err == nil && byCustomer[uid] != nil {
			out[i] = byCustomer[uid]
		}
	}
	return out, errs
}
