package rest_test

import (
	"context"
	"net/http"
	"sort"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// N drafts issued at once get the numbers 1 to N, each once; issues that
// fail after taking a number (charged automatically, nothing to charge)
// give it back, so the sequence keeps no gap.
func TestConcurrentIssuesNumberWithoutGaps(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := f.sk.CreateInvoicePayer("")
	const n, failing = 10, 4
	drafts := make([]string, 0, n+failing)
	for range n {
		drafts = append(drafts, id(f.sk.CreateInvoice(p.Invoice("request_payment", 1))))
	}
	for range failing {
		drafts = append(drafts, id(f.sk.CreateInvoice(p.Invoice("charge_automatically", 1))))
	}
	statuses := make([]int, len(drafts))
	numbers := make([]string, len(drafts))
	var wg sync.WaitGroup
	for i, d := range drafts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := f.sk.Post("/v1/invoices/"+d+"/issue", nil)
			statuses[i] = r.Status
			if r.Status == http.StatusOK {
				numbers[i], _ = r.JSON()["invoice_number"].(string)
			}
		}()
	}
	wg.Wait()
	var got []string
	for i := range drafts {
		if i < n {
			require.Equal(t, http.StatusOK, statuses[i], "issue %d", i)
			got = append(got, numbers[i])
		} else {
			require.Equal(t, http.StatusUnprocessableEntity, statuses[i], "issue %d has nothing to charge", i)
		}
	}
	sort.Strings(got)
	want := []string{"INV-000001", "INV-000002", "INV-000003", "INV-000004", "INV-000005", "INV-000006",
		"INV-000007", "INV-000008", "INV-000009", "INV-000010"}
	require.Equal(t, want, got)

	// The next issue takes the next number.
	f.sk.CreateCard(id(p.Customer), testenv.Visa)
	next := invoiceAction(t, f.sk, drafts[n], "issue", nil)
	require.Equal(t, "INV-000011", next["invoice_number"])
}

// Pays of one invoice racing each other bill it once: one charges, the
// others find it paid.
func TestConcurrentPaysBillOnce(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := f.sk.CreateInvoicePayer(testenv.Visa)
	inv := f.sk.CreateInvoice(p.Invoice("request_payment", 2))
	invoiceAction(t, f.sk, id(inv), "issue", nil)
	const n = 8
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = f.sk.Post("/v1/invoices/"+id(inv)+"/pay", nil).Status
		}()
	}
	wg.Wait()
	paid := 0
	for _, s := range statuses {
		if s == http.StatusOK {
			paid++
		} else {
			require.Equal(t, http.StatusUnprocessableEntity, s)
		}
	}
	require.Equal(t, 1, paid)
	var charges int
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT count(*) FROM charges WHERE invoice_id = ?", id(inv)).
		Scan(context.Background(), &charges))
	require.Equal(t, 1, charges, "the invoice is charged once")
	require.Len(t, listEvents(t, f.sk, "invoice.paid"), 1)
}

// The database refuses a total that is not the sum of the lines, whatever
// wrote it.
func TestInvoiceTotalIsTheSumOfItsLines(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.sk.CreateInvoicePayer("")
	inv := f.sk.CreateInvoice(p.Invoice("request_payment", 3))
	require.Equal(t, int64(4500), inv.Total)
	ctx := context.Background()
	_, err := f.env.DB.Bun.ExecContext(ctx, "UPDATE invoices SET total = total + 1 WHERE id = ?", id(inv))
	require.ErrorContains(t, err, "is not the sum of its lines")
	_, err = f.env.DB.Bun.ExecContext(ctx, "UPDATE invoice_line_items SET quantity = 4 WHERE invoice_id = ?", id(inv))
	require.ErrorContains(t, err, "is not the sum of its lines")
	_, err = f.env.DB.Bun.ExecContext(ctx, "DELETE FROM invoice_line_items WHERE invoice_id = ?", id(inv))
	require.ErrorContains(t, err, "is not the sum of its lines")
	require.Equal(t, int64(4500), num(f.sk.Get("/v1/invoices/" + id(inv)).JSON()["total"]))
}
