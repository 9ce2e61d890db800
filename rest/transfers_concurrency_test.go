package rest_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestPromotionCodesDiscountTheCharge(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	coupon := f.sk.CreateCoupon(testenv.AmountOffCoupon("2.00"))
	code := f.sk.CreatePromotionCode(testenv.PromotionCode(id(coupon)).WithCode("TWOOFF"))
	discounted := p.charging(1000)
	discounted.PromotionCodes = []string{"twooff"}
	tr := f.sk.CreateTransfer(discounted)
	require.Equal(t, int64(800), tr.Amount, "the amount charged is after the discount")
	require.Equal(t, int64(53), tr.TotalFees) // 23.2 → 23, + 30
	require.Equal(t, int64(747), tr.NetAmount)
	discounts := listOf(t, f.sk, "/v1/discounts?account_id="+id(p.account))
	require.Len(t, discounts, 1)
	require.Equal(t, "Transfer", discounts[0]["discountable_type"])
	require.Equal(t, float64(1), f.sk.Get("/v1/promotion_codes/" + id(code)).JSON()["times_redeemed"])
	// An unknown code refuses the whole charge, and nothing is redeemed.
	requireError(t, f.sk.Post("/v1/transfers", p.charge(1000, map[string]any{"promotion_codes": []any{"TWOOFF", "NOPE"}})),
		http.StatusUnprocessableEntity, "promotion_code_invalid", "promotion_codes")
	require.Equal(t, float64(1), f.sk.Get("/v1/promotion_codes/" + id(code)).JSON()["times_redeemed"])
	require.Len(t, listOf(t, f.sk, "/v1/transfers"), 1)
	requireBooksHold(t, f)
}

// A charge retried with its Idempotency-Key, sequentially or concurrently,
// runs once: one transfer, one redemption, one journal.
func TestRetriedChargeNeverRunsTwice(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	coupon := f.sk.CreateCoupon(testenv.AmountOffCoupon("1.00"))
	code := f.sk.CreatePromotionCode(testenv.PromotionCode(id(coupon)))
	body := p.charge(1000, map[string]any{"promotion_codes": []any{code.Code}})

	first := f.sk.Do(http.MethodPost, "/v1/transfers", body, withKey("charge-1"))
	require.Equal(t, http.StatusCreated, first.Status, string(first.Body))
	again := f.sk.Do(http.MethodPost, "/v1/transfers", body, withKey("charge-1"))
	require.Equal(t, http.StatusCreated, again.Status)
	require.JSONEq(t, string(first.Body), string(again.Body))
	requireError(t, f.sk.Do(http.MethodPost, "/v1/transfers", p.charge(999, nil), withKey("charge-1")),
		http.StatusBadRequest, "idempotency_error", "Idempotency-Key")

	const n = 8
	statuses := make([]int, n)
	bodies := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := f.sk.Do(http.MethodPost, "/v1/transfers", body, withKey("charge-2"))
			statuses[i], bodies[i] = r.Status, string(r.Body)
		}()
	}
	wg.Wait()
	var created string
	for i, s := range statuses {
		require.Contains(t, []int{http.StatusCreated, http.StatusConflict}, s, bodies[i])
		if s == http.StatusCreated {
			if created == "" {
				created = bodies[i]
			}
			require.JSONEq(t, created, bodies[i], "every success is the one transfer")
		}
	}
	require.NotEmpty(t, created)
	require.Len(t, listOf(t, f.sk, "/v1/transfers"), 2)
	require.Equal(t, float64(2), f.sk.Get("/v1/promotion_codes/" + id(code)).JSON()["times_redeemed"])
	books := requireBooksHold(t, f)
	require.Equal(t, int64(2*900), books["card_clearing"])
}

