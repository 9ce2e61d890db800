package money

import (
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/models"
)

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
	// RefRefund and RefDispute name refunds and disputes as what journals
	// record.
	RefRefund  = "refund"
	RefDispute = "dispute"
	// RefChargeIntent names charge intents as what journals record.
	RefChargeIntent = "charge_intent"
	// RefInvoice names invoices as what journals record.
	RefInvoice = "invoice"
)

// refundJournal is the movement of a succeeded refund: the refunded
// amount goes back to the buyer out of the merchant's balance. Fees are
// not returned (docs/payments.md, "Refunds"):
//
//	debit  merchant  amount   (the merchant pays the refund)
//	credit clearing  amount   (the processor sends it back to the buyer)
func refundJournal(ch *models.Charge, r *models.Refund) *ledger.Journal {
	return &ledger.Journal{ID: ids.New(r.Created.Time), Kind: string(models.JournalChargeRefund), RefType: RefRefund, RefID: r.ID, ChargeID: &ch.ID,
		Entries: []ledger.Entry{
			ledger.Debit(PartyMerchant, r.Currency, r.Amount),
			ledger.Credit(clearingOf(ch), r.Currency, r.Amount),
		}}
}

// disputeJournal is the movement of an opened dispute: the processor
// withdraws the disputed amount and the dispute fee from what it owes, and
// the merchant's balance pays both:
//
//	debit  merchant  amount + fee
//	credit clearing  amount + fee
//
// A won dispute posts the same movement reversed (kind
// "charge.dispute_won"): the amount and the fee come back.
func disputeJournal(ch *models.Charge, d *models.Dispute, won bool) *ledger.Journal {
	kind, total := models.JournalChargeDispute, d.AmountCents+d.Fee
	merchant, clearing := ledger.Debit(PartyMerchant, d.AmountCurrency, total), ledger.Credit(clearingOf(ch), d.AmountCurrency, total)
	at := d.Created.Time
	if won {
		kind = models.JournalChargeDisputeWon
		merchant, clearing = ledger.Credit(PartyMerchant, d.AmountCurrency, total), ledger.Debit(clearingOf(ch), d.AmountCurrency, total)
		at = d.Updated.Time
	}
	return &ledger.Journal{ID: ids.New(at), Kind: string(kind), RefType: RefDispute, RefID: d.ID, ChargeID: &ch.ID,
		Entries: []ledger.Entry{merchant, clearing}}
}
