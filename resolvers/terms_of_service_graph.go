package resolvers

import (
	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
)

// acceptTermsInput spells the GraphQL acceptance as the operation's input.
func acceptTermsInput(in model.AcceptTermsInput) *models.AcceptTermsOfServiceInput {
	out := &models.AcceptTermsOfServiceInput{Token: &in.Token, IPAddress: in.IPAddress, UserAgent: in.UserAgent}
	if in.AcceptedAt != nil {
		at := int64(*in.AcceptedAt)
		out.AcceptedAt = &at
	}
	return out
}
