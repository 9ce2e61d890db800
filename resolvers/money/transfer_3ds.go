package money

import (
	"context"

	"github.com/frame-oss/payments-server/internal/domain/processor"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// CompleteThreeDSecure is the sandbox's stand-in for the cardholder
// finishing a 3-D Secure challenge (POST
// /v1/test_helpers/transfers/{id}/complete_3d_secure): the challenge
// resolves as the test card says — 4000000000003220 succeeds and the
// charge proceeds (captured, or requires_capture for a manual
// authorization); 4000008400001629 declines, and the transfer is recorded
// failed with authentication_required. GET /v2/transfers/{id} then shows
// the final status. Only a transfer in requires_3d_secure can complete
// (422 invalid_state).
func (s *Service) CompleteThreeDSecure(ctx context.Context, id string) (*models.Transfer, error) {
	spec := op.Spec{Name: "transfer.complete_3d_secure", Allow: secretOnly, Params: map[string]any{"id": id}}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.Transfer, error) {
		t, err := lockTransfer(ctx, w.Tx, id)
		if err != nil {
			return nil, err
		}
		if t.Status != models.TransferRequires3DS {
			return nil, stateError(t, "completed with 3-D Secure")
		}
		pm, err := chargeableMethod(ctx, w, *t.SourcePaymentMethodID, t.AccountID)
		if err != nil {
			return nil, err
		}
		t.SourcePaymentMethod = pm
		if !challengeSucceeds(pm) {
			return t, s.fail(ctx, w, t, pm, processor.ChallengeDeclineCode)
		}
		return t, s.approve(ctx, w, t, pm)
	})
}
