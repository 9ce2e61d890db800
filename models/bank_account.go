package models

import (
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type bankAccountKind struct{}

func (bankAccountKind) objectName() string { return "bank_account" }

// BankAccount is a bank account linked through a bank-linking processor
// (spec doc 1 §2.8). The account number itself is never kept: its last
// four digits and a keyed fingerprint are.
type BankAccount struct {
	bun.BaseModel `bun:"table:bank_accounts,alias:ba"`
	Tenant

	ID                 uuid.UUID               `bun:"id,pk,type:uuid" json:"id"`
	Object             Object[bankAccountKind] `bun:"-" json:"object"`
	RoutingNumber      string                  `bun:"routing_number" json:"routing_number"`
	AccountNumberLast4 string                  `bun:"account_number_last_4" json:"account_number_last_4"`
	AccountType        BankAccountType         `bun:"account_type" json:"account_type"`
	BankName           *string                 `bun:"bank_name" json:"bank_name"`
	ProcessorName      string                  `bun:"processor_name" json:"processor_name"`
	Status             BankAccountStatus       `bun:"status" json:"status"`
	CustomerID         *uuid.UUID              `bun:"customer_id,type:uuid" json:"customer_id"`
	AccountID          *uuid.UUID              `bun:"account_id,type:uuid" json:"account_id"`
	Created            wire.Timestamp          `bun:"created" json:"created"`
	Updated            wire.Timestamp          `bun:"updated" json:"updated"`

	Fingerprint []byte `bun:"fingerprint" json:"-"`
	// Existing reports that the create found this bank account already
	// linked to the owner (200, not 201).
	Existing bool `bun:"-" json:"-"`
}

// CreateBankAccountInput is the body of POST /v1/bank_accounts.
type CreateBankAccountInput struct {
	Processor      *string `json:"processor"`
	ProcessorToken *string `json:"processor_token"`
	CustomerID     *string `json:"customer_id"`
	AccountID      *string `json:"account_id"`
}

// Validate checks a create, every problem at once; owner says whether the
// caller names the owner (a secret key) or it is implied (an onboarding
// secret's account).
func (in *CreateBankAccountInput) Validate(owner bool) error {
	var f apierr.Fields
	checkText(&f, "processor", in.Processor, 40, true)
	checkText(&f, "processor_token", in.ProcessorToken, 200, true)
	if owner {
		switch {
		case in.CustomerID != nil && in.AccountID != nil:
			f.Add("account_id", "is mutually exclusive with customer_id")
		case in.CustomerID != nil:
			checkText(&f, "customer_id", in.CustomerID, 64, true)
		case in.AccountID == nil:
			f.Add("account_id", "is required (or customer_id)")
		default:
			checkText(&f, "account_id", in.AccountID, 64, true)
		}
	}
	return f.Err()
}

// LinkToken is the answer of GET /v1/accounts/{id}/plaid_link_token.
type LinkToken struct {
	LinkToken string `json:"link_token"`
}
