package rest_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// The invariant of refunds and disputes: a randomised, concurrent mix of
// charges (immediate, authorized, declined, the dispute card), captures,
// refunds (partial, full, over the limit, fraudulent), disputes, evidence
// and the issuer's decisions leaves every journal balanced, every balance
// equal to the sum of its entries, no charge refunded beyond its capture
// nor disputed beyond what its refunds left, and the clearing and
// merchant balances equal to what the transfers, refunds and disputes
// say.
func TestInvariantUnderRandomConcurrentRefundsAndDisputes(t *testing.T) {
	t.Parallel()
	testenv.Long(t, "randomised concurrent refunds and disputes")
	f := setup(t)
	f.sk.StandardPricing()
	cards := []string{"4242424242424242", "4000000000000259", "4000000000000002", "5555555555554444", "4000000000005126"}
	payers := make([]payer, 8)
	for i := range payers {
		a := f.sk.CreateAccount(testenvIndividualWithEmail(fmt.Sprintf("buyer%d@example.com", i)))
		payers[i] = payer{account: a, card: f.sk.CreateAccountCard(id(a), cards[i%len(cards)])}
	}
	const workers, steps = 6, 60
	ctx := context.Background()
	scope := scopeOf(f)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var transfers []map[string]any
	pick := func(rng *rand.Rand) map[string]any {
		mu.Lock()
		defer mu.Unlock()
		if len(transfers) == 0 {
			return nil
		}
		return transfers[rng.IntN(len(transfers))]
	}
	// Every kind of outcome happens at least once, whatever the workers
	// pick: a refund, a failed refund, a dispute (the dispute card).
	for i, body := range []map[string]any{{"amount": 100}, {"amount": 100}, nil} {
		tr := createTransfer(t, f.sk, payers[[]int{0, 4, 1}[i]].charge(1000, nil))
		transfers = append(transfers, tr)
		if body != nil {
			refund(t, f, tr, body)
		}
	}
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 17))
			for range steps {
				switch rng.IntN(8) {
				case 0, 1: // a charge, maybe manual
					extra := map[string]any{}
					if rng.IntN(3) == 0 {
						extra["authorization_mode"] = "manual"
					}
					p := payers[rng.IntN(len(payers))]
					r := f.sk.Post("/v1/transfers", p.charge(int64(200+rng.IntN(3000)), extra))
					if r.Status == http.StatusCreated {
						mu.Lock()
						transfers = append(transfers, r.JSON())
						mu.Unlock()
					}
				case 2: // capture some or all
					if tr := pick(rng); tr != nil {
						body := map[string]any{}
						if rng.IntN(2) == 0 {
							body["amount_captured_cents"] = 150
						}
						f.sk.Post("/v1/transfers/"+id(tr)+"/capture", body)
					}
				case 3, 4: // a refund: some, all, or too much
					if tr := pick(rng); tr != nil {
						body := map[string]any{"transfer": id(tr)}
						switch rng.IntN(4) {
						case 0:
						case 1:
							body["amount"] = 5000
						case 2:
							body["reason"] = "fraudulent"
							body["amount"] = 1 + rng.IntN(100)
						default:
							body["amount"] = 1 + rng.IntN(400)
						}
						f.sk.Do(http.MethodPost, "/v1/refunds", body, withKey(fmt.Sprintf("rf-%d-%d", w, rng.IntN(60))) /* keys repeat: some replays, some mismatches */)
					}
				case 5: // a dispute
					if tr := pick(rng); tr != nil && tr["latest_charge"] != nil {
						f.sk.Post("/v1/test_helpers/charges/"+tr["latest_charge"].(string)+"/dispute", nil)
					}
				case 6: // evidence, submitted or not
					list := listOf(t, f.sk, "/v1/disputes?per_page=20")
					if len(list) > 0 {
						d := list[rng.IntN(len(list))]
						text := []string{"winning_evidence", "losing_evidence", "receipt attached"}[rng.IntN(3)]
						f.sk.Patch("/v1/disputes/"+id(d), map[string]any{"submit": rng.IntN(3) > 0,
							"evidence": map[string]any{"uncategorized_text": text}})
					}
				case 7: // the issuer decides whatever is under review (the job's work, concurrently)
					list := listOf(t, f.sk, "/v1/disputes?per_page=20")
					for _, d := range list {
						if d["status"] == "under_review" {
							require.NoError(t, f.env.Services.Money.DecideDispute(ctx, scope, uuid.MustParse(id(d))))
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	// Decide what is still under review, so the books are final.
	for _, d := range listAll(t, f, "/v1/disputes") {
		if d["status"] == "under_review" {
			require.NoError(t, f.env.Services.Money.DecideDispute(ctx, scope, uuid.MustParse(id(d))))
		}
	}

	books := requireBooksHold(t, f)
	// What the API says happened. The refunds and disputes are read in
	// one list each and grouped by their charge (byCharge), not listed
	// charge by charge; each must belong to one of the transfers' charges.
	refundsOf, disputesOf := byCharge(listAll(t, f, "/v1/refunds")), byCharge(listAll(t, f, "/v1/disputes"))
	var captured, net, refunded, withdrawn, reinstated int64
	var charges, disputed, failedRefunds int
	for _, tr := range listAll(t, f, "/v1/transfers") {
		if tr["latest_charge"] == nil {
			continue
		}
		ch := f.sk.Get("/v1/charges/" + tr["latest_charge"].(string)).JSON()
		charges++
		require.LessOrEqual(t, num(ch["amount_refunded"]), num(ch["amount_captured"]), "never refunded beyond the capture")
		require.Equal(t, num(tr["amount_captured"]), num(ch["amount_captured"]))
		require.Equal(t, num(ch["amount_refunded"]) == num(ch["amount_captured"]) && num(ch["amount_captured"]) > 0, ch["refunded"])
		if tr["status"] == "succeeded" || tr["status"] == "refunded" {
			captured += num(tr["amount_captured"])
			net += num(tr["net_amount"])
			require.Equal(t, ch["refunded"] == true, tr["status"] == "refunded", "a transfer is refunded when its charge is")
		}
		refunded += num(ch["amount_refunded"])
		var sum int64
		for _, r := range refundsOf[id(ch)] {
			if r["status"] == "succeeded" {
				sum += num(r["amount"])
			} else {
				failedRefunds++
			}
		}
		require.Equal(t, num(ch["amount_refunded"]), sum, "the charge's refunds add up to its amount_refunded")
		ds := disputesOf[id(ch)]
		delete(refundsOf, id(ch))
		delete(disputesOf, id(ch))
		require.LessOrEqual(t, len(ds), 1)
		require.Equal(t, len(ds) == 1, ch["disputed"] == true)
		if len(ds) == 1 {
			disputed++
			d := ds[0]
			require.LessOrEqual(t, num(d["amount_cents"])+num(ch["amount_refunded"]), num(ch["amount_captured"]),
				"refunds and the dispute never take more than was captured")
			withdrawn += num(d["amount_cents"])
			if d["status"] == "won" {
				reinstated += num(d["amount_cents"])
			}
			require.Contains(t, []any{"needs_response", "won", "lost"}, d["status"])
		}
	}
	require.Empty(t, refundsOf, "every refund is of a transfer's charge")
	require.Empty(t, disputesOf, "every dispute is of a transfer's charge")
	require.Equal(t, captured-refunded-withdrawn+reinstated, books["card_clearing"])
	require.Equal(t, -net+refunded+withdrawn-reinstated, books["merchant"])
	t.Logf("%d charges, %d disputed, refunded %d, %d failed refunds", charges, disputed, refunded, failedRefunds)
	require.Positive(t, disputed)
	require.Positive(t, refunded)
	require.Positive(t, failedRefunds)

	// Every refund and dispute journal names its charge and balances.
	var unnamed int
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT count(*) FROM ledger_journals
		WHERE ref_type IN ('refund', 'dispute') AND charge_id IS NULL`).Scan(ctx, &unnamed))
	require.Zero(t, unnamed)
	var mismatched int
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT count(*) FROM refunds r JOIN ledger_journals j
		ON j.merchant_id = r.merchant_id AND j.ref_id = r.id AND j.ref_type = 'refund'
		WHERE r.status <> 'succeeded' OR j.charge_id <> r.charge_id`).Scan(ctx, &mismatched))
	require.Zero(t, mismatched, "only succeeded refunds move money, on their own charge")
}

// byCharge groups refunds or disputes by the charge they name.
func byCharge(list []map[string]any) map[string][]map[string]any {
	out := map[string][]map[string]any{}
	for _, obj := range list {
		out[obj["charge"].(string)] = append(out[obj["charge"].(string)], obj)
	}
	return out
}

// listAll reads every page of a list.
func listAll(t *testing.T, f *fixture, path string) []map[string]any {
	t.Helper()
	sep := "?"
	for _, c := range path {
		if c == '?' {
			sep = "&"
		}
	}
	var out []map[string]any
	for page := 1; ; page++ {
		list := listOf(t, f.sk, fmt.Sprintf("%s%sper_page=100&page=%d", path, sep, page))
		out = append(out, list...)
		if len(list) < 100 {
			return out
		}
	}
}
