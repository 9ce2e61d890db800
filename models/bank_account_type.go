package models

// BankAccountType is the kind of a bank account, linked (BankAccount) or
// attached as an ACH payment method.
type BankAccountType string

// Bank account types.
const (
	BankAccountChecking BankAccountType = "checking"
	BankAccountSavings  BankAccountType = "savings"
)

// BankAccountTypes is the closed set of bank account types.
var BankAccountTypes = Enum(BankAccountChecking, BankAccountSavings)
