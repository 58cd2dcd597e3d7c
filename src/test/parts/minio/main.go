// Command minio is the MinIO server of the pinned commit, run exactly as its
// upstream main.go does.
package main

import (
	"os"

	// MUST be first import: upstream imports github.com/minio/minio/internal/init
	// here, which a module of ours cannot import (internal); utc does the same.
	_ "dev.etcdoperator/parts/minio/utc"

	minio "github.com/minio/minio/cmd"
)

func main() {
	minio.Main(os.Args)
}
