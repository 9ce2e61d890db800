package rest_test

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// subscriptionPhaseKeys are the members of a subscription phase: a product
// phase's (spec doc 2 §2.4) with the subscription's id under the SDK's name
// and the amount under the Ruby SDK's (price).
var subscriptionPhaseKeys = sorted("id", "object", "ordinal", "name", "pricing_type", "amount", "price", "discount_percentage",
	"period_count", "phaseable_type", "phaseable_id", "subscription_id", "started_at", "currency", "created", "updated", "livemode")

// insertSubscriptionRow writes an active monthly subscription of a
// customer and a recurring product, both made through the API with c, in
// the sandbox of merchant m straight into the table (subscriptions are
// made elsewhere; their phases only need the row), and returns its id.
// clock, when not uuid.Nil, binds it to that test clock.
func insertSubscriptionRow(t *testing.T, f *fixture, c *testenv.Client, m *auth.Merchant, clock uuid.UUID) string {
	t.Helper()
	customer := c.CreateCustomer(testenv.Customer())
	product := c.CreateProduct(testenv.Product())
	sid := uuid.Must(uuid.NewV7())
	now := f.env.Clock.Now()
	var clockID *uuid.UUID
	if clock != uuid.Nil {
		clockID = &clock
	}
	f.exec(t, `INSERT INTO subscriptions (merchant_id, id, livemode, status, customer_id, test_clock_id, product_id, currency,
		proration_behavior, anchor, current_period_start, current_period_end, created, updated)
		VALUES (?, ?, false, 'active', ?, ?, ?, 'usd', 'create_prorations', ?, ?, ?, ?, ?)`,
		m.ID, sid, customer.ID, clockID, product.ID, now, now, now.AddDate(0, 1, 0), now, now)
	return sid.String()
}

// insertTestClock writes a sandbox test clock of merchant m frozen at at.
func insertTestClock(t *testing.T, f *fixture, m *auth.Merchant, at time.Time) uuid.UUID {
	t.Helper()
	id := uuid.Must(uuid.NewV7())
	f.exec(t, `INSERT INTO test_clocks (merchant_id, id, livemode, frozen_time, created, updated) VALUES (?, ?, false, ?, ?, ?)`,
		m.ID, id, at, at, at)
	return id
}

// subscriptionPhasesOf is the path of a subscription's phases.
func subscriptionPhasesOf(subscriptionID string) string {
	return "/v1/subscriptions/" + subscriptionID + "/phases"
}
