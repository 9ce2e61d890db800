package resolvers

import (
	"github.com/frame-oss/payments-server/models"
)

// sessionOfAccountLoader batches Account.onboardingSession: one statement
// for every account of a query level.
var sessionOfAccountLoader = loader("onboardingSessionOfAccount", func(r *Resolver) batch[*models.OnboardingSession] { return r.Svc.Accounts.Onboarding.OfAccounts })

// sessionLoader finds an onboarding session by id (nodes), as REST's
// GET /v1/onboarding/sessions/{id} does.
var sessionLoader = nodeLoader("onboardingSession", func(r *Resolver) batch[*models.OnboardingSession] { return r.Svc.Accounts.Onboarding.ByIDs })

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(sessionOfAccountLoader, "onboardingSession", func(a *models.Account) string { return a.ID.String() })
	_ = edge(accountLoader, "account", func(s *models.OnboardingSession) string { return s.AccountID.String() })
)
