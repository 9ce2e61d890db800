package capability

import "slices"

// Requirement keys. They appear verbatim in currently_due, in errors and in
// onboarding steps, so they are part of the public API and must not change.
// Profile-field keys are dotted paths into the account profile; the others
// name a verification or an attachment.
const (
	ReqFirstName       = "individual.name.first_name"
	ReqLastName        = "individual.name.last_name"
	ReqBirthdate       = "individual.birthdate"
	ReqSSNLastFour     = "individual.ssn_last_four"
	ReqIndividualAddr  = "individual.address"
	ReqEmail           = "individual.email"
	ReqPhone           = "individual.phone"
	ReqLegalName       = "business.legal_business_name"
	ReqEIN             = "business.ein"
	ReqBusinessType    = "business.business_type"
	ReqBusinessAddress = "business.address"
	ReqBusinessEmail   = "business.email"
	ReqBusinessPhone   = "business.phone"

	ReqIdentityVerification   = "identity_verification"
	ReqDocumentVerification   = "document_verification"
	ReqPhoneVerification      = "phone_verification"
	ReqKYCPrefillConfirmation = "kyc_prefill_confirmation"
	ReqBeneficialOwners       = "beneficial_owners_collected"
	ReqPaymentMethodCard      = "payment_method.card"
	ReqBankAccount            = "bank_account"
	ReqGeoCompliance          = "geo_compliance"
	ReqTermsOfService         = "terms_of_service"
)

// Account types (Facts.AccountType). Any other value, including the empty
// string, is treated as AccountIndividual.
const (
	AccountIndividual = "individual"
	AccountBusiness   = "business"
)

// Identity verification run statuses as stored on a concluded run.
const (
	RunApproved   = "approved"
	RunFailed     = "failed"
	RunErrored    = "errored"
	RunIncomplete = "incomplete"
)

// Run failure values with a meaning to these rules.
const (
	// FailureReviewPending marks a run that is waiting for manual review.
	FailureReviewPending = "review_pending"
	// CategoryTerminal marks a failure that cannot be fixed by retrying.
	CategoryTerminal = "terminal"
)

// Geo compliance statuses (Facts.GeoStatus). The empty string means no
// check has been recorded yet.
const (
	GeoClear   = "clear"
	GeoBlocked = "blocked"
	GeoUnknown = "unknown"
)

// Error codes produced by Evaluate in addition to run failure types, which
// are passed through as codes.
const (
	CodeProviderError          = "provider_error"
	CodeReviewPending          = "review_pending"
	CodeVerificationFailed     = "verification_failed"
	CodeVerificationIncomplete = "verification_incomplete"
	CodeAdverseFindings        = "adverse_findings"
	CodeGeoComplianceBlocked   = "geo_compliance_blocked"
)

// Facts are everything the requirement rules need to know about an account,
// loaded by the operation layer. Evaluate never looks anywhere else, which
// is what makes it a pure function.
type Facts struct {
	// AccountType is AccountIndividual or AccountBusiness; any other value
	// (including "") is treated as individual. The rules branch on it for
	// the capabilities whose inputs live in the profile and so differ by
	// type: on a business account, kyc verifies the people behind the
	// business (business.email, business.phone, beneficial_owners_collected,
	// then the identity run) and address_verification checks
	// business.address, because an individual profile cannot be set on a
	// business account. Every other capability has the same requirements
	// for both types (see RequirementsFor).
	AccountType string
	// Present holds the dotted profile-field keys that have a value, e.g.
	// "individual.name.first_name". Build it with PresentFields.
	Present                   map[string]bool
	TermsAccepted             bool
	IdentityRun               *RunOutcome // latest concluded identity run; nil = none concluded
	DocumentVerified          bool        // an approved /v1/idv document check
	PhoneVerified             bool        // a verified phone verification for the profile's number
	KYCPrefillConfirmed       bool
	BeneficialOwnersCollected bool
	ActiveCard                bool   // an active card payment method attached to the account
	BankAccountLinked         bool   // a linked bank account
	GeoStatus                 string // GeoClear | GeoBlocked | GeoUnknown | "" (none)
}

