package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// Usage billing's two shapes (docs/performance.md, "Usage billing"):
//
//   - ingest: POST /v1/billing/metering_events with a reference no request
//     used before (fresh.go), so every request inserts and checks the
//     unique (event_name, reference) index against a new key, for one
//     customer whose meter exists;
//   - report: GET /v1/billing/report/customer over the current month of
//     another customer holding reportEvents events of three names, seeded
//     in SQL and vacuumed so that the report's aggregate can read the
//     covering index alone.

// usageMeters are the report customer's event names and their meters'
// aggregations; ingest reports the first.
var usageMeters = []struct{ name, aggregation string }{
	{"api_calls", "sum"}, {"storage_gb", "max"}, {"seats", "count"},
}

// usageFixture is what the usage shapes read and write.
type usageFixture struct {
	merchantID     string
	ingestCustomer string
	reportCustomer string
	reportEvents   int
	from, to       time.Time // the report's window: the current calendar month, UTC
}

// seedUsage makes the meters and two customers through the API, then
// inserts the report customer's events in statements of our own session
// (through the API it would take minutes, and the report does not care
// how they came): events over the current month up to now, and twice as
// many over the two months before; and vacuums the table so its
// visibility map lets the report read the index alone.
func seedUsage(ctx context.Context, api *apiClient, db *database, merchantID string, events int) (*usageFixture, error) {
	meters := map[string]string{}
	for _, m := range usageMeters {
		body, _ := json.Marshal(map[string]any{"event_name": m.name, "aggregation": m.aggregation})
		id, err := api.create(ctx, "/v1/billing/metering", string(body))
		if err != nil {
			return nil, fmt.Errorf("meter %s: %w", m.name, err)
		}
		meters[m.name] = id
	}
	var customers [2]string
	for i, name := range []string{"Ingest Customer", "Report Customer"} {
		body, _ := json.Marshal(map[string]any{"name": name, "email": fmt.Sprintf("usage%d@example.com", i)})
		id, err := api.create(ctx, "/v1/customers", string(body))
		if err != nil {
			return nil, fmt.Errorf("customer: %w", err)
		}
		customers[i] = id
	}
	now := time.Now().UTC() // clock: the server's; the events must fall in its current month
	from := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	f := &usageFixture{merchantID: merchantID, ingestCustomer: customers[0], reportCustomer: customers[1], reportEvents: events,
		from: from, to: from.AddDate(0, 1, 0)}
	// The customer's history too, twice as many events over the two
	// months before: the current month is then a third of the table, as
	// for a customer with history, not nearly all of it (then the planner
	// prefers reading the whole table to the index).
	if err := f.insertEvents(ctx, db, meters, "history", from.AddDate(0, -2, 0), from, 2*events); err != nil {
		return nil, err
	}
	if err := f.insertEvents(ctx, db, meters, "current", from, now, events); err != nil {
		return nil, err
	}
	if _, err := db.conn.Exec(ctx, "VACUUM ANALYZE metering_events"); err != nil {
		return nil, err
	}
	return f, nil
}

// insertEvents inserts n events of the report customer, at instants
// spread evenly over [start, end), in one statement: event i has name
// i mod 3 and value i mod 10 + 1; ids need only be unique here.
func (f *usageFixture) insertEvents(ctx context.Context, db *database, meters map[string]string, label string,
	start, end time.Time, n int) error {
	var names, ids []string
	for _, m := range usageMeters {
		names, ids = append(names, m.name), append(ids, meters[m.name])
	}
	_, err := db.conn.Exec(ctx, `INSERT INTO metering_events
		(merchant_id, id, livemode, meter_id, event_name, reference, customer_id, value, "timestamp", created, updated)
		SELECT $1::uuid, gen_random_uuid(), false, ($2::uuid[])[i % 3 + 1], ($3::text[])[i % 3 + 1],
		       $4 || '-' || i, $5::uuid, i % 10 + 1, $6::timestamptz + ($7::timestamptz - $6::timestamptz) * i / $8, $7, $7
		FROM generate_series(0, $8 - 1) AS i`,
		f.merchantID, ids, names, "seed-"+label, f.reportCustomer, start, end, n)
	if err != nil {
		return fmt.Errorf("seed %d metering events (%s): %w", n, label, err)
	}
	return nil
}

