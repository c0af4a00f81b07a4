package faultinject

import (
	"os"
	"testing"

	"github.com/zklock/zklock/ensemble/ensembletest"
)

func TestMain(m *testing.M) { os.Exit(ensembletest.Main(m)) }
