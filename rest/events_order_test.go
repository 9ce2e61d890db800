package rest_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

// Events one request writes share its timestamp; they still list in the
// order they were written (newest first), so a consumer replaying them sees
// the account created before it activated.
func TestEventsOfOneRequestKeepTheirOrder(t *testing.T) {
	t.Parallel()
	f := setup(t, testenv.WithFacts(func(_ *models.Account, fx *capability.Facts) { fx.PhoneVerified = true }))
	a := f.sk.CreateAccount(testenv.Individual().WithCapabilities("phone_verification").
		WithTermsOfService(testenv.TermsSpec{Token: "tos_1"}))
	require.Equal(t, "active", a["status"])
	events := listEvents(t, f.sk, "")
	var types []string
	for _, e := range events {
		types = append(types, e.Type)
		require.Equal(t, events[0].Created, e.Created, "one request, one timestamp")
	}
	require.Equal(t, []string{"account.created", "capability.activated", "account.activated"}, types)
}
