package ensemble_test

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble"
)

// TestTLSStandalone starts a TLS-only server: it answers four-letter words
// over TLS with the client configuration the ensemble gives out, and a
// plaintext word, or a client that trusts another CA, gets nothing. Stop
// removes the keys with the rest of the directory.
func TestTLSStandalone(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a ZooKeeper server")
	}
	ctx := ctxTimeout(t, 90*time.Second)
	e, err := ensemble.Start(ctx, ensemble.Config{Servers: 1, Dir: t.TempDir(), TLS: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Stop()
	if !e.TLS() || e.ClientTLS() == nil || len(e.CACertPEM()) == 0 {
		t.Fatalf("TLS ensemble without client configuration")
	}
	st, err := e.Srvr(ctx, 0)
	if err != nil || st.Mode != ensemble.ModeStandalone {
		t.Fatalf("srvr over TLS: %+v, %v", st, err)
	}
	addr := e.Addrs()[0]
	if out, err := ensemble.FourLetterWordTLS(ctx, addr, "ruok", e.ClientTLS()); err != nil || out != "imok" {
		t.Fatalf("ruok over TLS: %q, %v", out, err)
	}
	// Controls: the port speaks nothing but TLS, and only to clients that
	// trust its CA.
	if out, err := ensemble.FourLetterWord(ctx, addr, "ruok"); err == nil && out == "imok" {
		t.Errorf("plaintext ruok on the TLS port answered %q", out)
	}
	other := &tls.Config{RootCAs: x509.NewCertPool()}
	_, err = ensemble.FourLetterWordTLS(ctx, addr, "ruok", other)
	var unknown x509.UnknownAuthorityError
	if !errors.As(err, &unknown) {
		t.Errorf("ruok trusting another CA: %v, want x509.UnknownAuthorityError", err)
	}
	if _, err := ensemble.FourLetterWordTLS(ctx, addr, "ruok", nil); !errors.Is(err, ensemble.ErrBadConfig) {
		t.Errorf("nil TLS config: %v, want ErrBadConfig", err)
	}
	if _, err := ensemble.Start(ctx, ensemble.Config{TLS: true, Detached: true}); !errors.Is(err, ensemble.ErrBadConfig) {
		t.Errorf("TLS and Detached: %v, want ErrBadConfig", err)
	}
}
