package zklock

import (
	"os"
	"testing"

	"github.com/zklock/zklock/ensemble/ensembletest"
)

// One ensemble for the whole test binary; -short starts none and the tests
// that need it skip.
func TestMain(m *testing.M) { os.Exit(ensembletest.Main(m)) }