// Charges racing for a promotion code limited to 3 redeem it exactly 3
// times; the others are refused whole.
func TestConcurrentChargesHoldPromotionCodeLimits(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	coupon := f.sk.CreateCoupon(testenv.AmountOffCoupon("1.00"))
	code := f.sk.CreatePromotionCode(testenv.PromotionCode(id(coupon)).WithMaxRedemptions(3))
	payers := make([]payer, 8)
	for i := range payers {
		payers[i] = newPayer(t, f.sk, "4242424242424242")
	}
	var wg sync.WaitGroup
	statuses := make([]int, len(payers))
	for i, p := range payers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = f.sk.Post("/v1/transfers", p.charge(1000, map[string]any{"promotion_codes": []any{code.Code}})).Status
		}()
	}
	wg.Wait()
	ok := 0
	for _, s := range statuses {
		require.Contains(t, []int{http.StatusCreated, http.StatusUnprocessableEntity}, s)
		if s == http.StatusCreated {
			ok++
		}
	}
	require.Equal(t, 3, ok)
	require.Equal(t, float64(3), f.sk.Get("/v1/promotion_codes/" + id(code)).JSON()["times_redeemed"])
	require.Len(t, listOf(t, f.sk, "/v1/transfers"), 3)
	require.Equal(t, int64(3*900), requireBooksHold(t, f)["card_clearing"])
}

