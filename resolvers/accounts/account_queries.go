package accounts

import (
	"context"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// findAccount reads one account of the caller's scope with its
// capabilities, in one statement (capabilitiesOfAccount), or answers 404.
func findAccount(ctx context.Context, t *store.Tenant, p *auth.Principal, id string) (*models.Account, error) {
	uid, ok := ids.Parse(id)
	if !ok || !p.SeesAccount(uid) {
		return nil, apierr.NotFound("account", id)
	}
	a := new(models.Account)
	if err := t.ScanPreparedRow(ctx, accountByID, a, uid); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound("account", id)
		}
		return nil, err
	}
	if err := accountTable.LoadEmbedded(a); err != nil {
		return nil, err
	}
	return a, nil
}

// accountByID is findAccount's statement, prepared: the most frequent read.
var accountByID = store.NewPreparedSelect((*models.Account)(nil), func(q *bun.SelectQuery) *bun.SelectQuery {
	return capabilitiesOfAccount.Select(q.ColumnExpr("?TableColumns")).Where("a.id = $3")
})

// lockAccount reads one account of the caller's scope and locks its row,
// which serializes every write to the account and its capabilities, or
// answers 404. It reads no capability: the writer loads them with a
// statement of its own once it holds the lock (loadCapabilities). They
// cannot share the locking statement: under READ COMMITTED a statement
// reads with the snapshot it started with, so after waiting for a writer
// holding the lock it would get that writer's account row but not the
// capabilities it inserted or changed.
func lockAccount(ctx context.Context, w *op.W, id string) (*models.Account, error) {
	return accountRows.Lock(ctx, w, id, op.LockUpdate)
}

// loadCapabilities fetches the capabilities of many accounts in one
// statement, grouped by account and in catalogue order.
func loadCapabilities(ctx context.Context, t *store.Tenant, accountIDs []uuid.UUID) (map[uuid.UUID][]*models.Capability, error) {
	out := make(map[uuid.UUID][]*models.Capability, len(accountIDs))
	if len(accountIDs) == 0 {
		return out, nil
	}
	var caps []*models.Capability
	if err := t.Select(&caps).Where("c.account_id IN (?)", bun.In(accountIDs)).
		OrderExpr(capabilityOrderSQL).Scan(ctx); err != nil {
		return nil, err
	}
	for _, c := range caps {
		out[c.AccountID] = append(out[c.AccountID], c)
	}
	return out, nil
}

// capabilityOrderSQL sorts capabilities in catalogue order.
var capabilityOrderSQL = func() string {
	var b strings.Builder
	b.WriteString("array_position(ARRAY[")
	for i, n := range capability.AllNames() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("'" + string(n) + "'")
	}
	b.WriteString("]::text[], c.name)")
	return b.String()
}()

// externalIDTaken turns the unique index's refusal into the validation
// error a pre-check would give; checking in the database keeps two
// concurrent creates from both taking the same external_id.
func externalIDTaken(err error) error {
	if c, ok := store.UniqueViolation(err); ok && c == "accounts_external_id_key" {
		return apierr.FieldError("external_id", "has already been taken by another account")
	}
	return err
}
