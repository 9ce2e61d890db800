package events

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Data read as is renders exactly as encoding/json renders the members it
// decodes from the same text, for objects written with spaces and
// newlines between tokens and with <, >, &, U+2028 and escapes left in
// their strings (PostgreSQL's text of a jsonb value has its own spacing;
// the store's test reads that text back: internal/platform/store).
func TestDataScanRendersAsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 6))
	for range 500 {
		object := randomValue(rng, 0)
		var text bytes.Buffer
		enc := json.NewEncoder(&text)
		enc.SetEscapeHTML(false)
		enc.SetIndent(" ", "  ")
		require.NoError(t, enc.Encode(map[string]any{"object": object}))

		var d Data
		require.NoError(t, d.Scan(text.String()))
		require.NotNil(t, d.rendered, "read as is: %s", text.String())
		var plain plainData
		require.NoError(t, json.Unmarshal(text.Bytes(), &plain))
		want, err := json.Marshal(plain)
		require.NoError(t, err)
		got, err := json.Marshal(d)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got))
	}
}

// Data with previous attributes keeps its object as read and decodes the
// previous attributes alone: it renders as encoding/json renders the
// members it decodes from the same text (keys sorted, numbers as
// float64s), an empty or null member left out as omitempty leaves it.
func TestDataScanWithPreviousAttributesRendersAsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 7))
	texts := []string{
		`{"object": {"a": 1}, "previous_attributes": {"b": 2, "a": 1.50, "c": [1e21, -0, 12345678901234567890]}}`,
		`{"object": {"a": "<&>"}, "previous_attributes": {}}`,
		`{"object": {"a": 1}, "previous_attributes": null}`,
	}
	for range 500 {
		previous := map[string]any{}
		for range rng.IntN(6) {
			previous[randomString(rng)] = randomValue(rng, 1)
		}
		var text bytes.Buffer
		enc := json.NewEncoder(&text)
		enc.SetEscapeHTML(false)
		enc.SetIndent(" ", "  ")
		require.NoError(t, enc.Encode(map[string]any{"object": randomValue(rng, 0), "previous_attributes": previous}))
		texts = append(texts, text.String())
	}
	for _, text := range texts {
		var d Data
		require.NoError(t, d.Scan(text))
		require.NotNil(t, d.rendered, "read as is: %s", text)
		var plain plainData
		require.NoError(t, json.Unmarshal([]byte(text), &plain))
		require.Equal(t, plain.PreviousAttributes, d.PreviousAttributes, text)
		want, err := json.Marshal(plain)
		require.NoError(t, err)
		got, err := json.Marshal(d)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), text)
	}
}

// Data changed after it was read renders what it holds now: a previous
// attribute set or removed, or another object.
func TestDataChangedAfterScanRendersItsMembers(t *testing.T) {
	var d Data
	require.NoError(t, d.Scan(`{"object": {"a": 1}, "previous_attributes": {"b": 2}}`))
	d.PreviousAttributes["c"] = "<"
	got, err := json.Marshal(d)
	require.NoError(t, err)
	require.JSONEq(t, `{"object":{"a":1},"previous_attributes":{"b":2,"c":"<"}}`, string(got))
	require.Contains(t, string(got), `"c":"\u003c"`)
	d.PreviousAttributes = nil
	got, err = json.Marshal(d)
	require.NoError(t, err)
	require.Equal(t, `{"object":{"a":1}}`, string(got))
	d.Object = json.RawMessage(`{"z": true}`)
	got, err = json.Marshal(d)
	require.NoError(t, err)
	require.Equal(t, `{"object":{"z":true}}`, string(got))
}

// Data of another shape is decoded and encoded as encoding/json does,
// never read as is.
func TestDataScanDecodesOtherShapes(t *testing.T) {
	for _, text := range []string{
		`{}`, `{"other": 1}`, `{"object": 1, "x": [1, {"y": 2}]}`,
		`{"object": 1, "previous_attributes": {"a": 1}, "z": 2}`,
		`{"a": 1, "object": 2}`,
	} {
		var d Data
		require.NoError(t, d.Scan([]byte(text)))
		require.Nil(t, d.rendered, text)
		var plain plainData
		require.NoError(t, json.Unmarshal([]byte(text), &plain))
		want, err := json.Marshal(plain)
		require.NoError(t, err)
		got, err := json.Marshal(d)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), text)
	}
	var d Data
	require.NoError(t, d.Scan(nil))
	require.Equal(t, Data{}, d)
	require.Error(t, d.Scan(`{"object": `))
	require.Error(t, d.Scan(`{"object": 1, "previous_attributes": 5}`))
	require.Error(t, d.Scan(42))
}

func randomValue(rng *rand.Rand, depth int) any {
	kind := rng.IntN(7)
	if depth > 3 {
		kind = rng.IntN(4)
	}
	switch kind {
	case 0:
		return nil
	case 1:
		return rng.IntN(2) == 0
	case 2:
		return json.Number([]string{"0", "-0", "1.50", "1e21", "12345678901234567890", "-3.25e-7"}[rng.IntN(6)])
	case 3:
		return randomString(rng)
	case 4, 5:
		m := map[string]any{}
		for range rng.IntN(5) {
			m[randomString(rng)] = randomValue(rng, depth+1)
		}
		return m
	default:
		var l []any
		for range rng.IntN(5) {
			l = append(l, randomValue(rng, depth+1))
		}
		return l
	}
}

func randomString(rng *rand.Rand) string {
	pieces := []string{"a", "Zürich", "日本", "<", ">", "&", "\u2028", "\u2029", "\"", "\\", "\n", "\t", "\x01", " ", ",", ":", "{", "]", "\u2027", "\u202a", "\u20ac"}
	var b strings.Builder
	for range rng.IntN(8) {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}
