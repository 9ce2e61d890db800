package money

import (
	"github.com/frame-oss/payments-server/internal/domain/fees"
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
)

// captureJournal is the movement of a captured charge priced q:
//
//	debit  clearing       gross_amount   (the buyer paid)
//	credit merchant       net_amount     (owed to the payee)
//	credit platform_fees  platform_fee
//	credit frame_fees     frame_fee
//	debit  merchant       the fees        (absorb only: the merchant pays them)
func captureJournal(t *models.Transfer, ch *models.Charge, q fees.Quote) *ledger.Journal {
	clearing := PartyCardClearing
	if t.BillableEventType == models.BillableChargeACH {
		clearing = PartyACHClearing
	}
	c := t.Currency
	return &ledger.Journal{ID: ids.New(t.Updated.Time), Kind: "charge.capture", RefType: RefTransfer, RefID: t.ID, ChargeID: &ch.ID,
		Entries: []ledger.Entry{
			ledger.Debit(clearing, c, q.GrossAmount),
			ledger.Credit(PartyMerchant, c, q.NetAmount),
			ledger.Credit(PartyPlatformFees, c, q.PlatformFee),
			ledger.Credit(PartyFrameFees, c, q.FrameFee),
			ledger.Debit(PartyMerchant, c, q.MerchantFee),
		}}
}