// RunOutcome is the conclusion of an identity verification run.
type RunOutcome struct {
	Status                string // RunApproved | RunFailed | RunErrored | RunIncomplete
	FailureType           string // e.g. "identity_mismatch", FailureReviewPending
	Category              string // e.g. CategoryTerminal
	CreatorShieldFindings bool   // the run surfaced adverse creator-shield findings
}

// Evaluation is the derived requirement state of one capability.
type Evaluation struct {
	// CurrentlyDue lists the requirement keys still to be provided, in the
	// capability's requirement order with terms_of_service last. Never nil.
	CurrentlyDue []string
	// Errors lists outcomes that explain why a requirement is not met.
	// Never nil.
	Errors []Error
	// Satisfied reports whether the facts meet every requirement with no
	// error standing. It is computed from the facts alone, independently of
	// status, so it answers "would this capability be active now?".
	Satisfied bool
	// Terminal reports that an error in Errors is a failure retrying
	// cannot fix (CurrentlyDue is then empty while pending). It is derived
	// from the facts, whatever the status.
	Terminal bool
}

// Error is one derived requirement error, shaped for the API response.
type Error struct {
	Code        string `json:"code"`
	Requirement string `json:"requirement"`
	Reason      string `json:"reason"`
}

// requirements lists each capability's requirement keys in the order they
// are due, excluding terms_of_service, which applies to every capability
// and is always appended last.
var requirements = map[Name][]string{
	KYC: {
		ReqFirstName, ReqLastName, ReqBirthdate, ReqSSNLastFour,
		ReqIndividualAddr, ReqEmail, ReqPhone, ReqIdentityVerification,
	},
	KYB:                     {ReqLegalName, ReqEIN, ReqBusinessType, ReqBusinessAddress, ReqBeneficialOwners},
	PhoneVerification:       {ReqPhoneVerification},
	KYCPrefill:              {ReqKYCPrefillConfirmation},
	IDV:                     {ReqDocumentVerification},
	AgeVerification:         {ReqDocumentVerification},
	AddressVerification:     {ReqIndividualAddr, ReqIdentityVerification},
	CardVerification:        {ReqPaymentMethodCard},
	BankAccountVerification: {ReqBankAccount},
	CreatorShield:           {ReqIdentityVerification},
	GeoCompliance:           {ReqGeoCompliance},
	CardSend:                {ReqPaymentMethodCard},
	CardReceive:             {ReqPaymentMethodCard},
	BankAccountSend:         {ReqBankAccount},
	BankAccountReceive:      {ReqBankAccount},
}

// businessRequirements overrides requirements on a business account, for
// the capabilities whose individual requirements name individual.* profile
// fields, which a business account can never hold. On a business account,
// kyc verifies the people behind the business: the business's own contact
// details, the confirmed roster of beneficial owners and controllers, then
// an identity run. Capabilities not listed here have the same requirements
// for every account type.
var businessRequirements = map[Name][]string{
	KYC:                 {ReqBusinessEmail, ReqBusinessPhone, ReqBeneficialOwners, ReqIdentityVerification},
	AddressVerification: {ReqBusinessAddress, ReqIdentityVerification},
}

// requirementsFor returns the (shared, not to be modified) requirement list
// of capability n on an account of accountType, excluding terms_of_service.
func requirementsFor(n Name, accountType string) ([]string, bool) {
	if accountType == AccountBusiness {
		if reqs, ok := businessRequirements[n]; ok {
			return reqs, true
		}
	}
	reqs, ok := requirements[n]
	return reqs, ok
}

// Requirements returns the full requirement list of capability n on an
// individual account (including terms_of_service, last), whether or not
// anything is currently due. It returns an empty slice for unknown names.
// It is RequirementsFor(n, AccountIndividual).
func Requirements(n Name) []string {
	return RequirementsFor(n, AccountIndividual)
}

