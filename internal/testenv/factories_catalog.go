package testenv

import (
	"github.com/frame-oss/payments-server/models"
)

// CustomerSpec describes a customer to create; zero values are left out.
type CustomerSpec struct {
	Name, Email, Phone, Description, SSN, DateOfBirth string
	Metadata                                          map[string]string
}

// Customer is a complete customer.
func Customer() CustomerSpec {
	return CustomerSpec{Name: "Grace Hopper", Email: "grace@example.com", Phone: "(200) 555-0101",
		Description: "Rear admiral", DateOfBirth: "1906-12-09"}
}

// RESTBody renders s as a POST /v1/customers body.
func (s CustomerSpec) RESTBody() map[string]any { return s.render(rest) }

// GraphQLInput renders s as a CreateCustomerInput variable.
func (s CustomerSpec) GraphQLInput() map[string]any { return s.render(graphQL) }

func (s CustomerSpec) render(t transport) map[string]any {
	return fields{"metadata": s.Metadata, "name": s.Name, "email": s.Email, "phone": s.Phone, "description": s.Description,
		"ssn": s.SSN, t.name("date_of_birth", "dateOfBirth"): s.DateOfBirth}.set()
}

// CreateCustomer creates spec's customer over REST; anything but 201 fails
// the test.
func (c *Client) CreateCustomer(spec CustomerSpec) *models.Customer {
	c.env.T.Helper()
	return create[models.Customer](c, "customer", "/v1/customers", spec.RESTBody())
}

// ProductSpec describes a product to create; zero values are left out.
type ProductSpec struct {
	Name, Description, PurchaseType, RecurringInterval, URL string
	DefaultPrice                                            int64
	Shippable                                               bool
}

// Product is a monthly subscription product.
func Product() ProductSpec {
	return ProductSpec{Name: "Pro plan", Description: "Everything", PurchaseType: "recurring",
		RecurringInterval: "monthly", DefaultPrice: 2500}
}

// RESTBody renders s as a POST /v1/products body.
func (s ProductSpec) RESTBody() map[string]any { return s.render(rest) }

// GraphQLInput renders s as a CreateProductInput variable.
func (s ProductSpec) GraphQLInput() map[string]any { return s.render(graphQL) }

func (s ProductSpec) render(t transport) map[string]any {
	out := fields{"name": s.Name, "description": s.Description, "url": s.URL,
		t.name("purchase_type", "purchaseType"):           t.enum(s.PurchaseType),
		t.name("recurring_interval", "recurringInterval"): t.enum(s.RecurringInterval)}.set()
	if s.DefaultPrice != 0 {
		out[t.name("default_price", "defaultPrice")] = s.DefaultPrice
	}
	if s.Shippable {
		out["shippable"] = true
	}
	return out
}

// CreateProduct creates spec's product over REST; anything but 201 fails
// the test.
func (c *Client) CreateProduct(spec ProductSpec) *models.Product {
	c.env.T.Helper()
	return create[models.Product](c, "product", "/v1/products", spec.RESTBody())
}

// Test card numbers of the sandbox (API-DECISIONS §6).
const (
	Visa      = "4242424242424242"
	VisaDebit = "4000056655665556"
)

// CardBody is a POST /v1/payment_methods body for a card, attached to
// customerID unless it is empty.
func CardBody(customerID, number string) map[string]any {
	b := map[string]any{"type": "card", "card_number": number, "exp_month": 12, "exp_year": 30, "cvc": "123"}
	if len(number) == 15 {
		b["cvc"] = "1234"
	}
	if customerID != "" {
		b["customer"] = customerID
	}
	return b
}

// CreateCard creates a card payment method over REST; anything but 201
// fails the test.
func (c *Client) CreateCard(customerID, number string) *models.PaymentMethod {
	c.env.T.Helper()
	return create[models.PaymentMethod](c, "card", "/v1/payment_methods", CardBody(customerID, number))
}
