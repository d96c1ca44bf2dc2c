package calabresella

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"

	pb "github.com/calabresella/calabresella/clients/go/gen/calabresella/v1"
)

// testCA is a throwaway certificate authority made for one test.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
}

// newTestCA makes a self-signed CA certificate valid for an hour.
func newTestCA(t *testing.T, name string) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             time.Now().Add(-time.Minute),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return &testCA{cert: cert, key: key, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// file writes the CA's certificate to a PEM file and returns its path.
func (ca *testCA) file(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(path, ca.pem, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// issue makes a server certificate signed by the CA for these DNS names and IP addresses.
func (ca *testCA) issue(t *testing.T, dns []string, ips ...net.IP) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "calabresella test server"},
		NotBefore:    time.Now().Add(-time.Minute),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     dns,
		IPAddresses:  ips,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// startTLS serves f over TLS with cert on a free port of 127.0.0.1 and returns the port.
func startTLS(t *testing.T, f *fakeServer, cert tls.Certificate) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer(grpc.Creds(credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{cert}})))
	pb.RegisterTableServiceServer(s, f)
	go func() { _ = s.Serve(lis) }()
	t.Cleanup(s.Stop)
	_, port, _ := net.SplitHostPort(lis.Addr().String())
	return port
}

// getTable is one GetTable on a client of address, within 10 s.
func getTable(t *testing.T, address string, opts ...ClientOption) error {
	t.Helper()
	c, err := Dial(address, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Close() }()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = c.GetTable(ctx, "t1")
	return err
}

func TestTLSWithTheRightCAReachesTheServerByIPAndName(t *testing.T) {
	ca := newTestCA(t, "calabresella test CA")
	f := &fakeServer{getTable: func(r *pb.GetTableRequest) (*pb.GetTableResponse, error) {
		return &pb.GetTableResponse{Table: &pb.Table{TableId: r.GetTableId()}}, nil
	}}
	port := startTLS(t, f, ca.issue(t, []string{"localhost"}, net.ParseIP("127.0.0.1")))
	for _, host := range []string{"127.0.0.1", "localhost"} {
		if err := getTable(t, "https://"+host+":"+port, WithCACert(ca.file(t))); err != nil {
			t.Fatalf("%s: %v", host, err)
		}
	}
}

func TestTLSRefusesAServerTheCADidNotSign(t *testing.T) {
	ca := newTestCA(t, "calabresella test CA")
	other := newTestCA(t, "another CA")
	port := startTLS(t, &fakeServer{}, ca.issue(t, []string{"localhost"}, net.ParseIP("127.0.0.1")))
	started := time.Now()
	err := getTable(t, "https://127.0.0.1:"+port, WithCACert(other.file(t)))
	var e *Error
	if !errors.As(err, &e) || e.Code != codes.Unavailable {
		t.Fatalf("a wrong CA: %v, want an *Error UNAVAILABLE", err)
	}
	if d := time.Since(started); d > 5*time.Second {
		t.Fatalf("a wrong CA: failed after %v", d)
	}
	// Without a CA file the system's roots are used, which do not know the test CA either.
	if err := getTable(t, "https://127.0.0.1:"+port); !errors.As(err, &e) || e.Code != codes.Unavailable {
		t.Fatalf("the system's roots: %v, want an *Error UNAVAILABLE", err)
	}
}

func TestTLSChecksTheServersName(t *testing.T) {
	ca := newTestCA(t, "calabresella test CA")
	port := startTLS(t, &fakeServer{}, ca.issue(t, []string{"cards.example.org"}))
	err := getTable(t, "https://127.0.0.1:"+port, WithCACert(ca.file(t)))
	var e *Error
	if !errors.As(err, &e) || e.Code != codes.Unavailable {
		t.Fatalf("a certificate for another name: %v, want an *Error UNAVAILABLE", err)
	}
}

func TestCACertOptionErrors(t *testing.T) {
	ca := newTestCA(t, "calabresella test CA").file(t)
	for _, address := range []string{"127.0.0.1:50051", "http://127.0.0.1:50051"} {
		if _, err := Dial(address, WithCACert(ca)); !errors.Is(err, ErrCACertWithoutTLS) || !strings.Contains(err.Error(), "not https://") {
			t.Errorf("%s with a CA: %v", address, err)
		}
	}
	missing := filepath.Join(t.TempDir(), "nowhere", "ca.pem")
	if _, err := Dial("https://127.0.0.1:50051", WithCACert(missing)); err == nil || !strings.Contains(err.Error(), missing) || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing CA file: %v", err)
	}
	notPEM := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(notPEM, []byte("not a certificate\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Dial("https://127.0.0.1:50051", WithCACert(notPEM)); err == nil || !strings.Contains(err.Error(), notPEM) {
		t.Errorf("a CA file without a certificate: %v", err)
	}
	// Plaintext and TLS without a CA file construct as before.
	for _, address := range []string{"127.0.0.1:50051", "http://127.0.0.1:50051/", "https://127.0.0.1:50051"} {
		c, err := Dial(address)
		if err != nil {
			t.Errorf("%s: %v", address, err)
			continue
		}
		_ = c.Close()
	}
}
