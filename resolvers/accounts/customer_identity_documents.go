package accounts

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// AuthorizeUpload answers, before a transport reads an
// upload's body, what the upload would answer without reading it: 401/403
// for a caller that may not upload, 503 in live mode. A refused caller
// then costs no body.
func (cs *CustomerIdentity) AuthorizeUpload(ctx context.Context) error {
	p, err := auth.Require(ctx, civActors...)
	if err != nil {
		return err
	}
	return requireSandboxProvider(p, "identity")
}

// documentParams identify an upload for idempotency: the documents by
// what they are, never their bytes.
type documentParams struct {
	ID        string        `json:"id"`
	Documents []documentKey `json:"documents"`
	TooMany   bool          `json:"too_many,omitempty"`
}

type documentKey struct {
	Field    string          `json:"field"`
	Type     string          `json:"type"`
	Size     int64           `json:"size"`
	SHA256   string          `json:"sha256"`
	FileID   string          `json:"file_id,omitempty"`
	Metadata models.Metadata `json:"metadata,omitempty"`
}

func uploadParams(id string, in *models.UploadIdentityDocumentsInput) documentParams {
	p := documentParams{ID: id, TooMany: in.TooMany, Documents: make([]documentKey, len(in.Documents))}
	for i, d := range in.Documents {
		p.Documents[i] = documentKey{Field: d.Field, Type: d.DeclaredType, Size: d.Size, SHA256: d.Digest(),
			FileID: d.FileID(), Metadata: d.ReferenceMetadata()}
	}
	return p
}

// Upload records documents of an incomplete
// verification (spec doc 1 §4.10): the ID's front and back and a selfie,
// in one request or several; a document sent again replaces the one on
// file. Once all three are on file the verification turns pending and the
// identity provider judges it in the background. Only a receipt of each
// document is kept (models.CustomerIdentityVerification). The
// verification's row lock serializes uploads, so concurrent ones each see
// the documents the others recorded and exactly one of them turns it
// pending. Refusals: 503 in live mode, 422 for the documents (every
// problem at once), 404, 422 invalid_state once the verification is no
// longer incomplete.
func (cs *CustomerIdentity) Upload(ctx context.Context, id string, in *models.UploadIdentityDocumentsInput) (*models.CustomerIdentityVerification, error) {
	s := cs.svc
	spec := op.Spec{Name: "customer_identity_verification.upload_documents", Allow: civActors, Params: uploadParams(id, in)}
	return s.writeCustomerIdentity(ctx, spec, id, in.Validate, func(w *op.W, v *models.CustomerIdentityVerification) error {
		if v.Status != models.CustomerVerificationIncomplete {
			return apierr.InvalidState("Documents can only be uploaded while the verification is incomplete; it is " + string(v.Status))
		}
		received := models.At(w.Now())
		for _, d := range in.Documents {
			if id := d.FileID(); id != "" {
				v.Documents[d.Slot()] = &models.DocumentReceipt{FileID: id, Metadata: d.ReferenceMetadata(),
					Received: received}
				continue
			}
			v.Documents[d.Slot()] = &models.DocumentReceipt{ContentType: d.SniffedType, Size: d.Size, SHA256: d.Digest(),
				Received: received}
		}
		return nil
	})
}

// Submit asks for the verification to be
// judged (the real service's clients call it; the spec's upload does it by
// itself once the documents are complete): 422 on documents naming the
// missing ones while it is incomplete, the verification unchanged once it
// is pending or concluded.
func (cs *CustomerIdentity) Submit(ctx context.Context, id string) (*models.CustomerIdentityVerification, error) {
	s := cs.svc
	spec := op.Spec{Name: "customer_identity_verification.submit", Allow: civActors, Params: map[string]string{"id": id}}
	return s.writeCustomerIdentity(ctx, spec, id, nil, func(_ *op.W, v *models.CustomerIdentityVerification) error {
		if missing := v.MissingDocuments(civSlots); v.Status == models.CustomerVerificationIncomplete && len(missing) > 0 {
			return apierr.FieldError("documents", "are incomplete: upload "+strings.Join(missing, ", ")+" first")
		}
		return nil
	})
}

// writeCustomerIdentity runs rule on one verification under its row lock,
// through the write path: refuse live mode, check the input, lock, apply
// the rule, turn the verification pending when its documents are complete
// (enqueueing its judgement), and persist and announce what changed
// (customer.identity_verification.updated with previous_attributes).
func (s *Service) writeCustomerIdentity(ctx context.Context, spec op.Spec, id string, check func() error,
	rule func(w *op.W, v *models.CustomerIdentityVerification) error) (*models.CustomerIdentityVerification, error) {
	// Live mode first: no verification can exist there (create refuses),
	// so a 404 would hide the reason.
	spec.Provider, spec.Check = "identity", check
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.CustomerIdentityVerification, error) {
		v, err := lockCustomerIdentity(ctx, w, id)
		if err != nil {
			return nil, err
		}
		return v, s.changeCustomerIdentity(ctx, w, v, func(v *models.CustomerIdentityVerification) error {
			if err := rule(w, v); err != nil {
				return err
			}
			if v.Status == models.CustomerVerificationIncomplete && len(v.MissingDocuments(civSlots)) == 0 {
				v.Status, v.Pending = models.CustomerVerificationPending, models.UnixOrZero{Timestamp: models.At(w.Now())}
				sc := w.Tx.Scope()
				return w.Enqueue(ctx, CustomerIdentityArgs{Tenant: jobs.TenantOf(sc), ID: v.ID})
			}
			return nil
		})
	})
}

// changeCustomerIdentity applies change to a locked verification, then
// writes and announces it when its rendering or its documents changed (a
// document recorded is a change: previous_attributes then holds at most
// `updated`, as documents are not rendered).
func (s *Service) changeCustomerIdentity(ctx context.Context, w *op.W, v *models.CustomerIdentityVerification,
	change func(v *models.CustomerIdentityVerification) error) error {
	before, err := events.Render(v)
	if err != nil {
		return err
	}
	docsBefore, err := json.Marshal(v.Documents)
	if err != nil {
		return err
	}
	if err := change(v); err != nil {
		return err
	}
	docsAfter, err := json.Marshal(v.Documents)
	if err != nil {
		return err
	}
	previous := v.Updated
	v.Updated = models.At(w.Now())
	after, prev, err := events.RenderChange(before, v)
	if err != nil {
		return err
	}
	if prev == nil && string(docsBefore) == string(docsAfter) { // nothing changed
		v.Updated = previous
		return nil
	}
	if _, err := w.Tx.Update(v).Column("status", "documents", "pending", "verified", "failed", "updated").
		WherePK().Exec(ctx); err != nil {
		return err
	}
	w.Emit(EventCustomerIdentityVerificationUpdated, v.ID, after, prev)
	return nil
}

// lockCustomerIdentity reads one verification of the caller's merchant
// and mode and locks its row, or answers 404.
func lockCustomerIdentity(ctx context.Context, w *op.W, id string) (*models.CustomerIdentityVerification, error) {
	v, err := civTable.Lock(ctx, w, id, op.LockUpdate)
	if err != nil {
		return nil, err
	}
	if v.Documents == nil {
		v.Documents = models.IdentityDocuments{}
	}
	return v, nil
}
