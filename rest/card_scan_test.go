package rest_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/card"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// syncBuffer is a log sink safe for concurrent handlers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestNoFullCardNumberIsStoredOrLogged creates every test card (with an
// idempotency key, so parameters are fingerprinted), sends refused ones,
// then reads every row of every table as text and the server's log: no
// full card number, nor bank account number, may appear anywhere.
func TestNoFullCardNumberIsStoredOrLogged(t *testing.T) {
	t.Parallel()
	logs := &syncBuffer{}
	f := setup(t, testenv.WithLogger(slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	c := f.sk.CreateCustomer(testenv.Customer())
	f.sk.StandardPricing()
	var numbers, secrets []string
	for i, tc := range card.TestCards {
		numbers = append(numbers, tc.Number)
		h := http.Header{"Idempotency-Key": {"scan-" + itoa(int64(i))}}
		r := f.sk.Do(http.MethodPost, "/v1/payment_methods", testenv.CardBody(id(c), tc.Number), h)
		require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
		// A charge intent's inline card, and its client secret, charged
		// and replayed.
		intent := map[string]any{"amount": 100, "currency": "usd", "customer": id(c), "confirm": true,
			"payment_method_data": merge(testenv.CardData(tc.Number), map[string]any{"attach": true})}
		for range 2 {
			r = f.sk.Do(http.MethodPost, "/v1/charge_intents", intent, http.Header{"Idempotency-Key": {"scan-ci-" + itoa(int64(i))}})
			require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
			secrets = append(secrets, r.JSON()["client_secret"].(string))
		}
		f.sk.Post("/v1/charge_intents", merge(intent, map[string]any{"payment_method_data": map[string]any{"cvc": "x"}}))
		// Refused in production, and with a bad CVC.
		f.live.Post("/v1/payment_methods", testenv.CardBody("", tc.Number))
		f.sk.Post("/v1/payment_methods", merge(testenv.CardBody("", tc.Number), map[string]any{"cvc": "x"}))
	}
	real := "4012888888881881"
	numbers = append(numbers, real)
	f.sk.Post("/v1/payment_methods", testenv.CardBody("", real))
	f.live.Post("/v1/payment_methods", testenv.CardBody("", real))
	f.sk.Post("/v1/payment_methods", map[string]any{"type": "ach", "routing_number": "110000000",
		"account_number": "000123456789", "account_type": "checking"})
	numbers = append(numbers, "000123456789")
	f.sk.Delete("/v1/customers/" + id(c))

	var tables []string
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT table_name FROM information_schema.tables
		WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`).Scan(context.Background(), &tables))
	require.Contains(t, tables, "payment_methods")
	var dump strings.Builder
	for _, table := range tables {
		var rows []string
		require.NoError(t, f.env.DB.Bun.NewRaw("SELECT t::text FROM "+table+" AS t").Scan(context.Background(), &rows))
		for _, r := range rows {
			dump.WriteString(r)
			dump.WriteByte('\n')
		}
	}
	require.Contains(t, dump.String(), "payment_method.created", "the dump holds the events")
	require.NotEmpty(t, logs.String(), "the server logged")
	for _, n := range numbers {
		require.NotContains(t, dump.String(), n, "the database holds a full number")
		require.NotContains(t, logs.String(), n, "the log holds a full number")
	}
	require.Contains(t, dump.String(), "charge_intent.created", "the dump holds the charge intents' events")
	for _, secret := range secrets {
		_, random, _ := strings.Cut(secret, "_secret_")
		require.NotContains(t, dump.String(), random, "the database holds a client secret in clear")
		require.NotContains(t, logs.String(), random, "the log holds a client secret")
	}
}
