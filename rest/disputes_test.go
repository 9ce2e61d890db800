package rest_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

var disputeKeys = sorted("id", "object", "status", "display_status", "amount_cents", "amount_currency", "amount", "currency",
	"reason", "acquirer_reference_number", "authorization_code", "charge_intent", "charge", "transfer", "evidence",
	"evidence_submitted", "created", "updated", "livemode")

var evidenceKeys = sorted("access_activity_log", "billing_address", "cancellation_policy", "cancellation_policy_disclosure",
	"cancellation_rebuttal", "customer_email_address", "customer_name", "customer_purchase_ip", "duplicate_charge_explanation",
	"duplicate_charge_id", "product_description", "refund_policy_disclosure", "shipping_tracking_number", "uncategorized_text")

// awaitDispute reads a dispute once its decision job has run: again each
// time the job engine finishes a job, with no deadline of its own.
func awaitDispute(t *testing.T, f *fixture, disputeID string) map[string]any {
	t.Helper()
	var d map[string]any
	f.env.AwaitJobs(func() bool {
		d = f.sk.Get("/v1/disputes/" + disputeID).JSON()
		return d["status"] != "under_review"
	})
	return d
}

// The dispute test card: its capture opens a chargeback on its charge in
// the same write, and the disputed amount leaves the merchant's balance.
func TestDisputeCardOpensADisputeWhenCaptured(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4000000000000259")
	tr := f.sk.CreateTransfer(p.charging(1000))
	require.Equal(t, models.TransferSucceeded, tr.Status)
	ch := chargeOf(t, f.sk, tr)
	require.Equal(t, true, ch["disputed"])

	list := listOf(t, f.sk, "/v1/disputes")
	require.Len(t, list, 1)
	d := list[0]
	require.Equal(t, disputeKeys, keys(d))
	require.Equal(t, "dispute", d["object"])
	require.Equal(t, "needs_response", d["status"])
	require.Equal(t, "Needs response", d["display_status"])
	require.Equal(t, int64(1000), num(d["amount_cents"]))
	require.Equal(t, "USD", d["amount_currency"])
	require.Equal(t, int64(1000), num(d["amount"]))
	require.Equal(t, map[string]any{"code": "fraudulent", "description": "The cardholder says they did not authorize the payment.",
		"category": "fraud"}, d["reason"])
	require.Equal(t, ch["acquirer_reference_number"], d["acquirer_reference_number"])
	require.Equal(t, ch["authorization_code"], d["authorization_code"])
	require.Nil(t, d["charge_intent"], "a transfer's charge has no charge intent")
	require.Equal(t, id(ch), d["charge"])
	require.Equal(t, id(tr), d["transfer"])
	require.Equal(t, evidenceKeys, keys(d["evidence"].(map[string]any)))
	require.Nil(t, d["evidence_submitted"])
	require.Equal(t, []string{"charge.dispute.created"}, eventTypes(listEvents(t, f.sk, ""), id(d)))

	books := requireBooksHold(t, f)
	require.Equal(t, int64(0), books["card_clearing"], "the issuer took the 1000 back")
	require.Equal(t, int64(59), books["merchant"], "the merchant paid it, and its fees stayed")

	// A disputed charge is not refunded, nor disputed twice.
	requireError(t, f.sk.Post("/v1/refunds", map[string]any{"transfer": id(tr)}), http.StatusUnprocessableEntity, "charge_disputed", "")
	requireError(t, f.sk.Post("/v1/test_helpers/charges/"+id(ch)+"/dispute", nil), http.StatusUnprocessableEntity,
		"charge_already_disputed", "")

	trace := f.sk.Get("/v1/charges/" + id(ch) + "/trace").JSON()
	var kinds []string
	for _, j := range trace["ledger"].(map[string]any)["journals"].([]any) {
		kinds = append(kinds, j.(map[string]any)["kind"].(string))
	}
	require.Equal(t, []string{"charge.capture", "charge.dispute"}, kinds)
	var types []string
	for _, e := range trace["events"].([]any) {
		types = append(types, e.(map[string]any)["type"].(string))
	}
	require.Equal(t, []string{"transfer.created", "transfer.succeeded", "charge.dispute.created"}, types)

	// Manual capture: the dispute opens when the charge is captured.
	q := newPayer(t, f.sk, "4000000000000259")
	auth := f.sk.CreateTransfer(q.charging(1000).WithAuthorizationMode("manual"))
	require.Len(t, listOf(t, f.sk, "/v1/disputes"), 1)
	r := f.sk.Post("/v1/transfers/"+id(auth)+"/capture", map[string]any{"amount_captured_cents": 400})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	got := listOf(t, f.sk, "/v1/disputes?charge="+auth.LatestCharge.String())
	require.Len(t, got, 1)
	require.Equal(t, int64(400), num(got[0]["amount_cents"]))
}

