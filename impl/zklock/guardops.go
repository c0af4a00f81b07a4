package zklock

import (
	"fmt"

	"github.com/go-zookeeper/zk"
)

// The operations Guard runs after its check: vetted, and put under the
// session's chroot.

// checkOps refuses what go-zookeeper would refuse untyped, and data the
// server would answer by dropping the connection.
func checkOps(ops []any) error {
	size := 0
	for i, op := range ops {
		isNil := false
		switch o := op.(type) {
		case *zk.CreateRequest:
			if isNil = o == nil; !isNil {
				size += len(o.Data)
			}
		case *zk.SetDataRequest:
			if isNil = o == nil; !isNil {
				size += len(o.Data)
			}
		case *zk.DeleteRequest:
			isNil = o == nil
		case *zk.CheckVersionRequest:
			isNil = o == nil
		default:
			return fmt.Errorf("%w: op %d is a %T, not a *zk.CreateRequest, *zk.SetDataRequest, *zk.DeleteRequest or *zk.CheckVersionRequest",
				ErrInvalidArgument, i, op)
		}
		if isNil {
			return fmt.Errorf("%w: op %d is a nil request", ErrInvalidArgument, i)
		}
	}
	if size > MaxNodeData {
		return fmt.Errorf("%w: %d bytes of data in one multi (max %d)", ErrDataTooLarge, size, MaxNodeData)
	}
	return nil
}

func baseName(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}

// chrooted copies Guard's ops with the chroot prefixed to their paths
// (checkOps has vetted them), leaving the caller's requests as they were.
func (s *Session) chrooted(ops []any) []any {
	if s.chroot == "" {
		return ops
	}
	out := make([]any, len(ops))
	for i, op := range ops {
		switch o := op.(type) {
		case *zk.CreateRequest:
			out[i] = underRoot(s, o, func(r *zk.CreateRequest) *string { return &r.Path })
		case *zk.SetDataRequest:
			out[i] = underRoot(s, o, func(r *zk.SetDataRequest) *string { return &r.Path })
		case *zk.DeleteRequest:
			out[i] = underRoot(s, o, func(r *zk.DeleteRequest) *string { return &r.Path })
		case *zk.CheckVersionRequest:
			out[i] = underRoot(s, o, func(r *zk.CheckVersionRequest) *string { return &r.Path })
		}
	}
	return out
}

// underRoot copies a request, its path (field) put under the session's
// chroot.
func underRoot[R any](s *Session, r *R, field func(*R) *string) *R {
	c := *r
	p := field(&c)
	*p = s.abs(*p)
	return &c
}

// abs puts a path under the session's chroot.
func (s *Session) abs(p string) string {
	if s.chroot == "" {
		return p
	}
	if p == "/" {
		return s.chroot
	}
	return s.chroot + p
}
