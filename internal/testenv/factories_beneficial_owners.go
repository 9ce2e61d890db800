package testenv

import (
	"slices"

	"github.com/frame-oss/payments-server/models"
)

// BeneficialOwnerSpec describes a beneficial owner of a business account
// (POST /v1/accounts/{id}/beneficial_owners); zero values are left out.
type BeneficialOwnerSpec struct {
	// Invite sends the owner an invitation to fill in their own identity
	// details instead of taking them now.
	Invite                     bool
	FirstName, LastName, Email string
	Roles                      []string // "owner", "controller"
	PhoneNumber, DOB, SSN      string
	AddressLine1, City, State  string
	PostalCode, Country        string
	// PercentOwnership is sent when not 0.
	PercentOwnership float64
}

// BeneficialOwner is a complete owner (status completed) of percent of the
// business, with roles.
func BeneficialOwner(percent float64, roles ...string) BeneficialOwnerSpec {
	return BeneficialOwnerSpec{FirstName: "Grace", LastName: "Hopper", Email: "grace@example.com",
		Roles: slices.Clone(roles), DOB: "1980-01-02", SSN: "123-45-6789", AddressLine1: "3 Navy Way",
		City: "Arlington", State: "VA", PostalCode: "22201", PercentOwnership: percent}
}

// PartialOwner is an owner created with only a name, an e-mail and roles
// (status pending).
func PartialOwner(roles ...string) BeneficialOwnerSpec {
	return BeneficialOwnerSpec{FirstName: "Ada", LastName: "Byron", Email: "ada@example.com", Roles: slices.Clone(roles)}
}

// RESTBody renders s as a POST /v1/accounts/{id}/beneficial_owners body.
func (s BeneficialOwnerSpec) RESTBody() map[string]any {
	out := fields{"invite": s.Invite, "first_name": s.FirstName, "last_name": s.LastName, "email": s.Email,
		"roles": s.Roles, "phone_number": s.PhoneNumber, "dob": s.DOB, "ssn": s.SSN,
		"address_line1": s.AddressLine1, "city": s.City, "state": s.State, "postal_code": s.PostalCode,
		"country": s.Country}.set()
	if s.PercentOwnership != 0 {
		out["percent_ownership"] = s.PercentOwnership
	}
	return out
}

// CreateBeneficialOwner creates spec's owner of accountID over REST;
// anything but 201 fails the test.
func (c *Client) CreateBeneficialOwner(accountID string, spec BeneficialOwnerSpec) *models.BeneficialOwner {
	c.env.T.Helper()
	return create[models.BeneficialOwner](c, "beneficial owner", "/v1/accounts/"+accountID+"/beneficial_owners",
		spec.RESTBody())
}
