package processor

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/card"
)

// A 3-D Secure verification challenges exactly the cards whose charges
// challenge, and resolves the way their charges' challenges resolve.
func TestAuthenticateAgreesWithCharge(t *testing.T) {
	for _, c := range card.TestCards {
		a, charge := Authenticate(c.Outcome), Charge(c.Outcome, 100, false)
		require.Equal(t, charge.Result == Challenge, a.Challenge, c.Number)
		require.Equal(t, charge.ChallengeSucceeds, a.ChallengeSucceeds, c.Number)
	}
	require.Equal(t, Authentication{}, Authenticate(card.OutcomeThreeDSFrictionless))
	require.Equal(t, Authentication{Challenge: true, ChallengeSucceeds: true}, Authenticate(card.OutcomeThreeDSChallenge))
	require.Equal(t, Authentication{Challenge: true}, Authenticate(card.OutcomeThreeDSChallengeFail))
}
