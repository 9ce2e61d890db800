package events

import "encoding/json"

// RenderChange renders object after a change and compares it with before,
// its rendering before the change. Every update announces both: after is
// the event's data.object, prev its previous_attributes (nil when nothing
// but the `updated` stamp changed).
func RenderChange(before json.RawMessage, object any) (after json.RawMessage, prev map[string]any, err error) {
	if after, err = Render(object); err != nil {
		return nil, nil, err
	}
	if prev, err = PreviousAttributes(before, after); err != nil {
		return nil, nil, err
	}
	return after, prev, nil
}
