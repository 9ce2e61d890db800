package devtls

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var now = time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)

func roots(t *testing.T, f Files) *x509.CertPool {
	t.Helper()
	pem, err := os.ReadFile(f.CACert)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(pem))
	return pool
}

// The first use makes a CA and a localhost certificate it signs; later
// uses keep them; the key files are the owner's only.
func TestEnsureMakesOnceWhatClientsVerify(t *testing.T) {
	dir := t.TempDir()
	f, made, err := Ensure(dir, now)
	require.NoError(t, err)
	require.Equal(t, []string{f.CACert, f.Cert}, made)
	for _, key := range []string{f.CAKey, f.Key} {
		st, err := os.Stat(key)
		require.NoError(t, err)
		require.Equal(t, os.FileMode(0o600), st.Mode().Perm(), key)
	}
	pair, err := tls.LoadX509KeyPair(f.Cert, f.Key)
	require.NoError(t, err)
	leaf, err := x509.ParseCertificate(pair.Certificate[0])
	require.NoError(t, err)
	for _, name := range []string{"localhost", "127.0.0.1", "::1"} {
		_, err := leaf.Verify(x509.VerifyOptions{DNSName: name, Roots: roots(t, f), CurrentTime: now})
		require.NoError(t, err, name)
	}
	bundle, err := os.ReadFile(f.Bundle)
	require.NoError(t, err)
	ca, err := os.ReadFile(f.CACert)
	require.NoError(t, err)
	require.Contains(t, string(bundle), string(ca), "the bundle ends with the CA")

	again, made, err := Ensure(dir, now.Add(24*time.Hour))
	require.NoError(t, err)
	require.Empty(t, made, "nothing new while the certificate is good")
	require.Equal(t, f, again)
}

// A certificate nearing its end is made again, under the same CA.
func TestEnsureRenewsTheCertificate(t *testing.T) {
	dir := t.TempDir()
	f, _, err := Ensure(dir, now)
	require.NoError(t, err)
	later := now.Add(certLifetime - renewBefore + time.Hour)
	_, made, err := Ensure(dir, later)
	require.NoError(t, err)
	require.Equal(t, []string{f.Cert}, made)
	pair, err := tls.LoadX509KeyPair(f.Cert, f.Key)
	require.NoError(t, err)
	leaf, err := x509.ParseCertificate(pair.Certificate[0])
	require.NoError(t, err)
	_, err = leaf.Verify(x509.VerifyOptions{DNSName: "localhost", Roots: roots(t, f), CurrentTime: later.Add(300 * 24 * time.Hour)})
	require.NoError(t, err)
}

// The CA signs nothing a client would trust beyond localhost and the
// loopback addresses, should its key leak.
func TestTheCAIsConstrainedToLocalhost(t *testing.T) {
	dir := t.TempDir()
	f, _, err := Ensure(dir, now)
	require.NoError(t, err)
	ca, caKey, err := loadPair(f.CACert, f.CAKey)
	require.NoError(t, err)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	forged, err := sign(&x509.Certificate{DNSNames: []string{"bank.example"}, NotBefore: now, NotAfter: now.Add(time.Hour),
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}, ca, &key.PublicKey, caKey)
	require.NoError(t, err)
	_, err = forged.Verify(x509.VerifyOptions{DNSName: "bank.example", Roots: roots(t, f), CurrentTime: now})
	require.Error(t, err)
}
