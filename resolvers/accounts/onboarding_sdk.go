package accounts

import (
	"context"
	"slices"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// The /v1/onboarding/sessions family the real service's SDK calls
// (OnboardingAPI) is served by the onboarding sessions of this area: an
// account's sessions, the same the spec's routes open, and a customer's
// (onboarding_customer.go), rendered in the SDK's shape
// (models.SDKOnboardingSession). What the family adds beyond the spec,
// ending a session by an update, reporting its steps' progress and
// choosing the account's payout method, is sandbox-independent
// bookkeeping on the same rows (docs/sandbox.md).

// sdkSessionTable reads every session, an account's or a customer's. The
// secret key reads them all; a customer session's own secret reads its
// session alone.
var sdkSessionTable = &op.Table[models.OnboardingSession]{Resource: "onboarding_session", Derive: withURL,
	Allow: []auth.Kind{auth.SecretKey, auth.CustomerOnboardingSession},
	Sees: func(p *auth.Principal, id uuid.UUID) bool {
		return p.Kind != auth.CustomerOnboardingSession || p.SessionID == id
	},
	Visible: func(q *bun.SelectQuery, p *auth.Principal) *bun.SelectQuery {
		if p.Kind == auth.CustomerOnboardingSession {
			return q.Where("?TableAlias.id = ?", p.SessionID)
		}
		return q
	}}

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

// SDKCreate opens a session for a customer (customer_id) or an account
// (account_id, as Create does), with the SDK's entry_point and metadata,
// and renders it in the SDK's shape, its client secret included.
func (ob *Onboarding) SDKCreate(ctx context.Context, in *models.CreateOnboardingSessionInput) (*models.SDKOnboardingSession, error) {
	create := ob.createForCustomer
	if in.CustomerID == nil {
		create = func(ctx context.Context, in *models.CreateOnboardingSessionInput) (*models.OnboardingSession, error) {
			return ob.createForAccount(ctx, in, in.ValidateSDK)
		}
	}
	sess, err := create(ctx, in)
	if err != nil {
		return nil, err
	}
	return models.AsSDKOnboardingSession(sess, sess.Created.Time), nil
}

// SDKGet reads one session by id, with its live client secret
// (showSecrets).
func (ob *Onboarding) SDKGet(ctx context.Context, id string) (*models.SDKOnboardingSession, error) {
	sess, err := sdkSessionTable.Get(ctx, ob.svc.Kit, id)
	if err != nil {
		return nil, err
	}
	if err := ob.showSecrets(ctx, sess); err != nil {
		return nil, err
	}
	return models.AsSDKOnboardingSession(sess, ob.svc.Clock.Now()), nil
}

// SDKList lists the merchant's sessions newest first, a cursor page:
// limit (1-100, default 10) sessions older than starting_after, of one
// account or one customer when asked.
func (ob *Onboarding) SDKList(ctx context.Context, flt SDKOnboardingFilter) (*models.SDKOnboardingSessionList, error) {
	s := ob.svc
	p, err := auth.Require(ctx, auth.SecretKey)
	if err != nil {
		return nil, err
	}
	var f apierr.Fields
	parse := func(name string, v *string) uuid.UUID {
		if v == nil {
			return uuid.Nil
		}
		id, ok := ids.Parse(*v)
		if !ok {
			f.Add(name, "is not a valid id")
		}
		return id
	}
	account, customer := parse("account_id", flt.AccountID), parse("customer_id", flt.CustomerID)
	after := parse("starting_after", flt.StartingAfter)
	if flt.Status != nil && !slices.Contains(models.OnboardingSessionStatuses, models.OnboardingSessionStatus(*flt.Status)) {
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
	q := sdkSessionTable.Select(s.DB.Tenant(p.Scope), p, &rows).OrderExpr("os.id DESC").Limit(int64(limit + 1))
	if flt.AccountID != nil {
		q = q.Where("os.account_id = ?", account)
	}
	if flt.CustomerID != nil {
		q = q.Where("os.customer_id = ?", customer)
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
		withURL(sess, now)
		out.Data = append(out.Data, models.AsSDKOnboardingSession(sess, now))
	}
	return out, nil
}

// SDKUpdate ends a session when asked (status "expired"): its url and
// secret stop working at once, as when a newer session replaces it; and
// records the steps the holder completed (steps), while the session is
// active. The owner's row lock is taken first, as a create takes it, so
// the two cannot deadlock; ending a session no longer active changes
// nothing.
func (ob *Onboarding) SDKUpdate(ctx context.Context, id string, in *models.UpdateSDKOnboardingSessionInput) (*models.SDKOnboardingSession, error) {
	return ob.update(ctx, sdkSessionTable, id, in)
}

// Expire ends an account's session (SDKUpdate with status "expired", for
// GraphQL, whose sessions are accounts').
func (ob *Onboarding) Expire(ctx context.Context, id string) (*models.OnboardingSession, error) {
	expired := "expired"
	s, err := ob.update(ctx, sessionTable, id, &models.UpdateSDKOnboardingSessionInput{Status: &expired})
	if err != nil {
		return nil, err
	}
	return s.Session(), nil
}

// update is SDKUpdate of a session sessions reads.
func (ob *Onboarding) update(ctx context.Context, sessions *op.Table[models.OnboardingSession], id string,
	in *models.UpdateSDKOnboardingSessionInput) (*models.SDKOnboardingSession, error) {
	spec := op.Spec{Name: "onboarding_session.update", Allow: []auth.Kind{auth.SecretKey},
		Params: map[string]any{"id": id, "input": in}, Check: in.Validate}
	return op.Write(ctx, ob.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.SDKOnboardingSession, error) {
		sess, err := lockSessionAndOwner(ctx, w, sessions, id)
		if err != nil {
			return nil, err
		}
		now := w.Now()
		if in.Steps != nil {
			if err := recordSteps(ctx, w, sess, in.Steps); err != nil {
				return nil, err
			}
		}
		if in.Status != nil && sess.Status == "active" {
			if err := expireSession(ctx, w, sess); err != nil {
				return nil, err
			}
		}
		return models.AsSDKOnboardingSession(sess, now), nil
	})
}

// recordSteps applies reported progress to an active session's steps:
// each must be one of the session's.
func recordSteps(ctx context.Context, w *op.W, sess *models.OnboardingSession, steps map[capability.StepKey]models.SDKStepUpdate) error {
	if models.AsSDKOnboardingSession(sess, w.Now()).Status != models.OnboardingSessionActive {
		return apierr.InvalidState("The onboarding session has expired")
	}
	var f apierr.Fields
	done := slices.Clone(sess.CompletedSteps)
	for _, key := range sess.Steps {
		st, ok := steps[key]
		switch {
		case !ok:
		case *st.Status == capability.StepCompleted && !slices.Contains(done, key):
			done = append(done, key)
		case *st.Status == capability.StepPending:
			done = slices.DeleteFunc(done, func(k capability.StepKey) bool { return k == key })
		}
	}
	for key := range steps {
		if !slices.Contains(sess.Steps, key) {
			f.Add("steps."+string(key), "is not a step of this session")
		}
	}
	if err := f.Err(); err != nil {
		return err
	}
	sess.CompletedSteps = done
	_, err := w.Tx.Update(sess).Column("completed_steps").WherePK().Exec(ctx)
	return err
}

// expireSession ends an active session and its secrets at once.
func expireSession(ctx context.Context, w *op.W, sess *models.OnboardingSession) error {
	if _, err := w.Tx.Update(sess).Set("status = 'expired'").WherePK().Exec(ctx); err != nil {
		return err
	}
	var err error
	if sess.CustomerID != nil {
		err = auth.RevokeSecretsOfSession(ctx, w.Tx, auth.CustomerOnboardingSession, sess.ID, w.Now())
	} else {
		err = auth.RevokeSessionSecrets(ctx, w.Tx, auth.OnboardingSession, sess.AccountID, w.Now())
	}
	sess.Status = "expired"
	return err
}

// SDKPayout records the payment method the session's account is paid out
// to (its payout_payment_method_id), as the onboarding flow's payout step:
// an active payment method of that account, while the session is active.
// The change is the account's, announced as account.updated. A
// customer's session has no account to pay out to (422 invalid_state).
func (ob *Onboarding) SDKPayout(ctx context.Context, id string, in *models.OnboardingPayoutInput) (*models.SDKOnboardingSession, error) {
	return ob.payout(ctx, sdkSessionTable, id, in)
}

// RecordPayout is SDKPayout for GraphQL, whose sessions are accounts'.
func (ob *Onboarding) RecordPayout(ctx context.Context, id string, in *models.OnboardingPayoutInput) (*models.OnboardingSession, error) {
	s, err := ob.payout(ctx, sessionTable, id, in)
	if err != nil {
		return nil, err
	}
	return s.Session(), nil
}

// payout is SDKPayout of a session sessions reads.
func (ob *Onboarding) payout(ctx context.Context, sessions *op.Table[models.OnboardingSession], id string,
	in *models.OnboardingPayoutInput) (*models.SDKOnboardingSession, error) {
	s := ob.svc
	spec := op.Spec{Name: "onboarding_session.payout", Allow: []auth.Kind{auth.SecretKey},
		Params: map[string]any{"id": id, "input": in}, Check: in.Validate}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.SDKOnboardingSession, error) {
		sess, err := lockSessionAndOwner(ctx, w, sessions, id)
		if err != nil {
			return nil, err
		}
		if sess.CustomerID != nil {
			return nil, apierr.InvalidState("A customer's onboarding session has no account to pay out to")
		}
		view := models.AsSDKOnboardingSession(sess, w.Now())
		if view.Status != models.OnboardingSessionActive {
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

// lockSessionAndOwner finds the session id among sessions, then locks its owner (the
// account or the customer) and the session, in the order a create takes
// them.
func lockSessionAndOwner(ctx context.Context, w *op.W, sessions *op.Table[models.OnboardingSession], id string) (*models.OnboardingSession, error) {
	found, err := sessions.Find(ctx, w, id)
	if err != nil {
		return nil, err
	}
	if found.CustomerID != nil {
		err = lockCustomer(ctx, w, *found.CustomerID)
	} else {
		_, err = lockAccount(ctx, w, found.AccountID.String())
	}
	if err != nil {
		return nil, err
	}
	return sessions.Lock(ctx, w, id, op.LockUpdate)
}
