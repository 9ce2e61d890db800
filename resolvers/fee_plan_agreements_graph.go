package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// TransferFeePlan.billingAgreements is a page edge: the agreements binding
// every plan of a level in one statement per distinct page asked.
var (
	agreementPagesOfFeePlanLoader = loader("agreementPagesOfFeePlan", func(r *Resolver) batch[*op.Page[*models.BillingAgreement]] {
		return pagesOf(func(ctx context.Context, plans []string, a pageArgs) ([]op.Page[*models.BillingAgreement], []error) {
			return r.Svc.Money.Agreements.PagesOfFeePlans(ctx, plans, a.First, a.After)
		})
	})
	_ = pageEdge(agreementPagesOfFeePlanLoader, "billingAgreements", func(p *models.TransferFeePlan) string { return p.ID.String() })
)
