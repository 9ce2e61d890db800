package events

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

// The declarations of this test binary (no area is linked in).
var (
	testWidgetCreated   = Declare("test_widget.created", "a widget is created")
	testWidgetPartMoved = Declare("test_widget.part.moved", "a part of a widget moves")
)

func TestDeclaredTypesAreTheCatalogue(t *testing.T) {
	require.Equal(t, "test_widget.created", testWidgetCreated.String())
	require.False(t, testWidgetCreated.IsZero())
	require.True(t, Type{}.IsZero())

	require.True(t, IsDeclared("test_widget.created"))
	require.True(t, IsDeclared("test_widget.part.moved"))
	require.False(t, IsDeclared("test_widget.create"), "a misspelling is not a type")
	require.False(t, IsDeclared(""))

	ds := Declarations()
	require.True(t, slices.IsSortedFunc(ds, func(a, b Declaration) int { return strings.Compare(a.Name(), b.Name()) }),
		"the catalogue is in name order, whatever order packages declare in")
	require.Contains(t, ds, Declaration{Type: testWidgetPartMoved, Trigger: "a part of a widget moves"})
}

func TestDeclareRefusesWhatCannotBeAType(t *testing.T) {
	require.PanicsWithValue(t, "events: test_widget.created is declared twice", func() {
		Declare("test_widget.created", "again")
	})
	for _, name := range []string{"", "widget", "Widget.created", "widget.", ".created", "widget created", "widget.*"} {
		require.Panics(t, func() { Declare(name, "a trigger") }, "%q", name)
	}
	require.Panics(t, func() { Declare("test_widget.untold", " ") }, "a type says what triggers it")
	require.False(t, IsDeclared("test_widget.untold"))
}

func TestAnEventCarriesItsTypesWireName(t *testing.T) {
	now := time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)
	e := New(now, testWidgetCreated, uuid.New(), []byte(`{}`), nil)
	require.Equal(t, "test_widget.created", e.Type)
	require.Panics(t, func() { New(now, Type{}, uuid.New(), []byte(`{}`), nil) }, "the zero Type names no event")
}
