package capability

import (
	"math/bits"
	"slices"
	"strings"
)

// StepKey names an onboarding step: a closed set (models.StepKeys), so
// GraphQL types it as an enum while REST writes the same strings.
type StepKey string

// Onboarding step keys, in the fixed order Steps returns them. The order is
// the order an account owner is guided through onboarding, so it is fixed
// rather than derived from which capabilities exist.
const (
	StepPhoneVerification StepKey = "phone_verification"
	StepIDVerification    StepKey = "id_verification"
	StepKYCPrefill        StepKey = "kyc_prefill"
	StepBeneficialOwners  StepKey = "beneficial_owners"
	StepPaymentMethod     StepKey = "payment_method"
	StepBankAccount       StepKey = "bank_account"
	StepGeoCompliance     StepKey = "geo_compliance"
	StepTermsOfService    StepKey = "terms_of_service"
)

// StepStatus is whether an onboarding step is done.
type StepStatus string

// Step statuses. A step is failed while one of its requirements ended in
// a failure retrying cannot fix (a terminal identity run): nothing more of
// it is asked for, yet it is not done, and the holder must not be told so.
const (
	StepCompleted StepStatus = "completed"
	StepPending   StepStatus = "pending"
	StepFailed    StepStatus = "failed"
)

// Step is one onboarding step of an account, shaped for the API response.
type Step struct {
	Key          StepKey    `json:"key"`
	Status       StepStatus `json:"status"`
	Label        string     `json:"label"`
	Fields       []string   `json:"fields"`
	CurrentlyDue []string   `json:"currently_due"`
}

var stepOrder = [...]struct {
	key   StepKey
	label string
}{
	{StepPhoneVerification, "Verify phone number"},
	{StepIDVerification, "Verify identity"},
	{StepKYCPrefill, "Confirm prefilled details"},
	{StepBeneficialOwners, "Beneficial owners"},
	{StepPaymentMethod, "Add a payment card"},
	{StepBankAccount, "Link a bank account"},
	{StepGeoCompliance, "Location check"},
	{StepTermsOfService, "Accept terms of service"},
}

// requirementOrder is the canonical order of every requirement key. Step
// fields are listed in this order so a step looks the same whichever
// combination of capabilities contributed to it.
var requirementOrder = []string{
	ReqFirstName, ReqLastName, ReqBirthdate, ReqSSNLastFour, ReqIndividualAddr, ReqEmail, ReqPhone,
	ReqIdentityVerification, ReqDocumentVerification,
	ReqPhoneVerification,
	ReqKYCPrefillConfirmation,
	ReqLegalName, ReqEIN, ReqBusinessType, ReqBusinessAddress, ReqBusinessEmail, ReqBusinessPhone,
	ReqBeneficialOwners,
	ReqPaymentMethodCard,
	ReqBankAccount,
	ReqGeoCompliance,
	ReqTermsOfService,
}

// StepFor returns the onboarding step a requirement key belongs to. Unknown
// profile fields under individual.* and business.* map by prefix, so a new
// profile field lands in the right step without touching this function.
// Every business.* field (including business.email and business.phone,
// which kyc asks for on a business account) belongs to the
// beneficial_owners step, next to beneficial_owners_collected: that step
// gathers the business and the people behind it, whichever capability asked.
func StepFor(requirement string) (step StepKey, ok bool) {
	switch requirement {
	case ReqPhoneVerification:
		return StepPhoneVerification, true
	case ReqIdentityVerification, ReqDocumentVerification:
		return StepIDVerification, true
	case ReqKYCPrefillConfirmation:
		return StepKYCPrefill, true
	case ReqBeneficialOwners:
		return StepBeneficialOwners, true
	case ReqPaymentMethodCard:
		return StepPaymentMethod, true
	case ReqBankAccount:
		return StepBankAccount, true
	case ReqGeoCompliance:
		return StepGeoCompliance, true
	case ReqTermsOfService:
		return StepTermsOfService, true
	}
	switch {
	case strings.HasPrefix(requirement, "individual."):
		return StepIDVerification, true
	case strings.HasPrefix(requirement, "business."):
		return StepBeneficialOwners, true
	}
	return "", false
}

