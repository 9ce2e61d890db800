package money

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// What charge sessions and Sonar sessions, the SDK's two sessions around a
// charge intent, share (docs/sandbox.md, "Resources from the SDK"): the
// charge intent they name must exist, and an update closes an open session
// or changes its metadata.

// sessionChargeIntent resolves the charge intent a new session names (nil
// for none): 404 for another tenant's, another mode's or an unknown one.
func sessionChargeIntent(ctx context.Context, w *op.W, id *string) (*uuid.UUID, error) {
	if id == nil {
		return nil, nil
	}
	uid, _ := ids.Parse(*id) // checked by the input's Validate
	found, err := w.Tx.Select((*models.ChargeIntent)(nil)).Where("ci.id = ?", uid).Exists(ctx)
	if err != nil {
		return nil, err
	}
	if !found {
		e := apierr.NotFound("charge_intent", *id)
		e.Param = "charge_intent_id"
		return nil, e
	}
	return &uid, nil
}

// sessionChange applies an update to a locked session's status and
// metadata and tells whether anything changed: only an open session
// closes, and a closed one keeps its status (422 invalid_state).
func sessionChange(resource string, status *models.SessionStatus, meta *models.Metadata,
	to *models.SessionStatus, in models.MetadataInput) error {
	if to != nil && *to != *status {
		if *status != models.SessionOpen {
			return apierr.InvalidState("This " + resource + " is " + string(*status) + "; only an open one changes status")
		}
		*status = *to
	}
	if in != nil {
		*meta = models.MergeMetadata(*meta, in)
		var f apierr.Fields
		models.CheckMetadataSize(&f, "metadata", *meta)
		if err := f.Err(); err != nil {
			return err
		}
	}
	return nil
}
