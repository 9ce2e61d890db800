package httpx

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The request line has the members a JSON handler writes for a record,
// then the request's, in that order, stamped with the time the request
// ended, at the level its status calls for; a logger above that level
// writes nothing.
func TestLogWritesOneLineAtTheLevelOfTheStatus(t *testing.T) {
	for _, tc := range []struct {
		status int
		level  string
	}{{http.StatusCreated, "INFO"}, {http.StatusServiceUnavailable, "WARN"}, {http.StatusInternalServerError, "ERROR"}} {
		var buf bytes.Buffer
		logger := slog.New(slog.NewJSONHandler(&buf, nil))
		h := RequestID(Log(logger)(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(tc.status) })))
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/v1/transfers", nil))

		var members []string
		dec := json.NewDecoder(bytes.NewReader(buf.Bytes()))
		_, err := dec.Token()
		require.NoError(t, err)
		for dec.More() {
			key, err := dec.Token()
			require.NoError(t, err)
			members = append(members, key.(string))
			var skip json.RawMessage
			require.NoError(t, dec.Decode(&skip))
		}
		require.Equal(t, []string{"time", "level", "msg", "request_id", "method", "path", "route", "status",
			"duration_ms", "statements", "merchant_id", "livemode", "credential"}, members, buf.String())
		var line struct {
			Time   time.Time `json:"time"`
			Level  string    `json:"level"`
			Msg    string    `json:"msg"`
			Status int       `json:"status"`
		}
		require.NoError(t, json.Unmarshal(buf.Bytes(), &line))
		require.Equal(t, tc.level, line.Level)
		require.Equal(t, "request", line.Msg)
		require.Equal(t, tc.status, line.Status)
		require.False(t, line.Time.IsZero(), "stamped with the time the request ended")

		var quiet bytes.Buffer
		above := slog.New(slog.NewJSONHandler(&quiet, &slog.HandlerOptions{Level: slog.LevelError + 1}))
		RequestID(Log(above)(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(tc.status) }))).
			ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
		require.Empty(t, quiet.String())
	}
}
