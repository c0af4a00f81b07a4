package zklock

import (
	"os"
	"testing"

	"github.com/zklock/zklock/ensemble/ensembletest"
)

// One ensemble for the whole test binary; -short starts none and the tests
// that need it skip.
// A test binary started by TestPauseBetweenListingAndGrant runs as the
// paused client instead.
func TestMain(m *testing.M) {
	if os.Getenv(envPauseChild) != "" {
		os.Exit(pauseChild())
	}
	os.Exit(ensembletest.Main(m))
}
