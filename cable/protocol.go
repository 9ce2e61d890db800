package cable

import (
	"bytes"
	"encoding/json"
)

// Subprotocol is the ActionCable protocol the server speaks: JSON frames,
// one per websocket text message. A client that does not offer it is
// refused (the real service's CLI fails unless it is echoed).
const Subprotocol = "actioncable-v1-json"

// command is a client's frame: subscribe, unsubscribe or message.
// Identifier is kept as the client sent it (a JSON string holding the
// channel and its parameters), so every answer echoes it byte for byte.
type command struct {
	Command    string          `json:"command"`
	Identifier json.RawMessage `json:"identifier"`
	// Data is a message's payload: a JSON string holding an object with
	// its action.
	Data string `json:"data"`
}

// identifier is what a subscribe's identifier holds; each channel reads
// its own parameters from the same JSON.
type identifier struct {
	Channel string `json:"channel"`
}

// parseCommand reads a client frame. ok is false for anything that is not
// a JSON object with a string identifier (ActionCable ignores those); id
// is then the identifier's text.
func parseCommand(frame []byte) (cmd command, id string, ok bool) {
	if err := json.Unmarshal(frame, &cmd); err != nil {
		return command{}, "", false
	}
	if err := json.Unmarshal(cmd.Identifier, &id); err != nil || id == "" {
		return command{}, "", false
	}
	return cmd, id, true
}

// Server frames. identifier fields are the client's raw JSON strings.
type (
	typed struct {
		Type string `json:"type"`
	}
	ping struct {
		Type    string `json:"type"`
		Message int64  `json:"message"`
	}
	subscriptionStatus struct {
		Identifier json.RawMessage `json:"identifier"`
		Type       string          `json:"type"`
	}
	dataFrame struct {
		Identifier json.RawMessage `json:"identifier"`
		Message    any             `json:"message"`
	}
	disconnect struct {
		Type      string `json:"type"`
		Reason    string `json:"reason"`
		Reconnect bool   `json:"reconnect"`
	}
)

// Frame types of the protocol.
const (
	typeWelcome    = "welcome"
	typePing       = "ping"
	typeConfirm    = "confirm_subscription"
	typeReject     = "reject_subscription"
	typeDisconnect = "disconnect"
)

// encode renders a server frame without HTML escaping, so that text the
// client sent comes back as it was.
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
