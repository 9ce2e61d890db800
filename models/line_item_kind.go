package models

// LineItemKind is what an invoice line bills: item (a product added to
// the invoice), subscription (a period), proration_credit and
// proration_charge (a swap's lines), balance (credit applied), usage (a
// meter's usage).
type LineItemKind string

// LineItemKinds is the closed set of invoice line kinds.
var LineItemKinds = Enum[LineItemKind](LineItem, LineSubscription, LineProrationCredit, LineProrationCharge,
	LineBalance, LineUsage)
