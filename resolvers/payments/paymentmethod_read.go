package payments

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

var secretOnly = []auth.Kind{auth.SecretKey}

// GetPaymentMethod returns one payment method.
func (s *Service) GetPaymentMethod(ctx context.Context, id string) (*models.PaymentMethod, error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return nil, err
	}
	return selectPaymentMethod(ctx, s.DB.Tenant(p.Scope), id, false)
}

// PaymentMethodsByIDs reads many payment methods in one statement.
func (s *Service) PaymentMethodsByIDs(ctx context.Context, idList []string) ([]*models.PaymentMethod, []error) {
	p, err := auth.Require(ctx, secretOnly...)
	return op.ByIDs(idList, "payment_method", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.PaymentMethod, error) {
		var rows []*models.PaymentMethod
		if err := s.DB.Tenant(p.Scope).Select(&rows).Where("pm.id IN (?)", bun.In(want)).Scan(ctx); err != nil {
			return nil, err
		}
		found := make(map[uuid.UUID]*models.PaymentMethod, len(rows))
		for _, r := range rows {
			found[r.ID] = r
		}
		return found, nil
	})
}

// PaymentMethodFilter is what payment method listings filter by.
type PaymentMethodFilter struct {
	// CustomerID or AccountID restrict the list to one owner's usable
	// methods (detached ones left out); the owner must exist.
	CustomerID, AccountID *string
	// IncludeWallets keeps single-use wallet credentials, which lists leave
	// out by default (spec doc 2 §4.3).
	IncludeWallets bool
}

// ListPaymentMethods is the one list of payment methods, newest first:
// GET /v1/payment_methods, the customer's and the account's sub-lists and
// the GraphQL connection.
func (s *Service) ListPaymentMethods(ctx context.Context, f PaymentMethodFilter, lp op.ListParams) (op.Page[*models.PaymentMethod], error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return op.Page[*models.PaymentMethod]{}, err
	}
	t := s.DB.Tenant(p.Scope)
	q := t.Select((*models.PaymentMethod)(nil))
	switch {
	case f.CustomerID != nil:
		if _, err := ownerExists(ctx, t, "customer", *f.CustomerID); err != nil {
			return op.Page[*models.PaymentMethod]{}, err
		}
		q = q.Where("pm.customer_id = ?", *f.CustomerID).Where("pm.status <> 'detached'")
	case f.AccountID != nil:
		if _, err := ownerExists(ctx, t, "account", *f.AccountID); err != nil {
			return op.Page[*models.PaymentMethod]{}, err
		}
		q = q.Where("pm.account_id = ?", *f.AccountID).Where("pm.status <> 'detached'")
	}
	if !f.IncludeWallets {
		q = q.Where("NOT pm.single_use")
	}
	return op.List(ctx, q, "pm", lp, func(m *models.PaymentMethod) op.Position {
		return op.Position{Created: m.Created.Time, ID: m.ID}
	})
}

// ownerExists answers 404 for an unknown customer or account.
func ownerExists(ctx context.Context, t *store.Tenant, kind, id string) (uuid.UUID, error) {
	uid, ok := ids.Parse(id)
	if !ok {
		return uuid.Nil, apierr.NotFound(kind, id)
	}
	var model any = (*models.Customer)(nil)
	alias := "cu"
	if kind == "account" {
		model, alias = (*models.Account)(nil), "a"
	}
	exists, err := t.Select(model).Where("?.id = ?", bun.Ident(alias), uid).Exists(ctx)
	if err != nil {
		return uuid.Nil, err
	}
	if !exists {
		return uuid.Nil, apierr.NotFound(kind, id)
	}
	return uid, nil
}

// selectPaymentMethod reads (and with lock, locks) one payment method.
func selectPaymentMethod(ctx context.Context, t *store.Tenant, id string, lock bool) (*models.PaymentMethod, error) {
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, apierr.NotFound("payment_method", id)
	}
	pm := new(models.PaymentMethod)
	q := t.Select(pm).Where("pm.id = ?", uid)
	if lock {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound("payment_method", id)
		}
		return nil, err
	}
	return pm, nil
}

// PaymentMethodsOfAccounts reads the usable payment methods of many
// accounts in one statement, grouped by account, newest first (the
// GraphQL Account.paymentMethods edge).
func (s *Service) PaymentMethodsOfAccounts(ctx context.Context, accountIDs []string) ([][]*models.PaymentMethod, []error) {
	out := make([][]*models.PaymentMethod, len(accountIDs))
	errs := make([]error, len(accountIDs))
	fail := func(err error) ([][]*models.PaymentMethod, []error) {
		for i := range errs {
			errs[i] = err
		}
		return out, errs
	}
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return fail(err)
	}
	var want []uuid.UUID
	for _, id := range accountIDs {
		if uid, ok := ids.Parse(id); ok {
			want = append(want, uid)
		}
	}
	var rows []*models.PaymentMethod
	if len(want) > 0 {
		if err := s.DB.Tenant(p.Scope).Select(&rows).Where("pm.account_id IN (?)", bun.In(want)).
			Where("pm.status <> 'detached'").Where("NOT pm.single_use").
			OrderExpr("pm.created DESC, pm.id DESC").Scan(ctx); err != nil {
			return fail(err)
		}
	}
	by := map[string][]*models.PaymentMethod{}
	for _, r := range rows {
		by[r.AccountID.String()] = append(by[r.AccountID.String()], r)
	}
	for i, id := range accountIDs {
		if out[i] = by[id]; out[i] == nil {
			out[i] = []*models.PaymentMethod{}
		}
	}
	return out, errs
}