// create POSTs body to path, wants 201 and returns the object's id.
func (c *apiClient) create(ctx context.Context, path, body string) (string, error) {
	status, resp, err := c.do(ctx, http.MethodPost, path, body)
	if err != nil {
		return "", err
	}
	var v struct {
		ID string `json:"id"`
	}
	if status != http.StatusCreated && status != http.StatusOK || json.Unmarshal(resp, &v) != nil || v.ID == "" {
		return "", fmt.Errorf("POST %s: status %d: %.500s", path, status, resp)
	}
	return v.ID, nil
}

// usageShapes are ingest and the report, after the accounts' shapes.
func usageShapes(f *usageFixture) []shape {
	ingest, _ := json.Marshal(map[string]any{"event_name": usageMeters[0].name, "reference": freshToken,
		"customer": f.ingestCustomer, "value": 2.5, "metadata": map[string]string{"region": "eu"}})
	q := url.Values{"customer": {f.reportCustomer}, "from": {f.from.Format(time.RFC3339)}, "to": {f.to.Format(time.RFC3339)}}
	return []shape{
		{label: "`POST /v1/billing/metering_events` (new reference)", slug: "ingest-metering-event", method: http.MethodPost,
			path: "/v1/billing/metering_events", body: string(ingest), want: http.StatusCreated, fresh: true,
			check: meteringEventOf(f.ingestCustomer), inserted: f.ingestEvents},
		{label: fmt.Sprintf("`GET /v1/billing/report/customer` (%s events)", thousands(float64(f.reportEvents))),
			slug: "usage-report-customer", method: http.MethodGet, path: "/v1/billing/report/customer?" + q.Encode(),
			want: http.StatusOK, check: usageReportOf(f.reportEvents), latency: true},
	}
}

// meteringEventAnswer is an ingest answer: the event's id, object and customer.
type meteringEventAnswer struct {
	ID       string `json:"id"`
	Object   string `json:"object"`
	Customer string `json:"customer_id"`
}

// meteringEventOf checks an ingest answer: the event, for the customer.
func meteringEventOf(customer string) func([]byte) error {
	return decodedAs(func(v *meteringEventAnswer, body []byte) error {
		if v.ID == "" || v.Object != "billing_metric_event" || v.Customer != customer {
			return fmt.Errorf("not a metering event of customer %s: %.500s", customer, body)
		}
		return nil
	})
}

// usageReportAnswer is a usage report: its aggregates' names and event counts.
type usageReportAnswer struct {
	Aggregated []struct {
		EventName  string `json:"event_name"`
		EventCount *int   `json:"event_count"`
	} `json:"aggregated_usage"`
}

// usageReportOf checks a usage report: one aggregate per seeded event
// name, whose event counts, when the report gives them, add up to the
// seeded events.
func usageReportOf(events int) func([]byte) error {
	return decodedAs(func(v *usageReportAnswer, body []byte) error {
		if len(v.Aggregated) != len(usageMeters) {
			return fmt.Errorf("the report has %d aggregates, want %d: %.500s", len(v.Aggregated), len(usageMeters), body)
		}
		total := 0
		for _, a := range v.Aggregated {
			if a.EventCount == nil {
				return nil
			}
			total += *a.EventCount
		}
		if total != events {
			return fmt.Errorf("the report counts %d events, want %d: %.500s", total, events, body)
		}
		return nil
	})
}

// ingestEvents counts the ingest customer's metering events (from the
// covering index): each run must insert one per request.
func (f *usageFixture) ingestEvents(ctx context.Context, db *database) (int64, error) {
	var n int64
	err := db.conn.QueryRow(ctx, `SELECT count(*) FROM metering_events
		WHERE merchant_id = $1 AND NOT livemode AND customer_id = $2`, f.merchantID, f.ingestCustomer).Scan(&n)
	return n, err
}