// RequirementsFor returns the full requirement list of capability n on an
// account of accountType (including terms_of_service, last), whether or not
// anything is currently due. An accountType other than AccountBusiness is
// treated as AccountIndividual. It returns an empty slice for unknown names
// and a fresh copy on every call.
func RequirementsFor(n Name, accountType string) []string {
	reqs, ok := requirementsFor(n, accountType)
	if !ok {
		return []string{}
	}
	return append(slices.Clone(reqs), ReqTermsOfService)
}

// PresentFields builds Facts.Present from the keys of the profile fields
// that have a value. Empty keys are ignored.
func PresentFields(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		if k != "" {
			m[k] = true
		}
	}
	return m
}

// Evaluate derives currently_due, errors and satisfaction for capability
// name in status, from facts f. The requirements are those of the account
// type in f.AccountType (see RequirementsFor).
//
// The identity verification run is only listed as due once every
// requirement listed before it is met (for kyc: all seven individual.*
// fields, or on a business account business.email, business.phone and
// beneficial_owners_collected; for address_verification:
// individual.address, or business.address on a business account). A run
// cannot be started on missing data, so asking for it earlier would send
// the account owner to a step that must fail; listing the fields first
// gives them one actionable list.
//
// What is pursued depends on status:
//   - pending: CurrentlyDue and Errors as derived, except that CurrentlyDue
//     is empty while a terminal failure stands in Errors (retrying cannot
//     help, so nothing is asked for).
//   - active: CurrentlyDue is empty (nothing is pursued for an active
//     capability) but Errors are still derived, because they describe
//     current facts (e.g. a later re-verification that failed).
//   - disabled, unrequested (or any unknown status): both are empty, since
//     nothing is pursued and an error on it would be noise.
//
// Every Error blocks satisfaction. Unknown capability names evaluate to
// empty lists and Satisfied=false, so they can never be activated.
func Evaluate(name Name, status Status, f Facts) Evaluation {
	ev := Evaluation{CurrentlyDue: []string{}, Errors: []Error{}}
	reqs, ok := requirementsFor(name, f.AccountType)
	if !ok {
		return ev
	}
	due := dueFromFacts(name, reqs, f)
	errs, terminal := deriveErrors(name, reqs, f)
	ev.Satisfied = len(due) == 0 && len(errs) == 0
	ev.Terminal = terminal

	switch status {
	case StatusPending:
		if !terminal {
			ev.CurrentlyDue = due
		}
		ev.Errors = errs
	case StatusActive:
		ev.Errors = errs
	}
	return ev
}

// dueFromFacts lists the unmet requirements of a capability, applying the
// rule that identity_verification waits for the requirements before it, and
// appending terms_of_service last.
//
// It runs for every capability of every account a response renders, so
// it counts the keys first and allocates their list once.
func dueFromFacts(name Name, reqs []string, f Facts) []string {
	due := make([]string, 0, countDue(name, reqs, f))
	for _, key := range reqs {
		if listedDue(name, key, f, len(due)) {
			due = append(due, key)
		}
	}
	if !f.TermsAccepted {
		due = append(due, ReqTermsOfService)
	}
	return due
}

// countDue is the length of dueFromFacts' list.
func countDue(name Name, reqs []string, f Facts) int {
	n := 0
	for _, key := range reqs {
		if listedDue(name, key, f, n) {
			n++
		}
	}
	if !f.TermsAccepted {
		n++
	}
	return n
}

// listedDue reports whether requirement key is listed as due after
// `before` keys: it is unmet, and it is not an identity verification
// behind missing requirements (the run is not startable yet).
func listedDue(name Name, key string, f Facts, before int) bool {
	if met(name, key, f) {
		return false
	}
	return key != ReqIdentityVerification || before == 0
}

