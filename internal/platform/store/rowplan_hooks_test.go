package store

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/uptrace/bun"
)

type hookedRow struct {
	bun.BaseModel `bun:"table:hooked_rows"`
	ID            string `bun:"id,pk"`
}

func (*hookedRow) AfterScanRow(context.Context) error { return nil }

type plainRow struct {
	bun.BaseModel `bun:"table:plain_rows"`
	ID            string `bun:"id,pk"`
}

// A model with a hook Bun calls around each scanned row is read by Bun,
// which calls it; the direct read, which would skip it, is not planned.
func TestModelsWithScanHooksAreReadByBun(t *testing.T) {
	if got := planOf(reflect.TypeFor[hookedRow]()).fallback; !strings.Contains(got, "scan hook") {
		t.Fatalf("a model with AfterScanRow is planned for the direct read (fallback %q)", got)
	}
	if got := planOf(reflect.TypeFor[plainRow]()).fallback; got != "" {
		t.Fatalf("a plain model falls back to Bun: %q", got)
	}
}
