// Package devtls makes the HTTPS of a developer's machine: a local
// certificate authority and a certificate for localhost signed by it,
// made on first use and kept in a folder, so that clients with HTTPS hard-
// coded (the real service's sample apps) reach the server unchanged once
// they trust the CA (docs/security.md, "HTTPS").
//
// The CA is name-constrained to localhost and the loopback addresses: a
// client that trusts it trusts nothing else it could sign, should its key
// leak. The certificate is made again when it is about to expire.
package devtls

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// Files are the development HTTPS files of a folder.
type Files struct {
	Dir string
	// CACert is the CA's certificate: what a client trusts
	// (NODE_EXTRA_CA_CERTS adds it to Node's roots).
	CACert string
	CAKey  string
	// Cert and Key are the server's: localhost, 127.0.0.1 and ::1.
	Cert string
	Key  string
	// Bundle is the system's roots and the CA in one file, for the
	// clients whose SSL_CERT_FILE replaces the roots (OpenSSL: Ruby,
	// Python, curl; Go).
	Bundle string
}

// In names the files of dir.
func In(dir string) Files {
	return Files{Dir: dir, CACert: filepath.Join(dir, "ca.pem"), CAKey: filepath.Join(dir, "ca-key.pem"),
		Cert: filepath.Join(dir, "localhost.pem"), Key: filepath.Join(dir, "localhost-key.pem"),
		Bundle: filepath.Join(dir, "ca-bundle.pem")}
}

// Lifetimes: the CA's, the certificate's (what clients accept of a
// server's), and how long before its end a certificate is made again.
const (
	caLifetime   = 10 * 365 * 24 * time.Hour
	certLifetime = 397 * 24 * time.Hour
	renewBefore  = 30 * 24 * time.Hour
)

// systemRoots are where the usual systems keep their roots, first found
// first.
var systemRoots = []string{
	"/etc/ssl/certs/ca-certificates.crt", // Debian, Ubuntu, Alpine
	"/etc/pki/tls/certs/ca-bundle.crt",   // Fedora, RHEL
	"/etc/ssl/cert.pem",                  // macOS, OpenBSD
}

// Ensure makes what dir lacks, as of now: the CA (once), the certificate
// (once, and again when it nears its end), and the bundle. made lists what
// it wrote.
func Ensure(dir string, now time.Time) (f Files, made []string, err error) {
	f = In(dir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return f, nil, err
	}
	ca, caKey, err := loadPair(f.CACert, f.CAKey)
	if errors.Is(err, fs.ErrNotExist) {
		if ca, caKey, err = newCA(f, now); err == nil {
			made = append(made, f.CACert)
		}
	}
	if err != nil {
		return f, nil, fmt.Errorf("devtls: the CA in %s: %w", dir, err)
	}
	cert, _, err := loadPair(f.Cert, f.Key)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && (now.Add(renewBefore).After(cert.NotAfter) || cert.CheckSignatureFrom(ca) != nil)) {
		if err = newLeaf(f, ca, caKey, now); err == nil {
			made = append(made, f.Cert)
		}
	}
	if err != nil {
		return f, nil, fmt.Errorf("devtls: the certificate in %s: %w", dir, err)
	}
	if len(made) > 0 || !exists(f.Bundle) {
		if err := writeBundle(f); err != nil {
			return f, nil, err
		}
	}
	return f, made, nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func newCA(f Files, now time.Time) (*x509.Certificate, *ecdsa.PrivateKey, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		Subject:                     pkix.Name{CommonName: "payments-server development CA", Organization: []string{"payments-server"}},
		NotBefore:                   now.Add(-time.Hour),
		NotAfter:                    now.Add(caLifetime),
		KeyUsage:                    x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid:       true,
		IsCA:                        true,
		MaxPathLenZero:              true,
		PermittedDNSDomainsCritical: true,
		PermittedDNSDomains:         []string{"localhost"},
		PermittedIPRanges: []*net.IPNet{
			{IP: net.IPv4(127, 0, 0, 0).To4(), Mask: net.CIDRMask(8, 32)},
			{IP: net.IPv6loopback, Mask: net.CIDRMask(128, 128)},
		},
	}
	cert, err := sign(tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	if err := writePair(f.CACert, f.CAKey, cert, key); err != nil {
		return nil, nil, err
	}
	return cert, key, nil
}

func newLeaf(f Files, ca *x509.Certificate, caKey *ecdsa.PrivateKey, now time.Time) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{
		Subject:     pkix.Name{CommonName: "localhost", Organization: []string{"payments-server"}},
		NotBefore:   now.Add(-time.Hour),
		NotAfter:    now.Add(certLifetime),
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:    []string{"localhost"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	cert, err := sign(tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		return err
	}
	return writePair(f.Cert, f.Key, cert, key)
}

func sign(tmpl, parent *x509.Certificate, pub *ecdsa.PublicKey, signer *ecdsa.PrivateKey) (*x509.Certificate, error) {
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return nil, err
	}
	tmpl.SerialNumber = serial
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, pub, signer)
	if err != nil {
		return nil, err
	}
	return x509.ParseCertificate(der)
}

// writePair writes a certificate (readable by all) and its key (by the
// owner only), each to a temporary file renamed into place.
func writePair(certPath, keyPath string, cert *x509.Certificate, key *ecdsa.PrivateKey) error {
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	if err := writeFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		return err
	}
	return writeFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Raw}), 0o644)
}

func writeFile(path string, data []byte, mode os.FileMode) error {
	tmp := path + ".partial"
	if err := os.WriteFile(tmp, data, mode); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// loadPair reads a certificate and its key.
func loadPair(certPath, keyPath string) (*x509.Certificate, *ecdsa.PrivateKey, error) {
	certPEM, err := os.ReadFile(certPath)
	if err != nil {
		return nil, nil, err
	}
	keyPEM, err := os.ReadFile(keyPath)
	if err != nil {
		return nil, nil, err
	}
	cb, _ := pem.Decode(certPEM)
	kb, _ := pem.Decode(keyPEM)
	if cb == nil || kb == nil {
		return nil, nil, errors.New("not PEM")
	}
	cert, err := x509.ParseCertificate(cb.Bytes)
	if err != nil {
		return nil, nil, err
	}
	key, err := x509.ParseECPrivateKey(kb.Bytes)
	if err != nil {
		return nil, nil, err
	}
	return cert, key, nil
}

// writeBundle writes the system's roots (when a usual file holds them)
// followed by the CA.
func writeBundle(f Files) error {
	var b bytes.Buffer
	for _, path := range systemRoots {
		if roots, err := os.ReadFile(path); err == nil {
			b.Write(bytes.TrimRight(roots, "\n"))
			b.WriteString("\n")
			break
		}
	}
	ca, err := os.ReadFile(f.CACert)
	if err != nil {
		return err
	}
	b.Write(ca)
	return writeFile(f.Bundle, b.Bytes(), 0o644)
}