// Evidence, submission and the sandbox issuer's decision: winning
// evidence wins (the money comes back), anything else loses.
func TestDisputeEvidenceSubmissionAndDecision(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.env.StartJobs()
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	won := f.sk.CreateTransfer(p.charging(1000))
	lost := f.sk.CreateTransfer(p.charging(2000))
	f.sk.CreateRefund(testenv.RefundSpec{TransferID: id(won), Amount: 300})

	dw := f.sk.OpenDispute(won.LatestCharge.String(), "product_not_received")
	require.Equal(t, int64(700), dw.AmountCents, "what was captured and not refunded")
	require.Equal(t, models.DisputeCategoryConsumerDispute, *dw.Reason.Category)
	dl := f.sk.OpenDispute(lost.LatestCharge.String(), "")
	require.Equal(t, "fraudulent", *dl.Reason.Code)
	require.Equal(t, int64(-941-1912+300+700+2000), requireBooksHold(t, f)["merchant"])

	// Saved, not submitted.
	r := f.sk.Patch("/v1/disputes/"+id(dw), map[string]any{"submit": false,
		"evidence": map[string]any{"shipping_tracking_number": "1Z999", "product_description": "A book"}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	d := r.JSON()
	require.Equal(t, "needs_response", d["status"])
	require.Equal(t, "1Z999", d["evidence"].(map[string]any)["shipping_tracking_number"])
	upd := listEvents(t, f.sk, "charge.dispute.updated")
	require.Len(t, upd, 1)
	prevEvidence := upd[0].previous()["evidence"].(map[string]any)
	require.Equal(t, evidenceKeys, keys(prevEvidence), "the evidence as it was, whole")
	require.Nil(t, prevEvidence["shipping_tracking_number"])
	// The same again changes nothing: no event.
	r = f.sk.Patch("/v1/disputes/"+id(dw), map[string]any{"submit": false, "evidence": map[string]any{"shipping_tracking_number": "1Z999"}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Len(t, listEvents(t, f.sk, "charge.dispute.updated"), 1)

	// Updating evidence submits it (submit defaults to true); "" removes a member.
	r = f.sk.Patch("/v1/disputes/"+id(dw), map[string]any{"evidence": map[string]any{"uncategorized_text": "winning_evidence",
		"product_description": ""}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	d = r.JSON()
	require.Equal(t, "under_review", d["status"])
	require.Equal(t, "Under review", d["display_status"])
	requireInt(t, d["evidence_submitted"], "evidence_submitted")
	require.Nil(t, d["evidence"].(map[string]any)["product_description"])
	require.Equal(t, "1Z999", d["evidence"].(map[string]any)["shipping_tracking_number"])
	requireError(t, f.sk.Patch("/v1/disputes/"+id(dw), map[string]any{"evidence": map[string]any{"customer_name": "x"}}),
		http.StatusUnprocessableEntity, "invalid_state", "")

	r = f.sk.Patch("/v1/disputes/"+id(dl), map[string]any{"evidence": map[string]any{"uncategorized_text": "losing_evidence"}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))

	d = awaitDispute(t, f, id(dw))
	require.Equal(t, "won", d["status"])
	require.Equal(t, "Won", d["display_status"])
	d = awaitDispute(t, f, id(dl))
	require.Equal(t, "lost", d["status"])
	requireError(t, f.sk.Patch("/v1/disputes/"+id(dl), map[string]any{"submit": true}), http.StatusUnprocessableEntity, "invalid_state", "")

	closed := listEvents(t, f.sk, "charge.dispute.closed")
	require.Len(t, closed, 2)
	for _, e := range closed {
		require.Equal(t, "under_review", e.previous()["status"])
	}
	books := requireBooksHold(t, f)
	require.Equal(t, int64(1000-300+2000-2000), books["card_clearing"], "the won 700 is back with the processor's debt")
	require.Equal(t, int64(-(941-300)-(2000-88)+2000), books["merchant"])
	trace := f.sk.Get("/v1/charges/" + won.LatestCharge.String() + "/trace").JSON()
	var kinds []string
	for _, j := range trace["ledger"].(map[string]any)["journals"].([]any) {
		kinds = append(kinds, j.(map[string]any)["kind"].(string))
	}
	require.Equal(t, []string{"charge.capture", "charge.refund", "charge.dispute", "charge.dispute_won"}, kinds)
	// Still disputed: no refund after a dispute, won or not.
	require.Equal(t, true, chargeOf(t, f.sk, won)["disputed"])
}

func TestDisputeRulesAndHostileInput(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := f.sk.CreateTransfer(p.charging(1000))
	chID := tr.LatestCharge.String()

	// Only captured, not fully refunded charges; known reasons.
	auth2 := f.sk.CreateTransfer(p.charging(1000).WithAuthorizationMode("manual"))
	requireError(t, f.sk.Post("/v1/test_helpers/charges/"+auth2.LatestCharge.String()+"/dispute", nil),
		http.StatusUnprocessableEntity, "invalid_state", "")
	full := f.sk.CreateTransfer(p.charging(1000))
	f.sk.CreateRefund(testenv.RefundOfTransfer(id(full)))
	requireError(t, f.sk.Post("/v1/test_helpers/charges/"+full.LatestCharge.String()+"/dispute", nil),
		http.StatusUnprocessableEntity, "charge_already_refunded", "")
	requireValidation(t, f.sk.Post("/v1/test_helpers/charges/"+chID+"/dispute", map[string]any{"reason": "bored"}), "reason")
	requireError(t, f.sk.Post("/v1/test_helpers/charges/"+uuid.NewString()+"/dispute", nil), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.sk.Post("/v1/test_helpers/charges/nope/dispute", nil), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.pk.Post("/v1/test_helpers/charges/"+chID+"/dispute", nil), http.StatusForbidden, "forbidden", "")
	requireError(t, f.live.Post("/v1/test_helpers/charges/"+chID+"/dispute", nil), http.StatusForbidden, "forbidden", "")

	d := f.sk.OpenDispute(chID, "")
	_, other := f.env.NewMerchant(auth.NewMerchant{Name: "Other"})
	stranger := f.env.Client(other.Sandbox.Secret)
	requireError(t, stranger.Get("/v1/disputes/"+id(d)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, stranger.Patch("/v1/disputes/"+id(d), map[string]any{"submit": true}), http.StatusNotFound, "resource_missing", "id")
	requireError(t, stranger.Post("/v1/test_helpers/charges/"+chID+"/dispute", nil), http.StatusNotFound, "resource_missing", "id")
	require.Empty(t, listOf(t, stranger, "/v1/disputes"))
	requireError(t, f.live.Get("/v1/disputes/"+id(d)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.pk.Get("/v1/disputes/"+id(d)), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Get("/v1/disputes"), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Patch("/v1/disputes/"+id(d), map[string]any{"submit": true}), http.StatusForbidden, "forbidden", "")

	// Huge and malformed evidence: every problem at once, nothing saved.
	errs := requireValidation(t, f.sk.Patch("/v1/disputes/"+id(d), map[string]any{"evidence": map[string]any{
		"uncategorized_text": strings.Repeat("x", 20_001), "customer_name": strings.Repeat("y", 501),
		"access_activity_log": "a\x00b"}}), "evidence.uncategorized_text", "evidence.customer_name", "evidence.access_activity_log")
	requireProblem(t, errs, "evidence.uncategorized_text", "must be at most 20000 characters")
	requireError(t, f.sk.Patch("/v1/disputes/"+id(d), map[string]any{"evidence": "text"}), http.StatusBadRequest, "parameter_invalid", "evidence")
	requireError(t, f.sk.Patch("/v1/disputes/"+id(d), map[string]any{"submit": "yes"}), http.StatusBadRequest, "parameter_invalid", "submit")
	requireError(t, f.sk.Patch("/v1/disputes/"+id(d), strings.Repeat("x", 2<<20)), http.StatusBadRequest, "invalid_json", "")
	got := f.sk.Get("/v1/disputes/" + id(d))
	require.Equal(t, http.StatusOK, got.Status)
	require.Equal(t, 2, got.Statements, "credential and one read")
	require.Equal(t, "needs_response", got.JSON()["status"])
	require.Nil(t, got.JSON()["evidence"].(map[string]any)["uncategorized_text"])
	// The largest evidence that fits is taken.
	r := f.sk.Patch("/v1/disputes/"+id(d), map[string]any{"submit": false, "evidence": map[string]any{
		"uncategorized_text": strings.Repeat("é", 20_000)}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
}

func TestDisputeListFilters(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	var made []*models.Dispute
	var transfers []*models.Transfer
	for range 3 {
		tr := f.sk.CreateTransfer(p.charging(1000))
		transfers = append(transfers, tr)
		made = append(made, f.sk.OpenDispute(tr.LatestCharge.String(), ""))
	}
	require.Equal(t, []string{id(made[2]), id(made[1]), id(made[0])}, ids(listOf(t, f.sk, "/v1/disputes")), "newest first")
	require.Equal(t, []string{id(made[1])}, ids(listOf(t, f.sk, "/v1/disputes?charge="+transfers[1].LatestCharge.String())))
	require.Equal(t, []string{id(made[0])}, ids(listOf(t, f.sk, "/v1/disputes?transfer="+id(transfers[0]))))
	require.Empty(t, listOf(t, f.sk, "/v1/disputes?charge_intent="+uuid.NewString()))
	requireValidation(t, f.sk.Get("/v1/disputes?charge=nope"), "charge")
	r := f.sk.Get("/v1/disputes?per_page=2")
	require.Equal(t, true, r.JSON()["meta"].(map[string]any)["has_more"])
	require.Equal(t, 2, r.Statements)
}

// A refund and a dispute racing on one charge: whichever locks the charge
// first wins, and together they never take more than was captured.
func TestRefundRacingADisputeOnOneCharge(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	for range 6 {
		tr := f.sk.CreateTransfer(p.charging(1000))
		chID := tr.LatestCharge.String()
		var wg sync.WaitGroup
		var refundStatus, disputeStatus int
		wg.Add(2)
		go func() {
			defer wg.Done()
			refundStatus = f.sk.Post("/v1/refunds", map[string]any{"transfer": id(tr), "amount": 600}).Status
		}()
		go func() {
			defer wg.Done()
			disputeStatus = f.sk.Post("/v1/test_helpers/charges/"+chID+"/dispute", nil).Status
		}()
		wg.Wait()
		require.Equal(t, http.StatusCreated, disputeStatus, "a partial refund leaves something to dispute")
		ch := f.sk.Get("/v1/charges/" + chID).JSON()
		disputes := listOf(t, f.sk, "/v1/disputes?charge="+chID)
		require.Len(t, disputes, 1)
		if refundStatus == http.StatusCreated {
			require.Equal(t, int64(600), num(ch["amount_refunded"]))
			require.Equal(t, int64(400), num(disputes[0]["amount_cents"]), "the dispute came second")
		} else {
			require.Equal(t, http.StatusUnprocessableEntity, refundStatus)
			require.Equal(t, int64(0), num(ch["amount_refunded"]))
			require.Equal(t, int64(1000), num(disputes[0]["amount_cents"]))
		}
	}
	books := requireBooksHold(t, f)
	require.Equal(t, int64(0), books["card_clearing"], "every captured cent went back by a refund or a dispute")
}

// Disputes racing to open on one charge: exactly one opens (the charge's
// lock, and a unique index behind it); the others are refused whole.
func TestConcurrentDisputesOpenOnce(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := f.sk.CreateTransfer(p.charging(1000))
	chID := tr.LatestCharge.String()
	const n = 8
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = f.sk.Post("/v1/test_helpers/charges/"+chID+"/dispute", nil).Status
		}()
	}
	wg.Wait()
	opened := 0
	for _, s := range statuses {
		require.Contains(t, []int{http.StatusCreated, http.StatusUnprocessableEntity}, s)
		if s == http.StatusCreated {
			opened++
		}
	}
	require.Equal(t, 1, opened)
	require.Len(t, listOf(t, f.sk, "/v1/disputes"), 1)
	require.Equal(t, int64(0), requireBooksHold(t, f)["card_clearing"], "withdrawn once")
}

func TestDisputeWritesRunAFixedNumberOfStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := f.sk.CreateTransfer(p.charging(1000))
	r := f.sk.Post("/v1/test_helpers/charges/"+tr.LatestCharge.String()+"/dispute", nil)
	require.Equal(t, http.StatusCreated, r.Status)
	// credential, the charge's transfer, transfer lock, charge lock,
	// insert, charge update, ledger accounts, journal, entries, events.
	require.Equal(t, 10, r.Statements, "open")
	d := r.JSON()
	r = f.sk.Patch("/v1/disputes/"+id(d), map[string]any{"submit": false, "evidence": map[string]any{"customer_name": "Ada"}})
	require.Equal(t, http.StatusOK, r.Status)
	// credential, lock, update, events.
	require.Equal(t, 4, r.Statements, "save evidence")
	r = f.sk.Patch("/v1/disputes/"+id(d), map[string]any{"evidence": map[string]any{"uncategorized_text": "winning_evidence"}})
	require.Equal(t, http.StatusOK, r.Status)
	// The same four; the decision job's insert joins the transaction
	// through pgx (River), which the statement counter does not see.
	require.Equal(t, 4, r.Statements, "submit")
}

// A charge intent's charge (the rows a charge intent writes, inserted
// here: charge intents are not served yet) is disputed like a transfer's;
// the dispute's charge_intent names the intent.
func TestDisputeOfAChargeIntentsCharge(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	ci := f.sk.CreateChargeIntent(newIntentPayer(t, f.sk, "4242424242424242").intent(2000, nil))
	require.Equal(t, models.ChargeIntentSucceeded, ci.Status)
	ch := ci.LatestCharge
	opened := f.sk.Post("/v1/test_helpers/charges/"+id(ch)+"/dispute", map[string]any{"reason": "unrecognized"})
	require.Equal(t, http.StatusCreated, opened.Status, string(opened.Body))
	d := opened.JSON()
	require.Equal(t, map[string]any{"id": id(ci), "object": "charge_intent"}, d["charge_intent"])
	require.Nil(t, d["transfer"])
	require.Equal(t, "USD", d["amount_currency"], "uppercase, whatever the charge's case")
	require.Equal(t, int64(2000), num(d["amount_cents"]))
	require.Equal(t, *ch.AuthorizationCode, d["authorization_code"])
	require.Equal(t, []string{id(d)}, ids(listOf(t, f.sk, "/v1/disputes?charge_intent="+id(ci))))
	requireError(t, f.sk.Post("/v1/refunds", map[string]any{"charge_intent": id(ci)}),
		http.StatusUnprocessableEntity, "charge_disputed", "")
	require.Equal(t, true, f.sk.Get("/v1/charges/" + id(ch)).JSON()["disputed"])
	books := requireBooksHold(t, f)
	require.Equal(t, int64(0), books["card_clearing"], "the capture debited clearing, the dispute credited it back")

	// The dispute test card opens its own chargeback when the intent is
	// captured, as a transfer's capture does.
	ci = f.sk.CreateChargeIntent(newIntentPayer(t, f.sk, "4000000000000259").intent(1500, nil))
	require.Equal(t, models.ChargeIntentSucceeded, ci.Status)
	require.Equal(t, true, ci.LatestCharge.Disputed)
	require.Len(t, listOf(t, f.sk, "/v1/disputes?charge_intent="+id(ci)), 1)
	requireBooksHold(t, f)
}
