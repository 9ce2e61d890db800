package main

import "testing"

// Each shape's check accepts the answer it describes and refuses a body
// that does not decode, or that decodes to the wrong answer, so that a
// run measuring errors or empty pages stops.
func TestShapeChecks(t *testing.T) {
	for _, c := range []struct {
		name      string
		check     func([]byte) error
		good, bad string
	}{
		{"hasField", hasField("id"), `{"id":"a"}`, `{"name":"a"}`},
		{"listOf", listOf(2), `{"data":[{},{}]}`, `{"data":[{}]}`},
		{"graphQLPageOf", graphQLPageOf(1), `{"data":{"accounts":{"edges":[{}]}}}`,
			`{"errors":[{}],"data":{"accounts":{"edges":[{}]}}}`},
		{"capabilitiesOf", capabilitiesOf(1), `{"capabilities":[{}]}`, `{"capabilities":[]}`},
		{"meteringEventOf", meteringEventOf("cu"), `{"id":"e","object":"billing_metric_event","customer_id":"cu"}`,
			`{"id":"e","object":"billing_metric_event","customer_id":"other"}`},
		{"usageReportOf", usageReportOf(3),
			`{"aggregated_usage":[{"event_count":1},{"event_count":1},{"event_count":1}]}`,
			`{"aggregated_usage":[{"event_count":1},{"event_count":1},{"event_count":2}]}`},
		{"graphQLAnswerOf", graphQLAnswerOf("Op"), `{"data":{"accounts":{}}}`, `{"data":{"accounts":null}}`},
	} {
		if err := c.check([]byte(c.good)); err != nil {
			t.Errorf("%s refuses %s: %v", c.name, c.good, err)
		}
		if c.check([]byte(c.bad)) == nil {
			t.Errorf("%s accepts %s", c.name, c.bad)
		}
		if c.check([]byte("not json")) == nil {
			t.Errorf("%s accepts a body that does not decode", c.name)
		}
	}
}