// The invariant: a randomised, concurrent sequence of charges (immediate,
// authorized, declined), captures, cancels and promotion-code redemptions,
// of transfers and of charge intents (with partial captures and
// void_remaining) interleaved, leaves every journal balanced, every
// balance equal to the sum of its entries, the clearing balance equal to
// what succeeded transfers and charge intents captured, and no promotion
// code over its limit.
func TestInvariantUnderRandomConcurrentMoney(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	coupon := f.sk.CreateCoupon(testenv.AmountOffCoupon("0.50"))
	code := f.sk.CreatePromotionCode(testenv.PromotionCode(id(coupon)).WithMaxRedemptions(5))
	cards := []string{"4242424242424242", "4000000000000002", "4000000000009995", "5555555555554444"}
	payers := make([]payer, 6)
	for i := range payers {
		payers[i] = newPayer(t, f.sk, cards[i%len(cards)])
	}
	const workers, steps = 6, 12
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 11))
			var mine, intents []string
			for range steps {
				switch rng.IntN(7) {
				case 0, 1: // a charge, maybe manual, maybe with the code
					extra := map[string]any{}
					if rng.IntN(2) == 0 {
						extra["authorization_mode"] = "manual"
					}
					if rng.IntN(3) == 0 {
						extra["promotion_codes"] = []any{code.Code}
					}
					p := payers[rng.IntN(len(payers))]
					r := f.sk.Do(http.MethodPost, "/v1/transfers", p.charge(int64(100+rng.IntN(5000)), extra),
						withKey(fmt.Sprintf("w%d-%d", w, rng.IntN(4)))) // keys repeat: some are replays or mismatches
					if r.Status == http.StatusCreated {
						mine = append(mine, id(r.JSON()))
					}
				case 2: // capture some or all
					if len(mine) > 0 {
						body := map[string]any{}
						if rng.IntN(2) == 0 {
							body["amount_captured_cents"] = 100
						}
						f.sk.Post("/v1/transfers/"+mine[rng.IntN(len(mine))]+"/capture", body)
					}
				case 3:
					if len(mine) > 0 {
						f.sk.Post("/v1/transfers/"+mine[rng.IntN(len(mine))]+"/cancel", nil)
					}
				case 4: // a charge intent of the same payers, maybe manual, maybe with the code
					p := payers[rng.IntN(len(payers))]
					body := map[string]any{"amount": 100 + rng.IntN(5000), "currency": "usd", "account": id(p.account),
						"payment_method": id(p.card), "confirm": rng.IntN(4) > 0}
					if rng.IntN(2) == 0 {
						body["authorization_mode"] = "manual"
					}
					if rng.IntN(3) == 0 {
						body["promotion_codes"] = []any{code.Code}
					}
					r := f.sk.Do(http.MethodPost, "/v1/charge_intents", body, withKey(fmt.Sprintf("ci-w%d-%d", w, rng.IntN(4))))
					if r.Status == http.StatusCreated {
						intents = append(intents, id(r.JSON()))
					}
				case 5: // capture some of an intent, or all that is left
					if len(intents) > 0 {
						body := map[string]any{}
						if rng.IntN(2) == 0 {
							body["amount_captured_cents"] = 50 + rng.IntN(100)
						}
						f.sk.Post("/v1/charge_intents/"+intents[rng.IntN(len(intents))]+"/capture", body)
					}
				case 6: // confirm, cancel or void what remains
					if len(intents) > 0 {
						action := []string{"confirm", "cancel", "void_remaining"}[rng.IntN(3)]
						f.sk.Post("/v1/charge_intents/"+intents[rng.IntN(len(intents))]+"/"+action, nil)
					}
				}
			}
		}()
	}
	wg.Wait()
	books := requireBooksHold(t, f)
	var captured, net, fees int64
	for page := 1; ; page++ {
		r := f.sk.Get(fmt.Sprintf("/v1/transfers?per_page=100&page=%d", page))
		list := r.JSON()["data"].([]any)
		for _, o := range list {
			tr := o.(map[string]any)
			if tr["status"] == "succeeded" {
				captured += num(tr["amount_captured"])
				net += num(tr["net_amount"])
				fees += num(tr["total_fees"])
			} else {
				require.Zero(t, num(tr["amount_captured"]))
			}
		}
		if len(list) < 100 {
			break
		}
	}
	var intentCaptured, intentNet int64
	for page := 1; ; page++ {
		list := listOf(t, f.sk, fmt.Sprintf("/v1/charge_intents?per_page=100&page=%d", page))
		for _, ci := range list {
			c, amount, voided := num(ci["amount_captured"]), num(ci["amount"]), num(ci["amount_voided"])
			require.LessOrEqual(t, c+voided, amount)
			intentCaptured += c
			ch, _ := ci["latest_charge"].(map[string]any)
			switch ci["status"] {
			case "succeeded":
				require.Equal(t, amount, c+voided, "a succeeded intent captured or released everything")
			case "requires_capture", "canceled":
			default:
				require.Zero(t, c)
			}
			if ch == nil {
				require.Zero(t, c)
				continue
			}
			require.Equal(t, c, num(ch["amount_captured"]), "the charge captured what the intent did")
			intentNet += num(ch["net_amount"])
		}
		if len(list) < 100 {
			break
		}
	}
	require.Equal(t, captured+intentCaptured, books["card_clearing"])
	require.Equal(t, -net-intentNet, books["merchant"])
	require.Equal(t, -fees-(intentCaptured-intentNet), books["platform_fees"]) // deduct: the fees are what the payee did not get
	got := f.sk.Get("/v1/promotion_codes/" + id(code)).JSON()
	require.LessOrEqual(t, got["times_redeemed"].(float64), float64(5))
	var discounts int
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT count(*) FROM discounts").Scan(context.Background(), &discounts))
	require.Equal(t, int(got["times_redeemed"].(float64)), discounts, "one discount per redemption")

	// Every transfer the processor answered names exactly one charge that
	// captured what the transfer did, and a charge's capture journal moved
	// exactly what it captured.
	var mismatched int
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT count(*) FROM transfers t
		LEFT JOIN charges c ON c.merchant_id = t.merchant_id AND c.id = t.charge_id
		WHERE (t.status IN ('succeeded', 'failed', 'requires_capture') OR (t.status = 'canceled' AND c.id IS NOT NULL))
		  AND (c.id IS NULL OR c.transfer_id <> t.id OR c.amount_captured <> t.amount_captured
		       OR (c.status = 'failed') <> (t.status = 'failed'))`).Scan(context.Background(), &mismatched))
	require.Zero(t, mismatched)
	var chargeCaptured int64
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT coalesce(sum(e.amount), 0) FROM ledger_entries e
		JOIN ledger_journals j ON j.merchant_id = e.merchant_id AND j.id = e.journal_id
		WHERE j.charge_id IS NOT NULL AND j.kind = 'charge.capture' AND e.party = 'card_clearing'`).Scan(context.Background(), &chargeCaptured))
	require.Equal(t, captured+intentCaptured, chargeCaptured, "the charges' journals hold every captured cent")
}
