package accounts

import (
	"context"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Onboarding is the onboarding session family of the area: a session is
// opened for an account (Create), read by its account (OfAccount,
// OfAccounts), and loaded by the onboarding component with its secret
// (Bootstrap).
type Onboarding struct {
	svc *Service
	// active is an account's active, unexpired session, with its url.
	active *op.Children[models.OnboardingSession]
}

// sessionTable reads onboarding sessions, each with its url (the client
// secret is added for the secret key by showSecrets).
// Its reads are the spec's and GraphQL's, which know account sessions
// only: a customer's session (the SDK family's, sdkSessionTable) is not
// among them.
var sessionTable = &op.Table[models.OnboardingSession]{Resource: "onboarding_session",
	Where:  func(q *bun.SelectQuery) *bun.SelectQuery { return q.Where("?TableAlias.account_id IS NOT NULL") },
	Derive: withURL}

// withURL completes a session read with its url.
func withURL(sess *models.OnboardingSession, _ time.Time) {
	sess.URL = OnboardingURLBase + sess.URLToken
}

func newOnboarding(s *Service) *Onboarding {
	return &Onboarding{svc: s, active: &op.Children[models.OnboardingSession]{Table: sessionTable, Parent: "account",
		Column: "account_id", Where: func(q *bun.SelectQuery) *bun.SelectQuery {
			// An account on a test clock: expired once the clock passes expires_at.
			return q.Where("?TableAlias.status = 'active'").
				Where("?TableAlias.expires_at > ?", op.PayerNow("accounts", "account_id", s.Clock.Now()))
		}}}
}

// OnboardingSessionTTL is how long a session (its url and client secret)
// lives (spec doc 1 §4.4 rule 1).
const OnboardingSessionTTL = 30 * time.Minute

// OnboardingURLBase is where a session's url sends the account holder.
const OnboardingURLBase = "https://onboarding.frame.test/s/"

// Create opens the account's onboarding session (POST
// /v1/onboarding_sessions, the spec's members only): the previous one
// expires at once (its url and secret stop working), so an account has
// one active session; the account's row lock serializes creates and a
// unique index keeps it so. steps default to the account's pending steps
// among those a session may be limited to.
func (ob *Onboarding) Create(ctx context.Context, in *models.CreateOnboardingSessionInput) (*models.OnboardingSession, error) {
	return ob.createForAccount(ctx, in, in.Validate)
}

// createForAccount is Create with the input's check: the spec's route
// and the SDK family's (which adds entry_point and metadata) check
// differently and open the same sessions.
func (ob *Onboarding) createForAccount(ctx context.Context, in *models.CreateOnboardingSessionInput, check func() error) (*models.OnboardingSession, error) {
	s := ob.svc
	spec := op.Spec{Name: "onboarding_session.create", Allow: []auth.Kind{auth.SecretKey}, Params: in}
	if in.AccountID == nil {
		in.AccountID = new(string) // validated below, before any lookup
	}
	spec.Check = check
	var sess *models.OnboardingSession
	_, err := writeAccount(ctx, s, spec, *in.AccountID, nil, func(ctx context.Context, aw *accountWrite) error {
		a := aw.Account
		if err := writable(a); err != nil {
			return err
		}
		// A session of an account on a test clock lives on the clock's
		// time: it expires when the clock passes expires_at.
		if err := aw.AtBoundClock(ctx, a.TestClockID); err != nil {
			return err
		}
		now := aw.Now()
		if _, err := aw.Tx.Update((*models.OnboardingSession)(nil)).Set("status = 'expired'").
			Where("os.account_id = ?", a.ID).Where("os.status = 'active'").Exec(ctx); err != nil {
			return err
		}
		steps := in.Steps
		if steps == nil {
			steps = pendingSessionSteps(a.Steps)
		}
		sess = newSession(in, steps, now)
		sess.AccountID = a.ID
		if _, err := aw.Tx.Insert(sess).Exec(ctx); err != nil {
			return err
		}
		secret, err := auth.IssueDerivedSessionSecret(ctx, aw.Tx, auth.OnboardingSession, sess.ID, a.ID, now,
			OnboardingSessionTTL, ob.deriveOnboardingSecret)
		if err != nil {
			return err
		}
		sess.ClientSecret = &secret
		return nil
	}, accountOf)
	if err != nil {
		return nil, err
	}
	return sess, nil
}

// newSession is a new active session of steps, opened at now, with what
// the create asked (its owner is set by the caller).
func newSession(in *models.CreateOnboardingSessionInput, steps []capability.StepKey, now time.Time) *models.OnboardingSession {
	sess := &models.OnboardingSession{ID: ids.New(now), ReturnURL: in.ReturnURL, Steps: steps,
		ExpiresAt: models.At(now.Add(OnboardingSessionTTL)), Status: "active", URLToken: auth.RandomString(40),
		Created: models.At(now), EntryPoint: in.EntryPoint, Metadata: models.MergeMetadata(nil, in.Metadata),
		CompletedSteps: []capability.StepKey{}}
	sess.URL = OnboardingURLBase + sess.URLToken
	return sess
}

// pendingSessionSteps are the account's steps with something due that a session can take
// the holder through, in the account's step order.
func pendingSessionSteps(steps []capability.Step) []capability.StepKey {
	out := []capability.StepKey{}
	for _, st := range steps {
		if len(st.CurrentlyDue) > 0 && slices.Contains(models.OnboardingSteps, st.Key) {
			out = append(out, st.Key)
		}
	}
	return out
}

// OfAccount answers the account's active, unexpired
// session with its url (REST adds its client secret for the secret key:
// OfAccountWithSecret); 404 when the account or such a session does not
// exist.
func (ob *Onboarding) OfAccount(ctx context.Context, accountID string) (*models.OnboardingSession, error) {
	s := ob.svc
	if _, err := auth.Require(ctx, auth.SecretKey); err != nil {
		return nil, err
	}
	if _, ok := ids.Parse(accountID); !ok {
		e := apierr.NotFound("account", accountID)
		e.Param = "account_id"
		return nil, e
	}
	lists, errs := ob.active.Load(ctx, s.Kit, []string{accountID})
	if errs[0] != nil {
		return nil, errs[0]
	}
	if len(lists[0]) == 0 {
		return nil, &apierr.Error{Status: 404, Code: apierr.CodeResourceMissing,
			Message: "No active onboarding session for account '" + accountID + "'", Param: "account_id"}
	}
	return lists[0][0], nil
}

// Bootstrap answers what the onboarding component loads with
// its session's secret: the session and its account, profile included.
func (ob *Onboarding) Bootstrap(ctx context.Context) (*models.OnboardingBootstrap, error) {
	s := ob.svc
	p, err := auth.Require(ctx, auth.OnboardingSession)
	if err != nil {
		return nil, err
	}
	sess := new(models.OnboardingSession)
	if err := sessionTable.Select(s.DB.Tenant(p.Scope), nil, sess).Where("os.id = ?", p.SessionID).Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound("onboarding_session", p.SessionID.String())
		}
		return nil, err
	}
	a, err := s.Accounts.Get(ctx, p.AccountID.String())
	if err != nil {
		return nil, err
	}
	secret := p.PresentedSecret() // the secret it was called with: the only one it has
	sess.ClientSecret = &secret
	return &models.OnboardingBootstrap{OnboardingSession: sess, Account: a}, nil
}

// OfAccounts reads the active, unexpired session (or nil) of many
// accounts in one statement (GraphQL's Account.onboardingSession).
func (ob *Onboarding) OfAccounts(ctx context.Context, accountIDs []string) ([]*models.OnboardingSession, []error) {
	lists, errs := ob.active.Load(ctx, ob.svc.Kit, accountIDs)
	out := make([]*models.OnboardingSession, len(lists))
	for i, l := range lists {
		if len(l) > 0 {
			out[i] = l[0]
		}
	}
	return out, errs
}

// ByIDs reads sessions by id, one session or one resource_missing per id,
// through the table REST's GET /v1/onboarding/sessions/{id} reads
// (node(id:)).
func (ob *Onboarding) ByIDs(ctx context.Context, idList []string) ([]*models.OnboardingSession, []error) {
	return sessionTable.ByIDs(ctx, ob.svc.Kit, idList)
}
