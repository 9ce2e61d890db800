// Package dispute holds the pure rules of disputes: the statuses and the
// transitions between them, what each status shows a person, the issuer's
// reason codes, and how the sandbox issuer decides a contested dispute.
package dispute

import (
	"sort"
	"strings"
)

// Statuses (spec doc 2 §2.9). The sandbox opens chargebacks
// (NeedsResponse); received and the warning_* statuses of inquiries are
// valid values, accepted on read, that the sandbox does not reach.
const (
	Received             = "received"
	WarningNeedsResponse = "warning_needs_response"
	WarningUnderReview   = "warning_under_review"
	WarningClosed        = "warning_closed"
	NeedsResponse        = "needs_response"
	UnderReview          = "under_review"
	Won                  = "won"
	Lost                 = "lost"
)

// Action is what moves a dispute.
type Action string

// Actions.
const (
	// SaveEvidence stores evidence without submitting it.
	SaveEvidence Action = "save_evidence"
	// Submit sends the evidence to the issuer for review.
	Submit Action = "submit"
	// Win and Lose are the issuer's decision on a reviewed dispute.
	Win  Action = "win"
	Lose Action = "lose"
)

// transitions is the transition table: from a status, what each action
// leads to. What is not listed is refused (invalid_state).
var transitions = map[string]map[Action]string{
	NeedsResponse:        {SaveEvidence: NeedsResponse, Submit: UnderReview},
	WarningNeedsResponse: {SaveEvidence: WarningNeedsResponse, Submit: WarningUnderReview},
	UnderReview:          {Win: Won, Lose: Lost},
	WarningUnderReview:   {Win: WarningClosed, Lose: WarningClosed},
}

// Next is the status an action leads to from status, or ok=false when the
// status does not allow it.
func Next(status string, a Action) (string, bool) {
	next, ok := transitions[status][a]
	return next, ok
}

// Closed says whether a status is final.
func Closed(status string) bool { return status == Won || status == Lost || status == WarningClosed }

// displayStatuses are the statuses as a person reads them.
var displayStatuses = map[string]string{
	Received:             "Received",
	WarningNeedsResponse: "Inquiry: needs response",
	WarningUnderReview:   "Inquiry: under review",
	WarningClosed:        "Inquiry: closed",
	NeedsResponse:        "Needs response",
	UnderReview:          "Under review",
	Won:                  "Won",
	Lost:                 "Lost",
}

// DisplayStatus is the human-readable status (display_status).
func DisplayStatus(status string) string {
	if s, ok := displayStatuses[status]; ok {
		return s
	}
	return status
}

// Reason is an issuer's reason for a dispute.
type Reason struct {
	Code, Description, Category string
}

// DefaultReason is the reason of the sandbox's disputes when none is
// asked for: the dispute test card's chargeback claims fraud.
const DefaultReason = "fraudulent"

// reasons are the reason codes the official SDK names, with what the
// issuer means and the category a merchant sorts them by.
var reasons = map[string]Reason{
	"bank_cannot_process":       {"bank_cannot_process", "The customer's bank could not process the payment.", "processing_error"},
	"check_returned":            {"check_returned", "The payment was returned by the customer's bank.", "processing_error"},
	"credit_not_processed":      {"credit_not_processed", "The customer says a promised refund or credit was not processed.", "consumer_dispute"},
	"customer_initiated":        {"customer_initiated", "The customer asked their bank to reverse the payment.", "consumer_dispute"},
	"debit_not_authorized":      {"debit_not_authorized", "The customer says they did not authorize the debit.", "fraud"},
	"duplicate":                 {"duplicate", "The customer says they were charged twice for one purchase.", "processing_error"},
	"fraudulent":                {"fraudulent", "The cardholder says they did not authorize the payment.", "fraud"},
	"general":                   {"general", "The dispute does not fall under another reason.", "general"},
	"incorrect_account_details": {"incorrect_account_details", "The payment was made to or from incorrect account details.", "processing_error"},
	"insufficient_funds":        {"insufficient_funds", "The customer's account had insufficient funds.", "processing_error"},
	"product_not_received":      {"product_not_received", "The customer says they did not receive what they paid for.", "consumer_dispute"},
	"product_unacceptable":      {"product_unacceptable", "The customer says what they received was defective or not as described.", "consumer_dispute"},
	"subscription_canceled":     {"subscription_canceled", "The customer says they were charged after canceling a subscription.", "consumer_dispute"},
	"unrecognized":              {"unrecognized", "The customer does not recognize the payment.", "fraud"},
}

// ReasonFor returns the reason of code.
func ReasonFor(code string) (Reason, bool) {
	r, ok := reasons[code]
	return r, ok
}

// KnownReason says whether code is a reason code.
func KnownReason(code string) bool { _, ok := reasons[code]; return ok }

// ReasonList is the reason codes, sorted, comma separated.
func ReasonList() string {
	codes := make([]string, 0, len(reasons))
	for c := range reasons {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	return strings.Join(codes, ", ")
}

// Magic evidence of the sandbox issuer (docs/sandbox.md): submitted in
// uncategorized_text, WinningEvidence wins the dispute; anything else,
// LosingEvidence included, loses it.
const (
	WinningEvidence = "winning_evidence"
	LosingEvidence  = "losing_evidence"
)

// Decide is the sandbox issuer's decision on submitted evidence whose
// uncategorized_text is text (nil when absent): Win for the winning
// evidence, Lose for anything else.
func Decide(text *string) Action {
	if text != nil && strings.TrimSpace(*text) == WinningEvidence {
		return Win
	}
	return Lose
}
