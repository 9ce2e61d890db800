package catalog

import (
	"github.com/uptrace/bun"
)

// A customer is read with its payment methods in one statement: the select
// of customers carries a column holding the customer's usable payment
// methods (not detached, not single-use wallet credentials) as one JSON
// array, newest first, in the members of the wire shape. Writes do not use
// it: a writer locks the customer first and reads the payment methods in a
// statement of its own (see customerRows).
const paymentMethodsColumnSQL = `(SELECT coalesce(json_agg(json_build_object(
	'id', pm.id, 'type', pm.type, 'status', pm.status, 'customer_id', pm.customer_id,
	'account_id', pm.account_id, 'billing', pm.billing, 'card', pm.card, 'ach', pm.ach,
	'livemode', pm.livemode, 'created', floor(extract(epoch FROM pm.created))::bigint,
	'updated', floor(extract(epoch FROM pm.updated))::bigint) ORDER BY pm.created DESC, pm.id DESC), '[]')
	FROM payment_methods AS pm WHERE pm.merchant_id = cu.merchant_id AND pm.livemode = cu.livemode
	AND pm.customer_id = cu.id AND pm.status <> 'detached' AND NOT pm.single_use) AS payment_methods_json`

// withPaymentMethods adds the payment methods column to a select of
// customers (alias cu): customerTable's Columns.
func withPaymentMethods(q *bun.SelectQuery) *bun.SelectQuery {
	return q.ColumnExpr(paymentMethodsColumnSQL)
}
