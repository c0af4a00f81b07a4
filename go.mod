module github.com/zklock/zklock

go 1.23

require (
	github.com/anishathalye/porcupine v1.3.1
	github.com/go-zookeeper/zk v1.0.4
	pgregory.net/rapid v1.3.0
)
