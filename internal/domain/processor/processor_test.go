package processor

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/card"
)

func TestEveryTestCardHasAnAnswer(t *testing.T) {
	for _, c := range card.TestCards {
		a := Charge(c.Outcome, 100, false)
		switch c.Outcome {
		case "", card.OutcomeDispute, card.OutcomeThreeDSFrictionless, card.OutcomeRefundFails:
			require.Equal(t, Approved, a.Result, c.Number)
		case card.OutcomeThreeDSChallenge:
			require.Equal(t, Answer{Result: Challenge, ChallengeSucceeds: true}, a, c.Number)
		case card.OutcomeThreeDSChallengeFail:
			require.Equal(t, Answer{Result: Challenge}, a, c.Number)
		default:
			require.Equal(t, Answer{Result: Declined, Code: c.Outcome}, a, c.Number)
			require.NotEqual(t, "Your payment was declined.", Message(c.Outcome), "a specific message for %s", c.Outcome)
		}
	}
}

func TestConsumedSingleUseDeclines(t *testing.T) {
	require.Equal(t, Answer{Result: Declined, Code: "payment_method_single_use"}, Charge("", 100, true))
}

func TestReasons(t *testing.T) {
	require.Equal(t, "card_declined", Reason("generic_decline", false))
	require.Equal(t, "bank_declined", Reason("account_closed", true))
	require.Equal(t, "authentication_failed", Reason(ChallengeDeclineCode, false))
	require.Equal(t, "Your payment was declined.", Message("do_not_honor"))
}

func TestRefunds(t *testing.T) {
	for _, c := range card.TestCards {
		want := ""
		if c.Outcome == card.OutcomeRefundFails {
			want = "expired_or_canceled_card"
		}
		require.Equal(t, want, Refund(c.Outcome), c.Number)
	}
}

// Above the per-charge ceiling every payment method declines, the best
// card included; at the ceiling it is approved.
func TestChargesAboveTheCeilingDecline(t *testing.T) {
	for _, c := range card.TestCards {
		require.Equal(t, Answer{Result: Declined, Code: CodeAmountTooLarge}, Charge(c.Outcome, MaxCharge+1, false), c.Number)
	}
	require.Equal(t, Answer{Result: Approved}, Charge("", MaxCharge, false))
	require.Equal(t, "card_declined", Reason(CodeAmountTooLarge, false))
	require.NotEqual(t, "Your payment was declined.", Message(CodeAmountTooLarge))
}
