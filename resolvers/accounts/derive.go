package accounts

import (
	"context"
	"slices"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
)

// The derived members of an account (capabilities' currently_due and
// errors, steps, blocked_reason) are computed from its stored state by the
// pure rules of internal/domain/capability, never stored.

// facts gathers what the requirement rules need to know about a.
func (s *Service) facts(a *models.Account) capability.Facts {
	v := &a.Verification
	f := capability.Facts{
		AccountType:               string(a.Type),
		Present:                   a.Profile.PresentFields(),
		TermsAccepted:             a.TermsOfService != nil && a.TermsOfService.Accepted,
		IdentityRun:               v.IdentityRun,
		DocumentVerified:          v.DocumentVerified,
		PhoneVerified:             v.PhoneVerified(a.ProfilePhone()),
		KYCPrefillConfirmed:       v.PrefillConfirmed != nil,
		BeneficialOwnersCollected: v.OwnersConfirmed != nil,
		BankAccountLinked:         v.BankAccountLinked,
		ActiveCard:                v.ActiveCard,
		GeoStatus:                 v.GeoStatus,
	}
	if s.FactsHook != nil {
		s.FactsHook(a, &f)
	}
	return f
}

// derivation is one evaluation of an account's requirements: what each
// capability still needs, and whether it is satisfied.
type derivation struct {
	facts     capability.Facts
	satisfied map[capability.Name]bool
}

// derive evaluates every capability of a once and fills the derived
// members. It returns the evaluation, which reconcile reuses.
func (s *Service) derive(a *models.Account, caps []*models.Capability) derivation {
	d := derivation{facts: s.facts(a), satisfied: make(map[capability.Name]bool, len(caps))}
	for _, c := range caps {
		ev := capability.Evaluate(c.Name, c.Status, d.facts)
		c.CurrentlyDue, c.Errors = ev.CurrentlyDue, ev.Errors
		d.satisfied[c.Name] = ev.Satisfied
	}
	if caps == nil {
		caps = []*models.Capability{}
	}
	a.Capabilities = caps
	s.deriveAccount(a, d)
	return d
}

// deriveAccount fills the members that follow from the capabilities'
// statuses: steps and blocked_reason.
func (s *Service) deriveAccount(a *models.Account, d derivation) {
	a.Steps = capability.Steps(capabilityStatuses(a), d.facts)
	s.deriveStatus(a)
}

// capabilityStatuses are the statuses of a's capabilities by name.
func capabilityStatuses(a *models.Account) map[capability.Name]capability.Status {
	statuses := make(map[capability.Name]capability.Status, len(a.Capabilities))
	for _, c := range a.Capabilities {
		statuses[c.Name] = c.Status
	}
	return statuses
}

// deriveStatus fills blocked_reason, and the empty lists and maps an
// account renders rather than null.
func (s *Service) deriveStatus(a *models.Account) {
	_, reason := capability.DeriveAccountStatus(accountState(a))
	a.BlockedReason = (*models.BlockedReason)(reason)
	if a.RestrictedBy == nil {
		a.RestrictedBy = []models.Restrictor{}
	}
	if a.Metadata == nil {
		a.Metadata = models.Metadata{}
	}
}

// reconcile applies an evaluation: pending capabilities whose checklist
// passes turn active (except those in hold, which this write keeps
// pending: a reactivation or a revival never returns active directly), and
// the account status follows (API-DECISIONS §4b). It changes a and its
// capabilities in memory and reports what activated; the caller persists
// and announces. No requirement is evaluated again.
func (s *Service) reconcile(a *models.Account, d derivation, now models.Timestamp, hold []capability.Name) (activated []*models.Capability, accountActivated bool) {
	for _, c := range a.Capabilities {
		if c.Status != capability.StatusPending || slices.Contains(hold, c.Name) || !d.satisfied[c.Name] {
			continue
		}
		ev := capability.Evaluate(c.Name, capability.StatusActive, d.facts)
		c.Status, c.CurrentlyDue, c.Errors = capability.StatusActive, ev.CurrentlyDue, ev.Errors
		c.Updated = models.ISOTime(now)
		activated = append(activated, c)
	}
	status, _ := capability.DeriveAccountStatus(accountState(a))
	accountActivated = models.AccountStatus(status) == models.AccountStatusActive && a.Activated.IsZero()
	if accountActivated {
		a.Activated = now
	}
	a.Status = models.AccountStatus(status)
	s.deriveAccount(a, d)
	return activated, accountActivated
}

func accountState(a *models.Account) capability.AccountState {
	st := capability.AccountState{
		Disabled:      !a.Disabled.IsZero(),
		RestrictedBy:  make([]string, len(a.RestrictedBy)),
		EverActivated: !a.Activated.IsZero(),
	}
	for i, r := range a.RestrictedBy {
		st.RestrictedBy[i] = string(r)
	}
	if a.ServiceBlockedReason != nil {
		st.ServiceBlockedReason = *a.ServiceBlockedReason
	}
	for _, c := range a.Capabilities {
		if c.Status == capability.StatusActive {
			st.AnyCapabilityActive = true
		}
	}
	return st
}

// hydrate fills the derived members of accounts read together with their
// capabilities (capabilitiesOfAccount), those the reads under ctx fill
// (WithDerived): no statement of its own.
func (s *Service) hydrate(ctx context.Context, accts []*models.Account) {
	need := derivedIn(ctx)
	for _, a := range accts {
		inCatalogueOrder(a.Capabilities)
		if need == DeriveAll {
			s.derive(a, a.Capabilities)
		} else {
			s.deriveOnly(a, need)
		}
	}
}

// deriveOnly is derive for a read that needs only some of the derived
// members: the facts are gathered when need names any, the requirements
// evaluated only when it names them and the steps built only when it
// names them. What is left out stays nil.
func (s *Service) deriveOnly(a *models.Account, need Derived) {
	if a.Capabilities == nil {
		a.Capabilities = []*models.Capability{}
	}
	if need != DeriveNothing {
		f := s.facts(a)
		if need&DeriveRequirements != 0 {
			for _, c := range a.Capabilities {
				ev := capability.Evaluate(c.Name, c.Status, f)
				c.CurrentlyDue, c.Errors = ev.CurrentlyDue, ev.Errors
			}
		}
		if need&DeriveSteps != 0 {
			a.Steps = capability.Steps(capabilityStatuses(a), f)
		}
	}
	s.deriveStatus(a)
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
