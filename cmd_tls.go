package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/devtls"
	"github.com/frame-oss/payments-server/internal/platform/flagenv"
)

// tlsFlags are serve's HTTPS: a certificate of the operator's, or the
// development one made on first use in the data dir (docs/security.md,
// "HTTPS"). Without either, serve speaks HTTP, as it always has.
type tlsFlags struct {
	cert, key string
	dev       bool
}

func (f *tlsFlags) register(fs *flag.FlagSet, getenv func(string) string) error {
	fs.StringVar(&f.cert, "tls-cert", getenv("TLS_CERT_FILE"),
		"serve HTTPS with this PEM certificate (chain); needs --tls-key (env TLS_CERT_FILE)")
	fs.StringVar(&f.key, "tls-key", getenv("TLS_KEY_FILE"), "the PEM private key of --tls-cert (env TLS_KEY_FILE)")
	e := flagenv.New(fs, getenv)
	e.Bool(&f.dev, "tls-dev", "TLS_DEV",
		"serve HTTPS for localhost with a local development CA made on first use in <data-dir>/tls; prints how to trust it")
	return e.Err()
}

// files are the certificate and key to serve, "" for HTTP. With --tls-dev
// it makes what the data dir lacks and tells the user how their clients
// trust it.
func (f *tlsFlags) files(dataDir string, now time.Time, out io.Writer) (cert, key string, err error) {
	switch {
	case f.dev && (f.cert != "" || f.key != ""):
		return "", "", errors.New("serve: --tls-dev makes its own certificate: drop --tls-cert and --tls-key, or --tls-dev")
	case f.dev:
		dir, err := filepath.Abs(filepath.Join(dataDir, "tls"))
		if err != nil {
			return "", "", err
		}
		files, made, err := devtls.Ensure(dir, now)
		if err != nil {
			return "", "", err
		}
		printTrust(out, files, len(made) > 0)
		return files.Cert, files.Key, nil
	case (f.cert == "") != (f.key == ""):
		return "", "", errors.New("serve: --tls-cert and --tls-key go together")
	}
	for _, p := range []string{f.cert, f.key} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err != nil {
			return "", "", fmt.Errorf("serve: %w", err)
		}
	}
	return f.cert, f.key, nil
}

// printTrust tells how clients trust the development CA.
func printTrust(out io.Writer, f devtls.Files, made bool) {
	what := "uses"
	if made {
		what = "made"
	}
	fmt.Fprintf(out, `HTTPS for localhost: this server %s a local development CA in %s.
Clients trust it with:
  Node (the official SDKs, the CLI):  export NODE_EXTRA_CA_CERTS=%s
  Ruby, Python, curl, Go:             export SSL_CERT_FILE=%s
(the CA signs for localhost and the loopback addresses only)
`, what, f.Dir, f.CACert, f.Bundle)
}
