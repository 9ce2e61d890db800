package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// The dashboard shapes are every query the dashboard's script sends, as it
// sends them, under slugs the replica part can name.
func TestDashboardShapesAreTheDashboardsQueries(t *testing.T) {
	shapes, err := dashboardShapes("sk_sandbox_x")
	if err != nil {
		t.Fatal(err)
	}
	var slugs []string
	for _, s := range shapes {
		slugs = append(slugs, s.slug)
		var body struct{ Query, OperationName string }
		if err := json.Unmarshal([]byte(s.body), &body); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(body.Query, "query "+body.OperationName) || s.key != "sk_sandbox_x" {
			t.Errorf("%s: %+v", s.slug, body)
		}
	}
	want := []string{"graphql-dashboard-accounts", "graphql-dashboard-subscriptions", "graphql-dashboard-transfers",
		"graphql-dashboard-balance", "graphql-dashboard-volume", "graphql-dashboard-disputes",
		"graphql-dashboard-failed-payments", "graphql-dashboard-refunds", "graphql-dashboard-payouts",
		"graphql-dashboard-recent-events"}
	if !slices.Equal(slugs, want) {
		t.Errorf("slugs %v, want %v", slugs, want)
	}
	for _, slug := range replicaSlugs {
		if strings.HasPrefix(slug, "graphql-dashboard") && !slices.Contains(slugs, slug) {
			t.Errorf("the replica part names %s, which is no dashboard shape", slug)
		}
	}
}
