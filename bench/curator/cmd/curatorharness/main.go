// Command curatorharness fetches, verifies and builds the Curator harness, and
// runs it by hand:
//
//	go run ./bench/curator/cmd/curatorharness prepare   # fetch + verify + compile; print the java command
//	go run ./bench/curator/cmd/curatorharness run hold --dry-run
//	go run ./bench/curator/cmd/curatorharness run hold --servers 127.0.0.1:2181
//	go run ./bench/curator/cmd/curatorharness pin > bench/curator/checksums.sha256
//
// pin resolves with Maven afresh and prints the sha256 of every jar it
// copied, for review after changing pom.xml; it is the only command that does
// not check the committed checksums.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"

	"github.com/zklock/zklock/bench/curator"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			os.Exit(exit.ExitCode())
		}
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return errors.New("usage: curatorharness prepare | pin | run [ARGS]")
	}
	cache, err := curator.CacheDir()
	if err != nil {
		return err
	}
	switch args[0] {
	case "pin":
		sums, err := curator.Resolve(ctx, cache)
		if err != nil {
			return err
		}
		_, err = os.Stdout.Write(sums)
		return err
	case "prepare", "run":
		h, err := curator.Prepare(ctx, cache, os.Stderr)
		if err != nil {
			return err
		}
		cmd := h.Command(ctx, nil, args[1:]...)
		if args[0] == "prepare" {
			fmt.Println(strings.Join(cmd.Args, " "))
			return nil
		}
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		return cmd.Run()
	default:
		return fmt.Errorf("unknown command %q", args[0])
	}
}