// Steps derives the account's onboarding steps from its capabilities and
// facts.
//
// A step is present when at least one live (pending or active) capability
// has a requirement mapping to it, using the requirements of the account
// type in f.AccountType (RequirementsFor). The full requirement list is
// used, not just what is due, so a step does not vanish the moment it is
// completed; it stays and shows as completed. Fields are all of that step's
// requirement keys across live capabilities; CurrentlyDue is the union of
// what Evaluate reports as due for them (so the identity-run gating and the
// terminal-failure rule apply here too, and an active capability adds
// fields but nothing due). Both lists are deduplicated, in canonical
// requirement order, and never nil. The result is never nil.
//
// Status is failed while a pending capability holds a terminal error on one
// of the step's requirements (whatever else is due), else pending while
// anything is due, else completed.
func Steps(caps map[Name]Status, f Facts) []Step {
	// Steps runs for every account a response renders (a page of 100
	// renders 100), so it gathers requirement keys in fixed-size sets
	// indexed by step and canonical rank rather than in maps of maps.
	var fields, due [len(stepOrder)]keySet
	var failed [len(stepOrder)]bool
	for _, entry := range catalogue {
		n := entry.name
		st := caps[n]
		if !st.live() {
			continue
		}
		if reqs, ok := requirementsFor(n, f.AccountType); ok {
			for _, key := range reqs {
				addToStep(&fields, key)
			}
			addToStep(&fields, ReqTermsOfService)
		}
		ev := Evaluate(n, st, f)
		for _, key := range ev.CurrentlyDue {
			addToStep(&due, key)
		}
		if ev.Terminal && st == StatusPending {
			for _, e := range ev.Errors {
				if i, ok := stepIndexFor(e.Requirement); ok {
					failed[i] = true
				}
			}
		}
	}

	// The steps and all their key lists in two allocations: each list is
	// a capped part of one array, so an append to one cannot write into
	// the next.
	present, keys := 0, 0
	for i := range stepOrder {
		if !fields[i].empty() {
			present++
			keys += fields[i].size() + due[i].size()
		}
	}
	steps := make([]Step, 0, present)
	buf := make([]string, 0, keys)
	for i, s := range stepOrder {
		if fields[i].empty() {
			continue
		}
		step := Step{
			Key:          s.key,
			Label:        s.label,
			Fields:       fields[i].appendOrdered(&buf),
			CurrentlyDue: due[i].appendOrdered(&buf),
		}
		switch {
		case failed[i]:
			step.Status = StepFailed
		case len(step.CurrentlyDue) > 0:
			step.Status = StepPending
		default:
			step.Status = StepCompleted
		}
		steps = append(steps, step)
	}
	return steps
}

// keySet is a set of requirement keys: the canonical ones (requirementOrder)
// as bits by rank, any other in extra.
type keySet struct {
	known uint64
	extra []string
}

func (s *keySet) add(key string) {
	if r, ok := requirementRank[key]; ok {
		s.known |= 1 << r
		return
	}
	if !slices.Contains(s.extra, key) {
		s.extra = append(s.extra, key)
	}
}

func (s *keySet) empty() bool { return s.known == 0 && len(s.extra) == 0 }

// ordered returns the keys in canonical requirement order, followed by any
// keys outside the canonical list in lexical order (deterministic even for
// profile fields added later). Never nil.
func (s *keySet) ordered() []string {
	buf := make([]string, 0, s.size())
	return s.appendOrdered(&buf)
}

// size is the number of keys in the set.
func (s *keySet) size() int { return bits.OnesCount64(s.known) + len(s.extra) }

// appendOrdered appends the keys, ordered as ordered orders them, to *buf
// and returns them as a part of *buf capped at its end: never nil when
// *buf is not.
func (s *keySet) appendOrdered(buf *[]string) []string {
	start := len(*buf)
	for k := s.known; k != 0; k &= k - 1 {
		*buf = append(*buf, requirementOrder[bits.TrailingZeros64(k)])
	}
	if len(s.extra) > 0 {
		*buf = append(*buf, s.extra...)
		slices.Sort((*buf)[start+bits.OnesCount64(s.known):])
	}
	end := len(*buf)
	return (*buf)[start:end:end]
}

// addToStep adds key to the set of the step it belongs to, if any.
func addToStep(sets *[len(stepOrder)]keySet, key string) {
	if i, ok := stepIndexFor(key); ok {
		sets[i].add(key)
	}
}

// stepIndexFor is StepFor as a position in stepOrder.
func stepIndexFor(requirement string) (int, bool) {
	step, ok := StepFor(requirement)
	if !ok {
		return 0, false
	}
	for i, s := range stepOrder {
		if s.key == step {
			return i, true
		}
	}
	return 0, false
}

// requirementRank indexes requirementOrder, built once: Steps runs for
// every account rendered. A rank is a bit of keySet.known.
var requirementRank = func() map[string]int {
	if len(requirementOrder) > 64 {
		panic("capability: more canonical requirements than keySet holds")
	}
	m := make(map[string]int, len(requirementOrder))
	for i, k := range requirementOrder {
		m[k] = i
	}
	return m
}()
