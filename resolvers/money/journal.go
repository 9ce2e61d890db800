package money

// Ledger parties of the area, one account each per merchant, mode and
// currency (docs/payments.md, "The ledger").
const (
	// PartyCardClearing is what the card processor owes for captured charges.
	PartyCardClearing = "card_clearing"
	// PartyACHClearing is what the bank network owes for ACH debits.
	PartyACHClearing = "ach_clearing"
	// PartyMerchant is what is owed to the merchant (the payee).
	PartyMerchant = "merchant"
	// PartyPlatformFees is the fee revenue of the merchant's plans.
	PartyPlatformFees = "platform_fees"
	// PartyFrameFees is the service's processing fee revenue.
	PartyFrameFees = "frame_fees"
	// RefTransfer names transfers as what journals record.
	RefTransfer = "transfer"
	// RefChargeIntent names charge intents as what journals record.
	RefChargeIntent = "charge_intent"
)
