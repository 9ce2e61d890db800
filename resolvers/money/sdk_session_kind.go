package money

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// sdkSessionRow is *M, a session row the store can stamp with its tenant,
// that a create opens and an update changes the state of.
type sdkSessionRow[M any] interface {
	*M
	store.TenantRow
	Open(id uuid.UUID, state models.SDKSessionState)
	SessionState() *models.SDKSessionState
}

// sdkSessionKind is what tells the SDK's two sessions apart (their table,
// operation names, provider and events); their create and update are the
// same logic and are written once, against it.
type sdkSessionKind[M any, P sdkSessionRow[M]] struct {
	resource string // "charge_session": the table's resource and the operations' prefix
	noun     string // "charge session": how a refusal names it
	provider string // what production mode lacks, so it answers 503
	table    *op.Table[M]
	created  events.Type
	updated  events.Type
}

// create opens a session, for the charge intent named or none; params is
// the caller's input, in the part of it both sessions share.
func (k *sdkSessionKind[M, P]) create(ctx context.Context, kit *op.Kit, params any, in *models.SDKSessionCreate) (*M, error) {
	spec := op.Spec{Name: k.resource + ".create", Allow: secretOnly, Params: params, Provider: k.provider,
		Check: in.Validate}
	return op.Write(ctx, kit, spec, func(ctx context.Context, w *op.W) (*M, error) {
		intent, err := sessionChargeIntent(ctx, w, in.ChargeIntentID)
		if err != nil {
			return nil, err
		}
		now := w.Now()
		sessID := ids.New(now)
		sess := new(M)
		P(sess).Open(sessID, models.SDKSessionState{Status: models.SessionOpen, ChargeIntentID: intent,
			VisitorID: in.VisitorID, Metadata: models.MergeMetadata(nil, in.Metadata), Created: models.At(now), Updated: models.At(now)})
		if _, err := w.Tx.Insert(P(sess)).Exec(ctx); err != nil {
			return nil, err
		}
		if err := w.EmitObject(k.created, sessID, sess); err != nil {
			return nil, err
		}
		return sess, nil
	})
}

// update completes or cancels an open session, sets its visitor and
// merges its metadata;
// an update that changes nothing writes nothing and announces nothing.
func (k *sdkSessionKind[M, P]) update(ctx context.Context, kit *op.Kit, id string, params any, in *models.SDKSessionUpdate) (*M, error) {
	spec := op.Spec{Name: k.resource + ".update", Allow: secretOnly, Params: params, Provider: k.provider,
		Check: in.Validate}
	return op.Write(ctx, kit, spec, func(ctx context.Context, w *op.W) (*M, error) {
		sess, err := k.table.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		before, err := events.Render(sess)
		if err != nil {
			return nil, err
		}
		state := P(sess).SessionState()
		if err := sessionChange(k.noun, &state.Status, &state.Metadata, in.Status, in.Metadata); err != nil {
			return nil, err
		}
		if in.VisitorID != nil {
			state.VisitorID = in.VisitorID
		}
		prev, err := previousAttributes(before, sess)
		if err != nil || prev == nil {
			return sess, err
		}
		state.Updated = models.At(w.Now())
		if _, err := w.Tx.Update(sess).Column("status", "visitor_id", "metadata", "updated").WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		raw, err := events.Render(sess)
		if err != nil {
			return nil, err
		}
		w.Emit(k.updated, k.table.ID(sess), raw, prev)
		return sess, nil
	})
}
