package processor

import "github.com/frame-oss/payments-server/internal/domain/card"

// Authentication is the issuer's answer to a 3-D Secure verification of a
// card (a 3-D Secure intent), deterministic in the sandbox.
type Authentication struct {
	// Challenge: the issuer asks the cardholder (the intent is issued);
	// otherwise the verification is frictionless and verified at once.
	Challenge bool
	// ChallengeSucceeds says how a challenge resolves once the cardholder
	// answers it.
	ChallengeSucceeds bool
}

// Authenticate answers a 3-D Secure verification of a card whose sandbox
// outcome is outcome. The two challenge cards challenge (4000000000003220
// then succeeds, 4000008400001629 then fails); every other card,
// 4111110116638870 included, authenticates frictionlessly: the issuer
// does not ask, and a card that declines charges still authenticates (its
// decline comes with the charge, as with a real issuer).
func Authenticate(outcome string) Authentication {
	switch outcome {
	case card.OutcomeThreeDSChallenge:
		return Authentication{Challenge: true, ChallengeSucceeds: true}
	case card.OutcomeThreeDSChallengeFail:
		return Authentication{Challenge: true}
	default:
		return Authentication{}
	}
}
