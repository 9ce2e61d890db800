package payments

import (
	"context"
	"net/http"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
)

// ClientConfig answers the configuration the real service's SDK reads
// before it collects card data, device signals or a Google Pay token
// (docs/sandbox.md, "Resources from the SDK"). Nothing is stored: the
// sandbox answers fixed test values (the Google Pay identifier is the
// merchant's id, so two merchants' apps are told apart), and production
// mode answers 503 provider_not_configured, like every write that needs a
// provider (op.Spec.Provider).
type ClientConfig struct{}

// clientConfigCallers may read the configuration: a browser or an app
// holds only the publishable key.
var clientConfigCallers = []auth.Kind{auth.SecretKey, auth.PublishableKey}

// The sandbox's fixed client configuration (docs/sandbox.md).
const (
	SandboxEvervaultAppID   = "app_sandbox"
	SandboxEvervaultTeamID  = "team_sandbox"
	SandboxSiftAccountID    = "sift_sandbox"
	SandboxSiftBeaconKey    = "beacon_sandbox"
	SandboxGooglePayEnv     = "TEST"
	SandboxGooglePayGateway = "sandbox"
	SandboxGooglePayKeyBase = "gpay_sandbox_"
)

// sandboxCaller authorizes the caller and refuses production mode, which
// would need provider.
func sandboxCaller(ctx context.Context, provider string) (*auth.Principal, error) {
	p, err := auth.Require(ctx, clientConfigCallers...)
	if err != nil {
		return nil, err
	}
	if p.Scope.Livemode {
		return nil, &apierr.Error{Status: http.StatusServiceUnavailable, Code: apierr.CodeProviderNotConfigured,
			Message: "No live " + provider + " provider is configured on this server"}
	}
	return p, nil
}

// Evervault answers GET /v1/config/evervault.
func (ClientConfig) Evervault(ctx context.Context) (*models.EvervaultConfiguration, error) {
	if _, err := sandboxCaller(ctx, "Evervault"); err != nil {
		return nil, err
	}
	return &models.EvervaultConfiguration{AppID: ptr(SandboxEvervaultAppID), TeamID: ptr(SandboxEvervaultTeamID)}, nil
}

// Sift answers GET /v1/config/sift.
func (ClientConfig) Sift(ctx context.Context) (*models.SiftConfiguration, error) {
	if _, err := sandboxCaller(ctx, "Sift"); err != nil {
		return nil, err
	}
	return &models.SiftConfiguration{AccountID: ptr(SandboxSiftAccountID), BeaconKey: ptr(SandboxSiftBeaconKey)}, nil
}

// GooglePay answers GET /v1/client/wallet/google_pay.
func (ClientConfig) GooglePay(ctx context.Context) (*models.GooglePayConfiguration, error) {
	p, err := sandboxCaller(ctx, "Google Pay")
	if err != nil {
		return nil, err
	}
	merchant := p.Scope.MerchantID.String()
	return &models.GooglePayConfiguration{Identifier: ptr(merchant), Environment: ptr(SandboxGooglePayEnv),
		Processor: ptr(SandboxGooglePayGateway), ProcessorKey: ptr(SandboxGooglePayKeyBase + merchant)}, nil
}

func ptr(s string) *string { return &s }
