package main

import "testing"

func TestPlanSummary(t *testing.T) {
	plan := `Sort  (cost=1.1..1.2 rows=3 width=8) (actual time=40.1..40.1 rows=3 loops=1)
  ->  Nested Loop Left Join  (actual time=40.0..40.1 rows=3 loops=1)
        ->  Index Scan using customers_pkey on customers cu  (actual time=0.01..0.01 rows=1 loops=1)
        ->  HashAggregate  (actual time=39.9..39.9 rows=3 loops=1)
              ->  Index Only Scan using metering_events_customer_usage_idx on metering_events me  (actual rows=100000 loops=1)
                    Heap Fetches: 0
        ->  Seq Scan on billing_meters bm  (actual rows=3 loops=3)
        ->  Bitmap Heap Scan on billing_meters bm  (actual rows=3 loops=1)
              ->  Bitmap Index Scan on billing_meters_list_idx  (actual rows=3 loops=1)
`
	want := "Index Scan using `customers_pkey` on `customers`, " +
		"Index Only Scan using `metering_events_customer_usage_idx` on `metering_events` (heap fetches 0), " +
		"Seq Scan on `billing_meters`, Bitmap Heap Scan on `billing_meters`, Bitmap Index Scan on `billing_meters_list_idx`"
	if got := planSummary(plan); got != want {
		t.Fatalf("planSummary:\n%s\nwant:\n%s", got, want)
	}
}
