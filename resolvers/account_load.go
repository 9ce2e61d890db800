package resolvers

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/apierr"
	"github.com/frame-oss/payments-server/internal/auth"
	"github.com/frame-oss/payments-server/internal/capability"
	"github.com/frame-oss/payments-server/internal/ids"
	"github.com/frame-oss/payments-server/internal/store"
	"github.com/frame-oss/payments-server/models"
)

// findAccount loads one account of the caller's scope, or answers 404. With
// forUpdate it locks the row, which serializes every write to the account
// and its capabilities.
func findAccount(ctx context.Context, t *store.Tenant, p *auth.Principal, id string, forUpdate bool) (*models.Account, error) {
	uid, ok := ids.Parse(id)
	if !ok || !p.SeesAccount(uid) {
		return nil, apierr.NotFound("account", id)
	}
	a := new(models.Account)
	q := t.Select(a).Where("a.id = ?", uid)
	if forUpdate {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound("account", id)
		}
		return nil, err
	}
	return a, nil
}

// lockAccount locks the account for a write and only then reads the
// clock: a request that waited for the lock commits after the one holding
// it, so it must also stamp a later time. The account's `updated` and its
// events then follow commit order.
func (r *Resolver) lockAccount(ctx context.Context, tx *store.Tenant, p *auth.Principal, id string) (*models.Account, time.Time, error) {
	a, err := findAccount(ctx, tx, p, id, true)
	if err != nil {
		return nil, time.Time{}, err
	}
	return a, r.Clock.Now(), nil
}

// loadCapabilities fetches the capabilities of many accounts in one
// statement, grouped by account and in catalogue order.
func loadCapabilities(ctx context.Context, t *store.Tenant, accountIDs []uuid.UUID) (map[uuid.UUID][]*models.Capability, error) {
	out := make(map[uuid.UUID][]*models.Capability, len(accountIDs))
	if len(accountIDs) == 0 {
		return out, nil
	}
	var caps []*models.Capability
	if err := t.Select(&caps).Where("c.account_id IN (?)", bunIn(accountIDs)).
		OrderExpr(capabilityOrderSQL).Scan(ctx); err != nil {
		return nil, err
	}
	for _, c := range caps {
		out[c.AccountID] = append(out[c.AccountID], c)
	}
	return out, nil
}

// hydrateAccounts fills the derived members (capabilities with their
// requirements, steps, blocked_reason) of accounts loaded together, with one
// more statement whatever their number.
func (r *Resolver) hydrateAccounts(ctx context.Context, t *store.Tenant, accts []*models.Account) error {
	idList := make([]uuid.UUID, len(accts))
	for i, a := range accts {
		idList[i] = a.ID
	}
	caps, err := loadCapabilities(ctx, t, idList)
	if err != nil {
		return err
	}
	for _, a := range accts {
		r.derive(a, caps[a.ID])
	}
	return nil
}

// facts gathers what the requirement rules need to know about a.
func (r *Resolver) facts(a *models.Account) capability.Facts {
	f := capability.Facts{
		AccountType:   string(a.Type),
		Present:       a.Profile.PresentFields(),
		TermsAccepted: a.TermsOfService != nil && a.TermsOfService.Accepted,
	}
	if r.FactsHook != nil {
		r.FactsHook(a, &f)
	}
	return f
}

// derive computes the account's derived members from its capabilities.
func (r *Resolver) derive(a *models.Account, caps []*models.Capability) {
	f := r.facts(a)
	statuses := make(map[capability.Name]capability.Status, len(caps))
	for _, c := range caps {
		ev := capability.Evaluate(c.Name, c.Status, f)
		c.CurrentlyDue, c.Errors = ev.CurrentlyDue, ev.Errors
		statuses[c.Name] = c.Status
	}
	if caps == nil {
		caps = []*models.Capability{}
	}
	a.Capabilities = caps
	a.Steps = capability.Steps(statuses, f)
	_, a.BlockedReason = capability.DeriveAccountStatus(accountState(a, caps))
	if a.RestrictedBy == nil {
		a.RestrictedBy = []string{}
	}
	if a.Metadata == nil {
		a.Metadata = models.Metadata{}
	}
}

func accountState(a *models.Account, caps []*models.Capability) capability.AccountState {
	s := capability.AccountState{
		Disabled:      !a.Disabled.IsZero(),
		RestrictedBy:  a.RestrictedBy,
		EverActivated: !a.Activated.IsZero(),
	}
	if a.ServiceBlockedReason != nil {
		s.ServiceBlockedReason = *a.ServiceBlockedReason
	}
	for _, c := range caps {
		if c.Status == capability.StatusActive {
			s.AnyCapabilityActive = true
		}
	}
	return s
}

// visibilityFor is what p may see of an account.
func visibilityFor(p *auth.Principal) models.Visibility {
	switch p.Kind {
	case auth.SecretKey:
		return models.VisibleAll
	case auth.OnboardingSession:
		return models.VisibleToHolder
	default:
		return models.VisiblePublic
	}
}
