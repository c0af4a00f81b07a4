package recipe

import (
	"fmt"
	"slices"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/traceevent"
)

// Action indices (model.Label.Action) of the actions both modules have, the
// same in both; a module numbers its own actions from NumShared on.
const (
	ActRequestLock uint8 = iota
	ActCreateOk
	ActCreateReplyLost
	ActFindOwnNode
	ActListChildren
	ActWatchPredecessor
	ActPredecessorGone
	ActGrantOnHeadGone
	ActIgnoreNotification
	ActGrant
	ActRelease
	ActCancel
	ActLearnExpiry
	ActExpireSession
	ActPauseClient
	ActResumeClient
	ActDeleteLands
	NumShared
)

// SharedNames are the spec's names of the shared actions, by index. The
// actions a client's trace carries are named by package traceevent's
// constants, the one table of those names; the others no client observes.
var SharedNames = [NumShared]traceevent.Action{
	ActRequestLock:        traceevent.RequestLock,
	ActCreateOk:           traceevent.CreateOk,
	ActCreateReplyLost:    traceevent.CreateReplyLost,
	ActFindOwnNode:        traceevent.FindOwnNode,
	ActListChildren:       traceevent.ListChildren,
	ActWatchPredecessor:   traceevent.WatchPredecessor,
	ActPredecessorGone:    traceevent.PredecessorGone,
	ActGrantOnHeadGone:    traceevent.GrantOnHeadGone,
	ActIgnoreNotification: "IgnoreNotification",
	ActGrant:              traceevent.Grant,
	ActRelease:            traceevent.Release,
	ActCancel:             traceevent.Cancel,
	ActLearnExpiry:        traceevent.LearnExpiry,
	ActExpireSession:      "ExpireSession",
	ActPauseClient:        "PauseClient",
	ActResumeClient:       "ResumeClient",
	ActDeleteLands:        traceevent.DeleteLands,
}

// Names returns the names of a module's n actions: the shared ones, and
// own, the names of its actions from NumShared on.
func Names(own ...traceevent.Action) []traceevent.Action {
	return append(SharedNames[:NumShared:NumShared], own...)
}

// ActionName returns names[a], or "?".
func ActionName(names []traceevent.Action, a uint8) string {
	if int(a) < len(names) {
		return string(names[a])
	}
	return "?"
}

// LabelString renders l with its parameters, e.g.
// "ExpireSession(<<c1, 2>>)": ExpireSession's session <<Client, Arg>>, the
// uuid <<Client, Arg>> of DeleteLands and of the actions in uuidArg, the
// client of any other action, nothing for an action without one.
func LabelString(names []traceevent.Action, clients []string, l model.Label, uuidArg ...uint8) string {
	name := ActionName(names, l.Action)
	if l.Client < 0 || int(l.Client) >= len(clients) {
		return name
	}
	c := clients[l.Client]
	switch {
	case l.Action == ActExpireSession:
		return fmt.Sprintf("%s(<<%s, %d>>)", name, c, l.Arg)
	case l.Action == ActDeleteLands || slices.Contains(uuidArg, l.Action):
		return fmt.Sprintf("%s(uuid <<%s, %d>>)", name, c, l.Arg)
	}
	return fmt.Sprintf("%s(%s)", name, c)
}
