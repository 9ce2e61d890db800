package money

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/domain/fees"
	"github.com/frame-oss/payments-server/internal/domain/processor"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// The pieces every charge-backed flow (transfers, charge intents) shares,
// so that both charge, decline, price, capture and journal one way: the
// processor's answer for a payment method, the decline a refusal records,
// the charge row, the pricing of a capture and its journal.

// processorAnswer is the sandbox processor's answer to charging amount
// (what the payer pays, fees added on included) on pm: its test number's
// outcome, a decline of an amount above the processor's ceiling, or a
// decline of a single-use wallet credential already consumed.
func processorAnswer(pm *models.PaymentMethod, amount int64) processor.Answer {
	consumed := pm.SingleUse && pm.Card != nil && pm.Card.Wallet != nil && pm.Card.Wallet.Consumed
	return processor.Charge(outcomeOf(pm), amount, consumed)
}

// challengeSucceeds says how the sandbox resolves pm's 3-D Secure
// challenge once the cardholder finished it (the same rule as a 3-D
// Secure intent's).
func challengeSucceeds(pm *models.PaymentMethod) bool {
	return processor.Authenticate(outcomeOf(pm)).ChallengeSucceeds
}

// decline is a refusal as it is recorded: the code (spec doc 2 §2.10), the
// buyer-safe message and the kind of refusal (card_declined,
// bank_declined, authentication_failed).
type decline struct {
	code, message, reason string
}

// declineOf is the decline of code for a card or (bank) an ACH debit.
func declineOf(code string, bank bool) *decline {
	return &decline{code: code, message: processor.Message(code), reason: processor.Reason(code, bank)}
}

// billableEventOf is the billable event of charging pm: a card or an ACH
// charge (the fee plans' transfer.charge.card and transfer.charge.ach).
func billableEventOf(pm *models.PaymentMethod) string {
	if pm.Type == models.PaymentMethodACH {
		return models.BillableChargeACH
	}
	return models.BillableChargeCard
}

// chargeFor is what a charge is made for: a transfer, a charge intent or
// an invoice, its amount and payer.
type chargeFor struct {
	transferID, chargeIntentID, invoiceID *uuid.UUID
	amount                                int64
	currency                              string
	description                           *string
	metadata                              models.Metadata
	accountID, customerID                 *uuid.UUID
}

// newCharge is the charge the processor's answer makes, charged on pm:
// approved (succeeded, nothing captured yet) unless d is set (failed, with
// the decline's code, message and category). Approved charges carry the
// sandbox acquirer's reference number and authorization code, derived from
// the charge id so that they are stable and unique. Not stored yet
// (insertCharge, or captureCharge for an immediate capture).
func newCharge(w *op.W, of chargeFor, pm *models.PaymentMethod, d *decline) *models.Charge {
	now := models.At(w.Now())
	ch := &models.Charge{ID: ids.New(w.Now()), Amount: of.amount, Currency: of.currency, Status: models.ChargeSucceeded,
		Description: of.description, PaymentMethodID: pm.ID, PaymentMethodDetails: pm, AccountID: of.accountID,
		CustomerID: of.customerID, TransferID: of.transferID, ChargeIntentID: of.chargeIntentID, InvoiceID: of.invoiceID,
		Metadata: of.metadata, Created: now, Updated: now}
	ch.SetScope(w.Tx.Scope())
	if d != nil {
		ch.Status, ch.FailureCode, ch.FailureMessage, ch.FailureCategory = models.ChargeFailed, &d.code, &d.message, &d.reason
	} else {
		arn, auth := acquirerCodes(ch.ID)
		ch.AcquirerReferenceNumber, ch.AuthorizationCode = &arn, &auth
	}
	ch.Derive()
	return ch
}

// planPricing is what prices the captures of a charge already priced by
// plan planID for event: plans never change, so the item that priced it is
// there.
func planPricing(ctx context.Context, t *store.Tenant, planID uuid.UUID, event string) (*pricing, error) {
	plan, err := feePlanIn(ctx, t, planID)
	if err != nil {
		return nil, err
	}
	price := &pricing{plan: plan, item: plan.ItemFor(event)}
	if price.item == nil {
		return nil, apierr.InvalidState("The fee plan that priced the charge no longer prices it")
	}
	return price, nil
}

// journalRef names what a journal records (a transfer, a charge intent).
type journalRef struct {
	typ string
	id  uuid.UUID
}

// captureJournal is the movement of capturing charge ch of a card or ACH
// charge (event) priced q, in currency (any case):
//
//	debit  clearing       gross_amount   (the buyer paid)
//	credit merchant       net_amount     (owed to the payee)
//	credit platform_fees  platform_fee
//	credit frame_fees     frame_fee
//	debit  merchant       the fees        (absorb only: the merchant pays them)
func captureJournal(ref journalRef, event, currency string, ch *models.Charge, q fees.Quote, at time.Time) *ledger.Journal {
	clearing := PartyCardClearing
	if event == models.BillableChargeACH {
		clearing = PartyACHClearing
	}
	c := strings.ToUpper(currency)
	return &ledger.Journal{ID: ids.New(at), Kind: string(models.JournalChargeCapture), RefType: ref.typ, RefID: ref.id, ChargeID: &ch.ID,
		Entries: []ledger.Entry{
			ledger.Debit(clearing, c, q.GrossAmount),
			ledger.Credit(PartyMerchant, c, q.NetAmount),
			ledger.Credit(PartyPlatformFees, c, q.PlatformFee),
			ledger.Credit(PartyFrameFees, c, q.FrameFee),
			ledger.Debit(PartyMerchant, c, q.MerchantFee),
		}}
}
