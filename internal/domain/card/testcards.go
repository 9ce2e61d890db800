package card

// Funding is `credit` or `debit`.
const (
	Credit = "credit"
	Debit  = "debit"
)

// Sandbox outcomes beyond a plain success or a decline code.
const (
	OutcomeDispute              = "dispute"
	OutcomeThreeDSChallenge     = "three_ds_challenge"
	OutcomeThreeDSChallengeFail = "three_ds_challenge_declined"
	OutcomeThreeDSFrictionless  = "three_ds_frictionless"
	// OutcomeRefundFails: the charge succeeds, its refunds fail (a card
	// of this server's sandbox, the number other sandboxes use for it).
	OutcomeRefundFails = "refund_fails"
)

// TestCard is a sandbox test card: its funding and what the sandbox
// processor answers when it is charged ("" succeeds; else a decline code
// of spec doc 2 §2.10 or one of the Outcome constants).
type TestCard struct {
	Number  string
	Funding string
	Outcome string
}

// TestCards are the test cards of API-DECISIONS §6, in its order, then
// this server's own (docs/sandbox.md).
var TestCards = []TestCard{
	{"4242424242424242", Credit, ""},
	{"4000056655665556", Debit, ""},
	{"5555555555554444", Credit, ""},
	{"5200828282828210", Debit, ""},
	{"378282246310005", Credit, ""},
	{"6011111111111117", Credit, ""},
	{"4726840306461785", Credit, "expired_card"},
	{"4726840756845529", Credit, "incorrect_cvc"},
	{"4726849921107855", Credit, "processing_error"},
	{"4726843991344803", Credit, "incorrect_number"},
	{"4726846912498186", Credit, "insufficient_funds"},
	{"4726843338079575", Credit, "stolen_card"},
	{"4726848138487043", Credit, "generic_decline"},
	{"4726848912206759", Credit, "card_velocity_exceeded"},
	{"4000000000000002", Credit, "generic_decline"},
	{"4000000000009995", Credit, "insufficient_funds"},
	{"4000000000000259", Credit, OutcomeDispute},
	{"4000000000003220", Credit, OutcomeThreeDSChallenge},
	{"4000008400001629", Credit, OutcomeThreeDSChallengeFail},
	{"4111110116638870", Credit, OutcomeThreeDSFrictionless},
	{"4000000000005126", Credit, OutcomeRefundFails},
}

var testCardsByNumber = func() map[string]TestCard {
	m := make(map[string]TestCard, len(TestCards))
	for _, c := range TestCards {
		m[c.Number] = c
	}
	return m
}()

// LookupTestCard returns the test card with digits, if it is one.
func LookupTestCard(digits string) (TestCard, bool) {
	c, ok := testCardsByNumber[digits]
	return c, ok
}
