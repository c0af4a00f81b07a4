package ensemble_test

import (
	"os"
	"testing"

	"github.com/zklock/zklock/ensemble/ensembletest"
)

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		os.Exit(runHelper())
	}
	os.Exit(ensembletest.Main(m))
}
