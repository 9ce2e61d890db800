package resolvers

import (
	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
)

// Account.disputes and Customer.disputes are page edges: the page each
// payer's field asks (first, after, the dispute list's filters) for all
// the payers of a level in one statement per distinct set of arguments.
var disputePagesOfAccountLoader, disputePagesOfCustomerLoader = payerPageEdges[payerDisputesArgs]("dispute", "disputes",
	func(r *Resolver) *money.Disputes { return r.Svc.Money.Disputes },
	(*money.Disputes).PagesOfAccounts, (*money.Disputes).PagesOfCustomers)

// payerDisputesArgs are the arguments of Account.disputes and
// Customer.disputes.
type payerDisputesArgs struct {
	pageArgs
	Charge       *string `json:"charge"`
	ChargeIntent *string `json:"chargeIntent"`
	Transfer     *string `json:"transfer"`
}

func (a payerDisputesArgs) filter() money.DisputeFilter {
	return money.DisputeFilter{Charge: a.Charge, ChargeIntent: a.ChargeIntent, Transfer: a.Transfer}
}

func disputeEdge(cursor string, d *models.Dispute) *model.DisputeEdge {
	return &model.DisputeEdge{Cursor: cursor, Node: d}
}
