package testenv

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// The real service's CLI speaks ActionCable to /cable (frame-cli 0.1.2,
// as the project's notes on the official clients write it down): this is
// a client of that protocol for tests, written from that description,
// frame for frame.

// CableGuard bounds a wait for a frame the server will send unless the
// test has failed; it guards against hanging, never for speed.
const CableGuard = 2 * time.Minute

// CableFrame is one frame the server sent, with its raw text.
type CableFrame struct {
	Raw        []byte
	Type       string          `json:"type"`
	Identifier json.RawMessage `json:"identifier"`
	Message    json.RawMessage `json:"message"`
	Reason     string          `json:"reason"`
	Reconnect  bool            `json:"reconnect"`
}

// MessageObject decodes a data frame's message.
func (f CableFrame) MessageObject() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(f.Message, &m)
	return m
}

// Cable is one ActionCable connection: every frame the server sends but
// pings, in order, on Frames (closed when the connection ends).
type Cable struct {
	Conn   *websocket.Conn
	Frames chan CableFrame
	// Subprotocol is the one the server chose.
	Subprotocol string
	// ReadErr is what ended the connection, once Frames is closed
	// (websocket.CloseStatus reads the server's close code from it).
	ReadErr error
	t       TB
}

// TB is what the test helpers need of a test.
type TB interface {
	Helper()
	Fatalf(string, ...any)
	Cleanup(func())
}

// DialCable opens /cable as the CLI does: subprotocol actioncable-v1-json,
// the key in Authorization: Bearer, an Origin of the server's own. It
// fails the test unless the upgrade succeeds.
func (e *Env) DialCable(key string) *Cable {
	e.T.Helper()
	c, resp, err := e.TryDialCable(key, []string{"actioncable-v1-json"})
	if err != nil {
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		e.T.Fatalf("testenv: dial /cable: %v (status %d)", err, status)
	}
	return c
}

// TryDialCable opens /cable offering protocols, answering the refused
// upgrade's response when it fails.
func (e *Env) TryDialCable(key string, protocols []string) (*Cable, *http.Response, error) {
	return DialCable(e.T, e.Server.URL, key, protocols, nil)
}

// DialCable opens origin's /cable (origin: http://host:port, or https://
// for wss) through client (nil: the default).
func DialCable(t TB, origin, key string, protocols []string, client *http.Client) (*Cable, *http.Response, error) {
	h := http.Header{}
	if key != "" {
		h.Set("Authorization", "Bearer "+key)
	}
	h.Set("Origin", origin)
	ctx, cancel := context.WithTimeout(context.Background(), CableGuard)
	defer cancel()
	ws, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(origin, "http")+"/cable",
		&websocket.DialOptions{Subprotocols: protocols, HTTPHeader: h, HTTPClient: client})
	if err != nil {
		return nil, resp, err
	}
	ws.SetReadLimit(1 << 20)
	c := &Cable{Conn: ws, Frames: make(chan CableFrame, 1024), Subprotocol: ws.Subprotocol(), t: t}
	t.Cleanup(func() { _ = ws.CloseNow() })
	go c.read()
	return c, resp, nil
}

// read hands every frame but pings to Frames until the connection ends.
func (c *Cable) read() {
	defer close(c.Frames)
	for {
		_, b, err := c.Conn.Read(context.Background())
		if err != nil {
			c.ReadErr = err
			return
		}
		var f CableFrame
		if json.Unmarshal(b, &f) != nil {
			continue
		}
		if f.Type == "ping" {
			continue
		}
		f.Raw = b
		c.Frames <- f
	}
}

// Next is the next frame; the test fails when the connection ended first.
func (c *Cable) Next() CableFrame {
	c.t.Helper()
	f, ok := c.NextOrClosed()
	if !ok {
		c.t.Fatalf("testenv: /cable closed while a frame was expected")
	}
	return f
}

// NextOrClosed is the next frame, or false once the connection ended.
func (c *Cable) NextOrClosed() (CableFrame, bool) {
	c.t.Helper()
	select {
	case f, ok := <-c.Frames:
		return f, ok
	case <-time.After(CableGuard):
		c.t.Fatalf("testenv: no frame from /cable within %s", CableGuard)
		return CableFrame{}, false
	}
}

// NextWithin is the next frame if one comes within d: for a test that
// repeats an action until its effect shows (a process that has yet to
// hear of a tail), never for asserting that nothing comes.
func (c *Cable) NextWithin(d time.Duration) (CableFrame, bool) {
	select {
	case f, ok := <-c.Frames:
		return f, ok
	case <-time.After(d):
		return CableFrame{}, false
	}
}

// Send sends one frame.
func (c *Cable) Send(v any) {
	c.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatalf("testenv: encode frame: %v", err)
	}
	c.SendRaw(b)
}

// SendRaw sends one frame as it is.
func (c *Cable) SendRaw(b []byte) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), CableGuard)
	defer cancel()
	if err := c.Conn.Write(ctx, websocket.MessageText, b); err != nil {
		c.t.Fatalf("testenv: write frame: %v", err)
	}
}

// ListenIdentifier is the identifier `frame listen` subscribes with: its
// keys in the CLI's order, skip_endpoints only when set, session_token
// only on a resubscribe.
func ListenIdentifier(eventCodes []string, skipEndpoints bool, sessionToken string) string {
	if eventCodes == nil {
		eventCodes = []string{}
	}
	codes, _ := json.Marshal(eventCodes)
	var b bytes.Buffer
	b.WriteString(`{"channel":"Cli::WebhookListenChannel","event_codes":`)
	b.Write(codes)
	if skipEndpoints {
		b.WriteString(`,"skip_endpoints":true`)
	}
	if sessionToken != "" {
		tok, _ := json.Marshal(sessionToken)
		b.WriteString(`,"session_token":`)
		b.Write(tok)
	}
	b.WriteString("}")
	return b.String()
}

// Subscribe sends a subscribe command of identifier; lastReceivedAt
// (epoch ms, 0: none) is the top-level member of a reconnect within the
// CLI's replay window.
func (c *Cable) Subscribe(identifier string, lastReceivedAt int64) {
	c.t.Helper()
	cmd := map[string]any{"command": "subscribe", "identifier": identifier}
	if lastReceivedAt > 0 {
		cmd["last_received_at"] = lastReceivedAt
	}
	c.Send(cmd)
}

// Unsubscribe sends the CLI's unsubscribe (on Ctrl-C, before it closes).
func (c *Cable) Unsubscribe(identifier string) {
	c.t.Helper()
	c.Send(map[string]any{"command": "unsubscribe", "identifier": identifier})
}

// Ack acknowledges an event as the CLI does after forwarding it: data is
// a JSON string of the ack.
func (c *Cable) Ack(identifier, messageID string, status int, body string, durationMS int) {
	c.t.Helper()
	data, _ := json.Marshal(map[string]any{"action": "ack", "webhook_message_id": messageID, "status": status,
		"response_body": body, "duration_ms": durationMS})
	c.Send(map[string]any{"command": "message", "identifier": identifier, "data": string(data)})
}

// Close closes the connection as a dropped network would end it for the
// server: without an unsubscribe.
func (c *Cable) Close() { _ = c.Conn.Close(websocket.StatusNormalClosure, "") }
