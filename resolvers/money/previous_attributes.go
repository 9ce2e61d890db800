package money

import (
	"encoding/json"

	"github.com/frame-oss/payments-server/internal/platform/events"
)

// previousAttributes is what a write changed of obj (nil for nothing),
// from obj's rendering before the change: the previous_attributes of the
// event that announces it.
func previousAttributes(before json.RawMessage, obj any) (map[string]any, error) {
	_, prev, err := events.RenderChange(before, obj)
	return prev, err
}