// met reports whether requirement key of capability name is satisfied.
func met(name Name, key string, f Facts) bool {
	switch key {
	case ReqIdentityVerification:
		r := f.IdentityRun
		if r == nil || r.Status != RunApproved {
			return false
		}
		// creator_shield needs a clean approval: an approved run that
		// surfaced adverse findings does not protect anyone.
		return name != CreatorShield || !r.CreatorShieldFindings
	case ReqDocumentVerification:
		return f.DocumentVerified
	case ReqPhoneVerification:
		return f.PhoneVerified
	case ReqKYCPrefillConfirmation:
		return f.KYCPrefillConfirmed
	case ReqBeneficialOwners:
		return f.BeneficialOwnersCollected
	case ReqPaymentMethodCard:
		return f.ActiveCard
	case ReqBankAccount:
		return f.BankAccountLinked
	case ReqGeoCompliance:
		return f.GeoStatus == GeoClear
	case ReqTermsOfService:
		return f.TermsAccepted
	default:
		return f.Present[key]
	}
}

// deriveErrors explains, from the facts, why a requirement is held. The
// latest identity run speaks for capabilities requiring
// identity_verification; otherwise a known hold on a requirement (geo
// blocked) is reported. terminal reports a failure that retrying cannot fix.
func deriveErrors(name Name, reqs []string, f Facts) (errs []Error, terminal bool) {
	errs = []Error{}
	if slices.Contains(reqs, ReqIdentityVerification) {
		if e, term, ok := runError(name, f.IdentityRun); ok {
			return append(errs, e), term
		}
		return errs, false
	}
	if slices.Contains(reqs, ReqGeoCompliance) && f.GeoStatus == GeoBlocked {
		errs = append(errs, Error{
			Code:        CodeGeoComplianceBlocked,
			Requirement: ReqGeoCompliance,
			Reason:      "The latest location check blocked this account.",
		})
	}
	return errs, false
}

// runError maps a concluded identity run to an Error, if it did not pass.
// Manual review is checked first because a run in review may carry any
// status other than approved, and "wait for review" is the only useful
// message in that case. Only a failed run can be terminal: an errored run
// is the provider's fault and can always be retried. A run with a status
// this package does not know produces no error (it still does not satisfy
// identity_verification).
func runError(name Name, r *RunOutcome) (e Error, terminal, ok bool) {
	if r == nil {
		return Error{}, false, false
	}
	e.Requirement = ReqIdentityVerification
	switch {
	case r.Status == RunApproved:
		if name == CreatorShield && r.CreatorShieldFindings {
			e.Code = CodeAdverseFindings
			e.Reason = "Identity verification was approved but surfaced adverse findings."
			return e, false, true
		}
		return Error{}, false, false
	case r.FailureType == FailureReviewPending:
		e.Code = CodeReviewPending
		e.Reason = "Identity verification is waiting for manual review."
		return e, false, true
	case r.Status == RunFailed:
		e.Code = orDefault(r.FailureType, CodeVerificationFailed)
		if r.Category == CategoryTerminal {
			e.Reason = "Identity verification failed and cannot be retried."
			return e, true, true
		}
		e.Reason = "Identity verification failed; check the details and try again."
		return e, false, true
	case r.Status == RunErrored:
		e.Code = orDefault(r.FailureType, CodeProviderError)
		e.Reason = "Identity verification could not be completed because of a provider error; try again."
		return e, false, true
	case r.Status == RunIncomplete:
		e.Code = orDefault(r.FailureType, CodeVerificationIncomplete)
		e.Reason = "Identity verification was not completed; start it again."
		return e, false, true
	}
	return Error{}, false, false
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// NextStatus is the status a capability should move to after evaluation.
// Only pending moves: it becomes active once satisfied. Active is sticky,
// because merchants build on an active capability and re-evaluation (e.g.
// a profile edit) must not silently revoke it; revocation is an explicit
// disable. Disabled and unrequested are changed only by explicit requests.
func NextStatus(current Status, ev Evaluation) Status {
	if current == StatusPending && ev.Satisfied {
		return StatusActive
	}
	return current
}
