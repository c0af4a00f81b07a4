package ensemble

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// A TLS ensemble (Config.TLS) serves clients on a secure client port only,
// through ZooKeeper's Netty connection factory, with a certificate made at
// Start by a certificate authority made at Start too: no key is ever
// written anywhere but the ensemble's own directory, which Stop removes.
// ZooKeeper 3.6 and later read PEM key and trust stores, so no keytool is
// needed. Links between servers stay plaintext.

// tlsMaterial is a TLS ensemble's certificates: the files the servers read
// and the configuration clients need to trust them.
type tlsMaterial struct {
	keyStore   string // the server's private key and certificate, PEM
	trustStore string // the CA certificate, PEM
	caPEM      []byte
	client     *tls.Config
}

// certValidity is long enough for any test run, and short enough that a
// leaked directory holds nothing worth stealing for long.
const certValidity = 24 * time.Hour

// newTLSMaterial makes a CA and a server certificate for 127.0.0.1 and
// localhost, and writes the servers' stores into dir.
func newTLSMaterial(dir string) (*tlsMaterial, error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("ensemble: tls: %w", err)
	}
	now := time.Now().Add(-time.Hour) // tolerate a clock a little behind
	caTmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "zklock ensemble test CA"},
		NotBefore:             now,
		NotAfter:              now.Add(certValidity),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("ensemble: tls: CA: %w", err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, fmt.Errorf("ensemble: tls: CA: %w", err)
	}
	srvKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("ensemble: tls: %w", err)
	}
	srvTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "localhost"},
		NotBefore:    now,
		NotAfter:     now.Add(certValidity),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	srvDER, err := x509.CreateCertificate(rand.Reader, srvTmpl, ca, &srvKey.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("ensemble: tls: server certificate: %w", err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(srvKey)
	if err != nil {
		return nil, fmt.Errorf("ensemble: tls: %w", err)
	}
	m := &tlsMaterial{
		keyStore:   filepath.Join(dir, "server.pem"),
		trustStore: filepath.Join(dir, "ca.pem"),
		caPEM:      pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
	}
	// ZooKeeper's PEM key store holds the key and the certificate chain.
	keyStore := append(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}),
		pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srvDER})...)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("ensemble: tls: %w", err)
	}
	if err := os.WriteFile(m.keyStore, keyStore, 0o600); err != nil {
		return nil, fmt.Errorf("ensemble: tls: %w", err)
	}
	if err := os.WriteFile(m.trustStore, m.caPEM, 0o644); err != nil {
		return nil, fmt.Errorf("ensemble: tls: %w", err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	m.client = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	return m, nil
}

// tlsConfigLines are the zoo.cfg lines of a TLS-only client port. Keys
// ZooKeeper does not know in zoo.cfg become "zookeeper."-prefixed system
// properties, which is where its Netty factory reads them.
func (m *tlsMaterial) configLines(port int) []string {
	return []string{
		"secureClientPortAddress=127.0.0.1",
		fmt.Sprintf("secureClientPort=%d", port),
		"serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory",
		"ssl.keyStore.location=" + m.keyStore,
		"ssl.keyStore.type=PEM",
		"ssl.trustStore.location=" + m.trustStore,
		"ssl.trustStore.type=PEM",
		// Clients prove nothing with certificates here: the ensemble tests
		// the channel, not x509 authentication.
		"ssl.clientAuth=none",
	}
}

// tlsClassPath is what Debian's 3.8 package lacks for Netty's TLS
// handler: its jar's manifest names Netty's handler but not the codec and
// resolver jars the handler is built on (all in Debian's libnetty-java,
// which the package depends on).
func tlsClassPath() []string {
	return []string{"/usr/share/java/netty-codec.jar", "/usr/share/java/netty-resolver.jar"}
}

// ClientTLS returns a client configuration that trusts the ensemble's
// certificate authority (its server certificate names 127.0.0.1 and
// localhost), or nil if the ensemble does not serve TLS. Each call returns
// a fresh copy.
func (e *Ensemble) ClientTLS() *tls.Config {
	if e.tls == nil {
		return nil
	}
	return e.tls.client.Clone()
}

// CACertPEM returns the ensemble's CA certificate in PEM, or nil if the
// ensemble does not serve TLS.
func (e *Ensemble) CACertPEM() []byte {
	if e.tls == nil {
		return nil
	}
	return append([]byte(nil), e.tls.caPEM...)
}

// TLS reports whether the ensemble serves clients over TLS only.
func (e *Ensemble) TLS() bool { return e.tls != nil }

// fourLetter sends a four-letter word to one of the ensemble's servers,
// over TLS when the ensemble serves TLS: ZooKeeper answers them on the
// secure port too, once the handshake is done.
func (e *Ensemble) fourLetter(ctx context.Context, addr, cmd string) (string, error) {
	if e.tls == nil {
		return FourLetterWord(ctx, addr, cmd)
	}
	return FourLetterWordTLS(ctx, addr, cmd, e.tls.client)
}
