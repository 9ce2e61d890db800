package webhooks

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptrace"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"github.com/frame-oss/payments-server/internal/domain/webhook"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/secrets"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
)

// Delivery POSTs events to webhook endpoints: the River workers (one job
// per endpoint with deliveries pending, endpoint_cursor.go), their HTTP
// clients and the dispatcher that enqueues what the events trigger queued.
type Delivery struct {
	db         *store.DB
	secrets    *secrets.Source
	clock      clock.Clock
	logger     *slog.Logger
	cfg        DeliveryConfig
	production *http.Client // public addresses only
	sandbox    *http.Client // and local ones when cfg.Destinations allows
}

// NewDelivery builds the delivery of one process; secrets opens the
// endpoints' sealed signing secrets (the server secret the API seals them
// with).
func NewDelivery(db *store.DB, secretSource *secrets.Source, clk clock.Clock, logger *slog.Logger, cfg DeliveryConfig) *Delivery {
	if logger == nil {
		logger = slog.Default()
	}
	cfg = cfg.withDefaults()
	return &Delivery{db: db, secrets: secretSource, clock: clk, logger: logger, cfg: cfg,
		production: newDeliveryClient(cfg.Timeout, cfg.ConnectTimeout, cfg.Destinations, true),
		sandbox:    newDeliveryClient(cfg.Timeout, cfg.ConnectTimeout, cfg.Destinations, false)}
}

// Register adds the delivery workers to workers and returns the queues
// they need (for jobs.Config).
func (d *Delivery) Register(workers *river.Workers) (map[string]int, error) {
	if err := river.AddWorkerSafely(workers, &cursorWorker{d: d}); err != nil {
		return nil, fmt.Errorf("webhooks: register delivery worker: %w", err)
	}
	if err := river.AddWorkerSafely(workers, &handOffWorker{d: d}); err != nil {
		return nil, fmt.Errorf("webhooks: register delivery worker: %w", err)
	}
	return map[string]int{Queue: d.cfg.Workers}, nil
}

// post makes one attempt: the signed POST of body (API-DECISIONS §5).
func (d *Delivery) post(ctx context.Context, ep *models.WebhookEndpoint, del *models.WebhookDelivery, body []byte, signing signingSecrets, now time.Time) *models.WebhookAttempt {
	at := &models.WebhookAttempt{URL: ep.URL}
	fail := func(msg string) *models.WebhookAttempt { at.Error = &msg; return at }
	if p := webhook.URLProblem(ep.URL, ep.Livemode); p != "" {
		return fail("refused: the endpoint url " + p)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.URL, bytes.NewReader(body))
	if err != nil {
		return fail("refused: the endpoint url is invalid")
	}
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", deliveryUserAgent)
	h.Set(webhook.HeaderWebhookID, del.ID.String())
	h.Set(webhook.HeaderEvent, del.EventType)
	h.Set(webhook.HeaderSignature, webhook.Sign(signing.legacy, body))
	h.Set(webhook.HeaderTimestamp, strconv.FormatInt(now.Unix(), 10))
	h.Set(webhook.HeaderSignatureV2, webhook.SignV2(now.Unix(), body, signing.all...))

	client := d.sandbox
	if ep.Livemode {
		client = d.production
	}
	// The address the answer came from: an excerpt is kept only from one
	// the mode may reach (the dialer refuses the others; this holds
	// whatever the connection came from).
	var remote netip.Addr
	req = req.WithContext(httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotConn: func(ci httptrace.GotConnInfo) {
		if ap, err := netip.ParseAddrPort(ci.Conn.RemoteAddr().String()); err == nil {
			remote = ap.Addr()
		}
	}}))
	resp, err := client.Do(req)
	at.LatencyMS = int(d.clock.Now().Sub(now) / time.Millisecond)
	if err != nil {
		return fail(describeFailure(err, d.cfg.Timeout, d.cfg.ConnectTimeout))
	}
	defer resp.Body.Close()
	code := resp.StatusCode
	at.StatusCode = &code
	excerpt, err := io.ReadAll(io.LimitReader(resp.Body, excerptLimit))
	at.LatencyMS = int(d.clock.Now().Sub(now) / time.Millisecond)
	if len(excerpt) > 0 && d.cfg.Destinations.Allows(webhook.ReachOf(remote), ep.Livemode) {
		at.ResponseExcerpt = storableExcerpt(string(excerpt))
	}
	if err != nil && (code < 200 || code >= 300) {
		return fail(describeFailure(err, d.cfg.Timeout, d.cfg.ConnectTimeout))
	}
	if code >= 300 && code < 400 {
		return fail("redirect not followed: answer " + strconv.Itoa(code))
	}
	return at
}

// signingSecrets are the secrets a delivery is signed with: legacy for the
// single-valued X-Frame-Signature, all (current first) for V2.
type signingSecrets struct {
	legacy string
	all    []string
}

// signingSecrets opens the endpoint's secrets. During a rotation's grace
// period the legacy header keeps the replaced secret (the one receivers
// still hold) and V2 carries both.
func (d *Delivery) signingSecrets(ctx context.Context, ep *models.WebhookEndpoint, now time.Time) (signingSecrets, error) {
	current, err := d.secrets.Open(ctx, SecretPurpose, ep.SealedSecret)
	if err != nil {
		return signingSecrets{}, err
	}
	s := signingSecrets{legacy: current, all: []string{current}}
	if ep.PreviousSealedSecret != nil && now.Before(ep.PreviousSecretExpires.Time) {
		previous, err := d.secrets.Open(ctx, SecretPurpose, *ep.PreviousSealedSecret)
		if err != nil {
			return signingSecrets{}, err
		}
		s.legacy, s.all = previous, append(s.all, previous)
	}
	return s, nil
}

// storableExcerpt is the start of an answer as an attempt keeps it: at
// most excerptLimit bytes, valid UTF-8, without NUL characters (which
// PostgreSQL's text refuses); nil when nothing is left.
func storableExcerpt(s string) *string {
	if len(s) > excerptLimit {
		s = s[:excerptLimit]
	}
	s = strings.ToValidUTF8(strings.ReplaceAll(s, "\x00", ""), "\uFFFD")
	if s == "" {
		return nil
	}
	return &s
}
