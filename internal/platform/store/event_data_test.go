package store_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// An event's data read by Bun renders, byte for byte, as encoding/json
// renders what it decodes from the text PostgreSQL gives for the column:
// events.Data keeps the JSON it reads instead of decoding and encoding it
// again (internal/platform/events/data_json.go), so the two must never
// differ, whatever the object holds.
func TestEventDataReadRendersAsEncodingJSONRendersItsText(t *testing.T) {
	t.Parallel()
	f := setup(t)
	objects := []string{
		`{"id": "ev_1", "name": "<b>Ada</b> & \"Co\"", "note": "line\nbreak\ttab\u0001 \\ end"}`,
		`{"text": "日本語 \u2028 and \u2029, Zürich", "empty": {}, "list": [], "nested": [{"a": [1, 2, {"b": null}]}]}`,
		`{"numbers": [0, -0, 1.50, 1e21, 12345678901234567890, -3.25e-7, 9007199254740993]}`,
		`{"object": "the member's name again", "previous_attributes": {"inside": ", \"quoted\", }"}}`,
		`"a string"`, `null`, `[1, "two", {"three": 3}]`, `{}`,
	}
	previous := []map[string]any{nil, {}, {"name": "<old>", "amount": 1.5, "meta": map[string]any{"z": 1, "a": []any{"x"}}},
		{"n": json.Number("1.50"), "big": json.Number("12345678901234567890"), "e": json.Number("1e21"),
			"s": "\u2028 \u2029 & \"q\" \\ \n\t\u0001 日本", "": nil, "list": []any{json.Number("-0"), false, map[string]any{}}}}
	var written []*events.Event
	for _, object := range objects {
		for _, prev := range previous {
			written = append(written, &events.Event{ID: ids.New(f.now), Type: "test.event_data",
				Data: events.Data{Object: json.RawMessage(object), PreviousAttributes: prev}, Created: wire.At(f.now)})
		}
	}
	require.NoError(t, f.db.Tx(f.ctx, f.a, func(ctx context.Context, tx *store.Tenant) error {
		return events.Insert(ctx, tx, written)
	}))

	var read []events.Event
	require.NoError(t, f.db.Tenant(f.a).Select(&read).Where("e.type = 'test.event_data'").OrderExpr("e.id").Scan(f.ctx))
	require.Len(t, read, len(written))
	asIs := 0
	for _, got := range read {
		var text string
		require.NoError(t, f.db.Bun.NewRaw("SELECT data::text FROM events WHERE id = ?", got.ID).Scan(f.ctx, &text))
		var decoded struct {
			Object             json.RawMessage `json:"object"`
			PreviousAttributes map[string]any  `json:"previous_attributes,omitempty"`
		}
		require.NoError(t, json.Unmarshal([]byte(text), &decoded))
		want, err := json.Marshal(decoded)
		require.NoError(t, err)

		rendered, err := got.Data.MarshalJSON()
		require.NoError(t, err)
		require.Equal(t, string(want), string(rendered), "data %s", text)
		inEvent, err := json.Marshal(got.Data)
		require.NoError(t, err)
		require.Equal(t, string(want), string(inEvent))
		require.JSONEq(t, string(decoded.Object), string(got.Data.Object))
		if decoded.PreviousAttributes == nil {
			asIs++
		}
	}
	require.Positive(t, asIs, "some data is read as is")
}

// Data read as is and then changed renders as changed: the bytes kept
// from the read answer only while they are still the data's.
func TestEventDataChangedAfterReadRendersItsMembers(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ev := &events.Event{ID: ids.New(f.now), Type: "test.event_data",
		Data: events.Data{Object: json.RawMessage(`{"id": "ev_1"}`)}, Created: wire.At(f.now)}
	require.NoError(t, f.db.Tx(f.ctx, f.a, func(ctx context.Context, tx *store.Tenant) error {
		return events.Insert(ctx, tx, []*events.Event{ev})
	}))
	read := func() events.Data {
		var got events.Event
		require.NoError(t, f.db.Tenant(f.a).Select(&got).Where("e.id = ?", ev.ID).Scan(f.ctx))
		return got.Data
	}
	render := func(d events.Data) string {
		b, err := json.Marshal(d)
		require.NoError(t, err)
		return string(b)
	}
	require.Equal(t, `{"object":{"id":"ev_1"}}`, render(read()))

	d := read()
	d.Object = json.RawMessage(`{"id":"ev_2"}`)
	require.Equal(t, `{"object":{"id":"ev_2"}}`, render(d))

	d = read()
	d.PreviousAttributes = map[string]any{"id": "ev_0"}
	require.Equal(t, `{"object":{"id":"ev_1"},"previous_attributes":{"id":"ev_0"}}`, render(d))
}
