// Package processor is the sandbox's card and bank processor: what a
// charge of a test card or test bank account answers (API-DECISIONS §6),
// deterministically, and the decline vocabulary of spec doc 2 §2.10 with
// the buyer-safe message of each code the sandbox produces.
package processor

import "github.com/frame-oss/payments-server/internal/domain/card"

// Result is the processor's answer to a charge.
type Result int

// Results.
const (
	// Approved: the charge clears (captured, or authorized for a manual
	// capture).
	Approved Result = iota
	// Declined: the issuer or bank refused; Answer.Code says why.
	Declined
	// Challenge: the issuer asks for 3-D Secure before deciding.
	Challenge
)

// Answer is the processor's verdict on one charge attempt.
type Answer struct {
	Result Result
	// Code is the decline code (Declined), from the vocabulary.
	Code string
	// ChallengeSucceeds says how a Challenge resolves in the sandbox.
	ChallengeSucceeds bool
}

// MaxCharge is the largest amount, in minor units, the sandbox processor
// moves in one charge or payout: 99,999,999 ($999,999.99 in a currency of
// cents), the eight digits card processors commonly accept. Above it the
// processor declines with CodeAmountTooLarge, as a real one refuses an
// amount it cannot carry, whatever the payment method.
const MaxCharge int64 = 99_999_999

// CodeAmountTooLarge is the decline of an amount above MaxCharge.
const CodeAmountTooLarge = "amount_too_large"

// Charge answers a charge (or a payout) of amount, in minor units, on a
// payment method whose sandbox outcome is outcome ("" for an ordinary
// success; a decline code; or one of the card package's outcomes). An
// amount above MaxCharge declines with amount_too_large before the payment
// method is looked at; a single-use credential already consumed declines
// with payment_method_single_use.
func Charge(outcome string, amount int64, singleUseConsumed bool) Answer {
	if amount > MaxCharge {
		return Answer{Result: Declined, Code: CodeAmountTooLarge}
	}
	if singleUseConsumed {
		return Answer{Result: Declined, Code: "payment_method_single_use"}
	}
	switch outcome {
	case "", card.OutcomeThreeDSFrictionless, card.OutcomeDispute, card.OutcomeRefundFails:
		// The dispute card clears; its dispute opens when it is captured.
		return Answer{Result: Approved}
	case card.OutcomeThreeDSChallenge:
		return Answer{Result: Challenge, ChallengeSucceeds: true}
	case card.OutcomeThreeDSChallengeFail:
		return Answer{Result: Challenge}
	default:
		return Answer{Result: Declined, Code: outcome}
	}
}

// Refund answers a refund to a payment method whose sandbox outcome is
// outcome: "" when the money goes back, else the refund's failure_reason
// (the refund-failure test card's refunds fail: the card was canceled).
func Refund(outcome string) (failureReason string) {
	if outcome == card.OutcomeRefundFails {
		return "expired_or_canceled_card"
	}
	return ""
}

// ChallengeDeclineCode is the code of a failed 3-D Secure challenge.
const ChallengeDeclineCode = "authentication_required"

// messages are the buyer-safe messages of the decline codes.
var messages = map[string]string{
	"expired_card":              "Your card has expired.",
	"incorrect_cvc":             "Your card's security code is incorrect.",
	"processing_error":          "An error occurred while processing your card. Try again in a little bit.",
	"incorrect_number":          "Your card number is incorrect.",
	"insufficient_funds":        "Your card has insufficient funds.",
	"stolen_card":               "Your card was declined.",
	"generic_decline":           "Your card was declined.",
	"card_velocity_exceeded":    "Your card was declined for making repeated attempts too frequently or exceeding its amount limit.",
	"authentication_required":   "Your card was declined: authentication was not completed.",
	"payment_method_single_use": "This payment method can only be used once.",
	CodeAmountTooLarge:          "The amount is above the largest the processor accepts in one payment (999999.99).",
	"account_closed":            "The bank account has been closed.",
	"no_account":                "The bank account could not be located.",
	"debit_not_authorized":      "The bank account owner has not authorized this debit.",
}

// Message is the buyer-safe message of a decline code.
func Message(code string) string {
	if m, ok := messages[code]; ok {
		return m
	}
	return "Your payment was declined."
}

// Reason is the failure_reason of a decline: the kind of refusal, for the
// merchant (card_declined, bank_declined, authentication_failed).
func Reason(code string, bank bool) string {
	switch {
	case code == ChallengeDeclineCode:
		return "authentication_failed"
	case bank:
		return "bank_declined"
	default:
		return "card_declined"
	}
}
