package catalog

import (
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// paymentMethodsOfCustomer are a customer's usable payment methods (not
// detached, not single-use wallet credentials), newest first, read in the
// customer's own statement (op.Embed). Writes do not use it: a writer
// locks the customer first and reads the payment methods in a statement
// of its own (see customerRows).
var paymentMethodsOfCustomer = &op.Embed[models.Customer, models.PaymentMethod]{
	Column: "customer_id", As: "payment_methods_json",
	Into:  func(c *models.Customer) *[]*models.PaymentMethod { return &c.PaymentMethods },
	Where: "pm.status <> 'detached' AND NOT pm.single_use",
	Order: "pm.created DESC, pm.id DESC"}
