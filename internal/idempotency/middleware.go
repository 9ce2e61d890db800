// Package idempotency makes POST requests safe to retry (API-DECISIONS §3).
// The first response to an Idempotency-Key is stored in PostgreSQL and
// replayed for 24 hours; a key is claimed with an INSERT that only one
// request can win, so the rule holds across server processes.
package idempotency

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"io"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/apierr"
	"github.com/frame-oss/payments-server/internal/auth"
	"github.com/frame-oss/payments-server/internal/clock"
	"github.com/frame-oss/payments-server/internal/store"
)

// Header is the request header that carries the key.
const Header = "Idempotency-Key"

// ReplayHeader marks a replayed response.
const ReplayHeader = "Idempotent-Replayed"

// TTL is how long a stored response is replayed.
const TTL = 24 * time.Hour

const maxKeyLength = 255

// record is a stored key.
type record struct {
	bun.BaseModel `bun:"table:idempotency_keys,alias:ik"`

	MerchantID     uuid.UUID `bun:"merchant_id,pk,type:uuid"`
	Livemode       bool      `bun:"livemode,pk"`
	Key            string    `bun:"key,pk"`
	RequestHash    []byte    `bun:"request_hash"`
	Status         string    `bun:"status"`
	ResponseStatus int       `bun:"response_status,nullzero"`
	ResponseBody   []byte    `bun:"response_body"`
	Created        time.Time `bun:"created"`
	Expires        time.Time `bun:"expires"`
}

// Middleware returns the idempotency middleware. It runs after
// authentication; writeErr renders its own refusals in the API envelope.
func Middleware(db *store.DB, clk clock.Clock, writeErr func(http.ResponseWriter, *http.Request, error)) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			key := r.Header.Get(Header)
			p := auth.FromContext(r.Context())
			if r.Method != http.MethodPost || key == "" || p == nil {
				next.ServeHTTP(w, r)
				return
			}
			if len(key) > maxKeyLength {
				writeErr(w, r, apierr.BadRequest(apierr.CodeIdempotencyError,
					"Idempotency-Key must be at most 255 characters", Header))
				return
			}
			body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20+1))
			if err != nil {
				writeErr(w, r, apierr.BadRequest(apierr.CodeInvalidJSON, "The request body could not be read", ""))
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			// A body that is not JSON is refused before execution and is
			// not stored, so the client can fix it and retry with the key.
			if len(bytes.TrimSpace(body)) > 0 && !json.Valid(body) {
				next.ServeHTTP(w, r)
				return
			}
			s := &keyStore{db: db, clk: clk}
			rec := &record{MerchantID: p.Scope.MerchantID, Livemode: p.Scope.Livemode, Key: key,
				RequestHash: requestHash(r, body)}
			stored, err := s.claim(r.Context(), rec)
			if err != nil {
				writeErr(w, r, err)
				return
			}
			if stored != nil {
				replay(w, r, stored, rec.RequestHash, writeErr)
				return
			}
			rw := &recorder{WrapResponseWriter: middleware.NewWrapResponseWriter(w, r.ProtoMajor)}
			completed := false
			defer func() {
				if !completed { // the handler panicked: free the key for a retry
					s.release(context.WithoutCancel(r.Context()), rec)
				}
			}()
			next.ServeHTTP(rw, r)
			completed = true
			if err := s.complete(context.WithoutCancel(r.Context()), rec, rw.status(), rw.body.Bytes()); err != nil {
				s.release(context.WithoutCancel(r.Context()), rec)
			}
		})
	}
}

// requestHash identifies what was asked: method, path and body.
func requestHash(r *http.Request, body []byte) []byte {
	h := sha256.New()
	h.Write([]byte(r.Method + " " + r.URL.Path + "\x00"))
	h.Write(bytes.TrimSpace(body))
	return h.Sum(nil)
}

// replay answers a request whose key was already claimed: with the stored
// response, or with why it cannot have one.
func replay(w http.ResponseWriter, r *http.Request, rec *record, hash []byte, writeErr func(http.ResponseWriter, *http.Request, error)) {
	switch {
	case !bytes.Equal(rec.RequestHash, hash):
		writeErr(w, r, apierr.BadRequest(apierr.CodeIdempotencyError,
			"Keys for idempotent requests can only be used with the same parameters they were first used with", Header))
	case rec.Status != "done":
		writeErr(w, r, apierr.Conflict(apierr.CodeIdempotencyKeyInUse,
			"A request with this Idempotency-Key is still being processed; retry later", nil))
	default:
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set(ReplayHeader, "true")
		w.WriteHeader(rec.ResponseStatus)
		_, _ = w.Write(rec.ResponseBody)
	}
}

// recorder keeps a copy of the response for storing.
type recorder struct {
	middleware.WrapResponseWriter
	body bytes.Buffer
}

func (rw *recorder) Write(b []byte) (int, error) {
	rw.body.Write(b)
	return rw.WrapResponseWriter.Write(b)
}

func (rw *recorder) status() int {
	if s := rw.Status(); s != 0 {
		return s
	}
	return http.StatusOK
}
