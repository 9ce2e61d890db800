package webhooks

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/store"

	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/wire"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Create registers an endpoint and answers it with its
// signing secret, the one time (with rotate) the secret is shown.
func (es *Endpoints) Create(ctx context.Context, in *models.CreateWebhookEndpointInput) (*models.WebhookEndpoint, error) {
	spec := op.Spec{Name: "webhook_endpoint.create", Allow: managers, Params: in,
		Check: func() error { return in.Validate(callerLivemode(ctx)) }}
	s := es.svc
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.WebhookEndpoint, error) {
		livemode := w.Tx.Scope().Livemode
		if err := s.checkResolvedURL(ctx, *in.URL, livemode); err != nil {
			return nil, err
		}
		if err := checkEndpointLimit(ctx, w.Tx); err != nil {
			return nil, err
		}
		plain, sealed, err := s.newSealedSecret(ctx, endpointSecretPrefix)
		if err != nil {
			return nil, err
		}
		now := w.Now()
		e := &models.WebhookEndpoint{ID: ids.New(now), URL: *in.URL, Status: models.WebhookEndpointActive,
			Description: in.Description, EventCodes: models.NormalizeEventCodes(in.EventCodes),
			SealedSecret: sealed, Created: wire.At(now), Updated: wire.At(now)}
		if _, err := w.Tx.Insert(e).Exec(ctx); err != nil {
			return nil, err
		}
		e.RevealSecret(plain)
		return e, nil
	})
}

// Update changes an endpoint's url, event codes,
// description or status. Deliveries already queued keep going to it (to
// its new url).
func (es *Endpoints) Update(ctx context.Context, id string, in *models.UpdateWebhookEndpointInput) (*models.WebhookEndpoint, error) {
	spec := op.Spec{Name: "webhook_endpoint.update", Allow: managers, Params: struct {
		ID string `json:"id"`
		*models.UpdateWebhookEndpointInput
	}{id, in}, Check: func() error { return in.Validate(callerLivemode(ctx)) }}
	s := es.svc
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.WebhookEndpoint, error) {
		livemode := w.Tx.Scope().Livemode
		e, err := endpointTable.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		if in.URL != nil {
			if err := s.checkResolvedURL(ctx, *in.URL, livemode); err != nil {
				return nil, err
			}
			e.URL = *in.URL
		}
		if in.EventCodes != nil {
			e.EventCodes = models.NormalizeEventCodes(in.EventCodes)
		}
		if in.Description != nil {
			e.Description = in.Description
			if *in.Description == "" {
				e.Description = nil
			}
		}
		if in.URL != nil || (in.Status != nil && *in.Status != e.Status) {
			e.FailingSince = wire.Timestamp{} // a new address, or enabled again: its failures start anew
		}
		if in.Status != nil {
			e.Status = *in.Status
		}
		e.Updated = wire.At(w.Now())
		_, err = w.Tx.Update(e).Column("url", "event_codes", "description", "status", "failing_since", "updated").WherePK().Exec(ctx)
		return e, err
	})
}

// Delete removes an endpoint: it receives nothing more
// (pending deliveries to it end failed) and reads as missing; its delivery
// history is kept.
func (es *Endpoints) Delete(ctx context.Context, id string) (*models.DeletedWebhookEndpoint, error) {
	spec := op.Spec{Name: "webhook_endpoint.delete", Allow: managers, Params: struct {
		ID string `json:"id"`
	}{id}}
	s := es.svc
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.DeletedWebhookEndpoint, error) {
		e, err := endpointTable.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		e.Deleted = wire.At(w.Now())
		e.Updated = e.Deleted
		if _, err := w.Tx.Update(e).Column("deleted", "updated").WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		return &models.DeletedWebhookEndpoint{ID: e.ID, Deleted: true}, nil
	})
}

// RotateSecret gives an endpoint a new signing secret and answers it
// once. The replaced secret keeps signing deliveries beside the new one for
// the grace period (default 24 hours), so receivers can switch without
// refusing a delivery (docs/webhooks.md, "Rotating the secret").
func (es *Endpoints) RotateSecret(ctx context.Context, id string, in *models.RotateWebhookSecretInput) (*models.WebhookEndpoint, error) {
	if in == nil {
		in = &models.RotateWebhookSecretInput{}
	}
	spec := op.Spec{Name: "webhook_endpoint.rotate_secret", Allow: managers, Params: struct {
		ID string `json:"id"`
		*models.RotateWebhookSecretInput
	}{id, in}, Check: in.Validate}
	s := es.svc
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.WebhookEndpoint, error) {
		e, err := endpointTable.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		plain, sealed, err := s.newSealedSecret(ctx, endpointSecretPrefix)
		if err != nil {
			return nil, err
		}
		now := w.Now()
		old := e.SealedSecret
		e.SealedSecret = sealed
		e.PreviousSealedSecret, e.PreviousSecretExpires = nil, wire.Timestamp{}
		if grace := in.Grace(); grace > 0 {
			e.PreviousSealedSecret, e.PreviousSecretExpires = &old, wire.At(now.Add(time.Duration(grace)*time.Second))
		}
		e.Updated = wire.At(now)
		if _, err := w.Tx.Update(e).Column("secret", "previous_secret", "previous_secret_expires", "updated").
			WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		e.RevealSecret(plain)
		return e, nil
	})
}

// SecretPurpose names what the sealed signing secrets are sealed for.
const SecretPurpose = "webhook_endpoint.secret"

// MaxEndpoints is how many endpoints a merchant may have in each mode (the
// real service's and Stripe's limit): every event is written once per
// subscribed endpoint, so the number bounds what one event costs.
const MaxEndpoints = 16

// checkEndpointLimit refuses an endpoint beyond MaxEndpoints. Creates of
// one merchant and mode take a lock first, so two of them cannot both see
// room for one.
func checkEndpointLimit(ctx context.Context, tx *store.Tenant) error {
	if err := tx.Lock(ctx, "webhook_endpoints.create"); err != nil {
		return err
	}
	n, err := tx.Select((*models.WebhookEndpoint)(nil)).Where("w.deleted IS NULL AND w.kind = ?", models.WebhookEndpointURL).Count(ctx)
	if err != nil {
		return err
	}
	if n >= MaxEndpoints {
		return apierr.Rule("webhook_endpoint_limit_reached",
			fmt.Sprintf("A merchant may have at most %d webhook endpoints in each mode; delete one first", MaxEndpoints), "", nil)
	}
	return nil
}

// Signing secret prefixes: an endpoint's, and a listen session's (the
// real service's CLI shows it for the developer's .env).
const (
	endpointSecretPrefix = "whsec_"
	listenSecretPrefix   = "whsec_cli_"
)

// newSealedSecret makes a signing secret (prefix and 32 hex digits),
// answered once as plain, and sealed, as it is stored.
func (s *Service) newSealedSecret(ctx context.Context, prefix string) (plain, sealed string, err error) {
	plain = newSecret(prefix)
	if sealed, err = s.Secret.Seal(ctx, SecretPurpose, plain); err != nil {
		return "", "", err
	}
	return plain, sealed, nil
}

// newSecret makes a signing secret: prefix and 32 hex digits (128 bits).
func newSecret(prefix string) string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return prefix + hex.EncodeToString(b)
}
