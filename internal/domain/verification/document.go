package verification

// Document check (identity provider inquiry) statuses (spec doc 1 §4.4):
// created until the holder finishes, then approved, declined, failed or
// needs_review. declined and failed are terminal for the document.
const (
	InquiryCreated     = "created"
	InquiryApproved    = "approved"
	InquiryDeclined    = "declined"
	InquiryFailed      = "failed"
	InquiryNeedsReview = "needs_review"
)

// documentOutcomes are the phone numbers (E.164) whose holders' documents
// the sandbox identity provider does not approve (docs/sandbox.md).
var documentOutcomes = map[string]string{
	"+12001003001": InquiryDeclined,
	"+12001003002": InquiryFailed,
	"+12001003003": InquiryNeedsReview,
}

// DocumentOutcome is how the sandbox identity provider judges the document
// of the holder whose profile phone is e164: approved unless the number is
// one of the documented ones.
func DocumentOutcome(e164 string) string {
	return outcomeOf(documentOutcomes, e164, InquiryApproved)
}

// InquiryOpen reports whether an inquiry can still be completed (and so
// is reused by a new session).
func InquiryOpen(status string) bool { return status == InquiryCreated }
