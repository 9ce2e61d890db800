package invoices

import (
	"strconv"

	"github.com/frame-oss/payments-server/internal/domain/amount"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
)

// The bound on money in billing (docs/billing.md, "The bound on money"):
// a line's amount is its quantity times its unit price and an invoice's
// total the sum of its lines, each computed exactly and refused beyond
// models.MaxAmount before anything is stored, naming the member that took
// it there.

// boundLine sets li's amount, quantity × unit price, refusing a product
// beyond the bound as a problem of path (the member that set it).
func BoundLine(li *models.InvoiceLineItem, path string) error {
	n, ok := amount.Mul(int64(li.Quantity), li.UnitAmountCents)
	if !ok {
		return apierr.FieldError(path, "gives the line an amount (quantity × unit price) beyond "+MaxAmountText)
	}
	li.Amount = n
	return nil
}

// boundTotal is the sum of the lines' amounts, refused beyond the bound as
// a problem of path.
func BoundTotal(lines []*models.InvoiceLineItem, path string) (int64, error) {
	amounts := make([]int64, len(lines))
	for i, li := range lines {
		amounts[i] = li.Amount
	}
	total, ok := amount.Sum(amounts...)
	if !ok {
		return 0, apierr.FieldError(path, "gives the invoice a total beyond "+MaxAmountText)
	}
	return total, nil
}

// maxAmountText names the bound in messages.
var MaxAmountText = "the largest amount, " + strconv.FormatInt(models.MaxAmount, 10)
