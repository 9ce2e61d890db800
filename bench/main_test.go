package bench

import (
	"testing"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }
