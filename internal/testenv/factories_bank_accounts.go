package testenv

import "github.com/frame-oss/payments-server/models"

// BankAccountSpec describes a bank account linked through a processor
// token (POST /v1/bank_accounts).
type BankAccountSpec struct {
	Processor      string
	ProcessorToken string
	AccountID      string
	CustomerID     string
}

// SandboxBankToken is the sandbox processor's token for the test account
// number at routing (API-DECISIONS §6).
func SandboxBankToken(routing, number string) string {
	return "sandbox-token-" + routing + "-" + number
}

// BankAccount links the sandbox test account number (at TestRouting) to
// accountID.
func BankAccount(accountID, number string) BankAccountSpec {
	return BankAccountSpec{Processor: "sandbox", ProcessorToken: SandboxBankToken(TestRouting, number), AccountID: accountID}
}

// RESTBody renders s as a POST /v1/bank_accounts body.
func (s BankAccountSpec) RESTBody() map[string]any {
	return fields{"processor": s.Processor, "processor_token": s.ProcessorToken, "account_id": s.AccountID,
		"customer_id": s.CustomerID}.set()
}

// CreateBankAccount links spec's bank account over REST; anything but 201
// fails the test.
func (c *Client) CreateBankAccount(spec BankAccountSpec) *models.BankAccount {
	c.env.T.Helper()
	return create[models.BankAccount](c, "bank account", "/v1/bank_accounts", spec.RESTBody())
}

// CustomerBankAccount links the sandbox test account number (at
// TestRouting) for customerID.
func CustomerBankAccount(customerID, number string) BankAccountSpec {
	return BankAccountSpec{Processor: "sandbox", ProcessorToken: SandboxBankToken(TestRouting, number), CustomerID: customerID}
}
