package tlc

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

func TestFetchFile(t *testing.T) {
	body := []byte("not really a jar")
	sum := sha256.Sum256(body)
	good := hex.EncodeToString(sum[:])
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		w.Write(body)
	}))
	defer srv.Close()
	dir := t.TempDir()
	dest := filepath.Join(dir, "cache", "tool.jar")
	ctx := context.Background()

	// A wrong checksum: error, and nothing left behind.
	bad := hex.EncodeToString(make([]byte, 32))
	err := FetchFile(ctx, srv.Client(), srv.URL, bad, dest)
	if !errors.Is(err, ErrChecksum) {
		t.Fatalf("FetchFile with a wrong sha256: %v, want ErrChecksum", err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(dest)); len(entries) != 0 {
		t.Errorf("files left after a failed download: %v", entries)
	}

	// The right checksum: downloaded once, then served from the cache.
	if err := FetchFile(ctx, srv.Client(), srv.URL, good, dest); err != nil {
		t.Fatal(err)
	}
	if err := FetchFile(ctx, srv.Client(), srv.URL, good, dest); err != nil {
		t.Fatal(err)
	}
	if hits != 2 {
		t.Errorf("%d downloads, want 2 (one failed, one good, then cached)", hits)
	}
	if got, _ := os.ReadFile(dest); string(got) != string(body) {
		t.Errorf("cached content %q", got)
	}

	// A corrupted cache is replaced.
	if err := os.WriteFile(dest, []byte("corrupt"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := FetchFile(ctx, srv.Client(), srv.URL, good, dest); err != nil || hits != 3 {
		t.Errorf("corrupt cache: err %v, %d downloads", err, hits)
	}
}

func TestFetchFileHTTPError(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	err := FetchFile(context.Background(), srv.Client(), srv.URL, JarSHA256, filepath.Join(t.TempDir(), "x.jar"))
	if err == nil {
		t.Error("FetchFile accepted a 404")
	}
}
