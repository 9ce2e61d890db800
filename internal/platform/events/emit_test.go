package events

import (
	"testing"

	"github.com/stretchr/testify/require"
)

type doc struct {
	Name    string            `json:"name"`
	Tags    []string          `json:"tags"`
	Meta    map[string]string `json:"meta"`
	Updated int               `json:"updated"`
}

func TestPreviousAttributesHoldsChangedMembersBefore(t *testing.T) {
	before := doc{Name: "a", Tags: []string{"x"}, Meta: map[string]string{"k": "v"}, Updated: 1}
	after := doc{Name: "b", Tags: []string{"x"}, Meta: map[string]string{"k": "w"}, Updated: 2}
	prev, err := PreviousAttributes(render(t, before), render(t, after))
	require.NoError(t, err)
	require.Equal(t, map[string]any{"name": "a", "meta": map[string]any{"k": "v"}}, prev,
		"unchanged members and the updated timestamp are left out")

	prev, err = PreviousAttributes(render(t, before), render(t, before))
	require.NoError(t, err)
	require.Nil(t, prev, "nothing changed")
}

func render(t *testing.T, v any) []byte {
	t.Helper()
	raw, err := Render(v)
	require.NoError(t, err)
	return raw
}

// A member the object did not have before (one left out while it had no
// value) was null before; one it no longer has keeps its value.
func TestPreviousAttributesOfMembersLeftOut(t *testing.T) {
	type optional struct {
		Name        string  `json:"name"`
		Description *string `json:"description,omitempty"`
	}
	text := "set"
	prev, err := PreviousAttributes(render(t, optional{Name: "a"}), render(t, optional{Name: "a", Description: &text}))
	require.NoError(t, err)
	require.Equal(t, map[string]any{"description": nil}, prev)

	prev, err = PreviousAttributes(render(t, optional{Name: "a", Description: &text}), render(t, optional{Name: "a"}))
	require.NoError(t, err)
	require.Equal(t, map[string]any{"description": "set"}, prev)
}
