package money

import (
	"context"
	"slices"
	"strings"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// lockInStatus locks the row id of table for an action (verb: "captured",
// "canceled") that only rows in one of the statuses allowed take; a row in
// another status is stateRefusal's 422. Every action of the transfer's and
// the charge intent's state machines refuses the same way, after the lock,
// so that two requests racing on one row see each other's change.
func lockInStatus[M any, S ~string](ctx context.Context, w *op.W, table *op.Table[M], id string,
	status func(*M) S, verb string, allowed ...S) (*M, error) {
	row, err := table.Lock(ctx, w, id, op.LockUpdate)
	if err != nil {
		return nil, err
	}
	if s := status(row); !slices.Contains(allowed, s) {
		return nil, stateRefusal(table.Resource, string(s), verb)
	}
	return row, nil
}

// stateRefusal is the 422 invalid_state of an action (verb) that the
// object's status forbids: "A transfer in status succeeded cannot be
// canceled".
func stateRefusal(resource, status, verb string) error {
	return apierr.InvalidState("A " + strings.ReplaceAll(resource, "_", " ") + " in status " + status + " cannot be " + verb)
}

// lockIntentIn locks the intent id for an action its allowed statuses take.
func lockIntentIn(ctx context.Context, w *op.W, id, verb string, allowed ...models.ChargeIntentStatus) (*models.ChargeIntent, error) {
	return lockInStatus(ctx, w, intentTable, id, func(ci *models.ChargeIntent) models.ChargeIntentStatus { return ci.Status },
		verb, allowed...)
}

// lockTransferIn locks the transfer id for an action its allowed statuses
// take.
func lockTransferIn(ctx context.Context, w *op.W, id, verb string, allowed ...models.TransferStatus) (*models.Transfer, error) {
	return lockInStatus(ctx, w, transferTable, id, func(t *models.Transfer) models.TransferStatus { return t.Status },
		verb, allowed...)
}
