package resolvers

import (
	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
)

// Account.refunds and Customer.refunds are page edges: the page each
// payer's field asks (first, after, the refund list's filters) for all the
// payers of a level in one statement per distinct set of arguments.
var refundPagesOfAccountLoader, refundPagesOfCustomerLoader = payerPageEdges[payerRefundsArgs]("refund", "refunds",
	func(r *Resolver) *money.Refunds { return r.Svc.Money.Refunds },
	(*money.Refunds).PagesOfAccounts, (*money.Refunds).PagesOfCustomers)

// payerRefundsArgs are the arguments of Account.refunds and
// Customer.refunds.
type payerRefundsArgs struct {
	pageArgs
	Transfer     *string `json:"transfer"`
	ChargeIntent *string `json:"chargeIntent"`
	Charge       *string `json:"charge"`
}

func (a payerRefundsArgs) filter() money.RefundFilter {
	return money.RefundFilter{Transfer: a.Transfer, ChargeIntent: a.ChargeIntent, Charge: a.Charge}
}

func refundEdge(cursor string, rf *models.Refund) *model.RefundEdge {
	return &model.RefundEdge{Cursor: cursor, Node: rf}
}
