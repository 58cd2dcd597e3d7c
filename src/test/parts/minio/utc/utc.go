// Package utc is github.com/minio/minio/internal/init (linux): all MinIO
// operations must be under UTC. Its import path sorts before the upstream
// packages, so Go (1.21+) initialises it before them, as early as upstream's.
package utc

import "os"

func init() {
	// All MinIO operations must be under UTC.
	os.Setenv("TZ", "UTC")
}
