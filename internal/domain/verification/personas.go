package verification

// Run statuses, failure types and categories of identity verification runs
// (spec doc 1 §2.5).
const (
	RunPending  = "pending"
	RunApproved = "approved"
	RunFailed   = "failed"
	RunErrored  = "errored"

	FailureIdentityMismatch     = "identity_mismatch"
	FailureVerificationRejected = "verification_rejected"
	FailureReviewPending        = "review_pending"
	FailureProviderError        = "provider_error"
	FailureSignalsUnavailable   = "signals_unavailable"

	CategoryRetriableWithNewData = "retriable_with_new_data"
	CategoryTerminal             = "terminal"
	CategoryReview               = "review"
	CategoryTransient            = "transient"
)

// Prefill states of a persona (spec doc 1 §4.7, API-DECISIONS §9).
const (
	PrefillAvailable = "available"
	PrefillPending   = "pending"
	PrefillFailed    = "failed"
)

// Verdict is how a sandbox identity run concludes.
type Verdict struct {
	Status      string // RunApproved, RunFailed, RunErrored, or RunPending for a review
	FailureType string // "" when approved
	Category    string // "" when approved
	Retriable   bool   // meaningful only with a FailureType
	// Review: the run stays pending with a manual review opened.
	Review bool
	// CreatorShieldFindings: approved, with adverse creator-shield findings.
	CreatorShieldFindings bool
}

// Persona is what the sandbox knows about an account holder, chosen by the
// profile's phone number in E.164.
type Persona struct {
	Run     Verdict
	Prefill string
	// NonUS holders cannot run KYC (kyc_not_available): they use the
	// document flow.
	NonUS bool
}

var approved = Verdict{Status: RunApproved}

// personas are the documented magic phone numbers (API-DECISIONS §6) and
// the ones this server adds (docs/sandbox.md).
var personas = map[string]Persona{
	"+12001001695": {Run: approved, Prefill: PrefillAvailable},
	"+17742345678": {Run: Verdict{Status: RunFailed, FailureType: FailureIdentityMismatch,
		Category: CategoryRetriableWithNewData, Retriable: true}, Prefill: PrefillFailed},
	"+12001001696": {Run: Verdict{Status: RunPending, FailureType: FailureReviewPending, Category: CategoryReview,
		Review: true}, Prefill: PrefillAvailable},
	"+12001001697": {Run: approved, Prefill: PrefillPending},
	"+12001001698": {Run: approved, Prefill: PrefillFailed},
	"+12267738525": {Run: approved, Prefill: PrefillFailed, NonUS: true},
	"+12001001699": {Run: Verdict{Status: RunApproved, CreatorShieldFindings: true}, Prefill: PrefillAvailable},
	// Added by this server: the outcomes the documented personas do not
	// reach.
	"+12001001690": {Run: Verdict{Status: RunErrored, FailureType: FailureProviderError, Category: CategoryTransient,
		Retriable: true}, Prefill: PrefillAvailable},
	"+12001001691": {Run: Verdict{Status: RunFailed, FailureType: FailureVerificationRejected, Category: CategoryTerminal},
		Prefill: PrefillFailed},
	"+12001001692": {Run: Verdict{Status: RunErrored, FailureType: FailureSignalsUnavailable, Category: CategoryTransient,
		Retriable: true}, Prefill: PrefillAvailable},
}

// PersonaFor returns the persona of a holder's phone (E.164). Any other
// number is approved with prefill available.
func PersonaFor(phoneE164 string) Persona {
	return outcomeOf(personas, phoneE164, Persona{Run: approved, Prefill: PrefillAvailable})
}
