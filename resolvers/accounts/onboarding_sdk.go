package accounts

import (
	"context"
	"slices"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// The /v1/onboarding/sessions family the real service's SDK calls
// (OnboardingAPI) is served by the onboarding sessions of this area: the
// same sessions, opened by the same create, rendered in the SDK's shape
// (models.SDKOnboardingSession). What the family adds beyond the spec,
// ending a session by an update and choosing the account's payout method,
// is sandbox-independent bookkeeping on the same rows (docs/sandbox.md).

// SDKOnboardingFilter is the query of GET /v1/onboarding/sessions.
type SDKOnboardingFilter struct {
	AccountID     *string
	CustomerID    *string
	Status        *string
	Limit         int
	StartingAfter *string
}

// maxSDKOnboardingLimit bounds a page of the family's list.
const maxSDKOnboardingLimit = 100

// SDKCreate opens a session (Create) and renders it in the SDK's shape,
// its client secret included.
func (ob *Onboarding) SDKCreate(ctx context.Context, in *models.CreateOnboardingSessionInput) (*models.SDKOnboardingSession, error) {
	sess, err := ob.Create(ctx, in)
	if err != nil {
		return nil, err
	}
	return models.AsSDKOnboardingSession(sess, sess.Created.Time), nil
}

// SDKGet reads one session by id, with its live client secret
// (showSecrets).
func (ob *Onboarding) SDKGet(ctx context.Context, id string) (*models.SDKOnboardingSession, error) {
	sess, err := sessionTable.Get(ctx, ob.svc.Kit, id)
	if err != nil {
		return nil, err
	}
	if err := ob.showSecrets(ctx, sess); err != nil {
		return nil, err
	}
	return models.AsSDKOnboardingSession(sess, ob.svc.Clock.Now()), nil
}

// SDKList lists the merchant's sessions newest first, a cursor page:
// limit (1-100, default 10) sessions older than starting_after.
// customer_id is refused (a session onboards an account: account_id).
func (ob *Onboarding) SDKList(ctx context.Context, flt SDKOnboardingFilter) (*models.SDKOnboardingSessionList, error) {
	s := ob.svc
	p, err := auth.Require(ctx, auth.SecretKey)
	if err != nil {
		return nil, err
	}
	var f apierr.Fields
	if flt.CustomerID != nil {
		f.Add("customer_id", "is not accepted: onboarding sessions belong to accounts; filter by account_id")
	}
	var account, after uuid.UUID
	if flt.AccountID != nil {
		var ok bool
		if account, ok = ids.Parse(*flt.AccountID); !ok {
			f.Add("account_id", "is not a valid id")
		}
	}
	if flt.StartingAfter != nil {
		var ok bool
		if after, ok = ids.Parse(*flt.StartingAfter); !ok {
			f.Add("starting_after", "is not a valid id")
		}
	}
	if flt.Status != nil && !slices.Contains([]string{"active", "expired"}, *flt.Status) {
		f.Add("status", "must be one of: active, expired")
	}
	limit := flt.Limit
	switch {
	case limit == 0:
		limit = 10
	case limit > maxSDKOnboardingLimit:
		f.Addf("limit", "must be at most %d", maxSDKOnboardingLimit)
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	now := s.Clock.Now()
	var rows []*models.OnboardingSession
	q := sessionTable.Select(s.DB.Tenant(p.Scope), p, &rows).OrderExpr("os.id DESC").Limit(int64(limit + 1))
	if flt.AccountID != nil {
		q = q.Where("os.account_id = ?", account)
	}
	if flt.StartingAfter != nil {
		q = q.Where("os.id < ?", after)
	}
	if flt.Status != nil {
		active := "os.status = 'active' AND os.expires_at > ?"
		if *flt.Status == "active" {
			q = q.Where(active, now)
		} else {
			q = q.Where("NOT ("+active+")", now)
		}
	}
	if err := q.Scan(ctx); err != nil {
		return nil, err
	}
	out := &models.SDKOnboardingSessionList{Object: "list", URL: "/v1/onboarding/sessions",
		Data: make([]*models.SDKOnboardingSession, 0, len(rows))}
	if len(rows) > limit {
		rows, out.HasMore = rows[:limit], true
	}
	if err := ob.showSecrets(ctx, rows...); err != nil {
		return nil, err
	}
	for _, sess := range rows {
		sess.URL = OnboardingURLBase + sess.URLToken
		out.Data = append(out.Data, models.AsSDKOnboardingSession(sess, now))
	}
	return out, nil
}

// SDKUpdate ends a session when asked (status "expired"): its url and
// secret stop working at once, as when a newer session replaces it. The
// account's row lock is taken first, as a create takes it, so the two
// cannot deadlock; ending a session no longer active changes nothing.
func (ob *Onboarding) SDKUpdate(ctx context.Context, id string, in *models.UpdateSDKOnboardingSessionInput) (*models.SDKOnboardingSession, error) {
	spec := op.Spec{Name: "onboarding_session.update", Allow: []auth.Kind{auth.SecretKey},
		Params: map[string]any{"id": id, "input": in}, Check: in.Validate}
	return op.Write(ctx, ob.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.SDKOnboardingSession, error) {
		sess, err := lockSessionAndAccount(ctx, w, id)
		if err != nil {
			return nil, err
		}
		now := w.Now()
		if in.Status != nil && sess.Status == "active" {
			if _, err := w.Tx.Update(sess).Set("status = 'expired'").WherePK().Exec(ctx); err != nil {
				return nil, err
			}
			if err := auth.RevokeSessionSecrets(ctx, w.Tx, auth.OnboardingSession, sess.AccountID, now); err != nil {
				return nil, err
			}
			sess.Status = "expired"
		}
		return models.AsSDKOnboardingSession(sess, now), nil
	})
}

// SDKPayout records the payment method the session's account is paid out
// to (its payout_payment_method_id), as the onboarding flow's payout step:
// an active payment method of that account, while the session is active.
// The change is the account's, announced as account.updated.
func (ob *Onboarding) SDKPayout(ctx context.Context, id string, in *models.OnboardingPayoutInput) (*models.SDKOnboardingSession, error) {
	s := ob.svc
	spec := op.Spec{Name: "onboarding_session.payout", Allow: []auth.Kind{auth.SecretKey},
		Params: map[string]any{"id": id, "input": in}, Check: in.Validate}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.SDKOnboardingSession, error) {
		sess, err := lockSessionAndAccount(ctx, w, id)
		if err != nil {
			return nil, err
		}
		view := models.AsSDKOnboardingSession(sess, w.Now())
		if view.SessionStatus != "active" {
			return nil, apierr.InvalidState("The onboarding session has expired")
		}
		pmID, ok := ids.Parse(*in.PayoutMethodID)
		missing := apierr.FieldError("payout_method_id", "is not an active payment method of the session's account")
		if !ok {
			return nil, missing
		}
		found, err := w.Tx.Select((*models.PaymentMethod)(nil)).Where("pm.id = ?", pmID).
			Where("pm.account_id = ?", sess.AccountID).Where("pm.status = ?", models.PaymentMethodActive).Exists(ctx)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, missing
		}
		if _, err := s.changeAccount(ctx, w, sess.AccountID.String(), func(_ context.Context, aw *accountWrite) error {
			if err := writable(aw.Account); err != nil {
				return err
			}
			aw.Account.PayoutPaymentMethodID = &pmID
			return nil
		}); err != nil {
			return nil, err
		}
		return view, nil
	})
}

// lockSessionAndAccount finds the session id, then locks its account and
// the session, in the order a create takes them.
func lockSessionAndAccount(ctx context.Context, w *op.W, id string) (*models.OnboardingSession, error) {
	found, err := sessionTable.Find(ctx, w, id)
	if err != nil {
		return nil, err
	}
	if _, err := lockAccount(ctx, w, found.AccountID.String()); err != nil {
		return nil, err
	}
	sess, err := sessionTable.Lock(ctx, w, id, op.LockUpdate)
	if err != nil {
		return nil, err
	}
	sess.URL = OnboardingURLBase + sess.URLToken
	return sess, nil
}
