package testenv

import (
	"net/http"

	"github.com/frame-oss/payments-server/models"
)

// BlockCustomer blocks customerID (POST /v1/customers/{id}/block), which
// blocks the payment methods it holds and those attached to it later, and
// returns the customer as it answers; anything but 200 fails the test. It
// puts a customer in the blocked state for a test about what that state
// refuses; a test of the block itself posts its own request.
func (c *Client) BlockCustomer(customerID string) *models.Customer {
	c.env.T.Helper()
	return post[models.Customer](c, "block customer", "/v1/customers/"+customerID+"/block", nil, http.StatusOK)
}
