package rest_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

// The books of a whole tenant under everything that moves money at once:
// thousands of randomised, concurrent charges (immediate, authorized,
// declined, the dispute and refund-failure cards), captures, refunds
// (partial, full, over the limit, fraudulent), disputes and the issuer's
// decisions, top-ups, payouts and funding sweeps. Afterwards every journal
// balances, every balance equals the sum of its entries, the instant-payout
// balance was never overdrawn, and each party's balance is exactly what
// the API says happened: no cent created or lost.
func TestInvariantUnderRandomConcurrentMoneyMovement(t *testing.T) {
	t.Parallel()
	testenv.Long(t, "randomised concurrent money movement, hundreds of requests")
	f := setup(t)
	f.sk.StandardPricing()
	f.sk.PayoutPricing("absorb")
	cards := []string{"4242424242424242", "4000000000000259", "4000000000000002", "5555555555554444", "4000000000005126"}
	payers := make([]payer, 8)
	for i := range payers {
		a := f.sk.CreateAccount(testenvIndividualWithEmail(fmt.Sprintf("buyer%d@example.com", i)))
		payers[i] = payer{account: a, card: f.sk.CreateAccountCard(id(a), cards[i%len(cards)])}
	}
	recipient := payoutAccount(t, f, "card_receive")
	payoutCards := []*models.PaymentMethod{f.sk.CreateAccountCard(id(recipient), "4242424242424242"),
		f.sk.CreateAccountCard(id(recipient), "4000000000000002")}
	f.sk.CreateFundingSchedule(testenv.FundingSchedule(5000, "daily"))

	const workers, steps = 8, 250
	ctx := context.Background()
	scope := scopeOf(f)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var transfers []string
	pick := func(rng *rand.Rand) string {
		mu.Lock()
		defer mu.Unlock()
		if len(transfers) == 0 {
			return ""
		}
		return transfers[rng.IntN(len(transfers))]
	}
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 41))
			for range steps {
				switch rng.IntN(10) {
				case 0, 1: // a charge, maybe manual
					extra := map[string]any{}
					if rng.IntN(3) == 0 {
						extra["authorization_mode"] = "manual"
					}
					p := payers[rng.IntN(len(payers))]
					if r := f.sk.Post("/v1/transfers", p.charge(int64(200+rng.IntN(3000)), extra)); r.Status == http.StatusCreated {
						mu.Lock()
						transfers = append(transfers, id(r.JSON()))
						mu.Unlock()
					}
				case 2: // capture some or all
					if tr := pick(rng); tr != "" {
						body := map[string]any{}
						if rng.IntN(2) == 0 {
							body["amount_captured_cents"] = 150
						}
						f.sk.Post("/v1/transfers/"+tr+"/capture", body)
					}
				case 3: // a refund: some, all, too much, or fraudulent
					if tr := pick(rng); tr != "" {
						body := map[string]any{"transfer": tr}
						switch rng.IntN(4) {
						case 0:
						case 1:
							body["amount"] = 5000
						case 2:
							body["reason"], body["amount"] = "fraudulent", 1+rng.IntN(100)
						default:
							body["amount"] = 1 + rng.IntN(400)
						}
						f.sk.Post("/v1/refunds", body)
					}
				case 4: // a dispute, and the issuer deciding what is under review
					if tr := pick(rng); tr != "" {
						if got := f.sk.Get("/v1/transfers/" + tr).JSON(); got["latest_charge"] != nil {
							f.sk.Post("/v1/test_helpers/charges/"+got["latest_charge"].(string)+"/dispute", nil)
						}
					}
					for _, d := range listOf(t, f.sk, "/v1/disputes?per_page=5") {
						switch d["status"] {
						case "needs_response":
							text := []string{"winning_evidence", "losing_evidence"}[rng.IntN(2)]
							f.sk.Patch("/v1/disputes/"+id(d), map[string]any{"evidence": map[string]any{"uncategorized_text": text}})
						case "under_review":
							require.NoError(t, f.env.Services.Money.DecideDispute(ctx, scope, uuid.MustParse(id(d))))
						}
					}
				case 5, 6: // a top-up, its body key sometimes shared
					body := map[string]any{"amount": 200 + rng.IntN(3000)}
					if rng.IntN(2) == 0 {
						body["idempotency_key"] = fmt.Sprintf("k%d", rng.IntN(20))
					}
					f.sk.Post("/v1/payout_funding/top_ups", body)
				case 7, 8: // a payout, refused when the balance is short
					r := f.sk.Post("/v1/payouts", cardPayout(payoutCards[rng.IntN(len(payoutCards))], int64(100+rng.IntN(4000))))
					require.Contains(t, []int{http.StatusCreated, http.StatusUnprocessableEntity}, r.Status, string(r.Body))
				case 9: // time passes; the sweep funds what is due
					f.env.Clock.Advance(time.Duration(rng.IntN(6)) * time.Hour)
					_, err := f.env.Services.Funding.Sweep(ctx)
					require.NoError(t, err)
				}
			}
		}()
	}
	wg.Wait()
	for _, d := range listAll(t, f, "/v1/disputes") {
		if d["status"] == "under_review" {
			require.NoError(t, f.env.Services.Money.DecideDispute(ctx, scope, uuid.MustParse(id(d))))
		}
	}

	books := fundingBooks(t, f) // ledger.Audit: balanced journals, balances equal to their entries
	charges := requireBooksHold(t, f)

	// The charges' side, as the API tells it. The disputes are read in
	// one list and grouped by their charge (a list per charge cost a
	// request for each of its hundreds of charges); every dispute must
	// belong to one of the transfers' charges.
	disputesOf := byCharge(listAll(t, f, "/v1/disputes"))
	var captured, net, chargeFees, refunded, withdrawn, reinstated int64
	for _, tr := range listAll(t, f, "/v1/transfers") {
		if tr["latest_charge"] == nil {
			continue
		}
		ch := f.sk.Get("/v1/charges/" + tr["latest_charge"].(string)).JSON()
		require.LessOrEqual(t, num(ch["amount_refunded"]), num(ch["amount_captured"]), "never refunded beyond the capture")
		if tr["status"] == "succeeded" || tr["status"] == "refunded" {
			captured += num(tr["amount_captured"])
			net += num(tr["net_amount"])
			chargeFees += num(tr["total_fees"])
		}
		refunded += num(ch["amount_refunded"])
		for _, d := range disputesOf[id(ch)] {
			require.LessOrEqual(t, num(d["amount_cents"])+num(ch["amount_refunded"]), num(ch["amount_captured"]))
			withdrawn += num(d["amount_cents"])
			if d["status"] == "won" {
				reinstated += num(d["amount_cents"])
			}
		}
		delete(disputesOf, id(ch))
	}
	require.Empty(t, disputesOf, "every dispute is of a transfer's charge")
	// The funding side.
	var funded, paid, payoutFees int64
	for _, e := range listAll(t, f, "/v1/payout_funding/entries") {
		funded += num(e["amount"])
	}
	for _, p := range listAll(t, f, "/v1/payouts") {
		if p["status"] == "succeeded" {
			paid += num(p["amount"])
			payoutFees += num(p["merchant_fee"])
		}
	}
	t.Logf("captured %d, refunded %d, disputed %d (won back %d), funded %d, paid out %d",
		captured, refunded, withdrawn, reinstated, funded, paid)
	require.Positive(t, captured)
	require.Positive(t, refunded)
	require.Positive(t, withdrawn)
	require.Positive(t, paid)

	require.Equal(t, captured-refunded-withdrawn+reinstated, charges["card_clearing"])
	require.Equal(t, -net+refunded+withdrawn-reinstated, books["merchant"])
	require.Equal(t, funded, books["funding_clearing"], "every funding journaled")
	require.Equal(t, -(funded - paid - payoutFees), books["instant_payout"], "funded = paid out + fees + left")
	require.LessOrEqual(t, books["instant_payout"], int64(0), "the instant-payout balance is never overdrawn")
	require.Equal(t, -paid, books["payout_clearing"])
	require.Equal(t, -(chargeFees + payoutFees), books["platform_fees"], "the plans' fees of charges and payouts")
}
